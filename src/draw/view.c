/*
 * view.c - world -> cells, and the cell buffer.
 */
#include "view.h"
#include "view_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_PI 3.14159265358979323846


/* ASCII: a cell's dots as its four quadrants (one dot of two is enough),
 * and the quadrants as the character that has that shape: the edge of a
 * disc is '/', '\\', '(' or ')', its top '_' and its bottom '"' where
 * only half a cell is covered, its inside '@'. Index: top left 1, top
 * right 2, bottom left 4, bottom right 8. */
static const char quad_char[16] = {
    ' ', '\'', '\'', '"', '.', ')', '/', '/', '.', '\\', '(', '\\', '_', '\\', '/', '@',
};

/* Fills of a density of 1 to 8 dots: the dots of rank < k in this order,
 * spread over the cell. */
static const uint8_t density_rank[4][2] = {{0, 4}, {6, 2}, {1, 5}, {7, 3}};
static const char density_ascii[9] = " .:-=+*#@";

static char ascii_of_bits(unsigned b)
{
    unsigned q = ((b & 0x03) != 0) | ((b & 0x18) != 0) << 1 | ((b & 0x44) != 0) << 2 |
                 ((b & 0xa0) != 0) << 3;
    return quad_char[q];
}


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
    m->zoom = 1;
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
    free(v->scratch);
    memset(v, 0, sizeof *v);
}

void view_set_bg(struct view *v, int idx, uint8_t bits, int kind)
{
    struct view_cell *c = &v->cell[idx];
    uint8_t nb = v->glyphs == VIEW_ASCII ? bits : (uint8_t)(c->bg | bits);
    if (c->bgkind == VIEW_RIM && kind != VIEW_RIM)
        return; /* trails never cover the rim */
    if (c->bg == nb && c->bgkind == kind)
        return;
    c->bg = nb;
    c->bgkind = (uint8_t)kind;
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
        view_set_bg(v, idx, kind == VIEW_RIM ? ASCII_RIM : ASCII_TRAIL, kind);
    else
        view_set_bg(v, idx, dot_bit[Y % 4][X % 2], kind);
}

void view_circle_rim(struct view *v)
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
        v->scratch = malloc(n);
        if (!v->cell || !v->used || !v->scratch) {
            view_free(v);
            *v = old;
            return -1;
        }
        v->ncells = n;
        view_free(&old);
    }
    memset(v->cell, 0, n * sizeof *v->cell);
    v->map = m;
    v->whole = m;
    v->rim = rim;
    v->glyphs = glyphs;
    v->stamp = 1;
    v->nused = 0;
    if (rim == VIEW_RIM_CIRCLE)
        view_circle_rim(v);
    v->nsmall = 0;
    v->density = 0;
    return 0;
}

void view_begin(struct view *v)
{
    v->nused = 0;
    v->nsmall = 0;
    v->stamp++;
    if (v->stamp == 0) { /* wrapped after 2^32 frames: forget all stamps */
        for (size_t i = 0; i < (size_t)v->map.cols * (size_t)v->map.rows; i++)
            v->cell[i].stamp = 0;
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
        if (c->stamp + 1 != v->stamp)
            c->level = 0; /* empty last frame: no density to keep */
        c->stamp = v->stamp;
        c->bits = 0;
        c->ch = 0;
        c->layer = VIEW_EMPTY;
        c->hbits = 0;
        c->lens = 0;
        c->small = 0;
        c->votes = 0;
        c->area = 0;
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

/* 1 when a ball of this frame is in grid cell (i, j) (a disc, or a ball
 * drawn as a point): the aim mark leaves it alone. */
static int has_ball(struct view *v, int i, int j)
{
    const struct view_map *m = &v->map;
    if (i < m->left || i >= m->left + m->w || j < m->top || j >= m->top + m->h)
        return 0;
    const struct view_cell *c = &v->cell[j * m->cols + i];
    return c->stamp == v->stamp && (c->layer == VIEW_BALL || c->small);
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

static int popcount8(unsigned b)
{
    int n = 0;
    for (; b; b &= b - 1)
        n++;
    return n;
}

/* One ball's dots of cell (i, j) into the ball layer: one colour a cell,
 * so where two colours meet, the one with more dots here keeps the cell. */
static void merge(struct view *v, int i, int j, uint8_t bits, uint32_t color)
{
    struct view_cell *c = touch(v, i, j);
    if (!c)
        return;
    if (v->depth) { /* nearer: its dots here, whatever was before */
        if (c->ch || c->color != color)
            c->bits = 0;
        c->bits |= bits;
        c->ch = 0;
        c->color = color;
        c->layer = VIEW_BALL;
        return;
    }
    if (c->layer == VIEW_BALL && !c->ch)
        c->lens |= c->bits & bits; /* another disc's dots here too */
    if ((c->bits || c->ch) && !c->ch && c->color != color &&
        popcount8(c->bits) >= popcount8(bits))
        return;
    if (c->ch || c->color != color)
        c->bits = 0;
    c->bits |= bits;
    c->ch = 0;
    c->color = color;
    c->layer = VIEW_BALL;
}

/* A ball too small to draw as a disc: counted in the cell of lattice point
 * (X, Y) (a dot, or in ASCII a cell), settled in view_end. */
static void small_ball(struct view *v, long X, long Y, double area, int wide, uint32_t color)
{
    int ascii = v->glyphs == VIEW_ASCII;
    if (X < 0 || Y < 0)
        return;
    struct view_cell *c = ascii ? touch(v, (int)X, (int)Y) : touch(v, (int)(X / 2), (int)(Y / 4));
    if (!c)
        return;
    c->hbits |= ascii ? (uint8_t)(wide != 0) : dot_bit[Y % 4][X % 2];
    if (c->small < UINT16_MAX)
        c->small++;
    c->area += (float)area;
    if (c->votes == 0 || v->depth) { /* in depth order the nearest has it */
        c->vcolor = color;
        c->votes = 1;
    } else if (c->vcolor == color) {
        if (c->votes < UINT16_MAX)
            c->votes++;
    } else {
        c->votes--;
    }
    v->nsmall++;
}

/* ASCII: the cell for a one-character ball whose centre is at grid point
 * (c, r): its own cell, or when another ball has it this frame (and balls
 * are still few enough to be told apart), the free neighbour nearest to
 * the centre, so that a rack of balls a cell apart keeps all its balls. */
static void ascii_cell(struct view *v, double c, double r, long *i, long *j)
{
    *i = lattice(floor(c));
    *j = lattice(floor(r));
    const struct view_map *m = &v->map;
    if (*i < m->left || *i >= m->left + m->w || *j < m->top || *j >= m->top + m->h)
        return;
    const struct view_cell *own = &v->cell[*j * m->cols + *i];
    if (own->stamp != v->stamp ||
        (double)v->nsmall >= VIEW_DENSITY_SHARE * (double)m->w * m->h)
        return;
    double best = 2.5; /* beyond this a ball is too far from its place */
    long bi = *i, bj = *j;
    for (long dj = -1; dj <= 1; dj++)
        for (long di = -1; di <= 1; di++) {
            long ni = *i + di, nj = *j + dj;
            if ((!di && !dj) || ni < m->left || ni >= m->left + m->w || nj < m->top ||
                nj >= m->top + m->h || v->cell[nj * m->cols + ni].stamp == v->stamp)
                continue;
            /* Distance in cell widths, a row being `aspect` widths. */
            double ex = ni + 0.5 - c, ey = (nj + 0.5 - r) * m->aspect;
            double d = ex * ex + ey * ey;
            if (d < best) {
                best = d;
                bi = ni;
                bj = nj;
            }
        }
    *i = bi;
    *j = bj;
}

/* Depth order: the dots of this frame's balls inside the ellipse (cx, cy,
 * ex, ey) cleared (the inner area [lo, hi] of dots), so that a nearer ball
 * drawn after keeps a dot of gap to the ones behind it. */
static void clear_ring(struct view *v, double cx, double cy, double ex, double ey, long lo_x,
                       long hi_x, long lo_y, long hi_y)
{
    const struct view_map *m = &v->map;
    long Y0 = lattice(floor(cy - ey)), Y1 = lattice(ceil(cy + ey));
    if (Y0 < lo_y)
        Y0 = lo_y;
    if (Y1 > hi_y)
        Y1 = hi_y;
    for (long Y = Y0; Y <= Y1; Y++) {
        double t = (Y + 0.5 - cy) / ey;
        double q = 1 - t * t;
        if (q < 0)
            continue;
        double half = ex * sqrt(q);
        long a = lattice(ceil(cx - half - 0.5)), b = lattice(floor(cx + half - 0.5));
        if (a < lo_x)
            a = lo_x;
        if (b > hi_x)
            b = hi_x;
        for (long X = a; X <= b; X++) {
            struct view_cell *c = &v->cell[(Y / 4) * m->cols + X / 2];
            if (c->stamp == v->stamp && c->layer == VIEW_BALL && !c->ch)
                c->bits &= (uint8_t)~dot_bit[Y % 4][X % 2];
        }
    }
}

void view_depth(struct view *v, int on)
{
    v->depth = on != 0;
}

void view_ball(struct view *v, double x, double y, double r, uint32_t color)
{
    const struct view_map *m = &v->map;
    double c, rr;
    view_to_grid(m, x, y, &c, &rr);
    if (!isfinite(c) || !isfinite(rr))
        return;
    int ascii = v->glyphs == VIEW_ASCII;
    double ex = 2 * r * m->sx, ey = 4 * r * m->sy; /* radii in dots */
    if (!(ex >= 0) || !(ey >= 0))
        ex = ey = 0; /* a NaN or negative radius: a point */
    /* Too small for a disc: a dot (braille, under a dot across) or a
     * character (ASCII, under three cells across or 1.5 rows tall). */
    if (ascii ? !(ex >= 3 && ey >= 3) : !(ex >= 0.5 && ey >= 0.5)) {
        double area = VIEW_PI * ex * ey;
        if (!(area < 1e30))
            area = 1e30;
        if (ascii) {
            long i, j;
            ascii_cell(v, c, rr, &i, &j);
            small_ball(v, i, j, area, ex >= 1, color);
            return;
        }
        /* The dot under the centre: the inner area's dots are
         * [2 left, 2 (left + w)) x [4 top, 4 (top + h)), so a point inside
         * converts to long without floor. */
        double X = 2 * c, Y = 4 * rr;
        if (X >= 2.0 * m->left && X < 2.0 * (m->left + m->w) && Y >= 4.0 * m->top &&
            Y < 4.0 * (m->top + m->h))
            small_ball(v, (long)X, (long)Y, area, 0, color);
        return;
    }
    /* Half a dot smaller past 1.5 dots of radius: touching balls keep a
     * free dot between them. */
    if (ex >= 1.5 && ey >= 1.5 && !ascii) {
        ex -= 0.5;
        ey -= 0.5;
    }
    double cx = 2 * c, cy = 4 * rr; /* centre in dots */
    /* The dots of the inner area the ellipse can reach. */
    long lo_x = 2L * m->left, hi_x = 2L * (m->left + m->w) - 1;
    long lo_y = 4L * m->top, hi_y = 4L * (m->top + m->h) - 1;
    long X0 = lattice(floor(cx - ex)), X1 = lattice(ceil(cx + ex));
    long Y0 = lattice(floor(cy - ey)), Y1 = lattice(ceil(cy + ey));
    if (X0 < lo_x)
        X0 = lo_x;
    if (X1 > hi_x)
        X1 = hi_x;
    if (Y0 < lo_y)
        Y0 = lo_y;
    if (Y1 > hi_y)
        Y1 = hi_y;
    if (X0 > X1 || Y0 > Y1)
        return;
    if (v->depth) /* nearer: a dot of gap around it, over what is behind */
        clear_ring(v, cx, cy, ex + 1, ey + 1, lo_x, hi_x, lo_y, hi_y);
    long I0 = X0 / 2, J0 = Y0 / 4, bw = X1 / 2 - I0 + 1, bh = Y1 / 4 - J0 + 1;
    memset(v->scratch, 0, (size_t)(bw * bh));
    long n = 0;
    /* Row by row, the span of dot centres inside: (X + 0.5 - cx)^2 / ex^2
     * + (Y + 0.5 - cy)^2 / ey^2 <= 1. */
    for (long Y = Y0; Y <= Y1; Y++) {
        double t = (Y + 0.5 - cy) / ey;
        double q = 1 - t * t;
        if (q < 0)
            continue;
        double half = ex * sqrt(q);
        long a = lattice(ceil(cx - half - 0.5)), b = lattice(floor(cx + half - 0.5));
        if (a < X0)
            a = X0;
        if (b > X1)
            b = X1;
        uint8_t *row = v->scratch + (Y / 4 - J0) * bw;
        for (long X = a; X <= b; X++)
            row[X / 2 - I0] |= dot_bit[Y % 4][X % 2];
        n += b >= a ? b - a + 1 : 0;
    }
    if (n == 0) {
        /* Between dots: the one under its centre, when inside. */
        long X = lattice(floor(cx)), Y = lattice(floor(cy));
        if (X < X0 || X > X1 || Y < Y0 || Y > Y1)
            return;
        v->scratch[(Y / 4 - J0) * bw + X / 2 - I0] = dot_bit[Y % 4][X % 2];
    }
    for (long j = 0; j < bh; j++)
        for (long i = 0; i < bw; i++)
            if (v->scratch[j * bw + i])
                merge(v, (int)(I0 + i), (int)(J0 + j), v->scratch[j * bw + i], color);
}

void view_text(struct view *v, double x, double y, const char *s, uint32_t color)
{
    double c, r;
    view_to_grid(&v->map, x, y, &c, &r);
    if (!isfinite(c) || !isfinite(r) || c < 0 || r < 0 || c >= v->map.cols ||
        r >= v->map.rows)
        return;
    int i = (int)floor(c), j = (int)floor(r);
    const unsigned char *p = (const unsigned char *)s;
    while (*p && i < v->map.left + v->map.w) {
        /* UTF-8: a lead byte and its continuation bytes. */
        uint32_t u = *p++;
        int more = u >= 0xf0 ? 3 : u >= 0xe0 ? 2 : u >= 0xc0 ? 1 : 0;
        if (more)
            u &= 0x3fu >> more;
        for (; more && (*p & 0xc0) == 0x80; more--)
            u = u << 6 | (*p++ & 0x3fu);
        if (more || u < 0x20)
            u = '?';
        ball_char(v, i++, j, u, color, VIEW_BALL);
    }
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

uint32_t view_aim_head(double angle, int glyphs)
{
    static const uint32_t uni[8] = {0x21d2, 0x21d7, 0x21d1, 0x21d6,
                                    0x21d0, 0x21d9, 0x21d3, 0x21d8};
    if (glyphs == VIEW_ASCII)
        return 'x';
    double a = fmod(angle, 2 * VIEW_PI);
    if (a < 0)
        a += 2 * VIEW_PI;
    return uni[(int)floor(a / (VIEW_PI / 4) + 0.5) % 8];
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
            long X = lattice(floor(2 * gc)), Y = lattice(floor(4 * gr));
            if (X >= 0 && Y >= 0 && !has_ball(v, (int)(X / 2), (int)(Y / 4)))
                ball_dot(v, X, Y, color, VIEW_MARK);
        }
    }
    double gc = c + ux * tip, gr = rr + uy * tip / m->aspect;
    int i = (int)lattice(floor(gc)), j = (int)lattice(floor(gr));
    if (!has_ball(v, i, j))
        ball_char(v, i, j, view_aim_head(angle, v->glyphs), color, VIEW_MARK);
}

/* Settles the point-sized balls of the cells of this frame: their dots,
 * or a density (see view.h). */
void view_end(struct view *v)
{
    /* Balls that overlap (a contact's squash, once it spans a dot past the
     * half dot each disc keeps free): their common dots at half density,
     * a checkerboard, so that the lens shows between the two discs. */
    uint8_t half = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 2; x++)
            if ((x + y) % 2)
                half |= dot_bit[y][x];
    for (size_t u = 0; u < v->nused; u++) {
        struct view_cell *c = &v->cell[v->used[u]];
        if (c->lens && !c->ch && (c->bits & ~(c->lens & half)))
            c->bits &= (uint8_t)~(c->lens & half);
    }
    v->density = 0;
    if (v->nsmall == 0)
        return;
    int ascii = v->glyphs == VIEW_ASCII;
    double points = (double)v->map.w * v->map.h * (ascii ? 1 : 8);
    v->density = (double)v->nsmall > VIEW_DENSITY_SHARE * points;
    for (size_t u = 0; u < v->nused; u++) {
        struct view_cell *c = &v->cell[v->used[u]];
        if (!c->small)
            continue;
        int k = 0;
        if (v->density) {
            /* Covered share of the cell's 8 dots, against close packing;
             * the level shown last stays while the share is within half a
             * dot of it, so that noise does not repaint the cell. */
            double d = 8 * c->area / (8 * 0.9069);
            k = d >= 8 ? 8 : (int)ceil(d);
            if (k < 1)
                k = 1;
            int was = c->level;
            if (was && d > was - 1 - 0.5 && d < was + 0.5)
                k = was;
            c->level = (uint8_t)k;
        } else {
            c->level = 0;
        }
        if (c->bits || c->ch) { /* a disc is here too: it keeps the cell */
            if (!ascii && !c->ch && c->color == c->vcolor)
                c->bits |= c->hbits;
            continue;
        }
        c->color = c->vcolor;
        c->layer = VIEW_BALL;
        if (ascii) {
            c->ch = (uint32_t)(v->density ? density_ascii[k] : c->hbits ? ASCII_BALL : ASCII_SMALL);
        } else if (v->density) {
            uint8_t b = 0;
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 2; x++)
                    if (density_rank[y][x] < k)
                        b |= dot_bit[y][x];
            c->bits = b;
        } else {
            c->bits = c->hbits;
        }
    }
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
        else if (v->glyphs == VIEW_ASCII)
            *ch = (uint32_t)ascii_of_bits(c->bits);
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
