/*
 * view_zoom.c - the zoomed window onto the view: its map scaled from the
 * whole table's and moved by whole dots, the background moved with it
 * (see view.h).
 */
#include "view.h"
#include "view_impl.h"

#include <math.h>
#include <string.h>

void view_centre(const struct view_map *m, double *x, double *y)
{
    view_to_world(m, m->left + 0.5 * m->w, m->top + 0.5 * m->h, x, y);
}

/* An origin (ox or oy) for a window: @p o clamped to [lo, hi] (the world
 * covers the inner area) and put on the lattice of step @p q, so that a
 * move of the window is whole dots; the middle when the world is narrower. */
static double window_origin(double o, double lo, double hi, double q)
{
    if (!(lo <= hi))
        return floor((lo + hi) / 2 / q + 0.5) * q;
    o = o < lo ? lo : o > hi ? hi : o;
    o = floor(o / q + 0.5) * q;
    if (o > hi)
        o -= q;
    if (o < lo)
        o += q;
    return o;
}

/* The background after the window moved by (dX, dY) dots (@p keep) or
 * changed its scale (every cell cleared, as view_layout leaves it, so that
 * the whole table again is the very frame it was): the trails moved along
 * (or dropped), the rim drawn again. */
static void rebuild_bg(struct view *v, long dX, long dY, int keep)
{
    const struct view_map *m = &v->map;
    int ascii = v->glyphs == VIEW_ASCII;
    size_t n = (size_t)m->cols * (size_t)m->rows;
    uint8_t *s = v->scratch;
    memset(s, 0, n);
    long lo_x = 2L * m->left, hi_x = 2L * (m->left + m->w);
    long lo_y = 4L * m->top, hi_y = 4L * (m->top + m->h);
    for (int j = 0; keep && j < m->rows; j++)
        for (int i = 0; i < m->cols; i++) {
            const struct view_cell *c = &v->cell[j * m->cols + i];
            if (c->bgkind != VIEW_TRAIL)
                continue;
            for (int dy = 0; dy < 4; dy++)
                for (int dx = 0; dx < 2; dx++) {
                    if (ascii ? dx || dy : !(c->bg & dot_bit[dy][dx]))
                        continue;
                    long X = 2L * i + dx + dX, Y = 4L * j + dy + dY;
                    if (X < lo_x || X >= hi_x || Y < lo_y || Y >= hi_y)
                        continue;
                    s[(Y / 4) * m->cols + X / 2] |= ascii ? 1 : dot_bit[Y % 4][X % 2];
                }
        }
    if (keep) {
        for (size_t i = 0; i < n; i++)
            if (v->cell[i].bgkind != VIEW_EMPTY) {
                v->cell[i].bg = 0;
                v->cell[i].bgkind = VIEW_EMPTY;
            }
    } else { /* a new scale: every cell as view_layout leaves it */
        memset(v->cell, 0, n * sizeof *v->cell);
    }
    if (v->rim == VIEW_RIM_CIRCLE)
        view_circle_rim(v);
    for (size_t i = 0; i < n; i++)
        if (s[i])
            view_set_bg(v, (int)i, ascii ? ASCII_TRAIL : s[i], VIEW_TRAIL);
}

int view_zoom(struct view *v, double zoom, double cx, double cy)
{
    const struct view_map *w = &v->whole;
    if (!v->cell || w->cols < 1)
        return 0;
    struct view_map m = *w;
    if (zoom > 1 && zoom < 1e6) {
        int ascii = v->glyphs == VIEW_ASCII;
        m.zoom = zoom;
        m.sx = w->sx * zoom;
        m.sy = w->sy * zoom;
        if (!isfinite(cx) || !isfinite(cy))
            view_centre(w, &cx, &cy);
        /* the point in the middle of the inner area, the world covering it */
        double ox = m.left + 0.5 * m.w - (cx - m.x0) * m.sx;
        double oy = m.top + 0.5 * m.h - (m.y1 - cy) * m.sy;
        m.ox = window_origin(ox, m.left + m.w - (m.x1 - m.x0) * m.sx, m.left, ascii ? 1 : 0.5);
        m.oy = window_origin(oy, m.top + m.h - (m.y1 - m.y0) * m.sy, m.top, ascii ? 1 : 0.25);
    }
    struct view_map *o = &v->map;
    if (o->sx == m.sx && o->sy == m.sy && o->ox == m.ox && o->oy == m.oy)
        return 0;
    int keep = o->sx == m.sx && o->sy == m.sy;
    long dX = keep ? lround((m.ox - o->ox) * 2) : 0, dY = keep ? lround((m.oy - o->oy) * 4) : 0;
    *o = m;
    rebuild_bg(v, dX, dY, keep);
    return 1;
}
