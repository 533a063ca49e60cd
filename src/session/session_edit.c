/*
 * session_edit.c - live edits: what an edit may do (edit_check), the one
 * funnel every edit goes through (edits), gestures and groups, the balls'
 * tags, the scene reset returns to. See session.h ("Live edits").
 */
#include "session_impl.h"
#include "util.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What edit_check returns when it said a note rather than a text. */
static const char note_said[] = "(a note)";

static const char *noted(struct session *ss, int note)
{
    ss_say(ss, note);
    return note_said;
}

static int edit(struct session *ss, struct session_action a);
static void resize_timeline(struct session *ss);

/* Grows a tag array to hold @p n. */
int ss_tag_room(uint32_t **a, size_t *cap, size_t n)
{
    return util_grow(a, cap, n, sizeof **a);
}

/* A new timeline starts: its tags are the current ones. */
int ss_tags_mark(struct session *ss)
{
    ss->edited = 0;
    ss->edited_params = 0;
    if (ss_tag_room(&ss->tag0, &ss->capn0, ss->s.n))
        return -1;
    if (ss->tag)
        memcpy(ss->tag0, ss->tag, ss->s.n * sizeof *ss->tag);
    ss->n0 = ss->s.n;
    return 0;
}

/* The tags of the state at the current position: those of the timeline's
 * start, through the adds and removes recorded up to now. */
void ss_tags_sync(struct session *ss)
{
    if (!ss->edited || !ss->tag0)
        return;
    size_t n = ss->n0;
    if (ss_tag_room(&ss->tag, &ss->captag, n))
        return;
    memcpy(ss->tag, ss->tag0, n * sizeof *ss->tag);
    for (size_t i = 0; i < ss->nact && ss->act[i].pos <= ss->pos; i++) {
        const struct session_action *a = &ss->act[i];
        if (a->kind == SESSION_ADD) {
            if (ss_tag_room(&ss->tag, &ss->captag, n + 1))
                return;
            ss->tag[n++] = a->tag;
        } else if (a->kind == SESSION_REMOVE && a->ball < n) {
            memmove(ss->tag + a->ball, ss->tag + a->ball + 1, (n - a->ball - 1) * sizeof *ss->tag);
            n--;
        }
    }
    /* never out of step with the balls */
    if (n != ss->s.n && ss_tag_room(&ss->tag, &ss->captag, ss->s.n) == 0)
        for (size_t i = n; i < ss->s.n; i++)
            ss->tag[i] = UINT32_MAX;
}

uint32_t session_tag(const struct session *ss, size_t ball)
{
    return ball < ss->s.n && ss->tag ? ss->tag[ball] : UINT32_MAX;
}

void session_gesture(struct session *ss, int on)
{
    ss->gesture = on;
}

void session_group(struct session *ss, int on)
{
    if (!on && ss->group)
        resize_timeline(ss); /* once the group's balls are in */
    ss->group = on != 0;
}

int session_kick(struct session *ss, size_t ball, double vx, double vy)
{
    /* a move of its own, as an edit: ',' undoes it alone, at t = 0 too */
    struct session_action a = {0};
    a.kind = SESSION_KICK;
    a.ball = ball;
    a.a = vx;
    a.b = vy;
    return edit(ss, a);
}

/* Time reversed. Springs: the stored v is v_{n-1/2}, the half step that
 * led to x_n; the next step would take v_{n+1/2} = v_{n-1/2} + dt F(x_n)/m.
 * Stored as -v_{n+1/2}, the next kick makes it -v_{n-1/2} and the drift
 * goes back to x_{n-1}, and so on down the steps taken. The observed
 * velocity, v + dt/2 F/m, is turned around exactly: the energy shown
 * stays. F on a copy: the run's broad phase is not touched. */
static int reverse(struct session *ss)
{
    struct sim *s = &ss->s;
    if (!(ss_engine(ss)->caps & SESSION_CAP_OBSERVES)) { /* velocities as they are */
        for (size_t i = 0; i < s->n; i++) {
            s->vx[i] = -s->vx[i];
            s->vy[i] = -s->vy[i];
        }
        return 0;
    }
    struct sim f = {0};
    if (sim_assign(&f, s) || sim_forces(&f)) {
        sim_free(&f);
        return -1;
    }
    const double dt = s->p.dt;
    for (size_t i = 0; i < s->n; i++) {
        s->vx[i] = -(s->vx[i] + dt * f.fx[i] / s->m[i]);
        s->vy[i] = -(s->vy[i] + dt * f.fy[i] / s->m[i]);
    }
    sim_free(&f);
    return 0;
}

/* Applies edit @p a to the state and the tags. @return 0, -1 (memory). */
int ss_apply_edit(struct session *ss, const struct session_action *a)
{
    struct sim *s = &ss->s;
    size_t i = a->ball < s->n ? sim_slot(s, a->ball) : s->n;
    switch (a->kind) {
    case SESSION_ADD:
        if (ss_tag_room(&ss->tag, &ss->captag, s->n + 1) ||
            sim_add_ball(s, a->a, a->b, a->c, a->d, a->e, a->f))
            return -1;
        ss->tag[s->n - 1] = a->tag;
        break;
    case SESSION_REMOVE:
        if (i >= s->n || sim_remove_ball(s, a->ball))
            return -1;
        memmove(ss->tag + a->ball, ss->tag + a->ball + 1, (s->n - a->ball) * sizeof *ss->tag);
        break;
    case SESSION_MOVE:
        if (i >= s->n)
            return -1;
        s->x[i] = a->a;
        s->y[i] = a->b;
        if (a->c != 0)
            s->vx[i] = s->vy[i] = 0;
        sim_touch(s);
        break;
    case SESSION_VELOCITY:
        if (i >= s->n)
            return -1;
        s->vx[i] = a->a;
        s->vy[i] = a->b;
        break;
    case SESSION_MASS:
    case SESSION_RADIUS:
        if (i >= s->n)
            return -1;
        if (a->kind == SESSION_MASS)
            s->m[i] = a->a;
        else
            s->r[i] = a->a;
        sim_touch(s);
        break;
    case SESSION_PARAMS:
        s->p = a->p;
        sim_touch(s);
        break;
    case SESSION_REVERSE:
        if (reverse(ss))
            return -1;
        break;
    default:
        return -1;
    }
    ss_touch(ss);
    return 0;
}

/* Whether a disc of radius r at (x, y) lies wholly on the table. */
static int fits(const struct sim_params *p, double x, double y, double r)
{
    if (p->shape == SIM_CIRCLE) {
        double R = 0.5 * p->w, dx = x - R, dy = y - R;
        return dx * dx + dy * dy <= (R - r) * (R - r);
    }
    if (p->shape == SIM_OPEN)
        return 1;
    return x >= r && x <= p->w - r && y >= r && y <= p->h - r;
}

#define HARD_MSG "with walls hard every ball must lie wholly on the table"

/* Why edit @p a cannot be made, or NULL. Fixes k and dt into bounds. */
static const char *edit_check(struct session *ss, struct session_action *a)
{
    const struct sim *s = &ss->s;
    if (ss->nonfinite)
        return noted(ss, SESSION_NOTE_NOT_FINITE);
    if (s->p.line) { /* 1-D: kicks and edits keep to x, balls to their rows */
        if (a->kind == SESSION_KICK || a->kind == SESSION_VELOCITY)
            a->b = 0;
        else if (a->kind == SESSION_ADD)
            a->d = 0;
        else if (a->kind == SESSION_MOVE && a->ball < s->n)
            a->b = s->y[sim_slot(s, a->ball)];
        else if (a->kind == SESSION_PARAMS)
            a->p.line = 1;
    }
    int hard = s->p.walls == SIM_WALLS_HARD;
    size_t i = a->ball < s->n ? sim_slot(s, a->ball) : s->n;
    if (a->kind != SESSION_ADD && a->kind != SESSION_PARAMS && a->kind != SESSION_REVERSE &&
        i >= s->n)
        return s->n ? "no such ball" : "no ball to edit (a adds one)";
    switch (a->kind) {
    case SESSION_ADD:
        if (!isfinite(a->a) || !isfinite(a->b) || !isfinite(a->c) || !isfinite(a->d))
            return "position and velocity must be finite";
        if (!(a->e > 0 && a->e <= DBL_MAX))
            return "mass must be > 0";
        if (!(a->f > 0 && a->f <= DBL_MAX) &&
            !(a->f == 0 && s->p.contact == SIM_CONTACT_NONE)) /* point masses */
            return "radius must be > 0";
        if (s->n + 1 >= UINT32_MAX)
            return "too many balls";
        if (hard && !fits(&s->p, a->a, a->b, a->f))
            return HARD_MSG;
        return NULL;
    case SESSION_REMOVE:
    case SESSION_REVERSE:
        return NULL;
    case SESSION_MOVE:
        if (!isfinite(a->a) || !isfinite(a->b))
            return "position must be finite";
        if (hard && !fits(&s->p, a->a, a->b, s->r[i]))
            return HARD_MSG;
        return NULL;
    case SESSION_KICK:
    case SESSION_VELOCITY:
        return isfinite(a->a) && isfinite(a->b) ? NULL : "velocity must be finite";
    case SESSION_MASS:
        return a->a > 0 && a->a <= DBL_MAX ? NULL : "mass must be > 0";
    case SESSION_RADIUS:
        if (!(a->a > 0 && a->a <= DBL_MAX))
            return "radius must be > 0";
        if (hard && !fits(&s->p, s->x[i], s->y[i], a->a))
            return HARD_MSG;
        return NULL;
    case SESSION_PARAMS: {
        struct sim_params *p = &a->p;
        if (p->shape != s->p.shape || p->w != s->p.w || p->h != s->p.h)
            return noted(ss, SESSION_NOTE_TABLE_FIXED);
        if (!(p->restitution >= 0 && p->restitution <= 1))
            return "restitution must be >= 0 and <= 1";
        p->k = ss_bounded(p->k, ss->k0);
        p->dt = ss_bounded(p->dt, ss->dt0);
        if (p->walls == SIM_WALLS_HARD && s->p.walls != SIM_WALLS_HARD)
            for (size_t j = 0; j < s->n; j++)
                if (!fits(p, s->x[j], s->y[j], s->r[j])) {
                    ss->note_ball[0] = sim_ball(s, j) + 1;
                    return noted(ss, SESSION_NOTE_CROSSES_WALL);
                }
        if (ss_engine(ss)->caps & SESSION_CAP_EXACT) {
            const char *why = event_unsupported(p);
            if (why)
                return why;
        }
        return NULL;
    }
    }
    return "unknown edit";
}

/* The reset state follows the edits made at the starting time. */
void ss_start_follow(struct session *ss)
{
    if (!ss->edited || ss->s.t != ss->start.t)
        return;
    size_t k = ss_first_act(ss, ss->pos + 1); /* after the action of now */
    if (k > 0 && ss->act[k - 1].kind == SESSION_KICK && ss->act[k - 1].pos == ss->pos)
        return; /* a kick sets off the scene, it does not change it */
    if (ss_tag_room(&ss->tag_start, &ss->capstart, ss->s.n) || sim_assign(&ss->start, &ss->s))
        return;
    memcpy(ss->tag_start, ss->tag, ss->s.n * sizeof *ss->tag);
}

/* A note when scene ball @p ball overlaps another. */
static void overlap_note(struct session *ss, size_t ball)
{
    const struct sim *s = &ss->s;
    if (ball >= s->n || s->p.contact == SIM_CONTACT_NONE)
        return;
    size_t i = sim_slot(s, ball);
    for (size_t j = 0; j < s->n; j++) {
        if (j == i)
            continue;
        double d = hypot(s->x[j] - s->x[i], s->y[j] - s->y[i]);
        if (d < s->r[i] + s->r[j]) {
            ss_say(ss, SESSION_NOTE_OVERLAP);
            ss->note_ball[0] = ball + 1;
            ss->note_ball[1] = sim_ball(s, j) + 1;
            return;
        }
    }
}

/* After adds that more than doubled the balls the history or the ring of
 * states was sized for, they would pass the memory budget: they are made
 * again for the balls there are now, and ',' stops at this edit. */
static void resize_timeline(struct session *ss)
{
    if (ss->s.n <= 2 * ss->sized_n + 256)
        return;
    ss->sized_n = ss->s.n;
    if (ss_engine(ss)->caps & SESSION_CAP_EXACT) { /* the ring of states */
        for (size_t i = 0; i < ss->capsnap; i++)
            if (ss->snap[i].live)
                sim_free(&ss->snap[i].s);
        free(ss->snap);
        ss->snap = NULL;
        ss->capsnap = ss->nsnap = ss->snap0 = ss->snapnow = 0;
        if (ss_snap_keep(ss))
            ss->msg = "out of memory: cannot step back here";
    } else if (ss->have_history) {
        history_free(&ss->h);
        int cap;
        long long every;
        history_size(ss->s.n, ss->budget, SESSION_DEPTH, &cap, &every);
        ss->have_history = history_init(&ss->h, &ss->s, cap, every) == 0;
    }
    ss_say(ss, SESSION_NOTE_STOPS_HERE);
    ss->note_ball[0] = ss->s.n;
}

/* Makes edit @p a: a move of its own (or merged into the last one during
 * a gesture), recorded for replay. */
static int edits(struct session *ss, struct session_action *as, size_t n)
{
    ss_hush(ss);
    if (ss_engine(ss)->caps & SESSION_CAP_REMOTE) { /* its balls are the run's */
        ss->msg = "the run is elsewhere: its balls are pushed, not edited";
        return -1;
    }
    ss->runaway = 0;
    for (size_t k = 0; k < n; k++) {
        const char *why = edit_check(ss, &as[k]);
        if (why) {
            if (why != note_said)
                ss->msg = why;
            return -1;
        }
    }
    struct session_action a = as[n - 1];
    ss_cut_future(ss);
    struct session_action *last = ss->nact ? &ss->act[ss->nact - 1] : NULL;
    int merge = n == 1 && ss->gesture && last && last->pos == ss->pos && last->kind == a.kind &&
                last->ball == a.ball &&
                (a.kind == SESSION_MOVE || a.kind == SESSION_VELOCITY ||
                 a.kind == SESSION_MASS || a.kind == SESSION_RADIUS);
    /* in a group after its first edit: one more action of the same move */
    int joined = !merge && ss->group == 2 && last && last->pos == ss->pos &&
                 last->kind >= SESSION_ADD;
    if (!merge && ss->nact + n > ss->capact) {
        size_t nc = ss->capact ? 2 * ss->capact : 16;
        if (nc < ss->nact + n)
            nc = ss->nact + n;
        struct session_action *na = realloc(ss->act, nc * sizeof *na);
        if (!na) {
            ss->msg = "out of memory";
            return -1;
        }
        ss->act = na;
        ss->capact = nc;
    }
    if (n > 1 ? ss_apply_adds(ss, as, n) : ss_apply(ss, &a)) {
        ss_tags_sync(ss);
        ss->msg = "out of memory";
        return -1;
    }
    int newmove = !merge && !joined;
    if (newmove)
        ss->pos++;
    if (ss->group)
        ss->group = 2;
    a.pos = ss->pos;
    for (size_t k = 0; k + 1 < n; k++)
        as[k].pos = ss->pos;
    ss->edited |= a.kind != SESSION_KICK; /* a kick is no edit of the scene */
    ss->edited_params |= a.kind == SESSION_PARAMS;
    if (ss_engine(ss)->caps & SESSION_CAP_EXACT) {
        /* the engine again from the edited state, its counts carried */
        ss->ev_events0 += ss->ev.collisions + ss->ev.walls;
        ss->ev_coll0 += ss->ev.collisions;
        if (ss_ev_build(ss)) {
            const char *m = ss->msg;
            if (newmove)
                ss->pos--;
            ss_snap_restore(ss, ss->snapnow); /* the state before the edit */
            ss->msg = m;
            return -1;
        }
        ss->e0 = ss_energy(ss);
        a.e_ref = ss->e0;
        for (size_t k = 0; k + 1 < n; k++) {
            as[k].e_ref = a.e_ref;
            ss->act[ss->nact++] = as[k];
        }
        if (merge)
            *last = a;
        else
            ss->act[ss->nact++] = a;
        if (ss_snap_keep(ss))
            ss->msg = "out of memory: cannot step back here";
    } else {
        a.e_ref = ss_energy(ss);
        for (size_t k = 0; k + 1 < n; k++) {
            as[k].e_ref = a.e_ref;
            ss->act[ss->nact++] = as[k];
        }
        if (merge)
            *last = a;
        else
            ss->act[ss->nact++] = a;
        if (ss->have_history) {
            if (newmove)
                history_stepped(&ss->h, &ss->s);
            if (history_changed(&ss->h, &ss->s))
                ss->msg = "out of memory: history cut short";
        }
    }
    ss_start_follow(ss);
    if (ss->group == 0)
        resize_timeline(ss);
    if (!ss->msg && !ss->note)
        overlap_note(ss, a.kind == SESSION_ADD ? ss->s.n - 1
                       : a.kind == SESSION_MOVE || a.kind == SESSION_RADIUS ? a.ball : ss->s.n);
    ss_sample_now(ss);
    return 0;
}

static int edit(struct session *ss, struct session_action a)
{
    return edits(ss, &a, 1);
}

int session_add_balls(struct session *ss, const struct session_ball *b, size_t n)
{
    if (n == 0)
        return 0;
    struct session_action *as = n <= SIZE_MAX / sizeof *as ? calloc(n, sizeof *as) : NULL;
    if (!as) {
        ss->msg = "out of memory";
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        as[k].kind = SESSION_ADD;
        as[k].a = b[k].x;
        as[k].b = b[k].y;
        as[k].c = b[k].vx;
        as[k].d = b[k].vy;
        as[k].e = b[k].m;
        as[k].f = b[k].r;
        as[k].tag = b[k].tag;
    }
    int rc = edits(ss, as, n);
    free(as);
    return rc;
}

int session_add_ball(struct session *ss, double x, double y, double vx, double vy,
                     double m, double r, uint32_t tag)
{
    struct session_action a = {0};
    a.kind = SESSION_ADD;
    a.a = x;
    a.b = y;
    a.c = vx;
    a.d = vy;
    a.e = m;
    a.f = r;
    a.tag = tag;
    return edit(ss, a);
}

int session_remove_ball(struct session *ss, size_t ball)
{
    struct session_action a = {0};
    a.kind = SESSION_REMOVE;
    a.ball = ball;
    return edit(ss, a);
}

int session_move(struct session *ss, size_t ball, double x, double y, int zero_v)
{
    struct session_action a = {0};
    a.kind = SESSION_MOVE;
    a.ball = ball;
    a.a = x;
    a.b = y;
    a.c = zero_v != 0;
    return edit(ss, a);
}

int session_set_velocity(struct session *ss, size_t ball, double vx, double vy)
{
    struct session_action a = {0};
    a.kind = SESSION_VELOCITY;
    a.ball = ball;
    a.a = vx;
    a.b = vy;
    return edit(ss, a);
}

int session_set_mass(struct session *ss, size_t ball, double m)
{
    struct session_action a = {0};
    a.kind = SESSION_MASS;
    a.ball = ball;
    a.a = m;
    return edit(ss, a);
}

int session_set_radius(struct session *ss, size_t ball, double r)
{
    struct session_action a = {0};
    a.kind = SESSION_RADIUS;
    a.ball = ball;
    a.a = r;
    return edit(ss, a);
}

int session_reverse(struct session *ss)
{
    struct session_action a = {0};
    a.kind = SESSION_REVERSE;
    return edit(ss, a);
}

int session_set_params(struct session *ss, const struct sim_params *p)
{
    struct session_action a = {0};
    a.kind = SESSION_PARAMS;
    a.p = *p;
    return edit(ss, a);
}
