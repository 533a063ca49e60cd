/*
 * test_record.c - trajectories, series and the LAMMPS export, read back by
 * readers of their own: frame and row counts, times, the comment line, the
 * balls in scene order after the simulation re-sorted its slots, every
 * value back to the bit (so also at %.17g), write errors, and the export's
 * masses, damping and refusals.
 */
#include "contact.h"
#include "event.h"
#include "export.h"
#include "numfmt.h"
#include "record.h"
#include "recording.h"
#include "scene.h"
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The whole contents of a stream written from the start. */
static char *slurp(FILE *f, size_t *len)
{
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = 0;
    *len = (size_t)n;
    return buf;
}

static int parse_scene(struct scene *sc, struct sim *s, const char *text)
{
    struct scene_error err;
    if (scene_parse(sc, text, strlen(text), &err))
        return -1;
    if (scene_to_sim(sc, s)) {
        scene_free(sc);
        return -1;
    }
    return 0;
}

/* Whether two doubles print the same at %.17g (and so are the same). */
static int same17(double a, double b)
{
    char x[40], y[40];
    snprintf(x, sizeof x, "%.17g", a);
    snprintf(y, sizeof y, "%.17g", b);
    return strcmp(x, y) == 0 && memcmp(&a, &b, sizeof a) == 0;
}

/* --- a reader of extended XYZ ------------------------------------------ */

struct xyz_frame {
    size_t n;
    double time;
    long long step;
    double lattice[9];
    double *v; /* n rows of x y z vx vy vz r m */
};

/* Reads the frame at *pos; returns 0, or -1 when the text is not a frame
 * of ours (a wrong count, key, property list or row). */
static int xyz_read(const char **pos, struct xyz_frame *fr)
{
    const char *p = *pos;
    char *end;
    fr->v = NULL;
    unsigned long long n = strtoull(p, &end, 10);
    if (end == p || *end != '\n')
        return -1;
    fr->n = n;
    p = end + 1;
    const char *eol = strchr(p, '\n');
    if (!eol)
        return -1;
    /* The comment line: key=value pairs, quoted values with blanks. */
    const char *lat = strstr(p, "Lattice=\"");
    const char *props = strstr(p, " Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1:"
                                  "momenta:R:3:masses:R:1 ");
    const char *tm = strstr(p, " Time=");
    const char *st = strstr(p, " Step=");
    const char *pbc = strstr(p, " pbc=\"F F F\"");
    if (!lat || !props || !tm || !st || !pbc || lat != p || tm > eol || st > eol || pbc > eol)
        return -1;
    const char *q = lat + 9;
    for (int k = 0; k < 9; k++) {
        fr->lattice[k] = strtod(q, &end);
        if (end == q)
            return -1;
        q = end;
    }
    if (*q != '"')
        return -1;
    fr->time = strtod(tm + 6, &end);
    if (*end != ' ')
        return -1;
    fr->step = strtoll(st + 6, &end, 10);
    if (*end != ' ')
        return -1;
    p = eol + 1;
    fr->v = malloc((n ? n : 1) * 8 * sizeof *fr->v);
    if (!fr->v)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (p[0] != 'X' || p[1] != ' ')
            return -1;
        p += 2;
        double mom[4]; /* px py 0 m: momenta and masses for ASE */
        for (int k = 0; k < 12; k++) {
            double v = strtod(p, &end);
            if (end == p || *end != (k == 11 ? '\n' : ' '))
                return -1;
            if (k < 8)
                fr->v[8 * i + k] = v;
            else
                mom[k - 8] = v;
            p = end + 1;
        }
        const double *r = fr->v + 8 * i;
        if (mom[0] != r[7] * r[3] || mom[1] != r[7] * r[4] || mom[2] != 0 || mom[3] != r[7])
            return -1;
    }
    *pos = p;
    return 0;
}

/* Whether frame fr holds the state of s, ball for ball in scene order
 * (ball b has mass b + 1 in these tests). */
static int xyz_matches(const struct xyz_frame *fr, const struct sim *s)
{
    if (fr->n != s->n || fr->time != s->t || fr->lattice[0] != s->p.w ||
        fr->lattice[4] != s->p.h)
        return 0;
    for (size_t b = 0; b < s->n; b++) {
        const double *r = fr->v + 8 * b;
        size_t i = sim_slot(s, b);
        if (i >= s->n || s->m[i] != (double)(b + 1) || !same17(r[0], s->x[i]) || !same17(r[1], s->y[i]) ||
            r[2] != 0 || !same17(r[3], s->vx[i]) || !same17(r[4], s->vy[i]) ||
            r[5] != 0 || !same17(r[6], s->r[i]) || !same17(r[7], s->m[i]))
            return 0;
    }
    return 1;
}

/* A gas of n balls of masses 1..n on a grid with awkward velocities. */
static int gas(struct scene *sc, struct sim *s, size_t n)
{
    size_t len = 64 + n * 96;
    char *text = malloc(len), *p = text;
    if (!text)
        return -1;
    size_t side = 1;
    while (side * side < n)
        side++;
    p += sprintf(p, "table %zu %zu\nk 50\ndt 0.01\n", side * 10, side * 10);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "ball %.17g %.17g %.17g %.17g %zu 4\n", 5.0 + 10.0 * (double)(i % side),
                     5.0 + 10.0 * (double)(i / side), 3.0 / (double)(i % 7 + 1) - 0.2,
                     0.1 * (double)(i % 5) - 0.7 / 3, i + 1);
    int rc = parse_scene(sc, s, text);
    free(text);
    return rc;
}

static void test_xyz(void)
{
    struct scene sc;
    struct sim s;
    /* Above SIM_SORT_MIN balls, so that the slots leave scene order. */
    size_t n = SIM_SORT_MIN + 100;
    CHECK(gas(&sc, &s, n) == 0);
    FILE *f = tmpfile();
    struct record w;
    CHECK(f && record_attach(&w, f) == 0);
    record_xyz(&w, &s, s.steps);
    struct sim copy[3];
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 7; j++)
            sim_step(&s);
        record_xyz(&w, &s, s.steps);
        sim_init(&copy[k], s.n, &s.p);
        sim_copy(&copy[k], &s);
    }
    CHECK(record_close(&w) == 0);
    int moved = 0;
    for (size_t i = 0; i < s.n; i++)
        moved += s.m[i] != (double)(i + 1);
    CHECK(moved > 0); /* the test means something: the slots were sorted */
    size_t len;
    char *text = slurp(f, &len);
    fclose(f);
    const char *p = text;
    struct xyz_frame fr;
    int frames = 0, good = 0;
    while (p && *p && xyz_read(&p, &fr) == 0) {
        if (frames == 0)
            good += fr.time == 0 && fr.step == 0 && fr.n == n && fr.lattice[8] == 8;
        else
            good += fr.step == 7 * frames && xyz_matches(&fr, &copy[frames - 1]);
        frames++;
        free(fr.v);
    }
    CHECK(p && *p == 0);
    CHECK(frames == 4);
    CHECK(good == 4);
    free(text);
    for (int k = 0; k < 3; k++)
        sim_free(&copy[k]);
    sim_free(&s);
    scene_free(&sc);
}

/* A large frame is the same bytes with any number of threads. */
static void test_xyz_threads(void)
{
    struct scene sc;
    struct sim s;
    CHECK(gas(&sc, &s, 70001) == 0);
    for (int k = 0; k < 3; k++)
        sim_step(&s);
    char *text[3] = {NULL, NULL, NULL};
    size_t len[3] = {0, 0, 0};
    const int threads[3] = {1, 3, 16};
    int counted = 1;
    for (int k = 0; k < 3; k++) {
        FILE *f = tmpfile();
        struct record w;
        CHECK(f && record_attach(&w, f) == 0);
        w.threads = threads[k];
        record_xyz(&w, &s, 3);
        record_xyz(&w, &s, 3);
        unsigned long long bytes = w.bytes + w.len;
        CHECK(record_close(&w) == 0);
        text[k] = slurp(f, &len[k]);
        counted &= bytes == len[k];
        fclose(f);
    }
    CHECK(counted);
    CHECK(len[0] > 70001 * 20 && len[0] == len[1] && len[0] == len[2]);
    CHECK(text[0] && text[1] && text[2] && memcmp(text[0], text[1], len[0]) == 0 &&
          memcmp(text[0], text[2], len[0]) == 0);
    /* and it reads back: two frames of this state */
    const char *p = text[0];
    struct xyz_frame fr;
    int good = 0;
    for (int k = 0; k < 2 && xyz_read(&p, &fr) == 0; k++) {
        good += xyz_matches(&fr, &s);
        free(fr.v);
    }
    CHECK(good == 2 && *p == 0);
    for (int k = 0; k < 3; k++)
        free(text[k]);
    sim_free(&s);
    scene_free(&sc);
}

/* Frame 0 of a scene with exact values: the numbers as written. */
static void test_xyz_text(void)
{
    struct scene sc;
    struct sim s;
    CHECK(parse_scene(&sc, &s, "table 800 400\nball 0.1 200 -1e-07 1e22 1 12\n"
                               "ball 700 5e-324 0 -0 2 0.5\n") == 0);
    FILE *f = tmpfile();
    struct record w;
    CHECK(record_attach(&w, f) == 0);
    record_xyz(&w, &s, 0);
    CHECK(record_close(&w) == 0);
    size_t len;
    char *text = slurp(f, &len);
    fclose(f);
    const char *want =
        "2\n"
        "Lattice=\"800 0 0 0 400 0 0 0 24\" "
        "Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1:momenta:R:3:masses:R:1 "
        "Time=0 Step=0 springball=\"k 5; dt 0.05\" pbc=\"F F F\"\n"
        "X 0.1 200 0 -1e-07 1e+22 0 12 1 -1e-07 1e+22 0 1\n"
        "X 700 5e-324 0 0 -0 0 0.5 2 0 -0 0 2\n";
    CHECK(text && strcmp(text, want) == 0);
    if (text && strcmp(text, want) != 0)
        printf("got:\n%s", text);
    free(text);
    sim_free(&s);
    scene_free(&sc);
}

/* --- a reader of the CSV ----------------------------------------------- */

static void test_series(void)
{
    struct scene sc;
    struct sim s;
    CHECK(gas(&sc, &s, 50) == 0);
    FILE *f = tmpfile();
    struct record w;
    CHECK(record_attach(&w, f) == 0);
    record_series_header(&w, &s.p, 0);
    struct sim_diag want[11];
    double tw[11];
    for (int k = 0; k <= 10; k++) {
        record_series_row(&w, &s, s.steps);
        sim_diag(&s, &want[k]);
        tw[k] = s.t;
        for (int j = 0; j < 5; j++)
            sim_step(&s);
    }
    CHECK(record_close(&w) == 0);
    size_t len;
    char *text = slurp(f, &len);
    fclose(f);
    const char *hdr = "t,step,ke,pe,pg,e,px,py,contacts,dissipated\n";
    CHECK(strncmp(text, hdr, strlen(hdr)) == 0);
    const char *p = text + strlen(hdr);
    int rows = 0, good = 0;
    while (*p) {
        double v[10];
        char *end;
        int ok = 1;
        for (int c = 0; c < 10; c++) {
            v[c] = strtod(p, &end);
            ok &= end != p && *end == (c == 9 ? '\n' : ',');
            p = *end ? end + 1 : end;
        }
        if (ok && rows <= 10) {
            const struct sim_diag *d = &want[rows];
            good += same17(v[0], tw[rows]) && v[1] == 5 * rows && same17(v[2], d->ke) &&
                    same17(v[3], d->pe) && same17(v[4], d->pg) && same17(v[5], d->e) &&
                    same17(v[6], d->px) && same17(v[7], d->py) &&
                    v[8] == (double)d->contacts && same17(v[9], d->dissipated);
        }
        rows++;
    }
    CHECK(rows == 11);
    CHECK(good == 11);
    free(text);
    sim_free(&s);
    scene_free(&sc);
}

/* The event engine's rows: its counters and energies. */
static void test_series_event(void)
{
    struct scene sc;
    struct sim s;
    CHECK(parse_scene(&sc, &s, "table 100 100\nrestitution 0.5\n"
                               "ball 20 50 3 0 1 5\nball 80 50 -3 0 1 5\n") == 0);
    struct event ev;
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_step(&ev, 3) == 3);
    event_to_sim(&ev, &s);
    FILE *f = tmpfile();
    struct record w;
    CHECK(record_attach(&w, f) == 0);
    record_series_header(&w, &s.p, 1);
    record_series_event_row(&w, &s, &ev);
    CHECK(record_close(&w) == 0);
    size_t len;
    char *text = slurp(f, &len);
    fclose(f);
    struct event_diag d;
    event_diag(&ev, &d);
    char want[1024];
    /* ke = ke0 e^2 after the one collision, the walls elastic? They take
     * e too: compare with the engine's own numbers. */
    CHECK(d.collisions >= 1);
    const char *hdr = "t,step,ke,pe,pg,e,px,py,contacts,dissipated,"
                      "collisions,walls,crossings,mft\n";
    CHECK(strncmp(text, hdr, strlen(hdr)) == 0);
    char *end;
    const char *p = text + strlen(hdr);
    double t = strtod(p, &end);
    CHECK(same17(t, ev.t) && *end == ',');
    long long step = strtoll(end + 1, &end, 10);
    CHECK(step == 3 && *end == ',');
    double ke = strtod(end + 1, &end);
    CHECK(same17(ke, d.ke));
    snprintf(want, sizeof want, ",%lld,%lld,%lld,", d.collisions, d.walls, d.crossings);
    CHECK(strstr(text, want) != NULL);
    /* dissipated = ke0 - ke */
    double v[10];
    p = text + strlen(hdr);
    for (int c = 0; c < 10; c++) {
        v[c] = strtod(p, &end);
        p = end + 1;
    }
    CHECK(same17(v[9], d.ke0 - d.ke) && v[9] > 0 && v[3] == 0 && same17(v[5], d.ke));
    free(text);
    event_free(&ev);
    sim_free(&s);
    scene_free(&sc);
}

/* A write error is kept and reported by record_close. */
static void test_write_error(void)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        printf("record: /dev/full missing, write error test skipped\n");
        return;
    }
    struct scene sc;
    struct sim s;
    CHECK(gas(&sc, &s, 40000) == 0);
    struct record w;
    CHECK(record_attach(&w, f) == 0);
    record_xyz(&w, &s, 0);
    CHECK(w.err == ENOSPC); /* 40000 rows pass the block: written already */
    CHECK(record_close(&w) == ENOSPC);
    fclose(f);
    f = fopen("/dev/full", "w");
    CHECK(record_attach(&w, f) == 0);
    record_series_header(&w, &s.p, 0);
    CHECK(w.err == 0);
    CHECK(record_close(&w) == ENOSPC); /* found at the flush */
    fclose(f);
    sim_free(&s);
    scene_free(&sc);
}

/* --- the LAMMPS export -------------------------------------------------- */

static void test_export(void)
{
    struct scene sc;
    struct sim s;
    CHECK(parse_scene(&sc, &s, "title Two\ntable 100 50\nk 7\ndt 0.02\n"
                               "ball 20 25 1.5 0 1 5\nball 80 25 -0.5 0.25 3 2.5\n") == 0);
    CHECK(export_lammps_unsupported(&s) == NULL);
    FILE *f = tmpfile();
    export_lammps_data(f, &s, sc.title, NULL);
    size_t len;
    char *text = slurp(f, &len);
    fclose(f);
    CHECK(strstr(text, "\n2 atoms\n1 atom types\n") != NULL);
    CHECK(strstr(text, "\n-5 105 xlo xhi\n-5 55 ylo yhi\n") != NULL);
    /* id type diameter density x y z, and the mass LAMMPS will compute */
    const char *a = strstr(text, "Atoms # sphere\n\n");
    CHECK(a != NULL);
    if (a) {
        const char *p = a + strlen("Atoms # sphere\n\n");
        const double want[2][4] = {{10, 1, 20, 25}, {5, 3, 80, 25}};
        for (int i = 0; i < 2; i++) {
            char *end;
            long id = strtol(p, &end, 10), type = strtol(end, &end, 10);
            double d = strtod(end, &end), rho = strtod(end, &end);
            double x = strtod(end, &end), y = strtod(end, &end), z = strtod(end, &end);
            p = end + 1;
            double r = d / 2, m = rho * 4.0 / 3.0 * SIM_PI * r * r * r;
            CHECK(id == i + 1 && type == 1 && d == want[i][0] && x == want[i][2] &&
                  y == want[i][3] && z == 0);
            CHECK_NEAR(m, want[i][1], 1e-15 * want[i][1]);
        }
    }
    CHECK(strstr(text, "\nVelocities\n\n1 1.5 0 0 0 0 0\n2 -0.5 0.25 0 0 0 0\n") != NULL);
    free(text);

    f = tmpfile();
    struct export_run run = {.data_name = "x.data", .dump_prefix = "x", .steps = 250,
                             .every = 10, .title = sc.title};
    export_lammps_in(f, &s, &run);
    text = slurp(f, &len);
    fclose(f);
    CHECK(strstr(text, "\npair_style gran/hooke 7 0 0 0 0 0\n") != NULL);
    /* The spring walls: springball's terms at any depth, on the balls
     * within the largest radius of a wall, in a box that grows. */
    CHECK(strstr(text, "\nboundary m m p\n") != NULL);
    CHECK(strstr(text, "\nregion inner block 5 95 5 45 INF INF side out units box\n") != NULL);
    CHECK(strstr(text, "\nvariable wfx atom ((c_rad-x)*7)*(c_rad>x)-((x+c_rad-100)*7)"
                       "*(x+c_rad>100)\n") != NULL);
    CHECK(strstr(text, "\nvariable wfy atom ((c_rad-y)*7)*(c_rad>y)-((y+c_rad-50)*7)"
                       "*(y+c_rad>50)\n") != NULL);
    CHECK(strstr(text, "\ngroup near dynamic all region inner every 1\n"
                       "fix walls near addforce v_wfx v_wfy 0\n") != NULL);
    CHECK(strstr(text, "wall/gran") == NULL);
    CHECK(strstr(text, "\ntimestep 0.02\n") != NULL);
    CHECK(strstr(text, "\nread_data x.data\n") != NULL);
    CHECK(strstr(text, "\nrun 250\n") != NULL);
    CHECK(strstr(text, "\ndump xyz all xyz 10 x.xyz\n") != NULL);
    CHECK(strstr(text, "\nfix flat all enforce2d\n") != NULL);
    CHECK(strstr(text, "v_mtot/4-1") != NULL);
    CHECK(strstr(text, "fix imd") == NULL && strstr(text, "write_dump") == NULL);
    free(text);

    /* --engine=lammps: fix imd on the port of a variable, waiting for its
     * client; the dump of the run alone; the final state at %.17g. */
    f = tmpfile();
    struct export_run eng = {.data_name = "run.data", .dump_prefix = "run", .steps = 400,
                             .every = 50, .imd_trate = 50, .imd_port_var = "sbport",
                             .final_dump = "final.dump", .trj_only = 1};
    export_lammps_in(f, &s, &eng);
    text = slurp(f, &len);
    fclose(f);
    CHECK(strstr(text, "\nfix imd all imd ${sbport} trate 50\nrun 400\n"
                       "write_dump all custom final.dump id x y vx vy modify sort id "
                       "format float %.17g\n") != NULL);
    CHECK(strstr(text, "nowait on") == NULL);
    CHECK(strstr(text, "\ndump xyz") == NULL);
    CHECK(strstr(text, "\ndump traj all custom 50 run.lammpstrj id element x y z vx vy vz "
                       "radius mass\n") != NULL);
    free(text);
    sim_free(&s);
    scene_free(&sc);

    /* Restitution: gamma_n from e for pairs (mu = m/2); the walls' dashpot
     * 2 zeta sqrt(k m) from each ball's mass. */
    CHECK(parse_scene(&sc, &s, "restitution 0.8\nk 5\nball 20 25 1 0 2 5\n"
                               "ball 80 25 -1 0 2 5\n") == 0);
    CHECK(export_lammps_unsupported(&s) == NULL);
    run.title = NULL; /* the last scene's title is freed */
    f = tmpfile();
    export_lammps_in(f, &s, &run);
    text = slurp(f, &len);
    fclose(f);
    char want[200], g[NUMFMT_MAX];
    numfmt_double(g, export_gamma_n(0.8, 5, 1));
    snprintf(want, sizeof want, "\npair_style gran/hooke 5 0 %s 0 0 0\n", g);
    CHECK(strstr(text, want) != NULL);
    numfmt_double(g, 2 * contact_zeta(0.8));
    snprintf(want, sizeof want, "\nvariable wfx atom ((c_rad-x)*5-%s*sqrt(5*mass)*vx)*(c_rad>x)"
             "-((x+c_rad-800)*5+%s*sqrt(5*mass)*vx)*(x+c_rad>800)\n", g, g);
    CHECK(strstr(text, want) != NULL);
    free(text);
    sim_free(&s);
    scene_free(&sc);
    /* The damped spring mu x'' + mu g x' + k x = 0 leaves a contact after
     * pi / w_d, w_d = sqrt(k/mu - g^2/4), with its speed times
     * exp(-g pi / (2 w_d)): that must be e. */
    const double es[] = {0.1, 0.5, 0.8, 0.99, 1};
    for (int i = 0; i < 5; i++) {
        double mu = 0.75, k = 3, gn = export_gamma_n(es[i], k, mu);
        double wd = sqrt(k / mu - gn * gn / 4);
        CHECK_NEAR(exp(-gn * SIM_PI / (2 * wd)), es[i], 1e-14);
    }

    /* What has no equivalent is refused. */
    const char *refused[][2] = {
        {"table circle 100\nwalls hard\nball 100 100 0 0 1 5\n", "the round table's hard wall"},
        {"open left\nball 100 100 0 0 1 5\n", "open sides"},
        {"contact exp 1 2\nball 100 100 0 0 1 5\n", "exponential contacts"},
        {"gravity 1\nball 100 100 0 0 1 5\n", "gravity between balls"},
        {"walls hard\nrestitution 0.9\nball 100 100 0 0 1 5\n", "hard walls with restitution < 1"},
        {"walls hard\nball 100 100 0 0 1 5\nball 200 100 0 0 1 6\n",
         "hard walls with balls of more than one radius"},
        {"restitution 0.9\nball 100 100 0 0 1 5\nball 200 100 0 0 2 5\n",
         "restitution < 1 with balls of more than one mass"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        CHECK(parse_scene(&sc, &s, refused[i][0]) == 0);
        const char *why = export_lammps_unsupported(&s);
        CHECK(why && strncmp(why, refused[i][1], strlen(refused[i][1])) == 0);
        sim_free(&s);
        scene_free(&sc);
    }
}

/* The terminal's recording: a frame per change of the state shown, the
 * first free name, and what it says. */
static void test_recording(void)
{
    struct scene sc;
    struct sim s;
    CHECK(parse_scene(&sc, &s, "ball 100 100 1 0 1 5\nball 300 100 -1 0 1 5\n") == 0);
    struct session ss;
    CHECK(session_init(&ss, &s) == 0);
    const char *prefix = "/tmp/springball-unit-recording";
    char name[2][128];
    /* Leftovers of an earlier run must not be overwritten: take a name. */
    snprintf(name[0], sizeof name[0], "%s-1.xyz", prefix);
    FILE *f = fopen(name[0], "r");
    int had1 = f != NULL;
    if (f)
        fclose(f);
    struct recording r;
    memset(&r, 0, sizeof r);
    char msg[256];
    CHECK(recording_start(&r, prefix, &ss, msg, sizeof msg) == 0);
    CHECK(r.on && r.frames == 1);
    CHECK(strstr(msg, "recording to ") == msg && strstr(msg, "(R stops)"));
    CHECK(had1 ? strcmp(r.traj_name, name[0]) != 0 : strcmp(r.traj_name, name[0]) == 0);
    snprintf(name[0], sizeof name[0], "%s", r.traj_name);
    snprintf(name[1], sizeof name[1], "%s", r.series_name);
    CHECK(recording_frame(&r, &ss) == 0 && r.frames == 1); /* no change: no frame */
    session_forward(&ss);
    session_forward(&ss);
    CHECK(recording_frame(&r, &ss) == 0 && r.frames == 2);
    session_back(&ss);
    CHECK(recording_frame(&r, &ss) == 0 && r.frames == 3);
    /* A second recording takes the next name. */
    struct recording r2;
    char msg2[256];
    CHECK(recording_start(&r2, prefix, &ss, msg2, sizeof msg2) == 0);
    CHECK(strcmp(r2.traj_name, r.traj_name) != 0);
    CHECK(recording_stop(&r2, NULL, 0) == 0);
    remove(r2.traj_name);
    remove(r2.series_name);
    CHECK(recording_stop(&r, msg, sizeof msg) == 0 && !r.on);
    char want[400];
    snprintf(want, sizeof want, "recorded 3 frames to %s and %s", name[0], name[1]);
    CHECK(strcmp(msg, want) == 0);
    /* The files: 3 frames at steps 0, 2, 1, and 3 rows. */
    f = fopen(name[0], "rb");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 0, SEEK_END);
        size_t len;
        char *text = slurp(f, &len);
        fclose(f);
        const char *p = text;
        struct xyz_frame fr;
        long long steps[3] = {-1, -1, -1};
        int k = 0;
        while (k < 3 && xyz_read(&p, &fr) == 0) {
            steps[k++] = fr.step;
            free(fr.v);
        }
        CHECK(k == 3 && *p == 0 && steps[0] == 0 && steps[1] == 2 && steps[2] == 1);
        free(text);
    }
    f = fopen(name[1], "rb");
    CHECK(f != NULL);
    if (f) {
        int lines = 0, c;
        while ((c = fgetc(f)) != EOF)
            lines += c == '\n';
        fclose(f);
        CHECK(lines == 4);
    }
    remove(name[0]);
    remove(name[1]);
    /* The next recording tries the number after the last one's. */
    CHECK(r.next == 2);
    /* Where nothing can be made, it says why and records nothing. */
    memset(&r, 0, sizeof r); /* a new recording: numbers from 1 */
    CHECK(recording_start(&r, "/nonexistent-dir/x", &ss, msg, sizeof msg) == -1 && !r.on);
    CHECK(strncmp(msg, "cannot record: /nonexistent-dir/x-1.xyz: ", 41) == 0);
    CHECK(recording_stop(&r, msg, sizeof msg) == 0);
    session_free(&ss);
    sim_free(&s);
    scene_free(&sc);
}

void test_record(void)
{
    test_xyz_text();
    test_xyz();
    test_xyz_threads();
    test_series();
    test_series_event();
    test_write_error();
    test_export();
    test_recording();
}
