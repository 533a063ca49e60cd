/*
 * plot.c - braille line plots, histograms and arrows in a cell grid (see
 * plot.h).
 */
#include "plot.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===== Cells, text, dots ===== */

void plot_clear(struct plot *p)
{
    for (int i = 0; i < p->w * p->h; i++) {
        p->cell[i].ch = 0;
        p->cell[i].color = 0;
    }
}

struct plot_cell *plot_at(struct plot *p, int col, int row)
{
    if (col < 0 || row < 0 || col >= p->w || row >= p->h)
        return NULL;
    return &p->cell[row * p->w + col];
}

/* Decodes one UTF-8 code point at *s and moves past it; a malformed
 * sequence gives '?' and moves one byte. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *u = (const unsigned char *)*s;
    uint32_t c = u[0];
    int len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
            : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0) {
        ++*s;
        return '?';
    }
    if (len > 1)
        c &= 0x3fu >> (len - 1);
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            ++*s;
            return '?';
        }
        c = c << 6 | (u[i] & 0x3f);
    }
    *s += len;
    return c;
}

int plot_text(struct plot *p, int col, int row, const char *s, uint32_t color)
{
    while (*s) {
        uint32_t ch = utf8_next(&s);
        struct plot_cell *c = plot_at(p, col, row);
        if (c) {
            c->ch = ch;
            c->color = color;
        }
        col++;
    }
    return col;
}

void plot_dot(struct plot *p, int dx, int dy, uint32_t color)
{
    if (dx < 0 || dy < 0)
        return;
    struct plot_cell *c = plot_at(p, dx / 2, dy / 4);
    if (!c)
        return;
    static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
                                      {0x08, 0x10, 0x20, 0x80}};
    uint32_t bits = c->ch >= PLOT_BRAILLE && c->ch <= PLOT_BRAILLE + 0xff
                        ? c->ch - PLOT_BRAILLE : 0;
    c->ch = PLOT_BRAILLE + (bits | bit[dx % 2][dy % 4]);
    c->color = color;
}

void plot_dotf(struct plot *p, double x, double y, uint32_t color)
{
    /* the grid is at most INT_MAX / 4 cells a side: farther is outside */
    if (!(x >= 0 && y >= 0 && x < INT_MAX / 2 && y < INT_MAX / 2))
        return;
    plot_dot(p, (int)x, (int)y, color);
}

void plot_line(struct plot *p, double x0, double y0, double x1, double y1,
               uint32_t color)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
        return;
    /* Clip to a margin around the grid so that a far end costs nothing. */
    double W = 2.0 * p->w, H = 4.0 * p->h;
    double lo[2] = {-1, -1}, hi[2] = {W + 1, H + 1};
    double a0 = 0, a1 = 1, d[2] = {x1 - x0, y1 - y0}, o[2] = {x0, y0};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0) {
            if (o[k] < lo[k] || o[k] > hi[k])
                return;
            continue;
        }
        double t0 = (lo[k] - o[k]) / d[k], t1 = (hi[k] - o[k]) / d[k];
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        a0 = t0 > a0 ? t0 : a0;
        a1 = t1 < a1 ? t1 : a1;
    }
    if (a0 > a1)
        return;
    double sx = x0 + a0 * d[0], sy = y0 + a0 * d[1];
    double ex = x0 + a1 * d[0], ey = y0 + a1 * d[1];
    double adx = fabs(ex - sx), ady = fabs(ey - sy);
    int steps = (int)ceil(adx > ady ? adx : ady);
    if (steps < 1) {
        plot_dotf(p, sx, sy, color);
        plot_dotf(p, ex, ey, color);
        return;
    }
    /* d i / steps, not (i / steps) d: with d a whole number of dots (a
     * step of exactly one) the product is exact, where t d fell just
     * short of a whole dot now and then and left a gap (the momentum
     * diagram's 94-dot shafts lost every 7th dot or so) */
    for (int i = 0; i <= steps; i++)
        plot_dotf(p, sx + (ex - sx) * i / steps, sy + (ey - sy) * i / steps, color);
}

void plot_arrow(struct plot *p, double c0, double r0, double c1, double r1,
                double aspect, uint32_t color)
{
    if (!(aspect > 0))
        aspect = 2;
    double x0 = 2 * c0, y0 = 4 * r0, x1 = 2 * c1, y1 = 4 * r1;
    /* square units: a dot is 1/2 wide and aspect/4 tall (in cell widths) */
    double ux = 0.5, uy = aspect / 4;
    double wx = (x1 - x0) * ux, wy = (y1 - y0) * uy;
    double len = sqrt(wx * wx + wy * wy);
    if (!(len >= ux)) {
        if (isfinite(x0) && isfinite(y0))
            plot_dotf(p, x0, y0, color);
        return;
    }
    plot_line(p, x0, y0, x1, y1, color);
    /* barbs of up to 3 dots, at most half the shaft */
    double b = 3 * ux < len / 2 ? 3 * ux : len / 2;
    if (b < 1.5 * ux)
        return;
    double ex = -wx / len, ey = -wy / len; /* back along the shaft */
    const double c = 0.8660254037844386, s = 0.5; /* cos, sin 30 degrees */
    for (int k = -1; k <= 1; k += 2) {
        double bx = (ex * c - k * ey * s) * b, by = (k * ex * s + ey * c) * b;
        plot_line(p, x1, y1, x1 + bx / ux, y1 + by / uy, color);
    }
}

void plot_ascii(struct plot *p)
{
    for (int i = 0; i < p->w * p->h; i++) {
        uint32_t ch = p->cell[i].ch;
        if (ch < 128)
            continue;
        if (ch >= PLOT_BRAILLE && ch <= PLOT_BRAILLE + 0xff) {
            unsigned bits = ch - PLOT_BRAILLE, cnt = 0;
            for (unsigned b = bits; b; b &= b - 1)
                cnt++;
            int top = (bits & 0x1b) != 0, bottom = (bits & 0xe4) != 0;
            ch = cnt == 0 ? 0 : cnt >= 6 ? '#' : top && bottom ? ':' : top ? '\'' : '.';
        } else if (ch == 0x2502 || ch == 0x2503) { /* │ ┃ */
            ch = '|';
        } else if (ch == 0x2500 || ch == 0x2501) { /* ─ ━ */
            ch = '-';
        } else if (ch >= 0x2500 && ch <= 0x257f) { /* corners, tees */
            ch = '+';
        } else {
            ch = '*';
        }
        p->cell[i].ch = ch;
    }
}

/* ===== Numbers ===== */

/* Significant digits that fixed notation @p txt of a value shows: the
 * digits from the first non-zero one on. */
static int sig_digits(const char *txt)
{
    int n = 0, started = 0;
    for (const char *p = txt; *p; p++) {
        if (*p < '0' || *p > '9')
            continue;
        if (*p != '0')
            started = 1;
        n += started;
    }
    return n;
}

/*
 * Fixed notation with at most PLOT_DIGITS significant digits and as many decimals
 * as fit; when that shows fewer than 3 significant digits and an
 * exponent would show more (0.0000123, 12345678), the exponent. A value
 * that prints as zero loses its sign.
 */
char *plot_fmt(char *buf, size_t cap, double v, int width)
{
    if (cap == 0)
        return buf;
    if (width < 4)
        width = 4;
    if ((size_t)width >= cap)
        width = (int)cap - 1;
    if (isnan(v) || isinf(v)) {
        snprintf(buf, cap, "%*s", width, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return buf;
    }
    if (v == 0) { /* exactly zero (and -0): a plain 0 */
        snprintf(buf, cap, "%*s", width, "0");
        return buf;
    }
    char fix[64] = "", sci[64] = "";
    int fsig = -1, esig = -1;
    double a = fabs(v);
    int ip = a < 1 ? 1 : (int)floor(log10(a)) + 1; /* integer digits */
    int lead = a > 0 && a < 1 ? -(int)floor(log10(a)) - 1 : 0; /* zeros after the point */
    if (ip <= 309) {
        int dmax = a >= 1 ? PLOT_DIGITS - ip : PLOT_DIGITS + lead;
        if (dmax < 0)
            dmax = 0;
        for (int dec = dmax; dec >= 0; dec--) {
            char t[400];
            int len = snprintf(t, sizeof t, "%.*f", dec, v);
            /* 9.99996 rounds up to "10.0000": a digit more than the
             * column's others ("-10.0000" beside "10.000") */
            if (dec > 0 && sig_digits(t) > PLOT_DIGITS)
                continue;
            if (len > 0 && len <= width && (size_t)len < sizeof fix) {
                memcpy(fix, t, (size_t)len + 1);
                fsig = sig_digits(fix);
                break;
            }
        }
    }
    for (int dec = PLOT_DIGITS - 1; dec >= 0; dec--) {
        int len = snprintf(sci, sizeof sci, "%.*e", dec, v);
        if (len <= width) {
            esig = dec + 1;
            break;
        }
    }
    const char *pick;
    if ((fsig >= 1 && (fsig >= 3 || esig <= fsig)))
        pick = fix;
    else if (esig > 0)
        pick = sci;
    else if (fsig >= 0)
        pick = fix;
    else
        pick = NULL;
    if (!pick) { /* nothing fits: a run of '#' as spreadsheets do */
        memset(buf, '#', (size_t)width);
        buf[width] = 0;
        return buf;
    }
    if (pick == fix && fix[0] == '-' && sig_digits(fix) == 0)
        memmove(fix, fix + 1, strlen(fix));
    snprintf(buf, cap, "%*s", width, pick);
    return buf;
}


/* ===== Frames, line plots, histograms ===== */

void plot_map(const struct plot_frame *f, double x, double y, double *dx, double *dy)
{
    double W = 2.0 * f->w - 1, H = 4.0 * f->h - 1;
    *dx = 2.0 * f->left + (x - f->x0) / (f->x1 - f->x0) * W + 0.5;
    *dy = 4.0 * f->top + (f->y1 - y) / (f->y1 - f->y0) * H + 0.5;
}

enum { MIN_W = PLOT_MIN_W, MIN_H = PLOT_MIN_H };

/* The layout every plot shares: legend on row 0, y labels in the first
 * lw columns, the axis line in column lw, the data to the right, x labels
 * on the last row. */
static void frame_layout(const struct plot *p, struct plot_frame *f, int *lw)
{
    *lw = p->w >= 40 ? 7 : 5;
    f->left = *lw + 1;
    f->top = 1;
    f->w = p->w - f->left;
    f->h = p->h - 2;
}

static void message(struct plot *p, const char *msg, uint32_t color)
{
    plot_clear(p);
    plot_text(p, 0, 0, msg, color);
}

/* The shortest %g of @p v with at most 4 significant digits that fits in
 * @p width characters (fewer digits when needed), right-aligned; "#"s
 * when none fits. Axis labels: 105, 56.88, -5, 0.001. */
static char *compact(char *buf, size_t cap, double v, int width)
{
    if (v == 0)
        v = 0;
    char t[64];
    /* a whole number whole when it fits (10000, not 1e+04 beside 9000) */
    if (v == floor(v) && fabs(v) < 1e15 && snprintf(t, sizeof t, "%.0f", v) <= width) {
        snprintf(buf, cap, "%*s", width, t);
        return buf;
    }
    for (int prec = 4; prec >= 1; prec--) {
        int len = snprintf(t, sizeof t, "%.*g", prec, v);
        if (len <= width) {
            snprintf(buf, cap, "%*s", width, t);
            return buf;
        }
    }
    return plot_fmt(buf, cap, v, width);
}

/* The round step (1, 2 or 5 times a power of ten) that cuts @p span into
 * at most @p most steps; at least 1 when @p integer (counts). */
static double tick_step(double span, int most, int integer)
{
    if (!(span > 0) || !isfinite(span) || most < 1)
        return 0;
    double e = pow(10, floor(log10(span / most)));
    static const double mult[] = {1, 2, 5, 10, 20};
    double step = e;
    for (size_t k = 0; k < sizeof mult / sizeof *mult; k++) {
        step = mult[k] * e;
        if (span / step <= most)
            break;
    }
    if (integer && step < 1)
        step = 1;
    return step;
}

/* The labels of an axis from @p lo to @p hi: the multiples of @p step in
 * it, each passed to @p put with its value (k step, so 0.1 * 3 reads
 * 0.3, never 0.30000000000000004). */
static void ticks(double lo, double hi, double step,
                  void (*put)(void *ctx, double v), void *ctx)
{
    if (!(step > 0))
        return;
    double k0 = ceil(lo / step - 1e-9), k1 = floor(hi / step + 1e-9);
    for (double k = k0; k <= k1 && k - k0 < 64; k++)
        put(ctx, k * step + 0.0); /* + 0: no "-0" */
}

struct axis_ctx {
    struct plot *p;
    const struct plot_frame *f;
    int lw, last, integer;
    uint32_t color;
};

/* A y tick: "┤" and the value at the row the value maps to. */
static void y_tick(void *ctx, double v)
{
    struct axis_ctx *a = ctx;
    double dx, dy;
    plot_map(a->f, a->f->x0, v, &dx, &dy);
    int row = (int)floor(dy / 4);
    if (row < a->f->top || row >= a->f->top + a->f->h || row == a->last)
        return;
    char num[64];
    plot_text(a->p, a->lw, row, "┤", a->color);
    plot_text(a->p, 0, row, compact(num, sizeof num, v, a->lw), a->color);
    a->last = row;
}

/* The y labels and the axis line: round values (1, 2, 5 x 10^n), a row
 * apart at least, whole numbers for counts (@p integer); the row a value
 * maps to is the row its line passes. */
static void y_axis(struct plot *p, const struct plot_frame *f, int lw, int integer,
                   uint32_t color)
{
    for (int row = f->top; row < f->top + f->h; row++)
        plot_text(p, lw, row, "│", color);
    int most = f->h >= 5 ? f->h / 2 : 1;
    if (most > 5)
        most = 5;
    struct axis_ctx a = {p, f, lw, -1, integer, color};
    ticks(f->y0, f->y1, tick_step(f->y1 - f->y0, most, integer), y_tick, &a);
}

/* An x tick: the value centred on the column it maps to, when it does not
 * run into the label before it. */
static void x_tick(void *ctx, double v)
{
    struct axis_ctx *a = ctx;
    double dx, dy;
    plot_map(a->f, v, a->f->y0, &dx, &dy);
    char t[64], num[64];
    compact(t, sizeof t, v, 9);
    snprintf(num, sizeof num, "%s", t + strspn(t, " "));
    int len = (int)strlen(num), col = (int)floor(dx / 2) - (len - 1) / 2;
    if (col < a->f->left)
        col = a->f->left;
    if (col + len > a->f->left + a->f->w)
        col = a->f->left + a->f->w - len;
    if ((a->last >= 0 && col < a->last + 3) || col < a->f->left)
        return;
    a->last = plot_text(a->p, col, a->p->h - 1, num, a->color);
}

/* The x labels on the last row: round values across the data, a few
 * columns apart; the axis' name under the y labels. */
static void x_axis(struct plot *p, const struct plot_frame *f, int lw, const char *name,
                   uint32_t color)
{
    int row = p->h - 1;
    if (name && (int)strlen(name) <= lw) /* ASCII names */
        plot_text(p, lw - (int)strlen(name), row, name, color);
    /* labels of up to 5 characters, 3 blanks apart */
    int most = f->w / 8 > 1 ? f->w / 8 : 1;
    struct axis_ctx a = {p, f, lw, -1, 0, color};
    ticks(f->x0, f->x1, tick_step(f->x1 - f->x0, most, 0), x_tick, &a);
    (void)a.last;
}

/* "━ name" entries on row 0 from column @p col; returns the next column. */
static int legend(struct plot *p, int col, const char *mark, const char *name,
                  uint32_t color)
{
    if (!name)
        return col;
    col = plot_text(p, col, 0, mark, color);
    col = plot_text(p, col, 0, " ", color);
    col = plot_text(p, col, 0, name, color);
    return plot_text(p, col, 0, "  ", color);
}

/* Widens [*lo, *hi] by 5% of its span, or around a flat value. */
static void pad_range(double *lo, double *hi)
{
    double span = *hi - *lo;
    if (span > 0) {
        *lo -= 0.05 * span;
        *hi += 0.05 * span;
    } else {
        double d = *lo != 0 ? 0.01 * fabs(*lo) : 1;
        *lo -= d;
        *hi += d;
    }
}

int plot_lines(struct plot *p, const struct plot_series *ser, int nser,
               const struct plot_lines_opt *opt, struct plot_frame *fout)
{
    struct plot_frame f;
    int lw;
    plot_clear(p);
    if (p->w < MIN_W || p->h < MIN_H) {
        message(p, "too small", opt->axis_color);
        return -1;
    }
    frame_layout(p, &f, &lw);
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < nser; k++)
        for (size_t i = 0; i < ser[k].n; i++) {
            double x = ser[k].x[i], y = ser[k].y[i];
            if (!isfinite(x) || !isfinite(y))
                continue;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
        }
    if (!(x0 <= x1)) {
        message(p, "no data yet", opt->axis_color);
        return -1;
    }
    if (opt->zero) {
        y0 = y0 > 0 ? 0 : y0;
        y1 = y1 < 0 ? 0 : y1;
    }
    pad_range(&y0, &y1);
    if (opt->zero && y0 < 0) {
        /* keep 0 at the bottom when no value is below it */
        int below = 0;
        for (int k = 0; k < nser && !below; k++)
            for (size_t i = 0; i < ser[k].n; i++)
                if (ser[k].y[i] < 0) {
                    below = 1;
                    break;
                }
        if (!below)
            y0 = 0;
    }
    if (x1 == x0)
        x1 = x0 + 1;
    f.x0 = x0;
    f.x1 = x1;
    f.y0 = y0;
    f.y1 = y1;
    int col = 0;
    for (int k = 0; k < nser; k++)
        col = legend(p, col, "━", ser[k].name, ser[k].color);
    y_axis(p, &f, lw, 0, opt->axis_color);
    x_axis(p, &f, lw, opt->xname, opt->axis_color);
    for (int k = 0; k < nser; k++) {
        double px = NAN, py = NAN;
        for (size_t i = 0; i < ser[k].n; i++) {
            double dx, dy;
            if (!isfinite(ser[k].x[i]) || !isfinite(ser[k].y[i])) {
                px = py = NAN;
                continue;
            }
            plot_map(&f, ser[k].x[i], ser[k].y[i], &dx, &dy);
            if (isfinite(px))
                plot_line(p, px, py, dx, dy, ser[k].color);
            else
                plot_dotf(p, dx, dy, ser[k].color);
            px = dx;
            py = dy;
        }
    }
    if (fout)
        *fout = f;
    return 0;
}

int plot_hist(struct plot *p, const long *count, int nbins, double v0,
              double v1, double (*curve)(double v, const void *ctx),
              const void *ctx, const struct plot_hist_opt *opt,
              struct plot_frame *fout)
{
    struct plot_frame f;
    int lw;
    plot_clear(p);
    if (p->w < MIN_W || p->h < MIN_H || nbins < 1) {
        message(p, nbins < 1 ? "no bins" : "too small", opt->axis_color);
        return -1;
    }
    if (!(v1 > v0)) {
        message(p, "no data yet", opt->axis_color);
        return -1;
    }
    frame_layout(p, &f, &lw);
    const int W = 2 * f.w, H = 4 * f.h, L = 2 * f.left, B = 4 * (f.top + f.h);
    double top = 0;
    for (int b = 0; b < nbins; b++)
        top = count[b] > top ? (double)count[b] : top;
    if (curve)
        for (int x = 0; x < W; x++) {
            double c = curve(v0 + (x + 0.5) / W * (v1 - v0), ctx);
            top = isfinite(c) && c > top ? c : top;
        }
    if (!(top > 0))
        top = 1;
    f.x0 = v0;
    f.x1 = v1;
    f.y0 = 0;
    f.y1 = top * 1.05;
    int col = legend(p, 0, "⣿", opt->bar_name, opt->bar_color);
    legend(p, col, "━", curve ? opt->curve_name : NULL, opt->curve_color);
    y_axis(p, &f, lw, 1, opt->axis_color);
    x_axis(p, &f, lw, opt->xname, opt->axis_color);
    for (int b = 0; b < nbins; b++) {
        int xa = L + (int)((long)b * W / nbins), xb = L + (int)((long)(b + 1) * W / nbins);
        if (xb - xa >= 3)
            xb--; /* the gap */
        int hgt = (int)floor((double)count[b] / f.y1 * H + 0.5);
        if (count[b] > 0 && hgt < 1)
            hgt = 1; /* one ball still shows */
        for (int x = xa; x < xb; x++)
            for (int y = B - hgt; y < B; y++)
                plot_dot(p, x, y, opt->bar_color);
    }
    if (curve) {
        /* The curve in a grid of its own, then laid over the bars: a cell
         * it passes shows its dots alone, so that it reads as a line in
         * front of the bars rather than a block of its colour. */
        struct plot_cell *keep = p->cell;
        size_t ncell = (size_t)p->w * (size_t)p->h;
        struct plot_cell *cv = malloc(ncell * sizeof *cv);
        if (cv) {
            p->cell = cv;
            plot_clear(p);
        }
        double px = NAN, py = NAN;
        for (int x = 0; x < W; x++) {
            double v = v0 + (x + 0.5) / W * (v1 - v0);
            double c = curve(v, ctx), dx, dy;
            plot_map(&f, v, c, &dx, &dy);
            dx = L + x + 0.5; /* one point per dot column */
            if (!isfinite(dy)) {
                px = py = NAN;
                continue;
            }
            if (isfinite(px))
                plot_line(p, px, py, dx, dy, opt->curve_color);
            else
                plot_dotf(p, dx, dy, opt->curve_color);
            px = dx;
            py = dy;
        }
        if (cv) {
            p->cell = keep;
            for (size_t i = 0; i < ncell; i++)
                if (cv[i].ch >= PLOT_BRAILLE && cv[i].ch <= PLOT_BRAILLE + 0xff &&
                    cv[i].ch != PLOT_BRAILLE)
                    p->cell[i] = cv[i];
            free(cv);
        }
    }
    if (fout)
        *fout = f;
    return 0;
}
