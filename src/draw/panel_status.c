/*
 * panel_status.c - the lab's fields of the status line (see panel.h).
 */
#include "panel.h"

#include "shown.h"

#include <math.h>
#include <stdio.h>

static int status_want(void *self, const struct shown *sh, int *w, int *h)
{
    (void)self;
    (void)sh;
    *w = *h = 0;
    return 1;
}

/* E's parts (kinetic, and the springs' where there are springs), the total
 * momentum; the restitution and the border when they are not the scene's
 * defaults. */
static void status_draw(void *self, const struct panel_area *a)
{
    const struct panel_state *ps = self;
    const struct shown *sh = a->sh;
    const struct front *f = a->f;
    struct screen_line *l = a->line;
    const struct sim *s = &sh->s;
    const struct session_diag *d = &sh->d;
    int ascii = f->glyphs == VIEW_ASCII;
    /* while a panel or the overlay is on they rank above dt and k */
    int rank = ps->values || ps->plot || ps->split || ps->ov.arrows || ps->ov.cm ||
               ps->ov.numbers || ps->ov.selected != PANEL_NONE ? 4 : 7;
    screen_status_add(l, rank, 0, "KE %.5g", d->ke);
    if (((sh->caps & SESSION_CAP_FORCES) && s->p.contact != SIM_CONTACT_NONE) || d->pe != 0)
        screen_status_add(l, rank, 0, "PE %.4g", d->pe);
    /* a total within its rounding shows as 0 (lab_round_total) */
    double ax = 0, ay = 0;
    const struct sim *o = sh->obs;
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

const struct panel_class panel_status_class = {
    "status", PANEL_STATUS, status_want, NULL, status_draw, NULL, NULL, NULL, NULL,
};
