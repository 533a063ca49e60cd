/*
 * event_queue.c - the event engine's calendar: one pending event per
 * record, the near ones in a binary heap ordered exactly, the later ones
 * in unsorted lists by time span.
 */
#include "event_queue.h"

#include <math.h>

/*
 * One pending event per ball, as in Smallenburg's "Single" code: a ball's
 * slot holds the earliest of its own next event (a wall or a cell crossing)
 * and the collisions it predicted. A slot's collision goes stale when its
 * partner changes course (the partner's counter moves on); the owner then
 * predicts again when the slot comes to the top. The owner itself never
 * holds a stale slot: every change of course predicts it again at once.
 *
 * The slots are kept in a calendar (after Paul, and Smallenburg's event
 * lists): the events before `lim` in a small binary heap ordered exactly,
 * the later ones in unsorted lists, one per time span of width w (about 4
 * events each), in a ring of nb lists covering a few mean times between a
 * ball's events, and the rest in an overflow list. A change of slot is
 * then O(1) for a far event (most are), and only the heap's few hundred
 * events are ever compared. Every event outside the heap is at lim or
 * later: a list is moved into the heap whole before lim passes its span
 * (an event goes one list early when not in the first, so that rounding of
 * (t - lim) / w never puts it late).
 */

enum { Q_NEAR = -1, Q_NONE = -2 };
#define Q_PER_LIST 4.0

/* near-heap order of records k and j */
static EV_INLINE int near_less(const struct event_in *ev, int32_t k, int32_t j)
{
    return ev_less(ev, k, &ev->q[k].slot, j, &ev->q[j].slot);
}

static void near_up(struct event_in *ev, size_t h, int32_t k)
{
    int32_t *nr = ev->near;
    while (h > 0) {
        size_t up = (h - 1) / 2;
        if (!near_less(ev, k, nr[up]))
            break;
        nr[h] = nr[up];
        ev->q[nr[h]].ql.pos = (int32_t)h;
        h = up;
    }
    nr[h] = k;
    ev->q[k].ql.pos = (int32_t)h;
}

static void near_down(struct event_in *ev, size_t h, int32_t k)
{
    int32_t *nr = ev->near;
    size_t n = ev->nnear;
    for (;;) {
        size_t c = 2 * h + 1;
        if (c >= n)
            break;
        if (c + 1 < n && near_less(ev, nr[c + 1], nr[c]))
            c++;
        if (!near_less(ev, nr[c], k))
            break;
        nr[h] = nr[c];
        ev->q[nr[h]].ql.pos = (int32_t)h;
        h = c;
    }
    nr[h] = k;
    ev->q[k].ql.pos = (int32_t)h;
}

/* Record k's event is among the next few dozen: its records, and its
 * partner's, are fetched into the cache meanwhile (with a million balls
 * each of them is otherwise a miss when the event comes up). */
static EV_INLINE void prefetch_event(const struct event_in *ev, int32_t k)
{
#if defined(__GNUC__)
    int32_t j = ev->q[k].slot.j;
    __builtin_prefetch(&ev->b[k], 1);
    if (ev->nl)
        __builtin_prefetch(&ev->nbr[k], 1);
    if (j >= 0) {
        __builtin_prefetch(&ev->b[j], 1);
        __builtin_prefetch(&ev->q[j], 1);
        if (ev->nl)
            __builtin_prefetch(&ev->nbr[j], 1);
    }
#else
    (void)ev;
    (void)k;
#endif
}

/* Record k's slot has changed while in the heap: move it to its place. */
static void near_fix(struct event_in *ev, int32_t k)
{
    size_t h = (size_t)ev->q[k].ql.pos;
    if (h > 0 && near_less(ev, k, ev->near[(h - 1) / 2]))
        near_up(ev, h, k);
    else
        near_down(ev, h, k);
}

static void q_unlink(struct event_in *ev, int32_t k)
{
    int32_t w = ev->q[k].ql.where;
    if (w == Q_NONE)
        return;
    if (w == Q_NEAR) {
        size_t h = (size_t)ev->q[k].ql.pos;
        int32_t last = ev->near[--ev->nnear];
        if (last != k) {
            ev->near[h] = last;
            ev->q[last].ql.pos = (int32_t)h;
            near_fix(ev, last);
        }
    } else {
        if (ev->q[k].ql.prev >= 0)
            ev->q[ev->q[k].ql.prev].ql.next = ev->q[k].ql.next;
        else
            ev->lhead[w] = ev->q[k].ql.next;
        if (ev->q[k].ql.next >= 0)
            ev->q[ev->q[k].ql.next].ql.prev = ev->q[k].ql.prev;
        if ((size_t)w == ev->nlist)
            ev->nover--;
        else
            ev->nring--;
    }
    ev->q[k].ql.where = Q_NONE;
}

static void list_push(struct event_in *ev, int32_t k, size_t w)
{
    ev->q[k].ql.where = (int32_t)w;
    ev->q[k].ql.prev = -1;
    ev->q[k].ql.next = ev->lhead[w];
    if (ev->lhead[w] >= 0)
        ev->q[ev->lhead[w]].ql.prev = k;
    ev->lhead[w] = k;
}

/* Files record k by its slot's time. */
static void q_file(struct event_in *ev, int32_t k)
{
    double t = ev->q[k].slot.t;
    if (!(t < INFINITY)) { /* never, or NaN (a state gone non-finite): no event,
                              not an overflow entry that q_top rebuilds for ever */
        ev->q[k].ql.where = Q_NONE;
    } else if (t < ev->lim) {
        ev->q[k].ql.where = Q_NEAR;
        size_t h = ev->nnear++;
        near_up(ev, h, k);
    } else {
        /* lists from the next: (t - lim) / lw, by a product (faster) */
        double x = (t - ev->lim) * ev->ilw;
        size_t m = x < (double)ev->nlist + 1 ? (size_t)x : ev->nlist + 1;
        if (m >= 1)
            m -= 1; /* one list early: rounding never files it late */
        if (m < ev->nlist) {
            size_t w = ev->lnext0 + m;
            list_push(ev, k, w < ev->nlist ? w : w - ev->nlist);
            ev->nring++;
        } else {
            list_push(ev, k, ev->nlist);
            ev->nover++;
        }
    }
}

/* Record k's new slot. */
void ev_set_slot(struct event_in *ev, int32_t k, struct event_item e)
{
    if (ev->q[k].ql.where == Q_NEAR && e.t < ev->lim) {
        ev->q[k].slot = e;
        near_fix(ev, k);
        return;
    }
    q_unlink(ev, k);
    ev->q[k].slot = e;
    q_file(ev, k);
}

/* Sizes the calendar anew from the slots: the heap starts at the earliest
 * event, the lists are Q_PER_LIST mean gaps between events wide and span
 * four mean times to a ball's next event. O(n); at init, and when the ring
 * runs empty or the overflow holds most events. */
void ev_q_rebuild(struct event_in *ev)
{
    struct ev_q_stats st = {0, 0, INFINITY};
    for (size_t k = 0; k < ev->n; k++)
        ev_q_count(ev, ev->q[k].slot.t, &st);
    ev_q_build(ev, &st);
}

void ev_q_build(struct event_in *ev, const struct ev_q_stats *st)
{
    size_t n = ev->n, live = st->live;
    double tmin = st->tmin, sum = st->sum;
    ev->nnear = ev->nring = ev->nover = 0;
    ev->lnext0 = 0;
    double tau = live ? sum / (double)live : 0;
    double nl = live ? 4 * (double)live / Q_PER_LIST : 1;
    ev->nlist = nl < 16 ? 16 : nl > (double)ev->capl ? ev->capl : (size_t)nl;
    ev->lw = 4 * tau / (double)ev->nlist;
    /* spans below the rounding of the times would never advance */
    double floor_w = (fabs(tmin) + fabs(ev->t)) * 0x1p-40;
    if (!(ev->lw > floor_w))
        ev->lw = floor_w > 0 ? floor_w : 0x1p-1000;
    ev->ilw = 1 / ev->lw;
    if (!(ev->ilw < INFINITY))
        ev->ilw = 0x1p1023;
    ev->lim = live ? tmin + ev->lw : INFINITY;
    for (size_t w = 0; w <= ev->nlist; w++)
        ev->lhead[w] = -1;
    for (size_t k = 0; k < n; k++)
        q_file(ev, (int32_t)k);
}

/* The record of the earliest event, or -1 when there is none. */
int32_t ev_q_top(struct event_in *ev)
{
    for (;;) {
        if (ev->nnear && ev->q[ev->near[0]].slot.t < ev->lim)
            return ev->near[0];
        if (ev->nring == 0) {
            if (ev->nover == 0 && ev->nnear == 0)
                return -1;
            ev_q_rebuild(ev);
            continue;
        }
        /* the next list into the heap, lim one span on */
        size_t w = ev->lnext0;
        for (int32_t k = ev->lhead[w], nx; k >= 0; k = nx) {
            nx = ev->q[k].ql.next;
            prefetch_event(ev, k);
            ev->q[k].ql.where = Q_NEAR;
            ev->nring--;
            near_up(ev, ev->nnear++, k);
        }
        ev->lhead[w] = -1;
        double lim = ev->lim + ev->lw;
        if (!(lim > ev->lim)) { /* the span is below the rounding of lim */
            ev_q_rebuild(ev);
            continue;
        }
        ev->lim = lim;
        ev->lnext0 = (w + 1) % ev->nlist;
        if (ev->lnext0 == 0 && ev->nover) {
            /* a turn of the ring: the overflow's near events into it */
            if (ev->nover > ev->n / 2) {
                ev_q_rebuild(ev);
                continue;
            }
            for (int32_t k = ev->lhead[ev->nlist], nx; k >= 0; k = nx) {
                nx = ev->q[k].ql.next;
                q_unlink(ev, k);
                q_file(ev, k);
            }
        }
    }
}
