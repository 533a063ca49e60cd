/*
 * panel_plot.c - the plot panel: the energies or the total momentum over
 * the session's envelope, or the speed histogram (see panel.h).
 */
#include "panel.h"

#include "shown.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===== Over time ===== */

/* Series lines_plot draws at most. */
enum { LINES_MAX = 3 };

/* The line plot of @p nch (<= LINES_MAX) series y[k][0..n) over t[0..n),
 * named and coloured, the range from 0. */
static int lines_plot(struct plot *p, size_t n, const double *t, const double *const *y,
                const char *const *name, const uint32_t *color, int nch)
{
    if (n == 0) {
        plot_clear(p);
        plot_text(p, 0, 0, "no data yet", PANEL_DIM);
        return -1;
    }
    struct plot_series sr[LINES_MAX];
    if (nch > LINES_MAX)
        nch = LINES_MAX;
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
    int rc = momentum ? lines_plot(p, np, t, yy, ascii ? aname : uname, mcolor, 2)
                      : lines_plot(p, np, t, yy, ename, ecolor, 3);
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
    /* the curve's name as long as fits beside "⣿ balls  ━ " (11 cells):
     * cut, "a 5.51" read "a 5" beside a lesson at 80 columns */
    static const char *const names[] = {"2-D Maxwell-Boltzmann, a %.3g",
                                        "Maxwell-Boltzmann, a %.3g", "M-B, a %.3g", "a %.3g"};
    char name[64];
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        snprintf(name, sizeof name, names[k], sqrt(h.a2));
        if (11 + (int)strlen(name) <= p->w)
            break;
    }
    struct plot_hist_opt opt = {"speed", "balls", name, PANEL_BAR, PANEL_CURVE, PANEL_DIM};
    return plot_hist(p, h.count, h.nbins, 0, h.vmax, mb_curve, &c, &opt, NULL);
}

/* ===== The panel ===== */

static int plot_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct panel_state *ps = self;
    (void)sh;
    *w = 60;
    *h = 12;
    return ps->plot != PANEL_PLOT_OFF;
}

/* The momentum diagram of the session's state, in the balls' colours;
 * "before" is what the session kept of every move (shown.h: pm), drawn
 * or not. */
static void pdiag(struct plot *p, struct panel_state *ps, const struct panel_area *a)
{
    const struct sim *s = a->sh->obs;
    const struct session_pmem *pm = &a->sh->pm;
    size_t n = s->n < 64 ? s->n : 64;
    double nx[64], ny[64];
    uint32_t color[64];
    for (size_t i = 0; i < n; i++) {
        struct lab_row r;
        lab_row(s, i, &r);
        nx[i] = r.px;
        ny[i] = r.py;
        uint32_t rgb = screen_tag_color(a->scr, shown_tag(a->sh, sim_ball(s, sim_slot(s, i))));
        color[i] = rgb ? SCREEN_RGB | rgb : 0;
    }
    int before = pm->have_before && pm->n == s->n;
    panel_pdiag(p, s->n, before ? pm->bx : NULL, before ? pm->by : NULL, pm->t_before, nx, ny,
                s->t, color, ps->ov.aspect, a->f->glyphs == VIEW_ASCII);
}

static void plot_draw(void *self, const struct panel_area *a)
{
    struct panel_state *ps = self;
    static const char *const title[PANEL_PLOT_COUNT] = {"", "energy", "momentum", "speeds",
                                                        "momentum diagram"};
    struct screen_rect r = a->r;
    int ascii = a->f->glyphs == VIEW_ASCII;
    if (r.h < 2 || ps->plot == PANEL_PLOT_OFF)
        return;
    panel_rule(a->scr, r, title[ps->plot], a->f->glyphs);
    struct plot p = panel_grid(r.w, r.h - 1);
    if (!p.cell)
        return;
    /* too small: what is missing, in the terminal's rows or columns (at
     * 40x12 each plot said "too small" alone) */
    int pd = ps->plot == PANEL_PLOT_PDIAG;
    int more_h = (pd ? PANEL_PDIAG_MIN_H : PLOT_MIN_H) - p.h;
    int more_w = (pd ? PANEL_PDIAG_MIN_W : PLOT_MIN_W) - p.w;
    if (more_h > 0 || more_w > 0) {
        char msg[96];
        if (more_h > 0)
            snprintf(msg, sizeof msg, "%d more row%s needed", more_h, more_h > 1 ? "s" : "");
        else
            snprintf(msg, sizeof msg, "%d more column%s needed", more_w, more_w > 1 ? "s" : "");
        plot_clear(&p);
        plot_text(&p, 0, 0, msg, PANEL_DIM);
    } else if (ps->plot == PANEL_PLOT_SPEEDS) {
        panel_speeds(&p, a->sh->obs, ascii);
    } else if (ps->plot == PANEL_PLOT_PDIAG) {
        pdiag(&p, ps, a);
    } else {
        /* The envelope's last stretch, about two columns a dot column:
         * each column drawn as an oscilloscope does, a line from its first
         * sample down to its least, up to its greatest and back to its
         * last, so that no sample between two frames is lost (a contact
         * of 20 steps stepped over with ']' still shows). */
        size_t n = a->sh->ncol, first = 0;
        size_t most = 4 * (size_t)(r.w > 8 ? r.w - 8 : 1);
        if (n > most) {
            first = n - most;
            n = most;
        }
        panel_envelope(&p, n ? &a->sh->col[first] : NULL, n,
                       ps->plot == PANEL_PLOT_MOMENTUM, ascii);
    }
    panel_blit(a->scr, r.x, r.y + 1, &p, a->f->glyphs);
    free(p.cell);
}

/* The plot shown (the momentum diagram's or a plot over time's least)
 * under its rule. */
static void plot_least(void *self, int rows, int *w, int *h)
{
    (void)rows;
    const struct panel_state *ps = self;
    int pd = ps->plot == PANEL_PLOT_PDIAG;
    *w = pd ? PANEL_PDIAG_MIN_W : PLOT_MIN_W;
    *h = 1 + (pd ? PANEL_PDIAG_MIN_H : PLOT_MIN_H);
}

/* P: energy, momentum, speeds, the momentum diagram, off. */
static const char *plot_key(void *self, int key, size_t nballs)
{
    struct panel_state *ps = self;
    static const char *const name[PANEL_PLOT_COUNT] = {
        "plot off", "plot: energy", "plot: momentum", "plot: speeds", "plot: momentum diagram"};
    (void)nballs;
    if (key != 'P')
        return NULL;
    ps->plot = (ps->plot + 1) % PANEL_PLOT_COUNT;
    return name[ps->plot];
}

const struct panel_class panel_plot_class = {
    "plot", PANEL_BOX, plot_want, NULL, plot_draw, plot_key, NULL, NULL, plot_least,
};
