/*
 * session_engines.c - the engines behind the session, each a table of
 * operations (struct ss_engine, session_impl.h): the springs (fixed steps,
 * checkpoints and replayed actions), the exact events (a ring of kept
 * states), and a replay (a recorded frame shown as it is). What differs
 * between engines is here and nowhere else; session.c calls the table.
 */
#include "session_impl.h"

#include <math.h>
#include <string.h>

/* Events between two calls of the caller's `more`. */
#define EVENT_CHUNK 1000
/* Steps between two calls of the caller's `more`. */
#define STEP_CHUNK 8

/* Kinetic energy of the stored velocities: O(n), no pairs. */
static double kinetic(const struct sim *s)
{
    double ke = 0;
    for (size_t i = 0; i < s->n; i++)
        ke += 0.5 * s->m[i] * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
    return ke;
}

/* === The springs === */

/* ',' refused at the oldest move kept: the limit's note when the budget
 * dropped older ones, else "no further back". */
static void back_refused(struct session *ss, int dropped, long long kept)
{
    if (dropped) {
        ss_say(ss, SESSION_NOTE_HISTORY_LIMIT);
        ss->note_ball[0] = (size_t)kept;
    } else {
        ss->msg = "no further back";
    }
}

static int spring_back(struct session *ss)
{
    if (!ss->have_history || history_back(&ss->h, &ss->s)) {
        back_refused(ss, ss->have_history && history_full(&ss->h),
                     ss->have_history ? history_reach(&ss->h) : 0);
        return -1;
    }
    ss->pos--;
    ss->nonfinite = !sim_finite(&ss->s);
    ss_touch(ss);
    ss_tags_sync(ss);
    ss_start_follow(ss);
    ss_rewind_samples(ss);
    ss_sample_now(ss);
    return 0;
}

static long long spring_depth(const struct session *ss)
{
    return ss->have_history ? history_depth(&ss->h) : 0;
}

/* The springs' time rule: the state has reached @p t when one more step
 * would pass it (by more than a billionth of a step): an advance takes
 * whole steps up to t, never past it, and a key script's wait ends there.
 * On the grid of steps it agrees with sim_steps_until, which -H -T counts
 * by: both end on the step at t. */
static int spring_reached(const struct session *ss, double t)
{
    return ss->s.t + ss->s.p.dt * (1 - 1e-9) > t;
}

static int spring_advance(struct session *ss, double t, int (*more)(void *), void *arg)
{
    long long n = 0;
    int unstable = session_contact_steps(ss) < SIM_PI / 2;
    double limit = 1000 * fabs(ss_spring_eref(ss));
    while (!spring_reached(ss, t)) {
        if (ss_spring_forward(ss) < 0)
            return -1;
        if (unstable && kinetic(&ss->s) > limit && limit > 0) {
            ss->runaway = 1;
            ss_say(ss, SESSION_NOTE_UNSTABLE);
            return -1;
        }
        if (++n % STEP_CHUNK == 0 && more && !more(arg))
            return 0;
    }
    return 1;
}

static int spring_restart(struct session *ss)
{
    int rc = ss_spring_timeline(ss);
    ss_sample_now(ss);
    return rc;
}

static int spring_set(struct session *ss, struct session_action a)
{
    return ss_spring_action(ss, a);
}

/* The observed state: positions with velocities synchronised, made on a
 * copy when the state changed; the stored state when it is not finite or
 * the copy cannot be made. */
static const struct sim *spring_observed(struct session *ss)
{
    if (ss->nonfinite || ss->s.n == 0)
        return &ss->s;
    if (ss->obs_version == ss->version && ss->version != 0)
        return &ss->obs;
    if (sim_observe(&ss->s, &ss->obs) == -1)
        return &ss->s; /* no memory for the copy */
    ss->obs_version = ss->version;
    return &ss->obs;
}

static void spring_diag(struct session *ss, struct session_diag *d)
{
    const struct sim *o = session_observed(ss);
    session_diag_of(o, d);
    d->t = ss->s.t; /* the state's (the observation's are the same) */
    d->steps = ss->s.steps;
}

const struct ss_engine ss_spring = {
    .name = "spring",
    .caps = SESSION_CAP_SIMULATES | SESSION_CAP_STEPS | SESSION_CAP_FORCES | SESSION_CAP_OBSERVES,
    .forward = ss_spring_forward,
    .back = spring_back,
    .depth = spring_depth,
    .advance = spring_advance,
    .reached = spring_reached,
    .restart = spring_restart,
    .set = spring_set,
    .observed = spring_observed,
    .diag = spring_diag,
    .eref = ss_spring_eref,
};

/* === The exact events === */

static int event_back(struct session *ss)
{
    if (ss->nsnap == 0 || ss->snapnow == 0) {
        back_refused(ss, ss->snap_dropped, (long long)ss->capsnap - 1);
        return -1;
    }
    int stopped = ss->nonfinite; /* at the state the engine stopped at */
    if (ss_snap_restore(ss, ss->snapnow - 1)) {
        /* cannot rebuild: the springs take the state */
        session_set_engine(ss, SESSION_SPRING);
        ss->msg = "event engine failed: back to springs";
    } else if (stopped) {
        ss->nsnap = ss->snapnow + 1; /* forward runs the engine again */
    }
    ss_start_follow(ss);
    ss_rewind_samples(ss);
    ss_sample_now(ss);
    return 0;
}

static long long event_depth(const struct session *ss)
{
    return ss->nsnap ? (long long)ss->snapnow : 0;
}

static int events_advance(struct session *ss, double t, int (*more)(void *), void *arg)
{
    /* The kept future first, a state a move, as long as it is before t. */
    if (ss->nsnap > 0 && ss->snapnow + 1 < ss->nsnap) {
        while (ss->snapnow + 1 < ss->nsnap && ss_snap_at(ss, ss->snapnow + 1)->s.t <= t) {
            if (ss_snap_restore(ss, ss->snapnow + 1))
                return -1;
            ss_sample_now(ss);
            if (more && !more(arg))
                return 0;
        }
        if (ss->snapnow + 1 < ss->nsnap)
            return 1; /* the next kept state is after t: wait for it */
    }
    if (t <= ss->ev.t)
        return 1;
    /* Sampling, the advance stops every event (every n/8 above
     * SESSION_EVENT_EVERY balls) for a sample; `more` is asked every
     * EVENT_CHUNK events either way. */
    int sampled = ss_sampled(ss);
    long long every = !sampled ? EVENT_CHUNK
                      : ss->s.n <= SESSION_EVENT_EVERY ? 1 : (long long)(ss->s.n / 8);
    long long since = 0;
    int rc;
    for (;;) {
        rc = event_advance(&ss->ev, t, every);
        if (rc != 0 || ss->ev.stop.cause)
            break;
        if (sampled) {
            ss_sample_event(ss);
            if ((since += every) < EVENT_CHUNK)
                continue;
            since = 0;
        }
        if (more && !more(arg))
            break;
    }
    ss_ev_moved(ss);
    if (ss_ev_stopped(ss))
        return -1;
    ss_sample_now(ss);
    return rc == 1 ? 1 : 0;
}

/* After reset: the engine built again from the start, or the springs take
 * it when the start is beyond the event engine. */
static int event_restart(struct session *ss)
{
    if (event_unsupported(&ss->s.p) || ss_ev_build(ss)) {
        event_free(&ss->ev);
        memset(&ss->ev, 0, sizeof ss->ev);
        ss->engine = SESSION_SPRING;
        ss->nsnap = ss->snap0 = ss->snapnow = 0;
        ss->snap_dropped = 0;
        ss_spring_timeline(ss);
        ss->msg = "reset: back to springs";
        return 0;
    }
    int rc = ss_event_timeline(ss);
    ss_sample_now(ss);
    return rc;
}

/* A parameter of the event engine changed: rebuilt from the state now,
 * the kept future dropped, the energy reference taken again. */
static int event_rebuilt(struct session *ss)
{
    long long events = ss->ev.collisions + ss->ev.walls, coll = ss->ev.collisions;
    if (ss_ev_build(ss))
        return -1;
    ss->ev_events0 += events; /* the new engine counts from 0 */
    ss->ev_coll0 += coll;
    ss_touch(ss);
    ss->e0 = ss_energy(ss);
    if (ss_snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
    ss_sample_now(ss);
    return 0;
}

/* k and dt are kept for the springs; restitution and the border build the
 * engine again (what it cannot run is refused, nothing changed). */
static int event_set(struct session *ss, struct session_action a)
{
    switch (a.kind) {
    case SESSION_SET_K:
        ss->s.p.k = a.a;
        return 0;
    case SESSION_SET_DT:
        ss->s.p.dt = a.a;
        return 0;
    case SESSION_SET_E:
    case SESSION_BORDER: {
        if (ss->nonfinite) {
            ss_say(ss, SESSION_NOTE_NOT_FINITE);
            return -1;
        }
        struct sim_params old = ss->s.p;
        if (a.kind == SESSION_SET_E) {
            ss->s.p.restitution = a.a;
        } else {
            ss->s.p.shape = (int)a.a;
            ss->s.p.walls = (int)a.b;
            ss->s.p.open = (unsigned)a.ball;
            const char *why = ss->s.p.shape == SIM_OPEN ? "open space"
                                                       : event_unsupported(&ss->s.p);
            if (why) {
                ss->s.p = old;
                ss_say(ss, SESSION_NOTE_NEEDS_SPRINGS);
                ss->note_what = why;
                return -1;
            }
        }
        if (event_rebuilt(ss)) {
            ss->s.p = old;
            ss_ev_build(ss);
            return -1;
        }
        return 0;
    }
    default: /* gravity and 1-D mode are refused before (no forces) */
        ss->msg = "needs the spring engine (m)";
        return -1;
    }
}

/* The state as it is (events: its velocities are those of its time; a
 * replay: the frame as recorded). */
static const struct sim *as_is(struct session *ss)
{
    return &ss->s;
}

/* The engine's own sums, and its counts since the event mode began. */
static void event_diag_fill(struct session *ss, struct session_diag *d)
{
    memset(d, 0, sizeof *d);
    d->t = ss->s.t;
    d->steps = ss->s.steps;
    d->mft = -1;
    struct event_diag ed;
    event_diag(&ss->ev, &ed);
    d->events = ss->ev_events0 + ed.events;
    d->collisions = ss->ev_coll0 + ed.collisions;
    if (d->collisions > 0)
        d->mft = (double)ss->s.n * (ss->s.t - ss->ev_t0) / (2.0 * (double)d->collisions);
    d->ke = ed.ke;
    d->pe = ed.pf;
    d->e = ed.e;
    d->px = ed.px;
    d->py = ed.py;
    d->out = ed.out;
    d->dissipated = ed.dissipated;
}

/* Events and frames reach a time exactly: past it, nothing more to do. */
static int time_passed(const struct session *ss, double t)
{
    return ss->s.t > t;
}

static double event_eref(const struct session *ss)
{
    return ss->e0;
}

const struct ss_engine ss_event = {
    .name = "event",
    .caps = SESSION_CAP_SIMULATES | SESSION_CAP_EXACT,
    .forward = ss_event_forward,
    .back = event_back,
    .depth = event_depth,
    .advance = events_advance,
    .reached = time_passed,
    .restart = event_restart,
    .set = event_set,
    .observed = as_is,
    .diag = event_diag_fill,
    .eref = event_eref,
};

/* === A replay: frames shown as they are (session_show) === */

/* A replay moves only by session_show: nothing to step or go back to. */
static int replay_still(struct session *ss)
{
    ss->msg = "a replay shows recorded frames: nothing to step";
    return -1;
}

static long long replay_depth(const struct session *ss)
{
    (void)ss;
    return 0;
}

static int replay_advance(struct session *ss, double t, int (*more)(void *), void *arg)
{
    (void)t;
    (void)more;
    (void)arg;
    return replay_still(ss);
}

static int replay_restart(struct session *ss)
{
    ss_sample_now(ss);
    return 0;
}

static int replay_set(struct session *ss, struct session_action a)
{
    (void)a;
    return replay_still(ss);
}

/* The frame's diagnostics, of its positions and velocities as recorded. */
static void replay_diag(struct session *ss, struct session_diag *d)
{
    session_diag_of(&ss->s, d);
    d->t = ss->s.t;
    d->steps = ss->s.steps;
}

const struct ss_engine ss_replay = {
    .name = "replay",
    .caps = 0,
    .forward = replay_still,
    .back = replay_still,
    .depth = replay_depth,
    .advance = replay_advance,
    .reached = time_passed,
    .restart = replay_restart,
    .set = replay_set,
    .observed = as_is,
    .diag = replay_diag,
    .eref = ss_spring_eref,
};
