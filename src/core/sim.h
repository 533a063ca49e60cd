/*
 * sim.h - the spring-collision simulation core.
 *
 * Pure C11 and libm: no I/O, no globals, no exit. Headless runs, tests,
 * benchmarks and the terminal front end all step exactly this code.
 *
 * State is a structure of arrays sized at run time. A ball-ball contact is a
 * Hooke spring of rest length 0 between overlapping balls; walls push back
 * with k times the penetration. Integration is semi-implicit (symplectic)
 * Euler: all forces first, then per ball v += dt*F/m, x += dt*v.
 *
 * The layer (src/core/): the engine and what it stands on: state, step,
 * broad phase (grid.h), contact laws (contact.h), gravity, history,
 * memory (mem.h, bigmem.h), the split step's threads (split.h). It sees
 * nothing above it: compiled with src/core/ alone on its include path,
 * without stdio or curses (tests/house.sh). Codes out, never words.
 */
#ifndef SIM_H
#define SIM_H

#include "types.h"

#include <stddef.h>
#include <stdint.h>

struct grid;
struct sim_scratch;

/// Added to every centre distance so that coincident centres never divide
/// by zero (the model's published form).
#define SIM_DIST_EPS 0.000001

/// Automatic gravity (theta < 0): the exact O(n^2) sum up to this many
/// bodies, Barnes-Hut with opening angle SIM_BH_THETA above.
#define SIM_BH_MIN 4096
#define SIM_BH_THETA 0.5

/// Below this many balls the O(n^2) pair loop is faster than the grid
/// (measured: the crossover is about 8; the results are the same bits).
#ifndef SIM_GRID_MIN
#define SIM_GRID_MIN 8
#endif

/// From this many balls on, sim_step keeps the slots in cell order (see
/// sim_sort), re-sorting every SIM_SORT_EVERY steps; fewer fit in cache.
#define SIM_SORT_MIN 4096
#ifndef SIM_SORT_EVERY
#define SIM_SORT_EVERY 128
#endif

/// The diagnostics of one state, all computed from the current x and v.
struct sim_diag {
    double ke;     ///< kinetic energy, sum of m v^2 / 2
    double pe;     ///< spring potential, sum of k s^2 / 2 over contacts and walls
    double e;      ///< ke + pe (+ pg with gravity)
    double px, py; ///< total momentum
    long contacts; ///< ball-ball pairs that overlap (s > 0); with contact exp, closer than eps
    /* Fields of the other systems (contact laws, walls, gravity): zero in
     * a plain Hooke scene. */
    double pg;         ///< gravitational potential, -sum G m_i m_j / sqrt(d^2 + soft^2); in e
    double dissipated; ///< energy taken out so far by dashpots, inelastic hard
                       ///< walls and friction
    double pf;         ///< potential of the uniform field, -sum m (gx x + gy y); in e
    long out;          ///< balls wholly outside the table, past an open side
    long long clamps;  ///< exponential contact steps whose gap was clamped (dt too large)
};

/// What sim_step, sim_forces, sim_sort and sim_diag return.
enum sim_status {
    SIM_OK = 0,
    SIM_ENOMEM = -1, ///< the broad phase or its scratch could not be allocated
    SIM_ESIZE = -2,  ///< balls that meet (a contact law) without a positive
                     ///< finite radius: no broad phase can hold them
};

/*
 * Threads for a step, lent by the caller: the core makes none. The Hooke
 * rectangle's step over the grid (sim_hooke_rect) then sweeps its balls
 * in up to nthreads parts, strips of cells in the cells' order, that may
 * run at once, and combines them into the same bits as one thread's
 * (sim_sweep.c, sim_sweep_split): each part's terms on the balls the part
 * before it also reaches are listed and added after that part's, in cell order, by
 * whichever of the two parts ends last (no lock; no part waits for
 * another). A build of the neighbour list runs in parts too
 * (grid_update_par: the balls into cells, the pair search, the sort into
 * rows), the same list. The rest (the general path's forces, the cell
 * order, the diagnostics) stays in the caller's thread.
 */
struct sim_threads {
    /// Runs part(arg, k) for every k in 0 .. nparts - 1 (nparts at most
    /// nthreads), each once, at once or one after the other in any order,
    /// and returns when all have returned.
    void (*run)(void *ctx, int nparts, void (*part)(void *arg, int k), void *arg);
    void *ctx;   ///< run's own
    int nthreads; ///< the threads run may use, the caller's among them (>= 2)
    size_t min;  ///< split from this many balls on (and more than one block
                 ///< of GRID_BLOCK balls a part): fewer step in one thread
    long long split_steps; ///< steps split so far (the core counts them)
    int most;    ///< the most parts a step was split into so far (0: none)
};

/// The simulation. Arrays are owned and indexed by slot. Slot i holds the
/// scene's ball id[i]: slots start in scene order, and sim_step may reorder
/// them (all arrays alike) to keep neighbours near each other in memory.
/// Outside the core, use sim_slot and sim_ball rather than id: a writer
/// prints ball b from slot sim_slot(s, b).
struct sim {
    struct sim_params p;
    size_t n;                  ///< number of balls
    double *x, *y;             ///< centre position
    double *vx, *vy;           ///< velocity
    double *m, *r;             ///< mass (> 0) and radius (> 0)
    double *fx, *fy;           ///< forces, as sim_forces leaves them (stale after
                               ///< a sim_step over the grid, which keeps its own)
    double t;                  ///< simulated time, exact: t_base plus the steps
                               ///< since steps_base times dt (see sim_step)
    long long steps;           ///< steps taken
    double dissipated;         ///< running total of the energy lost (restitution < 1)
    long long clamps;          ///< running count of clamped exponential gaps
    double diss_power;         ///< set by sim_forces: power the dashpots take out now
    long clamp_now;            ///< set by sim_forces: gaps clamped in this evaluation
    uint32_t *id;              ///< scene index of the ball in each slot
    uint32_t *slot;            ///< the inverse: slot of each scene ball (see sim_slot)
    int finite;                ///< set by each sim_step, by its own integration as
                               ///< it writes the balls (no pass of its own): 1 when
                               ///< every position and velocity it left is finite, 0
                               ///< when one may not be (then sim_finite decides:
                               ///< x + y + v^2 overflowing says 0 too); nothing
                               ///< else sets it
    struct grid *grid;         ///< broad phase cache, NULL until needed
    struct sim_scratch *scratch; ///< the step's own buffers (sim_impl.h), NULL until needed
    struct sim_threads *threads; ///< NULL: every step in one thread;
                               ///< the caller's to set, kept by sim_assign and the
                               ///< edits, not copied to another sim (sim_copy)
    /* The base of t (set by sim_step; see there). */
    double t_base, dt_base, t_last;
    long long steps_base, steps_last;
};

/// Default parameters: table 800 x 400, k = 5, dt = 0.05.
struct sim_params sim_default_params(void);

/// Allocates a simulation of @p n balls, all fields zero, t = 0.
/// @return 0, or -1 when memory is short (then *s holds nothing to free).
int sim_init(struct sim *s, size_t n, const struct sim_params *p);

/// As sim_init, for a use @p how of the arrays (mem.h's MEM_FLAT: read and
/// written in order, as by the event engine's start-up and write-back,
/// never stepped at random: small pages, cheaper to hand out fresh).
int sim_init_as(struct sim *s, size_t n, const struct sim_params *p, unsigned how);

/// Frees what sim_init allocated. Safe on a zeroed struct.
void sim_free(struct sim *s);

/// Copies the whole state (balls, slot order, parameters, time) of @p src
/// into @p dst, which must have been initialised with the same n.
void sim_copy(struct sim *dst, const struct sim *src);

/// Computes all forces for the current positions into fx, fy: with the
/// grid from SIM_GRID_MIN balls on, else the O(n^2) loop (the same bits).
/// @return SIM_OK, or SIM_ENOMEM / SIM_ESIZE when the grid cannot be made
/// (then fx, fy are unchanged: never a silent O(n^2) over many balls).
int sim_forces(struct sim *s);

/// The O(n^2) pair loop: the oracle every broad phase is tested against.
void sim_forces_brute(struct sim *s);

/// One step with the O(n^2) forces and no broad phase or re-sort: the
/// oracle of sim_step (the same bits), and the all-pairs benchmark.
void sim_step_brute(struct sim *s);

/// One step of sim_step, but always by the general force path (contact.c,
/// gravity.c), even where the Hooke rectangle's fast path applies: its
/// oracle (the same bits on a scene both can step).
int sim_step_general(struct sim *s);

/*
 * The observed state. Semi-implicit Euler stores, at step n, the positions
 * x_n and the velocity of the half step that led to them,
 * v_{n-1/2} (v += dt F/m, then x += dt v). The velocity at x_n's own time is,
 * to second order, v_n = v_{n-1/2} + (dt/2) F(x_n)/m: the scheme keeps the
 * energy of (x_n, v_n) within O(dt^2) even inside a contact, while the
 * stored velocities' energy is off by O(dt) (the head-on pair at the
 * default dt: 0.6% at the deepest overlap instead of 8.6%). Every
 * observer (the screen, the plots, the recordings, --stats) shows this
 * state; the stored one is the restart state (a scene file's). The two
 * are the same bits wherever no force acts on a ball. Friction is left
 * out: it acts between the kick and the drift as a decay of the speed,
 * not as a force of the positions, and the stored velocity is already
 * the one it left.
 */

/// The observed state of @p s into @p obs: zeroed, or an earlier
/// observation (of any state: it is made again when n differs, and it
/// keeps its own broad phase between calls when the balls kept their
/// slots, masses and radii, so that an observation every step costs one
/// force evaluation). Positions, parameters and time are s's; velocities
/// are synchronised, v + (dt/2) F/m; obs->fx, fy hold F. @p s is not
/// touched (its broad phase neither: observing never changes a run).
/// @return SIM_OK; SIM_ENOMEM or SIM_ESIZE when the forces cannot be
/// computed (obs then holds s with its stored velocities), and -1 when
/// obs cannot be allocated (obs unchanged).
int sim_observe(const struct sim *s, struct sim *obs);

/// The inverse: sets the stored velocities of @p s so that its observed
/// velocities are @p vx, @p vy (n each, in slot order): v = v_obs -
/// (dt/2) F/m, iterated to its fixed point when F depends on the
/// velocities (the dashpot of restitution < 1), and each component
/// nudged by an ulp or two where that makes the observed one come out as
/// the very bits asked for. What a user types is then what is shown; a
/// change of dt, k, e or the field re-derives the stored velocities from
/// the observed ones so that nothing shown moves. A component whose
/// solution is not finite is stored as asked. @p vx, @p vy may be s's own
/// (the stored velocities taken for the observed ones).
/// @return SIM_OK, or SIM_ENOMEM / SIM_ESIZE (or -1: no memory for the
/// copy it works on) with s unchanged.
int sim_unobserve(struct sim *s, const double *vx, const double *vy);

/// Tells the broad phase that positions, radii or masses changed other
/// than by sim_step (an edit, a drag): call it after such a change.
/// Velocities may change freely (a kick).
void sim_touch(struct sim *s);

/// The slot that holds scene ball @p ball (0 <= ball < n): O(1).
size_t sim_slot(const struct sim *s, size_t ball);

/// The scene ball held in slot @p slot (0 <= slot < n): O(1).
size_t sim_ball(const struct sim *s, size_t slot);

/// Puts the slots in cell order now (every per-ball array, id and slot;
/// fx, fy become stale), as sim_step does from SIM_SORT_MIN balls on every
/// SIM_SORT_EVERY steps. Nothing to do without a broad phase.
/// @return SIM_OK, or SIM_ENOMEM / SIM_ESIZE (then nothing moved).
int sim_sort(struct sim *s);

/// One fixed step: forces, then v += dt*F/m and x += dt*v for every ball.
/// From SIM_SORT_MIN balls on it may first reorder the slots (see id).
/// Time stays exact: t = t_base + (steps - steps_base) * dt, where the base
/// (t_base, steps_base) is the time and step at which dt last changed (or t
/// or steps were set from outside), so -T 50 at dt 0.05 is 1000 steps.
/// The broad phase is used whenever there are contacts among SIM_GRID_MIN
/// balls or more; when it cannot be made the step fails and changes nothing.
/// @return SIM_OK, or SIM_ENOMEM / SIM_ESIZE.
int sim_step(struct sim *s);

/// The widest vectors the Hooke sweep may use, for every sim from now on
/// (the same bits at every width; for the tests and benchmarks): @p cap 0
/// the build's own (SSE2 on x86-64), 1 AVX2 where the processor has it (the
/// default). Call it before any step, not while one runs.
/// @return the width the sweep now uses on this processor (0 or 1).
int sim_set_width(int cap);

/// The time sim_step's exact rule gives after @p k more steps of the
/// current dt (k = 0: s->t), without stepping.
double sim_time_after(const struct sim *s, unsigned long long k);

/// How many more steps of the current dt it takes to reach time @p T by
/// that rule: the fewest k with sim_time_after(s, k) >= T (0 when t >= T
/// already; -T T at dt 0.05: 1000 steps for T = 50, 1001 for 50.01).
/// Headless runs, the LAMMPS export and the terminal's pause all count
/// their steps with it. @return the count (0 for T NaN), or ULLONG_MAX when
/// T is not reached below that many steps (T infinite or beyond 2^63 steps,
/// or t stalls: dt below t's rounding).
unsigned long long sim_steps_until(const struct sim *s, double T);

/// Text for a status of enum sim_status.
const char *sim_strerror(int rc);

/// Diagnostics of the current state.
/// @return SIM_OK, or SIM_ENOMEM / SIM_ESIZE when the broad phase its pair
/// sums need cannot be made: then pe and e are NaN.
int sim_diag(const struct sim *s, struct sim_diag *d);

/// The shortest contact time pi*sqrt(mu/k) over all pairs (mu = reduced
/// mass of the two lightest balls) and walls (mu = m), i.e. how many steps
/// of dt resolve a collision: the front end warns when it is below 10.
double sim_contact_time(const struct sim *s);

/// There are two force paths. 1 when the parameters take the Hooke
/// rectangle's fast path (rectangle, spring walls on all four sides, Hooke
/// contacts, restitution 1, no gravity, friction or field: the original
/// system, whose forces are fused with the integration over the grid); 0
/// when they take the general path (every law through contact.c and
/// gravity.c; see sim_step_general).
int sim_hooke_rect(const struct sim_params *p);

/// 1 when every position and velocity is finite. Right after sim_step,
/// s->finite 1 says the same at no cost (0: ask sim_finite).
int sim_finite(const struct sim *s);

/// Appends a ball as scene ball n (the last); the slots are put in scene
/// order and the broad phase starts afresh. Time, parameters and totals
/// are kept. @return 0, or -1 when memory is short (s unchanged).
int sim_add_ball(struct sim *s, double x, double y, double vx, double vy, double m, double r);

/// Appends @p n balls at once (one copy of the state, not n): balls n0 to
/// n0 + n - 1 (n0 the count before), all zero, in slots n0 to n0 + n - 1
/// until the next step; the caller sets them. As sim_add_ball otherwise.
/// @return 0, or -1 when memory is short or the count too large (s unchanged).
int sim_add_balls(struct sim *s, size_t n);

/// Removes scene ball @p ball: the balls after it move down one scene
/// index; slots in scene order afterwards. @return 0, or -1 (no such
/// ball, memory short: s unchanged).
int sim_remove_ball(struct sim *s, size_t ball);

/// Copies @p src into @p dst as sim_copy does, whatever their ball counts:
/// dst (initialised, or zeroed) is made again when n differs.
/// @return 0, or -1 when memory is short (dst unchanged).
int sim_assign(struct sim *dst, const struct sim *src);

#endif
