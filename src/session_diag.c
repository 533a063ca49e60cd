/*
 * session_diag.c - what observers read: the observed state, the
 * diagnostics, and the envelope of samples the plots draw. See session.h.
 */
#include "session_impl.h"

#include <math.h>
#include <string.h>

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

void ss_col_clear(struct session *ss)
{
    ss->ncol = 0;
    ss->per = 1;
}

/* Drops the columns after the current time (a step back rewinds them). */
void ss_rewind_samples(struct session *ss)
{
    while (ss->ncol > 0 && ss->col[ss->ncol - 1].t1 > ss->s.t)
        ss->ncol--;
}

/* The observed state now into the envelope, when sampling. */
void ss_sample_now(struct session *ss)
{
    if (!ss->sampling || ss->nonfinite)
        return;
    const struct session_diag *d = session_diag(ss);
    double v[SESSION_NCH] = {d->ke, d->pe, d->e, d->px, d->py};
    col_add(ss, d->t, v);
}

/* The event engine's state in the middle of an advance (ss->s is written
 * back only at its end). */
void ss_sample_event(struct session *ss)
{
    struct event_diag ed;
    event_diag(&ss->ev, &ed);
    double v[SESSION_NCH] = {ed.ke, ed.pf, ed.e, ed.px, ed.py};
    col_add(ss, ss->ev.t, v);
}
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

double session_eref(const struct session *ss)
{
    return ss->engine == SESSION_EVENT ? ss->e0 : ss_spring_eref(ss);
}

void session_diag_of(const struct sim *obs, struct session_diag *d)
{
    memset(d, 0, sizeof *d);
    d->t = obs->t;
    d->steps = obs->steps;
    d->mft = -1;
    struct sim_diag sd;
    sim_diag(obs, &sd);
    d->ke = sd.ke;
    d->pe = sd.e - sd.ke;
    d->e = sd.e;
    d->px = sd.px;
    d->py = sd.py;
    d->contacts = sd.contacts;
    d->dissipated = sd.dissipated;
    d->out = sd.out;
}

const struct session_diag *session_diag(struct session *ss)
{
    struct session_diag *d = &ss->d;
    if (ss->diag_version == ss->version && ss->version != 0) {
        d->e_ref = session_eref(ss);
        return d;
    }
    if (ss->engine == SESSION_EVENT) {
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
    } else {
        const struct sim *o = session_observed(ss);
        session_diag_of(o, d);
        d->t = ss->s.t; /* the state's (the observation's are the same) */
        d->steps = ss->s.steps;
    }
    ss->diag_version = ss->version;
    d->e_ref = session_eref(ss);
    return d;
}

void session_sampling(struct session *ss, int on)
{
    ss->sampling = on != 0;
    ss_sample_now(ss);
}

size_t session_columns(const struct session *ss)
{
    return ss->ncol;
}

const struct session_col *session_column(const struct session *ss, size_t i)
{
    return &ss->col[i];
}
