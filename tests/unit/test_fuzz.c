/*
 * test_fuzz.c - regression cases found by the fuzz harnesses (tests/fuzz)
 * outside the parsers, whose cases live in test_scene.c and
 * test_universe.c: the view with balls of huge radius or far off the table
 * (a double out of the range of long was converted: UBSan under make
 * check), a world too small to lay out, and the aiming mark of a huge ball.
 */
#include "view.h"
#include "test.h"

/* Cells of this frame showing a ball. */
static int ball_cells(const struct view *v)
{
    int n = 0;
    for (int idx = 0; idx < v->map.cols * v->map.rows; idx++) {
        uint32_t ch, col;
        if (view_glyph(v, idx, &ch, &col) == VIEW_BALL)
            n++;
    }
    return n;
}

void test_fuzz(void)
{
    for (int glyphs = VIEW_BRAILLE; glyphs <= VIEW_ASCII; glyphs++) {
        struct view v;
        view_init(&v);
        CHECK(view_layout(&v, 42, 22, 0, 0, 800, 400, 2, VIEW_RIM_BOX, glyphs) == 0);
        int inner = v.map.w * v.map.h;
        /* A ball of radius 1e300 covers the whole inner area. */
        view_begin(&v);
        view_ball(&v, 400, 200, 1e300, 1);
        view_end(&v);
        CHECK(ball_cells(&v) == inner);
        /* A ball 1e300 away, its trail and its mark show nothing. */
        view_begin(&v);
        view_ball(&v, 1e300, -1e300, 1, 1);
        view_trail(&v, 1e300, -1e300);
        view_mark(&v, 1e300, -1e300, 1, 0.5, 1);
        view_end(&v);
        CHECK(ball_cells(&v) == 0);
        /* The mark of a ball 1e16 cells across ends (d += 0.5 no longer
         * moved d there) and shows nothing. */
        view_begin(&v);
        view_mark(&v, 400, 200, 1e17, 0, 1);
        view_end(&v);
        CHECK(ball_cells(&v) == 0);
        view_free(&v);
    }
    /* A world 1e-320 wide has no finite scale: not laid out. */
    struct view_map m;
    CHECK(view_fit(&m, 0, 0, 1e-320, 1e-320, 80, 24, 2) == -1);
    CHECK(view_fit(&m, 0, 0, 1e-300, 1e-300, 80, 24, 2) == 0);
}
