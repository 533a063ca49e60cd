/*
 * event_impl.h - the event engine's insides, shared by its files and by no
 * other module (the unit tests may look): the records of the balls, the
 * codes of single-ball events, the engine's tunables, and what one file of
 * the engine gives another. The engine by concept:
 *
 *     event_time.[ch]   when: paths, and pair, wall, crossing and list times
 *                       (straight, parabolic, slowing, quartic)
 *     event_queue.[ch]  the calendar of pending events
 *     event_cells.[ch]  the grid, its cells, the neighbour lists
 *     event_predict.c   a record's next event: its own, its pairs, after a
 *                       crossing or a new list
 *     event_run.c       the loop and what events do; the public calls
 *     event_init.c      start-up, its checks, freeing
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
#ifndef EVENT_IMPL_H
#define EVENT_IMPL_H

#include "event.h"

#include <stddef.h>
#include <stdint.h>

/// A record's pending event, 16 bytes (records in cell order): j >= 0:
/// the collision of the record with record j; j < 0: the record alone,
/// code -1 - j (the EV_ codes below: walls, crossings).
struct event_item {
    double t;
    int32_t j;
    uint32_t cp; ///< the partner's counter at prediction
};

/// Where a record's slot is in the queue: the list (or the heap, or
/// nowhere), the links of the list, the place in the heap.
struct event_link {
    int32_t where, next, prev, pos;
};

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

/* A record wanted soon (for reading, or for writing) fetched meanwhile:
 * passes over the balls in number order meet their records in cell order,
 * at random, each a cache miss at 10^6 balls unless asked for ahead. */
#if defined(__GNUC__)
#define EV_FETCH(p) __builtin_prefetch((p), 0)
#define EV_FETCH_W(p) __builtin_prefetch((p), 1)
#else
#define EV_FETCH(p) ((void)(p))
#define EV_FETCH_W(p) ((void)(p))
#endif
/* Physical events between the polls of the records' move to huge
 * pages (see ev_settle). */
#define EV_SETTLE_EVERY 16384

/* How many balls ahead such a pass asks. */
#define EV_AHEAD 16

/* The inner loop's functions, inlined where the compiler allows asking. */
#if defined(__GNUC__)
#define EV_INLINE inline __attribute__((always_inline))
#else
#define EV_INLINE inline
#endif

/* What runs at most once in a run (the engine stopping), out of the
 * inner loop's way. */
#if defined(__GNUC__)
#define EV_COLD __attribute__((cold, noinline))
#else
#define EV_COLD
#endif

/* A function of a private header that stays out of line where the
 * compiler likes (the callers' own static copy, so that it knows which
 * registers the call keeps: measured, an out-of-line call into another
 * file costs the inner loops 2-9 % more instructions), and may go unused
 * in a file that includes the header. */
#if defined(__GNUC__)
#define EV_LOCAL static __attribute__((unused))
#else
#define EV_LOCAL static inline
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
 * more. 32 bytes. All zero at start-up but m and tlast, which are written
 * only where they are read: m unless every ball has the mass ev->mass
 * (see ev_mass), tlast (-INFINITY) with restitution below 1. So in a gas of
 * equal elastic balls start-up writes none of them, and their memory,
 * given zeroed (mem_alloc_zero), is handed out only as balls come to need
 * it (a bounce, a counter's wrap, a crowded cell). */
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

/* The engine's insides; struct event (event.h) shows callers what they read
 * and points here. */
struct event_in {
    size_t n;
    struct sim_params p;
    double t, t0;             ///< now, and the time at init
    double tc;                ///< TC-model time (see event_config)
    double umin;              ///< normal speeds below this are elastic
    double vref, rmin;        ///< fastest speed seen (init, kicks), smallest radius
    int mono;                 ///< every ball has the mass `mass`
    double mass;
    int tc_auto;              ///< tc follows vref
    /* The uniform field (p.gx, p.gy): every ball accelerates by g, so a
     * ball at own time tb is at x + v s + g s^2 / 2 at tb + s. */
    int field;                ///< g != 0
    int fric;                 ///< p.friction: none, linear or rolling (not drag)
    double fc;                ///< its constant
    int general;              ///< a field or friction: pair_time's general path
    double gx, gy;
    double hrest;             ///< a ball pressed on a wall by the field leaves it
                              ///< fast enough to rise at least this high
    double urest;             ///< sqrt(2 |g| hrest): inelastic, balls part at least this fast
    /* Balls in cell order (k), in three records each (see event_impl.h): the
     * flight (position, velocity, own time, radius; 64 bytes), what its
     * own events need (the queue, ball number, cell; 64 bytes), and the
     * rest (mass, counts; 32 bytes). */
    struct event_ball *b;
    struct event_qrec *q;     ///< each record's pending event, queue links, number, cell
    struct event_cold *c;     ///< each record's mass, counts and list link
    int32_t *at;              ///< record of ball number i
    /* queue: one slot per record, in a calendar (see event_impl.h) */
    int32_t *near;            ///< heap of the records due before lim
    int32_t *lhead;           ///< the nlist lists of the ring, then the overflow
    size_t nnear, nring, nover, nlist, capl, lnext0;
    double lim, lw;           ///< the heap's end, the lists' span
    double ilw;               ///< 1 / lw
    /* grid (off for a few balls, or when asked) */
    int grid;
    long nx, ny;              ///< cells
    double cw, ch;            ///< cell size, >= the largest small-ball diameter
    double rsmall;            ///< the largest radius of a small ball
    struct event_cell *cell;  ///< per cell: its count and first small balls
    int32_t *more;            ///< per cell: the rest, a doubly linked list (set only while a cell holds more)
    int32_t *big;             ///< records with reach > 1, looked at by every ball
    size_t nbig;
    /* neighbour lists (a dense gas): the cells hold the balls by the
     * centres their lists were built at, not by where they are */
    int nl;                   ///< lists on (then grid is 1 too)
    double skin;              ///< lists reach r_i + r_j + skin
    double cen_h;             ///< a list is built again this far from its centre
    struct event_nlist *nbr;  ///< each record's list and centre
    /* diagnostics */
    long long collisions, walls, crossings, rebuilds;
    struct event_stop stop;   ///< set by the first event whose result is not finite
    double ke0, e0, wall_px, wall_py;
    double diss0;             ///< the state's dissipated at init (sim.h)
    /* the records, lists and cells start on small pages, quick to hand
     * out, and move to huge pages once the engine runs (mem_settle) */
    int settling;             ///< 1: not asked yet, 2: asked, 0: done
};

/* Record k's counter one on (a collision, a bounce or a kick): the cold
 * record hears of it only when it wraps. */
static EV_INLINE void count(struct event_in *ev, size_t k)
{
    if (++ev->b[k].cnt == 0)
        ev->c[k].hi++;
}

/* Record k's counter one on for a bounce or a kick (not a collision). */
static inline void count_other(struct event_in *ev, size_t k)
{
    count(ev, k);
    ev->c[k].other++;
}

/* Record k's collisions: its counter's steps from EV_CNT0 but the others. */
static inline long long kcoll(const struct event_in *ev, size_t k)
{
    uint64_t steps = ((uint64_t)ev->c[k].hi << 32) + ev->b[k].cnt;
    return (long long)(steps - EV_CNT0 - (uint64_t)ev->c[k].other);
}

/* Record k's mass (the cold record holds it only when the masses differ). */
static inline double ev_mass(const struct event_in *ev, size_t k)
{
    return ev->mono ? ev->mass : ev->c[k].m;
}

/* Kinetic energy and the field's potential -m g.x of a ball at (x, y)
 * with velocity (vx, vy) added to *ke and *pf: one formula for start-up
 * and ev_kinetic, so that both round alike. */
static inline void ev_energy_add(const struct event_in *ev, double m, double x, double y,
                                 double vx, double vy, double *ke, double *pf)
{
    *ke += 0.5 * m * (vx * vx + vy * vy);
    if (ev->field)
        *pf -= m * (ev->gx * x + ev->gy * y);
}

/* What the files of the engine give each other (the times' and the
 * queue's in event_time.h and event_queue.h, the cells' in event_cells.h). */

/* event_init.c: n elements of @p size for the engine's arrays (64-byte
 * aligned, through mem.h), or NULL. */
void *ev_array(size_t n, size_t size);
/* event_init.c: as ev_array, for a use @p how (mem.h's MEM_ZERO, MEM_FLAT). */
void *ev_array_as(size_t n, size_t size, unsigned how);
/* event_init.c: tc and umin from the fastest ball seen at init or in a kick. */
void ev_set_scales(struct event_in *ev, double vmax);

/* event_predict.c: record k's own next event (a wall, a crossing, a new
 * list) into *e, and its tlim. */
void ev_predict_own(struct event_in *ev, size_t k, struct event_item *e);
/* event_predict.c: record k predicted again (its partner @p skip left out,
 * (size_t)-1 for none): its slot becomes its earliest event. */
void ev_predict(struct event_in *ev, size_t k, size_t skip);
/* event_predict.c: record k has crossed into the next cell (dx, dy): only
 * the cells come into reach are new. */
void ev_predict_crossed(struct event_in *ev, size_t k, long dx, long dy);
/* event_predict.c: record k has left its list's circle: a new list, and
 * its predictions over the balls new to it. */
void ev_renew(struct event_in *ev, size_t k);

/* event_run.c: kinetic energy now, in ball number order; with *pf the
 * field's potential and *out the balls wholly past an open side. */
double ev_kinetic(const struct event_in *ev, double *pf, long *out);
/* event_run.c: the arrays by ball number brought up to date. */
void ev_publish(struct event *ev);

#endif
