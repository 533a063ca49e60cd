/*
 * session.c - the interface: the engines behind it, forward, back, advance,
 * reset, the run's settings. See session.h; its insides, session_impl.h.
 */
#include "session_impl.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Events between two calls of the caller's `more`. */
#define EVENT_CHUNK 1000
/* Steps between two calls of the caller's `more`. */
#define STEP_CHUNK 8

size_t session_slot(const struct session *ss, size_t ball)
{
    if (ball >= ss->s.n)
        return ss->s.n;
    return sim_slot(&ss->s, ball);
}

/* Kinetic energy of the stored velocities: O(n), no pairs. */
static double kinetic(const struct sim *s)
{
    double ke = 0;
    for (size_t i = 0; i < s->n; i++)
        ke += 0.5 * s->m[i] * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
    return ke;
}

int session_init(struct session *ss, const struct sim *start)
{
    memset(ss, 0, sizeof *ss);
    if (sim_init(&ss->s, start->n, &start->p) || sim_init(&ss->start, start->n, &start->p)) {
        sim_free(&ss->s);
        return -1;
    }
    sim_copy(&ss->s, start);
    sim_copy(&ss->start, start);
    ss->k0 = start->p.k;
    ss->dt0 = start->p.dt;
    ss->col = malloc(SESSION_COLS * sizeof *ss->col);
    ss->per = 1;
    if (!ss->col) {
        session_free(ss);
        return -1;
    }
    ss->nonfinite = !sim_finite(&ss->s);
    size_t nt = start->n ? start->n : 1;
    ss->tag = malloc(nt * sizeof *ss->tag);
    ss->tag_start = malloc(nt * sizeof *ss->tag_start);
    if (!ss->tag || !ss->tag_start) {
        session_free(ss);
        return -1;
    }
    ss->captag = ss->capstart = nt;
    for (size_t i = 0; i < start->n; i++)
        ss->tag[i] = ss->tag_start[i] = (uint32_t)i;
    if (ss_spring_timeline(ss) && !ss->tag0) { /* without history ',' just says no */
        session_free(ss);
        return -1;
    }
    ss_hush(ss);
    return 0;
}

void session_free(struct session *ss)
{
    if (ss->have_history)
        history_free(&ss->h);
    event_free(&ss->ev);
    for (size_t i = 0; i < ss->capsnap; i++)
        if (ss->snap[i].live)
            sim_free(&ss->snap[i].s);
    free(ss->snap);
    free(ss->act);
    free(ss->col);
    free(ss->tag);
    free(ss->tag0);
    free(ss->tag_start);
    sim_free(&ss->obs);
    free(ss->keep);
    sim_free(&ss->start);
    sim_free(&ss->s);
    memset(ss, 0, sizeof *ss);
}

int session_set_engine(struct session *ss, int engine)
{
    ss_hush(ss);
    if (engine == ss->engine)
        return 0;
    if (engine == SESSION_EVENT) {
        const char *why = event_unsupported(&ss->s.p);
        if (why) {
            ss->msg = why;
            return -1;
        }
        if (ss->nonfinite) {
            ss_say(ss, SESSION_NOTE_NOT_FINITE);
            return -1;
        }
        if (ss_ev_build(ss))
            return -1;
        ss->engine = SESSION_EVENT;
        if (ss->have_history) {
            history_free(&ss->h);
            ss->have_history = 0;
        }
        ss->nact = 0;
        return ss_event_timeline(ss);
    }
    event_to_sim(&ss->ev, &ss->s);
    event_free(&ss->ev);
    memset(&ss->ev, 0, sizeof ss->ev);
    ss->engine = SESSION_SPRING;
    ss->nsnap = ss->snap0 = ss->snapnow = 0;
    ss->nonfinite = !sim_finite(&ss->s);
    if (ss_spring_timeline(ss))
        ss->msg = "out of memory: no stepping back";
    return 0;
}

int session_forward(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    int rc = ss->engine == SESSION_EVENT ? ss_event_forward(ss) : ss_spring_forward(ss);
    ss_start_follow(ss);
    return rc;
}

int session_back(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    if (ss->engine == SESSION_EVENT) {
        if (ss->nsnap == 0 || ss->snapnow == 0) {
            ss->msg = "no further back";
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
    if (!ss->have_history || history_back(&ss->h, &ss->s)) {
        ss->msg = "no further back";
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

long long session_depth(const struct session *ss)
{
    if (ss->engine == SESSION_EVENT)
        return ss->nsnap ? (long long)ss->snapnow : 0;
    return ss->have_history ? history_depth(&ss->h) : 0;
}

int session_advance(struct session *ss, double t, int (*more)(void *), void *arg)
{
    ss_hush(ss);
    ss->runaway = 0;
    if (ss->nonfinite) {
        ss_say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    if (!(t <= DBL_MAX))
        t = DBL_MAX;
    if (ss->engine == SESSION_EVENT) {
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
    long long n = 0;
    int unstable = session_contact_steps(ss) < SIM_PI / 2;
    double limit = 1000 * fabs(ss_spring_eref(ss));
    while (ss->s.t + ss->s.p.dt * (1 - 1e-9) <= t) {
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

int session_reset(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    if (sim_assign(&ss->s, &ss->start)) {
        ss->msg = "out of memory";
        return -1;
    }
    if (ss_tag_room(&ss->tag, &ss->captag, ss->start.n)) {
        ss->msg = "out of memory";
        return -1;
    }
    memcpy(ss->tag, ss->tag_start, ss->start.n * sizeof *ss->tag);
    ss->nonfinite = !sim_finite(&ss->s);
    ss_col_clear(ss);
    ss_pm_forget(ss);
    ss_touch(ss);
    if (ss->engine == SESSION_EVENT) {
        if (event_unsupported(&ss->s.p) || ss_ev_build(ss)) {
            event_free(&ss->ev);
            memset(&ss->ev, 0, sizeof ss->ev);
            ss->engine = SESSION_SPRING;
            ss->nsnap = ss->snap0 = ss->snapnow = 0;
            ss_spring_timeline(ss);
            ss->msg = "reset: back to springs";
            return 0;
        }
        int rc = ss_event_timeline(ss);
        ss_sample_now(ss);
        return rc;
    }
    int rc = ss_spring_timeline(ss);
    ss_sample_now(ss);
    return rc;
}

double ss_bounded(double v, double ref)
{
    double lo = ref / SESSION_PARAM_RANGE, hi = ref * SESSION_PARAM_RANGE;
    if (!(hi <= DBL_MAX))
        hi = DBL_MAX;
    if (!(lo >= DBL_MIN))
        lo = DBL_MIN;
    if (!(v >= lo)) /* also NaN */
        v = lo;
    if (v > hi)
        v = hi;
    return v;
}

static int set_param(struct session *ss, int kind, double v)
{
    ss_hush(ss);
    v = ss_bounded(v, kind == SESSION_SET_K ? ss->k0 : ss->dt0);
    if (ss->engine == SESSION_EVENT) {
        if (kind == SESSION_SET_K)
            ss->s.p.k = v;
        else
            ss->s.p.dt = v;
        return 0;
    }
    struct session_action a = {0};
    a.kind = kind;
    a.a = v;
    return ss_spring_action(ss, a);
}

int session_set_k(struct session *ss, double k)
{
    return set_param(ss, SESSION_SET_K, k);
}

int session_set_dt(struct session *ss, double dt)
{
    return set_param(ss, SESSION_SET_DT, dt);
}

int session_set_gravity(struct session *ss, double G, double softening)
{
    ss_hush(ss);
    if (ss->engine == SESSION_EVENT) {
        ss_say(ss, SESSION_NOTE_NEEDS_SPRINGS);
        ss->note_what = "gravity";
        return -1;
    }
    if (!(G >= 0 && G <= DBL_MAX) || !(softening >= 0 && softening <= DBL_MAX)) {
        ss->msg = "gravity: not a finite G";
        return -1;
    }
    struct session_action a = {0};
    a.kind = SESSION_GRAVITY;
    a.a = G;
    a.b = softening;
    return ss_spring_action(ss, a);
}

int session_show(struct session *ss, const struct sim *frame)
{
    ss_hush(ss);
    if (frame->n != ss->s.n) {
        ss->msg = "replay: the frame has another ball count";
        return -1;
    }
    int first = ss->engine != SESSION_REPLAY;
    sim_copy(&ss->s, frame);
    sim_touch(&ss->s);
    ss->engine = SESSION_REPLAY;
    ss->nonfinite = !sim_finite(&ss->s);
    ss_touch(ss);
    ss_rewind_samples(ss);
    if (first) {
        ss->nact = 0;
        ss->pos = 0;
        ss->e0 = ss_energy(ss);
    }
    return 0;
}

double session_contact_steps(const struct session *ss)
{
    if (ss->s.p.contact == SIM_CONTACT_NONE)
        return INFINITY;
    return sim_contact_time(&ss->s) / ss->s.p.dt;
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

int session_set_restitution(struct session *ss, double e)
{
    ss_hush(ss);
    if (!(e >= 0 && e <= 1)) {
        ss->msg = "restitution must be in [0, 1]";
        return -1;
    }
    if (ss->engine == SESSION_EVENT && e == 0) {
        ss->msg = "sticky collisions (e 0) need the spring engine (m)";
        return -1;
    }
    if (ss->engine == SESSION_EVENT && ss->nonfinite) {
        ss_say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    if (ss->engine == SESSION_EVENT) {
        double old = ss->s.p.restitution;
        ss->s.p.restitution = e;
        if (event_rebuilt(ss)) {
            ss->s.p.restitution = old;
            ss_ev_build(ss);
            return -1;
        }
        return 0;
    }
    struct session_action a = {0};
    a.kind = SESSION_SET_E;
    a.a = e;
    return ss_spring_action(ss, a);
}

int session_set_line(struct session *ss, int on)
{
    ss_hush(ss);
    if (ss->engine == SESSION_EVENT) {
        ss->msg = "1-D mode needs the spring engine (m)";
        return -1;
    }
    struct session_action a = {0};
    a.kind = SESSION_LINE;
    a.a = on != 0;
    return ss_spring_action(ss, a);
}

int session_set_border(struct session *ss, int shape, int walls, unsigned open)
{
    ss_hush(ss);
    if (ss->engine == SESSION_EVENT && ss->nonfinite) {
        ss_say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    if (ss->engine == SESSION_EVENT) {
        struct sim_params old = ss->s.p;
        ss->s.p.shape = shape;
        ss->s.p.walls = walls;
        ss->s.p.open = open;
        const char *why = shape == SIM_OPEN ? "open space" : event_unsupported(&ss->s.p);
        if (why) {
            ss->s.p = old;
            ss_say(ss, SESSION_NOTE_NEEDS_SPRINGS);
            ss->note_what = why;
            return -1;
        }
        if (event_rebuilt(ss)) {
            ss->s.p = old;
            ss_ev_build(ss);
            return -1;
        }
        return 0;
    }
    struct session_action a = {0};
    a.kind = SESSION_BORDER;
    a.a = shape;
    a.b = walls;
    a.ball = open;
    return ss_spring_action(ss, a);
}
