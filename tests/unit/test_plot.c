/*
 * test_plot.c - the cell-grid plots: braille dot bits, lines, text, known
 * series give known dots (a rising line from the bottom-left to the top-
 * right of the data area, a flat series in the middle row), labels and
 * legend, histogram bars of known heights with a curve over them, arrows
 * with their barbs, clipping.
 */
#include "plot.h"
#include "test.h"

#include <math.h>
#include <string.h>

#define W 40
#define H 10

static struct plot_cell cells[W * H];

static struct plot grid(int w, int h)
{
    struct plot p = {w, h, cells};
    plot_clear(&p);
    return p;
}

static uint32_t ch_at(struct plot *p, int col, int row)
{
    struct plot_cell *c = plot_at(p, col, row);
    return c ? c->ch : 0xffffffffu;
}

/* Whether dot (dx, dy) is set. */
static int dot_at(struct plot *p, int dx, int dy)
{
    static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
                                      {0x08, 0x10, 0x20, 0x80}};
    uint32_t ch = ch_at(p, dx / 2, dy / 4);
    if (ch < PLOT_BRAILLE || ch > PLOT_BRAILLE + 0xff)
        return 0;
    return ((ch - PLOT_BRAILLE) & bit[dx % 2][dy % 4]) != 0;
}

static int dots_in(struct plot *p, int x0, int x1, int y0, int y1)
{
    int n = 0;
    for (int x = x0; x < x1; x++)
        for (int y = y0; y < y1; y++)
            n += dot_at(p, x, y);
    return n;
}

/* The text of row @p row from column @p col, @p len cells, as ASCII ('?'
 * for anything else). */
static const char *text_at(struct plot *p, int col, int row, int len)
{
    static char buf[128];
    for (int i = 0; i < len; i++) {
        uint32_t ch = ch_at(p, col + i, row);
        buf[i] = ch == 0 ? ' ' : ch < 128 ? (char)ch : '?';
    }
    buf[len] = 0;
    return buf;
}

static void test_dots(void)
{
    struct plot p = grid(4, 2);
    plot_dot(&p, 0, 0, 1);
    CHECK(ch_at(&p, 0, 0) == 0x2801);
    plot_dot(&p, 1, 3, 2);
    CHECK(ch_at(&p, 0, 0) == 0x2881);
    CHECK(plot_at(&p, 0, 0)->color == 2); /* the newest colour */
    plot_dot(&p, 7, 7, 1);
    CHECK(ch_at(&p, 3, 1) == 0x2880);
    /* outside: nothing, no crash */
    plot_dot(&p, 8, 0, 1);
    plot_dot(&p, -1, 0, 1);
    plot_dot(&p, 0, 8, 1);
    CHECK(dots_in(&p, 0, 8, 0, 8) == 3);
    /* a dot over text replaces it */
    plot_text(&p, 1, 0, "A", 3);
    CHECK(ch_at(&p, 1, 0) == 'A');
    plot_dot(&p, 2, 1, 1);
    CHECK(ch_at(&p, 1, 0) == 0x2802);
}

static void test_text(void)
{
    struct plot p = grid(6, 1);
    CHECK(plot_text(&p, 1, 0, "ΣKE", 5) == 4);
    CHECK(ch_at(&p, 1, 0) == 0x3a3 && ch_at(&p, 2, 0) == 'K' && ch_at(&p, 3, 0) == 'E');
    CHECK(plot_at(&p, 1, 0)->color == 5);
    /* clipped at the edge, and a bad byte shows as '?' */
    CHECK(plot_text(&p, 4, 0, "ab\xff", 1) == 7);
    CHECK(ch_at(&p, 4, 0) == 'a' && ch_at(&p, 5, 0) == 'b');
    plot_text(&p, 0, 0, "\xe2\x94", 1); /* a truncated sequence */
    CHECK(ch_at(&p, 0, 0) == '?');
}

static void test_lines(void)
{
    struct plot p = grid(4, 2); /* 8 x 8 dots */
    plot_line(&p, 0, 0, 7, 0, 1);
    CHECK(ch_at(&p, 0, 0) == 0x2809 && ch_at(&p, 3, 0) == 0x2809);
    CHECK(dots_in(&p, 0, 8, 0, 8) == 8);
    p = grid(4, 2);
    plot_line(&p, 0, 0, 7.5, 7.5, 1); /* the diagonal */
    int ok = 1;
    for (int i = 0; i < 8; i++)
        ok &= dot_at(&p, i, i);
    CHECK(ok && dots_in(&p, 0, 8, 0, 8) == 8);
    /* far ends are clipped, not walked */
    p = grid(4, 2);
    plot_line(&p, -1e12, 2, 1e12, 2, 1);
    CHECK(dots_in(&p, 0, 8, 0, 8) == 8 && dots_in(&p, 0, 8, 2, 3) == 8);
    plot_line(&p, NAN, 0, 3, 3, 1);
    CHECK(dots_in(&p, 0, 8, 0, 8) == 8);
    /* a whole number of dots across: every one of them (the momentum
     * diagram's shaft from dot 2 to 96 missed 3, 6, 24, ...: (i/94) 94
     * fell short of i) */
    struct plot q = grid(50, 4);
    for (int w = 1; w <= 97; w++) {
        plot_clear(&q);
        plot_line(&q, 2, 9.68835, 2 + w, 9.68835, 1);
        CHECK(dots_in(&q, 0, 100, 0, 16) == w + 1 && dots_in(&q, 2, 3 + w, 9, 10) == w + 1);
    }
}

static void test_arrow(void)
{
    struct plot p = grid(W, H);
    /* from the centre of cell (2, 5) four cells to the right: the shaft on
     * dot row 22 from dot 5 to 13, barbs back up and down from the tip */
    plot_arrow(&p, 2.5, 5.5, 6.5, 5.5, 2, 7);
    for (int x = 5; x <= 13; x++)
        CHECK(dot_at(&p, x, 22));
    CHECK(dots_in(&p, 0, 2 * W, 0, 22) > 0);   /* a barb above */
    CHECK(dots_in(&p, 0, 2 * W, 23, 4 * H) > 0); /* and below */
    CHECK(dots_in(&p, 14, 2 * W, 0, 4 * H) == 0); /* nothing past the tip */
    CHECK(dots_in(&p, 0, 5, 0, 4 * H) == 0);       /* nor behind the start */
    CHECK(plot_at(&p, 4, 5)->color == 7);
    /* the barbs are near the tip, within 3 dots back */
    CHECK(dots_in(&p, 0, 10, 0, 22) == 0 && dots_in(&p, 0, 10, 23, 4 * H) == 0);
    /* an arrow shorter than a dot is one dot */
    p = grid(W, H);
    plot_arrow(&p, 2.5, 5.5, 2.6, 5.5, 2, 7);
    CHECK(dots_in(&p, 0, 2 * W, 0, 4 * H) == 1);
    /* straight up at aspect 2: one dot column */
    p = grid(W, H);
    plot_arrow(&p, 2.25, 8.0, 2.25, 6.0, 2, 7);
    CHECK(dots_in(&p, 4, 5, 24, 33) == 9);
}

static void test_line_plot(void)
{
    struct plot p = grid(W, H);
    double x[11], y[11], flat[11];
    for (int i = 0; i <= 10; i++) {
        x[i] = i;
        y[i] = 10 * i;
        flat[i] = 50;
    }
    struct plot_series s[2] = {{x, y, 11, 1, "KE"}, {x, flat, 11, 2, "E"}};
    struct plot_lines_opt opt = {"t", 0, 9};
    struct plot_frame f;
    CHECK(plot_lines(&p, s, 2, &opt, &f) == 0);
    /* the frame: labels in 7 columns, the axis, data to the right */
    CHECK(f.left == 8 && f.top == 1 && f.w == W - 8 && f.h == H - 2);
    CHECK(f.x0 == 0 && f.x1 == 10);
    CHECK_NEAR(f.y0, -5, 1e-12); /* 0 .. 100 widened by 5% */
    CHECK_NEAR(f.y1, 105, 1e-12);
    /* the rising line: first point at the bottom-left, last at the top-right */
    double dx, dy;
    plot_map(&f, 0, 0, &dx, &dy);
    CHECK(dot_at(&p, (int)dx, (int)dy));
    CHECK((int)dx == 16);
    plot_map(&f, 10, 100, &dx, &dy);
    CHECK(dot_at(&p, (int)dx, (int)dy));
    CHECK((int)dx == 2 * W - 1);
    /* the flat series at 50 crosses the whole data area on one dot row */
    plot_map(&f, 0, 50, &dx, &dy);
    int row = (int)dy, ok = 1;
    for (int xx = 16; xx < 2 * W; xx++)
        ok &= dot_at(&p, xx, row);
    CHECK(ok);
    /* drawn last, E's colour wins where they cross */
    CHECK(plot_at(&p, (int)(dx / 2) + (f.w / 2), row / 4)->color == 2);
    /* legend, labels */
    CHECK(strcmp(text_at(&p, 1, 0, 8), " KE  ? E") == 0);
    CHECK(plot_at(&p, 2, 0)->color == 1 && plot_at(&p, 7, 0)->color == 2);
    /* round ticks (1, 2, 5 x 10^n) at the rows their values map to, not
     * the range's ends (105, -5; issue 42.10) */
    CHECK(strcmp(text_at(&p, 0, 1, 7), "    100") == 0);
    CHECK(strcmp(text_at(&p, 0, 5, 7), "     50") == 0);
    CHECK(strcmp(text_at(&p, 0, H - 2, 7), "      0") == 0);
    CHECK(ch_at(&p, 7, 1) == 0x2524 && ch_at(&p, 7, 2) == 0x2502 && ch_at(&p, 7, 5) == 0x2524);
    /* x ticks 0, 5, 10 at their columns; the axis' name under the y labels */
    CHECK(strcmp(text_at(&p, 8, H - 1, 2), "0 ") == 0);
    CHECK(strcmp(text_at(&p, 24, H - 1, 1), "5") == 0);
    CHECK(strcmp(text_at(&p, W - 2, H - 1, 2), "10") == 0);
    CHECK(ch_at(&p, 6, H - 1) == 't');
    /* zero: the range starts at 0 when nothing is below it */
    opt.zero = 1;
    CHECK(plot_lines(&p, s + 1, 1, &opt, &f) == 0);
    CHECK(f.y0 == 0 && f.y1 == 52.5);
    /* too small, no data: a message, no crash */
    struct plot q = grid(10, 3);
    CHECK(plot_lines(&q, s, 2, &opt, NULL) == -1);
    CHECK(ch_at(&q, 0, 0) == 't');
    q = grid(W, H);
    s[0].n = 0;
    CHECK(plot_lines(&q, s, 1, &opt, NULL) == -1);
    CHECK(ch_at(&q, 0, 0) == 'n');
    /* a live run's time past 10^4: whole numbers, no "1e+04 1.1e+04"
     * beside "9000" (issue 40, the look at 200x60) */
    for (int i = 0; i <= 10; i++)
        x[i] = 8000 + 400 * i;
    s[0].n = 11;
    static struct plot_cell wide[60 * H];
    struct plot r = {60, H, wide};
    plot_clear(&r);
    CHECK(plot_lines(&r, s, 2, &opt, NULL) == 0);
    const char *lab = text_at(&r, 0, H - 1, 60);
    CHECK(strstr(lab, "10000") != NULL && strstr(lab, "12000") != NULL && !strchr(lab, 'e'));
}

static double half(double v, const void *ctx)
{
    (void)ctx;
    (void)v;
    return 2;
}

static void test_histogram(void)
{
    struct plot p = grid(W, H);
    /* 4 bins over 32 data columns (64 dots: 16 a bin, 15 a bar and a gap),
     * 8 rows (32 dots) up to 4 * 1.05 */
    long count[4] = {0, 1, 2, 4};
    struct plot_hist_opt opt = {"speed", "balls", "law", 1, 2, 9};
    struct plot_frame f;
    CHECK(plot_hist(&p, count, 4, 0, 8, NULL, NULL, &opt, &f) == 0);
    CHECK(f.left == 8 && f.w == 32 && f.h == 8);
    CHECK(f.y0 == 0 && f.y1 == 4 * 1.05);
    int L = 16, B = 36;
    for (int b = 0; b < 4; b++) {
        int hgt = (int)floor(count[b] / 4.2 * 32 + 0.5);
        /* each bar: 15 dot columns of hgt dots, the gap empty */
        CHECK(dots_in(&p, L + 16 * b, L + 16 * b + 16, 0, 4 * H) == 15 * hgt);
        CHECK(dots_in(&p, L + 16 * b + 15, L + 16 * b + 16, 0, 4 * H) == 0);
        CHECK(dots_in(&p, L + 16 * b, L + 16 * b + 15, B - hgt, B) == 15 * hgt);
    }
    CHECK(strcmp(text_at(&p, 1, 0, 6), " balls") == 0);
    CHECK(strcmp(text_at(&p, 2, H - 1, 5), "speed") == 0);
    CHECK(strcmp(text_at(&p, W - 2, H - 1, 2), " 8") == 0);
    /* speed ticks 0 2 4 6 8; counts whole: 0 2 4 (4.2 at the top) */
    CHECK(strcmp(text_at(&p, 16, H - 1, 1), "2") == 0 && strcmp(text_at(&p, 24, H - 1, 1), "4") == 0);
    CHECK(strcmp(text_at(&p, 0, 1, 7), "      4") == 0 && strcmp(text_at(&p, 0, 5, 7), "      2") == 0);
    {
        long three[4] = {3, 1, 2, 0}; /* up to 3.15: ticks of 0.5 would show */
        CHECK(plot_hist(&p, three, 4, 0, 8, NULL, NULL, &opt, &f) == 0);
        int frac = 0;
        for (int r = 1; r < H - 1; r++)
            frac |= strchr(text_at(&p, 0, r, 7), '.') != NULL;
        CHECK(!frac);
        CHECK(plot_hist(&p, count, 4, 0, 8, NULL, NULL, &opt, &f) == 0);
    }
    /* a curve at 2 balls a bin: one dot row across, in its colour */
    CHECK(plot_hist(&p, count, 4, 0, 8, half, NULL, &opt, &f) == 0);
    double dx, dy;
    plot_map(&f, 4, 2, &dx, &dy);
    int ok = 1;
    for (int x = L; x < 2 * W; x++)
        ok &= dot_at(&p, x, (int)dy);
    CHECK(ok);
    CHECK(plot_at(&p, 12, (int)dy / 4)->color == 2);
    /* a single ball shows at least one dot */
    long one[4] = {100, 1, 0, 0};
    CHECK(plot_hist(&p, one, 4, 0, 8, NULL, NULL, &opt, &f) == 0);
    CHECK(dots_in(&p, L + 16, L + 31, 0, 4 * H) == 15);
    /* no range */
    CHECK(plot_hist(&p, one, 4, 0, 0, NULL, NULL, &opt, &f) == -1);
}

/* Points beyond an int (a ball edited to x = -1e308, an arrow from a far
 * point): nothing drawn and no undefined conversion (make check's
 * float-cast-overflow found plot_arrow converting 2.4e21 to int). */
static void test_far(void)
{
    struct plot p = grid(W, H);
    plot_dotf(&p, 3e9, 5, 7);
    plot_dotf(&p, -1e308, 5, 7);
    plot_dotf(&p, 5, 1e300, 7);
    plot_dotf(&p, NAN, 5, 7);
    CHECK(dots_in(&p, 0, 2 * W, 0, 4 * H) == 0);
    plot_dotf(&p, 5.9, 6.2, 7);
    CHECK(dots_in(&p, 0, 2 * W, 0, 4 * H) == 1 && dot_at(&p, 5, 6));
    p = grid(W, H);
    plot_arrow(&p, 1.2e21, 3, 1.2e21, 3.1, 2, 7); /* shorter than a dot, far */
    plot_arrow(&p, -1e300, 3, -1e300, 3.1, 2, 7);
    plot_arrow(&p, 1e300, 1e300, 2, 2, 2, 7);      /* clipped to the grid */
    CHECK(dots_in(&p, 0, 2 * W, 0, 4 * H) > 0);
}

void test_plot(void)
{
    test_far();
    test_dots();
    test_text();
    test_lines();
    test_arrow();
    test_line_plot();
    test_histogram();
}
