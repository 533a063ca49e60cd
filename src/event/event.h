/*
 * event.h - the event-driven engine: exact hard balls, no time step.
 *
 * Pure C11 and libm: no I/O, no globals, no exit. The engine predicts every
 * future collision analytically (ball-ball, ball-wall, and, with the grid,
 * the moments a ball crosses into another cell), keeps each ball's earliest
 * in a calendar queue ordered by time, and jumps from one to the next. Between two
 * events every ball flies straight, or on a parabola in a uniform field (all
 * balls alike, so two balls still close in on a straight line), so no
 * collision is ever missed however small or fast the balls are.
 *
 * It is built from a struct sim (the spring engine's state) and written back
 * into one at any time, so a front end can switch engines on a running state:
 *
 *     struct event ev;
 *     struct event_fault f;
 *     struct event_config cfg = event_default_config();
 *     if (event_init(&ev, &sim, &cfg, &f) == 0) {
 *         event_advance(&ev, t_frame, 0);   // every frame
 *         event_to_sim(&ev, &sim);          // draw sim as usual
 *     }
 *     event_free(&ev);
 *
 * Invariants, with now = ev->t:
 * - each ball is at its recorded position at its own time <= now and flies
 *   with its velocity since then (lazy drift: an event touches only its
 *   balls);
 * - each ball has one pending event, the earliest it predicted; a collision
 *   carries the partner's collision counter as it was when predicted, and
 *   is stale, and predicted again when it comes up, once that counter has
 *   moved on;
 * - events with equal times are processed in a fixed order: by time, then
 *   by the lower ball index, then by the partner (walls and cell crossings
 *   before partners). See README "Simultaneous contacts".
 *
 * The layer (src/event/): the exact engine by concept, times
 * (event_time), calendar (event_queue), cells (event_cells), predictions,
 * the run and start-up; event_impl.h is its private insides. It sees the
 * core alone.
 */
#ifndef EVENT_H
#define EVENT_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/// Two balls whose centres are closer than (r_i + r_j)(1 - EVENT_TOUCH_TOL)
/// overlap; closer than r_i + r_j but not by that much they touch (the rack's
/// balls, computed 2r apart up to rounding; the textbook inputs carry
/// relative errors near 3e-14). Walls have their own: sim_wall_slack (types.h).
#define EVENT_TOUCH_TOL 1e-9

/// Impacts with a normal speed below EVENT_SLOW times the fastest ball's
/// speed (at init or in a kick) are elastic whatever the restitution: real
/// viscoelastic balls have e -> 1 as the impact speed -> 0, and an
/// inelastic gas then cools towards a floor instead of towards underflow.
#define EVENT_SLOW 1e-6

/// How the engine is built.
struct event_config {
    /// 1 (default): a uniform grid above 20 balls, each ball predicting
    /// only against balls in the neighbouring cells, with an event when it
    /// crosses into another cell, and in a dense gas (from packing
    /// EVENT_NL_PHI) neighbour lists over the grid instead; all pairs for
    /// 20 balls or fewer (fewer instructions per event there). 2: the grid
    /// at any size, never neighbour lists. 3: neighbour lists at any size
    /// and density (the grid where they cannot be had: radii differing by
    /// more than EVENT_NL_RATIO, a field, friction, open sides). 0: every
    /// ball predicts against every other, O(N) per event. All give the same
    /// trajectories, bit for bit.
    int grid;
    /// 0 (default): overlapping balls, or a ball through a wall, are an
    /// error at init (event_init returns EVENT_EOVERLAP / EVENT_EWALL).
    /// 1: accepted, for a state taken from the spring engine: an overlapping
    /// pair that approaches collides at once; one that recedes is left to
    /// separate; a ball pressed into a wall and moving into it bounces at once.
    int allow_overlap;
    /// Duration below which successive collisions of a ball are elastic
    /// whatever the restitution (the "TC model" of Luding and McNamara, which
    /// stops inelastic collapse: infinitely many collisions in finite time).
    /// < 0 (default): 1e-6 * (smallest radius) / (largest speed), the
    /// speed at init or in a later kick.
    /// Irrelevant when restitution is 1.
    double tc;
};

/// Results of event_init.
enum event_status {
    EVENT_OK = 0,
    EVENT_ENOMEM = -1,   ///< out of memory
    EVENT_EOVERLAP = -2, ///< balls fault.i and fault.j overlap
    EVENT_EWALL = -3,    ///< ball fault.i reaches through a wall
    EVENT_EFIELD = -4,   ///< the field is too strong: the energy it can give
                         ///< the balls on the table, sum m (|gx| w + |gy| h),
                         ///< overflows (positions and speeds would follow)
};

/// What event_init found wrong: 0-based ball indices (i < j).
struct event_fault {
    size_t i, j;
};

/// Counts and rates for --stats and the status line.
struct event_diag {
    long long events;     ///< collisions + wall bounces processed
    long long collisions; ///< ball-ball collisions
    long long walls;      ///< ball-wall bounces
    long long crossings;  ///< cell crossings (bookkeeping, not physics)
    long long rebuilds;   ///< neighbour lists built anew (bookkeeping too)
    double per_ball;      ///< mean collisions per ball, 2 * collisions / n
    long long max_ball;   ///< most collisions of one ball
    double mft;           ///< mean free time: n * elapsed / (2 * collisions), or INFINITY
    double ke, ke0;       ///< kinetic energy now and at init
    double pf;            ///< potential of the field, -sum m (gx x + gy y) (0 without)
    double e, e0;         ///< ke + pf now, and at init (moved by kicks' work)
    double de;            ///< (e - e0) / |e0|, 0 when e0 == 0
    double dissipated;    ///< the state's dissipated at init, plus e0 - e where
                          ///< anything dissipates here (restitution < 1,
                          ///< friction), else plus 0: the rounding shows in
                          ///< de alone (it read -1.4e-14); event_to_sim writes
                          ///< it to the state's dissipated: one value
                          ///< everywhere (--stats, --series, R, the screen)
    long out;             ///< balls wholly past an open side
    double px, py;        ///< total momentum
    double wall_px, wall_py; ///< total impulse the walls gave since init
    size_t heap;          ///< events queued: one per ball that has one
};

/// Neighbour lists are chosen (grid 1) from this packing fraction up
/// (below it the grid's 3x3 cells cost no more: see README), for balls
/// whose radii differ by at most EVENT_NL_RATIO.
#define EVENT_NL_PHI 0.7
#define EVENT_NL_RATIO 2.0

/// Why the engine stopped (struct event_stop): the first result that was
/// not finite. Balls i and j count from 0 by number (i <= j).
enum event_stop_cause {
    EVENT_RUNNING = 0, ///< it has not stopped
    EVENT_SMASS,       ///< collision of balls i and j: their reduced mass
                       ///< m_i m_j / (m_i + m_j) overflows
    EVENT_SIMPULSE,    ///< collision of balls i and j: the impulse, or a speed
                       ///< after it, overflows
    EVENT_SBOUNCE,     ///< ball i (= j) off a wall: its speed after it overflows
    EVENT_SFLIGHT,     ///< ball i (= j): its position or speed overflows in flight
};

/// What stopped the engine, at time t: the state is left as that event
/// made it, not finite, and event_advance and event_step process nothing
/// more. cause EVENT_RUNNING while it runs.
struct event_stop {
    int cause; ///< enum event_stop_cause
    size_t i, j;
    double t;
};

/// The engine's insides (event_impl.h): the balls' records in cell
/// order, the queue, the grid.
struct event_in;

/// The engine. Fields are read-only for callers and brought up to date
/// whenever an event_* call returns; arrays have n entries, by ball number.
struct event {
    size_t n;
    struct sim_params p;       ///< as given to event_init
    double t;                  ///< now
    double *vx, *vy;           ///< velocities
    long long *ncoll;          ///< ball-ball collisions of each ball
    long long collisions;      ///< ball-ball collisions since init
    long long walls;           ///< wall bounces since init
    struct event_stop stop;    ///< why it stopped, if it did
    struct event_in *in;       ///< NULL before event_init and after event_free
};

/// What of these parameters the engine cannot simulate ("gravity", "open
/// space", "contact exp", "friction"), or NULL when it can run them. It
/// models hard balls on a table, in a uniform field or not, with open sides
/// or not: open space (no table), N-body gravity, exponential contacts and
/// friction are outside it; spring walls are hard walls to it.
const char *event_unsupported(const struct sim_params *p);

/// Grid on, overlaps an error, default tc.
struct event_config event_default_config(void);

/// Builds an engine from the state of @p s (positions, velocities, masses,
/// radii, table and restitution; time s->t).
/// @param cfg NULL for event_default_config().
/// @param fault filled in on EVENT_EOVERLAP and EVENT_EWALL (may be NULL);
///   the pair reported is the first in (i, j) order.
/// @return EVENT_OK, or an enum event_status < 0 with nothing left to free
///   (a code: the front end words it, words.h).
int event_init(struct event *ev, const struct sim *s,
               const struct event_config *cfg, struct event_fault *fault);

/// Frees what event_init allocated. Safe on a zeroed struct.
void event_free(struct event *ev);

/// Processes every event with time <= @p T in order, then sets the time to
/// exactly @p T (when T >= now).
/// @param max_events stop after this many physical events (collisions and
///   wall bounces) even before T; <= 0 for no limit. A front end passes a
///   budget per frame so that a frame never takes unbounded time.
/// @return 1 when the time reached T, 0 when the budget ran out first (then
///   ev->t is the time of the last event processed). It allocates nothing:
///   the queue and the cells were sized by event_init.
int event_advance(struct event *ev, double T, long long max_events);

/// Processes the next @p count physical events (or fewer if none remain);
/// the time is then that of the last one. @return how many were processed.
long long event_step(struct event *ev, long long count);

/// Gives ball @p i the velocity (@p vx, @p vy) at the current time (a kick
/// from the front end) and predicts its events again. For any other change
/// of the state, write it back with event_to_sim, change the struct sim, and
/// build a new engine.
void event_kick(struct event *ev, size_t i, double vx, double vy);

/// Writes the state at the current time into @p s, which must have the same
/// n: positions (drifted to now), velocities, s->t = now. Masses, radii,
/// parameters and s->steps are left as they are.
void event_to_sim(const struct event *ev, struct sim *s);

/// The position of ball @p i at the current time.
void event_position(const struct event *ev, size_t i, double *x, double *y);

/// Counts, energy and momentum of the current state.
void event_diag(const struct event *ev, struct event_diag *d);

#endif
