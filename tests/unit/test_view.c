/*
 * test_view.c - the world -> cell mapping and the glyphs: letterboxing, the
 * same scale both ways (45 degrees stays 45 degrees at any cell aspect),
 * round trips, braille dots and ASCII discs in the right cells, a frame
 * showing only what was drawn in it (and the trails), the round rim.
 */
#include "view.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIM_PI_TEST 3.14159265358979323846

/* The glyph at column i, row j. */
static uint32_t glyph_at(const struct view *v, int i, int j, int *layer, uint32_t *color)
{
    uint32_t ch, col;
    int l = view_glyph(v, j * v->map.cols + i, &ch, &col);
    if (layer)
        *layer = l;
    if (color)
        *color = col;
    return ch;
}

/* Cells of the ball layer this frame that show a ball (also used by
 * test_fuzz.c). */
int test_ball_cells(const struct view *v)
{
    int n = 0;
    for (int idx = 0; idx < v->map.cols * v->map.rows; idx++) {
        uint32_t ch, col;
        if (view_glyph(v, idx, &ch, &col) == VIEW_BALL)
            n++;
    }
    return n;
}

static void test_fit(void)
{
    struct view_map m;
    /* 800 x 400 into 102 x 34: the inside is 100 x 32; across limits
     * (100/800 = 0.125 < 32*2/400 = 0.16), so 100 columns by 25 rows,
     * centred: 3 blank rows above (1 + (32 - 25) / 2 = 4). */
    CHECK(view_fit(&m, 0, 0, 800, 400, 102, 34, 2) == 0);
    CHECK_NEAR(m.sx, 0.125, 1e-15);
    CHECK_NEAR(m.sy, 0.0625, 1e-15);
    CHECK(m.w == 100 && m.h == 25);
    CHECK(m.left == 1 && m.top == 4);
    double c, r;
    view_to_grid(&m, 0, 400, &c, &r); /* top left corner of the table */
    CHECK_NEAR(c, 1, 1e-12);
    CHECK_NEAR(r, 4, 1e-12);
    view_to_grid(&m, 800, 0, &c, &r); /* bottom right */
    CHECK_NEAR(c, 101, 1e-12);
    CHECK_NEAR(r, 29, 1e-12);
    /* A tall grid: down limits. 400 x 400 into 42 x 12 at aspect 2: inside
     * 40 x 10, sx = min(40/400, 10*2/400) = 0.05: 20 x 10, centred. */
    CHECK(view_fit(&m, 0, 0, 400, 400, 42, 12, 2) == 0);
    CHECK_NEAR(m.sx, 0.05, 1e-15);
    CHECK(m.w == 20 && m.h == 10 && m.left == 11 && m.top == 1);
    /* Not hard-wired to [0,w] x [0,h]: a world -R..R maps its centre to
     * the centre of the inner area. */
    CHECK(view_fit(&m, -50, -50, 50, 50, 42, 22, 2) == 0);
    view_to_grid(&m, 0, 0, &c, &r);
    CHECK_NEAR(c, 21, 1e-12);
    CHECK_NEAR(r, 11, 1e-12);
    /* No inside, empty world, bad aspect. */
    CHECK(view_fit(&m, 0, 0, 800, 400, 2, 10, 2) == -1);
    CHECK(view_fit(&m, 0, 0, 800, 400, 10, 2, 2) == -1);
    CHECK(view_fit(&m, 0, 0, 0, 400, 10, 10, 2) == -1);
    CHECK(view_fit(&m, 0, 0, 800, 400, 10, 10, 0) == -1);
}

static void test_isotropy(void)
{
    /* A displacement (d, d) covers the same physical width as height
     * (columns x 1, rows x aspect) at every aspect and grid size; y up. */
    const double aspects[] = {1, 2, 2.5};
    for (int a = 0; a < 3; a++) {
        struct view_map m;
        CHECK(view_fit(&m, 0, 0, 800, 400, 83, 27, aspects[a]) == 0);
        double c0, r0, c1, r1;
        view_to_grid(&m, 100, 100, &c0, &r0);
        view_to_grid(&m, 150, 150, &c1, &r1);
        CHECK(c1 > c0);
        CHECK(r1 < r0); /* up the screen */
        CHECK_NEAR((c1 - c0), (r0 - r1) * aspects[a], 1e-12);
        /* The whole table fits inside the inner area. */
        double cx, rx;
        view_to_grid(&m, 800, 0, &cx, &rx);
        CHECK(cx <= m.left + m.w + 1e-9 && rx <= m.top + m.h + 1e-9);
        /* Round trip grid -> world -> grid. */
        double x, y, c, r;
        view_to_world(&m, 17.5, 9.5, &x, &y);
        view_to_grid(&m, x, y, &c, &r);
        CHECK_NEAR(c, 17.5, 1e-9);
        CHECK_NEAR(r, 9.5, 1e-9);
    }
}

static void test_braille(void)
{
    struct view v;
    view_init(&v);
    /* 102 x 34 as in test_fit: 0.125 columns per unit, a cell is 8 x 16
     * units, a dot 4 x 4. Cell (1, 4) covers x in [0, 8), y in (384, 400]. */
    CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    view_begin(&v);
    /* A tiny ball (radius 0.1, less than a dot) in the top left dot of
     * cell (11, 10): x in [80, 84), y in (300, 304]: that one dot. */
    view_ball(&v, 82, 302, 0.1, 7);
    view_end(&v);
    int layer;
    uint32_t col;
    CHECK(glyph_at(&v, 11, 10, &layer, &col) == 0x2800u + 0x01);
    CHECK(layer == VIEW_BALL && col == 7);
    CHECK(glyph_at(&v, 10, 10, NULL, NULL) == ' ');
    CHECK(test_ball_cells(&v) == 1);
    CHECK(v.nused == 1);
    /* Moving it by one dot (4 units) right moves the dot, not the cell:
     * sub-cell motion. */
    view_begin(&v);
    view_ball(&v, 86, 302, 0.1, 7);
    view_end(&v);
    CHECK(glyph_at(&v, 11, 10, NULL, NULL) == 0x2800u + 0x08);
    CHECK(v.nused == 1 && v.used[0] == 10 * v.map.cols + 11);
    /* Half a dot across (radius 2 units) is already a disc of a few dots. */
    view_begin(&v);
    view_ball(&v, 82, 302, 2, 7);
    view_end(&v);
    CHECK(test_ball_cells(&v) >= 1);

    /* A ball of radius 40 (10 dots, 5 columns) is a filled disc, drawn
     * half a dot smaller (see view_ball): the cell at its centre is all
     * eight dots, a cell well outside is empty, and about pi * 9.5^2 dots
     * are set (284 dots, 8 a cell: ~36 cells). */
    view_begin(&v);
    view_ball(&v, 400, 200, 40, 3);
    CHECK(glyph_at(&v, 51, 16, NULL, NULL) == 0x28ffu);
    CHECK(glyph_at(&v, 51, 23, NULL, NULL) == ' ');
    int n = test_ball_cells(&v);
    CHECK(n >= 36 && n <= 56);
    long dots = 0;
    for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
        uint32_t ch, c2;
        if (view_glyph(&v, idx, &ch, &c2) == VIEW_BALL)
            for (uint32_t b = ch - 0x2800u; b; b >>= 1)
                dots += b & 1;
    }
    CHECK(dots >= 265 && dots <= 305);
    /* Clipped to the inner area: a ball on the wall sets nothing outside. */
    view_begin(&v);
    view_ball(&v, 0, 0, 40, 3);
    for (size_t i = 0; i < v.nused; i++) {
        int ci = v.used[i] % v.map.cols, cj = v.used[i] / v.map.cols;
        CHECK(ci >= v.map.left && ci < v.map.left + v.map.w);
        CHECK(cj >= v.map.top && cj < v.map.top + v.map.h);
    }
    view_free(&v);
}

static void test_ascii(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_ASCII) == 0);
    view_begin(&v);
    /* Small (radius 2 units = 0.25 columns): one 'o' in its centre's cell. */
    view_ball(&v, 85, 301, 2, 1);
    view_end(&v);
    CHECK(glyph_at(&v, 11, 10, NULL, NULL) == 'o');
    CHECK(v.nused == 1);
    /* Medium (radius 6 = 0.75 columns): one 'O'; two touching medium
     * balls (12 units = 1.5 columns apart) stay apart: O O. */
    view_begin(&v);
    view_ball(&v, 85, 301, 6, 1);
    view_ball(&v, 97, 301, 6, 1);
    view_end(&v);
    CHECK(glyph_at(&v, 11, 10, NULL, NULL) == 'O');
    CHECK(glyph_at(&v, 13, 10, NULL, NULL) == 'O');
    CHECK(glyph_at(&v, 12, 10, NULL, NULL) == ' ');
    CHECK(v.nused == 2);
    /* Large (radius 40 = 5 columns, 2.5 rows): a disc of '@' whose cells
     * are those with their centre inside: about pi * 5 * 2.5 ~ 39. */
    view_begin(&v);
    view_ball(&v, 400, 200, 40, 2);
    CHECK(glyph_at(&v, 51, 16, NULL, NULL) == '@');
    CHECK(glyph_at(&v, 57, 16, NULL, NULL) == ' ');
    int n = test_ball_cells(&v);
    CHECK(n >= 30 && n <= 48);
    /* Every glyph is printable ASCII. */
    for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
        uint32_t ch, c2;
        view_glyph(&v, idx, &ch, &c2);
        CHECK(ch >= 0x20 && ch < 0x7f);
    }
    view_free(&v);
}

static void test_frames(void)
{
    /* A frame shows the balls drawn in it, nothing of the last frame's;
     * trails stay until cleared. */
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 200, 60, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    view_begin(&v);
    view_ball(&v, 100, 100, 12, 1);
    view_end(&v);
    size_t first = v.nused;
    CHECK(first > 0 && first < 20);
    int was[20];
    for (size_t i = 0; i < first; i++)
        was[i] = v.used[i];
    /* Gone: its cells show blanks. */
    view_begin(&v);
    view_end(&v);
    CHECK(v.nused == 0);
    uint32_t ch, c2;
    for (size_t i = 0; i < first; i++)
        CHECK(view_glyph(&v, was[i], &ch, &c2) == VIEW_EMPTY);
    /* Trails stay where a ball was, and go when cleared. */
    view_begin(&v);
    view_trail(&v, 100, 100);
    view_end(&v);
    view_begin(&v);
    view_end(&v);
    double c, r;
    view_to_grid(&v.map, 100, 100, &c, &r);
    int idx = (int)r * v.map.cols + (int)c;
    CHECK(view_glyph(&v, idx, &ch, &c2) == VIEW_TRAIL && ch > 0x2800u && ch <= 0x28ffu);
    view_begin(&v);
    view_clear_trails(&v);
    view_end(&v);
    CHECK(view_glyph(&v, idx, &ch, &c2) == VIEW_EMPTY);
    view_free(&v);
}

static void test_rim_and_mark(void)
{
    struct view v;
    view_init(&v);
    /* A round table of radius 200: rim dots all lie near distance 200 from
     * the centre, and there are some on each side. */
    CHECK(view_layout(&v, 102, 34, 0, 0, 400, 400, 2, VIEW_RIM_CIRCLE, VIEW_BRAILLE) == 0);
    int rim = 0, far = 0, left = 0, right = 0;
    for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
        uint32_t ch, c2;
        if (view_glyph(&v, idx, &ch, &c2) != VIEW_RIM)
            continue;
        rim++;
        double x, y;
        view_to_world(&v.map, idx % v.map.cols + 0.5, idx / v.map.cols + 0.5, &x, &y);
        double d = sqrt((x - 200) * (x - 200) + (y - 200) * (y - 200));
        /* within a cell (16 x 32 units here) of the circle */
        if (fabs(d - 200) > 30)
            far++;
        left += x < 100;
        right += x > 300;
    }
    CHECK(rim > 40);
    CHECK(far == 0);
    CHECK(left > 0 && right > 0);
    /* A ball over the rim merges its dots with the rim's. */
    view_begin(&v);
    view_ball(&v, 200, 5, 3, 9);
    int merged = 0;
    for (size_t i = 0; i < v.nused; i++) {
        const struct view_cell *c = &v.cell[v.used[i]];
        if (c->bgkind == VIEW_RIM)
            merged++;
    }
    CHECK(merged > 0);
    view_free(&v);

    /* Arrows: the eight directions, and the mark to the right of a ball
     * aimed along +x. */
    CHECK(view_arrow(0, VIEW_BRAILLE) == 0x2192u);
    CHECK(view_arrow(3.14159265358979 / 2, VIEW_BRAILLE) == 0x2191u);
    CHECK(view_arrow(-3.14159265358979 / 4, VIEW_BRAILLE) == 0x2198u);
    CHECK(view_arrow(3.14159265358979, VIEW_ASCII) == '<');
    CHECK(view_arrow(3 * 3.14159265358979 / 2, VIEW_ASCII) == 'v');
    /* the aim's head: a double arrow, never a velocity's head */
    CHECK(view_aim_head(0, VIEW_BRAILLE) == 0x21d2u);
    CHECK(view_aim_head(3.14159265358979 / 2, VIEW_BRAILLE) == 0x21d1u);
    CHECK(view_aim_head(-3.14159265358979 / 4, VIEW_BRAILLE) == 0x21d8u);
    CHECK(view_aim_head(3.14159265358979, VIEW_BRAILLE) == 0x21d0u);
    for (int k = 0; k < 16; k++)
        CHECK(view_aim_head(k * 3.14159265358979 / 8, VIEW_BRAILLE) !=
              view_arrow(k * 3.14159265358979 / 8, VIEW_BRAILLE));
    CHECK(view_aim_head(1, VIEW_ASCII) == 'x');
    view_init(&v);
    CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_ASCII) == 0);
    view_begin(&v);
    view_mark(&v, 400, 200, 12, 0, 5);
    int found = 0;
    for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
        uint32_t ch, c2;
        if (view_glyph(&v, idx, &ch, &c2) == VIEW_MARK) {
            found++;
            CHECK(ch == 'x' && c2 == 5); /* the aim's own head, not the velocity's '>' */
            CHECK(idx % v.map.cols > 51 && idx / v.map.cols == 16);
        }
    }
    CHECK(found == 1);
    view_free(&v);
    /* The mark never paints over a ball (issue 26.4: the aim arrow turned
     * half of the ball it pointed at the cue's colour): a ball of colour 3
     * right where the mark goes keeps every cell, in braille and ASCII. */
    for (int g = 0; g < 2; g++) {
        view_init(&v);
        CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_BOX,
                          g ? VIEW_ASCII : VIEW_BRAILLE) == 0);
        view_begin(&v);
        view_ball(&v, 400, 200, 12, 5);
        view_ball(&v, 440, 200, 16, 3);
        view_ball(&v, 395, 180, 0.5, 4); /* a point-sized one above it */
        view_end(&v);
        uint32_t before[102 * 34], ch, c2;
        for (int idx = 0; idx < 102 * 34; idx++) {
            int layer = view_glyph(&v, idx, &before[idx], &c2);
            before[idx] = layer == VIEW_BALL ? before[idx] ^ c2 << 24 : 0;
        }
        view_begin(&v);
        view_ball(&v, 400, 200, 12, 5);
        view_ball(&v, 440, 200, 16, 3);
        view_ball(&v, 395, 180, 0.5, 4);
        view_mark(&v, 400, 200, 12, 0, 5);
        view_mark(&v, 400, 200, 12, SIM_PI_TEST / 2, 5);
        view_end(&v);
        int kept = 1, marks = 0;
        for (int idx = 0; idx < 102 * 34; idx++) {
            int layer = view_glyph(&v, idx, &ch, &c2);
            marks += layer == VIEW_MARK;
            if (before[idx])
                kept &= layer == VIEW_BALL && (ch ^ c2 << 24) == before[idx];
        }
        CHECK(kept);
        CHECK(marks >= 1);
        view_free(&v);
    }
}

/* A label (a universe's body): its characters from the cell of its point,
 * in the ball layer over a trail; gone from the next frame; nothing outside. */
static void test_label(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_NONE, VIEW_BRAILLE) == 0);
    view_begin(&v);
    view_trail(&v, 85, 301);
    view_text(&v, 85, 301, "E", 3);
    view_text(&v, 1e300, 301, "X", 3);
    view_text(&v, -1e300, -1e300, "X", 3);
    view_text(&v, 900, 200, "X", 3); /* right of the world: outside */
    view_end(&v);
    int layer;
    uint32_t color;
    CHECK(glyph_at(&v, 11, 10, &layer, &color) == 'E');
    CHECK(layer == VIEW_BALL && color == 3);
    CHECK(v.nused == 1);
    CHECK(test_ball_cells(&v) == 1);
    /* The next frame without it: the cell shows the trail. */
    view_begin(&v);
    view_text(&v, 400, 200, "\xe2\x9c\xb6", 4);
    view_end(&v);
    CHECK(glyph_at(&v, 11, 10, &layer, NULL) != 'E' && layer == VIEW_TRAIL);
    CHECK(glyph_at(&v, 51, 16, &layer, &color) == 0x2736 && color == 4);
    view_free(&v);
}

/* Defect 10: touching balls of the break at 100 x 32 stay apart: along
 * the line of centres some dot between them is free, and a cell the two
 * share holds the dots of one of them only, in its colour. */
static void test_touching(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 100, 30, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    const double angles[] = {0, 0.5, 1.0471975511965976, 1.5707963267948966, 2.2};
    for (int a = 0; a < 5; a++)
        for (int shift = 0; shift < 4; shift++) {
            double x0 = 300 + 1.3 * shift, y0 = 200 + 0.7 * shift;
            double x1 = x0 + 24 * cos(angles[a]), y1 = y0 + 24 * sin(angles[a]);
            view_begin(&v);
            view_ball(&v, x0, y0, 12, 1);
            view_ball(&v, x1, y1, 12, 2);
            view_end(&v);
            /* Walk the line of centres in steps of a tenth of a dot. */
            int gap = 0;
            for (int k = 0; k <= 240; k++) {
                double x = x0 + (x1 - x0) * k / 240, y = y0 + (y1 - y0) * k / 240, c, r;
                view_to_grid(&v.map, x, y, &c, &r);
                long X = (long)floor(2 * c), Y = (long)floor(4 * r);
                uint32_t ch, col;
                int idx = (int)(Y / 4) * v.map.cols + (int)(X / 2);
                int layer = view_glyph(&v, idx, &ch, &col);
                static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
                if (layer != VIEW_BALL || !((ch - 0x2800u) & bit[Y % 4][X % 2]))
                    gap = 1;
            }
            CHECK(gap);
        }
    /* Two colours in one cell: the cell has one colour and only the dots
     * of one ball. Drawn alone, then together, at several offsets, one
     * above the other (a cell is 4 dots tall, so the free dot between them
     * can be inside a cell). */
    int shared = 0, mixed = 0;
    for (int shift = 0; shift < 8; shift++) {
        double y0 = 200 + 0.5 * shift, y1 = y0 + 24;
        uint8_t alone[2][3000];
        for (int b = 0; b < 2; b++) {
            view_begin(&v);
            view_ball(&v, 300, b ? y1 : y0, 12, (uint32_t)b + 1);
            view_end(&v);
            for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
                uint32_t ch, col;
                alone[b][idx] = view_glyph(&v, idx, &ch, &col) == VIEW_BALL ? (uint8_t)(ch - 0x2800u) : 0;
            }
        }
        /* Both orders: the ball with more dots wins whether drawn first
         * or second. */
        for (int order = 0; order < 2; order++) {
            view_begin(&v);
            view_ball(&v, 300, order ? y1 : y0, 12, order ? 2 : 1);
            view_ball(&v, 300, order ? y0 : y1, 12, order ? 1 : 2);
            view_end(&v);
            for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
                uint32_t ch, col;
                if (!alone[0][idx] || !alone[1][idx])
                    continue;
                shared++;
                view_glyph(&v, idx, &ch, &col);
                mixed += (ch - 0x2800u) != alone[col - 1][idx];
                /* The ball with more dots here has it. */
                int n0 = 0, n1 = 0;
                for (int b = 0; b < 8; b++) {
                    n0 += alone[0][idx] >> b & 1;
                    n1 += alone[1][idx] >> b & 1;
                }
                if (n0 != n1)
                    mixed += col != (n1 > n0 ? 2u : 1u);
            }
        }
    }
    CHECK(shared > 0);
    CHECK(mixed == 0);
    view_free(&v);
}

/* Big scenes: a ball smaller than a dot is one dot; past a quarter of the
 * dots, the balls are a density, every cell costs O(1) and a frame lists
 * only the cells whose density changed. */
static void test_big(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 200, 58, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    /* Few: each is its dot. */
    view_begin(&v);
    for (int i = 0; i < 100; i++)
        view_ball(&v, 10 + 7.9 * i, 200, 0.3, 1);
    view_end(&v);
    CHECK(!v.density);
    long dots = 0;
    for (size_t i = 0; i < v.nused; i++) {
        uint32_t ch, col;
        view_glyph(&v, v.used[i], &ch, &col);
        for (uint32_t b = ch - 0x2800u; b; b >>= 1)
            dots += b & 1;
    }
    CHECK(dots == 100);
    /* 10^5 balls of radius 0.32 (10% packing) spread evenly: a density of
     * ceil(8 * 0.1 / 0.9069) = 1 dot a cell; a close-packed corner of
     * radius-0.32 balls (hexagonal, pitch 0.64) is all eight. */
    enum { N = 100000 };
    double r = sqrt(0.1 * 800 * 400 / (3.14159265358979 * N));
    view_begin(&v);
    unsigned long s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ul + 1442695040888963407ul;
        double x = 100 + 700.0 * (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ul + 1442695040888963407ul;
        double y = 400.0 * (double)(s >> 11) / 9007199254740992.0;
        view_ball(&v, x, y, r, 1);
    }
    for (double y = r; y < 100; y += sqrt(3.0) * r)
        for (double x = r; x < 90; x += 2 * r)
            view_ball(&v, x + (((int)(y / (sqrt(3.0) * r))) & 1) * r, y, r, 2);
    view_end(&v);
    CHECK(v.density);
    CHECK(v.nused <= (size_t)(v.map.w * v.map.h));
    int full = 0, sparse = 0;
    for (size_t i = 0; i < v.nused; i++) {
        uint32_t ch, col;
        view_glyph(&v, v.used[i], &ch, &col);
        int idx = v.used[i], ci = idx % v.map.cols;
        if (ci > 5 && ci < 20 && idx / v.map.cols > v.map.top + v.map.h - 10)
            full += ch == 0x28ffu && col == 2;
        if (ci > 60)
            sparse += ch != 0x28ffu;
    }
    CHECK(full > 100);
    CHECK(sparse > 5000);
    /* The same balls moved a little: the density barely changes, and so
     * do the cells' glyphs. */
    size_t ncell = (size_t)v.map.cols * (size_t)v.map.rows, before = 0, changed = 0;
    uint32_t *old = malloc(ncell * sizeof *old);
    CHECK(old != NULL);
    for (size_t i = 0; old && i < ncell; i++) {
        uint32_t col;
        view_glyph(&v, (int)i, &old[i], &col);
        before += old[i] != ' ';
    }
    view_begin(&v);
    s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ul + 1442695040888963407ul;
        double x = 100 + 700.0 * (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ul + 1442695040888963407ul;
        double y = 400.0 * (double)(s >> 11) / 9007199254740992.0;
        view_ball(&v, x + 0.5, y, r, 1);
    }
    view_end(&v);
    for (size_t i = 0; old && i < ncell; i++) {
        uint32_t ch, col;
        view_glyph(&v, (int)i, &ch, &col);
        changed += ch != old[i];
    }
    free(old);
    CHECK(before > 5000);
    CHECK(changed < 1000);
    view_free(&v);
}

/* Defect 10 in ASCII: a ball 4 columns by 2 rows (headon at 80 x 24) is
 * a round shape, not a block of '@'; every ball of the rack at 80 x 24
 * has a cell of its own. */
static void test_ascii_shapes(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 80, 22, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_ASCII) == 0);
    view_begin(&v);
    view_ball(&v, 250, 200, 20, 1);
    view_end(&v);
    int at = 0, edge = 0;
    for (int idx = 0; idx < v.map.cols * v.map.rows; idx++) {
        uint32_t ch, col;
        if (view_glyph(&v, idx, &ch, &col) != VIEW_BALL)
            continue;
        at += ch == '@';
        edge += ch != '@';
    }
    CHECK(at >= 4 && edge >= 4);
    /* The rack: 15 balls of radius 12 (2.3 columns, 1.2 rows at 80 x 24)
     * at several terminal sizes and places. */
    const int size[][2] = {{80, 22}, {60, 18}, {100, 30}, {70, 22}, {90, 26}};
    for (int k = 0; k < 5; k++) {
        CHECK(view_layout(&v, size[k][0], size[k][1], 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_ASCII) == 0);
        for (int sh = 0; sh < 4; sh++) {
            view_begin(&v);
            const double pitch = sqrt(3.0) * 12;
            for (int i = 0; i < 5; i++)
                for (int j = 0; j <= i; j++)
                    view_ball(&v, 560 + 3 * sh + i * pitch, 200 + 2.5 * sh + (2 * j - i) * 12, 12, 1);
            view_end(&v);
            CHECK(test_ball_cells(&v) == 15);
        }
    }
    view_begin(&v);
    CHECK(test_ball_cells(&v) == 0);
    view_free(&v);
}

/* Labels of more than one character, and a star in UTF-8. */
static void test_text(void)
{
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 102, 34, 0, 0, 800, 400, 2, VIEW_RIM_NONE, VIEW_BRAILLE) == 0);
    view_begin(&v);
    view_text(&v, 85, 301, "Ma", 3);
    view_text(&v, 400, 200, "\xe2\x9c\xb6", 4);
    view_text(&v, 1e300, 200, "X", 4);
    view_text(&v, 790, 200, "Long", 4); /* cut at the edge of the table */
    view_end(&v);
    CHECK(glyph_at(&v, 11, 10, NULL, NULL) == 'M' && glyph_at(&v, 12, 10, NULL, NULL) == 'a');
    CHECK(glyph_at(&v, 51, 16, NULL, NULL) == 0x2736u);
    CHECK(test_ball_cells(&v) == 3 + 2);
    view_free(&v);
}

void test_view(void)
{
    test_touching();
    test_big();
    test_ascii_shapes();
    test_text();
    test_label();
    test_fit();
    test_isotropy();
    test_braille();
    test_ascii();
    test_frames();
    test_rim_and_mark();
}
