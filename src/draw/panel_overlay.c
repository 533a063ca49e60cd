/*
 * panel_overlay.c - what the lab draws over the table: arrows, numbers,
 * the selected ball's ring, the centre of mass (see panel.h).
 */
#include "panel.h"

#include "shown.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t panel_merge(uint32_t under, uint32_t over)
{
    if (over == 0)
        return under;
    int ub = under >= PLOT_BRAILLE && under <= PLOT_BRAILLE + 0xff;
    int ob = over >= PLOT_BRAILLE && over <= PLOT_BRAILLE + 0xff;
    if (ub && ob)
        return PLOT_BRAILLE + ((under - PLOT_BRAILLE) | (over - PLOT_BRAILLE));
    return over;
}

/* A ring of radius R cell widths around grid point (c, r). */
static void ring(struct plot *p, double c, double r, double R, double aspect,
                 uint32_t color)
{
    if (!isfinite(c) || !isfinite(r) || !(R < 1e4))
        return; /* wider than any terminal: nothing of it to see */
    int steps = (int)ceil(2 * SIM_PI * R * 4) + 8;
    for (int i = 0; i < steps; i++) {
        double th = 2 * SIM_PI * i / steps;
        double dc = c + R * cos(th), dr = r - R * sin(th) / aspect;
        plot_dotf(p, 2 * dc, 4 * dr, color);
    }
}

/* The head of an arrow pointing at @p angle (radians, counter-clockwise
 * from +x): velocity and force an arrow, momentum a hollow triangle; in
 * ASCII '>' '/' '^'... and '*'. */
static uint32_t head(int k, double angle, int ascii)
{
    static const uint32_t tri[8] = {0x25b7, 0x25f9, 0x25b3, 0x25f8,
                                    0x25c1, 0x25fa, 0x25bd, 0x25ff};
    if (k != 1)
        return view_arrow(angle, ascii ? VIEW_ASCII : VIEW_BRAILLE);
    if (ascii)
        return '*';
    double a = fmod(angle, 2 * SIM_PI);
    if (a < 0)
        a += 2 * SIM_PI;
    return tri[(int)floor(a / (SIM_PI / 4) + 0.5) % 8];
}

/* The labels over the table (ball numbers, stubs' values): each is
 * written only inside the table's frame and where neither its cells nor
 * one on either side hold another label's, so that labels never run
 * together (balls 5, 6 and 9 of a small rack read "569") nor over the
 * frame. taken: a byte a cell of the grid, 1 under a label; NULL (no
 * memory): no labels. */
struct labels {
    unsigned char *taken;
    const struct view_map *m;
    const struct view *v; ///< the table's cells: a label keeps off its balls (may be NULL)
};

/* Writes @p text at (col, row) when it fits as above and, unless
 * @p on_ball (a number on its own ball), on no arrow's head and no ball (a
 * ball hides what is under it: "0.9" read "0⡀9"). @return 1 written. */
static int label(struct plot *p, struct labels *L, int col, int row, const char *text,
                 uint32_t color, int on_ball)
{
    const struct view_map *m = L->m;
    int len = (int)strlen(text);
    if (!L->taken || row < m->top || row >= m->top + m->h || row >= p->h || col < m->left ||
        col + len > m->left + m->w || col + len > p->w)
        return 0;
    for (int i = col - 1; i <= col + len; i++) {
        if (i < 0 || i >= p->w)
            continue;
        if (L->taken[row * p->w + i])
            return 0;
        /* nor against a body's name on the table ("1E" read as one) */
        uint32_t vch, vcolor;
        if ((i == col - 1 || i == col + len) && L->v && L->v->map.cols == p->w &&
            L->v->map.rows == p->h &&
            view_glyph(L->v, row * p->w + i, &vch, &vcolor) == VIEW_BALL && vch > ' ' &&
            vch < 0x2800)
            return 0;
    }
    for (int i = col; i < col + len; i++) {
        uint32_t ch = p->cell[row * p->w + i].ch, vch, vcolor;
        if (!on_ball && ch && !(ch >= PLOT_BRAILLE && ch <= PLOT_BRAILLE + 0xff))
            return 0; /* a head (on a ball the ball hides it) */
        if (!on_ball && L->v && L->v->map.cols == p->w && L->v->map.rows == p->h &&
            view_glyph(L->v, row * p->w + i, &vch, &vcolor) == VIEW_BALL)
            return 0;
    }
    plot_text(p, col, row, text, color);
    memset(&L->taken[row * p->w + col], 1, (size_t)len);
    return 1;
}

/* A stub's value, written once every arrow is drawn (a later head would
 * cover it): after its head, on the side the arrow points to. */
struct stub {
    int col, row;
    char num[16];
    uint32_t color;
};

/* The arrow of kind @p k (0 v, 1 p, 2 F) of quantity (qx, qy) at @p per
 * a cell width, for a ball at grid point (c, r) of radius @p R cell widths:
 * from just outside its rim, moved @p shift cell widths across its line
 * (v and p side by side: v to the right of its direction, p to the left), a shaft (p's dashed: two dots on, two off)
 * and a head glyph in the tip's cell. Shorter than the radius (or than a
 * cell): a stub of two cells, its value after its head into *@p st.
 * @return 1 when *st was filled. */
static int arrow(struct plot *p, double c, double r, double R, double qx, double qy,
                 double per, double shift, double aspect, int k, int ascii, uint32_t color,
                 struct stub *st)
{
    double q = hypot(qx, qy), len = q / per;
    if (!isfinite(c) || !isfinite(r) || !(q > 0) || !isfinite(len) || !(R < 1e6))
        return 0;
    double ux = qx / q, uy = -qy / q; /* in cell widths, rows grow downward */
    int stub = len < R || len < 1;
    if (stub)
        len = 2;
    double from = R + 0.5;
    double x0 = c + ux * from - uy * shift, y0 = r + (uy * from + ux * shift) / aspect;
    double x1 = x0 + ux * len, y1 = y0 + uy * len / aspect;
    if (k == 2 && !stub) {
        plot_arrow(p, x0, y0, x1, y1, aspect, color);
    } else {
        /* the shaft in dots, up to the head's cell */
        double dx = 2 * (x1 - x0), dy = 4 * (y1 - y0);
        int steps = (int)ceil(fmax(fabs(dx), fabs(dy)));
        if (steps > 100000)
            return 0;
        int hc = (int)floor(x1), hr = (int)floor(y1);
        for (int i = 0; i <= steps; i++) {
            double t = steps ? (double)i / steps : 0;
            double X = 2 * x0 + t * dx, Y = 4 * y0 + t * dy;
            if ((int)floor(X / 2) == hc && (int)floor(Y / 4) == hr)
                continue;
            if (k == 1 && i % 4 >= 2)
                continue; /* dashed */
            plot_dotf(p, X, Y, color);
        }
        struct plot_cell *h = x1 >= 0 && y1 >= 0 && x1 < p->w && y1 < p->h
                                  ? plot_at(p, hc, hr) : NULL;
        if (h) {
            h->ch = head(k, atan2(qy, qx), ascii);
            h->color = color;
        }
    }
    if (stub && x1 >= 0 && y1 >= 0 && x1 < p->w && y1 < p->h) {
        snprintf(st->num, sizeof st->num, "%.2g", q);
        int n = (int)strlen(st->num), hc = (int)floor(x1);
        st->col = ux >= 0 ? hc + 1 : hc - n;
        st->row = (int)floor(y1);
        st->color = color;
        return 1;
    }
    return 0;
}

void panel_overlay(struct plot *p, const struct view_map *m, const struct sim *s,
                   struct panel_overlay *o, const double *fx, const double *fy)
{
    const double aspect = o->aspect > 0 ? o->aspect : 2;
    const size_t n = s->n;
    o->legend_row = o->legend_x0 = o->legend_x1 = 0;
    if (o->selected < n) {
        struct lab_row b;
        lab_row(s, o->selected, &b);
        double c, r;
        view_to_grid(m, b.x, b.y, &c, &r);
        double R = b.r * m->sx + 0.75;
        ring(p, c, r, R < 1 ? 1 : R, aspect, PANEL_SELECT);
    }
    /* arrows: F under p under v, each from the ball's rim */
    double side = m->w < m->h * aspect ? m->w : m->h * aspect;
    double max_cells = side / 4 > 3 ? side / 4 : 3;
    static const unsigned kind[3] = {PANEL_ARROW_V, PANEL_ARROW_P, PANEL_ARROW_F};
    static const uint32_t kcolor[3] = {PANEL_V, PANEL_P, PANEL_F};
    /* v and p of one ball side by side when both are on, so that equal
     * ones are both seen */
    int both = (o->arrows & PANEL_ARROW_V) && (o->arrows & PANEL_ARROW_P);
    struct labels L = {calloc((size_t)p->w * (size_t)p->h + 1, 1), m, o->view};
    /* the velocity handle is drawn over the table after the overlay: no
     * label under it or against it ("0.000◆6◁" was "0.0006" under it) */
    if (L.taken && o->handle && o->handle_col >= 0 && o->handle_col < p->w && o->handle_row >= 0 &&
        o->handle_row < p->h)
        L.taken[o->handle_row * p->w + o->handle_col] = 1;
    size_t nshown = n > PANEL_MANY ? 1 : n, nst = 0;
    struct stub *st = malloc((3 * nshown + 1) * sizeof *st);
    for (int k = 2; k >= 0; k--) {
        if (!(o->arrows & kind[k]) || (k == 2 && (!fx || !fy)))
            continue;
        double vmax = 0;
        for (size_t i = 0; i < n; i++) {
            struct lab_row b;
            lab_row(s, i, &b);
            double qx = k == 0 ? b.vx : k == 1 ? b.px : fx[i];
            double qy = k == 0 ? b.vy : k == 1 ? b.py : fy[i];
            double q = sqrt(qx * qx + qy * qy);
            vmax = isfinite(q) && q > vmax ? q : vmax;
        }
        lab_scale_fit(&o->scale[k], vmax, max_cells);
        double per = o->scale[k].per_cell;
        if (!(per > 0))
            continue;
        for (size_t i = 0; i < n; i++) {
            if (n > PANEL_MANY && i != o->selected)
                continue;
            struct lab_row b;
            lab_row(s, i, &b);
            double qx = k == 0 ? b.vx : k == 1 ? b.px : fx[i];
            double qy = k == 0 ? b.vy : k == 1 ? b.py : fy[i];
            if (qx == 0 && qy == 0)
                continue;
            double c, r;
            view_to_grid(m, b.x, b.y, &c, &r);
            double shift = both && k < 2 && b.m > 0 ? (k == 0 ? 1 : -1) : 0;
            struct stub one;
            if (arrow(p, c, r, b.r * m->sx, qx, qy, per, shift, aspect, k, o->ascii, kcolor[k],
                      &one) &&
                st && nst < 3 * nshown + 1)
                st[nst++] = one;
        }
    }
    /* the numbers first (they name the balls), then the stubs' values */
    if (o->numbers) {
        char num[32];
        for (size_t i = 0; i < n; i++) {
            if (n > PANEL_MANY && i != o->selected)
                continue;
            struct lab_row b;
            lab_row(s, i, &b);
            double c, r;
            view_to_grid(m, b.x, b.y, &c, &r);
            if (!(c >= m->left && c < m->left + m->w && r >= m->top && r < m->top + m->h))
                continue;
            int len = snprintf(num, sizeof num, "%zu", i + 1);
            double diam = 2 * b.r * m->sx, R = fmin(b.r * m->sx, m->cols);
            /* on the ball when the ball still shows a cell on either side
             * of the number (one as wide hid it: balls 12 and 16 of the
             * break vanished, ASCII's O became 1), else beside it:
             * right, left, above, below, then the corners, the first free */
            int row = (int)floor(r), mid = (int)floor(c - len / 2.0 + 0.5);
            if (diam >= len + 2 && label(p, &L, mid, row, num, PANEL_TEXT, 1))
                continue;
            int right = (int)floor(c + R + 0.5), left = (int)floor(c - R - 0.5) - len + 1;
            int up = (int)floor(r - R / aspect - 0.5), down = (int)floor(r + R / aspect + 0.5);
            const int at[8][2] = {{right, row}, {left, row}, {mid, up},    {mid, down},
                                  {right, up},  {right, down}, {left, up}, {left, down}};
            for (int j = 0; j < 8 && !label(p, &L, at[j][0], at[j][1], num, PANEL_TEXT, 0); j++)
                ;
        }
    }
    for (size_t i = 0; i < nst; i++)
        label(p, &L, st[i].col, st[i].row, st[i].num, st[i].color, 0);
    free(st);
    free(L.taken);
    if (o->cm) {
        struct lab_totals t;
        lab_sums(s, &t); /* the centre alone */
        double c, r;
        if (isfinite(t.cx) && isfinite(t.cy)) {
            view_to_grid(m, t.cx, t.cy, &c, &r);
            if (c >= 0 && c < m->cols && r >= 0 && r < m->rows)
                plot_text(p, (int)floor(c), (int)floor(r), o->ascii ? "+" : "⊕", PANEL_CM);
        }
    }
    /* nothing over the frame (a head replaced its right border), nor,
     * zoomed, outside the window (view_zoom): the legend alone goes on it */
    for (int j = 0; j < p->h; j++)
        for (int i = 0; i < p->w; i++)
            if (i < m->left || i >= m->left + m->w || j < m->top || j >= m->top + m->h)
                p->cell[j * p->w + i].ch = 0;
    /* the legend, on the frame's bottom line: each kind's head and name */
    int col = m->left + 1, row = m->top + m->h;
    if (row >= m->rows)
        row = m->rows - 1;
    o->legend_row = row;
    o->legend_x0 = col;
    static const char *const uname[3] = {"\u2192 v", "\u25b7 p", "F"};
    static const char *const aname[3] = {"> v", "* p", "F"};
    for (int k = 0; k < 3; k++) {
        if (!(o->arrows & kind[k]) || !(o->scale[k].per_cell > 0) ||
            (k == 2 && (!fx || !fy)))
            continue;
        char buf[48];
        snprintf(buf, sizeof buf, " %s %.3g/cell ", o->ascii ? aname[k] : uname[k],
                 o->scale[k].per_cell);
        int w = (int)strlen(buf) - (o->ascii || k == 2 ? 0 : 2); /* the head: 3 bytes, 1 cell */
        if (col + w > m->left + m->w)
            break;
        col = plot_text(p, col, row, buf, kcolor[k]);
    }
    /* the aim's head beside the arrows' (a velocity's was the same glyph) */
    if (o->aim && col > m->left + 1) {
        const char *buf = o->ascii ? " x aim " : " \u21d2 aim ";
        if (col + 7 <= m->left + m->w)
            col = plot_text(p, col, row, buf, PANEL_DIM);
    }
    if (n > PANEL_MANY && (o->arrows || o->numbers) && col > m->left + 1) {
        char buf[48];
        if (o->selected < n)
            snprintf(buf, sizeof buf, " ball %zu only ", o->selected + 1);
        else
            snprintf(buf, sizeof buf, " select a ball (Tab) ");
        if (col + (int)strlen(buf) <= m->left + m->w)
            col = plot_text(p, col, row, buf, PANEL_DIM);
    }
    o->legend_x1 = col;
}

/* ===== The panel ===== */

/* The net forces of the state shown, computed once per state. */
static int forces(struct panel_state *ps, const struct shown *sh, const double **fx,
                  const double **fy)
{
    size_t n = sh->s.n ? sh->s.n : 1;
    if (ps->nf != n) {
        free(ps->fx);
        free(ps->fy);
        ps->fx = malloc(n * sizeof *ps->fx);
        ps->fy = malloc(n * sizeof *ps->fy);
        ps->nf = ps->fx && ps->fy ? n : 0;
        ps->f_version = 0;
    }
    if (!ps->nf)
        return -1;
    if (ps->f_version != sh->version || sh->version == 0) {
        if (lab_forces(&sh->s, ps->fx, ps->fy))
            return -1;
        ps->f_version = sh->version;
    }
    *fx = ps->fx;
    *fy = ps->fy;
    return 0;
}

static int overlay_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct panel_overlay *o = &((const struct panel_state *)self)->ov;
    (void)sh;
    *w = *h = 0;
    return o->arrows || o->numbers || o->cm || o->selected != PANEL_NONE;
}

/* The overlay of the state on table a->r, drawn from view a->v: braille
 * dots merged with the balls'. What the lab draws over the table is of the
 * observed state (the velocities synchronised in the spring engine). */
static void overlay_draw(void *self, const struct panel_area *a)
{
    struct panel_state *ps = self;
    struct panel_overlay *o = &ps->ov;
    int w, h;
    if (!overlay_want(self, a->sh, &w, &h))
        return;
    const struct shown *sh = a->sh;
    const struct sim *shown = a->s == &sh->s ? sh->obs : a->s;
    const double *fx = NULL, *fy = NULL;
    /* hard balls have impulses, not forces: no force arrows there, nor on
     * the split view's event table */
    unsigned keep = o->arrows;
    if (a->second)
        o->arrows &= ~(unsigned)PANEL_ARROW_F;
    if ((o->arrows & PANEL_ARROW_F) && a->s == &sh->s && (sh->caps & SESSION_CAP_FORCES))
        forces(ps, sh, &fx, &fy);
    const struct view_map *m = &a->v->map;
    struct plot p = panel_grid(m->cols, m->rows);
    if (p.cell) {
        int glyphs = a->v->glyphs;
        o->ascii = glyphs == VIEW_ASCII;
        o->aim = !a->second && a->f && screen_aim_shown(a->f);
        o->view = a->v;
        int hx, hy;
        o->handle = !a->second && a->f && !screen_arrow_tip(a->scr, sh, a->f, &hx, &hy);
        if (o->handle) {
            o->handle_col = hx - a->r.x;
            o->handle_row = hy - a->r.y;
        }
        panel_overlay(&p, m, shown, o, fx, fy);
        /* the note leaves the legend readable (the lowest, of two tables) */
        struct screen_rect *lg = &a->scr->legend;
        int ly = a->r.y + o->legend_row;
        if (o->legend_x1 > o->legend_x0 && (lg->w == 0 || ly > lg->y))
            *lg = (struct screen_rect){a->r.x + o->legend_x0, ly, o->legend_x1 - o->legend_x0, 1};
        if (glyphs == VIEW_ASCII)
            plot_ascii(&p);
        for (int j = 0; j < p.h; j++)
            for (int i = 0; i < p.w; i++) {
                const struct plot_cell *c = &p.cell[j * p.w + i];
                if (!c->ch)
                    continue;
                /* the balls are drawn over everything but their numbers
                 * and the centre of mass */
                uint32_t vch, vcolor;
                if (c->color != PANEL_TEXT && c->color != PANEL_CM &&
                    view_glyph(a->v, j * m->cols + i, &vch, &vcolor) == VIEW_BALL)
                    continue;
                const struct screen_cell *under = screen_at(a->scr, a->r.x + i, a->r.y + j);
                if (!under)
                    continue;
                uint32_t ch = panel_merge(under->ch == ' ' ? 0 : under->ch, c->ch);
                uint32_t fg;
                int attr;
                panel_color(c->color, &fg, &attr);
                screen_put(a->scr, a->r.x + i, a->r.y + j, ch, fg, attr);
            }
        free(p.cell);
    }
    o->arrows = keep;
}

/* The centre of mass' path, with the trails. */
static int overlay_trail(void *self, const struct sim *s, double *x, double *y)
{
    const struct panel_state *ps = self;
    if (!ps->ov.cm)
        return 0;
    struct lab_totals tot;
    lab_sums(s, &tot); /* the centre alone: no pass over the pairs */
    *x = tot.cx;
    *y = tot.cy;
    return isfinite(tot.cx) && isfinite(tot.cy);
}

/* Toggles arrow kind @p bit; a kind switched on fits its scale afresh. */
static const char *toggle_arrow(struct panel_state *ps, unsigned bit, int k,
                                const char *on, const char *off)
{
    ps->ov.arrows ^= bit;
    if (ps->ov.arrows & bit) {
        lab_scale_reset(&ps->ov.scale[k]);
        return on;
    }
    return off;
}

/* v p f: the arrows; c: the centre of mass; n: the ball numbers. */
static const char *overlay_key(void *self, int key, size_t nballs)
{
    struct panel_state *ps = self;
    (void)nballs;
    switch (key) {
    case 'v':
        return toggle_arrow(ps, PANEL_ARROW_V, 0, "velocity arrows on", "velocity arrows off");
    case 'p':
        return toggle_arrow(ps, PANEL_ARROW_P, 1, "momentum arrows on", "momentum arrows off");
    case 'f':
        return toggle_arrow(ps, PANEL_ARROW_F, 2, "force arrows on", "force arrows off");
    case 'c':
        ps->ov.cm = !ps->ov.cm;
        return ps->ov.cm ? "centre of mass on" : "centre of mass off";
    case 'n':
        ps->ov.numbers = !ps->ov.numbers;
        return ps->ov.numbers ? "ball numbers on" : "ball numbers off";
    default:
        return NULL;
    }
}

const struct panel_class panel_overlay_class = {
    "overlay", PANEL_TABLE, overlay_want, NULL, overlay_draw, overlay_key, overlay_trail, NULL,
    NULL,
};
