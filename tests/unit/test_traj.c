/*
 * test_traj.c - recorded runs read back (traj.h): springball's own frames
 * bit for bit, LAMMPS dumps in any row order and scaled, what is made up
 * (radii, velocities) against its rule, and every bad file's message.
 */
#define _POSIX_C_SOURCE 200809L

#include "test.h"

#include "numfmt.h"
#include "record.h"
#include "scene.h"
#include "sim.h"
#include "text.h"
#include "traj.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes @p text to a new temporary file named like @p suffix; its path
 * in @p path. */
static int put(char *path, size_t size, const char *suffix, const char *text)
{
    (void)suffix; /* what the file is comes from its text */
    snprintf(path, size, "/tmp/sbtrajXXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok ? 0 : -1;
}

/* Opens @p text as a trajectory; 0 or -1 with err. */
static int open_text(struct traj *tr, const char *text, const char *suffix,
                     struct traj_error *err)
{
    char path[64];
    if (put(path, sizeof path, suffix, text))
        return -2;
    int rc = traj_open(tr, path, TRAJ_AUTO, NULL, NULL, err);
    unlink(path); /* the descriptor stays open */
    return rc;
}

/* A frame's scene holds stored velocities (rebuilt from the file's
 * observed ones): the scene's observed velocities, back in the balls. */
static void observed(struct scene *sc)
{
    struct sim s, o = {0};
    if (scene_to_sim(sc, &s))
        return;
    if (sim_observe(&s, &o) == SIM_OK)
        for (size_t b = 0; b < sc->n; b++) {
            size_t i = sim_slot(&o, b);
            sc->balls[b].vx = o.vx[i];
            sc->balls[b].vy = o.vy[i];
        }
    sim_free(&o);
    sim_free(&s);
}

static void test_text_double(void)
{
    /* Every way a number is written gives strtod's bits. */
    const char *cases[] = {"0", "-0", "1", "0.1", "0.05", "123456789012345678",
                           "9007199254740993", "1e22", "1e23", "4.9406564584124654e-324",
                           "0.33333333333333331", "2.5e-07", "-1.5E+3", "+7", ".5", "5.",
                           "1234567890123456789012", "0.000000000000000000000001"};
    int same = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double a = strtod(cases[i], NULL), b = -1;
        same += text_double(cases[i], strlen(cases[i]), &b) == 0 &&
                memcmp(&a, &b, sizeof a) == 0;
    }
    CHECK(same == (int)(sizeof cases / sizeof *cases));
    unsigned long long x = 88172645463325252ull;
    int good = 0;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        uint64_t bits = x;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v))
            v = (double)(x >> 11) * 1e-9;
        char buf[NUMFMT_MAX], buf2[40];
        numfmt_double(buf, v);
        snprintf(buf2, sizeof buf2, "%.6g", v);
        double a = 0, b = 0;
        good += text_double(buf, strlen(buf), &a) == 0 && memcmp(&a, &v, sizeof a) == 0 &&
                text_double(buf2, strlen(buf2), &b) == 0 && b == strtod(buf2, NULL);
    }
    CHECK(good == 20000);
    double v;
    CHECK(text_double("1.2.3", 5, &v) == -1);
    CHECK(text_double("inf", 3, &v) == -1);
    CHECK(text_double("1e999", 5, &v) == -1);
    CHECK(text_double("", 0, &v) == -1);
}

/* springball's frames come back bit for bit, with k, dt and the walls. */
static void test_roundtrip(void)
{
    const char *scene = "table 300 200\nk 7.5\ndt 0.03\nwalls hard\nrestitution 0.9\n"
                        "field 0 -0.25\nrandom 40 2 1 3 5\n";
    struct scene sc;
    struct scene_error se;
    struct sim s;
    CHECK(scene_parse(&sc, scene, strlen(scene), &se) == 0);
    CHECK(scene_to_sim(&sc, &s) == 0);
    char path[64] = "/tmp/sbtrajXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    struct record w;
    CHECK(f && record_attach(&w, f) == 0);
    struct sim keep[3];
    for (int k = 0; k < 3; k++) {
        record_xyz(&w, &s, s.steps);
        sim_init(&keep[k], s.n, &s.p);
        sim_copy(&keep[k], &s);
        for (int j = 0; j < 11; j++)
            sim_step(&s);
    }
    CHECK(record_close(&w) == 0);
    fclose(f);
    struct traj tr;
    struct traj_error err;
    CHECK(traj_open(&tr, path, TRAJ_AUTO, NULL, NULL, &err) == 0);
    unlink(path);
    CHECK(tr.format == TRAJ_XYZ && tr.nframes == 3 && tr.n == 40 && !tr.cut);
    CHECK(tr.have_params == 1 && tr.p.k == 7.5 && tr.p.dt == 0.03 &&
          tr.p.walls == SIM_WALLS_HARD && tr.p.restitution == 0.9 && tr.p.gy == -0.25);
    CHECK(tr.p.w == 300 && tr.p.h == 200 && !tr.v_diff && tr.notes[0] == 0);
    struct sim r;
    CHECK(sim_init(&r, tr.n, &tr.p) == 0);
    int same = 0;
    for (size_t k = 3; k-- > 0;) { /* backwards, through the slots */
        CHECK(traj_sim(&tr, k, &r, &err) == 0);
        int all = r.t == keep[k].t && r.steps == keep[k].steps;
        for (size_t b = 0; b < tr.n; b++) {
            size_t i = sim_slot(&keep[k], b), j = sim_slot(&r, b);
            all &= r.x[j] == keep[k].x[i] && r.y[j] == keep[k].y[i] &&
                   r.vx[j] == keep[k].vx[i] && r.vy[j] == keep[k].vy[i] &&
                   r.m[j] == keep[k].m[i] && r.r[j] == keep[k].r[i];
        }
        same += all;
    }
    CHECK(same == 3);
    CHECK(traj_at_time(&tr, keep[1].t) == 1 && traj_at_time(&tr, -1) == 0 &&
          traj_at_time(&tr, 1e9) == 2);
    CHECK(traj_sim(&tr, 3, &r, &err) == -1 && strstr(err.msg, "no frame 3"));
    sim_free(&r);
    traj_close(&tr);
    for (int k = 0; k < 3; k++)
        sim_free(&keep[k]);
    sim_free(&s);
    scene_free(&sc);
}

/* A dump in shuffled row order, scaled, ids not 1..n, in a shifted box. */
static void test_lammps(void)
{
    const char *text =
        "ITEM: TIMESTEP\n100\nITEM: NUMBER OF ATOMS\n3\nITEM: BOX BOUNDS pp pp pp\n"
        "-10 10\n-5 5\n-1 1\nITEM: ATOMS id type xs ys vx vy radius mass\n"
        "30 2 0.5 0.5 3 4 1 2\n10 1 0.25 0.5 1 0 1 1\n20 1 0.75 0.5 -1 0 0.5 1\n"
        "ITEM: TIMESTEP\n200\nITEM: NUMBER OF ATOMS\n3\nITEM: BOX BOUNDS pp pp pp\n"
        "-10 10\n-5 5\n-1 1\nITEM: ATOMS id type xs ys vx vy radius mass\n"
        "20 1 0.75 0.5 -1 0 0.5 1\n30 2 0.5 0.6 3 4 1 2\n10 1 0.2 0.5 1 0 1 1\n";
    struct traj tr;
    struct traj_error err;
    int rc = open_text(&tr, text, ".lammpstrj", &err);
    CHECK(rc == 0);
    if (rc) {
        printf("  %lld: %s\n", err.line, err.msg);
        return;
    }
    CHECK(tr.format == TRAJ_LAMMPS && tr.nframes == 2 && tr.n == 3);
    CHECK(tr.p.w == 20 && tr.p.h == 10 && tr.shift_x == 10 && tr.shift_y == 5);
    CHECK(tr.fr[1].step == 200 && tr.fr[1].t == 200); /* no PREFIX.in: steps */
    struct scene sc;
    CHECK(traj_scene(&tr, 1, &sc, &err) == 0);
    /* ball order is id order: 10, 20, 30 */
    CHECK(sc.n == 3 && sc.balls[0].x == 4 && sc.balls[1].x == 15 && sc.balls[2].x == 10);
    CHECK(sc.balls[2].y == 6 && sc.balls[2].m == 2 && sc.balls[1].r == 0.5 &&
          sc.balls[2].vy == 4);
    /* the first species met (type 2, in the first row) has no colour */
    CHECK(sc.balls[2].color == SCENE_COLOR_NONE && sc.balls[0].color != SCENE_COLOR_NONE &&
          sc.balls[0].color == sc.balls[1].color);
    scene_free(&sc);
    traj_close(&tr);
    /* an id twice, an id not in the first frame */
    const char *twice =
        "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff pp\n"
        "0 10\n0 10\n-1 1\nITEM: ATOMS id x y\n1 1 1\n1 2 2\n";
    CHECK(open_text(&tr, twice, ".lammpstrj", &err) == -1 && err.line == 10 &&
          !strcmp(err.msg, "id 1 twice in the first frame"));
    const char *stranger =
        "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff pp\n"
        "0 10\n0 10\n-1 1\nITEM: ATOMS id x y\n1 1 1\n2 2 2\n"
        "ITEM: TIMESTEP\n5\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff pp\n"
        "0 10\n0 10\n-1 1\nITEM: ATOMS id x y\n1 1 1\n3 2 2\n";
    CHECK(open_text(&tr, stranger, ".lammpstrj", &err) == 0);
    struct scene s2;
    CHECK(traj_scene(&tr, 1, &s2, &err) == -1 && err.line == 22 &&
          !strcmp(err.msg, "id 3 is not one of the first frame's"));
    traj_close(&tr);
    /* triclinic: tilt 0 is a rectangle, any other is refused */
    const char *tri =
        "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS xy xz yz pp pp pp\n"
        "0 10 0.5\n0 10 0\n-1 1 0\nITEM: ATOMS id x y\n1 1 1\n";
    CHECK(open_text(&tr, tri, ".lammpstrj", &err) == -1 && err.line == 8 &&
          strstr(err.msg, "triclinic"));
}

/* What is made up: radii by the rule, velocities by central differences
 * (exact for a quadratic path), momenta over masses (ASE's columns). */
static void test_made_up(void)
{
    /* a 10 x 10 grid of spacing 2 (radius 1) whose ball 0 leaves it along
     * y = -t^2 */
    char text[40000], *p = text;
    for (int k = 0; k < 4; k++) {
        double t = 0.5 * k;
        p += sprintf(p, "100\nTime=%g\n", t);
        for (int i = 0; i < 100; i++)
            p += sprintf(p, "Ar %.17g %.17g 0\n", 2.0 * (i % 10),
                         2.0 * (i / 10) - (i == 0 ? t * t : 0));
    }
    struct traj tr;
    struct traj_error err;
    CHECK(open_text(&tr, text, ".xyz", &err) == 0);
    CHECK(tr.v_diff && tr.r_rule == 1 && strstr(tr.notes, "radius 1 (half the 1st percentile"));
    struct scene sc;
    CHECK(traj_scene(&tr, 2, &sc, &err) == 0);
    /* (y(1.5) - y(0.5)) / 1 = -2 t at t = 1 */
    CHECK(sc.balls[0].vy == -2 && sc.balls[1].vy == 0 && sc.balls[5].r == 1);
    /* the table: the extent and a diameter around */
    CHECK(sc.p.w == 18 + 4 && sc.balls[1].x == 2 + 2 && sc.balls[1].y == 2);
    scene_free(&sc);
    CHECK(traj_scene(&tr, 3, &sc, &err) == 0); /* one-sided at the end */
    observed(&sc); /* (ball 0 is in a wall: stored and observed differ) */
    CHECK_NEAR(sc.balls[0].vy, -(2.25 - 1) / 0.5, 1e-15);
    scene_free(&sc);
    traj_close(&tr);
    const char *ase =
        "2\nLattice=\"10.0 0.0 0.0 0.0 8.0 0.0 0.0 0.0 1.0\" "
        "Properties=species:S:1:pos:R:3:momenta:R:3:masses:R:1 energy=1.5 pbc=\"F F F\"\n"
        "H        1.00000000       2.00000000       0.00000000       4.00000000       "
        "2.00000000       0.00000000       2.00000000\n"
        "He       5.00000000       2.00000000       0.00000000      -4.00000000       "
        "0.00000000       0.00000000       4.00000000\n";
    CHECK(open_text(&tr, ase, ".xyz", &err) == 0);
    CHECK(traj_scene(&tr, 0, &sc, &err) == 0);
    observed(&sc);
    CHECK(!tr.v_diff && sc.balls[0].vx == 2 && sc.balls[0].vy == 1 && sc.balls[1].vx == -1 &&
          sc.balls[1].m == 4 && sc.p.w == 10 && sc.p.h == 8 && sc.balls[0].r == 2);
    scene_free(&sc);
    traj_close(&tr);
}

/* Cut and malformed files, and what is not a trajectory. */
static void test_bad(void)
{
    struct traj tr;
    struct traj_error err;
    const char *cut = "2\nTime=0\nX 0 0 0\nX 3 0 0\n2\nTime=1\nX 0 0 0\nX 3 0 0\n2\nTime=2\nX 0 0";
    CHECK(open_text(&tr, cut, ".xyz", &err) == 0);
    CHECK(tr.nframes == 2 && tr.cut);
    traj_close(&tr);
    const char *whole = "2\nTime=0\nX 0 0 0\nX 3 0 0"; /* no final newline */
    CHECK(open_text(&tr, whole, ".xyz", &err) == 0);
    CHECK(tr.nframes == 1 && !tr.cut);
    traj_close(&tr);
    const char *first = "2\nTime=0\nX 0 0 0\n";
    CHECK(open_text(&tr, first, ".xyz", &err) == -1 && err.line == 3 &&
          !strcmp(err.msg, "the file ends inside the first frame"));
    const char *count = "2\nTime=0\nX 0 0 0\nX 3 0 0\n3\nTime=1\nX 0 0 0\nX 3 0 0\nX 1 1 0\n";
    CHECK(open_text(&tr, count, ".xyz", &err) == -1 && err.line == 5 &&
          !strcmp(err.msg, "frame 1 has 3 balls, the first 2"));
    const char *bad = "2\nProperties=species:S:1:pos:R:2:radius:R:1\nX 0 0 1\nX 3 0 1\n"
                      "2\nProperties=species:S:1:pos:R:2:radius:R:1\nX 0 zero 1\nX 3 0 1\n";
    CHECK(open_text(&tr, bad, ".xyz", &err) == 0);
    struct scene sc;
    CHECK(traj_scene(&tr, 1, &sc, &err) == -1 && err.line == 7 &&
          !strcmp(err.msg, "y: 'zero' is not a number"));
    traj_close(&tr);
    const char *fields = "1\nProperties=species:S:1:pos:R:2:radius:R:1\nX 0 0\n";
    CHECK(open_text(&tr, fields, ".xyz", &err) == -1 && err.line == 3 &&
          !strcmp(err.msg, "expected 4 fields (Properties), found 3"));
    const char *slant = "1\nLattice=\"1 1 0 0 1 0 0 0 1\"\nX 0 0 0\n";
    CHECK(open_text(&tr, slant, ".xyz", &err) == -1 && err.line == 2 &&
          strstr(err.msg, "slanted"));
    /* scenes, universes and particle files are not trajectories */
    const char *not[] = {"table 10 10\nball 1 1 0 0 1 1\n", "2\n100\n1 2 0 0 1 a\n3 4 0 0 1 b\n",
                         "1\n0.5 0.5 0 0 0.1 1 255 0 0\n"};
    int none = 0;
    for (int i = 0; i < 3; i++)
        none += traj_detect(not[i], strlen(not[i])) == TRAJ_AUTO;
    CHECK(none == 3);
    CHECK(traj_detect("3\n\nC 0 0 0\n", 10) == TRAJ_XYZ);
    CHECK(traj_detect("ITEM: TIMESTEP\n0\n", 17) == TRAJ_LAMMPS);
}

void test_traj(void)
{
    test_text_double();
    test_roundtrip();
    test_lammps();
    test_made_up();
    test_bad();
}
