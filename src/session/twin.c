/*
 * twin.c - both engines on one scene, time-locked (see twin.h).
 */
#include "twin.h"

#include <string.h>

/* Builds the event engine from the start. */
static int build(struct twin *tw)
{
    event_free(&tw->ev);
    tw->ok = 0;
    tw->why = event_unsupported(&tw->start.p);
    if (tw->why)
        return 0;
    struct event_config cfg = event_default_config();
    cfg.allow_overlap = 1; /* a state the spring engine has pressed together */
    if (event_init(&tw->ev, &tw->start, &cfg, NULL) != EVENT_OK) {
        memset(&tw->ev, 0, sizeof tw->ev);
        tw->why = "out of memory";
        return -1;
    }
    tw->ok = 1;
    sim_copy(&tw->hard, &tw->start);
    return 0;
}

int twin_init(struct twin *tw, const struct sim *s)
{
    memset(tw, 0, sizeof *tw);
    if (sim_init(&tw->start, s->n, &s->p))
        return -1;
    if (sim_init(&tw->hard, s->n, &s->p)) {
        sim_free(&tw->start);
        return -1;
    }
    sim_copy(&tw->start, s);
    sim_copy(&tw->hard, s);
    if (build(tw)) {
        twin_free(tw);
        return -1;
    }
    return 0;
}

void twin_free(struct twin *tw)
{
    event_free(&tw->ev);
    sim_free(&tw->start);
    sim_free(&tw->hard);
    memset(tw, 0, sizeof *tw);
}

int twin_restart(struct twin *tw, const struct sim *s)
{
    /* sim_assign: a live edit may have changed the number of balls */
    if (sim_assign(&tw->start, s) || sim_assign(&tw->hard, s))
        return -1;
    return build(tw);
}

int twin_sync(struct twin *tw, double t, long long max_events)
{
    if (!tw->ok)
        return -1;
    if (t < tw->ev.t) {
        if (build(tw))
            return -1;
        tw->rebuilds++;
        if (!tw->ok)
            return -1;
    }
    int rc = event_advance(&tw->ev, t, max_events);
    if (rc < 0) {
        event_free(&tw->ev);
        tw->ok = 0;
        tw->why = "out of memory";
        return -1;
    }
    event_to_sim(&tw->ev, &tw->hard);
    return rc;
}
