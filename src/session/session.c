/*
 * session.c - the interface: the engines behind it, forward, back, advance,
 * reset, the run's settings. See session.h; its insides, session_impl.h.
 */
#include "session_impl.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct ss_engine *const engines[] = {
    [SESSION_SPRING] = &ss_spring,
    [SESSION_EVENT] = &ss_event,
    [SESSION_REPLAY] = &ss_replay,
    [SESSION_LIVE] = &ss_live,
};

const struct ss_engine *ss_engine(const struct session *ss)
{
    assert(ss->engine >= 0 && (size_t)ss->engine < sizeof engines / sizeof *engines);
    return engines[ss->engine];
}

unsigned session_caps(const struct session *ss)
{
    return ss_engine(ss)->caps;
}

const char *session_engine_name(const struct session *ss)
{
    return ss_engine(ss)->name;
}

const struct sim *session_state(const struct session *ss)
{
    return &ss->s;
}

const struct sim *session_start(const struct session *ss)
{
    return &ss->start;
}

long long session_pos(const struct session *ss)
{
    return ss->pos;
}

unsigned long session_version(const struct session *ss)
{
    return ss->version;
}

int session_nonfinite(const struct session *ss)
{
    return ss->nonfinite;
}

int session_runaway(const struct session *ss)
{
    return ss->runaway;
}

const uint32_t *session_tags(const struct session *ss)
{
    return ss->tag;
}

const struct session_action *session_actions(const struct session *ss, size_t *n)
{
    *n = ss->nact;
    return ss->act;
}

struct session_said session_said(const struct session *ss)
{
    struct session_said w = {ss->msg, ss->note, {ss->note_ball[0], ss->note_ball[1]},
                             ss->note_what, ss->note_code, ss->note_t};
    return w;
}

void session_lend_threads(struct session *ss, struct sim_threads *th)
{
    ss->s.threads = th;
}

size_t session_slot(const struct session *ss, size_t ball)
{
    if (ball >= ss->s.n)
        return ss->s.n;
    return sim_slot(&ss->s, ball);
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
    ss->budget = SESSION_BUDGET;
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
    ss_live_free(ss);
    ss_depth_free(ss);
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
    ss->snap_dropped = 0;
    ss->nonfinite = !sim_finite(&ss->s);
    if (ss_spring_timeline(ss))
        ss->msg = "out of memory: no stepping back";
    return 0;
}

int session_forward(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    int rc = ss_engine(ss)->forward(ss);
    ss_start_follow(ss);
    return rc;
}

int session_set_budget(struct session *ss, size_t bytes)
{
    ss->budget = bytes < SESSION_BUDGET_MIN ? SESSION_BUDGET_MIN : bytes;
    if (ss->engine != SESSION_SPRING)
        return 0;
    return ss_spring_timeline(ss);
}

int session_back(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    return ss_engine(ss)->back(ss);
}

int session_reached(const struct session *ss, double t)
{
    return ss_engine(ss)->reached(ss, t);
}

long long session_depth(const struct session *ss)
{
    return ss_engine(ss)->depth(ss);
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
    return ss_engine(ss)->advance(ss, t, more, arg);
}

/* The settings reset keeps (session_reset): @p now's onto s. */
static void keep_settings(struct sim *s, const struct sim_params *now)
{
    s->p.k = now->k;
    s->p.dt = now->dt;
    s->p.restitution = now->restitution;
    s->p.gravity = now->gravity;
    s->p.softening = now->softening;
    s->p.shape = now->shape;
    s->p.walls = now->walls;
    s->p.open = now->open;
    s->p.line = now->line;
    if (s->p.line)
        for (size_t i = 0; i < s->n; i++)
            s->vy[i] = 0;
    sim_touch(s);
}

int session_reset(struct session *ss)
{
    ss_hush(ss);
    ss->runaway = 0;
    struct sim_params now = ss->s.p;
    if (sim_assign(&ss->s, &ss->start)) {
        ss->msg = "out of memory";
        return -1;
    }
    keep_settings(&ss->s, &now);
    if (ss_tag_room(&ss->tag, &ss->captag, ss->start.n)) {
        ss->msg = "out of memory";
        return -1;
    }
    memcpy(ss->tag, ss->tag_start, ss->start.n * sizeof *ss->tag);
    ss->nonfinite = !sim_finite(&ss->s);
    ss_col_clear(ss);
    ss_pm_forget(ss);
    ss_touch(ss);
    return ss_engine(ss)->restart(ss);
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

/* A run's setting changed: the engine takes it as it can (springs: an action
 * on the timeline; events: kept, or the engine built again). */
static int setting(struct session *ss, int kind, double a, double b, size_t ball)
{
    struct session_action act = {0};
    act.kind = kind;
    act.a = a;
    act.b = b;
    act.ball = ball;
    return ss_engine(ss)->set(ss, act);
}

/* k or dt bounded, set, and said: 1 when the bound took it. */
static int bounded_setting(struct session *ss, int kind, double v, double ref)
{
    ss_hush(ss);
    double b = ss_bounded(v, ref);
    int rc = setting(ss, kind, b, 0, 0);
    return rc == 0 && b != v ? 1 : rc;
}

int session_set_k(struct session *ss, double k)
{
    return bounded_setting(ss, SESSION_SET_K, k, ss->k0);
}

int session_set_dt(struct session *ss, double dt)
{
    return bounded_setting(ss, SESSION_SET_DT, dt, ss->dt0);
}

int session_set_gravity(struct session *ss, double G, double softening)
{
    ss_hush(ss);
    if (!(ss_engine(ss)->caps & SESSION_CAP_FORCES)) {
        ss_say(ss, SESSION_NOTE_NEEDS_SPRINGS);
        ss->note_what = "gravity";
        return -1;
    }
    if (!(G >= 0 && G <= DBL_MAX) || !(softening >= 0 && softening <= DBL_MAX)) {
        ss->msg = "gravity: not a finite G";
        return -1;
    }
    return setting(ss, SESSION_GRAVITY, G, softening, 0);
}

int session_show(struct session *ss, const struct sim *frame)
{
    return session_show_depth(ss, frame, NULL, NULL);
}

int session_show_depth(struct session *ss, const struct sim *frame, const double *z,
                       const double *vz)
{
    ss_hush(ss);
    int first = ss->engine != SESSION_REPLAY;
    if (ss_depth_take(ss, frame, z, vz))
        return -1;
    ss->engine = SESSION_REPLAY;
    ss->nonfinite = !sim_finite(&ss->s);
    ss_touch(ss);
    ss_rewind_samples(ss);
    /* each frame shown is a move of the momentum diagram's memory: a
     * replay's contact fills "before" too (it said "no contact yet") */
    if (ss->momenta && !ss->nonfinite)
        ss_pm_sample(ss);
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

int session_set_restitution(struct session *ss, double e)
{
    ss_hush(ss);
    if (!(e >= 0 && e <= 1)) {
        ss->msg = "restitution must be in [0, 1]";
        return -1;
    }
    if (e == 0 && !(ss_engine(ss)->caps & SESSION_CAP_FORCES)) {
        ss->msg = "sticky collisions (e 0) need the spring engine (m)";
        return -1;
    }
    return setting(ss, SESSION_SET_E, e, 0, 0);
}

int session_set_line(struct session *ss, int on)
{
    ss_hush(ss);
    if (!(ss_engine(ss)->caps & SESSION_CAP_FORCES)) {
        ss->msg = "1-D mode needs the spring engine (m)";
        return -1;
    }
    return setting(ss, SESSION_LINE, on != 0, 0, 0);
}

int session_set_border(struct session *ss, int shape, int walls, unsigned open)
{
    ss_hush(ss);
    return setting(ss, SESSION_BORDER, shape, walls, open);
}
