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

void labscreen_free(struct lab_front *lf)
{
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
    if (lf->ps.twin_on) {
        twin_free(&lf->ps.tw);
        lf->ps.twin_on = 0;
    }
    if (!on)
        return 0;
    if (!(session_caps(ss) & SESSION_CAP_STEPS)) {
        *why = "the split view starts from the spring engine (m)";
        return -1;
    }
    if (twin_init(&lf->ps.tw, session_state(ss))) {
        *why = "out of memory";
        return -1;
    }
    if (!lf->ps.tw.ok) {
        *why = lf->ps.tw.why;
        twin_free(&lf->ps.tw);
        return -1;
    }
    lf->ps.twin_on = 1;
    lf->ps.tw_actions = actions_sum(ss);
    return 0;
}

int labscreen_sync_twin(struct lab_front *lf, struct session *ss, long long max_events)
{
    if (!lf->ps.twin_on)
        return -1;
    /* A change (k, dt, e, the border, a kick, a reset, stepping back over
     * the start): both engines start again from the state now. */
    const struct sim_params *a = &lf->ps.tw.start.p, *b = &session_state(ss)->p;
    int changed = a->k != b->k || a->dt != b->dt || a->restitution != b->restitution ||
                  a->shape != b->shape || a->walls != b->walls || a->gravity != b->gravity ||
                  a->open != b->open ||
                  session_state(ss)->t < lf->ps.tw.start.t || lf->ps.tw.start.n != session_state(ss)->n;
    if (!changed && session_state(ss)->t == lf->ps.tw.start.t && session_state(ss)->t == lf->ps.tw.hard.t) {
        /* a kick at the start: the velocities differ */
        for (size_t i = 0; i < session_state(ss)->n && !changed; i++)
            changed = session_state(ss)->vx[i] != lf->ps.tw.start.vx[i] || session_state(ss)->vy[i] != lf->ps.tw.start.vy[i];
    }
    double acts = actions_sum(ss);
    changed |= acts != lf->ps.tw_actions;
    if (changed) {
        if (twin_restart(&lf->ps.tw, session_state(ss)) || !lf->ps.tw.ok)
            return -1;
        lf->ps.tw_actions = acts;
    }
    return twin_sync(&lf->ps.tw, session_state(ss)->t, max_events);
}
