/*
 * test_fuzz.c - regression cases found by the fuzz harnesses (tests/fuzz)
 * outside the parsers, whose cases live in test_scene.c and
 * test_universe.c: the view with balls of huge radius or far off the table
 * (a double out of the range of long was converted: UBSan under make
 * check), a world too small to lay out, and the aiming mark of a huge ball;
 * random on a long thin table (its placement grid had ~10^60 cells along
 * the table: a double out of the range of long, or gigabytes asked for);
 * a title ending in '\r', which did not survive the round trip; the
 * broad phase (grid.c) of the same thin table.
 */
#include "scene.h"
#include "sim.h"
#include "view.h"
#include "test.h"

#include <string.h>

static void thin_tables(void)
{
    static const char *const text[] = {
        "table 322.50e+119 400\nwalls hard\nrandom 240 7 1 4 7\n",
        "table 1e20 400\nrandom 240 7 1 4 7\n",
        "table 400 1e20\nrandom 240 7 1 4 7\n",
    };
    for (size_t i = 0; i < sizeof text / sizeof *text; i++) {
        struct scene sc;
        struct scene_error err;
        CHECK(scene_parse(&sc, text[i], strlen(text[i]), &err) == 0);
        CHECK(sc.n == 240);
        /* placed without overlap */
        int overlaps = 0;
        for (size_t a = 0; a < sc.n; a++)
            for (size_t b = a + 1; b < sc.n; b++) {
                double dx = sc.balls[a].x - sc.balls[b].x;
                double dy = sc.balls[a].y - sc.balls[b].y;
                overlaps += dx * dx + dy * dy < 14.0 * 14.0;
            }
        CHECK(overlaps == 0);
        scene_free(&sc);
    }
}

/* The round trip of a title ending in '\r' (before the line's CRLF). */
static void title_cr(void)
{
    const char *text = "title abc \r\r\nball 1 1 0 0 1 1\n";
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.title && strcmp(sc.title, "abc") == 0);
    scene_free(&sc);
    text = "title a\rb\r\nball 1 1 0 0 1 1\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.title && strcmp(sc.title, "a\rb") == 0);
    scene_free(&sc);
}

/* The broad phase of a long thin table: it asked for 10^60 cells along
 * it (a double out of the range of long: a crash). Its forces must be
 * those of the pair loop. */
static void thin_grid(void)
{
    const char *text = "table 322.50e+119 400\n"
                       "ball 100 200 0 0 1 10\nball 115 200 0 0 1 10\n"
                       "random 240 7 1 4 7\n";
    struct scene sc;
    struct scene_error err;
    struct sim s;
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(scene_to_sim(&sc, &s) == 0);
    sim_forces(&s);
    double fx0 = s.fx[0], fx1 = s.fx[1];
    sim_forces_brute(&s);
    CHECK(fx0 == s.fx[0] && fx1 == s.fx[1]);
    CHECK(fx1 > 24.9 && fx1 <= 25); /* about k = 5 times the overlap 5 */
    for (int i = 0; i < 10; i++)
        sim_step(&s);
    CHECK(sim_finite(&s));
    sim_free(&s);
    scene_free(&sc);
}

void test_fuzz(void)
{
    thin_grid();
    thin_tables();
    title_cr();
    for (int glyphs = VIEW_BRAILLE; glyphs <= VIEW_ASCII; glyphs++) {
        struct view v;
        view_init(&v);
        CHECK(view_layout(&v, 42, 22, 0, 0, 800, 400, 2, VIEW_RIM_BOX, glyphs) == 0);
        int inner = v.map.w * v.map.h;
        /* A ball of radius 1e300 covers the whole inner area. */
        view_begin(&v);
        view_ball(&v, 400, 200, 1e300, 1);
        view_end(&v);
        CHECK(test_ball_cells(&v) == inner);
        /* A ball 1e300 away, its trail and its mark show nothing. */
        view_begin(&v);
        view_ball(&v, 1e300, -1e300, 1, 1);
        view_trail(&v, 1e300, -1e300);
        view_mark(&v, 1e300, -1e300, 1, 0.5, 1);
        view_end(&v);
        CHECK(test_ball_cells(&v) == 0);
        /* The mark of a ball 1e16 cells across ends (d += 0.5 no longer
         * moved d there) and shows nothing. */
        view_begin(&v);
        view_mark(&v, 400, 200, 1e17, 0, 1);
        view_end(&v);
        CHECK(test_ball_cells(&v) == 0);
        view_free(&v);
    }
    /* A world 1e-320 wide has no finite scale: not laid out. */
    struct view_map m;
    CHECK(view_fit(&m, 0, 0, 1e-320, 1e-320, 80, 24, 2) == -1);
    CHECK(view_fit(&m, 0, 0, 1e-300, 1e-300, 80, 24, 2) == 0);
}
