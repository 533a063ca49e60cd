/*
 * session_timeline.c - undo and redo: the spring engine's actions replayed
 * over its checkpoints (history.h), the event engine's ring of states, and
 * applying an action so that what is observed of the balls it does not set
 * stays. See session_impl.h.
 */
#include "session_impl.h"

#include <stdlib.h>
#include <string.h>

/* === Spring timeline === */

/* Starts a new spring timeline at the current state, position 0. */
int ss_spring_timeline(struct session *ss)
{
    if (ss->have_history)
        history_free(&ss->h);
    int cap;
    long long every;
    history_size(ss->s.n, ss->budget, SESSION_DEPTH, &cap, &every);
    ss->have_history = history_init(&ss->h, &ss->s, cap, every) == 0;
    ss->sized_n = ss->s.n;
    ss->pos = 0;
    ss->nact = 0;
    ss_touch(ss);
    ss->e0 = ss_energy(ss);
    if (ss_tags_mark(ss))
        return -1;
    return ss->have_history ? 0 : -1;
}

/* Forgets the recorded future: actions after the current position. */
void ss_cut_future(struct session *ss)
{
    while (ss->nact > 0 && ss->act[ss->nact - 1].pos > ss->pos)
        ss->nact--;
}

/* The reference energy: right after the last action at or before now. */
double ss_spring_eref(const struct session *ss)
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
    if (!(ss_engine(ss)->caps & SESSION_CAP_OBSERVES) || ss->nonfinite)
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
int ss_apply(struct session *ss, const struct session_action *a)
{
    size_t n0 = ss->s.n;
    /* reverse sets the stored velocities itself: the observed ones negated */
    int kept = a->kind != SESSION_REVERSE && keep_observed(ss, 1) == 0;
    int rc = apply_raw(ss, a);
    if (kept && rc == 0 && ss->s.n == n0 + (a->kind == SESSION_ADD) - (a->kind == SESSION_REMOVE))
        restore_observed(ss, a, n0);
    ss_touch(ss);
    return rc;
}

/* Applies the @p n SESSION_ADD actions @p a at once: one copy of the
 * state and one pass over the observed velocities for all of them (one
 * apply each made adding N balls O(N^2)). @return 0, or -1 (memory). */
int ss_apply_adds(struct session *ss, const struct session_action *a, size_t n)
{
    if (n == 1)
        return ss_apply(ss, a);
    struct sim *s = &ss->s;
    size_t n0 = s->n;
    int kept = keep_observed(ss, n) == 0;
    if (ss_tag_room(&ss->tag, &ss->captag, n0 + n) || sim_add_balls(s, n)) {
        ss_touch(ss);
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
    ss_touch(ss);
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
        rc = ss_apply_edit(ss, a);
        break;
    }
    return rc;
}

/* Records and applies a new action at the current position (the future is
 * cut). */
int ss_spring_action(struct session *ss, struct session_action a)
{
    ss_cut_future(ss);
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
    ss_apply(ss, &a);
    a.e_ref = ss_energy(ss);
    ss->act[ss->nact++] = a;
    ss_sample_now(ss);
    if (ss->have_history && history_changed(&ss->h, &ss->s))
        ss->msg = "out of memory: history cut short";
    return 0;
}

/* The first action made at position @p pos or later. The actions are in
 * the order of their positions (ss_cut_future), and a live run steps at the
 * end of them: a step looks at the actions of its own move, not at all the
 * session's edits (a ball held during a run adds one a frame). */
size_t ss_first_act(const struct session *ss, long long pos)
{
    size_t i = ss->nact;
    while (i > 0 && ss->act[i - 1].pos >= pos)
        i--;
    return i;
}

/* One spring step, then the recorded actions of the new position. */
int ss_spring_forward(struct session *ss)
{
    if (ss->nonfinite) {
        ss_say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    /* An edit makes a move of its own: replayed instead of a step. */
    size_t i = ss_first_act(ss, ss->pos + 1);
    int edit_next = i < ss->nact && ss->act[i].pos == ss->pos + 1 &&
                    (ss->act[i].kind >= SESSION_ADD || ss->act[i].kind == SESSION_KICK);
    if (!edit_next && sim_step(&ss->s)) { /* no grid: never a silent all-pairs crawl */
        ss->msg = "out of memory: the contact grid (paused)";
        return -1;
    }
    ss->pos++;
    ss_touch(ss);
    if (ss->have_history)
        history_stepped(&ss->h, &ss->s);
    int replayed = 0;
    for (i = ss_first_act(ss, ss->pos); i < ss->nact && ss->act[i].pos == ss->pos; i++) {
        /* a run of adds (a :random line) at once */
        size_t j = i + 1;
        while (ss->act[i].kind == SESSION_ADD && j < ss->nact &&
               ss->act[j].pos == ss->pos && ss->act[j].kind == SESSION_ADD)
            j++;
        ss_apply_adds(ss, &ss->act[i], j - i);
        i = j - 1;
        replayed = 1;
    }
    if (replayed && ss->have_history)
        history_changed(&ss->h, &ss->s);
    /* After a step alone, its own test (sim.h) says finite at no cost. */
    if ((edit_next || replayed || !ss->s.finite) && !sim_finite(&ss->s)) {
        ss->nonfinite = 1;
        ss_say(ss, SESSION_NOTE_NOT_FINITE_PAUSED);
        return -1;
    }
    ss_sample_now(ss);
    return 1;
}

/* === Event timeline: a ring of whole states, one a move === */

struct session_snap *ss_snap_at(struct session *ss, size_t i)
{
    return &ss->snap[(ss->snap0 + i) % ss->capsnap];
}

/* (Re)builds the engine from ss->s. */
int ss_ev_build(struct session *ss)
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
    /* a code with the balls' numbers: the front end words it as -H does */
    ss_say(ss, SESSION_NOTE_EVENT_FAULT);
    ss->note_code = rc;
    ss->note_ball[0] = rc == EVENT_EOVERLAP || rc == EVENT_EWALL ? sim_ball(&ss->s, f.i) + 1 : 0;
    ss->note_ball[1] = rc == EVENT_EOVERLAP ? sim_ball(&ss->s, f.j) + 1 : 0;
    return -1;
}

/* After the engine moved: when it stopped at a result not finite (its
 * struct event_stop), the state written back is not finite: the session
 * pauses there and says which event, balls and time. @return -1 stopped,
 * 0 running. */
int ss_ev_stopped(struct session *ss)
{
    const struct event_stop *st = &ss->ev.stop;
    if (!st->cause)
        return 0;
    size_t i = sim_ball(&ss->s, st->i) + 1, j = sim_ball(&ss->s, st->j) + 1;
    ss->nonfinite = 1;
    ss_say(ss, SESSION_NOTE_EVENT_STOP);
    ss->note_code = st->cause;
    ss->note_ball[0] = i < j ? i : j;
    ss->note_ball[1] = i < j ? j : i;
    ss->note_t = st->t;
    return -1;
}

/* Keeps the current state as the move at ss->pos: replaces the state kept
 * at now and forgets any after it. */
int ss_snap_keep(struct session *ss)
{
    if (!ss->snap) {
        size_t per = sizeof(struct session_snap) + 8 * sizeof(double) * (ss->s.n ? ss->s.n : 1);
        size_t cap = ss->budget / per;
        if (cap > HISTORY_CAP_MAX)
            cap = HISTORY_CAP_MAX;
        if (cap < 2)
            cap = 2;
        ss->snap = calloc(cap, sizeof *ss->snap);
        if (!ss->snap)
            return -1;
        ss->sized_n = ss->s.n;
        ss->capsnap = cap;
        ss->nsnap = 0;
        ss->snap_dropped = 0;
    }
    size_t idx;
    if (ss->nsnap > 0 && ss_snap_at(ss, ss->snapnow)->pos == ss->pos) {
        idx = ss->snapnow;
    } else {
        idx = ss->nsnap > 0 ? ss->snapnow + 1 : 0;
        if (idx == ss->capsnap) { /* full: drop the oldest */
            ss->snap0 = (ss->snap0 + 1) % ss->capsnap;
            ss->snap_dropped = 1;
            idx--;
        }
    }
    ss->nsnap = idx + 1; /* the future after it is gone */
    ss->snapnow = idx;
    struct session_snap *p = ss_snap_at(ss, idx);
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
int ss_snap_restore(struct session *ss, size_t i)
{
    struct session_snap *p = ss_snap_at(ss, i);
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
    ss->nonfinite = !sim_finite(&ss->s);
    ss->pos = p->pos;
    ss->e0 = p->e_ref;
    ss_touch(ss);
    ss_tags_sync(ss);
    if (ss_ev_build(ss))
        return -1;
    ss->ev_events0 = p->events;
    ss->ev_coll0 = p->collisions;
    return 0;
}

/* After the engine moved: the state written back and kept. */
void ss_ev_moved(struct session *ss)
{
    event_to_sim(&ss->ev, &ss->s);
    ss_cut_future(ss); /* edits recorded after now are gone with the states */
    ss->pos++;
    ss_touch(ss);
    if (ss_snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
}

/* Starts a new event timeline at the current state. */
int ss_event_timeline(struct session *ss)
{
    ss->ev_events0 = ss->ev_coll0 = 0;
    ss->ev_t0 = ss->s.t;
    ss->pos = 0;
    ss->nact = 0;
    ss->nsnap = ss->snap0 = ss->snapnow = 0;
    ss->snap_dropped = 0;
    ss_touch(ss);
    ss->e0 = ss_energy(ss);
    if (ss_tags_mark(ss))
        ss->msg = "out of memory";
    if (ss_snap_keep(ss))
        ss->msg = "out of memory: cannot step back here";
    return 0;
}

int ss_event_forward(struct session *ss)
{
    if (ss->nonfinite) {
        ss_say(ss, SESSION_NOTE_NOT_FINITE);
        return -1;
    }
    if (ss->nsnap > 0 && ss->snapnow + 1 < ss->nsnap) { /* the kept future */
        if (ss_snap_restore(ss, ss->snapnow + 1))
            return -1;
        ss_sample_now(ss);
        return 1;
    }
    if (event_step(&ss->ev, 1) == 0 && !ss->ev.stop.cause) {
        ss->msg = "no more events";
        return 0;
    }
    ss_ev_moved(ss);
    if (ss_ev_stopped(ss))
        return -1;
    ss_sample_now(ss);
    return 1;
}
