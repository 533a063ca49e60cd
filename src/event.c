/*
 * event.c - the event-driven hard-ball engine: predictions, the queue, the
 * grid and its cell crossings.
 *
 * Prediction is canonical: a pair is always predicted from the later of its
 * two balls' own times, a wall from the ball's own time, so a prediction
 * does not depend on when it is made. Cell crossings change no trajectory
 * and no own time, so the grid and the all-pairs search compute the same
 * collisions with the same rounding.
 *
 * The balls live in records of one cache line each, sorted by cell at init
 * (a ball's neighbours are then mostly near it in memory); `id` and `at` map
 * records to ball numbers and back. Ball numbers decide the order of events
 * at equal times and the order of every sum, so the renumbering changes no
 * result.
 */
#include "event.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A ball at its own time tb: position, velocity, radius, the time of its
 * next wall (tlim), its collision counter (a prediction with it is stale
 * once the counter has moved on) and the next ball in its cell. 64 bytes. */
struct event_ball {
    double x, y, vx, vy, tb, r, tlim;
    uint32_t cnt;
    int32_t next;
};

/*
 * Balls approach when the cosine between their relative position and
 * relative velocity is below -EVENT_APPROACH, not merely below 0: rounding
 * leaves touching balls (the rack) with cosines near +-1e-16 that would
 * otherwise collide at once, forever. A grazing pair skipped so can
 * overlap by at most sigma * EVENT_APPROACH^2 / 2, 5e-21 of the contact.
 */
#define EVENT_APPROACH 1e-10

/* All pairs, no grid, up to EVENT_GRID_MIN balls at packing fraction 0.3,
 * and more in a dilute gas, where the grid's crossings cost more: up to
 * EVENT_GRID_MIN (0.3 / packing)^(1/4), at most EVENT_GRID_MAX (measured
 * crossovers: 20 balls at 0.3, 40 at 0.01, 90 at 0.001; see README). */
#define EVENT_GRID_MIN 20
#define EVENT_GRID_MAX 200

/* The inner loop's functions, inlined where the compiler allows asking. */
#if defined(__GNUC__)
#define EV_INLINE inline __attribute__((always_inline))
#else
#define EV_INLINE inline
#endif

/* Codes of single-ball events, stored as j = -1 - code. */
enum { EV_WALL_X, EV_WALL_Y, EV_WALL_CIRCLE, EV_CROSS_X, EV_CROSS_Y, EV_NLIST };

/* Neighbour lists: the skin, as a fraction of the largest diameter
 * (measured: see README), and the most neighbours a list holds. */
#define NL_SKIN 0.4
#define NL_CAP 11

/* A record's neighbour list: the centre it was built at and the records
 * within r_i + r_j + skin of it (n < 0: too many, "wide", see nl_build).
 * 64 bytes. */
struct event_nlist {
    double cx, cy;
    int32_t n;
    int32_t j[NL_CAP];
};

/* A record's place in the queue: its pending event, its earliest
 * predicted collision, its links in the calendar. 64 bytes. */
struct event_qrec {
    struct event_item slot, pair;
    struct event_link ql;
};

/* The rest of a record, one line: its mass, the time of its last
 * collision (TC model), its collisions, its ball number, its cell, how far
 * it looks (1 unless big) and the previous record in its cell. */
struct event_cold {
    double m, tlast;
    long long kcoll;
    int32_t id, cx, cy, reach, prev;
    int32_t pad[5];
};

/* Appends @p str, then the decimal @p v when with_num, at buf[*at]. */
static void put(char *buf, size_t len, size_t *at, const char *str, int with_num,
                size_t v)
{
    char num[24];
    size_t k = sizeof num;
    num[--k] = 0;
    do
        num[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k > 0);
    for (const char *c = str; *c && *at + 1 < len; c++)
        buf[(*at)++] = *c;
    for (const char *c = num + k; with_num && *c && *at + 1 < len; c++)
        buf[(*at)++] = *c;
    if (len)
        buf[*at] = 0;
}

const char *event_fault_text(char *buf, size_t len, int rc,
                             const struct event_fault *f, const struct sim *s)
{
    size_t at = 0;
    if (rc == EVENT_EOVERLAP) {
        put(buf, len, &at, "event engine: balls ", 1, sim_ball(s, f->i) + 1);
        put(buf, len, &at, " and ", 1, sim_ball(s, f->j) + 1);
        put(buf, len, &at, " overlap", 0, 0);
    } else if (rc == EVENT_EWALL) {
        put(buf, len, &at, "event engine: ball ", 1, sim_ball(s, f->i) + 1);
        put(buf, len, &at, " reaches through the wall", 0, 0);
    } else {
        put(buf, len, &at, "event engine: out of memory", 0, 0);
    }
    return buf;
}

const char *event_unsupported(const struct sim_params *p)
{
    if (p->shape == SIM_OPEN)
        return "open space";
    if (p->gravity != 0)
        return "gravity";
    if (p->contact == SIM_CONTACT_EXP)
        return "contact exp";
    if (p->friction || p->gx != 0 || p->gy != 0 || p->open)
        return p->friction ? "friction" : p->gx != 0 || p->gy != 0 ? "a field" : "open sides";
    return NULL;
}

struct event_config event_default_config(void)
{
    struct event_config c = {0};
    c.grid = 1;
    c.allow_overlap = 0;
    c.tc = -1;
    return c;
}

/* === Queue === */

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

/* The total order of events: time, then lower ball number, then partner
 * (single ball events, j < 0, first). Ties in time are rare: only they look
 * the ball numbers up. */
static int ev_tie(const struct event *ev, const struct event_item *a,
                  const struct event_item *b)
{
    int32_t ai = ev->c[a->own].id, aj = a->j, bi = ev->c[b->own].id, bj = b->j;
    if (aj >= 0) {
        aj = ev->c[aj].id;
        if (aj < ai) {
            int32_t x = ai;
            ai = aj;
            aj = x;
        }
    }
    if (bj >= 0) {
        bj = ev->c[bj].id;
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

static EV_INLINE int ev_less(const struct event *ev, const struct event_item *a,
                             const struct event_item *b)
{
    return a->t < b->t || (a->t == b->t && ev_tie(ev, a, b));
}

/* near-heap order of records k and j */
static EV_INLINE int near_less(const struct event *ev, int32_t k, int32_t j)
{
    return ev_less(ev, &ev->q[k].slot, &ev->q[j].slot);
}

static void near_up(struct event *ev, size_t h, int32_t k)
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

static void near_down(struct event *ev, size_t h, int32_t k)
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
static EV_INLINE void prefetch_event(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    int32_t j = ev->q[k].slot.j;
    __builtin_prefetch(&ev->b[k], 1);
    __builtin_prefetch(&ev->c[k], 1);
    if (j >= 0) {
        __builtin_prefetch(&ev->b[j], 1);
        __builtin_prefetch(&ev->c[j], 1);
        __builtin_prefetch(&ev->q[j], 1);
    }
#else
    (void)ev;
    (void)k;
#endif
}

/* Record k's slot has changed while in the heap: move it to its place. */
static void near_fix(struct event *ev, int32_t k)
{
    size_t h = (size_t)ev->q[k].ql.pos;
    if (h > 0 && near_less(ev, k, ev->near[(h - 1) / 2]))
        near_up(ev, h, k);
    else
        near_down(ev, h, k);
}

static void q_unlink(struct event *ev, int32_t k)
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

static void list_push(struct event *ev, int32_t k, size_t w)
{
    ev->q[k].ql.where = (int32_t)w;
    ev->q[k].ql.prev = -1;
    ev->q[k].ql.next = ev->lhead[w];
    if (ev->lhead[w] >= 0)
        ev->q[ev->lhead[w]].ql.prev = k;
    ev->lhead[w] = k;
}

/* Files record k by its slot's time. */
static void q_file(struct event *ev, int32_t k)
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
        double m = floor((t - ev->lim) / ev->lw);
        if (m >= 1)
            m -= 1; /* one list early: rounding never files it late */
        if (m < (double)ev->nlist) {
            list_push(ev, k, (ev->lnext0 + (size_t)m) % ev->nlist);
            ev->nring++;
        } else {
            list_push(ev, k, ev->nlist);
            ev->nover++;
        }
    }
}

/* Record @p e.own's new slot. */
static void set_slot(struct event *ev, struct event_item e)
{
    int32_t k = e.own;
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
static void q_rebuild(struct event *ev)
{
    size_t n = ev->n, live = 0;
    double tmin = INFINITY, sum = 0;
    for (size_t k = 0; k < n; k++) {
        double t = ev->q[k].slot.t;
        if (t < INFINITY) {
            live++;
            sum += t - ev->t;
            if (t < tmin)
                tmin = t;
        }
    }
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
    ev->lim = live ? tmin + ev->lw : INFINITY;
    for (size_t w = 0; w <= ev->nlist; w++)
        ev->lhead[w] = -1;
    for (size_t k = 0; k < n; k++)
        q_file(ev, (int32_t)k);
}

/* The earliest event, or NULL when there is none. */
static struct event_item *q_top(struct event *ev)
{
    for (;;) {
        if (ev->nnear && ev->q[ev->near[0]].slot.t < ev->lim)
            return &ev->q[ev->near[0]].slot;
        if (ev->nring == 0) {
            if (ev->nover == 0 && ev->nnear == 0)
                return NULL;
            q_rebuild(ev);
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
            q_rebuild(ev);
            continue;
        }
        ev->lim = lim;
        ev->lnext0 = (w + 1) % ev->nlist;
        if (ev->lnext0 == 0 && ev->nover) {
            /* a turn of the ring: the overflow's near events into it */
            if (ev->nover > ev->n / 2) {
                q_rebuild(ev);
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

static int stale(const struct event *ev, const struct event_item *e)
{
    return e->j >= 0 && e->cp != ev->b[e->j].cnt;
}

/* === Predictions === */

/*
 * The time two balls touch, or INFINITY. From the later own time tr of the
 * two, with relative position D and velocity V, |D + sV|^2 = sigma^2 is
 *   vv s^2 + 2 b s + c = 0,  vv = V.V, b = D.V, c = D.D - sigma^2.
 * Only an approach (b < 0) can lead to contact; then the first root is
 *   s = (-b - sqrt(b^2 - vv c)) / vv = c / (-b + sqrt(b^2 - vv c)),
 * the second form without cancellation. c <= 0 (touching or overlapping,
 * by rounding or by allow_overlap) and approaching gives s <= 0: at once.
 * Swapping p and q negates D and V exactly, so either order gives the same
 * bits.
 */
static EV_INLINE double pair_time(double now, const struct event_ball *p,
                        const struct event_ball *q)
{
    double tr = p->tb > q->tb ? p->tb : q->tb;
    double xi = p->x + (tr - p->tb) * p->vx;
    double yi = p->y + (tr - p->tb) * p->vy;
    double xj = q->x + (tr - q->tb) * q->vx;
    double yj = q->y + (tr - q->tb) * q->vy;
    double dx = xj - xi, dy = yj - yi;
    double dvx = q->vx - p->vx, dvy = q->vy - p->vy;
    double b = dx * dvx + dy * dvy;
    if (!(b < 0))
        return INFINITY;
    double vv = dvx * dvx + dvy * dvy;
    double dd = dx * dx + dy * dy;
    /* b < -EVENT_APPROACH |D| |V|, without the square root */
    if (!(b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double sig = p->r + q->r;
    double c = dd - sig * sig;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY; /* they pass each other */
    double s = c / (-b + sqrt(disc));
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > now ? t : now;
}

/* Time for coordinate q (at own time tb, speed v) to reach the wall at
 * distance r inside [0, len]: q + s v = len - r or q + s v = r. */
static double wall_axis(double q, double v, double r, double len)
{
    if (v > 0)
        return (len - r - q) / v;
    if (v < 0)
        return (r - q) / v;
    return INFINITY;
}

/*
 * The round table: the centre must stay within R - r of C. With
 * D = p - C, |D + sV|^2 = (R - r)^2 is vv s^2 + 2 b s + c = 0, c <= 0 while
 * inside; the positive root is (-b + sqrt(b^2 - vv c)) / vv, written as
 * -c / (b + sqrt(...)) when b > 0 to avoid cancellation.
 */
static double wall_circle(const struct event *ev, const struct event_ball *a)
{
    double R = 0.5 * ev->p.w, lim = R - a->r;
    double dx = a->x - R, dy = a->y - R;
    double vx = a->vx, vy = a->vy;
    double vv = vx * vx + vy * vy;
    if (!(vv > 0))
        return INFINITY;
    double b = dx * vx + dy * vy;
    double c = dx * dx + dy * dy - lim * lim;
    double disc = b * b - vv * c;
    if (disc < 0)
        disc = 0; /* outside by rounding and moving past: bounce at once */
    double s = b > 0 ? -c / (b + sqrt(disc)) : (-b + sqrt(disc)) / vv;
    return s > 0 ? s : 0;
}

/* How long after its own time ball @p a leaves the circle of radius cen_h
 * around the centre of its list @p l: |D + sV| = h with D its offset from
 * the centre at its own time (which may be before the list, outside the
 * circle), the later root of vv s^2 + 2 b s + c = 0, written as
 * c / (-b - sqrt(b^2 - vv c)) when b > 0 to avoid cancellation; 0 when
 * that is past (out by rounding). */
static double nl_leave(const struct event *ev, const struct event_ball *a,
                       const struct event_nlist *l)
{
    double dx = a->x - l->cx, dy = a->y - l->cy, vx = a->vx, vy = a->vy;
    double vv = vx * vx + vy * vy;
    if (!(vv > 0))
        return INFINITY;
    double h = ev->cen_h;
    double b = dx * vx + dy * vy, c = dx * dx + dy * dy - h * h;
    double disc = b * b - vv * c;
    if (!(disc > 0))
        disc = 0;
    double s = b > 0 ? c / (-b - sqrt(disc)) : (-b + sqrt(disc)) / vv;
    return s > 0 ? s : 0;
}

/* Record k's own next event: the first wall, and with the grid the first
 * cell crossing. Sets its tlim (the wall's time: a crossing changes no
 * course, so it bounds no prediction, and the grid and all pairs then see
 * the same collisions in the same order) and writes the event to *e. */
static void predict_own(struct event *ev, size_t k, struct event_item *e)
{
    struct event_ball *a = &ev->b[k];
    double best = INFINITY;
    int code = -1;
    double tb = a->tb;
    if (ev->p.shape == SIM_CIRCLE) {
        best = wall_circle(ev, a);
        code = EV_WALL_CIRCLE;
    } else {
        double sx = wall_axis(a->x, a->vx, a->r, ev->p.w);
        double sy = wall_axis(a->y, a->vy, a->r, ev->p.h);
        if (sx < 0) sx = 0;
        if (sy < 0) sy = 0;
        best = sx;
        code = EV_WALL_X;
        if (sy < best) {
            best = sy;
            code = EV_WALL_Y;
        }
    }
    best += tb;
    if (best < ev->t)
        best = ev->t;
    a->tlim = best;
    if (ev->grid && !ev->nl) {
        double vx = a->vx, vy = a->vy;
        double tx = INFINITY, ty = INFINITY;
        int32_t cx = ev->c[k].cx, cy = ev->c[k].cy;
        if (vx > 0 && cx + 1 < ev->nx)
            tx = tb + ((double)(cx + 1) * ev->cw - a->x) / vx;
        else if (vx < 0 && cx > 0)
            tx = tb + ((double)cx * ev->cw - a->x) / vx;
        if (vy > 0 && cy + 1 < ev->ny)
            ty = tb + ((double)(cy + 1) * ev->ch - a->y) / vy;
        else if (vy < 0 && cy > 0)
            ty = tb + ((double)cy * ev->ch - a->y) / vy;
        if (tx < best) {
            best = tx;
            code = EV_CROSS_X;
        }
        if (ty < best) {
            best = ty;
            code = EV_CROSS_Y;
        }
        if (best < ev->t)
            best = ev->t;
    } else if (ev->nl) {
        double s = nl_leave(ev, a, &ev->nbr[k]);
        if (tb + s < best) {
            best = tb + s;
            code = EV_NLIST;
        }
        if (best < ev->t)
            best = ev->t;
    }
    e->t = best;
    e->own = (int32_t)k;
    e->j = -1 - code;
    e->cp = 0;
}

/* The collision of ball @p a (record k) and record j becomes the slot
 * *best if it comes before both balls' next walls (a bounce predicts its
 * ball again, which finds the pair again) and before *best. */
static EV_INLINE void predict_pair(const struct event *ev, const struct event_ball *a,
                                size_t k, size_t j, struct event_item *best)
{
    const struct event_ball *q = &ev->b[j];
    double t = pair_time(ev->t, a, q);
    if (t <= best->t && t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)k, (int32_t)j, q->cnt};
        if (t < best->t || ev_tie(ev, &e, best))
            *best = e;
    }
}

/* The cells record k must look at: its own and reach[k] on every side,
 * clipped to the grid. */
static void cell_window(const struct event *ev, size_t k, long *x0, long *x1,
                        long *y0, long *y1)
{
    long reach = ev->c[k].reach;
    *x0 = ev->c[k].cx - reach > 0 ? ev->c[k].cx - reach : 0;
    *y0 = ev->c[k].cy - reach > 0 ? ev->c[k].cy - reach : 0;
    *x1 = ev->c[k].cx + reach < ev->nx ? ev->c[k].cx + reach : ev->nx - 1;
    *y1 = ev->c[k].cy + reach < ev->ny ? ev->c[k].cy + reach : ev->ny - 1;
}

/* Predicts the pairs of record k with every ball near enough (all of them
 * without the grid), except @p skip (its partner just now, receding: two
 * balls flying apart never meet again before one of them changes course).
 * Only small balls are in the cells; the big ones are looked at by all. */
static void predict_pairs(const struct event *ev, size_t k, size_t skip,
                          struct event_item *out)
{
    /* local copies: the compiler need not reload them after each store */
    struct event_item best = *out;
    const struct event_ball a = ev->b[k];
    if (!ev->grid) {
        for (size_t j = 0; j < ev->n; j++)
            if (j != k && j != skip)
                predict_pair(ev, &a, k, j, &best);
        *out = best;
        return;
    }
    if (ev->nl && ev->nbr[k].n >= 0) {
        const struct event_nlist *l = &ev->nbr[k];
        for (int32_t c = 0; c < l->n; c++)
            if ((size_t)l->j[c] != skip)
                predict_pair(ev, &a, k, (size_t)l->j[c], &best);
        *out = best;
        return;
    }
    long x0, x1, y0, y1;
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    const int32_t *head = ev->head;
    const struct event_ball *b = ev->b;
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++)
            for (int32_t j = head[cy * ev->nx + cx]; j >= 0; j = b[j].next)
                if ((size_t)j != k && (size_t)j != skip)
                    predict_pair(ev, &a, k, (size_t)j, &best);
    for (size_t c = 0; c < ev->nbig; c++) {
        size_t j = (size_t)ev->big[c];
        if (j != k && j != skip)
            predict_pair(ev, &a, k, j, &best);
    }
    *out = best;
}

/* Predicts record k again: its slot becomes its earliest event. */
static void predict(struct event *ev, size_t k, size_t skip)
{
    struct event_item own, pair = {INFINITY, (int32_t)k, -1, 0};
    predict_own(ev, k, &own);
    predict_pairs(ev, k, skip, &pair);
    ev->q[k].pair = pair;
    set_slot(ev, ev_less(ev, &pair, &own) ? pair : own);
}

/* Record k has crossed into the next cell along x (dx = +-1) or y: the
 * collisions it predicted stay right, the earliest of them is in pair[k],
 * so only the row or column of cells that has come into reach is new (and
 * the big balls). A stale earliest hides the next one: then all again. */
static void predict_crossed(struct event *ev, size_t k, long dx, long dy)
{
    struct event_item pair = ev->q[k].pair;
    if (ev->c[k].reach > 1 || (pair.j >= 0 && stale(ev, &pair))) {
        predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    predict_own(ev, k, &own);
    const struct event_ball a = ev->b[k];
    long cx = ev->c[k].cx + dx, cy = ev->c[k].cy + dy;
    const int32_t *head = ev->head;
    const struct event_ball *b = ev->b;
    for (long o = -1; o <= 1; o++) {
        long x = dx ? cx : cx + o, y = dy ? cy : cy + o;
        if (x < 0 || x >= ev->nx || y < 0 || y >= ev->ny)
            continue;
        for (int32_t j = head[y * ev->nx + x]; j >= 0; j = b[j].next)
            predict_pair(ev, &a, k, (size_t)j, &pair);
    }
    /* a big ball sees small ones only within its reach: each small ball
     * looks at the big ones at every move */
    for (size_t c = 0; c < ev->nbig; c++)
        predict_pair(ev, &a, k, (size_t)ev->big[c], &pair);
    ev->q[k].pair = pair;
    set_slot(ev, ev_less(ev, &pair, &own) ? pair : own);
}

/* === Grid === */

static void cell_link(struct event *ev, size_t k)
{
    if (ev->c[k].reach > 1)
        return;
    long c = (long)ev->c[k].cy * ev->nx + ev->c[k].cx;
    ev->c[k].prev = -1;
    ev->b[k].next = ev->head[c];
    if (ev->head[c] >= 0)
        ev->c[ev->head[c]].prev = (int32_t)k;
    ev->head[c] = (int32_t)k;
}

static void cell_unlink(struct event *ev, size_t k)
{
    if (ev->c[k].reach > 1)
        return;
    long c = (long)ev->c[k].cy * ev->nx + ev->c[k].cx;
    if (ev->c[k].prev >= 0)
        ev->b[ev->c[k].prev].next = ev->b[k].next;
    else
        ev->head[c] = ev->b[k].next;
    if (ev->b[k].next >= 0)
        ev->c[ev->b[k].next].prev = ev->c[k].prev;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long clamp_cell(double q, double size, long n)
{
    double c = floor(q / size);
    if (!(c >= 0))
        return 0;
    if (c >= (double)n)
        return n - 1;
    return (long)c;
}

/*
 * The cell size: at least the diameter of the largest "small" ball (one no
 * more than 4 times the median radius), so that two small balls in contact
 * are in neighbouring cells, and at least sqrt(area / n), so that there are
 * no more cells than balls. A bigger ball looks `reach` cells each side.
 * Balls numbered i are then stored in cell order: *order gets, for each
 * record k, the ball number (a counting sort, stable in ball numbers).
 */
static int grid_size(struct event *ev, const struct sim *s, int32_t *order)
{
    size_t n = ev->n;
    double rlo = INFINITY, rhi = 0;
    for (size_t i = 0; i < n; i++) {
        rlo = s->r[i] < rlo ? s->r[i] : rlo;
        rhi = s->r[i] > rhi ? s->r[i] : rhi;
    }
    double rsmall = n ? rhi : 0;
    if (rlo < rhi) { /* the median and the largest radius within 4 times it */
        double *rs = malloc(n * sizeof *rs);
        if (!rs)
            return -1;
        memcpy(rs, s->r, n * sizeof *rs);
        qsort(rs, n, sizeof *rs, cmp_double);
        double med = rs[n / 2];
        rsmall = 0;
        for (size_t a = 0; a < n && rs[a] <= 4 * med; a++)
            rsmall = rs[a];
        free(rs);
    }
    /* The spacing of the balls, sqrt(w) sqrt(h / n), not sqrt(w h / n): no
     * overflow to infinity (one cell, all pairs) on a 1e200 table, no
     * underflow to 0 (a cell per ball diameter, 1e12 of them) on a 1e-200
     * one. Cells of 3/4 of it in a dilute gas (fewer crossings against
     * fewer neighbours, measured from packing 0.01 to 0.05), of one
     * diameter from packing about 0.2 up (then the cells hold fewer than a
     * ball each); at most about 4 n cells either way. */
    double nb = (double)(n ? n : 1);
    double d = 2 * rsmall * (1 + 2e-6); /* small in grid_link, despite rounding */
    double c = 0.75 * sqrt(ev->p.w) * sqrt(ev->p.h / nb);
    if (!(c >= 1.5 * d))
        c = d;
    if (ev->nl) /* lists: neighbours' centres in the next cells */
        c = (2 * rhi + ev->skin) * (1 + 2e-6);
    double fx = floor(ev->p.w / c), fy = floor(ev->p.h / c);
    double cap = 2 * nb < 1e6 ? 2 * nb : 1e6;
    ev->nx = fx < 1 ? 1 : fx > cap ? (long)cap : (long)fx;
    ev->ny = fy < 1 ? 1 : fy > cap ? (long)cap : (long)fy;
    ev->cw = ev->p.w / (double)ev->nx;
    ev->ch = ev->p.h / (double)ev->ny;
    size_t cells = (size_t)ev->nx * (size_t)ev->ny;
    ev->head = malloc((cells + 1) * sizeof *ev->head);
    ev->big = malloc((n ? n : 1) * sizeof *ev->big);
    int32_t *cell = malloc((n ? n : 1) * sizeof *cell);
    if (!ev->head || !ev->big || !cell) {
        free(cell);
        return -1;
    }
    /* count per cell in head[], then prefix sums, then place */
    memset(ev->head, 0, (cells + 1) * sizeof *ev->head);
    for (size_t i = 0; i < n; i++) {
        long cx = clamp_cell(s->x[i], ev->cw, ev->nx);
        long cy = clamp_cell(s->y[i], ev->ch, ev->ny);
        cell[i] = (int32_t)(cy * ev->nx + cx);
        ev->head[cell[i] + 1]++;
    }
    for (size_t a = 0; a < cells; a++)
        ev->head[a + 1] += ev->head[a];
    for (size_t i = 0; i < n; i++)
        order[ev->head[cell[i]]++] = (int32_t)i;
    free(cell);
    return 0;
}

/* Links the records into their cells (grid_size has sized the grid). A
 * ball is small, in the cells, when two such balls in contact are in
 * neighbouring cells (2 r (1 + 1e-6) <= the cell); a bigger one is looked
 * at by every ball and looks `reach` cells each side for the small ones. */
static void grid_link(struct event *ev)
{
    size_t cells = (size_t)ev->nx * (size_t)ev->ny;
    memset(ev->head, 0xff, cells * sizeof *ev->head);
    double cmin = ev->cw < ev->ch ? ev->cw : ev->ch, rsmall = 0;
    for (size_t k = 0; k < ev->n; k++)
        if (2 * ev->b[k].r * (1 + 1e-6) <= cmin && ev->b[k].r > rsmall)
            rsmall = ev->b[k].r;
    ev->rsmall = rsmall;
    ev->nbig = 0;
    for (size_t k = ev->n; k-- > 0;) { /* backwards: lists in record order */
        double r = ev->b[k].r;
        ev->c[k].cx = (int32_t)clamp_cell(ev->b[k].x, ev->cw, ev->nx);
        ev->c[k].cy = (int32_t)clamp_cell(ev->b[k].y, ev->ch, ev->ny);
        ev->c[k].reach = 1;
        if (!(2 * r * (1 + 1e-6) <= cmin)) {
            double reach = floor((r + rsmall) * (1 + 1e-6) / cmin) + 1;
            ev->c[k].reach = reach > 1e6 ? 1000000 : reach < 2 ? 2 : (int32_t)reach;
        }
        cell_link(ev, k);
    }
    for (size_t k = 0; k < ev->n; k++)
        if (ev->c[k].reach > 1)
            ev->big[ev->nbig++] = (int32_t)k;
}

/* === Neighbour lists === */

/*
 * In a dense gas a ball's neighbours change slowly (Smallenburg's
 * approach): each record keeps a list of the balls within r_i + r_j + skin
 * of it, measured between the centres where the two lists were built, and
 * an event (EV_NLIST) when it has moved cen_h, just under skin / 2, from
 * its centre. Two balls not in each other's lists are more than r_i + r_j
 * apart while both stay within skin / 2 of their centres, so they cannot
 * touch before one of them builds its list again; predictions then go over
 * the 3 or 4 balls of a list instead of the 6 or 7 in 3x3 cells, and there
 * are no cell crossings. The lists are symmetric: a ball building its list
 * takes itself out of its old neighbours' lists and puts itself into its
 * new ones'. The cells (at least 2 r_max + skin wide) hold the balls by
 * their centres, so a list is built from the 3x3 cells around its centre.
 * A list that would hold more than NL_CAP balls (balls crowding, as in a
 * state taken over from the spring engine) is wide: its ball looks at
 * those cells instead, and it stays in the lists of the others.
 *
 * Like a crossing, a new list changes no course and no own time (the
 * centre is computed, the record is not drifted), so the lists give the
 * same collisions as the grid and all pairs, bit for bit.
 */

static void nl_add(struct event *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    if (l->n >= NL_CAP)
        l->n = -1;
    else if (l->n >= 0)
        l->j[l->n++] = j;
}

static void nl_drop(struct event *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    for (int32_t c = 0; c < l->n; c++)
        if (l->j[c] == j) {
            l->j[c] = l->j[--l->n];
            return;
        }
}

/* Whether records k and j, with centres in their lists, are neighbours. */
static EV_INLINE int nl_near(const struct event *ev, size_t k, size_t j)
{
    const struct event_nlist *a = &ev->nbr[k], *q = &ev->nbr[j];
    double dx = q->cx - a->cx, dy = q->cy - a->cy;
    double reach = ev->b[k].r + ev->b[j].r + ev->skin;
    return dx * dx + dy * dy < reach * reach;
}

/* Record k's list built anew around where it is now: out of its old
 * neighbours' lists, into the cell of its new centre, then every ball near
 * enough in the 3x3 cells around it into its list and it into theirs. */
static void nl_build(struct event *ev, size_t k)
{
    struct event_nlist *l = &ev->nbr[k];
    long x0, x1, y0, y1;
    const struct event_ball *b = ev->b;
    if (l->n >= 0) {
        for (int32_t c = 0; c < l->n; c++)
            nl_drop(ev, (size_t)l->j[c], (int32_t)k);
    } else {
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = b[j].next)
                    nl_drop(ev, (size_t)j, (int32_t)k);
    }
    cell_unlink(ev, k);
    const struct event_ball *a = &b[k];
    double dt = ev->t - a->tb;
    l->cx = a->x + dt * a->vx;
    l->cy = a->y + dt * a->vy;
    l->n = 0;
    ev->c[k].cx = (int32_t)clamp_cell(l->cx, ev->cw, ev->nx);
    ev->c[k].cy = (int32_t)clamp_cell(l->cy, ev->ch, ev->ny);
    cell_link(ev, k);
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++)
            for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = b[j].next)
                if ((size_t)j != k && nl_near(ev, k, (size_t)j)) {
                    nl_add(ev, k, j);
                    nl_add(ev, (size_t)j, (int32_t)k);
                }
    ev->rebuilds++;
}

/* Every record's list at init, centred where it is (grid_link has put the
 * records into the cells by position). */
static void nl_init(struct event *ev)
{
    const struct event_ball *b = ev->b;
    for (size_t k = 0; k < ev->n; k++) {
        ev->nbr[k].cx = b[k].x;
        ev->nbr[k].cy = b[k].y;
        ev->nbr[k].n = 0;
    }
    for (size_t k = 0; k < ev->n; k++) {
        long x0, x1, y0, y1;
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = b[j].next)
                    if ((size_t)j > k && nl_near(ev, k, (size_t)j)) {
                        nl_add(ev, k, j);
                        nl_add(ev, (size_t)j, (int32_t)k);
                    }
    }
}

/* === Init and checks === */

static int overlap(const struct event *ev, size_t k, size_t j)
{
    const struct event_ball *a = &ev->b[k], *q = &ev->b[j];
    double dx = q->x - a->x, dy = q->y - a->y;
    double sig = (a->r + q->r) * (1 - EVENT_TOUCH_TOL);
    return dx * dx + dy * dy < sig * sig;
}

/* Pair (k, j) as a candidate for record k's earliest collision. */
static void offer(struct event *ev, size_t k, size_t j, double t)
{
    const struct event_ball *a = &ev->b[k], *q = &ev->b[j];
    if (t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)k, (int32_t)j, q->cnt};
        if (ev_less(ev, &e, &ev->q[k].pair))
            ev->q[k].pair = e;
    }
}

struct first_pair {
    int check;       /* look for overlaps */
    size_t bi, bj;   /* the first overlapping pair in ball order so far */
};

/* Pair (k, j) at init: its collision for both, and the overlap check. */
static void init_pair(struct event *ev, size_t k, size_t j, struct first_pair *fp)
{
    if (fp->check && overlap(ev, k, j)) {
        size_t i1 = (size_t)ev->c[k].id, i2 = (size_t)ev->c[j].id;
        size_t lo = i1 < i2 ? i1 : i2, hi = i1 < i2 ? i2 : i1;
        if (lo < fp->bi || (lo == fp->bi && hi < fp->bj)) {
            fp->bi = lo;
            fp->bj = hi;
        }
    }
    double t = pair_time(ev->t, &ev->b[k], &ev->b[j]);
    offer(ev, k, j, t);
    offer(ev, j, k, t);
}

/*
 * Every record's earliest collision, each pair tried once (the times are
 * the same from either side), and with @p fp->check the first overlapping
 * pair in ball order: small balls meet the small ones in their cells, a
 * big ball meets those within its reach and the other big ones. Linear in
 * n for balls of similar sizes (all pairs without the grid).
 */
static void init_pairs(struct event *ev, struct first_pair *fp)
{
    size_t n = ev->n;
    for (size_t k = 0; k < n; k++)
        ev->q[k].pair = (struct event_item){INFINITY, (int32_t)k, -1, 0};
    for (size_t k = 0; k < n; k++) {
        if (!ev->grid) {
            for (size_t j = k + 1; j < n; j++)
                init_pair(ev, k, j, fp);
            continue;
        }
        if (ev->nl && ev->nbr[k].n >= 0) {
            /* a pair not in the lists cannot touch before a new list */
            const struct event_nlist *l = &ev->nbr[k];
            for (int32_t c = 0; c < l->n; c++)
                if ((size_t)l->j[c] > k)
                    init_pair(ev, k, (size_t)l->j[c], fp);
            continue;
        }
        int big = ev->c[k].reach > 1;
        long x0, x1, y0, y1;
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = ev->b[j].next)
                    if (big || (size_t)j > k)
                        init_pair(ev, k, (size_t)j, fp);
        if (big)
            for (size_t c = 0; c < ev->nbig; c++)
                if ((size_t)ev->big[c] > k)
                    init_pair(ev, k, (size_t)ev->big[c], fp);
    }
}

static int find_wall(const struct sim *s, struct event_fault *f)
{
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = s->y[i], r = s->r[i], tol = EVENT_TOUCH_TOL * r;
        int out;
        if (s->p.shape == SIM_CIRCLE) {
            double R = 0.5 * s->p.w, dx = x - R, dy = y - R;
            out = sqrt(dx * dx + dy * dy) > R - r + tol;
        } else {
            out = x - r < -tol || y - r < -tol || x + r > s->p.w + tol ||
                  y + r > s->p.h + tol;
        }
        if (out) {
            if (f)
                f->i = f->j = i;
            return EVENT_EWALL;
        }
    }
    return EVENT_OK;
}

/* tc and umin from the fastest ball seen at init or in a kick. */
static void set_scales(struct event *ev, double vmax)
{
    if (vmax <= ev->vref)
        return;
    ev->vref = vmax;
    ev->umin = EVENT_SLOW * vmax;
    if (ev->tc_auto)
        ev->tc = 1e-6 * ev->rmin / vmax;
}

/* Kinetic energy, summed in ball number order. */
static double kinetic(const struct event *ev)
{
    double ke = 0;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        const struct event_ball *a = &ev->b[k];
        ke += 0.5 * ev->c[k].m * (a->vx * a->vx + a->vy * a->vy);
    }
    return ke;
}

/* Brings the arrays by ball number up to date. */
static void publish(struct event *ev)
{
    for (size_t k = 0; k < ev->n; k++) {
        size_t i = (size_t)ev->c[k].id;
        ev->vx[i] = ev->b[k].vx;
        ev->vy[i] = ev->b[k].vy;
        ev->ncoll[i] = ev->c[k].kcoll;
    }
}

int event_init(struct event *ev, const struct sim *s,
               const struct event_config *cfg, struct event_fault *fault)
{
    struct event_config dc = event_default_config();
    if (!cfg)
        cfg = &dc;
    memset(ev, 0, sizeof *ev);
    if (s->n > (size_t)INT32_MAX)
        return EVENT_ENOMEM;
    if (!cfg->allow_overlap) {
        int rc = find_wall(s, fault);
        if (rc)
            return rc;
    }
    size_t n = s->n, cnt = n ? n : 1;
    ev->n = n;
    ev->p = s->p;
    ev->t = ev->t0 = s->t;
    /* A few balls: all pairs beat the grid's crossings (see README). */
    double phi = 0;
    for (size_t i = 0; i < n; i++) /* sum of pi r^2 / (w h), without overflow */
        phi += SIM_PI * (s->r[i] / s->p.w) * (s->r[i] / s->p.h);
    double few = phi > 0 ? EVENT_GRID_MIN * pow(0.3 / phi, 0.25) : EVENT_GRID_MAX;
    if (!(few >= EVENT_GRID_MIN))
        few = EVENT_GRID_MIN;
    if (few > EVENT_GRID_MAX)
        few = EVENT_GRID_MAX;
    ev->grid = cfg->grid >= 2 || (cfg->grid != 0 && (double)n > few);
    /* Neighbour lists in a dense gas of balls of similar sizes, not in a
     * field (a ball's path bends, and leaving its skin is a quartic). */
    double rlo = INFINITY, rhi = 0;
    for (size_t i = 0; i < n; i++) {
        rlo = s->r[i] < rlo ? s->r[i] : rlo;
        rhi = s->r[i] > rhi ? s->r[i] : rhi;
    }
    ev->nl = ev->grid && cfg->grid != 2 && (cfg->grid == 3 || phi >= EVENT_NL_PHI) &&
             rhi <= EVENT_NL_RATIO * rlo && s->p.gx == 0 && s->p.gy == 0;
    ev->skin = (getenv("NLSKIN") ? atof(getenv("NLSKIN")) : NL_SKIN) * 2 * rhi;
    ev->cen_h = 0.5 * ev->skin * (1 - 1e-6);
    if (ev->nl && !(ev->nbr = aligned_alloc(64, cnt * sizeof *ev->nbr)))
        ev->nl = -1;
    /* the records a line each */
    int fail = !(ev->b = aligned_alloc(64, cnt * sizeof *ev->b));
    fail |= !(ev->q = aligned_alloc(64, cnt * sizeof *ev->q));
    fail |= !(ev->c = aligned_alloc(64, cnt * sizeof *ev->c));
    fail |= !(ev->vx = malloc(cnt * sizeof *ev->vx));
    fail |= !(ev->vy = malloc(cnt * sizeof *ev->vy));
    fail |= !(ev->ncoll = calloc(cnt, sizeof *ev->ncoll));
    ev->capl = cnt + 16;
    fail |= !(ev->lhead = malloc((ev->capl + 1) * sizeof *ev->lhead));
    fail |= !(ev->at = malloc(cnt * sizeof *ev->at));
    fail |= !(ev->near = malloc(cnt * sizeof *ev->near));
    int32_t *order = malloc(cnt * sizeof *order);
    if (fail || !order || ev->nl < 0 || (ev->grid && grid_size(ev, s, order))) {
        free(order);
        event_free(ev);
        return EVENT_ENOMEM;
    }
    memset(ev->c, 0, cnt * sizeof *ev->c);
    double rmin = INFINITY, vmax = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = ev->grid ? (size_t)order[k] : k;
        ev->c[k].id = (int32_t)i;
        ev->at[i] = (int32_t)k;
        struct event_ball *a = &ev->b[k];
        a->x = s->x[i];
        a->y = s->y[i];
        a->vx = s->vx[i];
        a->vy = s->vy[i];
        a->tb = s->t;
        a->r = s->r[i];
        a->tlim = INFINITY;
        a->cnt = 0;
        a->next = -1;
        ev->c[k].m = s->m[i];
        ev->c[k].tlast = -INFINITY;
        double v = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        if (v > vmax)
            vmax = v;
        if (s->r[i] < rmin)
            rmin = s->r[i];
    }
    free(order);
    if (ev->grid)
        grid_link(ev);
    if (ev->nl)
        nl_init(ev);
    ev->rmin = rmin;
    ev->tc_auto = !(cfg->tc >= 0);
    ev->tc = ev->tc_auto ? 0 : cfg->tc;
    set_scales(ev, vmax);
    ev->ke0 = kinetic(ev);
    /* Own events first, so that every pair sees both limits; then each
     * ball's earliest collision, and the overlap check on the way. */
    for (size_t k = 0; k < n; k++)
        predict_own(ev, k, &ev->q[k].slot);
    struct first_pair fp = {!cfg->allow_overlap, n, n};
    init_pairs(ev, &fp);
    if (fp.bi < n) {
        if (fault) {
            fault->i = fp.bi;
            fault->j = fp.bj;
        }
        event_free(ev);
        return EVENT_EOVERLAP;
    }
    for (size_t k = 0; k < n; k++)
        if (ev_less(ev, &ev->q[k].pair, &ev->q[k].slot))
            ev->q[k].slot = ev->q[k].pair;
    q_rebuild(ev);
    publish(ev);
    return EVENT_OK;
}

void event_free(struct event *ev)
{
    void *p[] = {ev->b, ev->q, ev->c, ev->vx, ev->vy, ev->ncoll, ev->lhead,
                 ev->near, ev->at, ev->head, ev->big, ev->nbr};
    for (size_t a = 0; a < sizeof p / sizeof *p; a++)
        free(p[a]);
    memset(ev, 0, sizeof *ev);
}

/* === Events === */

static void drift(struct event *ev, struct event_ball *a)
{
    double dt = ev->t - a->tb;
    a->x += dt * a->vx;
    a->y += dt * a->vy;
    a->tb = ev->t;
}

/* The restitution of a collision now with normal speed |u|: e, but 1
 * within tc of either ball's last collision (TC model) and for |u| < umin
 * (as for real viscoelastic balls, e -> 1 as the impact speed -> 0). Both
 * keep inelastic collapse from stopping time; the second also keeps a
 * cooling gas from slowing down towards underflow. */
static double restitution(const struct event *ev, size_t i, size_t j, double u)
{
    double e = ev->p.restitution;
    if (e < 1 && (fabs(u) < ev->umin || ev->t - ev->c[i].tlast < ev->tc ||
                  ev->t - ev->c[j].tlast < ev->tc))
        e = 1;
    return e;
}

/*
 * Impulse along the unit normal n from i to j (records of balls numbered
 * in that order): with the normal relative velocity u = (v_j - v_i).n < 0
 * and mu = m_i m_j / (m_i + m_j), J = -(1 + e) mu u; v_i -= J/m_i n,
 * v_j += J/m_j n. Momentum is kept, the normal relative velocity becomes
 * -e u, and with e = 1 energy is kept.
 */
static void collide(struct event *ev, size_t i, size_t j)
{
    struct event_ball *p = &ev->b[i], *q = &ev->b[j];
    drift(ev, p);
    drift(ev, q);
    double dx = q->x - p->x, dy = q->y - p->y;
    double d = sqrt(dx * dx + dy * dy);
    if (d > 0) {
        double nx = dx / d, ny = dy / d;
        double u = (q->vx - p->vx) * nx + (q->vy - p->vy) * ny;
        if (u < 0) {
            double mi = ev->c[i].m, mj = ev->c[j].m;
            double J = -(1 + restitution(ev, i, j, u)) * u * (mi * mj / (mi + mj));
            p->vx -= J / mi * nx;
            p->vy -= J / mi * ny;
            q->vx += J / mj * nx;
            q->vy += J / mj * ny;
        }
    }
    ev->c[i].tlast = ev->c[j].tlast = ev->t;
    p->cnt++;
    q->cnt++;
    ev->c[i].kcoll++;
    ev->c[j].kcoll++;
    ev->collisions++;
    predict(ev, i, j);
    predict(ev, j, i);
}

static void bounce(struct event *ev, size_t k, int code)
{
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    double e = ev->p.restitution;
    if (e < 1 && ev->t - ev->c[k].tlast < ev->tc)
        e = 1;
    double m = ev->c[k].m, vx0 = a->vx, vy0 = a->vy;
    if (code == EV_WALL_X) {
        a->vx = -(fabs(vx0) < ev->umin ? 1 : e) * vx0;
    } else if (code == EV_WALL_Y) {
        a->vy = -(fabs(vy0) < ev->umin ? 1 : e) * vy0;
    } else {
        /* Reflect the outward normal component: v -= (1 + e)(v.n) n. */
        double R = 0.5 * ev->p.w, dx = a->x - R, dy = a->y - R;
        double d = sqrt(dx * dx + dy * dy);
        if (d > 0) {
            double nx = dx / d, ny = dy / d;
            double u = a->vx * nx + a->vy * ny;
            if (u > 0) {
                if (u < ev->umin)
                    e = 1;
                a->vx -= (1 + e) * u * nx;
                a->vy -= (1 + e) * u * ny;
            }
        }
    }
    ev->wall_px += m * (a->vx - vx0);
    ev->wall_py += m * (a->vy - vy0);
    ev->c[k].tlast = ev->t;
    a->cnt++;
    ev->walls++;
    predict(ev, k, (size_t)-1);
}

static void cross(struct event *ev, size_t k, int code)
{
    cell_unlink(ev, k);
    long dx = 0, dy = 0;
    if (code == EV_CROSS_X)
        dx = ev->b[k].vx > 0 ? 1 : -1;
    else
        dy = ev->b[k].vy > 0 ? 1 : -1;
    ev->c[k].cx += (int32_t)dx;
    ev->c[k].cy += (int32_t)dy;
    cell_link(ev, k);
    /* No trajectory changes: the collisions others predicted with k stay
     * valid, and so do k's own. */
    ev->crossings++;
    predict_crossed(ev, k, dx, dy);
}

/* Record k has moved cen_h from the centre of its list: a new list, and
 * its predictions over it (no course changes). */
static void renew(struct event *ev, size_t k)
{
    struct event_nlist old = ev->nbr[k];
    nl_build(ev, k);
    /* As after a crossing: the earliest collision over the old list is in
     * pair[k] (unless stale), so only the new neighbours are predicted. */
    struct event_item pair = ev->q[k].pair;
    const struct event_nlist *l = &ev->nbr[k];
    if (old.n < 0 || l->n < 0 || (pair.j >= 0 && stale(ev, &pair))) {
        predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    predict_own(ev, k, &own);
    const struct event_ball a = ev->b[k];
    for (int32_t c = 0; c < l->n; c++) {
        int32_t j = l->j[c], o = 0;
        while (o < old.n && old.j[o] != j)
            o++;
        if (o == old.n)
            predict_pair(ev, &a, k, (size_t)j, &pair);
    }
    ev->q[k].pair = pair;
    set_slot(ev, ev_less(ev, &pair, &own) ? pair : own);
}

/* The 3x3 cells around record k (its head entries), into the cache. */
static EV_INLINE void prefetch_window(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    long cx = ev->c[k].cx, cy = ev->c[k].cy;
    for (long y = cy - 1; y <= cy + 1; y++)
        if (y >= 0 && y < ev->ny)
            __builtin_prefetch(&ev->head[y * ev->nx + cx]);
#else
    (void)ev;
    (void)k;
#endif
}

/* The first ball in each of the 3x3 cells around record k into the cache
 * at once, rather than one after the other as the walk reaches them. */
static EV_INLINE void prefetch_records(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    long x0, x1, y0, y1;
    cell_window(ev, (size_t)k, &x0, &x1, &y0, &y1);
    for (long y = y0; y <= y1; y++)
        for (long x = x0; x <= x1; x++) {
            int32_t j = ev->head[y * ev->nx + x];
            if (j >= 0)
                __builtin_prefetch(&ev->b[j]);
        }
#else
    (void)ev;
    (void)k;
#endif
}

/* The neighbours of the event's balls, before its work begins. */
static EV_INLINE void prefetch_balls(const struct event *ev, const struct event_item *e)
{
    if (!ev->grid || ev->nl || ev->n < 100000)
        return;
    prefetch_records(ev, e->own);
    if (e->j >= 0)
        prefetch_records(ev, e->j);
}

/* The next event is most likely one of the two below the heap's top:
 * the cells around their balls into the cache (with a million balls each
 * row of cells is otherwise a miss). */
static EV_INLINE void prefetch_cells(const struct event *ev)
{
    if (!ev->grid || ev->n < 100000)
        return;
    for (size_t h = 1; h <= 2 && h < ev->nnear; h++) {
        int32_t k = ev->near[h], j = ev->q[k].slot.j;
        prefetch_window(ev, k);
        if (j >= 0)
            prefetch_window(ev, j);
    }
}

/* The engine's loop: events with t <= T, at most max physical ones (<= 0:
 * no limit). Returns 1 when the queue holds nothing more up to T, 0 when the
 * budget ran out. *done counts the physical events. */
static int run(struct event *ev, double T, long long max, long long *done)
{
    *done = 0;
    for (;;) {
        struct event_item *top = q_top(ev);
        if (!top || !(top->t <= T))
            break;
        struct event_item e = *top;
        prefetch_cells(ev);
        prefetch_balls(ev, &e);
        if (stale(ev, &e)) {
            predict(ev, (size_t)e.own, (size_t)-1);
            continue;
        }
        int code = e.j < 0 ? -1 - e.j : -1;
        int physical = code < EV_CROSS_X;
        ev->t = e.t;
        if (code < 0) {
            size_t i = (size_t)e.own, j = (size_t)e.j;
            if (ev->c[j].id < ev->c[i].id)
                collide(ev, j, i);
            else
                collide(ev, i, j);
        } else if (physical) {
            bounce(ev, (size_t)e.own, code);
        } else if (code == EV_NLIST) {
            renew(ev, (size_t)e.own);
        } else {
            cross(ev, (size_t)e.own, code);
        }
        *done += physical;
        if (physical && max > 0 && *done >= max)
            return 0;
    }
    return 1;
}

int event_advance(struct event *ev, double T, long long max_events)
{
    long long done;
    int rc = run(ev, T, max_events, &done);
    if (rc == 1 && T > ev->t)
        ev->t = T;
    publish(ev);
    return rc;
}

long long event_step(struct event *ev, long long count)
{
    long long done;
    if (count <= 0)
        return 0;
    run(ev, INFINITY, count, &done);
    publish(ev);
    return done;
}

void event_kick(struct event *ev, size_t i, double vx, double vy)
{
    size_t k = (size_t)ev->at[i];
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    /* The reference energy of de moves by the kick's work. */
    double v0 = a->vx * a->vx + a->vy * a->vy;
    ev->ke0 += 0.5 * ev->c[k].m * (vx * vx + vy * vy - v0);
    a->vx = vx;
    a->vy = vy;
    set_scales(ev, sqrt(vx * vx + vy * vy));
    a->cnt++;
    predict(ev, k, (size_t)-1);
    publish(ev);
}

void event_position(const struct event *ev, size_t i, double *x, double *y)
{
    const struct event_ball *a = &ev->b[ev->at[i]];
    double dt = ev->t - a->tb;
    *x = a->x + dt * a->vx;
    *y = a->y + dt * a->vy;
}

void event_to_sim(const struct event *ev, struct sim *s)
{
    for (size_t i = 0; i < ev->n; i++) {
        const struct event_ball *a = &ev->b[ev->at[i]];
        event_position(ev, i, &s->x[i], &s->y[i]);
        s->vx[i] = a->vx;
        s->vy[i] = a->vy;
    }
    s->t = ev->t;
}

void event_diag(const struct event *ev, struct event_diag *d)
{
    memset(d, 0, sizeof *d);
    d->collisions = ev->collisions;
    d->walls = ev->walls;
    d->crossings = ev->crossings;
    d->rebuilds = ev->rebuilds;
    d->events = ev->collisions + ev->walls;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        if (ev->c[k].kcoll > d->max_ball)
            d->max_ball = ev->c[k].kcoll;
        d->px += ev->c[k].m * ev->b[k].vx;
        d->py += ev->c[k].m * ev->b[k].vy;
    }
    double n = (double)ev->n;
    d->per_ball = ev->n ? 2.0 * (double)ev->collisions / n : 0;
    d->mft = ev->collisions ? n * (ev->t - ev->t0) / (2.0 * (double)ev->collisions)
                            : INFINITY;
    d->ke = kinetic(ev);
    d->ke0 = ev->ke0;
    d->de = ev->ke0 > 0 ? (d->ke - ev->ke0) / ev->ke0 : 0;
    d->wall_px = ev->wall_px;
    d->wall_py = ev->wall_py;
    d->heap = ev->nnear + ev->nring + ev->nover;
}
