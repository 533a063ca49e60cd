/*
 * session.c - engines behind one interface, the timeline of user actions,
 * diagnostics. See session.h.
 */
#include "session.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Events between two calls of the caller's `more`. */
#define EVENT_CHUNK 1000
/* Steps between two calls of the caller's `more`. */
#define STEP_CHUNK 8

/* === Small helpers === */

static void touch(struct session *ss)
{
    ss->version++;
}

/* The energy of the current state (springs: synchronised velocities). */
static double energy_now(struct session *ss)
{
    return session_diag(ss)->e;
}

size_t session_slot(const struct session *ss, size_t ball)
{
    if (ball >= ss->s.n)
        return ss->s.n;
    return sim_slot(&ss->s, ball);
}

/* Drops samples later than the current time (a step back rewinds them). */
static void rewind_samples(struct session *ss)
{
    while (ss->nring > 0) {
        const struct session_sample *last =
            &ss->ring[(ss->ring0 + ss->nring - 1) % SESSION_SAMPLES];
        if (!(last->t > ss->s.t))
            break;
        ss->nring--;
    }
}

/* Kinetic energy of the stored velocities: O(n), no pairs. */
static double kinetic(const struct sim *s)
{
    double ke = 0;
    for (size_t i = 0; i < s->n; i++)
        ke += 0.5 * s->m[i] * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
    return ke;
}

/* === Spring timeline === */

/* Starts a new spring timeline at the current state, position 0. */
static int spring_timeline(struct session *ss)
{
    if (ss->have_history)
        history_free(&ss->h);
    int cap;
    long long every;
    history_size(ss->s.n, SESSION_BUDGET, SESSION_DEPTH, &cap, &every);
    ss->have_history = history_init(&ss->h, &ss->s, cap, every) == 0;
    ss->pos = 0;
    ss->nact = 0;
    touch(ss);
    ss->e0 = energy_now(ss);
    return ss->have_history ? 0 : -1;
}

/* Forgets the recorded future: actions after the current position. */
static void cut_future(struct session *ss)
{
    while (ss->nact > 0 && ss->act[ss->nact - 1].pos > ss->pos)
        ss->nact--;
}

/* The reference energy: right after the last action at or before now. */
static double spring_eref(const struct session *ss)
{
    for (size_t i = ss->nact; i-- > 0;)
        if (ss->act[i].pos <= ss->pos)
            return ss->act[i].e_ref;
    return ss->e0;
}

static void apply(struct session *ss, const struct session_action *a)
{
    struct sim *s = &ss->s;
    switch (a->kind) {
    case SESSION_KICK: {
        size_t i = session_slot(ss, a->ball);
        if (i < s->n) {
            s->vx[i] = a->a;
            s->vy[i] = a->b;
        }
        break;
    }
    case SESSION_SET_K: s->p.k = a->a; break;
    case SESSION_SET_DT: s->p.dt = a->a; break;
    case SESSION_GRAVITY:
        s->p.gravity = a->a;
        s->p.softening = a->b;
        break;
    case SESSION_SET_E: s->p.restitution = a->a; break;
    case SESSION_BORDER:
        s->p.shape = (int)a->a;
        s->p.walls = (int)a->b;
        s->p.open = (unsigned)a->ball;
        sim_touch(s); /* the force path and its broad phase change */
        break;
    }
    touch(ss);
}

/* Records and applies a new action at the current position (the future is
 * cut). */
static int spring_action(struct session *ss, struct session_action a)
{
    cut_future(ss);
    if (ss->nact == ss->capact) {
        size_t nc = ss->capact ? 2 * ss->capact : 16;
        struct session_action *na = realloc(ss->act, nc * sizeof *na);
        if (!na) {
            ss->msg = "out of memory";
            return -1;
        }
        ss->act = na;
        ss->capact = nc;
    }
    a.pos = ss->pos;
    apply(ss, &a);
    a.e_ref = energy_now(ss);
    ss->act[ss->nact++] = a;
    if (ss->have_history && history_changed(&ss->h, &ss->s))
        ss->msg = "out of memory: history cut short";
    return 0;
}

/* One spring step, then the recorded actions of the new position. */
static int spring_forward(struct session *ss)
{
    if (ss->nonfinite) {
        ss->msg = "state not finite: ',' steps back, 'r' resets";
        return -1;
    }
    if (sim_step(&ss->s)) { /* no grid: never a silent all-pairs crawl */
        ss->msg = "out of memory: the contact grid (paused)";
        return -1;
    }
    ss->pos++;
    touch(ss);
    if (ss->have_history)
        history_stepped(&ss->h, &ss->s);
    int replayed = 0;
    for (size_t i = 0; i < ss->nact; i++)
        if (ss->act[i].pos == ss->pos) {
            apply(ss, &ss->act[i]);
            replayed = 1;
        }
    if (replayed && ss->have_history)
        history_changed(&ss->h, &ss->s);
    if (!sim_finite(&ss->s)) {
        ss->nonfinite = 1;
        ss->msg = "not finite: paused (',' back, r reset)";
        return -1;
    }
    return 1;
}

/* === Event timeline: a ring of whole states, one a move === */

static struct session_snap *snap_at(struct session *ss, size_t i)
{
    return &ss->snap[(ss->snap0 + i) % ss->capsnap];
}

/* (Re)builds the engine from ss->s. */
static int ev_build(struct session *ss)
{
    struct event_config cfg = event_default_config();
    cfg.allow_overlap = 1;
    struct event_fault f;
    event_free(&ss->ev);
    memset(&ss->ev, 0, sizeof ss->ev);
    int rc = event_init(&ss->ev, &ss->s, &cfg, &f);
    if (rc == EVENT_OK)
        return 0;
    memset(&ss->ev, 0, sizeof ss->ev);
    /* The one wording of -H too, with the balls' numbers. */
    ss->msg = event_fault_text(ss->fault, sizeof ss->fault, rc, &f, &ss->s);
    return -1;
}

/* Keeps the current state as the move at ss->pos: replaces the state kept
 * at now and forgets any after it. */
static int snap_keep(struct session *ss)
{
    if (!ss->snap) {
        size_t per = sizeof(struct session_snap) + 8 * sizeof(double) * (ss->s.n ? ss->s.n : 1);
        size_t cap = SESSION_BUDGET / per;
        if (cap > SESSION_DEPTH + 1)
            cap = SESSION_DEPTH + 1;
        if (cap < 2)
            cap = 2;
        ss->snap = calloc(cap, sizeof *ss->snap);
        if (!ss->snap)
            return -1;
        ss->capsnap = cap;
        ss->nsnap = 0;
    }
    size_t idx;
    if (ss->nsnap > 0 && snap_at(ss, ss->snapnow)->pos == ss->pos) {
        idx = ss->snapnow;
    } else {
        idx = ss->nsnap > 0 ? ss->snapnow + 1 : 0;
        if (idx == ss->capsnap) { /* full: drop the oldest */
            ss->snap0 = (ss->snap0 + 1) % ss->capsnap;
            idx--;
        }
    }
    ss->nsnap = idx + 1; /* the future after it is gone */
    ss->snapnow = idx;
    struct session_snap *p = snap_at(ss, idx);
    if (!p->live) {
        if (sim_init(&p->s, ss->s.n, &ss->s.p)) {
            ss->nsnap = idx;
            ss->snapnow = idx ? idx - 1 : 0;
            return -1;
        }
        p->live = 1;
    }
    sim_copy(&p->s, &ss->s);
    p->pos = ss->pos;
    p->events = ss->ev_events0 + ss->ev.collisions + ss->ev.walls;
    p->collisions = ss->ev_coll0 + ss->ev.collisions;
    p->e_ref = ss->e0;
    return 0;
}

/* Goes to the kept state at index i: the engine is built again from it;
 * the spring parameters stay as they are. */
static int snap_restore(struct session *ss, size_t i)
{
    struct session_snap *p = snap_at(ss, i);
    struct sim_params keep = ss->s.p;
    sim_copy(&ss->s, &p->s);
    ss->s.p = keep;
    ss->snapnow = i;
    ss->pos = p->pos;
    ss->e0 = p->e_ref;
    touch(ss);
    if (ev_build(ss))
        return -1;
    ss->ev_events0 = p->events;
    ss->ev_coll0 = p->collisions;
    return 0;
}

/* After the engine moved: the state written back and kept. */
static void ev_moved(struct session *ss)
{
    event_to_sim(&ss->ev, &ss->s);
    ss->pos++;
    touch(ss);
    if (snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
}

/* Starts a new event timeline at the current state. */
static int event_timeline(struct session *ss)
{
    ss->ev_events0 = ss->ev_coll0 = 0;
    ss->ev_t0 = ss->s.t;
    ss->pos = 0;
    ss->nsnap = ss->snap0 = ss->snapnow = 0;
    touch(ss);
    ss->e0 = energy_now(ss);
    if (snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
    return 0;
}

static int event_forward(struct session *ss)
{
    if (ss->nsnap > 0 && ss->snapnow + 1 < ss->nsnap) /* the kept future */
        return snap_restore(ss, ss->snapnow + 1) ? -1 : 1;
    if (event_step(&ss->ev, 1) == 0) {
        ss->msg = "no more events";
        return 0;
    }
    if (ss->ev.nomem) {
        ss->msg = "event engine: out of memory";
        return -1;
    }
    ev_moved(ss);
    return 1;
}

/* === The interface === */

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
    ss->ring = malloc(SESSION_SAMPLES * sizeof *ss->ring);
    if (!ss->ring) {
        session_free(ss);
        return -1;
    }
    ss->nonfinite = !sim_finite(&ss->s);
    spring_timeline(ss); /* without history ',' just says no */
    ss->msg = NULL;
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
    free(ss->ring);
    sim_free(&ss->scratch);
    sim_free(&ss->start);
    sim_free(&ss->s);
    memset(ss, 0, sizeof *ss);
}

int session_set_engine(struct session *ss, int engine)
{
    ss->msg = NULL;
    if (engine == ss->engine)
        return 0;
    if (engine == SESSION_EVENT) {
        const char *why = event_unsupported(&ss->s.p);
        if (why) {
            ss->msg = why;
            return -1;
        }
        if (ss->nonfinite) {
            ss->msg = "state not finite: ',' steps back, 'r' resets";
            return -1;
        }
        if (ev_build(ss))
            return -1;
        ss->engine = SESSION_EVENT;
        if (ss->have_history) {
            history_free(&ss->h);
            ss->have_history = 0;
        }
        ss->nact = 0;
        return event_timeline(ss);
    }
    event_to_sim(&ss->ev, &ss->s);
    event_free(&ss->ev);
    memset(&ss->ev, 0, sizeof ss->ev);
    ss->engine = SESSION_SPRING;
    ss->nsnap = ss->snap0 = ss->snapnow = 0;
    ss->nonfinite = !sim_finite(&ss->s);
    if (spring_timeline(ss))
        ss->msg = "out of memory: no stepping back";
    return 0;
}

int session_forward(struct session *ss)
{
    ss->msg = NULL;
    ss->runaway = 0;
    if (ss->engine == SESSION_EVENT)
        return event_forward(ss);
    return spring_forward(ss);
}

int session_back(struct session *ss)
{
    ss->msg = NULL;
    ss->runaway = 0;
    if (ss->engine == SESSION_EVENT) {
        if (ss->nsnap == 0 || ss->snapnow == 0) {
            ss->msg = "no further back";
            return -1;
        }
        if (snap_restore(ss, ss->snapnow - 1)) {
            /* cannot rebuild: the springs take the state */
            session_set_engine(ss, SESSION_SPRING);
            ss->msg = "event engine failed: back to springs";
        }
        rewind_samples(ss);
        return 0;
    }
    if (!ss->have_history || history_back(&ss->h, &ss->s)) {
        ss->msg = "no further back";
        return -1;
    }
    ss->pos--;
    ss->nonfinite = !sim_finite(&ss->s);
    touch(ss);
    rewind_samples(ss);
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
    ss->msg = NULL;
    ss->runaway = 0;
    if (ss->nonfinite) {
        ss->msg = "state not finite: ',' steps back, 'r' resets";
        return -1;
    }
    if (!(t <= DBL_MAX))
        t = DBL_MAX;
    if (ss->engine == SESSION_EVENT) {
        /* The kept future first, a state a move, as long as it is before t. */
        if (ss->nsnap > 0 && ss->snapnow + 1 < ss->nsnap) {
            while (ss->snapnow + 1 < ss->nsnap && snap_at(ss, ss->snapnow + 1)->s.t <= t) {
                if (snap_restore(ss, ss->snapnow + 1))
                    return -1;
                if (more && !more(arg))
                    return 0;
            }
            if (ss->snapnow + 1 < ss->nsnap)
                return 1; /* the next kept state is after t: wait for it */
        }
        if (t <= ss->ev.t)
            return 1;
        int rc;
        do
            rc = event_advance(&ss->ev, t, EVENT_CHUNK);
        while (rc == 0 && (!more || more(arg)));
        if (rc == EVENT_ENOMEM || ss->ev.nomem) {
            ss->msg = "event engine: out of memory";
            return -1;
        }
        ev_moved(ss);
        return rc == 1 ? 1 : 0;
    }
    long long n = 0;
    int unstable = session_contact_steps(ss) < SIM_PI / 2;
    double limit = 1000 * fabs(spring_eref(ss));
    while (ss->s.t + ss->s.p.dt * (1 - 1e-9) <= t) {
        if (spring_forward(ss) < 0)
            return -1;
        if (unstable && kinetic(&ss->s) > limit && limit > 0) {
            ss->runaway = 1;
            ss->msg = "unstable: dt too large for k; paused (d or k, then ',' or r)";
            return -1;
        }
        if (++n % STEP_CHUNK == 0 && more && !more(arg))
            return 0;
    }
    return 1;
}

int session_reset(struct session *ss)
{
    ss->msg = NULL;
    ss->runaway = 0;
    sim_copy(&ss->s, &ss->start);
    ss->nonfinite = !sim_finite(&ss->s);
    ss->nring = ss->ring0 = 0;
    touch(ss);
    if (ss->engine == SESSION_EVENT) {
        if (event_unsupported(&ss->s.p) || ev_build(ss)) {
            event_free(&ss->ev);
            memset(&ss->ev, 0, sizeof ss->ev);
            ss->engine = SESSION_SPRING;
            ss->nsnap = ss->snap0 = ss->snapnow = 0;
            spring_timeline(ss);
            ss->msg = "reset: back to springs";
            return 0;
        }
        return event_timeline(ss);
    }
    return spring_timeline(ss);
}

int session_kick(struct session *ss, size_t ball, double vx, double vy)
{
    ss->msg = NULL;
    size_t i = session_slot(ss, ball);
    if (i >= ss->s.n) {
        ss->msg = "no such ball";
        return -1;
    }
    if (ss->nonfinite || !isfinite(vx) || !isfinite(vy)) {
        ss->msg = "state not finite: ',' steps back, 'r' resets";
        return -1;
    }
    if (ss->engine == SESSION_EVENT) {
        event_kick(&ss->ev, i, vx, vy);
        event_to_sim(&ss->ev, &ss->s);
        touch(ss);
        ss->e0 = energy_now(ss);
        if (snap_keep(ss)) /* replaces now's state, forgets the future */
            ss->msg = "out of memory: cannot step back here";
        return 0;
    }
    struct session_action a = {0};
    a.kind = SESSION_KICK;
    a.ball = ball;
    a.a = vx;
    a.b = vy;
    return spring_action(ss, a);
}

/* @p v bounded to SESSION_PARAM_RANGE of @p ref, finite and > 0. */
static double bounded(double v, double ref)
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
    ss->msg = NULL;
    v = bounded(v, kind == SESSION_SET_K ? ss->k0 : ss->dt0);
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
    return spring_action(ss, a);
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
    ss->msg = NULL;
    if (ss->engine == SESSION_EVENT) {
        ss->msg = "gravity needs the spring engine (m)";
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
    return spring_action(ss, a);
}

double session_contact_steps(const struct session *ss)
{
    if (ss->s.p.contact == SIM_CONTACT_NONE)
        return INFINITY;
    return sim_contact_time(&ss->s) / ss->s.p.dt;
}

/* === Diagnostics === */

/* Kinetic energy of the velocities synchronised with the positions: the
 * stored v is the velocity of the half step that led to x (v += dt F/m,
 * then x += dt v); v + dt/2 F(x)/m is the velocity at x's own time to
 * second order, whose energy the scheme keeps within O(dt^2) even inside
 * a contact. */
static double sync_ke(struct session *ss)
{
    struct sim *c = &ss->scratch;
    if (!c->x && sim_init(c, ss->s.n, &ss->s.p))
        return NAN;
    sim_copy(c, &ss->s);
    sim_forces(c);
    double h = 0.5 * c->p.dt, ke = 0;
    for (size_t i = 0; i < c->n; i++) {
        double vx = c->vx[i] + h * c->fx[i] / c->m[i];
        double vy = c->vy[i] + h * c->fy[i] / c->m[i];
        ke += 0.5 * c->m[i] * (vx * vx + vy * vy);
    }
    return ke;
}

static void add_sample(struct session *ss)
{
    struct session_sample smp = {ss->d.t, ss->d.ke, ss->d.pe, ss->d.e,
                                 ss->d.px, ss->d.py, ss->d.contacts};
    if (ss->nring > 0) {
        struct session_sample *last = &ss->ring[(ss->ring0 + ss->nring - 1) % SESSION_SAMPLES];
        if (last->t == smp.t) { /* the same time, changed (a kick): replace */
            *last = smp;
            return;
        }
    }
    if (ss->nring == SESSION_SAMPLES) {
        ss->ring0 = (ss->ring0 + 1) % SESSION_SAMPLES;
        ss->nring--;
    }
    ss->ring[(ss->ring0 + ss->nring) % SESSION_SAMPLES] = smp;
    ss->nring++;
}

const struct session_diag *session_diag(struct session *ss)
{
    struct session_diag *d = &ss->d;
    if (ss->diag_version == ss->version && ss->version != 0) {
        d->e_ref = ss->engine == SESSION_EVENT ? ss->e0 : spring_eref(ss);
        return d;
    }
    memset(d, 0, sizeof *d);
    d->t = ss->s.t;
    d->steps = ss->s.steps;
    d->mft = -1;
    if (ss->engine == SESSION_EVENT) {
        struct event_diag ed;
        event_diag(&ss->ev, &ed);
        d->events = ss->ev_events0 + ed.events;
        d->collisions = ss->ev_coll0 + ed.collisions;
        if (d->collisions > 0)
            d->mft = (double)ss->s.n * (ss->s.t - ss->ev_t0) / (2.0 * (double)d->collisions);
        d->ke = ed.ke;
        d->e = ed.ke;
        d->px = ed.px;
        d->py = ed.py;
    } else {
        struct sim_diag sd;
        sim_diag(&ss->s, &sd);
        double ke = ss->s.n && !ss->nonfinite ? sync_ke(ss) : sd.ke;
        if (!isfinite(ke))
            ke = sd.ke;
        d->ke = ke;
        d->pe = sd.e - sd.ke;
        d->e = d->pe + ke;
        d->px = sd.px;
        d->py = sd.py;
        d->contacts = sd.contacts;
        d->dissipated = sd.dissipated;
        d->out = sd.out;
    }
    ss->diag_version = ss->version;
    d->e_ref = ss->engine == SESSION_EVENT ? ss->e0 : spring_eref(ss);
    if (isfinite(d->e))
        add_sample(ss);
    return d;
}

size_t session_samples(const struct session *ss)
{
    return ss->nring;
}

const struct session_sample *session_sample(const struct session *ss, size_t i)
{
    return &ss->ring[(ss->ring0 + i) % SESSION_SAMPLES];
}

/* A parameter of the event engine changed: rebuilt from the state now,
 * the kept future dropped, the energy reference taken again. */
static int event_rebuilt(struct session *ss)
{
    long long events = ss->ev.collisions + ss->ev.walls, coll = ss->ev.collisions;
    if (ev_build(ss))
        return -1;
    ss->ev_events0 += events; /* the new engine counts from 0 */
    ss->ev_coll0 += coll;
    touch(ss);
    ss->e0 = energy_now(ss);
    if (snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
    return 0;
}

int session_set_restitution(struct session *ss, double e)
{
    ss->msg = NULL;
    if (!(e > 0 && e <= 1)) {
        ss->msg = "restitution must be in (0, 1]";
        return -1;
    }
    if (ss->engine == SESSION_EVENT) {
        double old = ss->s.p.restitution;
        ss->s.p.restitution = e;
        if (event_rebuilt(ss)) {
            ss->s.p.restitution = old;
            ev_build(ss);
            return -1;
        }
        return 0;
    }
    struct session_action a = {0};
    a.kind = SESSION_SET_E;
    a.a = e;
    return spring_action(ss, a);
}

int session_set_border(struct session *ss, int shape, int walls, unsigned open)
{
    ss->msg = NULL;
    if (ss->engine == SESSION_EVENT) {
        if (shape == SIM_OPEN || open) {
            ss->msg = "no walls needs the spring engine (m)";
            return -1;
        }
        ss->s.p.shape = shape;
        ss->s.p.walls = walls;
        return event_rebuilt(ss);
    }
    struct session_action a = {0};
    a.kind = SESSION_BORDER;
    a.a = shape;
    a.b = walls;
    a.ball = open;
    return spring_action(ss, a);
}
