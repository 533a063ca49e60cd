/*
 * labscreen.c - the classroom lab on the screen (see labscreen.h).
 */
#include "labscreen.h"

#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* === Colours === */

void labscreen_color(uint32_t tag, uint32_t *fg, int *attr)
{
    *attr = 0;
    switch (tag) {
    case PANEL_TEXT: *fg = 0; break;
    case PANEL_DIM: *fg = 0; *attr = SCREEN_DIM; break;
    case PANEL_HILITE: *fg = 0; *attr = SCREEN_REVERSE; break;
    case PANEL_KE: *fg = SCREEN_RGB | 0x5fd7ff; break;    /* sky blue */
    case PANEL_PE: *fg = SCREEN_RGB | 0xd787ff; break;    /* violet */
    case PANEL_E: *fg = SCREEN_RGB | 0xffffaf; *attr = SCREEN_BOLD; break;
    case PANEL_PX: *fg = SCREEN_RGB | 0x87d787; break;    /* green */
    case PANEL_PY: *fg = SCREEN_RGB | 0xffaf5f; break;    /* orange */
    case PANEL_BAR: *fg = SCREEN_RGB | 0x5f87d7; break;   /* steel blue */
    case PANEL_CURVE: *fg = SCREEN_RGB | 0xffd75f; *attr = SCREEN_BOLD; break;
    case PANEL_V: *fg = SCREEN_RGB | 0x5fff87; *attr = SCREEN_BOLD; break; /* green */
    case PANEL_P: *fg = SCREEN_RGB | 0xffaf00; *attr = SCREEN_BOLD; break; /* amber */
    case PANEL_F: *fg = SCREEN_RGB | 0xff5faf; *attr = SCREEN_BOLD; break; /* pink */
    case PANEL_CM: *fg = SCREEN_RGB | 0xffff5f; *attr = SCREEN_BOLD; break;
    case PANEL_SELECT: *fg = SCREEN_RGB | 0xffffff; *attr = SCREEN_BOLD; break;
    case PANEL_WARN: *fg = SCREEN_WARN; *attr = SCREEN_BOLD; break;
    default: *fg = tag; break; /* already a screen colour */
    }
}

void labscreen_blit(struct screen *scr, int x, int y, struct plot *p, int glyphs)
{
    if (glyphs == VIEW_ASCII)
        plot_ascii(p);
    for (int j = 0; j < p->h; j++)
        for (int i = 0; i < p->w; i++) {
            const struct plot_cell *c = &p->cell[j * p->w + i];
            uint32_t fg;
            int attr;
            labscreen_color(c->color, &fg, &attr);
            screen_put(scr, x + i, y + j, c->ch ? c->ch : ' ', c->ch ? fg : 0,
                       c->ch || c->color == PANEL_HILITE ? attr : 0);
        }
}

/* A grid of w x h cells, or one with no cells when memory is short. */
static struct plot grid_new(int w, int h)
{
    struct plot p = {w > 0 ? w : 0, h > 0 ? h : 0, NULL};
    if (p.w && p.h)
        p.cell = calloc((size_t)p.w * (size_t)p.h, sizeof *p.cell);
    if (!p.cell)
        p.w = p.h = 0;
    return p;
}

/* "── name ─────" on the first row of a panel. */
static void rule(struct screen *scr, struct screen_rect r, const char *name, int glyphs)
{
    uint32_t hz = glyphs == VIEW_ASCII ? '-' : 0x2500;
    for (int i = 0; i < r.w; i++)
        screen_put(scr, r.x + i, r.y, hz, 0, SCREEN_DIM);
    char buf[96];
    snprintf(buf, sizeof buf, " %s ", name);
    screen_text(scr, r.x + 2, r.y, r.w - 4, 0, SCREEN_BOLD, buf);
}

int labscreen_forces(struct lab_front *lf, struct session *ss, const double **fx,
                     const double **fy)
{
    size_t n = ss->s.n ? ss->s.n : 1;
    if (lf->nf != n) {
        free(lf->fx);
        free(lf->fy);
        lf->fx = malloc(n * sizeof *lf->fx);
        lf->fy = malloc(n * sizeof *lf->fy);
        lf->nf = lf->fx && lf->fy ? n : 0;
        lf->f_version = 0;
    }
    if (!lf->nf)
        return -1;
    if (lf->f_version != ss->version || ss->version == 0) {
        if (lab_forces(&ss->s, lf->fx, lf->fy))
            return -1;
        lf->f_version = ss->version;
    }
    *fx = lf->fx;
    *fy = lf->fy;
    return 0;
}

/* === Panels === */

static void draw_values(struct screen *scr, struct screen_rect r, struct session *ss,
                        const struct front *f, void *data)
{
    struct lab_front *lf = data;
    if (r.h < 2)
        return;
    rule(scr, r, "values", f->glyphs);
    struct plot p = grid_new(r.w, r.h - 1);
    if (!p.cell)
        return;
    lf->ps.pv.selected = lf->ps.ov.selected;
    lf->ps.pv.ascii = f->glyphs == VIEW_ASCII;
    lf->ps.pv.hard = ss->engine == SESSION_EVENT;
    lf->ps.rows = panel_values(&p, session_observed(ss), &lf->ps.pv);
    labscreen_blit(scr, r.x, r.y + 1, &p, f->glyphs);
    free(p.cell);
}

static void draw_plot(struct screen *scr, struct screen_rect r, struct session *ss,
                      const struct front *f, void *data)
{
    struct lab_front *lf = data;
    static const char *const title[PANEL_PLOT_COUNT] = {"", "energy", "momentum",
                                                        "speeds"};
    if (r.h < 2 || lf->ps.plot == PANEL_PLOT_OFF)
        return;
    rule(scr, r, title[lf->ps.plot], f->glyphs);
    struct plot p = grid_new(r.w, r.h - 1);
    if (!p.cell)
        return;
    if (lf->ps.plot == PANEL_PLOT_SPEEDS) {
        panel_speeds(&p, session_observed(ss), f->glyphs == VIEW_ASCII);
    } else {
        /* The envelope's last stretch, about two columns a dot column:
         * each column drawn as an oscilloscope does, a line from its first
         * sample down to its least, up to its greatest and back to its
         * last, so that no sample between two frames is lost (a contact
         * of 20 steps stepped over with ']' still shows). */
        size_t n = session_columns(ss), first = 0, most = 4 * (size_t)(r.w > 8 ? r.w - 8 : 1);
        if (n > most) {
            first = n - most;
            n = most;
        }
        panel_envelope(&p, n ? session_column(ss, first) : NULL, n,
                       lf->ps.plot == PANEL_PLOT_MOMENTUM, f->glyphs == VIEW_ASCII);
    }
    labscreen_blit(scr, r.x, r.y + 1, &p, f->glyphs);
    free(p.cell);
}

static const struct screen_lab hooks;

int labscreen_init(struct lab_front *lf, struct screen *scr)
{
    memset(lf, 0, sizeof *lf);
    panel_state_init(&lf->ps);
    lf->ps.ov.aspect = scr->aspect > 0 ? scr->aspect : 2;
    lf->values = (struct screen_panel){"values", 76, 8, draw_values, lf};
    lf->plot = (struct screen_panel){"plot", 60, 10, draw_plot, lf};
    lf->values_idx = screen_add_panel(scr, &lf->values);
    lf->plot_idx = screen_add_panel(scr, &lf->plot);
    if (lf->values_idx < 0 || lf->plot_idx < 0)
        return -1;
    scr->panel_on[lf->values_idx] = 0;
    scr->panel_on[lf->plot_idx] = 0;
    scr->lab = &hooks;
    return 0;
}

void labscreen_free(struct lab_front *lf)
{
    if (lf->twin_on)
        twin_free(&lf->tw);
    free(lf->fx);
    free(lf->fy);
    memset(lf, 0, sizeof *lf);
}

void labscreen_panels(struct lab_front *lf, struct screen *scr, const struct session *ss)
{
    size_t n = ss->s.n;
    /* rule, header, rows, totals, info; the selected ball's contacts */
    int rows = (int)(n < 40 ? n : 40);
    lf->values.want_h = 4 + rows + 1 + (lf->ps.ov.selected != PANEL_NONE ? 4 : 0);
    struct lab_layout lay;
    lab_layout(&lay, 200);
    lf->values.want_w = lay.total;
    lf->plot.want_h = 12;
    lf->plot.want_w = 60;
    scr->panel_on[lf->values_idx] = lf->ps.values;
    scr->panel_on[lf->plot_idx] = lf->ps.plot != PANEL_PLOT_OFF;
    scr->split = lf->ps.split && lf->twin_on;
}

/* === The overlay === */

void labscreen_overlay(struct screen *scr, const struct view *v, struct screen_rect table,
                       const struct sim *s, struct lab_front *lf, const double *fx,
                       const double *fy, int glyphs)
{
    struct panel_overlay *o = &lf->ps.ov;
    if (!o->arrows && !o->numbers && !o->cm && o->selected == PANEL_NONE)
        return;
    const struct view_map *m = &v->map;
    struct plot p = grid_new(m->cols, m->rows);
    if (!p.cell)
        return;
    o->ascii = glyphs == VIEW_ASCII;
    panel_overlay(&p, m, s, o, fx, fy);
    if (glyphs == VIEW_ASCII)
        plot_ascii(&p);
    for (int j = 0; j < p.h; j++)
        for (int i = 0; i < p.w; i++) {
            const struct plot_cell *c = &p.cell[j * p.w + i];
            if (!c->ch)
                continue;
            const struct screen_cell *under = screen_at(scr, table.x + i, table.y + j);
            if (!under)
                continue;
            uint32_t ch = panel_merge(under->ch == ' ' ? 0 : under->ch, c->ch);
            uint32_t fg;
            int attr;
            labscreen_color(c->color, &fg, &attr);
            screen_put(scr, table.x + i, table.y + j, ch, fg, attr);
        }
    free(p.cell);
}

/* === The split view === */

/* A checksum of the session's recorded actions: a new one (a kick, a
 * change) alters it. */
static double actions_sum(const struct session *ss)
{
    double sum = (double)ss->nact;
    for (size_t i = 0; i < ss->nact; i++) {
        const struct session_action *a = &ss->act[i];
        sum = sum * 1.000001 + (double)a->pos + 3.0 * a->kind + 7.0 * (double)a->ball +
              a->a * 1.1 + a->b * 1.3;
    }
    return sum;
}


int labscreen_split(struct lab_front *lf, struct session *ss, int on, const char **why)
{
    *why = NULL;
    if (lf->twin_on) {
        twin_free(&lf->tw);
        lf->twin_on = 0;
    }
    if (!on)
        return 0;
    if (ss->engine != SESSION_SPRING) {
        *why = "the split view starts from the spring engine (m)";
        return -1;
    }
    if (twin_init(&lf->tw, &ss->s)) {
        *why = "out of memory";
        return -1;
    }
    if (!lf->tw.ok) {
        *why = lf->tw.why;
        twin_free(&lf->tw);
        return -1;
    }
    lf->twin_on = 1;
    lf->tw_actions = actions_sum(ss);
    return 0;
}

int labscreen_sync_twin(struct lab_front *lf, struct session *ss, long long max_events)
{
    if (!lf->twin_on)
        return -1;
    /* A change (k, dt, e, the border, a kick, a reset, stepping back over
     * the start): both engines start again from the state now. */
    const struct sim_params *a = &lf->tw.start.p, *b = &ss->s.p;
    int changed = a->k != b->k || a->dt != b->dt || a->restitution != b->restitution ||
                  a->shape != b->shape || a->walls != b->walls || a->gravity != b->gravity ||
                  a->open != b->open ||
                  ss->s.t < lf->tw.start.t || lf->tw.start.n != ss->s.n;
    if (!changed && ss->s.t == lf->tw.start.t && ss->s.t == lf->tw.hard.t) {
        /* a kick at the start: the velocities differ */
        for (size_t i = 0; i < ss->s.n && !changed; i++)
            changed = ss->s.vx[i] != lf->tw.start.vx[i] || ss->s.vy[i] != lf->tw.start.vy[i];
    }
    double acts = actions_sum(ss);
    changed |= acts != lf->tw_actions;
    if (changed) {
        if (twin_restart(&lf->tw, &ss->s) || !lf->tw.ok)
            return -1;
        lf->tw_actions = acts;
    }
    return twin_sync(&lf->tw, ss->s.t, max_events);
}

/* === What the screen calls (struct screen_lab) === */

/* E's parts (kinetic, and the springs' where there are springs), the total
 * momentum; the restitution and the border when they are not the scene's
 * defaults. */
static void hook_status(struct lab_front *lf, struct screen_line *l, struct session *ss,
                        const struct front *f)
{
    const struct sim *s = &ss->s;
    const struct session_diag *d = session_diag(ss);
    int ascii = f->glyphs == VIEW_ASCII;
    /* while a panel or the overlay is on they rank above dt and k */
    const struct panel_state *ps = &lf->ps;
    int rank = ps->values || ps->plot || ps->split || ps->ov.arrows || ps->ov.cm ||
               ps->ov.numbers || ps->ov.selected != PANEL_NONE ? 4 : 7;
    screen_status_add(l, rank, 0, "KE %.5g", d->ke);
    if ((ss->engine == SESSION_SPRING && s->p.contact != SIM_CONTACT_NONE) || d->pe != 0)
        screen_status_add(l, rank, 0, "PE %.4g", d->pe);
    /* a total within its rounding shows as 0 (lab_round_total) */
    double ax = 0, ay = 0;
    const struct sim *o = session_observed(ss);
    for (size_t i = 0; i < o->n; i++) {
        ax += fabs(o->m[i] * o->vx[i]);
        ay += fabs(o->m[i] * o->vy[i]);
    }
    double tpx = lab_round_total(d->px, ax, s->n), tpy = lab_round_total(d->py, ay, s->n);
    char px[32], py[32];
    snprintf(px, sizeof px, "%.4g", tpx == 0 ? 0 : tpx);
    snprintf(py, sizeof py, "%.4g", tpy == 0 ? 0 : tpy);
    screen_status_add(l, rank, 0, "%s (%s, %s)", ascii ? "p" : "\xce\xa3p", px, py);
    if (s->p.restitution == 0)
        screen_status_add(l, 3, SCREEN_BOLD, "sticky");
    else if (s->p.restitution != 1)
        screen_status_add(l, 3, SCREEN_BOLD, "e %.2g", s->p.restitution);
    if (s->p.line)
        screen_status_add(l, 3, SCREEN_BOLD, "1-D");
    int border = lab_border(&s->p);
    if (border != LAB_BORDER_SPRING && !f->open)
        screen_status_add(l, 3, SCREEN_BOLD, "%s", lab_border_name(border));
}

static int hook_cm(struct lab_front *lf, const struct sim *s, double *x, double *y)
{
    if (!lf->ps.ov.cm)
        return 0;
    struct lab_totals tot;
    lab_sums(s, &tot); /* the centre alone: no pass over the pairs */
    *x = tot.cx;
    *y = tot.cy;
    return isfinite(tot.cx) && isfinite(tot.cy);
}

static void hook_overlay(struct lab_front *lf, struct screen *scr, const struct view *v,
                         struct screen_rect t, const struct sim *s, struct session *ss,
                         int second)
{
    /* the event engine's forces are impulses: no force arrows there */
    unsigned keep = lf->ps.ov.arrows;
    if (second)
        lf->ps.ov.arrows &= ~(unsigned)PANEL_ARROW_F;
    const struct panel_overlay *o = &lf->ps.ov;
    if (o->arrows || o->numbers || o->cm || o->selected != PANEL_NONE) {
        /* What the lab draws over the table is of the observed state (the
         * velocities synchronised in the spring engine). */
        const struct sim *shown = s == &ss->s ? session_observed(ss) : s;
        const double *fx = NULL, *fy = NULL;
        /* hard balls have impulses, not forces: no force arrows there */
        if ((o->arrows & PANEL_ARROW_F) && s == &ss->s && ss->engine == SESSION_SPRING)
            labscreen_forces(lf, ss, &fx, &fy);
        labscreen_overlay(scr, v, t, shown, lf, fx, fy, v->glyphs);
    }
    lf->ps.ov.arrows = keep;
}

static const struct sim *hook_second(struct lab_front *lf, struct session *ss, char *title,
                                     size_t size, int glyphs)
{
    (void)ss;
    if (!lf->twin_on)
        return NULL;
    struct lab_totals tot;
    lab_sums(&lf->tw.hard, &tot); /* its ke alone */
    const char *dot = glyphs == VIEW_ASCII ? " - " : " \xc2\xb7 ";
    snprintf(title, size, "events%sE %.6g%s%lld collisions", dot, tot.ke, dot,
             lf->tw.ev.collisions);
    return &lf->tw.hard;
}

static const struct screen_lab hooks = {hook_status, hook_cm, hook_overlay, hook_second};
