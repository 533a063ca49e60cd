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
#include "mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A ball at its own time tb: position, velocity, radius, the time of its
 * next wall (tlim), its collision counter (a prediction with it is stale
 * once the counter has moved on) and the next ball in its cell's list of
 * more (see struct event_cell). 64 bytes. */
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

/* From this many balls the records of coming events are prefetched
 * (measured: see README). */
#ifndef EV_PREFETCH_MIN
#define EV_PREFETCH_MIN 100000
#endif

/* The inner loop's functions, inlined where the compiler allows asking. */
#if defined(__GNUC__)
#define EV_INLINE inline __attribute__((always_inline))
#else
#define EV_INLINE inline
#endif

/* Codes of single-ball events, stored as j = -1 - code: a wall along x or
 * y (the velocity's sign tells which), the round table's, and in a field
 * the low wall (x = r, y = r; EV_WALL_X and _Y are then the high ones); a
 * crossing into the next cell along x or y (the velocity tells the way on
 * a straight path), and in a field up (P) or down (L). Walls come first
 * (code < EV_CROSS_X is a physical event). */
enum {
    EV_WALL_X, EV_WALL_Y, EV_WALL_CIRCLE, EV_WALL_XL, EV_WALL_YL,
    EV_CROSS_X, EV_CROSS_Y, EV_CROSS_XP, EV_CROSS_XL, EV_CROSS_YP, EV_CROSS_YL,
    EV_NLIST /* a new neighbour list (see nl_build) */
};

/* A cell holds its first EV_CELL_CAP balls in place and any more in a
 * list (more[cell], linked through next and prev): the 3x3 cells around a
 * ball are read at once, not one ball after the other, and a cell rarely
 * holds more (one diameter wide, or 3/4 of the mean spacing in a dilute
 * gas, it holds fewer than one ball on average; with neighbour lists, 2.8
 * radii wide, about two in a near-solid; see grid_size). 16 bytes. */
#define EV_CELL_CAP 3
struct event_cell {
    int32_t n, j[EV_CELL_CAP];
};
_Static_assert(EV_CELL_CAP == 3, "grid_link's empty cell has three places");

/* The grid has a border of empty cells all round, so that the 3x3 cells
 * around any cell are all there: cell (cx, cy), -1 <= cx <= nx, is at
 * (cy + 1) (nx + 2) + cx + 1. */
static EV_INLINE long cell_at(const struct event *ev, long cx, long cy)
{
    return (cy + 1) * (ev->nx + 2) + cx + 1;
}

/* The balls of cell c, one per call, -1 after the last:
 *     for (int32_t it = 0, j; (j = cell_step(ev, c, &it)) >= 0;)
 * (it: the next place in the cell, or -2 - the last ball of its list). */
static EV_INLINE int32_t cell_step(const struct event *ev, long c, int32_t *it)
{
    const struct event_cell *cl = &ev->cell[c];
    int32_t i = *it, j;
    if (i >= 0 && i < cl->n && i < EV_CELL_CAP) {
        *it = i + 1;
        return cl->j[i];
    }
    if (i >= 0)
        j = cl->n > EV_CELL_CAP ? ev->more[c] : -1;
    else
        j = ev->b[-2 - i].next;
    *it = -2 - j;
    return j;
}

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

/* What a record's own events need but its neighbours' predictions do
 * not, one line: its pending event, its earliest predicted collision, its
 * links in the calendar, its ball number, its cell and how far it looks
 * (1 unless big). 64 bytes. */
struct event_qrec {
    struct event_item slot, pair;
    struct event_link ql;
    int32_t id, cx, cy, reach;
};

/* The rest of a record, read at its collisions only with unequal masses
 * or restitution: its mass, the time of its last collision (TC model), and
 * at its bounces and kicks: how many of its counter's steps were not
 * collisions, and how often the counter has wrapped (its collisions are
 * then the rest, see kcoll); and the previous record in its cell's list of
 * more. 32 bytes. */
struct event_cold {
    double m, tlast;
    long long other;
    uint32_t hi;
    int32_t prev;
};

/* Counters start this short of their wrap (as the Linux kernel's jiffies
 * do), so that every run goes through it: a ball's collisions are then
 * counted right past 2^32 steps, a long run's, by the same code. The
 * stale test compares counters for equality only. */
#define EV_CNT0 0xffffff00u

/* n elements of @p size for the engine's arrays (64-byte aligned, on huge
 * pages where the program asked, see mem.h), or NULL. */
static void *array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return mem_alloc(n * size);
}

/* Record k's counter one on (a collision, a bounce or a kick): the cold
 * record hears of it only when it wraps. */
static EV_INLINE void count(struct event *ev, size_t k)
{
    if (++ev->b[k].cnt == 0)
        ev->c[k].hi++;
}

/* Record k's counter one on for a bounce or a kick (not a collision). */
static void count_other(struct event *ev, size_t k)
{
    count(ev, k);
    ev->c[k].other++;
}

/* Record k's collisions: its counter's steps but the others. */
static long long kcoll(const struct event *ev, size_t k)
{
    uint64_t steps = ((uint64_t)ev->c[k].hi << 32) + ev->b[k].cnt;
    return (long long)(steps - (uint64_t)ev->c[k].other);
}

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
    if (p->friction == SIM_FRICTION_DRAG)
        return "friction drag (quadratic drag has no closed-form meeting time)";
    if (p->friction && (p->gx != 0 || p->gy != 0))
        return "friction with a field";
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
static int ev_tie(const struct event *ev, int32_t ka, const struct event_item *a,
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

static EV_INLINE int ev_less(const struct event *ev, int32_t ka,
                             const struct event_item *a, int32_t kb,
                             const struct event_item *b)
{
    return a->t < b->t || (a->t == b->t && ev_tie(ev, ka, a, kb, b));
}

/* near-heap order of records k and j */
static EV_INLINE int near_less(const struct event *ev, int32_t k, int32_t j)
{
    return ev_less(ev, k, &ev->q[k].slot, j, &ev->q[j].slot);
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
static void set_slot(struct event *ev, int32_t k, struct event_item e)
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
static int32_t q_top(struct event *ev)
{
    for (;;) {
        if (ev->nnear && ev->q[ev->near[0]].slot.t < ev->lim)
            return ev->near[0];
        if (ev->nring == 0) {
            if (ev->nover == 0 && ev->nnear == 0)
                return -1;
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

/* === Paths === */

/*
 * Between events a ball moves as its law says, from its state at its own
 * time tb: straight at constant speed; on a parabola in a field; or, with
 * friction, along the straight line of its velocity, slowing: linear drag
 * (dv/dt = -c v) has covered v (1 - e^(-c s)) / c after s and moves at
 * v e^(-c s); rolling friction (|v| falls at the rate A) has covered
 * v (s - A s^2 / 2|v|) and moves at v (1 - A s / |v|) until it stops at
 * s = |v| / A, where it stays. So with friction a position is x + v k(s),
 * k the path factor: every straight-line prediction (walls, the round
 * table, cell crossings) is made in k and turned into time by path_time.
 */
static void path_factors(const struct event *ev, const struct event_ball *a, double s,
                         double *k, double *m)
{
    if (ev->fric == SIM_FRICTION_LINEAR) {
        *m = exp(-ev->fc * s);
        *k = -expm1(-ev->fc * s) / ev->fc;
    } else if (ev->fric == SIM_FRICTION_ROLLING) {
        double w = sqrt(a->vx * a->vx + a->vy * a->vy), A = ev->fc;
        if (!(w > 0)) {
            *k = 0;
            *m = 0;
            return;
        }
        double stop = w / A;
        if (s >= stop) { /* at rest, where it stopped */
            *k = 0.5 * stop;
            *m = 0;
        } else {
            *k = s - A * s * s / (2 * w);
            *m = (w - A * s) / w;
        }
    } else {
        *k = s;
        *m = 1;
    }
}

/* The time s >= 0 at which ball a's path factor reaches k (a distance at
 * its speed at tb), INFINITY when it stops first: the inverse of
 * path_factors' k. Without friction, k itself. */
static double path_time(const struct event *ev, const struct event_ball *a, double k)
{
    if (!ev->fric || !(k > 0) || !(k < INFINITY))
        return k;
    if (ev->fric == SIM_FRICTION_LINEAR) {
        double ck = ev->fc * k;
        return ck < 1 ? -log1p(-ck) / ev->fc : INFINITY;
    }
    /* s - A s^2 / 2w = k: s = 2k / (1 + sqrt(1 - 2Ak/w)), no cancellation */
    double w = sqrt(a->vx * a->vx + a->vy * a->vy);
    double x = 2 * ev->fc * k / w;
    return x <= 1 ? 2 * k / (1 + sqrt(1 - x)) : INFINITY;
}

/* Ball a's position and velocity at time t >= its own time. */
static void ball_at(const struct event *ev, const struct event_ball *a, double t,
                    double *x, double *y, double *vx, double *vy)
{
    double dt = t - a->tb;
    if (ev->field) {
        *x = a->x + dt * (a->vx + 0.5 * ev->gx * dt);
        *y = a->y + dt * (a->vy + 0.5 * ev->gy * dt);
        *vx = a->vx + ev->gx * dt;
        *vy = a->vy + ev->gy * dt;
    } else if (ev->fric) {
        double k, m, ux = a->vx, uy = a->vy;
        path_factors(ev, a, dt, &k, &m);
        *x = a->x + k * ux;
        *y = a->y + k * uy;
        *vx = m * ux;
        *vy = m * uy;
    } else {
        *x = a->x + dt * a->vx;
        *y = a->y + dt * a->vy;
        *vx = a->vx;
        *vy = a->vy;
    }
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
/* The time two balls touch from tr, given their relative position D and
 * velocity V then (see above), not before now; INFINITY when they do not.
 * With tr = 0 and now = -INFINITY: the root s itself (0 when touching or
 * overlapping and approaching). Inlined, so the plain pair_time returns
 * at once for the most pairs, the receding ones. */
/* straight_time for a pair whose D.V or |D|^2 leaves the normal numbers
 * (lengths times speeds beyond about 2^500 or below 2^-500: D.V squared
 * would overflow to a contact at once, at a distance, or underflow and
 * lose its relative rounding). D and sigma are scaled by 2^-p and V by
 * 2^-q, exactly (powers of two), so that the largest of each is about 1;
 * the root then scales back by 2^(p - q). */
static double straight_time_wide(double dx, double dy, double dvx, double dvy, double sig,
                                 double tr, double now)
{
    double m = fmax(fmax(fabs(dx), fabs(dy)), fabs(sig)), w = fmax(fabs(dvx), fabs(dvy));
    int p = 0, q = 0;
    if (m > 0 && m < INFINITY)
        frexp(m, &p);
    if (w > 0 && w < INFINITY)
        frexp(w, &q);
    dx = ldexp(dx, -p);
    dy = ldexp(dy, -p);
    sig = ldexp(sig, -p);
    dvx = ldexp(dvx, -q);
    dvy = ldexp(dvy, -q);
    double b = dx * dvx + dy * dvy;
    if (!(b < 0))
        return INFINITY;
    double dd = dx * dx + dy * dy, vv = dvx * dvx + dvy * dvy;
    if (!(b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double c = dd - sig * sig;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY;
    double s = ldexp(c / (-b + sqrt(disc)), p - q);
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > now ? t : now;
}

static EV_INLINE double straight_time(double dx, double dy, double dvx, double dvy,
                                      double sig, double tr, double now, double lim)
{
    double b = dx * dvx + dy * dvy;
    if (!(b < 0))
        return INFINITY;
    double dd = dx * dx + dy * dy;
    /* below, squares of D.V and of lengths stay normal numbers, whose
     * rounding is relative; beyond, the same in scaled units */
    if (!(b < -0x1p-500 && b > -0x1p500 && dd < 0x1p1000))
        return straight_time_wide(dx, dy, dvx, dvy, sig, tr, now);
    double c = dd - sig * sig;
    /* s >= c / (-2 b) (when c > 0): so past lim, by far more than the
     * rounding, it cannot come first (no square root, no division). Asked
     * for (lim finite) in the grid's windows, where it pays. It needs the
     * bound a normal number, far from the subnormals where the margin
     * would be lost; otherwise the pair is timed in full. */
    if (lim < INFINITY) {
        double span = (lim - tr) * (1 + 0x1p-30) + (fabs(lim) + fabs(tr)) * 0x1p-40;
        double bound = -2 * b * span;
        if (span > 0x1p-900 && bound > 0x1p-1000 && c > bound)
            return INFINITY;
    }
    double vv = dvx * dvx + dvy * dvy;
    /* b < -EVENT_APPROACH |D| |V|, without the square root */
    if (!(b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY; /* they pass each other */
    double s = c / (-b + sqrt(disc));
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > now ? t : now;
}

static double straight_root(double dx, double dy, double dvx, double dvy, double sig)
{
    return straight_time(dx, dy, dvx, dvy, sig, 0, -INFINITY, INFINITY);
}

static double pair_time_general(const struct event *ev, const struct event_ball *p,
                                const struct event_ball *q);

/* The plain pair time (straight paths), with the bound @p lim (see
 * straight_time). @p now: p's own time is the present (it has just
 * collided or bounced), so it is the later of the two (every own time is
 * at or before the present) and p's position there its own: a constant,
 * which the compiler takes out of a loop over q. */
static EV_INLINE double plain_time(const struct event *ev, const struct event_ball *p,
                                   const struct event_ball *q, double lim, int now)
{
    double tr = now ? p->tb : p->tb > q->tb ? p->tb : q->tb;
    double xi = p->x + (tr - p->tb) * p->vx;
    double yi = p->y + (tr - p->tb) * p->vy;
    double xj = q->x + (tr - q->tb) * q->vx;
    double yj = q->y + (tr - q->tb) * q->vy;
    return straight_time(xj - xi, yj - yi, q->vx - p->vx, q->vy - p->vy, p->r + q->r, tr,
                         ev->t, lim);
}

/* The time of the next contact of p and q (see above), or INFINITY.
 * @p general: ev->general, a constant where the callers are expanded
 * twice (predict_pairs), so that the plain loop tests nothing more. */
static EV_INLINE double pair_time(const struct event *ev, const struct event_ball *p,
                                  const struct event_ball *q, int general, double lim)
{
    if (general) /* a field or friction */
        return pair_time_general(ev, p, q);
    return plain_time(ev, p, q, lim, 0);
}

/* Time for coordinate q (at own time tb, speed v) to reach the wall at
 * distance r inside [0, len]: q + s v = len - r or q + s v = r; none on an
 * open side. The sign of v tells which. */
static EV_INLINE double wall_axis(double q, double v, double r, double len, int open_lo,
                                  int open_hi)
{
    if (v > 0)
        return open_hi ? INFINITY : (len - r - q) / v;
    if (v < 0)
        return open_lo ? INFINITY : (r - q) / v;
    return INFINITY;
}

/* sqrt(v^2 - 4 a c), -1 when that is negative, NAN from NAN; scaled when
 * the squares overflow (speeds near 1e300: the engine must not then take
 * a far wall for a near one). */
static double sqrt_disc(double v, double a, double c)
{
    double d = v * v - 4 * a * c;
    if (isnan(d) || isinf(d)) {
        double f = 2 * sqrt(fabs(a)) * sqrt(fabs(c));
        double m = fabs(v) > f ? fabs(v) : f;
        if (isnan(m) || isinf(m) || m == 0)
            return NAN;
        double u = v / m;
        d = u * u - (4 * a / m) * (c / m);
        return d >= 0 ? m * sqrt(d) : d < 0 ? -1 : NAN;
    }
    return d >= 0 ? sqrt(d) : -1;
}

/*
 * In the field a coordinate moves as q + v s + a s^2 (a = g/2). The first
 * s >= 0 at which it reaches a bound above it, given c = q - bound: with
 * v > 0 the first root of a s^2 + v s + c, -2c / (v + sqrt(v^2 - 4ac))
 * without cancellation (none when it turns back first); moving away
 * (v <= 0) but pushed back (a > 0), the later root (-v + sqrt(...)) / 2a,
 * the return. Past the bound already (c > 0: by rounding, just after
 * crossing it, or pressed into a wall from the spring engine): 0 when
 * moving on out, the return when moving back in, and 0 when it cannot get
 * back in. A bound below is the same with q, v and a negated.
 */
static double rise_time(double c, double v, double a)
{
    if (v > 0) {
        if (!(c < 0))
            return 0;
        double sq = sqrt_disc(v, a, c);
        if (!(sq >= 0))
            return INFINITY; /* turns back first */
        return -2 * c / (v + sq);
    }
    if (!(a > 0))
        return INFINITY;
    double sq = sqrt_disc(v, a, c);
    if (isnan(sq))
        return INFINITY;
    if (sq < 0)
        return 0;
    return (-v + sq) / (2 * a);
}

/* wall_axis in the field g along the axis. */
static double wall_axis_field(double q, double v, double g, double r, double len,
                              int open_lo, int open_hi, int *low)
{
    double hi = open_hi ? INFINITY : rise_time(q - (len - r), v, 0.5 * g);
    double lo = open_lo ? INFINITY : rise_time(r - q, -v, -0.5 * g);
    *low = lo < hi;
    return lo < hi ? lo : hi;
}

/* In the field: from coordinate q with speed v now, the time to leave
 * cell c of n (of width size) through a boundary inside the grid; *low
 * tells which. Crossings change no course, so they are timed from now,
 * where the ball is in its cell up to rounding. */
static double cross_axis_field(double q, double v, double g, long c, double size,
                               long n, int *low)
{
    double hi = c + 1 < n ? rise_time(q - (double)(c + 1) * size, v, 0.5 * g) : INFINITY;
    double lo = c > 0 ? rise_time((double)c * size - q, -v, -0.5 * g) : INFINITY;
    *low = lo < hi;
    return lo < hi ? lo : hi;
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

/* The quartic f(s) = c[4] s^4 + ... + c[0] and its derivative. */
static double quartic(const double c[5], double s)
{
    return (((c[4] * s + c[3]) * s + c[2]) * s + c[1]) * s + c[0];
}

static double quartic_d(const double c[5], double s)
{
    return ((4 * c[4] * s + 3 * c[3]) * s + 2 * c[2]) * s + c[1];
}

/* A root of g in [lo, hi] where g(lo) <= 0 < g(hi) (up) or g(lo) >= 0 >
 * g(hi) (down), by bisection down to neighbouring doubles: the first s
 * with g(s) past 0, so that the ball is at or just past the wall. */
static double bisect(const double c[5], int deriv, double lo, double hi)
{
    int up = (deriv ? quartic_d(c, hi) : quartic(c, hi)) > 0;
    for (int it = 0; it < 2200; it++) {
        double mid = lo + 0.5 * (hi - lo);
        if (!(mid > lo && mid < hi))
            break;
        double v = deriv ? quartic_d(c, mid) : quartic(c, mid);
        if ((v > 0) == up)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* From lo, where g <= 0, on the last piece (g ends positive): an s
 * where g > 0, by doubling the step from @p scale (INFINITY when none is
 * found before overflow). */
static double grow(const double c[5], int deriv, double lo, double scale)
{
    double step = lo > scale ? lo : scale;
    for (int it = 0; it < 2100; it++, step *= 2) {
        double hi = lo + step;
        if (!(hi < INFINITY))
            break;
        if ((deriv ? quartic_d(c, hi) : quartic(c, hi)) > 0)
            return hi;
    }
    return INFINITY;
}

/*
 * The round table in a field: the centre at D + V s + A s^2 from the
 * table's centre (A = g/2) must stay within L = R - r, so the wall comes
 * at the first s >= 0 where f(s) = |D + V s + A s^2|^2 - L^2 rises
 * through 0, a quartic with a positive leading term (the field's |A|^2).
 * f' and f'' cut [0, inf) into pieces on which f is monotone (f'' is a
 * quadratic: its roots split f' into monotone pieces, each holding at most
 * one root of f', found by bisection); the first piece that ends with
 * f > 0 holds the crossing, found by bisection too. So the first bounce
 * is never missed, however near the ball grazes the wall before it. Past
 * the wall already (by rounding, or from the spring engine): 0 when
 * moving out or when it cannot come back in by itself.
 */
/* The roots of f'' = 12 c4 s^2 + 6 c3 s + 2 c2 of the quartic c in
 * (0, S), in order, into cut[] (at most 2); the quadratic's roots without
 * cancellation. */
static int quartic_bends(const double c[5], double S, double cut[2])
{
    int nc = 0;
    double qa = 12 * c[4], qb = 6 * c[3], qc = 2 * c[2];
    if (qa != 0) {
        double disc = qb * qb - 4 * qa * qc;
        if (disc > 0) {
            double q = -0.5 * (qb + (qb >= 0 ? sqrt(disc) : -sqrt(disc)));
            double r1 = q / qa, r2 = q != 0 ? qc / q : r1;
            if (r1 > r2) {
                double x = r1;
                r1 = r2;
                r2 = x;
            }
            if (r1 > 0 && r1 < S)
                cut[nc++] = r1;
            if (r2 > 0 && r2 < S && r2 != r1)
                cut[nc++] = r2;
        }
    } else if (qb != 0) {
        double r = -qc / qb;
        if (r > 0 && r < S)
            cut[nc++] = r;
    }
    return nc;
}

static double wall_circle_field(const struct event *ev, const struct event_ball *a)
{
    double R = 0.5 * ev->p.w, L = R - a->r;
    double dx = a->x - R, dy = a->y - R, vx = a->vx, vy = a->vy;
    double ax = 0.5 * ev->gx, ay = 0.5 * ev->gy;
    double c[5] = {dx * dx + dy * dy - L * L, 2 * (dx * vx + dy * vy),
                   vx * vx + vy * vy + 2 * (dx * ax + dy * ay), 2 * (vx * ax + vy * ay),
                   ax * ax + ay * ay};
    for (int i = 0; i < 5; i++)
        if (!isfinite(c[i]))
            return INFINITY;
    /* a time scale: to cross the table at the speed or fall across it */
    double sp = sqrt(vx * vx + vy * vy), ga = sqrt(c[4]);
    double scale = 2 * L / (sp + sqrt(ga * 2 * L) + 1e-300);
    if (!(scale > 0 && scale < INFINITY))
        scale = 1;
    /* the roots of f'', then of f' */
    double cut[2];
    int nc = quartic_bends(c, INFINITY, cut);
    /* f' on [0, cut0], [cut0, cut1], ..., [last, inf): one root each at most */
    double crit[4];
    int ncrit = 0;
    double lo = 0;
    for (int p = 0; p <= nc; p++) {
        double hi = p < nc ? cut[p] : INFINITY;
        double flo = quartic_d(c, lo);
        if (hi == INFINITY) {
            /* f' ends positive (c4 > 0): a root only if it is <= 0 here */
            if (flo <= 0) {
                double h = grow(c, 1, lo, scale);
                if (h < INFINITY)
                    crit[ncrit++] = bisect(c, 1, lo, h);
            }
        } else if ((flo > 0) != (quartic_d(c, hi) > 0)) {
            crit[ncrit++] = bisect(c, 1, lo, hi);
        }
        lo = hi;
    }
    /* f on the pieces between its critical points */
    double s0 = 0, f0 = c[0];
    int k = 0;
    if (f0 > 0) {
        if (c[1] >= 0)
            return 0; /* past the wall and moving out */
        /* moving back in: the first piece, decreasing */
        double end = ncrit ? crit[0] : INFINITY;
        if (end == INFINITY || !(quartic(c, end) <= 0))
            return 0; /* it does not get back in by itself */
        s0 = end;
        k = 1;
    }
    for (; k <= ncrit; k++) {
        double end = k < ncrit ? crit[k] : INFINITY;
        if (end == INFINITY) {
            double h = grow(c, 0, s0, scale);
            return h < INFINITY ? bisect(c, 0, s0, h) : INFINITY;
        }
        if (end > s0 && quartic(c, end) > 0)
            return bisect(c, 0, s0, end);
        s0 = end > s0 ? end : s0;
    }
    return INFINITY;
}

/* The critical points of the quartic c in (0, S), in order, into crit[]
 * (at most 3): the roots of f'' (a quadratic, or less) split f' into
 * monotone pieces, each holding at most one root of f', found by
 * bisection. */
static int quartic_crit(const double c[5], double S, double crit[3])
{
    double cut[2];
    int nc = quartic_bends(c, S, cut);
    int n = 0;
    double lo = 0, dlo = quartic_d(c, 0);
    for (int p = 0; p <= nc; p++) {
        double hi = p < nc ? cut[p] : S, dhi = quartic_d(c, hi);
        if ((dlo > 0) != (dhi > 0) && hi > lo)
            crit[n++] = bisect(c, 1, lo, hi);
        lo = hi;
        dlo = dhi;
    }
    return n;
}


/* The first s in [0, S] where the quartic c comes down from > 0 to <= 0
 * (two balls come into contact), INFINITY if none: on the monotone
 * pieces between its critical points, the first that starts above 0 and
 * ends at or below it holds it, found by bisection (the first double at
 * contact). */
static double quartic_first_down(const double c[5], double S)
{
    double crit[3];
    int n = quartic_crit(c, S, crit);
    double lo = 0, flo = c[0];
    for (int k = 0; k <= n; k++) {
        double hi = k < n ? crit[k] : S, fhi = quartic(c, hi);
        if (flo > 0 && fhi <= 0)
            return bisect(c, 0, lo, hi);
        lo = hi;
        flo = fhi;
    }
    return INFINITY;
}

/*
 * Rolling friction: from the later own time tr, ball i at P_i + v_i k_i(s)
 * (k_i = s - A s^2 / 2|v_i| until it stops at S_i = |v_i| / A). While both
 * roll, D(s) = D0 + V s + W s^2 with V = v_j - v_i and W = -(A/2)(u_j - u_i)
 * (u the unit velocities), so |D|^2 - sigma^2 is a quartic, solved on
 * [0, min S] by quartic_first_down; once one has stopped the other rolls
 * along a straight line, |D1 + u phi|^2 = sigma^2 is a quadratic in the
 * distance phi, turned into time as path_time does. Touching and
 * approaching (as pair_time judges it): at once.
 */
static double pair_time_rolling(const struct event *ev, const struct event_ball *p,
                                const struct event_ball *q)
{
    double tr = p->tb > q->tb ? p->tb : q->tb, A = ev->fc, sig = p->r + q->r;
    double xi, yi, vxi, vyi, xj, yj, vxj, vyj;
    ball_at(ev, p, tr, &xi, &yi, &vxi, &vyi);
    ball_at(ev, q, tr, &xj, &yj, &vxj, &vyj);
    double wi = sqrt(vxi * vxi + vyi * vyi), wj = sqrt(vxj * vxj + vyj * vyj);
    double dx = xj - xi, dy = yj - yi, dd = dx * dx + dy * dy;
    /* out of reach: the two stopping distances do not close the gap */
    double gap = sqrt(dd) - sig, reach = (wi * wi + wj * wj) / (2 * A);
    if (!(gap <= reach * (1 + 1e-12) + 1e-300))
        return INFINITY;
    /* touching or overlapping, and approaching: at once */
    if (dd - sig * sig <= 0 && straight_root(dx, dy, vxj - vxi, vyj - vyi, sig) <= 0)
        return tr > ev->t ? tr : ev->t;
    double uxi = wi > 0 ? vxi / wi : 0, uyi = wi > 0 ? vyi / wi : 0;
    double uxj = wj > 0 ? vxj / wj : 0, uyj = wj > 0 ? vyj / wj : 0;
    double Si = wi / A, Sj = wj / A, S1 = Si < Sj ? Si : Sj;
    double s = INFINITY;
    if (S1 > 0) {
        double Vx = vxj - vxi, Vy = vyj - vyi;
        double Wx = -0.5 * A * (uxj - uxi), Wy = -0.5 * A * (uyj - uyi);
        double c[5] = {dd - sig * sig, 2 * (dx * Vx + dy * Vy),
                       Vx * Vx + Vy * Vy + 2 * (dx * Wx + dy * Wy), 2 * (Vx * Wx + Vy * Wy),
                       Wx * Wx + Wy * Wy};
        if (c[0] <= 0) /* touching and leaving: only a later contact counts */
            c[0] = 0;
        s = quartic_first_down(c, S1);
    }
    if (s == INFINITY && Si != Sj) {
        /* one has stopped at S1; the other rolls on from there */
        int jm = Sj > Si; /* j moves on */
        double ki = S1 >= Si ? 0.5 * Si : S1 - A * S1 * S1 / (2 * wi);
        double kj = S1 >= Sj ? 0.5 * Sj : S1 - A * S1 * S1 / (2 * wj);
        if (wi == 0)
            ki = 0;
        if (wj == 0)
            kj = 0;
        double Dx = (xj + kj * vxj) - (xi + ki * vxi), Dy = (yj + kj * vyj) - (yi + ki * vyi);
        double ux = jm ? uxj : -uxi, uy = jm ? uyj : -uyi; /* D's direction of change */
        double w1 = (jm ? wj : wi) - A * S1;                /* its speed then */
        double b = Dx * ux + Dy * uy, cc = Dx * Dx + Dy * Dy - sig * sig;
        if (b < 0 && b * b > EVENT_APPROACH * EVENT_APPROACH * (Dx * Dx + Dy * Dy)) {
            double disc = b * b - cc;
            if (disc >= 0) {
                double phi = cc / (-b + sqrt(disc));
                if (phi < 0)
                    phi = 0;
                /* w1 tau - A tau^2 / 2 = phi, without cancellation */
                double x = 2 * A * phi / (w1 * w1);
                if (w1 > 0 && x <= 1)
                    s = S1 + 2 * phi / (w1 * (1 + sqrt(1 - x)));
            }
        }
    }
    double t = tr + s;
    return t > ev->t ? t : ev->t;
}

/* pair_time with a field or friction: both balls to the later own time
 * tr; in a field (both fall alike) and under linear drag (both slow by
 * the same factor) the relative motion from there is straight in time or
 * in the drag's path factor u = (1 - e^(-c s)) / c, so the pair's root is
 * pair_time's, turned into time for drag; rolling friction is
 * pair_time_rolling. */
static double pair_time_general(const struct event *ev, const struct event_ball *p,
                                const struct event_ball *q)
{
    if (ev->fric == SIM_FRICTION_ROLLING)
        return pair_time_rolling(ev, p, q);
    double tr = p->tb > q->tb ? p->tb : q->tb;
    double xi, yi, vxi, vyi, xj, yj, vxj, vyj;
    ball_at(ev, p, tr, &xi, &yi, &vxi, &vyi);
    ball_at(ev, q, tr, &xj, &yj, &vxj, &vyj);
    double s = straight_root(xj - xi, yj - yi, vxj - vxi, vyj - vyi, p->r + q->r);
    if (s < 0)
        s = 0;
    if (ev->fric == SIM_FRICTION_LINEAR && s > 0) {
        double cu = ev->fc * s;
        s = cu < 1 ? -log1p(-cu) / ev->fc : INFINITY;
    }
    double t = tr + s;
    return t > ev->t ? t : ev->t;
}

static void predict_own_general(struct event *ev, size_t k, struct event_item *e);

/* How long after its own time ball @p a leaves the circle of radius cen_h
 * around the centre of its list @p l: |D + sV| = h with D its offset from
 * the centre at its own time (which may be before the list, outside the
 * circle), the later root of vv s^2 + 2 b s + c = 0, written as
 * c / (-b - sqrt(b^2 - vv c)) when b > 0 to avoid cancellation; 0 when
 * that is past (out by rounding). Straight paths only: lists are not
 * chosen in a field or with friction. */
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
 * the same collisions in the same order) and writes the event to *e.
 * Plain hard balls between closed walls here, in as few instructions as
 * measured (a tenth of an event's); a field, friction or open sides in
 * predict_own_general. */
/* A record's own event @p code at time @p t (not before now) into *e. */
static EV_INLINE void own_event(const struct event *ev, double t, int code,
                                struct event_item *e)
{
    *e = (struct event_item){t < ev->t ? ev->t : t, -1 - code, 0};
}

static void predict_own(struct event *ev, size_t k, struct event_item *e)
{
    if (ev->general || ev->p.open) {
        predict_own_general(ev, k, e);
        return;
    }
    struct event_ball *a = &ev->b[k];
    double best;
    int code;
    double tb = a->tb;
    if (ev->p.shape == SIM_CIRCLE) {
        best = wall_circle(ev, a);
        code = EV_WALL_CIRCLE;
    } else {
        double sx = wall_axis(a->x, a->vx, a->r, ev->p.w, 0, 0);
        double sy = wall_axis(a->y, a->vy, a->r, ev->p.h, 0, 0);
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
        int32_t cx = ev->q[k].cx, cy = ev->q[k].cy;
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
    } else if (ev->nl) {
        double sl = tb + nl_leave(ev, a, &ev->nbr[k]);
        if (sl < best) {
            best = sl;
            code = EV_NLIST;
        }
    }
    own_event(ev, best, code, e);
}

/* predict_own in a field (parabolas: walls and crossings the roots of
 * quadratics, or of a quartic on the round table), with friction (straight
 * paths slowing down: times from path factors) or with open sides. */
static void predict_own_general(struct event *ev, size_t k, struct event_item *e)
{
    struct event_ball *a = &ev->b[k];
    double best = INFINITY;
    int code = -1;
    double tb = a->tb;
    if (ev->p.shape == SIM_CIRCLE) {
        best = ev->field ? wall_circle_field(ev, a) : wall_circle(ev, a);
        code = EV_WALL_CIRCLE;
    } else {
        unsigned op = ev->p.open;
        int lx = 0, ly = 0; /* which wall: the field's bounces need it */
        double sx, sy;
        if (!ev->field) {
            sx = wall_axis(a->x, a->vx, a->r, ev->p.w, op & SIM_SIDE_LEFT,
                           op & SIM_SIDE_RIGHT);
            sy = wall_axis(a->y, a->vy, a->r, ev->p.h, op & SIM_SIDE_BOTTOM,
                           op & SIM_SIDE_TOP);
        } else {
            sx = wall_axis_field(a->x, a->vx, ev->gx, a->r, ev->p.w,
                                 op & SIM_SIDE_LEFT, op & SIM_SIDE_RIGHT, &lx);
            sy = wall_axis_field(a->y, a->vy, ev->gy, a->r, ev->p.h,
                                 op & SIM_SIDE_BOTTOM, op & SIM_SIDE_TOP, &ly);
        }
        if (sx < 0) sx = 0;
        if (sy < 0) sy = 0;
        best = sx;
        code = lx ? EV_WALL_XL : EV_WALL_X;
        if (sy < best) {
            best = sy;
            code = ly ? EV_WALL_YL : EV_WALL_Y;
        }
    }
    if (ev->fric) /* a straight path slowing down: from its factor to time */
        best = path_time(ev, a, best);
    best += tb;
    if (best < ev->t)
        best = ev->t;
    a->tlim = best;
    if (ev->grid) {
        double vx = a->vx, vy = a->vy;
        double tx = INFINITY, ty = INFINITY;
        int32_t cx = ev->q[k].cx, cy = ev->q[k].cy;
        int xl = 0, yl = 0; /* the field's crossings need the direction */
        if (!ev->field) {
            if (vx > 0 && cx + 1 < ev->nx)
                tx = ((double)(cx + 1) * ev->cw - a->x) / vx;
            else if (vx < 0 && cx > 0)
                tx = ((double)cx * ev->cw - a->x) / vx;
            if (vy > 0 && cy + 1 < ev->ny)
                ty = ((double)(cy + 1) * ev->ch - a->y) / vy;
            else if (vy < 0 && cy > 0)
                ty = ((double)cy * ev->ch - a->y) / vy;
            if (ev->fric) { /* straight and slowing: from the path factor to time */
                tx = path_time(ev, a, tx);
                ty = path_time(ev, a, ty);
            }
            tx += tb;
            ty += tb;
        } else {
            double now = ev->t, s = now - tb, gx = ev->gx, gy = ev->gy;
            tx = now + cross_axis_field(a->x + s * (vx + 0.5 * gx * s), vx + gx * s,
                                        gx, cx, ev->cw, ev->nx, &xl);
            ty = now + cross_axis_field(a->y + s * (vy + 0.5 * gy * s), vy + gy * s,
                                        gy, cy, ev->ch, ev->ny, &yl);
        }
        if (tx < best) {
            best = tx;
            code = !ev->field ? EV_CROSS_X : xl ? EV_CROSS_XL : EV_CROSS_XP;
        }
        if (ty < best) {
            best = ty;
            code = !ev->field ? EV_CROSS_Y : yl ? EV_CROSS_YL : EV_CROSS_YP;
        }
    }
    own_event(ev, best, code, e);
}

/* The collision of ball @p a (record k) and record j becomes the slot
 * *best if it comes before both balls' next walls (a bounce predicts its
 * ball again, which finds the pair again) and before *best. */
static EV_INLINE void offer_pair(const struct event *ev, const struct event_ball *a,
                                  size_t k, size_t j, double t, struct event_item *best)
{
    const struct event_ball *q = &ev->b[j];
    if (t <= best->t && t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)j, q->cnt};
        if (t < best->t || ev_tie(ev, (int32_t)k, &e, (int32_t)k, best))
            *best = e;
    }
}

static EV_INLINE void predict_pair(const struct event *ev, const struct event_ball *a,
                                size_t k, size_t j, struct event_item *best, int general)
{
    offer_pair(ev, a, k, j, pair_time(ev, a, &ev->b[j], general, INFINITY), best);
}

/* Plain hard balls: predicts ball @p a (record k) against the nc records
 * in cand but skip, in two passes. The first keeps the approaching pairs
 * (D.V < 0, as straight_time's first test) without a branch per receding
 * one (about half: a branch on them is anyone's guess); the second times
 * those, each bounded by the best so far (see straight_time). @p now: as
 * plain_time's. */
static EV_INLINE void predict_plain(const struct event *ev, const struct event_ball *a,
                                    size_t k, size_t skip, int32_t *cand, size_t nc,
                                    struct event_item *best, int now)
{
    size_t na = 0;
    for (size_t c = 0; c < nc; c++) {
        const struct event_ball *q = &ev->b[cand[c]];
        double tr = now ? a->tb : a->tb > q->tb ? a->tb : q->tb;
        double dx = (q->x + (tr - q->tb) * q->vx) - (a->x + (tr - a->tb) * a->vx);
        double dy = (q->y + (tr - q->tb) * q->vy) - (a->y + (tr - a->tb) * a->vy);
        double b = dx * (q->vx - a->vx) + dy * (q->vy - a->vy);
        cand[na] = cand[c];
        na += (b < 0) & ((size_t)cand[c] != skip);
    }
    for (size_t c = 0; c < na; c++)
        offer_pair(ev, a, k, (size_t)cand[c],
                   plain_time(ev, a, &ev->b[cand[c]], best->t, now), best);
}

/* The cells record k must look at: its own and reach[k] on every side,
 * clipped to the grid. */
static void cell_window(const struct event *ev, size_t k, long *x0, long *x1,
                        long *y0, long *y1)
{
    long reach = ev->q[k].reach;
    *x0 = ev->q[k].cx - reach > 0 ? ev->q[k].cx - reach : 0;
    *y0 = ev->q[k].cy - reach > 0 ? ev->q[k].cy - reach : 0;
    *x1 = ev->q[k].cx + reach < ev->nx ? ev->q[k].cx + reach : ev->nx - 1;
    *y1 = ev->q[k].cy + reach < ev->ny ? ev->q[k].cy + reach : ev->ny - 1;
}

/* Predicts ball @p a (record k) against the small balls in the w x h
 * cells from (cx, cy) (at most 3x3) but k and skip: the cells' first
 * balls gathered at once, without a branch per ball, then predicted (k
 * itself drops out as receding: D = V = 0); the more of crowded cells
 * after them. */
static EV_INLINE void predict_window(const struct event *ev, const struct event_ball *a,
                                     size_t k, size_t skip, long cx, long cy, long w,
                                     long h, struct event_item *best, int general)
{
    int32_t cand[9 * EV_CELL_CAP + EV_CELL_CAP];
    size_t nc = 0;
    int32_t over = 0;
    long stride = ev->nx + 2;
    const struct event_cell *first = &ev->cell[cell_at(ev, cx, cy)];
    for (long r = 0; r < h; r++)
        for (long i = 0; i < w; i++) {
            const struct event_cell *cl = &first[r * stride + i];
            int32_t n = cl->n;
            memcpy(&cand[nc], cl->j, sizeof cl->j);
            nc += (size_t)(n < EV_CELL_CAP ? n : EV_CELL_CAP);
            over |= n; /* at least every n: > EV_CELL_CAP when one is */
        }
    if (!general) {
        if (a->tb == ev->t)
            predict_plain(ev, a, k, skip, cand, nc, best, 1);
        else
            predict_plain(ev, a, k, skip, cand, nc, best, 0);
    } else {
        for (size_t c = 0; c < nc; c++)
            if ((size_t)cand[c] != k && (size_t)cand[c] != skip)
                predict_pair(ev, a, k, (size_t)cand[c], best, general);
    }
    if (over > EV_CELL_CAP)
        for (long r = 0; r < h; r++)
            for (long i = 0; i < w; i++) {
                long c = (first - ev->cell) + r * stride + i;
                if (ev->cell[c].n > EV_CELL_CAP)
                    for (int32_t j = ev->more[c]; j >= 0; j = ev->b[j].next)
                        if ((size_t)j != k && (size_t)j != skip)
                            predict_pair(ev, a, k, (size_t)j, best, general);
            }
}

/* Predicts the pairs of record k with every ball near enough (all of them
 * without the grid), except @p skip (its partner just now, receding: two
 * balls flying apart never meet again before one of them changes course).
 * Only small balls are in the cells; the big ones are looked at by all. */
static EV_INLINE void predict_pairs_in(const struct event *ev, size_t k, size_t skip,
                                       struct event_item *out, int general)
{
    /* local copies: the compiler need not reload them after each store */
    struct event_item best = *out;
    const struct event_ball a = ev->b[k];
    if (!ev->grid) {
        for (size_t j = 0; j < ev->n; j++)
            if (j != k && j != skip)
                predict_pair(ev, &a, k, j, &best, general);
        *out = best;
        return;
    }
    if (ev->nl && ev->nbr[k].n >= 0) {
        const struct event_nlist *l = &ev->nbr[k];
        if (!general) { /* lists are chosen for plain hard balls only */
            int32_t cand[NL_CAP];
            memcpy(cand, l->j, sizeof cand);
            if (a.tb == ev->t)
                predict_plain(ev, &a, k, skip, cand, (size_t)l->n, &best, 1);
            else
                predict_plain(ev, &a, k, skip, cand, (size_t)l->n, &best, 0);
        } else {
            for (int32_t c = 0; c < l->n; c++)
                if ((size_t)l->j[c] != skip)
                    predict_pair(ev, &a, k, (size_t)l->j[c], &best, general);
        }
        *out = best;
        return;
    }
    long x0, x1, y0, y1;
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    if (ev->q[k].reach == 1)
        predict_window(ev, &a, k, skip, ev->q[k].cx - 1, ev->q[k].cy - 1, 3, 3, &best,
                       general);
    else
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    if ((size_t)j != k && (size_t)j != skip)
                        predict_pair(ev, &a, k, (size_t)j, &best, general);
    for (size_t c = 0; c < ev->nbig; c++) {
        size_t j = (size_t)ev->big[c];
        if (j != k && j != skip)
            predict_pair(ev, &a, k, j, &best, general);
    }
    *out = best;
}

/* predict_pairs_in, expanded for plain hard balls and for the rest */
static void predict_pairs(const struct event *ev, size_t k, size_t skip,
                          struct event_item *out)
{
    if (ev->general)
        predict_pairs_in(ev, k, skip, out, 1);
    else
        predict_pairs_in(ev, k, skip, out, 0);
}

/* Record k's earliest collision is @p pair and its own next event @p own:
 * its slot becomes the earlier. */
static EV_INLINE void settle(struct event *ev, size_t k, struct event_item pair,
                             struct event_item own)
{
    ev->q[k].pair = pair;
    set_slot(ev, (int32_t)k, ev_less(ev, (int32_t)k, &pair, (int32_t)k, &own) ? pair : own);
}

/* Predicts record k again: its slot becomes its earliest event. */
static void predict(struct event *ev, size_t k, size_t skip)
{
    struct event_item own, pair = {INFINITY, -1, 0};
    predict_own(ev, k, &own);
    predict_pairs(ev, k, skip, &pair);
    settle(ev, k, pair, own);
}

/* Record k has crossed into the next cell along x (dx = +-1) or y: the
 * collisions it predicted stay right, the earliest of them is in pair[k],
 * so only the row or column of cells that has come into reach is new (and
 * the big balls). A stale earliest hides the next one: then all again. */
static EV_INLINE void predict_crossed_in(struct event *ev, size_t k, long dx, long dy,
                                         int general)
{
    struct event_item pair = ev->q[k].pair;
    if (ev->q[k].reach > 1 || (pair.j >= 0 && stale(ev, &pair))) {
        predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    predict_own(ev, k, &own);
    const struct event_ball a = ev->b[k];
    /* the row or column just come into reach (the border's, when at the
     * edge: empty) */
    long cx = ev->q[k].cx + dx, cy = ev->q[k].cy + dy;
    if (dx)
        predict_window(ev, &a, k, (size_t)-1, cx, cy - 1, 1, 3, &pair, general);
    else
        predict_window(ev, &a, k, (size_t)-1, cx - 1, cy, 3, 1, &pair, general);
    /* a big ball sees small ones only within its reach: each small ball
     * looks at the big ones at every move */
    for (size_t c = 0; c < ev->nbig; c++)
        predict_pair(ev, &a, k, (size_t)ev->big[c], &pair, general);
    settle(ev, k, pair, own);
}

/* predict_crossed_in, expanded as predict_pairs is */
static void predict_crossed(struct event *ev, size_t k, long dx, long dy)
{
    if (ev->general)
        predict_crossed_in(ev, k, dx, dy, 1);
    else
        predict_crossed_in(ev, k, dx, dy, 0);
}

/* === Grid === */

static void cell_link(struct event *ev, size_t k)
{
    if (ev->q[k].reach > 1)
        return;
    long c = cell_at(ev, ev->q[k].cx, ev->q[k].cy);
    struct event_cell *cl = &ev->cell[c];
    if (cl->n < EV_CELL_CAP) {
        cl->j[cl->n++] = (int32_t)k;
        return;
    }
    /* more[c] means something only while the cell holds more than
     * EV_CELL_CAP (it is never set up otherwise: at start-up that is a
     * page of memory untouched for every 1024 cells) */
    int32_t head = cl->n > EV_CELL_CAP ? ev->more[c] : -1;
    cl->n++;
    ev->c[k].prev = -1;
    ev->b[k].next = head;
    if (head >= 0)
        ev->c[head].prev = (int32_t)k;
    ev->more[c] = (int32_t)k;
}

/* Takes record k out of the list of more balls of cell c. */
static void more_unlink(struct event *ev, long c, size_t k)
{
    if (ev->c[k].prev >= 0)
        ev->b[ev->c[k].prev].next = ev->b[k].next;
    else
        ev->more[c] = ev->b[k].next;
    if (ev->b[k].next >= 0)
        ev->c[ev->b[k].next].prev = ev->c[k].prev;
}

static void cell_unlink(struct event *ev, size_t k)
{
    if (ev->q[k].reach > 1)
        return;
    long c = cell_at(ev, ev->q[k].cx, ev->q[k].cy);
    struct event_cell *cl = &ev->cell[c];
    int32_t m = cl->n < EV_CELL_CAP ? cl->n : EV_CELL_CAP;
    for (int32_t i = 0; i < m; i++)
        if (cl->j[i] == (int32_t)k) {
            if (cl->n > EV_CELL_CAP) { /* one of the more takes its place */
                int32_t o = ev->more[c];
                more_unlink(ev, c, (size_t)o);
                cl->j[i] = o;
            } else {
                cl->j[i] = cl->j[m - 1];
            }
            cl->n--;
            return;
        }
    more_unlink(ev, c, k);
    cl->n--;
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
    size_t padded = (size_t)(ev->nx + 2) * (size_t)(ev->ny + 2);
    ev->cell = array(padded, sizeof *ev->cell);
    ev->more = array(padded, sizeof *ev->more);
    ev->big = array(n ? n : 1, sizeof *ev->big);
    /* the balls' cells, then the balls by row */
    size_t nn = n ? n : 1, nx = (size_t)ev->nx, ny = (size_t)ev->ny;
    int32_t *key = array(2 * nn, sizeof *key);
    size_t *rows = malloc((ny + 1 + nx + 1) * sizeof *rows), *cols = rows + ny + 1;
    if (!ev->cell || !ev->more || !ev->big || !key || !rows) {
        mem_free(key);
        free(rows);
        return -1;
    }
    int32_t *byrow = key + nn;
    /* A counting sort by row, then one by column within each row (both
     * stable: balls of a cell stay in number order). Each counts in a
     * table of one row's size, which stays in the first-level cache; one
     * count for each cell of the grid (10 MB at 10^6 balls) cost two cache
     * misses a ball. */
    memset(rows, 0, (ny + 1) * sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        long cx = clamp_cell(s->x[i], ev->cw, ev->nx);
        long cy = clamp_cell(s->y[i], ev->ch, ev->ny);
        key[i] = (int32_t)(cy * ev->nx + cx);
        rows[cy + 1]++;
    }
    for (size_t y = 0; y < ny; y++)
        rows[y + 1] += rows[y];
    for (size_t i = 0; i < n; i++)
        byrow[rows[(size_t)key[i] / nx]++] = (int32_t)i;
    /* rows[y] is now the end of row y */
    for (size_t y = 0, lo = 0; y < ny; lo = rows[y++]) {
        size_t hi = rows[y], base = y * nx;
        if (hi - lo < 2) { /* mostly so in a thin gas */
            if (hi > lo)
                order[lo] = byrow[lo];
            continue;
        }
        memset(cols, 0, (nx + 1) * sizeof *cols);
        for (size_t a = lo; a < hi; a++)
            cols[(size_t)key[byrow[a]] - base + 1]++;
        cols[0] = lo;
        for (size_t x = 0; x < nx; x++)
            cols[x + 1] += cols[x];
        for (size_t a = lo; a < hi; a++)
            order[cols[(size_t)key[byrow[a]] - base]++] = byrow[a];
    }
    mem_free(key);
    free(rows);
    return 0;
}

/* Links the records into their cells (grid_size has sized the grid). A
 * ball is small, in the cells, when two such balls in contact are in
 * neighbouring cells (2 r (1 + 1e-6) <= the cell); a bigger one is looked
 * at by every ball and looks `reach` cells each side for the small ones. */
static void grid_link(struct event *ev)
{
    size_t cells = (size_t)(ev->nx + 2) * (size_t)(ev->ny + 2);
    static const struct event_cell empty = {0, {-1, -1, -1}};
    for (size_t c = 0; c < cells; c++)
        ev->cell[c] = empty;
    double cmin = ev->cw < ev->ch ? ev->cw : ev->ch, rsmall = 0;
    for (size_t k = 0; k < ev->n; k++)
        if (2 * ev->b[k].r * (1 + 1e-6) <= cmin && ev->b[k].r > rsmall)
            rsmall = ev->b[k].r;
    ev->rsmall = rsmall;
    ev->nbig = 0;
    for (size_t k = 0; k < ev->n; k++) { /* cells in record order */
        double r = ev->b[k].r;
        ev->q[k].cx = (int32_t)clamp_cell(ev->b[k].x, ev->cw, ev->nx);
        ev->q[k].cy = (int32_t)clamp_cell(ev->b[k].y, ev->ch, ev->ny);
        ev->q[k].reach = 1;
        if (!(2 * r * (1 + 1e-6) <= cmin)) {
            double reach = floor((r + rsmall) * (1 + 1e-6) / cmin) + 1;
            ev->q[k].reach = reach > 1e6 ? 1000000 : reach < 2 ? 2 : (int32_t)reach;
        }
        cell_link(ev, k);
    }
    for (size_t k = 0; k < ev->n; k++)
        if (ev->q[k].reach > 1)
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
 * the few balls of a list instead of those in 3x3 cells, and there are no
 * cell crossings. The lists are symmetric: a ball building its list takes
 * itself out of its old neighbours' lists and puts itself into its new
 * ones'. The cells (at least 2 r_max + skin wide) hold the balls by their
 * centres, so a list is built from the 3x3 cells around its centre. A list
 * that would hold more than NL_CAP balls (balls crowding, as in a state
 * taken over from the spring engine) is wide: its ball looks at those
 * cells instead, and it stays in the lists of the others.
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
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    nl_drop(ev, (size_t)j, (int32_t)k);
    }
    cell_unlink(ev, k);
    const struct event_ball *a = &b[k];
    double dt = ev->t - a->tb;
    l->cx = a->x + dt * a->vx;
    l->cy = a->y + dt * a->vy;
    l->n = 0;
    ev->q[k].cx = (int32_t)clamp_cell(l->cx, ev->cw, ev->nx);
    ev->q[k].cy = (int32_t)clamp_cell(l->cy, ev->ch, ev->ny);
    cell_link(ev, k);
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++)
            for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
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
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
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
        struct event_item e = {t, (int32_t)j, q->cnt};
        if (ev_less(ev, (int32_t)k, &e, (int32_t)k, &ev->q[k].pair))
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
        size_t i1 = (size_t)ev->q[k].id, i2 = (size_t)ev->q[j].id;
        size_t lo = i1 < i2 ? i1 : i2, hi = i1 < i2 ? i2 : i1;
        if (lo < fp->bi || (lo == fp->bi && hi < fp->bj)) {
            fp->bi = lo;
            fp->bj = hi;
        }
    }
    double t = pair_time(ev, &ev->b[k], &ev->b[j], ev->general, INFINITY);
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
        ev->q[k].pair = (struct event_item){INFINITY, -1, 0};
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
        int big = ev->q[k].reach > 1;
        long x0, x1, y0, y1;
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
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
    unsigned op = s->p.open;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = s->y[i], r = s->r[i], tol = EVENT_TOUCH_TOL * r;
        int out;
        if (s->p.shape == SIM_CIRCLE) {
            double R = 0.5 * s->p.w, dx = x - R, dy = y - R;
            out = sqrt(dx * dx + dy * dy) > R - r + tol;
        } else { /* past an open side is fine */
            out = (!(op & SIM_SIDE_LEFT) && x - r < -tol) ||
                  (!(op & SIM_SIDE_BOTTOM) && y - r < -tol) ||
                  (!(op & SIM_SIDE_RIGHT) && x + r > s->p.w + tol) ||
                  (!(op & SIM_SIDE_TOP) && y + r > s->p.h + tol);
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
    if (vmax > ev->vref) {
        ev->vref = vmax;
        if (ev->tc_auto)
            ev->tc = 1e-6 * ev->rmin / vmax;
    }
    ev->umin = EVENT_SLOW * ev->vref;
    /* In a field, an inelastic pile settles into ever faster collisions at
     * ever smaller gaps (its balls can never rest on each other: a hard
     * contact would need infinitely many). So there, as on a floor
     * (bounce_field), a slow impact is a resting contact: the two leave
     * each other at urest, the speed that lifts a ball hrest, and the pile
     * hops at that scale (invisible: 1e-3 of a radius) in bounded work. */
    ev->urest = ev->field ? sqrt(2 * hypot(ev->gx, ev->gy) * ev->hrest) : 0;
    if (ev->p.restitution < 1 && ev->urest > ev->umin)
        ev->umin = ev->urest;
    /* And a deep pile still compacts, its gaps and so the times between
     * its collisions shrinking without end. The TC model's contact time
     * then becomes the hop's, sqrt(2 hrest / g): a ball's collisions closer
     * together than that are elastic, so a pile stops losing energy once
     * its balls collide that often, and stays at that rate. */
    if (ev->tc_auto && ev->field && ev->p.restitution < 1) {
        double hop = sqrt(2 * ev->hrest / hypot(ev->gx, ev->gy));
        if (hop > ev->tc)
            ev->tc = hop;
    }
}

static void ball_now(const struct event *ev, const struct event_ball *a, double *x,
                     double *y, double *vx, double *vy);

/* Kinetic energy now, summed in ball number order; with *pf the field's
 * potential -sum m g.x and with *out the balls wholly past an open side. */
static double kinetic(const struct event *ev, double *pf, long *out)
{
    double ke = 0, f = 0;
    long o = 0;
    unsigned op = ev->p.open;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        double x, y, vx, vy, r = ev->b[k].r;
        ball_now(ev, &ev->b[k], &x, &y, &vx, &vy);
        ke += 0.5 * ev->c[k].m * (vx * vx + vy * vy);
        if (ev->field)
            f -= ev->c[k].m * (ev->gx * x + ev->gy * y);
        if (((op & SIM_SIDE_LEFT) && x + r < 0) || ((op & SIM_SIDE_RIGHT) && x - r > ev->p.w) ||
            ((op & SIM_SIDE_BOTTOM) && y + r < 0) || ((op & SIM_SIDE_TOP) && y - r > ev->p.h))
            o++;
    }
    if (pf)
        *pf = f;
    if (out)
        *out = o;
    return ke;
}

/* Brings the arrays by ball number up to date. */
static void publish(struct event *ev)
{
    for (size_t k = 0; k < ev->n; k++) {
        size_t i = (size_t)ev->q[k].id;
        double x, y;
        ball_now(ev, &ev->b[k], &x, &y, &ev->vx[i], &ev->vy[i]);
        ev->ncoll[i] = kcoll(ev, k);
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
    /* Neighbour lists in a dense gas of balls of similar sizes on straight
     * paths between closed walls (in a field a path bends, and leaving the
     * skin is a quartic; friction and open sides stay with the grid). */
    double rlo = INFINITY, rhi = 0;
    for (size_t i = 0; i < n; i++) {
        rlo = s->r[i] < rlo ? s->r[i] : rlo;
        rhi = s->r[i] > rhi ? s->r[i] : rhi;
    }
    ev->skin = NL_SKIN * 2 * rhi;
    /* (and a skin well above the rounding of positions on the table, or a
     * ball could leave it again at the very time it built its list) */
    ev->nl = ev->grid && cfg->grid != 2 && (cfg->grid == 3 || phi >= EVENT_NL_PHI) &&
             rlo > 0 && rhi <= EVENT_NL_RATIO * rlo && ev->skin > 1e-9 * (s->p.w + s->p.h) &&
             s->p.gx == 0 && s->p.gy == 0 && s->p.friction == SIM_FRICTION_NONE && !s->p.open;
    ev->cen_h = 0.5 * ev->skin * (1 - 1e-6);
    /* the records (each within a cache line) and the arrays by ball number */
    int fail = !(ev->b = array(cnt, sizeof *ev->b));
    fail |= !(ev->q = array(cnt, sizeof *ev->q));
    fail |= !(ev->c = array(cnt, sizeof *ev->c));
    if (ev->nl)
        fail |= !(ev->nbr = array(cnt, sizeof *ev->nbr));
    fail |= !(ev->vx = array(cnt, sizeof *ev->vx));
    fail |= !(ev->vy = array(cnt, sizeof *ev->vy));
    fail |= !(ev->ncoll = array(cnt, sizeof *ev->ncoll)); /* set by publish */
    ev->capl = cnt + 16;
    fail |= !(ev->lhead = array(ev->capl + 1, sizeof *ev->lhead));
    fail |= !(ev->at = array(cnt, sizeof *ev->at));
    fail |= !(ev->near = array(cnt, sizeof *ev->near));
    int32_t *order = malloc(cnt * sizeof *order);
    if (fail || !order || (ev->grid && grid_size(ev, s, order))) {
        free(order);
        event_free(ev);
        return EVENT_ENOMEM;
    }
    double rmin = INFINITY, vmax = 0;
    ev->mono = 1;
    ev->mass = n ? s->m[0] : 1;
    for (size_t k = 0; k < n; k++)
        ev->at[ev->grid ? (size_t)order[k] : k] = (int32_t)k;
    free(order);
    /* balls in number order, records written whole where they go: the
     * six arrays are read in order, only the writes land at random (balls
     * placed at random are numbered in no spatial order) */
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)ev->at[i];
        ev->q[k].id = (int32_t)i;
        ev->mono &= memcmp(&s->m[i], &ev->mass, sizeof ev->mass) == 0; /* the same bits */
        ev->b[k] = (struct event_ball){.x = s->x[i], .y = s->y[i], .vx = s->vx[i],
                                       .vy = s->vy[i], .tb = s->t, .r = s->r[i],
                                       .tlim = INFINITY, .cnt = EV_CNT0, .next = -1};
        ev->c[k] = (struct event_cold){.m = s->m[i], .tlast = -INFINITY, .other = EV_CNT0};
        double v = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        if (v > vmax)
            vmax = v;
        if (s->r[i] < rmin)
            rmin = s->r[i];
    }
    if (ev->grid)
        grid_link(ev);
    if (ev->nl)
        nl_init(ev);
    ev->rmin = rmin;
    ev->gx = s->p.gx;
    ev->gy = s->p.gy;
    ev->field = ev->gx != 0 || ev->gy != 0;
    ev->fric = s->p.friction == SIM_FRICTION_LINEAR || s->p.friction == SIM_FRICTION_ROLLING
                   ? s->p.friction : SIM_FRICTION_NONE;
    ev->fc = s->p.friction_c;
    ev->general = ev->field || ev->fric;
    ev->hrest = 1e-3 * (rmin > 0 && rmin < INFINITY ? rmin : 1e-6 * (s->p.w < s->p.h ? s->p.w : s->p.h));
    ev->tc_auto = !(cfg->tc >= 0);
    ev->tc = ev->tc_auto ? 0 : cfg->tc;
    set_scales(ev, vmax);
    double pf0;
    ev->ke0 = kinetic(ev, &pf0, NULL);
    ev->e0 = ev->ke0 + pf0;
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
        if (ev_less(ev, (int32_t)k, &ev->q[k].pair, (int32_t)k, &ev->q[k].slot))
            ev->q[k].slot = ev->q[k].pair;
    q_rebuild(ev);
    publish(ev);
    return EVENT_OK;
}

void event_free(struct event *ev)
{
    void *p[] = {ev->b, ev->q, ev->c, ev->vx, ev->vy, ev->ncoll, ev->lhead,
                 ev->near, ev->at, ev->cell, ev->more, ev->big, ev->nbr};
    for (size_t a = 0; a < sizeof p / sizeof *p; a++)
        mem_free(p[a]);
    memset(ev, 0, sizeof *ev);
}

/* === Events === */

static void drift_general(struct event *ev, struct event_ball *a)
{
    ball_at(ev, a, ev->t, &a->x, &a->y, &a->vx, &a->vy);
    a->tb = ev->t;
}

/* Ball a to the current time (its own time becomes now). */
static EV_INLINE void drift(struct event *ev, struct event_ball *a)
{
    if (ev->general) {
        drift_general(ev, a);
        return;
    }
    double dt = ev->t - a->tb;
    a->x += dt * a->vx;
    a->y += dt * a->vy;
    a->tb = ev->t;
}

/* Ball a's position and velocity at the current time, a left as it is. */
static void ball_now(const struct event *ev, const struct event_ball *a, double *x,
                     double *y, double *vx, double *vy)
{
    ball_at(ev, a, ev->t, x, y, vx, vy);
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
            double mi = ev->mono ? ev->mass : ev->c[i].m;
            double mj = ev->mono ? ev->mass : ev->c[j].m;
            double J = -(1 + restitution(ev, i, j, u)) * u * (mi * mj / (mi + mj));
            /* in a field, inelastic: apart at least at urest (see set_scales) */
            if (ev->field && ev->p.restitution < 1 && J < (ev->urest - u) * (mi * mj / (mi + mj)))
                J = (ev->urest - u) * (mi * mj / (mi + mj));
            p->vx -= J / mi * nx;
            p->vy -= J / mi * ny;
            q->vx += J / mj * nx;
            q->vy += J / mj * ny;
        }
    }
    if (ev->p.restitution < 1) /* tlast is read only then */
        ev->c[i].tlast = ev->c[j].tlast = ev->t;
    count(ev, i);
    count(ev, j);
    ev->collisions++;
    predict(ev, i, j);
    predict(ev, j, i);
}

/*
 * A bounce in the field off the wall at coordinate `wall` with outward
 * normal `out` (+1: the high wall, -1: the low one). An impact (normal
 * speed u towards the wall) leaves at -e u, elastic below umin. A wall the
 * field presses a ball onto (a floor) then sends it back fast enough to
 * come back inside from wherever it is (past the wall by rounding, or
 * pressed in by the spring engine), sqrt(2 g depth), and to rise hrest
 * above the wall when it came slower than that (inelastic) or at rest
 * (elastic): sqrt(2 g (hrest + depth)). That is the resting-contact rule:
 * a ball at rest on a floor, or an inelastic one settling, hops hrest high
 * (1e-3 of the smallest radius) instead of bouncing infinitely often in
 * finite time, or sitting at zero time. Elastic bounces are otherwise
 * exact.
 */
static double rest_normal(const struct event *ev, double u, double un, double gn,
                          double depth)
{
    /* u: the normal speed it came with (> 0 towards the wall), un: the
     * outward normal velocity after the bounce, gn: the field towards the
     * wall, depth: how far past it the ball is */
    if (gn > 0) {
        double h = depth > 0 ? depth : 0;
        if (ev->p.restitution < 1 ? u * u < 2 * gn * ev->hrest : u <= EVENT_SLOW * ev->vref)
            h += ev->hrest;
        double need = sqrt(2 * gn * h);
        if (-un < need)
            un = -need;
    }
    return un;
}

static void bounce_field(const struct event *ev, double *v, double q, double g,
                         double wall, double out, double e)
{
    double u = out * *v;
    if (u > 0)
        *v = -(u < ev->umin ? 1 : e) * *v;
    *v = out * rest_normal(ev, u, out * *v, out * g, out * (q - wall));
}

static void bounce(struct event *ev, size_t k, int code)
{
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    double e = ev->p.restitution;
    if (e < 1 && ev->t - ev->c[k].tlast < ev->tc)
        e = 1;
    double m = ev->c[k].m, vx0 = a->vx, vy0 = a->vy;
    if (ev->field && code != EV_WALL_CIRCLE) {
        int y = code == EV_WALL_Y || code == EV_WALL_YL;
        int low = code == EV_WALL_XL || code == EV_WALL_YL;
        double len = y ? ev->p.h : ev->p.w;
        bounce_field(ev, y ? &a->vy : &a->vx, y ? a->y : a->x, y ? ev->gy : ev->gx,
                     low ? a->r : len - a->r, low ? -1 : 1, e);
    } else if (code == EV_WALL_X || code == EV_WALL_XL) {
        a->vx = -(fabs(vx0) < ev->umin ? 1 : e) * vx0;
    } else if (code == EV_WALL_Y || code == EV_WALL_YL) {
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
            if (ev->field || ev->p.restitution < 1) {
                /* The resting-contact rule, as on a floor: a ball sliding
                 * along the round wall is pressed onto it by the field and
                 * by its own turning, w^2 / L (w its speed along the wall);
                 * with e < 1 it would make ever shorter chords, infinitely
                 * many in finite time, and at best (slow impacts elastic)
                 * tens of thousands a unit of time. So it leaves fast
                 * enough for chords of sagitta hrest: sqrt(2 hrest / L) w
                 * in a plain round table. */
                double un = a->vx * nx + a->vy * ny;
                double w2 = a->vx * a->vx + a->vy * a->vy - un * un;
                double L = R - a->r;
                double gn = (ev->field ? ev->gx * nx + ev->gy * ny : 0) +
                            (L > 0 && w2 > 0 ? w2 / L : 0);
                double want = rest_normal(ev, u, un, gn, d - L);
                a->vx += (want - un) * nx;
                a->vy += (want - un) * ny;
            }
        }
    }
    ev->wall_px += m * (a->vx - vx0);
    ev->wall_py += m * (a->vy - vy0);
    ev->c[k].tlast = ev->t;
    count_other(ev, k);
    ev->walls++;
    predict(ev, k, (size_t)-1);
}

static void cross(struct event *ev, size_t k, int code)
{
    cell_unlink(ev, k);
    long dx = 0, dy = 0;
    /* the direction: the velocity's on a straight path (slowing or not, it
     * never turns), the code's in a field (a parabola turns) */
    if (code == EV_CROSS_X)
        dx = ev->b[k].vx > 0 ? 1 : -1;
    else if (code == EV_CROSS_Y)
        dy = ev->b[k].vy > 0 ? 1 : -1;
    else if (code == EV_CROSS_XP || code == EV_CROSS_XL)
        dx = code == EV_CROSS_XP ? 1 : -1;
    else
        dy = code == EV_CROSS_YP ? 1 : -1;
    ev->q[k].cx += (int32_t)dx;
    ev->q[k].cy += (int32_t)dy;
    cell_link(ev, k);
    /* No trajectory changes: the collisions others predicted with k stay
     * valid, and so do k's own. */
    ev->crossings++;
    predict_crossed(ev, k, dx, dy);
}

/* The engine's loop: events with t <= T, at most max physical ones (<= 0:
 * no limit). Returns 1 when the queue holds nothing more up to T, 0 when the
 * budget ran out. *done counts the physical events. */
/* Record k has moved cen_h from the centre of its list: a new list, and
 * its predictions over the balls new to it (no course changes). */
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
            predict_pair(ev, &a, k, (size_t)j, &pair, 0);
    }
    settle(ev, k, pair, own);
}

/* The 3x3 cells around record k, into the cache. */
static EV_INLINE void prefetch_window(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    /* each row of three cells is 48 bytes: its two ends (the border
     * makes them all there) */
    long cx = ev->q[k].cx, cy = ev->q[k].cy;
    for (long y = cy - 1; y <= cy + 1; y++) {
        __builtin_prefetch(&ev->cell[cell_at(ev, cx - 1, y)]);
        __builtin_prefetch(&ev->cell[cell_at(ev, cx + 1, y)]);
    }
#else
    (void)ev;
    (void)k;
#endif
}

/* The next event is most likely one of the two below the heap's top:
 * the cells around their balls into the cache (with a million balls each
 * row of cells is otherwise a miss). */
static EV_INLINE void prefetch_cells(const struct event *ev)
{
    if (!ev->grid || ev->nl || ev->n < EV_PREFETCH_MIN)
        return;
    for (size_t h = 1; h <= 2 && h < ev->nnear; h++) {
        int32_t k = ev->near[h], j = ev->q[k].slot.j;
        prefetch_window(ev, k);
        if (j >= 0)
            prefetch_window(ev, j);
    }
}

/* The balls in place in each of the 3x3 cells around record k into the cache
 * at once, rather than one after the other as the walk reaches them. */
static EV_INLINE void prefetch_records(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    long x0, x1, y0, y1;
    cell_window(ev, (size_t)k, &x0, &x1, &y0, &y1);
    for (long y = y0; y <= y1; y++)
        for (long x = x0; x <= x1; x++) {
            const struct event_cell *cl = &ev->cell[cell_at(ev, x, y)];
            for (int32_t i = 0; i < cl->n && i < EV_CELL_CAP; i++)
                __builtin_prefetch(&ev->b[cl->j[i]]);
        }
#else
    (void)ev;
    (void)k;
#endif
}

/* The balls in record k's neighbour list into the cache at once. */
static EV_INLINE void prefetch_list(const struct event *ev, int32_t k)
{
#if defined(__GNUC__)
    const struct event_nlist *l = &ev->nbr[k];
    for (int32_t c = 0; c < l->n; c++)
        __builtin_prefetch(&ev->b[l->j[c]]);
#else
    (void)ev;
    (void)k;
#endif
}

/* The neighbours of the event's balls, before its work begins. */
static EV_INLINE void prefetch_balls(const struct event *ev, int32_t k,
                                     const struct event_item *e)
{
    if (!ev->grid || ev->n < EV_PREFETCH_MIN)
        return;
    if (ev->nl) {
        prefetch_list(ev, k);
        if (e->j >= 0)
            prefetch_list(ev, e->j);
        return;
    }
    prefetch_records(ev, k);
    if (e->j >= 0)
        prefetch_records(ev, e->j);
}

static int run(struct event *ev, double T, long long max, long long *done)
{
    *done = 0;
    for (;;) {
        int32_t k = q_top(ev);
        if (k < 0 || !(ev->q[k].slot.t <= T))
            break;
        struct event_item e = ev->q[k].slot;
        prefetch_cells(ev);
        prefetch_balls(ev, k, &e);
        if (stale(ev, &e)) {
            predict(ev, (size_t)k, (size_t)-1);
            continue;
        }
        int code = e.j < 0 ? -1 - e.j : -1;
        int physical = code < EV_CROSS_X;
        ev->t = e.t;
        if (code < 0) {
            size_t i = (size_t)k, j = (size_t)e.j;
            if (ev->q[j].id < ev->q[i].id)
                collide(ev, j, i);
            else
                collide(ev, i, j);
        } else if (physical) {
            bounce(ev, (size_t)k, code);
        } else if (code == EV_NLIST) {
            renew(ev, (size_t)k);
        } else {
            cross(ev, (size_t)k, code);
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
    ev->e0 += 0.5 * ev->c[k].m * (vx * vx + vy * vy - v0);
    a->vx = vx;
    a->vy = vy;
    set_scales(ev, sqrt(vx * vx + vy * vy));
    count_other(ev, k);
    predict(ev, k, (size_t)-1);
    publish(ev);
}

void event_position(const struct event *ev, size_t i, double *x, double *y)
{
    double vx, vy;
    ball_now(ev, &ev->b[ev->at[i]], x, y, &vx, &vy);
}

void event_to_sim(const struct event *ev, struct sim *s)
{
    for (size_t i = 0; i < ev->n; i++)
        ball_now(ev, &ev->b[ev->at[i]], &s->x[i], &s->y[i], &s->vx[i], &s->vy[i]);
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
        long long kc = kcoll(ev, k);
        if (kc > d->max_ball)
            d->max_ball = kc;
        double x, y, vx, vy;
        ball_now(ev, &ev->b[k], &x, &y, &vx, &vy);
        d->px += ev->c[k].m * vx;
        d->py += ev->c[k].m * vy;
    }
    double n = (double)ev->n;
    d->per_ball = ev->n ? 2.0 * (double)ev->collisions / n : 0;
    d->mft = ev->collisions ? n * (ev->t - ev->t0) / (2.0 * (double)ev->collisions)
                            : INFINITY;
    d->ke = kinetic(ev, &d->pf, &d->out);
    d->ke0 = ev->ke0;
    d->e = d->ke + d->pf;
    d->e0 = ev->e0;
    d->de = ev->e0 != 0 ? (d->e - ev->e0) / fabs(ev->e0) : 0;
    d->wall_px = ev->wall_px;
    d->wall_py = ev->wall_py;
    d->heap = ev->nnear + ev->nring + ev->nover;
}
