/*
 * panel.c - the classroom lab's panels (see panel.h).
 */
#include "panel.h"

#include "session.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* %.5g without a "-0". */
static const char *num(char *buf, size_t cap, double v)
{
    if (v == 0)
        v = 0;
    snprintf(buf, cap, "%.5g", v);
    return buf;
}

/* ===== The values panel ===== */

static const char *wall_name(size_t w)
{
    static const char *const name[] = {"left wall", "right wall", "bottom wall",
                                       "top wall", "rim"};
    return w < sizeof name / sizeof *name ? name[w] : "wall";
}

enum { MAX_CONTACT_LINES = 6 };

int panel_values(struct plot *p, const struct sim *s, struct panel_values *o)
{
    plot_clear(p);
    if (p->w < 8 || p->h < 2) {
        plot_text(p, 0, 0, "values: too small", PANEL_DIM);
        return 0;
    }
    struct lab_layout lay;
    lab_layout(&lay, p->w);
    struct lab_totals tot;
    lab_totals(s, &tot);
    size_t sel = o->selected < s->n ? o->selected : PANEL_NONE;
    /* the contacts section */
    struct lab_contact con[MAX_CONTACT_LINES];
    size_t ncon = 0;
    int con_lines = 0;
    if (sel != PANEL_NONE && p->h >= 8 && o->hard) {
        con_lines = 1;
    } else if (sel != PANEL_NONE && p->h >= 8) {
        /* the touching ones (a law with a range acts further) */
        struct lab_contact all[64];
        size_t nall = lab_contacts(s, sel, all, 64);
        for (size_t k = 0; k < nall && k < 64; k++)
            if (all[k].touching) {
                if (ncon < MAX_CONTACT_LINES)
                    con[ncon] = all[k];
                ncon++;
            }
        con_lines = 1 + (int)(ncon < MAX_CONTACT_LINES ? ncon : MAX_CONTACT_LINES);
        if (con_lines > p->h - 5)
            con_lines = p->h - 5;
    }
    int info = p->h >= 5;
    int rows = p->h - 2 - info - con_lines; /* ball rows */
    if (rows < 0)
        rows = 0;
    if ((size_t)rows > s->n)
        rows = (int)s->n;
    /* scroll: keep the selected ball in view, and no blank end */
    if (sel != PANEL_NONE && rows > 0 && !o->free_scroll) {
        if (sel < o->scroll)
            o->scroll = sel;
        else if (sel >= o->scroll + (size_t)rows)
            o->scroll = sel - (size_t)rows + 1;
    }
    if (o->scroll + (size_t)rows > s->n)
        o->scroll = s->n - (size_t)rows;
    char buf[512], a[32], b[32], c[32], d[32], e[32];
    int row = 0;
    plot_text(p, 0, row++, lab_header(buf, sizeof buf, &lay), PANEL_DIM);
    for (int i = 0; i < rows; i++) {
        struct lab_row r;
        size_t ball = o->scroll + (size_t)i;
        lab_row(s, ball, &r);
        lab_row_line(buf, sizeof buf, &lay, &r);
        if (ball == sel)
            buf[0] = '>';
        plot_text(p, 0, row++, buf, ball == sel ? PANEL_HILITE : PANEL_TEXT);
    }
    lab_total_line(buf, sizeof buf, &lay, &tot);
    int trow = row++;
    plot_text(p, 0, trow, buf, PANEL_TEXT);
    if (!o->ascii)
        plot_text(p, 0, trow, "   Σ", PANEL_TEXT);
    /* scrolled: which rows show, at the header's end when there is room */
    if (rows < (int)s->n) {
        snprintf(buf, sizeof buf, "%zu-%zu/%zu", o->scroll + 1, o->scroll + (size_t)rows, s->n);
        int len = (int)strlen(buf);
        if (lay.total + 2 + len <= p->w)
            plot_text(p, p->w - len, 0, buf, PANEL_DIM);
    }
    if (info) {
        snprintf(buf, sizeof buf, "PE %s  E %s  M %s  CM (%s, %s)",
                 num(a, sizeof a, tot.pe + tot.pg), num(b, sizeof b, tot.e),
                 num(c, sizeof c, tot.m), num(d, sizeof d, tot.cx),
                 num(e, sizeof e, tot.cy));
        if (tot.dissipated > 0 && (int)strlen(buf) + 16 < p->w) {
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "  lost %s", num(a, sizeof a, tot.dissipated));
        }
        plot_text(p, 0, row++, buf, PANEL_TEXT);
    }
    if (con_lines > 0) {
        struct lab_row r;
        lab_row(s, sel, &r);
        if (o->hard)
            snprintf(buf, sizeof buf, "ball %zu: hard balls touch only at an instant", sel + 1);
        else if (ncon == 0)
            snprintf(buf, sizeof buf, "ball %zu: no contact", sel + 1);
        else
            snprintf(buf, sizeof buf, "ball %zu touches:", sel + 1);
        plot_text(p, 0, row++, buf, PANEL_HILITE);
        int hooke = s->p.contact == SIM_CONTACT_HOOKE;
        int damped = hooke && s->p.restitution < 1;
        for (int k = 0; k + 1 < con_lines; k++) {
            const struct lab_contact *q = &con[k];
            char who[32];
            if (k + 2 == con_lines && ncon > (size_t)k + 1) {
                snprintf(buf, sizeof buf, "  +%zu more", ncon - (size_t)k);
                plot_text(p, 0, row++, buf, PANEL_DIM);
                break;
            }
            if (q->partner >= LAB_WALL)
                snprintf(who, sizeof who, "%s", wall_name(q->partner - LAB_WALL));
            else
                snprintf(who, sizeof who, "ball %zu", q->partner + 1);
            /* Hooke: the overlap and k s; another law: the gap and its force */
            int len = snprintf(buf, sizeof buf, "  %-11s %s %s  %s %s", who,
                               hooke ? "s" : "gap", num(a, sizeof a, hooke ? q->s : -q->s),
                               hooke ? (o->ascii ? "k*s" : "k·s") : "f",
                               num(b, sizeof b, hooke ? q->fs : q->f));
            if (damped && len > 0 && (size_t)len < sizeof buf)
                snprintf(buf + len, sizeof buf - (size_t)len, "  dashpot %s",
                         num(c, sizeof c, q->fd));
            plot_text(p, 0, row++, buf, PANEL_TEXT);
        }
    }
    return rows;
}

/* ===== Plots over time ===== */

int panel_lines(struct plot *p, size_t n, const double *t, const double *const *y,
                const char *const *name, const uint32_t *color, int nch)
{
    if (n == 0) {
        plot_clear(p);
        plot_text(p, 0, 0, "no data yet", PANEL_DIM);
        return -1;
    }
    struct plot_series sr[PANEL_LINES_MAX];
    if (nch > PANEL_LINES_MAX)
        nch = PANEL_LINES_MAX;
    for (int k = 0; k < nch; k++) {
        sr[k].x = t;
        sr[k].y = y[k];
        sr[k].n = n;
        sr[k].color = color[k];
        sr[k].name = name[k];
    }
    struct plot_lines_opt opt = {"t", 1, PANEL_DIM};
    return plot_lines(p, sr, nch, &opt, NULL);
}

int panel_envelope(struct plot *p, const struct session_col *col, size_t n, int momentum,
                   int ascii)
{
    int ch[3] = {SESSION_CH_KE, SESSION_CH_PE, SESSION_CH_E}, nch = momentum ? 2 : 3;
    if (momentum) {
        ch[0] = SESSION_CH_PX;
        ch[1] = SESSION_CH_PY;
    }
    size_t np = 4 * n;
    double *a = malloc(4 * (np ? np : 1) * sizeof *a);
    if (!a) {
        plot_clear(p);
        plot_text(p, 0, 0, "out of memory", PANEL_WARN);
        return -1;
    }
    double *t = a, *y[3] = {a + np, a + 2 * np, a + 3 * np};
    for (size_t i = 0; i < n; i++) {
        const struct session_col *c = &col[i];
        t[4 * i] = c->t0;
        t[4 * i + 1] = t[4 * i + 2] = 0.5 * (c->t0 + c->t1);
        t[4 * i + 3] = c->t1;
        for (int k = 0; k < nch; k++) {
            y[k][4 * i] = c->first[ch[k]];
            y[k][4 * i + 1] = c->lo[ch[k]];
            y[k][4 * i + 2] = c->hi[ch[k]];
            y[k][4 * i + 3] = c->last[ch[k]];
        }
    }
    static const char *const ename[] = {"KE", "PE", "E"};
    static const uint32_t ecolor[] = {PANEL_KE, PANEL_PE, PANEL_E};
    static const char *const uname[] = {"Σpx", "Σpy"}, *aname[] = {"sum px", "sum py"};
    static const uint32_t mcolor[] = {PANEL_PX, PANEL_PY};
    const double *yy[] = {y[0], y[1], y[2]};
    int rc = momentum ? panel_lines(p, np, t, yy, ascii ? aname : uname, mcolor, 2)
                      : panel_lines(p, np, t, yy, ename, ecolor, 3);
    free(a);
    return rc;
}

/* ===== Speeds ===== */

struct curve_ctx {
    double n, dv, a2;
};

static double mb_curve(double v, const void *ctx)
{
    const struct curve_ctx *c = ctx;
    return c->n * c->dv * lab_rayleigh(v, c->a2);
}

int panel_speeds(struct plot *p, const struct sim *s, int ascii)
{
    (void)ascii;
    int data_w = p->w - (p->w >= 40 ? 8 : 6);
    int nb = (int)ceil(2 * cbrt((double)s->n));
    if (nb > data_w / 2)
        nb = data_w / 2;
    if (nb < 4)
        nb = 4;
    if (nb > LAB_HIST_MAX)
        nb = LAB_HIST_MAX;
    struct lab_hist h;
    lab_speed_hist(s, nb, &h);
    if (!(h.vmax > 0)) {
        plot_clear(p);
        plot_text(p, 0, 0, s->n ? "speeds: all at rest" : "speeds: no balls", PANEL_DIM);
        return -1;
    }
    struct curve_ctx c = {(double)h.n, h.vmax / h.nbins, h.a2};
    char name[64];
    snprintf(name, sizeof name, "2-D Maxwell-Boltzmann, a %.3g", sqrt(h.a2));
    struct plot_hist_opt opt = {"speed", "balls", name, PANEL_BAR, PANEL_CURVE, PANEL_DIM};
    return plot_hist(p, h.count, h.nbins, 0, h.vmax, mb_curve, &c, &opt, NULL);
}

/* ===== The overlay ===== */

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

void panel_overlay(struct plot *p, const struct view_map *m, const struct sim *s,
                   struct panel_overlay *o, const double *fx, const double *fy)
{
    const double aspect = o->aspect > 0 ? o->aspect : 2;
    const size_t n = s->n;
    if (o->selected < n) {
        struct lab_row b;
        lab_row(s, o->selected, &b);
        double c, r;
        view_to_grid(m, b.x, b.y, &c, &r);
        double R = b.r * m->sx + 0.75;
        ring(p, c, r, R < 1 ? 1 : R, aspect, PANEL_SELECT);
    }
    /* arrows: F under p under v */
    double side = m->w < m->h * aspect ? m->w : m->h * aspect;
    double max_cells = side / 4 > 3 ? side / 4 : 3;
    static const unsigned kind[3] = {PANEL_ARROW_V, PANEL_ARROW_P, PANEL_ARROW_F};
    static const uint32_t kcolor[3] = {PANEL_V, PANEL_P, PANEL_F};
    static const char *const kname[3] = {"v", "p", "F"};
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
            plot_arrow(p, c, r, c + qx / per, r - qy / per / aspect, aspect, kcolor[k]);
        }
    }
    if (o->numbers) {
        char label[32];
        for (size_t i = 0; i < n; i++) {
            if (n > PANEL_MANY && i != o->selected)
                continue;
            struct lab_row b;
            lab_row(s, i, &b);
            double c, r;
            view_to_grid(m, b.x, b.y, &c, &r);
            if (!(c >= m->left && c < m->left + m->w && r >= m->top && r < m->top + m->h))
                continue;
            int len = snprintf(label, sizeof label, "%zu", i + 1);
            double diam = 2 * b.r * m->sx;
            /* on the ball when it is as wide as the number, else beside it */
            int col = diam >= len ? (int)floor(c - len / 2.0 + 0.5)
                                  : (int)floor(c + fmin(b.r * m->sx, m->cols) + 0.5);
            plot_text(p, col, (int)floor(r), label, PANEL_TEXT);
        }
    }
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
    /* the legend, on the frame's bottom line */
    int col = m->left + 1, row = m->top + m->h;
    if (row >= m->rows)
        row = m->rows - 1;
    for (int k = 0; k < 3; k++) {
        if (!(o->arrows & kind[k]) || !(o->scale[k].per_cell > 0) ||
            (k == 2 && (!fx || !fy)))
            continue;
        char buf[48];
        snprintf(buf, sizeof buf, " %s %.3g/cell ", kname[k], o->scale[k].per_cell);
        if (col + (int)strlen(buf) > m->left + m->w)
            break;
        col = plot_text(p, col, row, buf, kcolor[k]);
    }
    if (n > PANEL_MANY && (o->arrows || o->numbers) && col > m->left + 1) {
        char buf[48];
        if (o->selected < n)
            snprintf(buf, sizeof buf, " ball %zu only ", o->selected + 1);
        else
            snprintf(buf, sizeof buf, " select a ball (Tab) ");
        if (col + (int)strlen(buf) <= m->left + m->w)
            plot_text(p, col, row, buf, PANEL_DIM);
    }
}

/* ===== State, keys, layout ===== */

void panel_state_init(struct panel_state *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->ov.selected = PANEL_NONE;
    ps->ov.aspect = 2;
    ps->pv.selected = PANEL_NONE;
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

const char *panel_key(struct panel_state *ps, int key, size_t nballs)
{
    static char msg[64];
    static const char *const plot_name[PANEL_PLOT_COUNT] = {
        "plot off", "plot: energy", "plot: momentum", "plot: speeds"};
    size_t *sel = &ps->ov.selected;
    if (*sel != PANEL_NONE && *sel >= nballs)
        *sel = PANEL_NONE;
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
    case 'i':
        ps->values = !ps->values;
        return ps->values ? "values panel on" : "values panel off";
    case 'P':
        ps->plot = (ps->plot + 1) % PANEL_PLOT_COUNT;
        return plot_name[ps->plot];
    case 's':
        ps->split = !ps->split;
        return ps->split ? "split: spring and event engines" : "split off";
    case PANEL_KEY_NEXT:
    case PANEL_KEY_PREV:
        if (nballs == 0)
            return "no balls";
        /* the cycle: none, 1, 2, ..., n, none */
        if (key == PANEL_KEY_NEXT)
            *sel = *sel == PANEL_NONE ? 0 : *sel + 1 < nballs ? *sel + 1 : PANEL_NONE;
        else
            *sel = *sel == PANEL_NONE ? nballs - 1 : *sel > 0 ? *sel - 1 : PANEL_NONE;
        ps->pv.selected = *sel;
        ps->pv.free_scroll = 0;
        if (*sel == PANEL_NONE)
            return "no ball selected";
        snprintf(msg, sizeof msg, "ball %zu", *sel + 1);
        return msg;
    case PANEL_KEY_PGUP:
    case PANEL_KEY_PGDN: {
        size_t page = ps->rows > 1 ? (size_t)ps->rows - 1 : 1;
        if (key == PANEL_KEY_PGUP)
            ps->pv.scroll = ps->pv.scroll > page ? ps->pv.scroll - page : 0;
        else
            ps->pv.scroll += page; /* panel_values keeps it within the rows */
        /* paging lets the panel leave the selected ball's row */
        ps->pv.free_scroll = 1;
        return "";
    }
    default:
        return NULL;
    }
}

/* Cells per world unit of a world w x h fitted in cols x rows with a frame. */
static double fit_scale(int cols, int rows, double w, double h, double aspect)
{
    if (cols < 3 || rows < 3 || !(w > 0) || !(h > 0))
        return 0;
    double across = (cols - 2) / w, down = (rows - 2) * aspect / h;
    return across < down ? across : down;
}

void panel_layout(struct panel_rect area, const struct panel_state *ps,
                  size_t nballs, double world_w, double world_h,
                  struct panel_rects *out)
{
    memset(out, 0, sizeof *out);
    int band = 0; /* rows of the bottom band */
    int want_values = 0, want_plot = 0;
    if (ps->values) /* header, rows, totals, info, a selected ball's contacts */
        want_values = 3 + (int)(nballs < 40 ? nballs : 40) +
                      (ps->ov.selected != PANEL_NONE ? 4 : 0);
    if (ps->plot != PANEL_PLOT_OFF)
        want_plot = area.h / 3 > 6 ? area.h / 3 : 6;
    int side = area.w >= 100 && want_values && want_plot;
    int need = side ? (want_values > want_plot ? want_values : want_plot)
                    : want_values + want_plot;
    band = need < area.h / 2 ? need : area.h / 2;
    if (area.h - band < 4)
        band = area.h - 4 > 0 ? area.h - 4 : 0;
    if (band > 0) {
        int y = area.y + area.h - band;
        if (side) {
            int vw = area.w * 11 / 20; /* the values table needs the room */
            out->values = (struct panel_rect){area.x, y, vw, band};
            out->plot = (struct panel_rect){area.x + vw + 1, y, area.w - vw - 1, band};
        } else if (want_values && want_plot) {
            int vh = band - (want_plot < band / 2 ? want_plot : band / 2);
            out->values = (struct panel_rect){area.x, y, area.w, vh};
            out->plot = (struct panel_rect){area.x, y + vh, area.w, band - vh};
        } else if (want_values) {
            out->values = (struct panel_rect){area.x, y, area.w, band};
        } else {
            out->plot = (struct panel_rect){area.x, y, area.w, band};
        }
        if (out->values.h < 3)
            out->values = (struct panel_rect){0, 0, 0, 0};
        if (out->plot.h < 5)
            out->plot = (struct panel_rect){0, 0, 0, 0};
        if (!out->values.w && !out->plot.w)
            band = 0;
    }
    struct panel_rect t = {area.x, area.y, area.w, area.h - band};
    if (ps->split) {
        double aspect = ps->ov.aspect > 0 ? ps->ov.aspect : 2;
        double beside = fit_scale(t.w / 2, t.h, world_w, world_h, aspect);
        double above = fit_scale(t.w, t.h / 2, world_w, world_h, aspect);
        if (beside > above) {
            int w1 = t.w / 2;
            out->table = (struct panel_rect){t.x, t.y, w1, t.h};
            out->table2 = (struct panel_rect){t.x + w1, t.y, t.w - w1, t.h};
        } else {
            int h1 = t.h / 2;
            out->table = (struct panel_rect){t.x, t.y, t.w, h1};
            out->table2 = (struct panel_rect){t.x, t.y + h1, t.w, t.h - h1};
        }
    } else {
        out->table = t;
    }
}
