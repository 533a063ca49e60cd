/*
 * event_queue.h - the calendar of the event engine's pending events (see
 * event_queue.c): the total order of events, filing a record's slot, and
 * the earliest event. Private to the engine.
 */
#ifndef EVENT_QUEUE_H
#define EVENT_QUEUE_H

#include "event_impl.h"

#include <math.h>

/// Record @p k's slot becomes @p e, filed in the calendar.
void ev_set_slot(struct event_in *ev, int32_t k, struct event_item e);

/// Sizes the calendar anew from every record's slot and files them all.
void ev_q_rebuild(struct event_in *ev);

/// What the calendar is sized by: the slots' count of events, the sum of
/// their times from now and the earliest, gathered in record order.
struct ev_q_stats {
    size_t live;
    double sum, tmin;
};

/// A slot's time @p t into @p st (records in order, so that the sum
/// rounds as ev_q_rebuild's).
static inline void ev_q_count(const struct event_in *ev, double t, struct ev_q_stats *st)
{
    if (t < INFINITY) {
        st->live++;
        st->sum += t - ev->t;
        if (t < st->tmin)
            st->tmin = t;
    }
}

/// As ev_q_rebuild, with the slots already counted into @p st (start-up
/// counts them as it sets them).
void ev_q_build(struct event_in *ev, const struct ev_q_stats *st);

/// The record of the earliest event, or -1 when there is none.
int32_t ev_q_top(struct event_in *ev);

/* The total order of events: time, then lower ball number, then partner
 * (single ball events, j < 0, first). Ties in time are rare: only they look
 * the ball numbers up. */
EV_LOCAL int ev_tie(const struct event_in *ev, int32_t ka, const struct event_item *a,
                    int32_t kb, const struct event_item *b)
{
    int32_t ai = ev->q[ka].id, aj = a->j, bi = ev->q[kb].id, bj = b->j;
    if (aj >= 0) {
        aj = ev->q[aj].id;
        if (aj < ai) {
            int32_t x = ai;
            ai = aj;
            aj = x;
        }
    }
    if (bj >= 0) {
        bj = ev->q[bj].id;
        if (bj < bi) {
            int32_t x = bi;
            bi = bj;
            bj = x;
        }
    }
    if (ai != bi)
        return ai < bi;
    return aj < bj;
}

static EV_INLINE int ev_less(const struct event_in *ev, int32_t ka,
                             const struct event_item *a, int32_t kb,
                             const struct event_item *b)
{
    return a->t < b->t || (a->t == b->t && ev_tie(ev, ka, a, kb, b));
}

/* Whether collision e was predicted before its partner changed course
 * (its counter has moved on since). */
static inline int stale(const struct event_in *ev, const struct event_item *e)
{
    return e->j >= 0 && e->cp != ev->b[e->j].cnt;
}

#endif
