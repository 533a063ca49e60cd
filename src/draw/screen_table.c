/*
 * screen_table.c - the table: balls, trails, the aim mark, the panels over
 * it, the split view's second table, the selected ball's velocity arrow,
 * and picking a ball or a point by its cell. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include "scene.h"
#include "shown.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* === Table === */

/* The colour of the ball in each slot of the state shown, kept from frame
 * to frame and made again only when the slots hold other balls (the run
 * sorts them now and then), a tag changed or the palette did: two
 * sequential comparisons a frame instead of two lookups by ball, in
 * scattered order, for each ball. NULL when short of memory. */
static const uint32_t *slot_colours(struct screen *scr, const struct shown *sh)
{
    const struct sim *s = &sh->s;
    size_t n = s->n;
    if (!n || !scr->filled || !sh->tag)
        return NULL;
    if (scr->slot.n != n || !scr->slot.fg) {
        free(scr->slot.fg);
        free(scr->slot.id);
        free(scr->slot.tag);
        scr->slot.fg = malloc(n * sizeof *scr->slot.fg);
        scr->slot.id = malloc(n * sizeof *scr->slot.id);
        scr->slot.tag = malloc(n * sizeof *scr->slot.tag);
        scr->slot.n = n;
        scr->slot.filled = 0;
        if (!scr->slot.fg || !scr->slot.id || !scr->slot.tag) {
            free(scr->slot.fg);
            free(scr->slot.id);
            free(scr->slot.tag);
            scr->slot.fg = scr->slot.id = scr->slot.tag = NULL;
            scr->slot.n = 0;
            return NULL;
        }
    }
    /* id: the scene ball of each slot, which sim_ball reads */
    if (scr->slot.filled == scr->filled && !memcmp(scr->slot.id, s->id, n * sizeof *s->id) &&
        !memcmp(scr->slot.tag, sh->tag, n * sizeof *sh->tag))
        return scr->slot.fg;
    memcpy(scr->slot.id, s->id, n * sizeof *s->id);
    memcpy(scr->slot.tag, sh->tag, n * sizeof *sh->tag);
    for (size_t i = 0; i < n; i++)
        scr->slot.fg[i] = screen_tag_fg(scr, shown_tag(sh, sim_ball(s, i)));
    scr->slot.filled = scr->filled;
    return scr->slot.fg;
}

/* A slot and the z of its ball. */
struct screen_zkey {
    double z;
    size_t slot;
};

static int cmp_zkey(const void *a, const void *b)
{
    const struct screen_zkey *p = a, *q = b;
    if (p->z != q->z)
        return p->z < q->z ? -1 : 1;
    return (p->slot > q->slot) - (p->slot < q->slot); /* a total order: the same picture */
}

/* A 3-D run: the slots of @p s in the order of their balls' z, farthest
 * (least z) first, so that each ball drawn covers those behind it; NULL
 * for a 2-D one, or when memory is short (then drawn in slot order). */
static const struct screen_zkey *z_order(struct screen *scr, const struct shown *sh,
                                         const struct sim *s)
{
    if (!sh->dp.on || s != &sh->s || !s->n)
        return NULL;
    if (s->n > scr->zcap) {
        struct screen_zkey *k = realloc(scr->zorder, s->n * sizeof *k);
        if (!k)
            return NULL;
        scr->zorder = k;
        scr->zcap = s->n;
    }
    for (size_t i = 0; i < s->n; i++)
        scr->zorder[i] = (struct screen_zkey){sh->dp.z[sim_ball(s, i)], i};
    qsort(scr->zorder, s->n, sizeof *scr->zorder, cmp_zkey);
    return scr->zorder;
}

int screen_aim_shown(const struct front *f)
{
    /* a replay refuses aiming: no mark, no legend for it (issue 42.11) */
    return (f->aiming || !f->running) && !f->open && !f->replay;
}

/* Draws the balls of @p s into view @p v and the view into rectangle
 * @p t: the trails, the aim mark when @p aim, the panels over it, the box
 * with @p title on its top edge (NULL: none); @p second: the split view's
 * event table. */
static void draw_table_of(struct screen *scr, struct view *v, struct screen_rect t,
                          const struct sim *s, const struct shown *sh, const struct front *f,
                          int aim, const char *title, int second)
{
    /* A state that is not finite is not drawn: the last frame stays. */
    if (!sh->nonfinite || s != &sh->s) {
        view_begin(v);
        if (f->trails) {
            for (size_t i = 0; i < s->n; i++)
                view_trail(v, s->x[i], s->y[i]);
            for (int i = 0; i < scr->npanels; i++) { /* the centre of mass' path */
                const struct screen_panel *q = &scr->panel[i];
                double cx, cy;
                if (q->cls->place == PANEL_TABLE && q->cls->trail &&
                    q->cls->trail(q->self, s, &cx, &cy))
                    view_trail(v, cx, cy);
            }
        }
        const uint32_t *fg = s == &sh->s && !f->open ? slot_colours(scr, sh) : NULL;
        const struct screen_zkey *zo = z_order(scr, sh, s);
        view_depth(v, zo != NULL);
        for (size_t u = 0; fg && u < s->n; u++) {
            size_t i = zo ? zo[u].slot : u;
            view_ball(v, s->x[i], s->y[i], s->r[i], fg[i]);
        }
        for (size_t u = 0; !fg && u < s->n; u++) {
            size_t i = zo ? zo[u].slot : u;
            uint32_t tag = shown_tag(sh, sim_ball(s, i));
            const char *label = tag < scr->sc->n ? scr->ball_label[tag] : "";
            if (f->open && label[0])
                view_text(v, s->x[i], s->y[i], label, screen_tag_fg(scr, tag));
            else if (f->open)
                view_ball(v, s->x[i], s->y[i], 0, screen_tag_fg(scr, tag)); /* past 64 bodies: dots */
            else
                view_ball(v, s->x[i], s->y[i], s->r[i], screen_tag_fg(scr, tag));
        }
        /* The cue ball is told apart by its arrow while aiming or paused. */
        if (aim && screen_aim_shown(f)) {
            size_t c = shown_slot(sh, f->cue);
            if (c < s->n)
                view_mark(v, s->x[c], s->y[c], s->r[c], f->aim,
                          screen_tag_fg(scr, shown_tag(sh, f->cue)));
        }
        view_end(v);
    }
    const struct view_map *m = &v->map;
    for (int j = 0; j < m->rows; j++)
        for (int i = 0; i < m->cols; i++) {
            uint32_t ch, color;
            int layer = view_glyph(v, j * m->cols + i, &ch, &color);
            if (layer == VIEW_EMPTY) {
                /* A blank keeps the colour of the last ball there: it looks
                 * the same, and the terminal is spared colour switches. */
                screen_put(scr, t.x + i, t.y + j, ' ', color, 0);
                continue;
            }
            int attr = layer == VIEW_TRAIL ? SCREEN_DIM : layer == VIEW_MARK ? SCREEN_BOLD : 0;
            screen_put(scr, t.x + i, t.y + j, ch, layer == VIEW_RIM ? 0 : color, attr);
        }
    if (v->rim == VIEW_RIM_BOX) {
        int l = t.x + m->left - 1, tp = t.y + m->top - 1;
        int r = l + m->w + 1, b = tp + m->h + 1;
        screen_box(scr, (struct screen_rect){l, tp, m->w + 2, m->h + 2}, title, v->glyphs);
        /* issue 17: an open side is a gap between the corners (y up: the
         * top side is the top row) */
        unsigned walls = screen_zoom_walls(m); /* zoomed: the sides shown */
        unsigned op = s->p.shape == SIM_RECT ? s->p.open & walls : 0;
        for (int i = l + 1; i < r && (op & (SIM_SIDE_TOP | SIM_SIDE_BOTTOM)); i++) {
            if (op & SIM_SIDE_TOP)
                screen_put(scr, i, tp, ' ', 0, 0);
            if (op & SIM_SIDE_BOTTOM)
                screen_put(scr, i, b, ' ', 0, 0);
        }
        for (int j = tp + 1; j < b && (op & (SIM_SIDE_LEFT | SIM_SIDE_RIGHT)); j++) {
            if (op & SIM_SIDE_LEFT)
                screen_put(scr, l, j, ' ', 0, 0);
            if (op & SIM_SIDE_RIGHT)
                screen_put(scr, r, j, ' ', 0, 0);
        }
        if (screen_zoom_edges(scr, v, t, walls) && title && m->w + 2 > 6)
            screen_textf(scr, l + 2, tp, m->w - 2, 0, SCREEN_BOLD, " %s ", title);
    } else {
        screen_zoom_edges(scr, v, t, 0);
        if (title)
            screen_text(scr, t.x + 2, t.y, t.w - 4, 0, SCREEN_BOLD, title);
    }
    if (sh->nonfinite && s == &sh->s)
        return;
    struct panel_area a = {scr, sh, f, t, v, s, second, NULL};
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        int w, h;
        if (q->cls->place != PANEL_TABLE || !q->cls->draw || !q->cls->want(q->self, sh, &w, &h))
            continue;
        if (q->cls->update)
            q->cls->update(q->self, sh);
        q->cls->draw(q->self, &a);
    }
}

/* The second table a panel shows (the split view), with its title in
 * @p title; NULL when none does. */
const struct sim *screen_second_table(const struct screen *scr, const struct shown *sh,
                                      char *title, size_t size, int glyphs)
{
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        const struct sim *s = q->cls->second ? q->cls->second(q->self, sh, title, size, glyphs)
                                             : NULL;
        if (s)
            return s;
    }
    return NULL;
}

void screen_draw_table(struct screen *scr, const struct shown *sh, const struct front *f)
{
    char a[96], b[96];
    screen_zoom_views(scr, sh, f);
    const struct sim *hard = scr->lay.table2.w > 0 ? screen_second_table(scr, sh, b, sizeof b, f->glyphs)
                                                   : NULL;
    if (hard) {
        int ascii = f->glyphs == VIEW_ASCII;
        const struct session_diag *d = &sh->d;
        const char *dot = ascii ? " - " : " \xc2\xb7 ";
        snprintf(a, sizeof a, "springs%sKE+PE %.6g%sstep %lld", dot, d->e, dot, sh->s.steps);
        draw_table_of(scr, &scr->v, scr->lay.table, &sh->s, sh, f, 1, a, 0);
        draw_table_of(scr, &scr->v2, scr->lay.table2, hard, sh, f, 0, b, 1);
        return;
    }
    draw_table_of(scr, &scr->v, scr->lay.table, &sh->s, sh, f, 1, NULL, 0);
}

/* === The selected ball's velocity arrow (live edits) === */

/* Grid coordinates of the arrow's tip: where the ball is after arrow_t at
 * its velocity, at least a cell and a half beyond its rim (a handle that
 * a zero velocity still shows). */
static int arrow_geom(const struct screen *scr, const struct shown *sh,
                      const struct front *f, double *c0, double *r0, double *c1, double *r1)
{
    const struct sim *s = sh->obs; /* the velocity shown */
    size_t i = shown_slot(sh, f->cue);
    if (!s || !f->arrow || f->open || i >= s->n || scr->lay.too_small || sh->nonfinite)
        return -1;
    const struct view_map *m = &scr->v.map;
    view_to_grid(m, s->x[i], s->y[i], c0, r0);
    double vx = s->vx[i], vy = s->vy[i];
    view_to_grid(m, s->x[i] + vx * f->arrow_t, s->y[i] + vy * f->arrow_t, c1, r1);
    double dc = *c1 - *c0, dr = (*r1 - *r0) * m->aspect; /* in cell widths */
    /* beyond the aim mark (3 cells off the rim) */
    double len = hypot(dc, dr), least = s->r[i] * m->sx + 4.5;
    if (!(len >= least)) {
        double ux = len > 0 ? dc / len : cos(f->aim), uy = len > 0 ? dr / len : -sin(f->aim);
        *c1 = *c0 + ux * least;
        *r1 = *r0 + uy * least / m->aspect;
    }
    if (!isfinite(*c1) || !isfinite(*r1) || fabs(*c1) > 1e6 || fabs(*r1) > 1e6)
        return -1;
    return 0;
}

int screen_arrow_tip(const struct screen *scr, const struct shown *sh,
                     const struct front *f, int *x, int *y)
{
    double c0, r0, c1, r1;
    if (arrow_geom(scr, sh, f, &c0, &r0, &c1, &r1))
        return -1;
    const struct view_map *m = &scr->v.map;
    if (m->zoom > 1 && !(c1 >= m->left && c1 < m->left + m->w && r1 >= m->top &&
                         r1 < m->top + m->h))
        return -1; /* zoomed: out of the window, not shown */
    *x = scr->lay.table.x + (int)floor(c1);
    *y = scr->lay.table.y + (int)floor(r1);
    return 0;
}

/* 1 when screen cell (x, y) is in the table's window: its inner area
 * (zoomed, nothing outside it is shown; else the frame around it: the
 * rectangle less its edge let the handle replace the frame of a table
 * centred in it, "◆" on the left border at 24x8) */
static int in_window(const struct screen *scr, int x, int y)
{
    const struct view_map *m = &scr->v.map;
    struct screen_rect t = scr->lay.table;
    return x >= t.x + m->left && x < t.x + m->left + m->w && y >= t.y + m->top &&
           y < t.y + m->top + m->h;
}

/* A dotted shaft from the rim and a handle at the tip, over the table. */
void screen_draw_arrow(struct screen *scr, const struct shown *sh, const struct front *f)
{
    double c0, r0, c1, r1;
    if (arrow_geom(scr, sh, f, &c0, &r0, &c1, &r1))
        return;
    struct screen_rect t = scr->lay.table;
    uint32_t fg = screen_tag_fg(scr, shown_tag(sh, f->cue));
    int ascii = f->glyphs == VIEW_ASCII;
    double len = hypot(c1 - c0, (r1 - r0) * scr->v.map.aspect);
    int steps = (int)fmin(len, 400);
    size_t i = shown_slot(sh, f->cue);
    double rim = sh->s.r[i] * scr->v.map.sx;
    for (int k = 1; k < steps; k++) {
        double q = (double)k / steps;
        if (q * len <= rim + 0.5)
            continue;
        int x = t.x + (int)floor(c0 + q * (c1 - c0)), y = t.y + (int)floor(r0 + q * (r1 - r0));
        if (in_window(scr, x, y)) {
            const struct screen_cell *c = screen_at(scr, x, y);
            if (c && c->ch == ' ')
                screen_put(scr, x, y, ascii ? '.' : 0x00b7, fg, SCREEN_BOLD);
        }
    }
    int x = t.x + (int)floor(c1), y = t.y + (int)floor(r1);
    uint32_t ch, color; /* the handle, never over a ball */
    if (in_window(scr, x, y) &&
        view_glyph(&scr->v, (int)floor(r1) * scr->v.map.cols + (int)floor(c1), &ch, &color) !=
            VIEW_BALL)
        screen_put(scr, x, y, ascii ? '+' : 0x25c6, fg, SCREEN_BOLD);
}

/* The ':' command line on the status row, its cursor in reverse video. */
/* === Picking === */

void screen_to_world(const struct screen *scr, int x, int y, double *wx, double *wy)
{
    view_to_world(&scr->v.map, x - scr->lay.table.x + 0.5, y - scr->lay.table.y + 0.5, wx, wy);
}

size_t screen_ball_at(const struct screen *scr, const struct shown *sh, int x, int y)
{
    if (scr->lay.too_small || (scr->v.map.zoom > 1 && !in_window(scr, x, y)))
        return (size_t)-1; /* zoomed: a ball out of the window is not there to click */
    double wx, wy;
    screen_to_world(scr, x, y, &wx, &wy);
    /* half a cell across, in world units: a small ball is hit by its cell */
    double half = 0.5 / scr->v.map.sx, halfy = 0.5 / scr->v.map.sy;
    double slack = half > halfy ? half : halfy;
    const struct sim *s = &sh->s;
    size_t best = (size_t)-1;
    double bd = 0;
    for (size_t i = 0; i < s->n; i++) {
        double d = hypot(s->x[i] - wx, s->y[i] - wy);
        if (d <= s->r[i] + slack && (best == (size_t)-1 || d < bd)) {
            best = sim_ball(s, i);
            bd = d;
        }
    }
    return best;
}
