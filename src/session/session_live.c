/*
 * session_live.c - the live engine (SESSION_LIVE, session.h): a run going
 * on elsewhere, its frames polled from a link (link.h) whenever the
 * session advances, never waiting. A frame becomes the state as it is;
 * velocities are the link's, or differences of the last two frames.
 * What the front end sends (pause, frame rate, a push, kill) goes to the
 * link; the engine's table is ss_live.
 */
#include "session_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct session_live {
    struct link *link;
    long long trate;           /* steps a frame */
    int state;                 /* enum session_live_state */
    int paused;
    unsigned long long frames; /* taken */
    unsigned long long k;      /* the link's number of the last frame */
    long long step;            /* the last frame's step */
    double t;                  /* its time */
    int v_diff, z, pulse;
    int stepping;              /* paused, and resumed for one frame (session_live_step) */
    int hold;                  /* paused by a step: what comes waits for the next '.' */
    int32_t pulse_ball;        /* the frame's ball (atom) pushed */
    double *zs, *vzs;          /* the last frame's z and vz, of every atom */
    struct sim full;           /* with a slice: every atom (ss->s keeps some) */
    char msg[512];
};

/* @p src into the engine's message (no stdio in the session). */
static void said(struct session_live *lv, const char *src)
{
    size_t n = strlen(src);
    if (n >= sizeof lv->msg)
        n = sizeof lv->msg - 1;
    memcpy(lv->msg, src, n);
    lv->msg[n] = 0;
}

static struct session_live *live_of(const struct session *ss)
{
    return ss->engine == SESSION_LIVE ? ss->live : NULL;
}

/* The link failed or the run ended: said, the state kept. */
static int dropped(struct session *ss, int state)
{
    struct session_live *lv = ss->live;
    lv->state = state;
    said(lv, lv->link->msg);
    ss->msg = lv->msg;
    return -1;
}

/* Frame @p fr as the state: positions as sent; velocities as sent, or
 * the differences from the frame before over their time. */
static int take(struct session *ss, const struct link_frame *fr)
{
    struct session_live *lv = ss->live;
    struct sim *s = ss->dp.slice ? &lv->full : &ss->s;
    if (fr->n != s->n) {
        said(lv, "the run sent another number of atoms than the scene has balls");
        lv->state = SESSION_LIVE_DROPPED;
        ss->msg = lv->msg;
        return -1;
    }
    long long step = fr->step >= 0 ? fr->step
                   : lv->frames ? lv->step + lv->trate * (long long)(fr->k - lv->k)
                                : lv->trate * (long long)fr->k;
    double t = isnan(fr->t) ? (double)step * s->p.dt : fr->t;
    double span = t - lv->t;
    int diff = !fr->v && lv->frames > 0 && span > 0;
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        double x = fr->xyz[3 * b], y = fr->xyz[3 * b + 1], z = fr->xyz[3 * b + 2];
        if (z != 0)
            lv->z = 1;
        if (fr->v) {
            s->vx[i] = fr->v[3 * b];
            s->vy[i] = fr->v[3 * b + 1];
            lv->vzs[b] = fr->v[3 * b + 2];
        } else if (diff) {
            s->vx[i] = (x - s->x[i]) / span;
            s->vy[i] = (y - s->y[i]) / span;
            lv->vzs[b] = (z - lv->zs[b]) / span;
        } else {
            s->vx[i] = s->vy[i] = lv->vzs[b] = 0;
        }
        lv->zs[b] = z;
        s->x[i] = x;
        s->y[i] = y;
    }
    lv->v_diff = !fr->v;
    s->t = t;
    s->steps = step;
    lv->t = t;
    lv->step = step;
    lv->k = fr->k;
    lv->frames++;
    if (ss_depth_take(ss, s, lv->z ? lv->zs : NULL, lv->vzs)) {
        lv->state = SESSION_LIVE_DROPPED;
        said(lv, ss->msg);
        ss->msg = lv->msg;
        return -1;
    }
    ss->nonfinite = !sim_finite(&ss->s);
    ss_touch(ss);
    if (lv->pulse) { /* the pulse stood one frame: taken away */
        float zero[3] = {0, 0, 0};
        lv->pulse = 0;
        if (lv->link->ops->force(lv->link, 1, &lv->pulse_ball, zero))
            return dropped(ss, SESSION_LIVE_DROPPED);
    }
    return 0;
}

/* The newest frame come, or with @p one the oldest not taken yet. */
static int one_frame(struct session_live *lv, struct link_frame *fr, int one)
{
    const struct link_ops *o = lv->link->ops;
    return one && o->next ? o->next(lv->link, fr) : o->poll(lv->link, fr);
}

/* Advancing is polling: every frame that came, each taken (the plots
 * sample each), until none is there; the time asked is not waited for. */
static int live_advance(struct session *ss, double t, int (*more)(void *), void *arg)
{
    (void)t;
    struct session_live *lv = ss->live;
    if (lv->state != SESSION_LIVE_RUNNING)
        return 1;
    /* paused by '.': what the run sent before it heard is held in the
     * link, a frame a '.' (session_live_step); paused by space, the frames
     * under way are taken, the last shown (where the run stopped) */
    if (lv->paused && lv->hold && !lv->stepping)
        return 1;
    for (;;) {
        struct link_frame fr;
        int r = one_frame(lv, &fr, lv->stepping);
        if (r == LINK_NONE)
            return 1;
        if (r == LINK_ERROR)
            return dropped(ss, SESSION_LIVE_DROPPED);
        if (r == LINK_ENDED)
            return dropped(ss, SESSION_LIVE_ENDED);
        if (take(ss, &fr))
            return -1;
        ss_sample_now(ss);
        if (lv->stepping) { /* the one frame: paused again (PAUSE toggles) */
            lv->stepping = 0;
            lv->hold = 1;
            if (lv->link->ops->pause(lv->link))
                return dropped(ss, SESSION_LIVE_DROPPED);
            return 1;
        }
        if (more && !more(arg))
            return 0;
    }
}

static int live_still(struct session *ss)
{
    ss->msg = "the run is live: its frames come as it makes them";
    return -1;
}

static long long live_depth(const struct session *ss)
{
    (void)ss;
    return 0;
}

/* Its time is the run's: reached once a frame is at or past it. */
static int live_reached(const struct session *ss, double t)
{
    return ss->s.t >= t;
}

static int live_restart(struct session *ss)
{
    ss_sample_now(ss);
    return 0;
}

static int live_set(struct session *ss, struct session_action a)
{
    (void)a;
    ss->msg = "the run is elsewhere: its settings are its own";
    return -1;
}

static const struct sim *live_observed(struct session *ss)
{
    return &ss->s;
}

static void live_diag(struct session *ss, struct session_diag *d)
{
    session_diag_of(&ss->s, d);
    d->t = ss->s.t;
    d->steps = ss->s.steps;
}

static double live_eref(const struct session *ss)
{
    return ss->e0;
}

const struct ss_engine ss_live = {
    .name = "live",
    .caps = SESSION_CAP_REMOTE,
    .forward = live_still,
    .back = live_still,
    .depth = live_depth,
    .advance = live_advance,
    .reached = live_reached,
    .restart = live_restart,
    .set = live_set,
    .observed = live_observed,
    .diag = live_diag,
    .eref = live_eref,
};

int session_live(struct session *ss, struct link *link, long long trate,
                 unsigned long long first_k)
{
    ss_hush(ss);
    struct session_live *lv = calloc(1, sizeof *lv);
    if (!lv) {
        link->ops->close(link, 1);
        return -1;
    }
    ss_live_free(ss);
    size_t nz = ss->s.n ? ss->s.n : 1;
    lv->zs = calloc(nz, sizeof *lv->zs);
    lv->vzs = calloc(nz, sizeof *lv->vzs);
    int bad = !lv->zs || !lv->vzs;
    if (!bad && ss->dp.slice) { /* every atom here; the state keeps the slice's */
        bad = sim_init(&lv->full, ss->s.n, &ss->s.p) != 0;
        if (!bad)
            sim_copy(&lv->full, &ss->s);
    }
    if (bad) {
        free(lv->zs);
        free(lv->vzs);
        free(lv);
        link->ops->close(link, 1);
        return -1;
    }
    lv->link = link;
    lv->trate = trate > 0 ? trate : 1;
    lv->frames = first_k;
    lv->k = first_k;
    if (first_k) { /* the state is the link's frame first_k */
        ss->s.steps = lv->trate * (long long)first_k;
        ss->s.t = (double)ss->s.steps * ss->s.p.dt;
    }
    lv->step = ss->s.steps;
    lv->t = ss->s.t;
    ss->live = lv;
    ss->engine = SESSION_LIVE;
    ss->nact = 0;
    ss->pos = 0;
    ss_touch(ss);
    ss->e0 = ss_energy(ss);
    ss_sample_now(ss);
    return 0;
}

void ss_live_free(struct session *ss)
{
    if (!ss->live)
        return;
    if (ss->live->link)
        ss->live->link->ops->close(ss->live->link, ss->live->state == SESSION_LIVE_RUNNING);
    free(ss->live->zs);
    free(ss->live->vzs);
    sim_free(&ss->live->full);
    free(ss->live);
    ss->live = NULL;
}

struct session_live_info session_live_info(const struct session *ss)
{
    struct session_live_info in;
    memset(&in, 0, sizeof in);
    const struct session_live *lv = live_of(ss);
    if (!lv)
        return in;
    const struct link_ops *o = lv->link->ops;
    in.state = lv->state;
    in.can = (o->pause ? SESSION_LIVE_CAN_PAUSE : 0u) | (o->trate ? SESSION_LIVE_CAN_TRATE : 0u) |
             (o->force ? SESSION_LIVE_CAN_FORCE : 0u) | (o->kill ? SESSION_LIVE_CAN_KILL : 0u) |
             (o->reconnect ? SESSION_LIVE_CAN_RECONNECT : 0u);
    in.paused = lv->paused;
    in.stepping = lv->stepping;
    in.frames = lv->k;
    in.trate = lv->trate;
    in.v_diff = lv->v_diff;
    in.z = lv->z;
    in.pulse = lv->pulse;
    in.where = lv->link->where;
    in.msg = lv->state == SESSION_LIVE_RUNNING ? "" : lv->msg;
    return in;
}

/* The link, ready for a command it has; else -1 with the reason. */
static struct session_live *usable(struct session *ss, int has)
{
    ss_hush(ss);
    struct session_live *lv = ss->live;
    if (!live_of(ss)) {
        ss->msg = "not a live run";
        return NULL;
    }
    if (!has) {
        ss->msg = "the link cannot do that (a recording cannot be paused or pushed)";
        return NULL;
    }
    if (lv->state != SESSION_LIVE_RUNNING) {
        ss->msg = lv->state == SESSION_LIVE_DROPPED ? "the link dropped: r reconnects"
                                                    : "the run has ended";
        return NULL;
    }
    return lv;
}

int session_live_pause(struct session *ss)
{
    struct session_live *lv = usable(ss, ss->live && ss->live->link->ops->pause);
    if (!lv)
        return -1;
    lv->hold = 0;
    if (lv->stepping) { /* resumed for a frame already: let it run on */
        lv->stepping = 0;
        lv->paused = 0;
        return 0;
    }
    if (lv->link->ops->pause(lv->link))
        return dropped(ss, SESSION_LIVE_DROPPED);
    lv->paused = !lv->paused;
    return 0;
}

int session_live_step(struct session *ss)
{
    struct session_live *lv = usable(ss, ss->live && ss->live->link->ops->pause);
    if (!lv)
        return -1;
    if (!lv->paused) { /* running: paused first, as '.' pauses a run here */
        if (lv->link->ops->pause(lv->link))
            return dropped(ss, SESSION_LIVE_DROPPED);
        lv->paused = 1;
        return SESSION_LIVE_STEP_PAUSED;
    }
    if (lv->stepping)
        return SESSION_LIVE_STEP_COMING;
    /* a frame the run sent before it paused: that one, the run still paused */
    struct link_frame fr;
    int r = one_frame(lv, &fr, 1);
    if (r == LINK_ERROR)
        return dropped(ss, SESSION_LIVE_DROPPED);
    if (r == LINK_ENDED)
        return dropped(ss, SESSION_LIVE_ENDED);
    if (r == LINK_FRAME) {
        if (take(ss, &fr))
            return -1;
        ss_sample_now(ss);
        lv->hold = 1;
        return SESSION_LIVE_STEP_TAKEN;
    }
    /* none: resumed until the next frame comes (then paused again) */
    if (lv->link->ops->pause(lv->link))
        return dropped(ss, SESSION_LIVE_DROPPED);
    lv->stepping = 1;
    return SESSION_LIVE_STEP_COMING;
}

int session_live_trate(struct session *ss, long long trate)
{
    struct session_live *lv = usable(ss, ss->live && ss->live->link->ops->trate);
    if (!lv)
        return -1;
    if (trate < 1 || trate > 2147483647) {
        ss->msg = "trate goes from 1 to 2147483647";
        return -1;
    }
    if (lv->link->ops->trate(lv->link, (int)trate))
        return dropped(ss, SESSION_LIVE_DROPPED);
    lv->trate = trate;
    return 0;
}

int session_live_push(struct session *ss, size_t ball, double vx, double vy)
{
    struct session_live *lv = usable(ss, ss->live && ss->live->link->ops->force);
    if (!lv)
        return -1;
    const struct sim *s = &ss->s;
    if (ball >= s->n || ball > INT32_MAX) {
        ss->msg = "no such ball";
        return -1;
    }
    size_t i = sim_slot(s, ball);
    double span = (double)lv->trate * s->p.dt;
    double fx = s->m[i] * (vx - s->vx[i]) / span, fy = s->m[i] * (vy - s->vy[i]) / span;
    float f[3] = {(float)fx, (float)fy, 0};
    if (!isfinite(f[0]) || !isfinite(f[1])) {
        ss->msg = "the push is not finite";
        return -1;
    }
    size_t atom = ss->dp.slice ? ss->dp.atom[ball] : ball; /* the run's own number */
    if (atom > INT32_MAX) {
        ss->msg = "no such ball";
        return -1;
    }
    if (lv->pulse && lv->pulse_ball != (int32_t)atom) { /* one ball at a time */
        float zero[3] = {0, 0, 0};
        if (lv->link->ops->force(lv->link, 1, &lv->pulse_ball, zero))
            return dropped(ss, SESSION_LIVE_DROPPED);
    }
    lv->pulse_ball = (int32_t)atom;
    if (lv->link->ops->force(lv->link, 1, &lv->pulse_ball, f))
        return dropped(ss, SESSION_LIVE_DROPPED);
    lv->pulse = 1;
    return 0;
}

int session_live_kill(struct session *ss)
{
    struct session_live *lv = usable(ss, ss->live && ss->live->link->ops->kill);
    if (!lv)
        return -1;
    if (lv->link->ops->kill(lv->link))
        return dropped(ss, SESSION_LIVE_DROPPED);
    lv->state = SESSION_LIVE_KILLED;
    said(lv, lv->link->msg);
    return 0;
}

int session_live_reconnect(struct session *ss)
{
    ss_hush(ss);
    struct session_live *lv = live_of(ss);
    if (!lv || !lv->link->ops->reconnect) {
        ss->msg = "nothing to reconnect";
        return -1;
    }
    if (lv->state == SESSION_LIVE_RUNNING) {
        ss->msg = "the link is up";
        return -1;
    }
    if (lv->link->ops->reconnect(lv->link)) {
        said(lv, lv->link->msg);
        ss->msg = lv->msg;
        return -1;
    }
    lv->state = SESSION_LIVE_RUNNING;
    lv->paused = 0;
    lv->stepping = 0;
    lv->hold = 0;
    lv->pulse = 0;
    lv->msg[0] = 0;
    return 0;
}
