/*
 * session.h - everything a front end drives, without a terminal: the
 * engine (springs or exact events) behind one interface, moves forward and
 * back along a timeline of user actions, reset, kicks, k and dt, the
 * energy reference and the envelope of the diagnostics for plots.
 *
 * Pure C11 and libm: no I/O, no clock, no globals. The terminal front end,
 * --snapshot and the unit tests all drive exactly this code.
 *
 * The timeline. A position counts the moves since the timeline began: a
 * move is one step of dt (springs), or one event or one frame's advance
 * (events), or one live edit (session_add_ball ...: no time passes). A
 * user action (kick, k, dt, gravity) is recorded at the position where it
 * was made. Stepping back goes to an earlier position;
 * stepping forward again (one move, or running) replays the recorded
 * actions at their positions, so the run that comes back is bit for bit
 * the one that was left, kicks included, like an editor's redo. A new
 * action cuts the recorded future (everything after the current
 * position). Reset and a switch of engine start a new timeline: ',' never
 * steps into the run before them.
 *
 * How far back: the spring engine keeps checkpoints (history.h) and
 * replays sim_step from the nearest; the event engine keeps whole states
 * (one a move). Both fill a budget of memory (ss->budget, by default
 * SESSION_BUDGET bytes; session_set_budget): a small scene reaches back
 * many minutes of running, a large one at least SESSION_DEPTH moves.
 *
 * The layer (src/session/): the session, its engines behind one table of
 * operations (session_engines.c), the timeline, edits, diagnostics, the
 * split view's twin and what the drawing reads (shown.h). It sees core,
 * event and io; no stdio, no curses: it returns codes the front end words.
 * Above it nothing names its fields (tests/house.sh rule 7).
 */
#ifndef SESSION_H
#define SESSION_H

#include "event.h"
#include "history.h"
#include "link.h"
#include "sim.h"

#include <stddef.h>

/// Moves that ',' can undo at least (less on a scene too large for it).
#define SESSION_DEPTH 1000
/// Bytes of checkpoints and kept states at most, about, by default.
#define SESSION_BUDGET ((size_t)64 << 20)
/// The least budget session_set_budget takes.
#define SESSION_BUDGET_MIN ((size_t)64 << 10)
/// Columns of the plots' envelope: when they are all in use, neighbours
/// merge in pairs (each then covers twice the samples), so that memory
/// stays bounded and no sample is ever left out of a minimum or maximum.
#define SESSION_COLS 2048
/// The event engine samples every event up to this many balls, every n/8
/// events above (event_diag is O(n)).
#define SESSION_EVENT_EVERY 64
/// Live changes of k and dt stay within this factor of the starting value
/// either way (and finite): 1.25^62, about 10^6.
#define SESSION_PARAM_RANGE 1e6

/// Engines.
enum session_engine {
    SESSION_SPRING = 0, ///< fixed-step Hooke springs (sim_step)
    SESSION_EVENT = 1,  ///< exact hard balls (event.h)
    SESSION_REPLAY = 2, ///< a recorded run shown frame by frame (session_show):
                        ///< nothing is simulated, the state is observed as it is
    SESSION_LIVE = 3,   ///< a run going on elsewhere, its frames as they come
                        ///< through a link (link.h; session_live)
};

/// What an engine can do: the front end asks these, never which engine
/// runs (session_caps). One engine is a table of operations inside the
/// session (session_impl.h: struct ss_engine).
enum session_cap {
    SESSION_CAP_SIMULATES = 1u << 0, ///< it moves the state itself (a replay only shows)
    SESSION_CAP_STEPS = 1u << 1,     ///< fixed steps of dt under forces of k: dt, k, the
                                     ///< step count and the steps a contact take mean something
    SESSION_CAP_EXACT = 1u << 2,     ///< exact hard balls: events, collisions, the mean
                                     ///< free time; contacts are instants
    SESSION_CAP_FORCES = 1u << 3,    ///< forces a ball feels (arrows of F, spring energy),
                                     ///< gravity, sticky contacts and 1-D mode
    SESSION_CAP_OBSERVES = 1u << 4,  ///< the observed state is derived from the stored one
                                     ///< (springs: v + dt/2 F/m), not the state itself
    SESSION_CAP_REMOTE = 1u << 5,    ///< the run is elsewhere, seen through a link
                                     ///< (session_live): its frames come as they are made;
                                     ///< it is paused, its frame rate set and its balls
                                     ///< pushed through the link (what the link can do)
};

/// User actions, recorded on the timeline.
enum session_action_kind {
    SESSION_KICK = 1,    ///< ball's velocity set to (a, b)
    SESSION_SET_K = 2,   ///< k = a
    SESSION_SET_DT = 3,  ///< dt = a
    SESSION_GRAVITY = 4, ///< gravity G = a, softening b (0: off)
    SESSION_SET_E = 5,   ///< restitution = a
    SESSION_BORDER = 6,  ///< table shape = a (enum sim_shape), walls = b (enum sim_walls),
                         ///< open sides = ball (enum sim_side bits)
    SESSION_LINE = 7,    ///< 1-D mode = a (sim_params.line); on: every vy = 0
    /* Live edits (session_add_ball ...): each makes a move of its own. */
    SESSION_ADD = 16,     ///< a ball (a, b, c, d, e, f) = (x, y, vx, vy, m, r), tag
    SESSION_REMOVE = 17,  ///< ball removed; the later ones move down one index
    SESSION_MOVE = 18,    ///< ball to (a, b); its velocity zeroed when c != 0
    SESSION_VELOCITY = 19,///< ball's velocity set to (a, b)
    SESSION_MASS = 20,    ///< ball's mass set to a
    SESSION_RADIUS = 21,  ///< ball's radius set to a
    SESSION_PARAMS = 22,  ///< the run's parameters set to p (not the table)
    SESSION_REVERSE = 23, ///< time reversed: every velocity turned around
};

/// One user action at a position of the timeline.
struct session_action {
    long long pos; ///< position it was made at
    int kind;      ///< enum session_action_kind
    size_t ball;   ///< SESSION_KICK: the scene index of the ball
    double a, b;   ///< see enum session_action_kind
    double e_ref;  ///< the energy right after it: the drift's reference
    double c, d, e, f;    ///< more values of an edit
    uint32_t tag;         ///< SESSION_ADD: the new ball's tag
    struct sim_params p;  ///< SESSION_PARAMS
};

/// What the front end shows of the current state (all of the state shown).
struct session_diag {
    double t;          ///< simulated time
    long long steps;   ///< steps of dt (springs) since the start or reset
    long long events;  ///< physical events since the event mode began
    long long collisions; ///< ball-ball collisions among them
    double mft;        ///< mean free time of the event mode, or -1 (none yet)
    double ke;         ///< kinetic energy, of synchronised velocities (springs:
                       ///< v + dt/2 F/m, the velocity at the positions shown)
    double pe;         ///< potential energy (springs, gravity, the field)
    double e;          ///< ke + pe
    double e_ref;      ///< energy right after the last change at or before now
    double px, py;     ///< total momentum
    long contacts;     ///< overlapping pairs (springs)
    double dissipated; ///< energy taken out by dashpots so far
    long out;          ///< balls gone past an open side
};

/// Channels of the envelope.
enum session_channel {
    SESSION_CH_KE = 0, ///< kinetic energy (observed)
    SESSION_CH_PE = 1, ///< potential energy
    SESSION_CH_E = 2,  ///< their sum
    SESSION_CH_PX = 3, ///< total momentum
    SESSION_CH_PY = 4,
    SESSION_NCH = 5,
};

/// One column of the envelope: the samples of a stretch of the run, as an
/// oscilloscope keeps them (a sample is the observed state's diagnostics
/// at one step or event).
struct session_col {
    double t0, t1;                  ///< times of its first and last sample
    double lo[SESSION_NCH], hi[SESSION_NCH];       ///< least and greatest
    double first[SESSION_NCH], last[SESSION_NCH];  ///< first and last sample
    long long count;                ///< samples in it
};

/// What a call said that the front end words, naming the keys that answer
/// it (the core names no keys): ss->note, with ss->note_ball and
/// ss->note_what. A call sets either ss->msg (a plain text) or a note.
enum session_note {
    SESSION_NOTE_NONE = 0,
    SESSION_NOTE_NOT_FINITE,        ///< the state is not finite: step back or reset
    SESSION_NOTE_NOT_FINITE_PAUSED, ///< a run became non-finite and was paused there
    SESSION_NOTE_UNSTABLE,          ///< dt too large for k: a blow-up stopped, paused
    SESSION_NOTE_NEEDS_SPRINGS,     ///< note_what ("gravity", ...) needs the spring engine
    SESSION_NOTE_TABLE_FIXED,       ///< the table cannot change live (saving it can)
    SESSION_NOTE_CROSSES_WALL,      ///< hard walls refused: ball note_ball[0] crosses a wall
    SESSION_NOTE_OVERLAP,           ///< ball note_ball[0] overlaps ball note_ball[1]
                                    ///< (springs push them apart; events: they collide at once)
    SESSION_NOTE_STOPS_HERE,        ///< note_ball[0] balls: the history was made again,
                                    ///< stepping back stops at this edit
    SESSION_NOTE_EVENT_FAULT,       ///< the event engine refused the state: note_code
                                    ///< (enum event_status), balls note_ball (0: none)
    SESSION_NOTE_EVENT_STOP,        ///< the event engine stopped at a result not finite
                                    ///< (ev.stop): note_code (enum event_stop_cause),
                                    ///< balls note_ball[0] <= note_ball[1], at note_t; paused
    SESSION_NOTE_HISTORY_LIMIT,     ///< a step back reached the oldest move the budget
                                    ///< kept, after the start: note_ball[0] moves kept
};

/// Up to this many balls the session keeps the momentum diagram's memory
/// (session_momenta); above it, nothing.
#define SESSION_PMEM_MAX 64

/// The momentum diagram's memory: each ball's momentum (m v of the observed
/// state, by scene ball) at the last move and before the last contact,
/// the last move before the momenta began to change after a move in which
/// they had not. Kept from every step and event the session takes while
/// on (running, '.', ']', a catch-up: what is drawn or not); a step back
/// keeps "before" while it is not later than the state reached; reset, a
/// change in the number of balls or more than SESSION_PMEM_MAX forget.
struct session_pmem {
    double lx[SESSION_PMEM_MAX], ly[SESSION_PMEM_MAX]; ///< at the last move
    double bx[SESSION_PMEM_MAX], by[SESSION_PMEM_MAX]; ///< before the last contact
    size_t n;        ///< balls of both (have_last)
    double t_last;   ///< the time of the last move
    double t_before; ///< the time of "before"
    int have_last;   ///< lx, ly hold a move
    int have_before; ///< bx, by hold one
    int quiet;       ///< the last move's momenta were those of the one before
                     ///< (or it was the first: a contact seen next starts there)
};

/// A state kept by the event mode.
struct session_snap {
    struct sim s;
    long long pos, events, collisions;
    double e_ref;
    int live; ///< s allocated
};

/// A 3-D run seen from above (session_show_depth, the live engine): the
/// depth of each ball of the state, and the slice that keeps a layer.
/// Balls outside the slice are not in the state at all (s.n counts those
/// kept), so that nothing drawn or summed counts them.
struct session_depth {
    double *z, *vz;     ///< z and vz of each ball of the state (scene order), when on
    uint32_t *atom;     ///< the frame's ball each is (the tag too), when slice
    size_t cap;
    int on;             ///< the frames have a z: drawn nearer (larger z) over farther
    int slice;          ///< only the balls with z0 <= z <= z1 are kept
    double z0, z1;
    size_t nall;        ///< balls in a frame (slice: of which s.n are kept)
};

/// The session. Read the fields; change them only through the functions.
struct session {
    struct sim s;       ///< the state shown (event mode: written back each move)
    struct sim start;   ///< the state reset goes back to
    int engine;         ///< enum session_engine
    long long pos;      ///< position on the timeline
    int nonfinite;      ///< the state is not finite: forward moves refuse
    int runaway;        ///< session_advance stopped a blow-up (see there)
    const char *msg;    ///< what the last call that failed or refused says,
                        ///< a static string or NULL (see note)
    int note;           ///< enum session_note: what it says in the front end's words
    size_t note_ball[2];///< the balls (1-based) or the count the note names
    const char *note_what; ///< what needs the spring engine (a static string)
    int note_code;      ///< the event engine's code the note names
    double note_t;      ///< the time the note names
    double k0, dt0;     ///< starting k and dt: the live bounds are about these
    /* springs */
    struct history h;
    int have_history;
    /* the actions of this timeline, in order of position */
    struct session_action *act;
    size_t nact, capact;
    double e0;          ///< energy at the start of the timeline
    /* events */
    struct event ev;
    long long ev_events0, ev_coll0; ///< counts before the engine was last built
    double ev_t0;       ///< time the event mode began
    struct session_snap *snap; ///< ring of states, one a move
    size_t capsnap, snap0, nsnap, snapnow; ///< ring, count, index of now
    /* diagnostics */
    unsigned long version, diag_version; ///< of the state, and of d
    struct session_diag d;
    struct sim obs;     ///< the observed state (springs; see session_observed)
    unsigned long obs_version; ///< of the state obs was made from
    double *keep;       ///< 4 * capkeep: observed velocities kept across a change
    size_t capkeep;
    struct session_col *col; ///< SESSION_COLS columns, oldest first
    size_t ncol;        ///< columns in use
    long long per;      ///< samples a column takes before the next starts
    int sampling;       ///< sample every step or event (session_sampling)
    int momenta;        ///< keep pm (session_momenta)
    struct session_pmem pm; ///< the momentum diagram's memory
    /* edits: a tag per ball that follows it through adds and removes */
    uint32_t *tag;      ///< of each scene ball now (s.n of them)
    uint32_t *tag0;     ///< at the start of this timeline (n0 of them)
    uint32_t *tag_start;///< of the state reset goes back to (start.n)
    size_t captag, n0, capn0, capstart;
    int gesture;        ///< a drag or wheel: edits of one ball merge
    int group;          ///< 0 off; 1 on; 2 on and its move made
    size_t sized_n;     ///< balls the history or the ring was sized for
    size_t budget;      ///< bytes the history or the ring may take, about
    int snap_dropped;   ///< the ring of states has dropped its oldest
    int edited;         ///< this timeline has edits
    int edited_params;  ///< ... of the parameters
    struct session_live *live; ///< SESSION_LIVE: the link and what came (session_live.c)
    struct session_depth dp;   ///< a 3-D run's depth and slice (session_depth.c)
};

/// What the engine running can do (enum session_cap bits).
unsigned session_caps(const struct session *ss);

/// The engine's name as the title line shows it: "spring", "event", "replay".
const char *session_engine_name(const struct session *ss);

/*
 * Reading the session. A front end reads it through these (and
 * session_observed, session_diag), never its fields: what it may change
 * goes through the functions below, each saying what it did.
 */
/// The stored state (springs: the velocities of the half step that led to
/// the positions; what observers show is session_observed's).
const struct sim *session_state(const struct session *ss);
/// The state reset returns to.
const struct sim *session_start(const struct session *ss);
/// The position on the timeline (moves since it began).
long long session_pos(const struct session *ss);
/// A number that changes whenever the state does.
unsigned long session_version(const struct session *ss);
/// 1 when the state is not finite (forward moves refuse).
int session_nonfinite(const struct session *ss);
/// 1 when the last session_advance stopped a blow-up (see there).
int session_runaway(const struct session *ss);
/// The balls' tags now, by scene ball (session_state()->n of them), or NULL.
const uint32_t *session_tags(const struct session *ss);
/// The recorded actions of this timeline, in order of position: *n of them.
const struct session_action *session_actions(const struct session *ss, size_t *n);

/// What the last call said: a plain text, or a note the front end words.
struct session_said {
    const char *msg;      ///< a static text, or NULL (then the note)
    int note;             ///< enum session_note
    size_t ball[2];       ///< the balls (1-based) or the count the note names
    const char *what;     ///< what needs the spring engine
    int code;             ///< the event engine's code the note names
    double t;             ///< the time the note names
};
struct session_said session_said(const struct session *ss);

/// Lends the spring step threads (sim.h: struct sim_threads) until taken
/// back with NULL; the session makes none itself.
void session_lend_threads(struct session *ss, struct sim_threads *th);

/// Starts a session on a copy of @p start (the state reset returns to),
/// with the spring engine, at position 0.
/// @return 0, or -1 when memory is short (nothing left to free).
int session_init(struct session *ss, const struct sim *start);

/// Frees everything. Safe on a zeroed struct.
void session_free(struct session *ss);

/// Sets the memory the timeline may take to about @p bytes (at least
/// SESSION_BUDGET_MIN), and starts a new timeline at the current state.
/// @return 0, or -1 when memory is short (then ',' says no).
int session_set_budget(struct session *ss, size_t bytes);

/// Switches engines with the current state: a new timeline. The event
/// engine refuses what it cannot simulate, a non-finite state, a ball
/// through a wall. @return 0, or -1 with ss->msg saying why (no change).
int session_set_engine(struct session *ss, int engine);

/// One move forward: a step of dt, or one event; a recorded future is
/// replayed. @return 1 moved, 0 nothing to do (no more events), -1 refused
/// (not finite, out of memory: ss->msg).
int session_forward(struct session *ss);

/// Replay: shows @p frame (as many balls as the state, in the same slots)
/// as the state, observed as it is (its velocities are the recording's),
/// and makes the engine SESSION_REPLAY. No move is recorded: a front end
/// in replay calls none of the functions that step, go back or edit. The
/// plots' samples later than the frame's time go (a jump back).
/// @return 0, or -1 when the ball counts differ (ss->msg).
int session_show(struct session *ss, const struct sim *frame);

/// session_show with the frame's depth: @p z and @p vz of each of its
/// balls (scene order), or NULL for a 2-D run. With a slice (below) the
/// state holds only the frame's balls with z0 <= z <= z1, in their order,
/// each tagged with its index in the frame (its colour and label), so
/// that the ball count changes from frame to frame.
/// @return 0, or -1 (ss->msg: another ball count, memory).
int session_show_depth(struct session *ss, const struct sim *frame, const double *z,
                       const double *vz);

/// Keeps only the layer z0 <= z <= z1 of the frames shown from now on
/// (z0 < z1, both finite), in a replay or a live run. Call before the
/// first frame. @return 0, or -1 (ss->msg).
int session_set_slice(struct session *ss, double z0, double z1);

/// The depth of the state and the slice.
const struct session_depth *session_3d(const struct session *ss);

/// One move back. @return 0, or -1 when the timeline reaches no further
/// back (ss->msg; state unchanged).
int session_back(struct session *ss);

/// How many moves session_back can still undo.
long long session_depth(const struct session *ss);

/// Moves forward toward simulated time @p t: springs take whole steps while
/// they do not pass t; events advance to t. @p more, when not NULL, is
/// asked after every few steps or 1000 events whether to go on (a front
/// end looks at its clock); its answer 0 stops early.
/// @return 1 when t was reached, 0 when stopped early (or no events left),
/// -1 when the state became non-finite or memory was short (ss->msg).
/// With springs too coarse for k (session_contact_steps < pi/2, where the
/// scheme diverges) it stops, -1 with ss->runaway set, as soon as the
/// kinetic energy passes 1000 times the reference energy: a blow-up is
/// paused with a message before the balls fly off to infinity.
int session_advance(struct session *ss, double t, int (*more)(void *), void *arg);

/// 1 when session_advance toward @p t has nothing more to do: the time
/// rule of the live run and of a key script's waits, the engine's own
/// (springs: one more step would pass t; events: the state is past t).
int session_reached(const struct session *ss, double t);

/// Back to the starting state, the engine kept: a new timeline. The balls
/// are the set-up's (the scene and its edits); the settings the keys change
/// stay as they are (one rule, issue 42.4): k, dt, restitution, 1-D mode
/// (its vy = 0), the border, gravity. @return 0, or -1 when memory is short.
int session_reset(struct session *ss);

/// Sets the velocity of scene ball @p ball to (vx, vy): a move of its own
/// that takes no time, as an edit is (',' undoes it alone, at t = 0 too),
/// but no edit of the scene (reset does not return to it).
/// @return 0, or -1 (no such ball, not finite: ss->msg).
int session_kick(struct session *ss, size_t ball, double vx, double vy);

/// Sets k (springs: an action; event mode: kept for the springs). The
/// value is bounded to SESSION_PARAM_RANGE of the start's and finite.
/// @return 0 set as asked, 1 set to the bound nearest what was asked
/// (session_state()->p.k says what), -1 when memory is short.
int session_set_k(struct session *ss, double k);

/// Sets dt likewise (and says likewise).
int session_set_dt(struct session *ss, double dt);

/// Sets gravity G and softening (G = 0: off): an action, springs only.
/// @return 0, or -1 (event mode: ss->msg).
int session_set_gravity(struct session *ss, double G, double softening);

/// Sets the restitution e (0 < e <= 1) of both engines: an action in the
/// spring engine; the event engine is rebuilt from the current state with
/// it (its kept future is dropped). @return 0, or -1 (ss->msg).
int session_set_restitution(struct session *ss, double e);

/// Sets the border: the table shape (the scene's SIM_RECT or SIM_CIRCLE,
/// or SIM_OPEN for no walls at all), the wall law (enum sim_walls) and the
/// open sides of a rectangle (enum sim_side bits). An action in the spring
/// engine; the event engine takes spring and hard walls alike (as hard
/// walls) and refuses open sides and open space.
/// @return 0, or -1 (ss->msg).
int session_set_border(struct session *ss, int shape, int walls, unsigned open);

/// 1-D mode on (1) or off (0), an action of the spring engine: on, every
/// ball's vy becomes 0 and forces act along x only (sim_params.line), so
/// each ball keeps its row; kicks and edits keep to x (a velocity's y part
/// is dropped, a ball moved keeps its row). The event engine refuses it.
/// @return 0, or -1 (ss->msg).
int session_set_line(struct session *ss, int on);

/// The slot of scene ball @p ball in ss->s, or ss->s.n.
size_t session_slot(const struct session *ss, size_t ball);

/// The observed state (sim.h): what every observer shows and writes, the
/// screen, the plots, the recordings. The spring engine's positions with
/// velocities synchronised, v + dt/2 F/m (made when the state changed, on
/// a copy: the run is not touched); the event engine's state as it is
/// (its velocities are those of its time already); the stored state when
/// it is not finite or the forces cannot be computed. Every change the
/// session makes (a kick, a typed value, a drag, dt, k, e, gravity, the
/// border) keeps what is observed of every ball it does not set: the
/// stored velocities are derived again from the observed ones
/// (sim_unobserve), so that a value typed reads back as typed and a
/// parameter changed while paused moves nothing shown.
const struct sim *session_observed(struct session *ss);

/// The diagnostics of the observed state, computed when the state changed
/// since the last call.
const struct session_diag *session_diag(struct session *ss);

/// The energy reference of the diagnostics (session_diag's e_ref).
double session_eref(const struct session *ss);

/// The diagnostics of an observed spring state (or of a state shown as it
/// is) into @p d, as session_diag makes them, but e_ref (left 0): for a
/// copy observed elsewhere (shown.h).
void session_diag_of(const struct sim *obs, struct session_diag *d);

/// Turns sampling on (1) or off (0). On, every step of the springs and
/// every event of the event engine (every n/8 events above
/// SESSION_EVENT_EVERY balls) adds its sample to the envelope, whatever
/// moves the session (running, '.', ']', a catch-up); an action adds the
/// state after it at its time; stepping back drops the columns after the
/// time reached. Off (the default), nothing is sampled and stepping costs
/// nothing more. Turning it on samples the state now.
void session_sampling(struct session *ss, int on);

/// Keeps the momentum diagram's memory, ss->pm (1), or not (0): on, every
/// step of the springs and every event (as session_sampling samples them)
/// updates it, up to SESSION_PMEM_MAX balls; turning it on takes the state
/// now as the first move, off forgets.
void session_momenta(struct session *ss, int on);

/// Columns of the envelope, oldest first: @p i < session_columns().
size_t session_columns(const struct session *ss);
const struct session_col *session_column(const struct session *ss, size_t i);

/// Contact resolution: sim_contact_time / dt (steps per contact), or
/// INFINITY without contacts.
double session_contact_steps(const struct session *ss);

/*
 * Live edits. Each edit is a move of its own on the timeline (no time
 * passes): ',' undoes exactly the last edit and '.' or running redoes it,
 * as the timeline replays a kick; a new edit cuts the recorded future.
 * An edit made at the starting time (t of the start) also changes what
 * reset goes back to: the scene as built. While a gesture is on
 * (session_gesture), edits of the same kind to the same ball at the same
 * position replace one another (a drag is one move, not hundreds).
 *
 * Every ball carries a tag, an opaque number the front end chooses (the
 * scene's balls start with their scene index): a removed ball's tag goes
 * with it, an undone removal brings it back. Edits work in both engines;
 * the event engine is built again from the edited state (an approaching
 * overlapping pair collides at once). Positions are not bounded by the
 * table with spring walls; with hard walls an edit that puts a ball
 * across a wall is refused. On success ss->msg may still hold a note
 * (an overlap).
 * @return 0, or -1 with ss->msg saying why (nothing changed).
 */
int session_add_ball(struct session *ss, double x, double y, double vx, double vy,
                     double m, double r, uint32_t tag);
/// A ball of session_add_balls.
struct session_ball {
    double x, y, vx, vy, m, r;
    uint32_t tag;
};
/// Adds @p n balls as one move (one ',' takes them all away), as n calls
/// of session_add_ball would in a group, but in O(N + n), not O(n N): the
/// state is copied, the engine built and the diagnostics computed once.
/// Nothing is added when one is refused (ss->msg or the note says why).
int session_add_balls(struct session *ss, const struct session_ball *b, size_t n);
int session_remove_ball(struct session *ss, size_t ball);
/// @p zero_v: the ball's velocity becomes 0 (else kept).
int session_move(struct session *ss, size_t ball, double x, double y, int zero_v);
int session_set_velocity(struct session *ss, size_t ball, double vx, double vy);
int session_set_mass(struct session *ss, size_t ball, double m);
int session_set_radius(struct session *ss, size_t ball, double r);
/// Sets every parameter but the table's shape and size (k and dt bounded
/// as session_set_k bounds them); the event engine refuses what it cannot
/// simulate.
int session_set_params(struct session *ss, const struct sim_params *p);

/// Reverses time: every ball's velocity turned around so that the run
/// retraces its path. The spring engine stores the velocity of the half
/// step that led to x (sim.h), so it sets v <- -(v + dt F(x)/m), the next
/// half step turned around: the steps come back exactly as they were
/// taken, to rounding (not through a dashpot or friction, which take
/// energy out either way). The event engine's velocities are those of
/// its time: they are negated. An edit as the others are (',' undoes it).
int session_reverse(struct session *ss);

/// Starts (1) or ends (0) a gesture: see above.
void session_gesture(struct session *ss, int on);

/// Starts (1) or ends (0) a group: the edits made meanwhile are one move
/// (a rack typed on the command line is undone by one ',').
void session_group(struct session *ss, int on);

/// The tag of scene ball @p ball (UINT32_MAX when there is none).
uint32_t session_tag(const struct session *ss, size_t ball);

/*
 * A live run (SESSION_LIVE): frames of a run going on elsewhere, through a
 * link (link.h: IMD, a file still being written). The session polls the
 * link when it advances (never waiting): each frame becomes the state,
 * its positions as sent, its velocities as sent or, when the link sends
 * none (IMD), differences of the last two frames over their time (steps
 * of the start's dt). Nothing is simulated here, and nothing goes back.
 * The front end asks session_caps for SESSION_CAP_REMOTE and
 * session_live_info for what the link can do; the session has no clock:
 * how long no frame came is the front end's to measure.
 */

/// What the link of a live run does now.
enum session_live_state {
    SESSION_LIVE_RUNNING = 0, ///< frames come (or will)
    SESSION_LIVE_DROPPED = 1, ///< the link failed: info.msg; reconnect may mend it
    SESSION_LIVE_ENDED = 2,   ///< the run ended, or closed the link between frames
    SESSION_LIVE_KILLED = 3,  ///< ended by session_live_kill
};

/// What a live run's link can do (struct link_ops not NULL).
enum session_live_can {
    SESSION_LIVE_CAN_PAUSE = 1u << 0,
    SESSION_LIVE_CAN_TRATE = 1u << 1,
    SESSION_LIVE_CAN_FORCE = 1u << 2,
    SESSION_LIVE_CAN_KILL = 1u << 3,
    SESSION_LIVE_CAN_RECONNECT = 1u << 4,
};

/// A live run as the front end shows it.
struct session_live_info {
    int state;                 ///< enum session_live_state
    unsigned can;              ///< enum session_live_can bits
    int paused;                ///< paused by session_live_pause
    int stepping;              ///< paused, and resumed until one frame comes
                               ///< (session_live_step)
    unsigned long long frames; ///< the number of the last frame taken (the first is 1;
                               ///< frames that came together count, the last is shown)
    long long trate;           ///< steps a frame, as counted
    int v_diff;                ///< velocities are differences of frames
    int z;                     ///< a frame had a z other than 0 (3-D: dropped)
    int pulse;                 ///< a force pulse is standing (until the next frame)
    const char *where;         ///< the link's HOST:PORT or file
    const char *msg;           ///< why it dropped or ended, or ""
};

/// Makes the engine SESSION_LIVE on @p link, which the session owns from
/// here on (closed with DISCONNECT by session_free or session_live_close).
/// The state now (the first frame, or the scene given) stays until a frame
/// comes; @p trate is the steps a frame the run was asked for (1 when
/// unknown); @p first_k: the link's frames already taken (the state is the
/// last of them), 0 for none.
/// @return 0, or -1 when memory is short (the link closed).
int session_live(struct session *ss, struct link *link, long long trate,
                 unsigned long long first_k);

/// What the live run's link does now (zeroed when not live).
struct session_live_info session_live_info(const struct session *ss);

/// Pauses or resumes the run (a toggle). @return 0, or -1 (ss->msg).
int session_live_pause(struct session *ss);

/// What session_live_step did.
enum session_live_step {
    SESSION_LIVE_STEP_PAUSED = 1, ///< the run was running: paused (no frame)
    SESSION_LIVE_STEP_TAKEN = 2,  ///< a frame sent before the pause was held: shown
    SESSION_LIVE_STEP_COMING = 3, ///< resumed (PAUSE toggles) until the next frame
                                  ///< comes, then paused again
};

/// One frame forward of a paused run: the oldest frame come and not shown
/// yet, when there is one (after a '.', what the run sent before it heard
/// the pause again is held, a frame a '.', until space resumes); else the
/// run resumed and paused again as soon as its next frame has come (IMD's
/// PAUSE is a toggle), so that exactly one frame comes through. A running
/// run is paused.
/// @return enum session_live_step, or -1 (ss->msg).
int session_live_step(struct session *ss);

/// Asks for a frame every @p trate steps (1 .. 2^31 - 1), counted so from
/// the next frame on. @return 0, or -1 (ss->msg).
int session_live_trate(struct session *ss, long long trate);

/// Pushes scene ball @p ball toward velocity (vx, vy): a force pulse of
/// m dv / (trate dt) (dv from the velocity shown) standing for one frame,
/// taken away when the next frame comes. @return 0, or -1 (ss->msg).
int session_live_push(struct session *ss, size_t ball, double vx, double vy);

/// Ends the run. @return 0, or -1 (ss->msg).
int session_live_kill(struct session *ss);

/// Opens the link again after it dropped. @return 0, or -1 (ss->msg).
int session_live_reconnect(struct session *ss);

#endif
