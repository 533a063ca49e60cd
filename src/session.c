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

/* Nothing said yet (each call that may say something starts so). */
static void hush(struct session *ss)
{
    ss->msg = NULL;
    ss->note = SESSION_NOTE_NONE;
}

/* Says note @p note (enum session_note), which the front end words; the
 * caller sets the note's balls or what. */
static void say(struct session *ss, int note)
{
    ss->msg = NULL;
    ss->note = note;
}

/* What edit_check returns when it said a note rather than a text. */
static const char note_said[] = "(a note)";

static const char *noted(struct session *ss, int note)
{
    say(ss, note);
    return note_said;
}

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

/* === The envelope of the samples === */

/* Merges sample (t, v) into column @p c. */
static void col_merge(struct session_col *c, double t, const double *v)
{
    c->t1 = t;
    for (int k = 0; k < SESSION_NCH; k++) {
        c->lo[k] = v[k] < c->lo[k] ? v[k] : c->lo[k];
        c->hi[k] = v[k] > c->hi[k] ? v[k] : c->hi[k];
        c->last[k] = v[k];
    }
    c->count++;
}

/* Adds sample (t, v): into the last column while it has room (or when t is
 * its time: the state changed at that time, a kick, events at one
 * instant: the column spans both values), else a new column;
 * all columns in use, neighbours merge in pairs first. Samples before the
 * last column's end drop what is after them (a step back). */
static void col_add(struct session *ss, double t, const double *v)
{
    for (int k = 0; k < SESSION_NCH; k++)
        if (!isfinite(v[k]))
            return;
    while (ss->ncol > 0 && ss->col[ss->ncol - 1].t1 > t)
        ss->ncol--;
    struct session_col *c = ss->ncol ? &ss->col[ss->ncol - 1] : NULL;
    if (c && (c->count < ss->per || c->t1 == t)) {
        col_merge(c, t, v);
        return;
    }
    if (ss->ncol == SESSION_COLS) {
        for (size_t i = 0; i < SESSION_COLS / 2; i++) {
            struct session_col a = ss->col[2 * i], b = ss->col[2 * i + 1];
            for (int k = 0; k < SESSION_NCH; k++) {
                a.lo[k] = b.lo[k] < a.lo[k] ? b.lo[k] : a.lo[k];
                a.hi[k] = b.hi[k] > a.hi[k] ? b.hi[k] : a.hi[k];
                a.last[k] = b.last[k];
            }
            a.t1 = b.t1;
            a.count += b.count;
            ss->col[i] = a;
        }
        ss->ncol = SESSION_COLS / 2;
        ss->per *= 2;
    }
    c = &ss->col[ss->ncol++];
    c->t0 = c->t1 = t;
    c->count = 1;
    for (int k = 0; k < SESSION_NCH; k++)
        c->lo[k] = c->hi[k] = c->first[k] = c->last[k] = v[k];
}

static void col_clear(struct session *ss)
{
    ss->ncol = 0;
    ss->per = 1;
}

/* Drops the columns after the current time (a step back rewinds them). */
static void rewind_samples(struct session *ss)
{
    while (ss->ncol > 0 && ss->col[ss->ncol - 1].t1 > ss->s.t)
        ss->ncol--;
}

/* The observed state now into the envelope, when sampling. */
static void sample_now(struct session *ss)
{
    if (!ss->sampling || ss->nonfinite)
        return;
    const struct session_diag *d = session_diag(ss);
    double v[SESSION_NCH] = {d->ke, d->pe, d->e, d->px, d->py};
    col_add(ss, d->t, v);
}

/* The event engine's state in the middle of an advance (ss->s is written
 * back only at its end). */
static void sample_event(struct session *ss)
{
    struct event_diag ed;
    event_diag(&ss->ev, &ed);
    double v[SESSION_NCH] = {ed.ke, ed.pf, ed.e, ed.px, ed.py};
    col_add(ss, ss->ev.t, v);
}

/* Kinetic energy of the stored velocities: O(n), no pairs. */
static double kinetic(const struct sim *s)
{
    double ke = 0;
    for (size_t i = 0; i < s->n; i++)
        ke += 0.5 * s->m[i] * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
    return ke;
}

static int tags_mark(struct session *ss);
static int tag_room(uint32_t **a, size_t *cap, size_t n);
static void start_follow(struct session *ss);
static void resize_timeline(struct session *ss);
static void tags_sync(struct session *ss);
static int apply_edit(struct session *ss, const struct session_action *a);
static int edit(struct session *ss, struct session_action a);

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
    ss->sized_n = ss->s.n;
    ss->pos = 0;
    ss->nact = 0;
    touch(ss);
    ss->e0 = energy_now(ss);
    if (tags_mark(ss))
        return -1;
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

/* === The observed state kept across a change === */

/* Before a change of the spring engine's state: the observed velocity of
 * every scene ball into ss->keep (vx from 0, vy from capkeep), with room
 * for a ball an edit adds. @return 0, or -1 (event engine, a state not
 * finite, memory: the change is made on the stored velocities). */
static int keep_observed(struct session *ss, size_t added)
{
    if (ss->engine != SESSION_SPRING || ss->nonfinite)
        return -1;
    size_t n = ss->s.n + (added ? added : 1);
    if (n > ss->capkeep) {
        double *k = realloc(ss->keep, 4 * n * sizeof *k);
        if (!k)
            return -1;
        ss->keep = k;
        ss->capkeep = n;
    }
    const struct sim *o = session_observed(ss);
    double *kx = ss->keep, *ky = kx + ss->capkeep;
    for (size_t b = 0; b < o->n; b++) {
        size_t i = sim_slot(o, b);
        kx[b] = o->vx[i];
        ky[b] = o->vy[i];
    }
    return 0;
}

/* After the change @p a: what it sets of the observed velocities (a kick,
 * a typed velocity, a ball added or removed) into the kept ones, then the
 * stored velocities derived from them (sim_unobserve). The balls @p a does
 * not set keep what they showed. */
static void restore_observed(struct session *ss, const struct session_action *a, size_t n0)
{
    struct sim *s = &ss->s;
    double *kx = ss->keep, *ky = kx + ss->capkeep, *wx = ky + ss->capkeep,
           *wy = wx + ss->capkeep;
    switch (a->kind) {
    case SESSION_KICK:
    case SESSION_VELOCITY:
        if (a->ball < n0) {
            kx[a->ball] = a->a;
            ky[a->ball] = a->b;
        }
        break;
    case SESSION_MOVE:
        if (a->c != 0 && a->ball < n0)
            kx[a->ball] = ky[a->ball] = 0;
        break;
    case SESSION_ADD:
        kx[n0] = a->c;
        ky[n0] = a->d;
        break;
    case SESSION_REMOVE:
        memmove(kx + a->ball, kx + a->ball + 1, (n0 - a->ball - 1) * sizeof *kx);
        memmove(ky + a->ball, ky + a->ball + 1, (n0 - a->ball - 1) * sizeof *ky);
        break;
    case SESSION_LINE:
        if (a->a != 0)
            for (size_t b = 0; b < s->n; b++)
                ky[b] = 0;
        break;
    default:
        break;
    }
    for (size_t i = 0; i < s->n; i++) {
        wx[i] = kx[sim_ball(s, i)];
        wy[i] = ky[sim_ball(s, i)];
    }
    sim_unobserve(s, wx, wy); /* failing (memory), the change stands as made */
}

static int apply_raw(struct session *ss, const struct session_action *a);


/* Applies action or edit @p a, keeping the observed state (see
 * session_observed). @return 0, or -1 when an edit failed (memory). */
static int apply(struct session *ss, const struct session_action *a)
{
    size_t n0 = ss->s.n;
    /* reverse sets the stored velocities itself: the observed ones negated */
    int kept = a->kind != SESSION_REVERSE && keep_observed(ss, 1) == 0;
    int rc = apply_raw(ss, a);
    if (kept && rc == 0 && ss->s.n == n0 + (a->kind == SESSION_ADD) - (a->kind == SESSION_REMOVE))
        restore_observed(ss, a, n0);
    touch(ss);
    return rc;
}

/* Applies the @p n SESSION_ADD actions @p a at once: one copy of the
 * state and one pass over the observed velocities for all of them (one
 * apply each made adding N balls O(N^2)). @return 0, or -1 (memory). */
static int apply_adds(struct session *ss, const struct session_action *a, size_t n)
{
    if (n == 1)
        return apply(ss, a);
    struct sim *s = &ss->s;
    size_t n0 = s->n;
    int kept = keep_observed(ss, n) == 0;
    if (tag_room(&ss->tag, &ss->captag, n0 + n) || sim_add_balls(s, n)) {
        touch(ss);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = n0 + k; /* slot = ball until the next step */
        s->x[i] = a[k].a;
        s->y[i] = a[k].b;
        s->vx[i] = a[k].c;
        s->vy[i] = a[k].d;
        s->m[i] = a[k].e;
        s->r[i] = a[k].f;
        ss->tag[i] = a[k].tag;
    }
    if (kept) {
        /* the new balls show their own velocities: the last through
         * restore_observed, which derives the stored ones for all */
        double *kx = ss->keep, *ky = kx + ss->capkeep;
        for (size_t k = 0; k + 1 < n; k++) {
            kx[n0 + k] = a[k].c;
            ky[n0 + k] = a[k].d;
        }
        restore_observed(ss, &a[n - 1], n0 + n - 1);
    }
    touch(ss);
    return 0;
}

static int apply_raw(struct session *ss, const struct session_action *a)
{
    struct sim *s = &ss->s;
    int rc = 0;
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
    case SESSION_LINE:
        s->p.line = a->a != 0;
        if (s->p.line)
            for (size_t i = 0; i < s->n; i++)
                s->vy[i] = 0;
        sim_touch(s); /* the force path changes */
        break;
    case SESSION_BORDER:
        s->p.shape = (int)a->a;
        s->p.walls = (int)a->b;
        s->p.open = (unsigned)a->ball;
        sim_touch(s); /* the force path and its broad phase change */
        break;
    default:
        rc = apply_edit(ss, a);
        break;
    }
    return rc;
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
    sample_now(ss);
    if (ss->have_history && history_changed(&ss->h, &ss->s))
        ss->msg = "out of memory: history cut short";
    return 0;
}

/* The first action made at position @p pos or later. The actions are in
 * the order of their positions (cut_future), and a live run steps at the
 * end of them: a step looks at the actions of its own move, not at all the
 * session's edits (a ball held during a run adds one a frame). */
static size_t first_act(const struct session *ss, long long pos)
{
    size_t i = ss->nact;
    while (i > 0 && ss->act[i - 1].pos >= pos)
        i--;
    return i;
}

/* One spring step, then the recorded actions of the new position. */
static int spring_forward(struct session *ss)
{
    if (ss->nonfinite) {
        say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    /* An edit makes a move of its own: replayed instead of a step. */
    size_t i = first_act(ss, ss->pos + 1);
    int edit_next = i < ss->nact && ss->act[i].pos == ss->pos + 1 &&
                    (ss->act[i].kind >= SESSION_ADD || ss->act[i].kind == SESSION_KICK);
    if (!edit_next && sim_step(&ss->s)) { /* no grid: never a silent all-pairs crawl */
        ss->msg = "out of memory: the contact grid (paused)";
        return -1;
    }
    ss->pos++;
    touch(ss);
    if (ss->have_history)
        history_stepped(&ss->h, &ss->s);
    int replayed = 0;
    for (i = first_act(ss, ss->pos); i < ss->nact && ss->act[i].pos == ss->pos; i++) {
        /* a run of adds (a :random line) at once */
        size_t j = i + 1;
        while (ss->act[i].kind == SESSION_ADD && j < ss->nact &&
               ss->act[j].pos == ss->pos && ss->act[j].kind == SESSION_ADD)
            j++;
        apply_adds(ss, &ss->act[i], j - i);
        i = j - 1;
        replayed = 1;
    }
    if (replayed && ss->have_history)
        history_changed(&ss->h, &ss->s);
    if (!sim_finite(&ss->s)) {
        ss->nonfinite = 1;
        say(ss, SESSION_NOTE_NOT_FINITE_PAUSED);
        return -1;
    }
    sample_now(ss);
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
        ss->sized_n = ss->s.n;
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
    if (sim_assign(&p->s, &ss->s)) { /* also when an edit changed n */
        ss->nsnap = idx;
        ss->snapnow = idx ? idx - 1 : 0;
        return -1;
    }
    p->live = 1;
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
    if (sim_assign(&ss->s, &p->s)) {
        ss->msg = "out of memory";
        return -1;
    }
    /* The parameters stay as they are (k and dt kept for the springs),
     * unless a ':' edit of them is on this timeline: then they come back
     * with the state (k and dt still kept). */
    if (ss->edited_params) {
        ss->s.p.k = keep.k;
        ss->s.p.dt = keep.dt;
    } else {
        ss->s.p = keep;
    }
    ss->snapnow = i;
    ss->pos = p->pos;
    ss->e0 = p->e_ref;
    touch(ss);
    tags_sync(ss);
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
    cut_future(ss); /* edits recorded after now are gone with the states */
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
    ss->nact = 0;
    ss->nsnap = ss->snap0 = ss->snapnow = 0;
    touch(ss);
    ss->e0 = energy_now(ss);
    if (tags_mark(ss))
        ss->msg = "out of memory";
    if (snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
    return 0;
}

static int event_forward(struct session *ss)
{
    if (ss->nsnap > 0 && ss->snapnow + 1 < ss->nsnap) { /* the kept future */
        if (snap_restore(ss, ss->snapnow + 1))
            return -1;
        sample_now(ss);
        return 1;
    }
    if (event_step(&ss->ev, 1) == 0) {
        ss->msg = "no more events";
        return 0;
    }
    ev_moved(ss);
    sample_now(ss);
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
    if (spring_timeline(ss) && !ss->tag0) { /* without history ',' just says no */
        session_free(ss);
        return -1;
    }
    hush(ss);
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
    hush(ss);
    if (engine == ss->engine)
        return 0;
    if (engine == SESSION_EVENT) {
        const char *why = event_unsupported(&ss->s.p);
        if (why) {
            ss->msg = why;
            return -1;
        }
        if (ss->nonfinite) {
            say(ss, SESSION_NOTE_NOT_FINITE);
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
    hush(ss);
    ss->runaway = 0;
    int rc = ss->engine == SESSION_EVENT ? event_forward(ss) : spring_forward(ss);
    start_follow(ss);
    return rc;
}

int session_back(struct session *ss)
{
    hush(ss);
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
        start_follow(ss);
        rewind_samples(ss);
        sample_now(ss);
        return 0;
    }
    if (!ss->have_history || history_back(&ss->h, &ss->s)) {
        ss->msg = "no further back";
        return -1;
    }
    ss->pos--;
    ss->nonfinite = !sim_finite(&ss->s);
    touch(ss);
    tags_sync(ss);
    start_follow(ss);
    rewind_samples(ss);
    sample_now(ss);
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
    hush(ss);
    ss->runaway = 0;
    if (ss->nonfinite) {
        say(ss, SESSION_NOTE_NOT_FINITE);
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
                sample_now(ss);
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
        long long every = !ss->sampling ? EVENT_CHUNK
                          : ss->s.n <= SESSION_EVENT_EVERY ? 1 : (long long)(ss->s.n / 8);
        long long since = 0;
        int rc;
        for (;;) {
            rc = event_advance(&ss->ev, t, every);
            if (rc != 0)
                break;
            if (ss->sampling) {
                sample_event(ss);
                if ((since += every) < EVENT_CHUNK)
                    continue;
                since = 0;
            }
            if (more && !more(arg))
                break;
        }
        ev_moved(ss);
        sample_now(ss);
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
            say(ss, SESSION_NOTE_UNSTABLE);
            return -1;
        }
        if (++n % STEP_CHUNK == 0 && more && !more(arg))
            return 0;
    }
    return 1;
}

int session_reset(struct session *ss)
{
    hush(ss);
    ss->runaway = 0;
    if (sim_assign(&ss->s, &ss->start)) {
        ss->msg = "out of memory";
        return -1;
    }
    if (tag_room(&ss->tag, &ss->captag, ss->start.n)) {
        ss->msg = "out of memory";
        return -1;
    }
    memcpy(ss->tag, ss->tag_start, ss->start.n * sizeof *ss->tag);
    ss->nonfinite = !sim_finite(&ss->s);
    col_clear(ss);
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
        int rc = event_timeline(ss);
        sample_now(ss);
        return rc;
    }
    int rc = spring_timeline(ss);
    sample_now(ss);
    return rc;
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
    hush(ss);
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
    hush(ss);
    if (ss->engine == SESSION_EVENT) {
        say(ss, SESSION_NOTE_NEEDS_SPRINGS);
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
    return spring_action(ss, a);
}

int session_show(struct session *ss, const struct sim *frame)
{
    hush(ss);
    if (frame->n != ss->s.n) {
        ss->msg = "replay: the frame has another ball count";
        return -1;
    }
    int first = ss->engine != SESSION_REPLAY;
    sim_copy(&ss->s, frame);
    sim_touch(&ss->s);
    ss->engine = SESSION_REPLAY;
    ss->nonfinite = !sim_finite(&ss->s);
    touch(ss);
    rewind_samples(ss);
    if (first) {
        ss->nact = 0;
        ss->pos = 0;
        ss->e0 = energy_now(ss);
    }
    return 0;
}

double session_contact_steps(const struct session *ss)
{
    if (ss->s.p.contact == SIM_CONTACT_NONE)
        return INFINITY;
    return sim_contact_time(&ss->s) / ss->s.p.dt;
}

/* === Diagnostics === */

const struct sim *session_observed(struct session *ss)
{
    if (ss->engine != SESSION_SPRING || ss->nonfinite || ss->s.n == 0)
        return &ss->s;
    if (ss->obs_version == ss->version && ss->version != 0)
        return &ss->obs;
    if (sim_observe(&ss->s, &ss->obs) == -1)
        return &ss->s; /* no memory for the copy */
    ss->obs_version = ss->version;
    return &ss->obs;
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
        d->pe = ed.pf;
        d->e = ed.e;
        d->px = ed.px;
        d->py = ed.py;
        d->out = ed.out;
    } else {
        struct sim_diag sd;
        sim_diag(session_observed(ss), &sd);
        d->ke = sd.ke;
        d->pe = sd.e - sd.ke;
        d->e = sd.e;
        d->px = sd.px;
        d->py = sd.py;
        d->contacts = sd.contacts;
        d->dissipated = sd.dissipated;
        d->out = sd.out;
    }
    ss->diag_version = ss->version;
    d->e_ref = ss->engine == SESSION_EVENT ? ss->e0 : spring_eref(ss);
    return d;
}

void session_sampling(struct session *ss, int on)
{
    ss->sampling = on != 0;
    sample_now(ss);
}

size_t session_columns(const struct session *ss)
{
    return ss->ncol;
}

const struct session_col *session_column(const struct session *ss, size_t i)
{
    return &ss->col[i];
}


/* === Live edits === */

/* Grows a tag array to hold @p n. */
static int tag_room(uint32_t **a, size_t *cap, size_t n)
{
    if (n <= *cap && *a)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < n)
        c *= 2;
    uint32_t *t = realloc(*a, c * sizeof *t);
    if (!t)
        return -1;
    *a = t;
    *cap = c;
    return 0;
}

/* A new timeline starts: its tags are the current ones. */
static int tags_mark(struct session *ss)
{
    ss->edited = 0;
    ss->edited_params = 0;
    if (tag_room(&ss->tag0, &ss->capn0, ss->s.n))
        return -1;
    if (ss->tag)
        memcpy(ss->tag0, ss->tag, ss->s.n * sizeof *ss->tag);
    ss->n0 = ss->s.n;
    return 0;
}

/* The tags of the state at the current position: those of the timeline's
 * start, through the adds and removes recorded up to now. */
static void tags_sync(struct session *ss)
{
    if (!ss->edited || !ss->tag0)
        return;
    size_t n = ss->n0;
    if (tag_room(&ss->tag, &ss->captag, n))
        return;
    memcpy(ss->tag, ss->tag0, n * sizeof *ss->tag);
    for (size_t i = 0; i < ss->nact && ss->act[i].pos <= ss->pos; i++) {
        const struct session_action *a = &ss->act[i];
        if (a->kind == SESSION_ADD) {
            if (tag_room(&ss->tag, &ss->captag, n + 1))
                return;
            ss->tag[n++] = a->tag;
        } else if (a->kind == SESSION_REMOVE && a->ball < n) {
            memmove(ss->tag + a->ball, ss->tag + a->ball + 1, (n - a->ball - 1) * sizeof *ss->tag);
            n--;
        }
    }
    /* never out of step with the balls */
    if (n != ss->s.n && tag_room(&ss->tag, &ss->captag, ss->s.n) == 0)
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

/* Time reversed. Springs: the stored v is v_{n-1/2}, the half step that
 * led to x_n; the next step would take v_{n+1/2} = v_{n-1/2} + dt F(x_n)/m.
 * Stored as -v_{n+1/2}, the next kick makes it -v_{n-1/2} and the drift
 * goes back to x_{n-1}, and so on down the steps taken. The observed
 * velocity, v + dt/2 F/m, is turned around exactly: the energy shown
 * stays. F on a copy: the run's broad phase is not touched. */
static int reverse(struct session *ss)
{
    struct sim *s = &ss->s;
    if (ss->engine == SESSION_EVENT) {
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
static int apply_edit(struct session *ss, const struct session_action *a)
{
    struct sim *s = &ss->s;
    size_t i = a->ball < s->n ? sim_slot(s, a->ball) : s->n;
    switch (a->kind) {
    case SESSION_ADD:
        if (tag_room(&ss->tag, &ss->captag, s->n + 1) ||
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
    touch(ss);
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
        p->k = bounded(p->k, ss->k0);
        p->dt = bounded(p->dt, ss->dt0);
        if (p->walls == SIM_WALLS_HARD && s->p.walls != SIM_WALLS_HARD)
            for (size_t j = 0; j < s->n; j++)
                if (!fits(p, s->x[j], s->y[j], s->r[j])) {
                    ss->note_ball[0] = sim_ball(s, j) + 1;
                    return noted(ss, SESSION_NOTE_CROSSES_WALL);
                }
        if (ss->engine == SESSION_EVENT) {
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
static void start_follow(struct session *ss)
{
    if (!ss->edited || ss->s.t != ss->start.t)
        return;
    size_t k = first_act(ss, ss->pos + 1); /* after the action of now */
    if (k > 0 && ss->act[k - 1].kind == SESSION_KICK && ss->act[k - 1].pos == ss->pos)
        return; /* a kick sets off the scene, it does not change it */
    if (tag_room(&ss->tag_start, &ss->capstart, ss->s.n) || sim_assign(&ss->start, &ss->s))
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
            say(ss, SESSION_NOTE_OVERLAP);
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
    if (ss->engine == SESSION_EVENT) {
        for (size_t i = 0; i < ss->capsnap; i++)
            if (ss->snap[i].live)
                sim_free(&ss->snap[i].s);
        free(ss->snap);
        ss->snap = NULL;
        ss->capsnap = ss->nsnap = ss->snap0 = ss->snapnow = 0;
        if (snap_keep(ss))
            ss->msg = "out of memory: cannot step back here";
    } else if (ss->have_history) {
        history_free(&ss->h);
        int cap;
        long long every;
        history_size(ss->s.n, SESSION_BUDGET, SESSION_DEPTH, &cap, &every);
        ss->have_history = history_init(&ss->h, &ss->s, cap, every) == 0;
    }
    say(ss, SESSION_NOTE_STOPS_HERE);
    ss->note_ball[0] = ss->s.n;
}

/* Makes edit @p a: a move of its own (or merged into the last one during
 * a gesture), recorded for replay. */
static int edits(struct session *ss, struct session_action *as, size_t n)
{
    hush(ss);
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
    cut_future(ss);
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
    if (n > 1 ? apply_adds(ss, as, n) : apply(ss, &a)) {
        tags_sync(ss);
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
    if (ss->engine == SESSION_EVENT) {
        /* the engine again from the edited state, its counts carried */
        ss->ev_events0 += ss->ev.collisions + ss->ev.walls;
        ss->ev_coll0 += ss->ev.collisions;
        if (ev_build(ss)) {
            const char *m = ss->msg;
            if (newmove)
                ss->pos--;
            snap_restore(ss, ss->snapnow); /* the state before the edit */
            ss->msg = m;
            return -1;
        }
        ss->e0 = energy_now(ss);
        a.e_ref = ss->e0;
        for (size_t k = 0; k + 1 < n; k++) {
            as[k].e_ref = a.e_ref;
            ss->act[ss->nact++] = as[k];
        }
        if (merge)
            *last = a;
        else
            ss->act[ss->nact++] = a;
        if (snap_keep(ss))
            ss->msg = "out of memory: cannot step back here";
    } else {
        a.e_ref = energy_now(ss);
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
    start_follow(ss);
    if (ss->group == 0)
        resize_timeline(ss);
    if (!ss->msg && !ss->note)
        overlap_note(ss, a.kind == SESSION_ADD ? ss->s.n - 1
                       : a.kind == SESSION_MOVE || a.kind == SESSION_RADIUS ? a.ball : ss->s.n);
    sample_now(ss);
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
    sample_now(ss);
    return 0;
}

int session_set_restitution(struct session *ss, double e)
{
    hush(ss);
    if (!(e >= 0 && e <= 1)) {
        ss->msg = "restitution must be in [0, 1]";
        return -1;
    }
    if (ss->engine == SESSION_EVENT && e == 0) {
        ss->msg = "sticky collisions (e 0) need the spring engine (m)";
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

int session_set_line(struct session *ss, int on)
{
    hush(ss);
    if (ss->engine == SESSION_EVENT) {
        ss->msg = "1-D mode needs the spring engine (m)";
        return -1;
    }
    struct session_action a = {0};
    a.kind = SESSION_LINE;
    a.a = on != 0;
    return spring_action(ss, a);
}

int session_set_border(struct session *ss, int shape, int walls, unsigned open)
{
    hush(ss);
    if (ss->engine == SESSION_EVENT) {
        struct sim_params old = ss->s.p;
        ss->s.p.shape = shape;
        ss->s.p.walls = walls;
        ss->s.p.open = open;
        const char *why = shape == SIM_OPEN ? "open space" : event_unsupported(&ss->s.p);
        if (why) {
            ss->s.p = old;
            say(ss, SESSION_NOTE_NEEDS_SPRINGS);
            ss->note_what = why;
            return -1;
        }
        if (event_rebuilt(ss)) {
            ss->s.p = old;
            ev_build(ss);
            return -1;
        }
        return 0;
    }
    struct session_action a = {0};
    a.kind = SESSION_BORDER;
    a.a = shape;
    a.b = walls;
    a.ball = open;
    return spring_action(ss, a);
}
