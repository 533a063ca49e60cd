/*
 * test_scene.c - the scene parser: every directive, the generators, the
 * round trip through scene_write, and malformed input with its line.
 */
#include "formats.h"
#include "scene.h"
#include "test.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct scene *sc, const char *text, struct scene_error *err)
{
    return scene_parse(sc, text, strlen(text), err);
}

/* Writes the scene at t = 0 into a malloc'd string. */
static char *write_str(const struct scene *sc)
{
    struct sim s;
    if (scene_to_sim(sc, &s))
        return NULL;
    FILE *f = tmpfile();
    scene_write(f, sc, &s);
    long len = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)len + 1, 1);
    if (fread(buf, 1, (size_t)len, f) != (size_t)len)
        buf[0] = 0;
    fclose(f);
    sim_free(&s);
    return buf;
}

static void test_directives(void)
{
    struct scene sc;
    struct scene_error err;
    const char *text =
        "# a comment line\n"
        "\n"
        "title  A  test   scene  # with a comment\n"
        "table 300 200\n"
        "k 12.5\n"
        "dt\t0.01\n"
        "ball 10 20 1 -2 3 4 red   # trailing comment\n"
        "ball 50 60 0 0 1 5 #10A0ff\n"
        "ball 80 60 0 0 1 5 # not a colour\n"
        "ball 90 60 0 0 1 5 #12345 is a comment too: not #rrggbb\n"
        "   ball 100 100 0 0 2 1 white\r\n";
    CHECK(parse(&sc, text, &err) == 0);
    CHECK(sc.title && strcmp(sc.title, "A  test   scene") == 0);
    CHECK(sc.p.w == 300 && sc.p.h == 200 && sc.p.k == 12.5 && sc.p.dt == 0.01);
    CHECK(sc.n == 5);
    CHECK(sc.balls[0].x == 10 && sc.balls[0].y == 20 && sc.balls[0].vx == 1 &&
          sc.balls[0].vy == -2 && sc.balls[0].m == 3 && sc.balls[0].r == 4);
    char buf[8];
    CHECK(strcmp(scene_color_name(sc.balls[0].color, buf), "red") == 0);
    CHECK(strcmp(scene_color_name(sc.balls[1].color, buf), "#10a0ff") == 0);
    CHECK(scene_color_rgb(sc.balls[1].color) == 0x10a0ff);
    CHECK(sc.balls[2].color == SCENE_COLOR_NONE);
    CHECK(scene_color_name(sc.balls[2].color, buf) == NULL);
    CHECK(sc.balls[3].color == SCENE_COLOR_NONE);
    CHECK(strcmp(scene_color_name(sc.balls[4].color, buf), "white") == 0);
    scene_free(&sc);

    /* a round table, restitution */
    CHECK(parse(&sc, "table circle 150\nrestitution 0.75\nball 150 150 0 0 1 5\n"
                     "random 100 4 1 1 3\n", &err) == 0);
    CHECK(sc.p.shape == SIM_CIRCLE && sc.p.w == 300 && sc.p.h == 300);
    CHECK(sc.p.restitution == 0.75);
    int outside = 0;
    for (size_t i = 0; i < sc.n; i++)
        outside += hypot(sc.balls[i].x - 150, sc.balls[i].y - 150) > 150 - sc.balls[i].r;
    CHECK(outside == 0);
    char *txt = write_str(&sc);
    CHECK(txt && strstr(txt, "table circle 150\nk 5\ndt 0.05\n"
                             "restitution 0.75\n") != NULL);
    free(txt);
    scene_free(&sc);

    /* defaults */
    CHECK(parse(&sc, "ball 400 200 0 0 1 10\n", &err) == 0);
    CHECK(sc.p.w == 800 && sc.p.h == 400 && sc.p.k == 5 && sc.p.dt == 0.05);
    CHECK(sc.title == NULL && sc.p.restitution == 1 && sc.p.shape == SIM_RECT);
    scene_free(&sc);
}

static void test_rack(void)
{
    struct scene sc;
    struct scene_error err;
    CHECK(parse(&sc, "rack 500 200 5 12 2\n", &err) == 0);
    CHECK(sc.n == 15);
    /* apex first, rows opening toward +x, all at rest, all touching */
    CHECK(sc.balls[0].x == 500 && sc.balls[0].y == 200);
    double maxx = 0;
    int touching = 0;
    for (size_t i = 0; i < sc.n; i++) {
        CHECK(sc.balls[i].vx == 0 && sc.balls[i].vy == 0 && sc.balls[i].m == 2);
        if (sc.balls[i].x > maxx)
            maxx = sc.balls[i].x;
        for (size_t j = i + 1; j < sc.n; j++) {
            double d = hypot(sc.balls[i].x - sc.balls[j].x, sc.balls[i].y - sc.balls[j].y);
            CHECK(d > 24 - 1e-9);
            touching += fabs(d - 24) < 1e-9;
        }
    }
    CHECK_NEAR(maxx, 500 + 4 * sqrt(3.0) * 12, 1e-9);
    CHECK(touching == 30); /* the edges of a triangular lattice of 15 */
    /* touching is not overlapping: no contact, no force */
    struct sim s;
    scene_to_sim(&sc, &s);
    struct sim_diag d;
    sim_diag(&s, &d);
    CHECK(d.contacts == 0 && d.pe == 0);
    sim_forces(&s);
    for (size_t i = 0; i < s.n; i++)
        CHECK(s.fx[i] == 0 && s.fy[i] == 0);
    sim_free(&s);
    scene_free(&sc);
}

static void test_random(void)
{
    struct scene a, b;
    struct scene_error err;
    const char *text = "table 400 300\nball 200 150 0 0 1 40\nrandom 200 5 2 3 42\n";
    CHECK(parse(&a, text, &err) == 0);
    CHECK(parse(&b, text, &err) == 0);
    CHECK(a.n == 201 && b.n == 201);
    CHECK(memcmp(a.balls, b.balls, a.n * sizeof *a.balls) == 0);
    int bad = 0;
    for (size_t i = 0; i < a.n; i++) {
        const struct scene_ball *p = &a.balls[i];
        if (p->x < p->r || p->x > 400 - p->r || p->y < p->r || p->y > 300 - p->r)
            bad++;
        if (i > 0 && (fabs(hypot(p->vx, p->vy) - 3) > 1e-12 || p->m != 2 || p->r != 5))
            bad++;
        for (size_t j = 0; j < i; j++)
            if (hypot(p->x - a.balls[j].x, p->y - a.balls[j].y) < p->r + a.balls[j].r)
                bad++;
    }
    CHECK(bad == 0);
    scene_free(&b);
    /* another seed, another scene */
    CHECK(parse(&b, "table 400 300\nball 200 150 0 0 1 40\nrandom 200 5 2 3 43\n", &err) == 0);
    CHECK(memcmp(a.balls + 1, b.balls + 1, sizeof *a.balls) != 0);
    scene_free(&a);
    scene_free(&b);
    /* the first numbers of seed 1 are fixed forever: scenes are portable */
    CHECK(parse(&a, "random 3 10 1 5 1\n", &err) == 0);
    char *out = write_str(&a);
    CHECK(out && strstr(out, "ball 451.9180286343791 293.3970677598264 "
                             "4.965472680509711 -0.58658423019351 1 10\n") != NULL);
    free(out);
    scene_free(&a);
    /* an impossible request is an error that says so */
    CHECK(parse(&a, "table 100 100\nrandom 100 10 1 1 1\n", &err) == -1);
    CHECK(err.line == 2);
    CHECK(strstr(err.msg, "cannot place 100 balls") != NULL);
}

static void test_round_trip(void)
{
    const char *texts[] = {
        scene_builtin,
        "title x\ntable 123.5 77\nk 1e-3\ndt 0.1\nball 10 10 0.1 0.2 0.3 1.5 #abcdef\n"
        "ball 20 20 -0 1e-300 1 1\nrandom 20 2 1 1 7\n",
        "table circle 77.25\nrestitution 0.125\nrandom 30 3 1 2 9\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        struct scene a, b;
        struct scene_error err;
        CHECK(parse(&a, texts[i], &err) == 0);
        char *once = write_str(&a);
        CHECK(parse(&b, once, &err) == 0);
        char *twice = write_str(&b);
        CHECK(once && twice && strcmp(once, twice) == 0);
        CHECK(a.n == b.n && memcmp(a.balls, b.balls, a.n * sizeof *a.balls) == 0);
        free(once);
        free(twice);
        scene_free(&a);
        scene_free(&b);
    }
}

static void test_errors(void)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } cases[] = {
        {"", 1, "no balls"},
        {"# only a comment\n\n", 2, "no balls"},
        {"table 800 400\nfoo 1 2\n", 2, "unknown directive 'foo'"},
        {"ball 1 2 3\n", 1, "ball X Y VX VY M R [COLOR]: missing field"},
        {"ball 50 50 0 0 1 5 red extra\n", 1, "extra field 'extra'"},
        {"ball 50 50 0 0 1 5 pink\n", 1, "unknown colour 'pink'"},
        {"ball 50 50 0 0 1 0\n", 1, "radius must be > 0"},
        {"ball 50 50 0 0 -1 5\n", 1, "mass must be > 0"},
        {"ball 50 x 0 0 1 5\n", 1, "y: 'x' is not a number"},
        {"ball 50 50 nan 0 1 5\n", 1, "vx: 'nan' is not a finite number"},
        {"ball 50 50 0 inf 1 5\n", 1, "vy: 'inf' is not a finite number"},
        {"ball 50 50 1e999 0 1 5\n", 1, "vx: '1e999' is not a finite number"},
        {"ball 50 50 0x 0 1 5\n", 1, "vx: '0x' is not a number"},
        /* with spring walls a ball may lie anywhere (see test_read_back);
         * with hard walls wholly on the table; a rack on it */
        {"walls hard\n\nball -3 50 0 0 1 5\n", 3, "ball 1 at (-3, 50) of radius 5 crosses a wall"},
        {"walls hard\nball 50 396 0 0 1 5\n", 2, "crosses a wall"},
        {"ball 50 50 0 0 1 5\nrack 810 50 1 5 1\n", 2, "ball 2 at (810, 50) lies outside the table 800 x 400"},
        {"table 0 400\n", 1, "table width must be > 0"},
        {"table 800\n", 1, "table W H: missing field"},
        {"table 800 400 3\n", 1, "extra field '3'"},
        {"table 800 400\ntable 800 400\n", 2, "'table' given twice (first on line 1)"},
        {"ball 50 50 0 0 1 5\ntable 900 400\n", 2, "'table' must come before the balls"},
        {"k 0\n", 1, "stiffness k must be > 0"},
        {"table circle 0\n", 1, "table radius must be > 0"},
        {"table circle\n", 1, "table circle R: missing field"},
        {"table circle 100 5\n", 1, "table circle R: extra field '5'"},
        {"table circle 100\nrack 10 10 1 5 1\n", 2, "ball 1 at (10, 10) lies outside the round table of radius 100"},
        {"restitution -0.1\n", 1, "restitution must be >= 0 and <= 1"},
        {"restitution 1.5\n", 1, "restitution must be >= 0 and <= 1"},
        {"restitution 0.5\nrestitution 0.5\n", 2, "'restitution' given twice"},
        {"k -1\n", 1, "stiffness k must be > 0"},
        {"dt 0\n", 1, "time step dt must be > 0"},
        {"dt 1 2\n", 1, "extra field '2'"},
        {"k 1\nk 2\n", 2, "'k' given twice"},
        {"title\n", 1, "title: missing text"},
        {"title a\ntitle b\n", 2, "'title' given twice"},
        {"rack 400 200 0 10 1\n", 1, "rows must be between 1 and 100000"},
        {"rack 400 200 2.5 10 1\n", 1, "rows: '2.5' is not a whole number"},
        {"rack 790 200 5 12 1\n", 1, "lies outside the table"},
        {"rack 400 200 5 12\n", 1, "rack X Y ROWS R M: missing field"},
        {"random 0 5 1 1 1\n", 1, "count must be between 1"},
        {"random 10 5 1 -1 1\n", 1, "speed must be >= 0"},
        {"random 10 5 1 1 -1\n", 1, "seed: '-1' is not a whole number"},
        {"random 10 500 1 1 1\n", 1, "does not fit the table"},
        {"ball 50 50 0 0 1 5\n\x01\n", 2, "unknown directive '?'"},
        /* invisible characters are shown, a bad #rrggbb is no comment
         * (issue 11) */
        {"table\xc2\xa0" "800 400\n", 1, "unknown directive 'table<U+00A0>800'"},
        {"\xef\xbb\xbftable 800 400\n", 1, "unknown directive '<U+FEFF>table'"},
        {"k\xe2\x80\x8b 5\n", 1, "unknown directive 'k<U+200B>'"},
        {"k 5\xc2\xa0\n", 1, "k: '5<U+00A0>' is not a number"},
        {"ball 50 50 0 0 1 5 #12345g\n", 1, "colour '#12345g' is not #rrggbb (six hex digits)"},
        /* limits (found by fuzzing: huge requests fail early and clearly) */
        {"rack 10 10 100000 1 1\n", 1, "too many balls: 0 before this line and 5000050000 on it (a scene holds at most 10000000)"},
        {"ball 1 1 0 0 1 1\nrandom 10000000 0.1 1 1 1\n", 2, "too many balls: 1 before this line and 10000000 on it"},
        {"random 10000001 0.1 1 1 1\n", 1, "count must be between 1 and 10000000"},
        /* near jamming each ball took up to 100000 tries (a fuzz timeout):
         * all of them together get 100000 + 100 N */
        {"random 65322 1 1 1 4\n", 1, "random: cannot place 65322 balls of radius 1 without overlap (placed 52444)"},
        {"table circle 1e308\nball 1 1 0 0 1 1\n", 1, "table radius 1e+308 is too large"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct scene sc;
        struct scene_error err;
        int rc = parse(&sc, cases[i].text, &err);
        check_parse_error("scene", i, rc, &sc, &err, cases[i].line, cases[i].msg, 0);
        if (rc == 0)
            continue;
        CHECK(strchr(err.msg, '\n') == NULL && err.msg[strlen(err.msg) - 1] != '.');
    }
    struct scene sc;
    struct scene_error err;
    /* a number of TEXT_NUMBER_MAX bytes or more is too long on a ball's
     * line as anywhere (the ball line's own reader took 600 leading zeros) */
    static const char *const longs[] = {"ball %s1 1 0 0 1 1\n", "ball 1 1 0 0 1 1e-%s5\n",
                                        "ball 1 1 0 0 -%s1 1\n", "k %s5\n"};
    static const char *const what[] = {"x: number too long", "radius: number too long",
                                       "mass: number too long", "k: number too long"};
    for (size_t i = 0; i < sizeof longs / sizeof *longs; i++) {
        char zeros[601], text[700];
        memset(zeros, '0', 600);
        zeros[600] = 0;
        snprintf(text, sizeof text, longs[i], zeros);
        CHECK(scene_parse(&sc, text, strlen(text), &err) == -1);
        CHECK(err.line == 1 && strstr(err.msg, what[i]) != NULL);
    }
    /* just below, the same number is read */
    {
        char text[700] = "ball ";
        memset(text + 5, '0', TEXT_NUMBER_MAX - 2);
        strcpy(text + 5 + TEXT_NUMBER_MAX - 2, "1 1 0 0 1 1\n");
        CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
        CHECK(sc.n == 1 && sc.balls[0].x == 1);
        scene_free(&sc);
    }
    /* a NUL byte is reported on its line */
    CHECK(scene_parse(&sc, "ball 50 50 0 0 1 5\nba\0ll\n", 24, &err) == -1);
    CHECK(err.line == 2 && strstr(err.msg, "NUL") != NULL);
}

/*
 * Every state a run prints is a valid scene (issue 11): violent runs (soft
 * springs, large dt, fast balls) leave balls deep in or through a spring
 * wall, and their printed state must read back and print the same bytes,
 * in every table shape and wall law, and as a particle file.
 */
static void test_read_back(void)
{
    static const struct { const char *text; int format; int steps; } cases[] = {
        {"ball 780 200 20 0 1 5\n", SCENE_FORMAT_NATIVE, 30},
        {"k 0.5\ndt 0.5\nrandom 200 8 1 60 3\n", SCENE_FORMAT_NATIVE, 400},
        {"table circle 200\nk 0.5\ndt 0.5\nrandom 200 8 1 60 3\n", SCENE_FORMAT_NATIVE, 400},
        {"table circle 200\nwalls hard\nk 0.5\ndt 0.5\nrandom 200 8 1 60 3\n", SCENE_FORMAT_NATIVE, 400},
        {"walls hard\nk 0.5\ndt 0.5\nrandom 200 8 1 60 3\n", SCENE_FORMAT_NATIVE, 400},
        {"k 0.5\ndt 0.5\nrestitution 0.5\ncontact exp 1 200\nrandom 200 8 1 60 3\n", SCENE_FORMAT_NATIVE, 400},
        {"ball 1e300 -1e300 1e300 0 1 5\nball 20 20 0 0 1 5\n", SCENE_FORMAT_NATIVE, 3},
        {"3\n0.5 0.5 3 0 0.1 1 255 0 0\n0.2 0.2 0 -3 0.05 1 0 255 0\n0.9 0.1 -2 2 0.05 2 0 0 255\n",
         SCENE_FORMAT_PARTICLES, 300},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct scene sc, back;
        struct scene_error err;
        const char *text = cases[c].text;
        CHECK(formats_parse(&sc, text, strlen(text), FORMATS_AUTO, &err) == 0);
        CHECK(sc.format == cases[c].format);
        if (sc.format == SCENE_FORMAT_PARTICLES) { /* the issue's -k 1 --dt 0.001 */
            sc.p.k = 1;
            sc.p.dt = 0.001;
        }
        struct sim s, s2;
        CHECK(scene_to_sim(&sc, &s) == 0);
        for (int i = 0; i < cases[c].steps; i++)
            sim_step(&s);
        int off = 0; /* some centre left the table: the case is violent */
        for (size_t i = 0; i < s.n; i++)
            off |= s.x[i] < 0 || s.x[i] > s.p.w || s.y[i] < 0 || s.y[i] > s.p.h ||
                   (s.p.shape == SIM_CIRCLE &&
                    hypot(s.x[i] - s.p.w / 2, s.y[i] - s.p.h / 2) > s.p.w / 2);
        CHECK(off || s.p.walls == SIM_WALLS_HARD);
        FILE *f = tmpfile();
        formats_write(f, &sc, &s);
        long len = ftell(f);
        char *out = calloc((size_t)len + 1, 1);
        rewind(f);
        CHECK(fread(out, 1, (size_t)len, f) == (size_t)len);
        fclose(f);
        int rc = formats_parse(&back, out, (size_t)len, FORMATS_AUTO, &err);
        if (rc)
            printf("  read back, case %zu: line %d: %s\n", c, err.line, err.msg);
        CHECK(rc == 0);
        if (rc == 0) {
            CHECK(scene_to_sim(&back, &s2) == 0);
            f = tmpfile();
            formats_write(f, &back, &s2);
            long len2 = ftell(f);
            char *out2 = calloc((size_t)len2 + 1, 1);
            rewind(f);
            CHECK(fread(out2, 1, (size_t)len2, f) == (size_t)len2);
            fclose(f);
            CHECK(len == len2 && memcmp(out, out2, (size_t)len) == 0);
            free(out2);
            sim_free(&s2);
            scene_free(&back);
        }
        free(out);
        sim_free(&s);
        scene_free(&sc);
    }
    /* a ball far off the table before a random line (UBSan: the grid cell
     * once overflowed long) stays where it is; the others are placed */
    struct scene sc;
    struct scene_error err;
    const char *far = "ball 600 7.7e43 -10 0 1 20 blue\nrandom 60 8 1 4 8\n";
    CHECK(parse(&sc, far, &err) == 0 && sc.n == 61 && sc.balls[0].y == 7.7e43);
    scene_free(&sc);
}

/* The table of formats: each row is detected from its own sample, parsed
 * into its own index, found by its name; a new row needs a sample here. */
static void test_format_table(void)
{
    static const struct { const char *text; size_t n; } sample[] = {
        [SCENE_FORMAT_NATIVE] = {"ball 1 2 0 0 1 0.5\nball 5 2 0 0 1 0.5\n", 2},
        [SCENE_FORMAT_UNIVERSE] = {"2\n100\n0 0 0 0 1 a.gif\n10 0 0 1 1 b.gif\n", 2},
        [SCENE_FORMAT_PARTICLES] = {"2\n0.5 0.5 3 0 0.1 1 255 0 0\n"
                                    "0.2 0.2 0 -3 0.05 1 0 255 0\n", 2},
        [SCENE_FORMAT_LESSON] = {"lesson L\nball 1 2 0 0 1 0.5\nstep s\n", 1},
    };
    CHECK(formats_count == sizeof sample / sizeof *sample);
    for (size_t i = 0; i < formats_count && i < sizeof sample / sizeof *sample; i++) {
        const struct format *f = formats_get((int)i);
        CHECK(f == &formats_table[i] && f->name && f->help && f->parse && f->write);
        CHECK(formats_named(f->name) == (int)i);
        const char *text = sample[i].text;
        CHECK(formats_detect(text, strlen(text)) == (int)i);
        struct scene sc;
        struct scene_error err;
        CHECK(formats_parse(&sc, text, strlen(text), FORMATS_AUTO, &err) == 0);
        CHECK(sc.format == (int)i && sc.n == sample[i].n);
        scene_free(&sc);
    }
    CHECK(formats_named("xml") == -1 && formats_named("") == -1);
    CHECK(formats_get(-1) == &formats_table[SCENE_FORMAT_NATIVE]);
    CHECK(formats_get((int)formats_count) == &formats_table[SCENE_FORMAT_NATIVE]);
    char buf[64];
    CHECK(strcmp(formats_names(buf, sizeof buf), "scene, universe, particles or lesson") == 0);
    CHECK(strcmp(formats_names(buf, 9), "scene, u") == 0);
}

void test_scene(void)
{
    test_format_table();
    test_read_back();
    test_directives();
    test_rack();
    test_random();
    test_round_trip();
    test_errors();
}
