/*
 * screen_zoom.c - the zoom (issue 26, keys z Z 0 F): the window each table
 * shows (following the cue ball, or where it was left), the sides of its
 * frame that are not walls (dotted), the zoom on the frame (x4) and the
 * inset of the whole table with the part shown filled in. The mapping
 * itself is view.c's (view_zoom): picking, trails, arrows and panels go
 * through the zoomed map like everything else. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include "shown.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>

/* The zoom of @p f, 1 for the whole table. */
static double zoom_of(const struct front *f)
{
    return f->zoom > 1 ? f->zoom : 1;
}

void screen_zoom_views(struct screen *scr, const struct shown *sh, const struct front *f)
{
    double z = zoom_of(f), cx = f->zoom_x, cy = f->zoom_y;
    size_t c = shown_slot(sh, f->cue);
    if (z > 1 && !f->nofollow && c < sh->s.n && !sh->nonfinite) {
        cx = sh->s.x[c];
        cy = sh->s.y[c];
    }
    view_zoom(&scr->v, z, cx, cy);
    if (scr->lay.table2.w > 0) /* the split view: the same window on both */
        view_zoom(&scr->v2, z, cx, cy);
    view_centre(&scr->v.map, &scr->zoom_cx, &scr->zoom_cy);
}

unsigned screen_zoom_walls(const struct view_map *m)
{
    if (!(m->zoom > 1))
        return SIM_SIDE_LEFT | SIM_SIDE_RIGHT | SIM_SIDE_TOP | SIM_SIDE_BOTTOM;
    double c0, r0, c1, r1; /* the world's corners, top left and bottom right */
    view_to_grid(m, m->x0, m->y1, &c0, &r0);
    view_to_grid(m, m->x1, m->y0, &c1, &r1);
    unsigned s = 0;
    if (c0 >= m->left - 0.5)
        s |= SIM_SIDE_LEFT;
    if (c1 <= m->left + m->w + 0.5)
        s |= SIM_SIDE_RIGHT;
    if (r0 >= m->top - 0.5)
        s |= SIM_SIDE_TOP;
    if (r1 <= m->top + m->h + 0.5)
        s |= SIM_SIDE_BOTTOM;
    return s;
}

int screen_zoom_edges(struct screen *scr, const struct view *v, struct screen_rect t,
                      unsigned walls)
{
    const struct view_map *m = &v->map;
    if (!(m->zoom > 1))
        return 0;
    int ascii = v->glyphs == VIEW_ASCII;
    uint32_t hz = ascii ? '.' : 0x2504, vt = ascii ? ':' : 0x2506;
    int l = t.x + m->left - 1, tp = t.y + m->top - 1;
    int r = l + m->w + 1, b = tp + m->h + 1;
    if (v->rim != VIEW_RIM_BOX) { /* no box: the corners too */
        uint32_t corner = ascii ? '.' : 0x00b7;
        screen_put(scr, l, tp, corner, 0, SCREEN_DIM);
        screen_put(scr, r, tp, corner, 0, SCREEN_DIM);
        screen_put(scr, l, b, corner, 0, SCREEN_DIM);
        screen_put(scr, r, b, corner, 0, SCREEN_DIM);
    }
    for (int i = l + 1; i < r; i++) {
        if (!(walls & SIM_SIDE_TOP))
            screen_put(scr, i, tp, hz, 0, SCREEN_DIM);
        if (!(walls & SIM_SIDE_BOTTOM))
            screen_put(scr, i, b, hz, 0, SCREEN_DIM);
    }
    for (int j = tp + 1; j < b; j++) {
        if (!(walls & SIM_SIDE_LEFT))
            screen_put(scr, l, j, vt, 0, SCREEN_DIM);
        if (!(walls & SIM_SIDE_RIGHT))
            screen_put(scr, r, j, vt, 0, SCREEN_DIM);
    }
    return 1;
}

/* The zoom of view @p v drawn in table rectangle @p t: "x4" on the top
 * edge at the right, and the inset: a box in the bottom right corner of
 * the inner area that is the whole world rectangle in small, the part the
 * window shows filled in (braille dots, '#' in ASCII). No inset when the
 * table has no room for one. */
static void zoom_marks(struct screen *scr, const struct view *v, struct screen_rect t)
{
    const struct view_map *m = &v->map;
    if (!(m->zoom > 1) || m->w < 1)
        return;
    int ascii = v->glyphs == VIEW_ASCII;
    char label[32];
    snprintf(label, sizeof label, ascii ? " x%g " : " \xc3\x97%g ", m->zoom);
    int lw = screen_width(label), r = t.x + m->left + m->w; /* the right edge */
    if (lw + 4 <= m->w)
        screen_text(scr, r - lw - 1, t.y + m->top - 1, lw, 0, SCREEN_BOLD, label);
    /* the inset: iw x ih cells inside its box, the world's proportions */
    double W = m->x1 - m->x0, H = m->y1 - m->y0;
    int iw = m->w / 6;
    iw = iw < 4 ? 4 : iw > 16 ? 16 : iw;
    double rows_per_col = H / W / m->aspect;
    int ih = (int)floor(iw * rows_per_col + 0.5);
    if (ih > 6) {
        ih = 6;
        iw = (int)floor(ih / rows_per_col + 0.5);
    }
    if (ih < 1)
        ih = 1;
    if (iw < 2 || iw + 2 > m->w / 2 || ih + 2 > m->h / 2)
        return;
    int x = r - iw - 2, y = t.y + m->top + m->h - ih - 2;
    screen_box(scr, (struct screen_rect){x, y, iw + 2, ih + 2}, NULL, v->glyphs);
    double wx0, wy0, wx1, wy1; /* the window, in the world */
    view_to_world(m, m->left, m->top + m->h, &wx0, &wy0);
    view_to_world(m, m->left + m->w, m->top, &wx1, &wy1);
    double f[4] = {(wx0 - m->x0) / W, (wx1 - m->x0) / W, (m->y1 - wy1) / H, (m->y1 - wy0) / H};
    for (int k = 0; k < 4; k++)
        f[k] = f[k] < 0 ? 0 : f[k] > 1 ? 1 : f[k];
    /* the lattice: dots in braille, cells in ASCII; at least one */
    int nx = ascii ? iw : 2 * iw, ny = ascii ? ih : 4 * ih;
    int X0 = (int)floor(f[0] * nx), X1 = (int)ceil(f[1] * nx) - 1;
    int Y0 = (int)floor(f[2] * ny), Y1 = (int)ceil(f[3] * ny) - 1;
    X0 = X0 > nx - 1 ? nx - 1 : X0;
    Y0 = Y0 > ny - 1 ? ny - 1 : Y0;
    X1 = X1 < X0 ? X0 : X1;
    Y1 = Y1 < Y0 ? Y0 : Y1;
    static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    for (int j = 0; j < ih; j++)
        for (int i = 0; i < iw; i++) {
            uint32_t ch = ' ';
            if (ascii) {
                if (i >= X0 && i <= X1 && j >= Y0 && j <= Y1)
                    ch = '#';
            } else {
                unsigned b = 0;
                for (int dy = 0; dy < 4; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        int X = 2 * i + dx, Y = 4 * j + dy;
                        if (X >= X0 && X <= X1 && Y >= Y0 && Y <= Y1)
                            b |= bit[dy][dx];
                    }
                ch = b ? 0x2800u + b : ' ';
            }
            screen_put(scr, x + 1 + i, y + 1 + j, ch, 0, SCREEN_BOLD);
        }
}

void screen_draw_zoom(struct screen *scr, const struct front *f)
{
    if (scr->lay.too_small || !(zoom_of(f) > 1))
        return;
    zoom_marks(scr, &scr->v, scr->lay.table);
    if (scr->lay.table2.w > 0)
        zoom_marks(scr, &scr->v2, scr->lay.table2);
}
