/*
 * labscreen.c - the classroom lab on the screen (see labscreen.h).
 */
#include "labscreen.h"

#include "session.h"

#include <string.h>

int labscreen_init(struct lab_front *lf, struct screen *scr)
{
    memset(lf, 0, sizeof *lf);
    panel_state_init(&lf->ps);
    lf->ps.ov.aspect = scr->aspect > 0 ? scr->aspect : 2;
    for (int i = 0; i < panel_count; i++)
        if (screen_add_panel(scr, panel_table[i], &lf->ps) < 0)
            return -1;
    return 0;
}

/* The split view's engines freed, and the panel no longer lent them. */
static void twin_off(struct lab_front *lf)
{
    if (lf->twin_on)
        twin_free(&lf->tw);
    lf->twin_on = 0;
    lf->ps.split_hard = NULL;
}

void labscreen_free(struct lab_front *lf)
{
    twin_off(lf);
    panel_state_free(&lf->ps);
    memset(lf, 0, sizeof *lf);
}

/* === The split view === */

/* A checksum of the session's recorded actions: a new one (a kick, a
 * change) alters it. */
static double actions_sum(const struct session *ss)
{
    size_t n;
    const struct session_action *act = session_actions(ss, &n);
    double sum = (double)n;
    for (size_t i = 0; i < n; i++) {
        const struct session_action *a = &act[i];
        sum = sum * 1.000001 + (double)a->pos + 3.0 * a->kind + 7.0 * (double)a->ball +
              a->a * 1.1 + a->b * 1.3;
    }
    return sum;
}

int labscreen_split(struct lab_front *lf, struct session *ss, int on, const char **why)
{
    *why = NULL;
    twin_off(lf);
    if (!on)
        return 0;
    if (!(session_caps(ss) & SESSION_CAP_STEPS)) {
        *why = "the split view starts from the spring engine (m)";
        return -1;
    }
    if (twin_init(&lf->tw, session_state(ss))) {
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
    lf->ps.split_hard = &lf->tw.hard;
    lf->ps.split_collisions = lf->tw.ev.collisions;
    return 0;
}

int labscreen_sync_twin(struct lab_front *lf, struct session *ss, long long max_events)
{
    if (!lf->twin_on)
        return -1;
    /* A change (k, dt, e, the border, a kick, a reset, stepping back over
     * the start): both engines start again from the state now. */
    const struct sim *s = session_state(ss);
    const struct sim_params *a = &lf->tw.start.p, *b = &s->p;
    int changed = a->k != b->k || a->dt != b->dt || a->restitution != b->restitution ||
                  a->shape != b->shape || a->walls != b->walls || a->gravity != b->gravity ||
                  a->open != b->open || s->t < lf->tw.start.t || lf->tw.start.n != s->n;
    if (!changed && s->t == lf->tw.start.t && s->t == lf->tw.hard.t) {
        /* a kick at the start: the velocities differ */
        for (size_t i = 0; i < s->n && !changed; i++)
            changed = s->vx[i] != lf->tw.start.vx[i] || s->vy[i] != lf->tw.start.vy[i];
    }
    double acts = actions_sum(ss);
    changed |= acts != lf->tw_actions;
    if (changed) {
        if (twin_restart(&lf->tw, s) || !lf->tw.ok)
            return -1;
        lf->tw_actions = acts;
    }
    int rc = twin_sync(&lf->tw, s->t, max_events);
    lf->ps.split_collisions = lf->tw.ev.collisions;
    return rc;
}
