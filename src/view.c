/*
 * view.c - world -> cells, and the cell buffer.
 */
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_PI 3.14159265358979323846

/* Braille: dot (column dx, row dy) of a cell is bit dot_bit[dy][dx] of
 * U+2800 + bits (dots 1-2-3-7 down the left, 4-5-6-8 down the right). */
static const uint8_t dot_bit[4][2] = {
    {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80},
};

enum { ASCII_DISC = '@', ASCII_BALL = 'O', ASCII_SMALL = 'o', ASCII_TRAIL = '.', ASCII_RIM = '#' };

int view_fit(struct view_map *m, double x0, double y0, double x1, double y1,
             int cols, int rows, double aspect)
{
    memset(m, 0, sizeof *m);
    int iw = cols - 2, ih = rows - 2;
    if (iw < 1 || ih < 1 || !(x1 > x0) || !(y1 > y0) || !(aspect > 0))
        return -1;
    /* Largest scale with (x1-x0)*sx <= iw and (y1-y0)*sx/aspect <= ih. */
    double sx = fmin(iw / (x1 - x0), ih * aspect / (y1 - y0));
    double tw = (x1 - x0) * sx, th = (y1 - y0) * sx / aspect;
    if (!isfinite(tw) || !isfinite(th)) /* a world too small or too large */
        return -1;
    /* The inner area: whole cells around the world, centred in the grid. */
    int w = (int)ceil(tw - 1e-9), h = (int)ceil(th - 1e-9);
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    m->x0 = x0;
    m->y0 = y0;
    m->x1 = x1;
    m->y1 = y1;
    m->aspect = aspect;
    m->sx = sx;
    m->sy = sx / aspect;
    m->cols = cols;
    m->rows = rows;
    m->w = w;
    m->h = h;
    m->left = 1 + (iw - w) / 2;
    m->top = 1 + (ih - h) / 2;
    m->ox = m->left + (w - tw) / 2;
    m->oy = m->top + (h - th) / 2;
    return 0;
}

void view_to_grid(const struct view_map *m, double x, double y, double *c, double *r)
{
    *c = m->ox + (x - m->x0) * m->sx;
    *r = m->oy + (m->y1 - y) * m->sy;
}

void view_to_world(const struct view_map *m, double c, double r, double *x, double *y)
{
    *x = m->x0 + (c - m->ox) / m->sx;
    *y = m->y1 - (r - m->oy) / m->sy;
}

void view_init(struct view *v)
{
    memset(v, 0, sizeof *v);
}

void view_free(struct view *v)
{
    free(v->cell);
    free(v->used);
    free(v->prev);
    free(v->dirty);
    free(v->paint);
    memset(v, 0, sizeof *v);
}

static void set_bg(struct view *v, int idx, uint8_t bits, int kind)
{
    struct view_cell *c = &v->cell[idx];
    uint8_t nb = v->glyphs == VIEW_ASCII ? bits : (uint8_t)(c->bg | bits);
    if (c->bgkind == VIEW_RIM && kind != VIEW_RIM)
        return; /* trails never cover the rim */
    if (c->bg == nb && c->bgkind == kind)
        return;
    c->bg = nb;
    c->bgkind = (uint8_t)kind;
    if (c->dstamp != v->stamp) {
        c->dstamp = v->stamp;
        v->dirty[v->ndirty++] = idx;
    }
}

/* A lattice coordinate (cell or dot) as a long, clamped to +-1e9 first: a
 * ball far off the table, or of a huge radius, must not convert a double
 * out of the range of long; 1e9 is off any grid. NaN goes off it too. */
static long lattice(double v)
{
    if (!(v > -1e9))
        return -1000000000L;
    if (v > 1e9)
        return 1000000000L;
    return (long)v;
}

/* The dot at dot coordinates (X, Y) as a background dot, if inside. */
static void bg_dot(struct view *v, long X, long Y, int kind)
{
    const struct view_map *m = &v->map;
    if (X < 2L * m->left || X >= 2L * (m->left + m->w) || Y < 4L * m->top ||
        Y >= 4L * (m->top + m->h))
        return;
    int idx = (int)(Y / 4) * m->cols + (int)(X / 2);
    if (v->glyphs == VIEW_ASCII)
        set_bg(v, idx, kind == VIEW_RIM ? ASCII_RIM : ASCII_TRAIL, kind);
    else
        set_bg(v, idx, dot_bit[Y % 4][X % 2], kind);
}

static void draw_circle_rim(struct view *v)
{
    const struct view_map *m = &v->map;
    double c, r;
    view_to_grid(m, 0.5 * (m->x0 + m->x1), 0.5 * (m->y0 + m->y1), &c, &r);
    double rx = 0.5 * (m->x1 - m->x0) * m->sx, ry = 0.5 * (m->y1 - m->y0) * m->sy;
    int steps = (int)(16 * (rx + ry)) + 16;
    for (int i = 0; i < steps; i++) {
        double a = 2 * VIEW_PI * i / steps;
        double gc = c + rx * cos(a), gr = r + ry * sin(a);
        /* Just inside the disc, so that the rim stays in the inner area. */
        gc -= 0.01 * cos(a);
        gr -= 0.01 * sin(a);
        bg_dot(v, lattice(floor(gc * 2)), lattice(floor(gr * 4)), VIEW_RIM);
    }
}

int view_layout(struct view *v, int cols, int rows, double x0, double y0,
                double x1, double y1, double aspect, int rim, int glyphs)
{
    struct view_map m;
    if (view_fit(&m, x0, y0, x1, y1, cols, rows, aspect))
        return 1;
    size_t n = (size_t)cols * (size_t)rows;
    if (n > v->ncells) {
        struct view old = *v;
        view_init(v);
        v->cell = malloc(n * sizeof *v->cell);
        v->used = malloc(n * sizeof *v->used);
        v->prev = malloc(n * sizeof *v->prev);
        v->dirty = malloc(n * sizeof *v->dirty);
        v->paint = malloc(n * sizeof *v->paint);
        if (!v->cell || !v->used || !v->prev || !v->dirty || !v->paint) {
            view_free(v);
            *v = old;
            return -1;
        }
        v->ncells = n;
        view_free(&old);
    }
    memset(v->cell, 0, n * sizeof *v->cell);
    v->map = m;
    v->rim = rim;
    v->glyphs = glyphs;
    v->stamp = 1;
    v->nused = v->nprev = v->ndirty = v->npaint = 0;
    if (rim == VIEW_RIM_CIRCLE)
        draw_circle_rim(v);
    v->ndirty = 0; /* a new layout is painted whole */
    return 0;
}

void view_begin(struct view *v)
{
    int *t = v->prev;
    v->prev = v->used;
    v->nprev = v->nused;
    v->used = t;
    v->nused = 0;
    v->ndirty = 0;
    v->stamp++;
    if (v->stamp == 0) { /* wrapped after 2^32 frames: forget all stamps */
        for (size_t i = 0; i < (size_t)v->map.cols * (size_t)v->map.rows; i++)
            v->cell[i].stamp = v->cell[i].pstamp = v->cell[i].dstamp = 0;
        v->stamp = 1;
    }
}

/* The ball-layer cell at grid cell (i, j) for this frame, cleared on first
 * touch; NULL outside the inner area. */
static struct view_cell *touch(struct view *v, int i, int j)
{
    const struct view_map *m = &v->map;
    if (i < m->left || i >= m->left + m->w || j < m->top || j >= m->top + m->h)
        return NULL;
    int idx = j * m->cols + i;
    struct view_cell *c = &v->cell[idx];
    if (c->stamp != v->stamp) {
        c->stamp = v->stamp;
        c->bits = 0;
        c->ch = 0;
        c->layer = VIEW_EMPTY;
        v->used[v->nused++] = idx;
    }
    return c;
}

static void ball_dot(struct view *v, long X, long Y, uint32_t color, int layer)
{
    if (X < 0 || Y < 0)
        return;
    struct view_cell *c = touch(v, (int)(X / 2), (int)(Y / 4));
    if (!c)
        return;
    c->bits |= dot_bit[Y % 4][X % 2];
    c->ch = 0;
    c->color = color;
    c->layer = (uint8_t)layer;
}

static void ball_char(struct view *v, int i, int j, uint32_t ch, uint32_t color, int layer)
{
    struct view_cell *c = touch(v, i, j);
    if (!c)
        return;
    c->ch = ch;
    c->color = color;
    c->layer = (uint8_t)layer;
}

/* Calls the cell or dot of every lattice point (i + 0.5, j + 0.5) inside
 * the ellipse of centre (cx, cy) and radii (rx, ry), in lattice units.
 * Returns how many. */
static long fill_ellipse(struct view *v, double cx, double cy, double rx, double ry,
                         int dots, uint32_t color)
{
    long n = 0;
    long i0 = lattice(floor(cx - rx)), i1 = lattice(ceil(cx + rx));
    long j0 = lattice(floor(cy - ry)), j1 = lattice(ceil(cy + ry));
    /* Clip to the inner area first so that a huge ball costs only what
     * shows. */
    const struct view_map *m = &v->map;
    long lo_i = dots ? 2L * m->left : m->left, hi_i = dots ? 2L * (m->left + m->w) : m->left + m->w;
    long lo_j = dots ? 4L * m->top : m->top, hi_j = dots ? 4L * (m->top + m->h) : m->top + m->h;
    if (i0 < lo_i) i0 = lo_i;
    if (i1 > hi_i - 1) i1 = hi_i - 1;
    if (j0 < lo_j) j0 = lo_j;
    if (j1 > hi_j - 1) j1 = hi_j - 1;
    for (long j = j0; j <= j1; j++) {
        double dy = (j + 0.5 - cy) / ry;
        if (dy * dy > 1)
            continue;
        for (long i = i0; i <= i1; i++) {
            double dx = (i + 0.5 - cx) / rx;
            if (dx * dx + dy * dy <= 1 + 1e-12) {
                if (dots)
                    ball_dot(v, i, j, color, VIEW_BALL);
                else
                    ball_char(v, (int)i, (int)j, ASCII_DISC, color, VIEW_BALL);
                n++;
            }
        }
    }
    return n;
}

void view_ball(struct view *v, double x, double y, double r, uint32_t color)
{
    const struct view_map *m = &v->map;
    double c, rr;
    view_to_grid(m, x, y, &c, &rr);
    if (!isfinite(c) || !isfinite(rr))
        return;
    double rx = r * m->sx, ry = r * m->sy; /* radii in cells */
    if (v->glyphs == VIEW_ASCII) {
        /* A disc when the ball is at least 3 cells across and 1.5 rows
         * tall; else one character in the cell of its centre, 'O' when the
         * ball is at least a cell wide, 'o' when smaller (touching balls
         * then stay apart on screen). */
        if (rx >= 1.5 && ry >= 0.75 && fill_ellipse(v, c, rr, rx, ry, 0, color) > 0)
            return;
        ball_char(v, (int)lattice(floor(c)), (int)lattice(floor(rr)), rx >= 0.5 ? ASCII_BALL : ASCII_SMALL,
                  color, VIEW_BALL);
        return;
    }
    /* In dots: at least one dot of radius, so a tiny ball is 2 to 5 dots. */
    double dx = fmax(2 * rx, 1.0), dy = fmax(4 * ry, 1.0);
    if (fill_ellipse(v, 2 * c, 4 * rr, dx, dy, 1, color) == 0)
        ball_dot(v, lattice(floor(2 * c)), lattice(floor(4 * rr)), color, VIEW_BALL);
}

void view_label(struct view *v, double x, double y, uint32_t ch, uint32_t color)
{
    double c, r;
    view_to_grid(&v->map, x, y, &c, &r);
    /* Compared as doubles first: a point far outside must not overflow int. */
    if (!isfinite(c) || !isfinite(r) || c < 0 || r < 0 || c >= v->map.cols ||
        r >= v->map.rows)
        return;
    ball_char(v, (int)floor(c), (int)floor(r), ch, color, VIEW_BALL);
}

void view_trail(struct view *v, double x, double y)
{
    double c, r;
    view_to_grid(&v->map, x, y, &c, &r);
    if (!isfinite(c) || !isfinite(r))
        return;
    if (v->glyphs == VIEW_ASCII)
        bg_dot(v, lattice(floor(c)) * 2, lattice(floor(r)) * 4, VIEW_TRAIL);
    else
        bg_dot(v, lattice(floor(2 * c)), lattice(floor(4 * r)), VIEW_TRAIL);
}

void view_clear_trails(struct view *v)
{
    size_t n = (size_t)v->map.cols * (size_t)v->map.rows;
    for (size_t i = 0; i < n; i++) {
        struct view_cell *c = &v->cell[i];
        if (c->bgkind == VIEW_TRAIL) {
            c->bg = 0;
            c->bgkind = VIEW_EMPTY;
            if (c->dstamp != v->stamp) {
                c->dstamp = v->stamp;
                v->dirty[v->ndirty++] = (int)i;
            }
        }
    }
}

uint32_t view_arrow(double angle, int glyphs)
{
    static const uint32_t uni[8] = {0x2192, 0x2197, 0x2191, 0x2196,
                                    0x2190, 0x2199, 0x2193, 0x2198};
    static const char asc[8] = {'>', '/', '^', '\\', '<', '/', 'v', '\\'};
    double a = fmod(angle, 2 * VIEW_PI);
    if (a < 0)
        a += 2 * VIEW_PI;
    int o = (int)floor(a / (VIEW_PI / 4) + 0.5) % 8;
    return glyphs == VIEW_ASCII ? (uint32_t)asc[o] : uni[o];
}

void view_mark(struct view *v, double x, double y, double r, double angle,
               uint32_t color)
{
    const struct view_map *m = &v->map;
    double c, rr;
    view_to_grid(m, x, y, &c, &rr);
    double ux = cos(angle), uy = -sin(angle); /* grid rows grow downward */
    /* Distances in cell widths; a row is `aspect` widths tall. */
    double rc = r * m->sx;
    double tip = rc + 3.0;
    /* (Past 1e9 cells, the mark is off the grid, and d += 0.5 might no
     * longer move d.) */
    if (v->glyphs != VIEW_ASCII && rc < 1e9) {
        /* Every other dot from just outside the ball up to the arrow. */
        for (double d = rc + 0.5; d < tip - 0.6; d += 0.5) {
            double gc = c + ux * d, gr = rr + uy * d / m->aspect;
            ball_dot(v, lattice(floor(2 * gc)), lattice(floor(4 * gr)), color, VIEW_MARK);
        }
    }
    double gc = c + ux * tip, gr = rr + uy * tip / m->aspect;
    ball_char(v, (int)lattice(floor(gc)), (int)lattice(floor(gr)), view_arrow(angle, v->glyphs), color,
              VIEW_MARK);
}

static void list_paint(struct view *v, int idx)
{
    struct view_cell *c = &v->cell[idx];
    if (c->pstamp != v->stamp) {
        c->pstamp = v->stamp;
        v->paint[v->npaint++] = idx;
    }
}

void view_end(struct view *v)
{
    v->npaint = 0;
    for (size_t i = 0; i < v->nused; i++)
        list_paint(v, v->used[i]);
    for (size_t i = 0; i < v->nprev; i++)
        list_paint(v, v->prev[i]);
    for (size_t i = 0; i < v->ndirty; i++)
        list_paint(v, v->dirty[i]);
}

int view_glyph(const struct view *v, int idx, uint32_t *ch, uint32_t *color)
{
    const struct view_cell *c = &v->cell[idx];
    /* For a cell without a ball, the colour of the last ball drawn there:
     * a blank or a trail in that colour looks the same, and saves the
     * terminal a switch of colours. */
    *color = c->color;
    if (c->stamp == v->stamp && c->layer != VIEW_EMPTY) {
        *color = c->color;
        if (c->ch)
            *ch = c->ch;
        else
            *ch = 0x2800u + (uint32_t)(c->bits | c->bg);
        return c->layer;
    }
    if (c->bgkind != VIEW_EMPTY) {
        *ch = v->glyphs == VIEW_ASCII ? c->bg : 0x2800u + c->bg;
        return c->bgkind;
    }
    *ch = ' ';
    return VIEW_EMPTY;
}
