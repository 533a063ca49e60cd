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

/* ===== The momentum diagram's memory ===== */

void ss_pm_forget(struct session *ss)
{
    ss->pm.have_last = ss->pm.have_before = 0;
    ss->pm.n = 0;
}

/* The momenta (px, py) of the move at time @p t (ss->pm.lx and ly are the
 * last move's): a move whose momenta differ from the last one's, when those
 * had not changed, makes the last move "before the last contact". The
 * event engine's contacts are instants, each event one: every change is
 * a contact's, "before" is the momenta just before it, at its time. */
static void pm_add(struct session *ss, double t, const double *px, const double *py, size_t n)
{
    struct session_pmem *pm = &ss->pm;
    int instant = (ss_engine(ss)->caps & SESSION_CAP_EXACT) != 0;
    if (!pm->have_last || n != pm->n) { /* a first move: nothing seen to change yet */
        pm->have_before = 0;
        pm->quiet = 1;
    } else if (t < pm->t_last) {
        /* back in time: "before" holds while it is not later than now; in
         * or after that contact, a change next is not a new one's start */
        if (pm->have_before && pm->t_before > t)
            pm->have_before = 0;
        pm->quiet = instant || !pm->have_before;
    } else {
        int changed = 0;
        for (size_t i = 0; i < n && !changed; i++)
            changed = px[i] != pm->lx[i] || py[i] != pm->ly[i];
        if (!changed && t == pm->t_last)
            return; /* the same again (k or dt changed while paused) */
        if (changed && pm->quiet) {
            memcpy(pm->bx, pm->lx, n * sizeof *pm->bx);
            memcpy(pm->by, pm->ly, n * sizeof *pm->by);
            pm->t_before = instant ? t : pm->t_last;
            pm->have_before = 1;
        }
        pm->quiet = instant || !changed;
    }
    memcpy(pm->lx, px, n * sizeof *px);
    memcpy(pm->ly, py, n * sizeof *py);
    pm->n = n;
    pm->t_last = t;
    pm->have_last = 1;
}

/* The observed state's momenta now (of scene ball i at i). */
static void pm_sample(struct session *ss)
{
    const struct sim *o = session_observed(ss);
    double px[SESSION_PMEM_MAX], py[SESSION_PMEM_MAX];
    for (size_t i = 0; i < o->n; i++) {
        size_t k = sim_slot(o, i);
        px[i] = o->m[k] * o->vx[k];
        py[i] = o->m[k] * o->vy[k];
    }
    pm_add(ss, o->t, px, py, o->n);
}

void ss_pm_sample(struct session *ss)
{
    if (ss->s.n <= SESSION_PMEM_MAX)
        pm_sample(ss);
    else
        ss_pm_forget(ss);
}

void session_momenta(struct session *ss, int on)
{
    ss->momenta = on != 0;
    ss_pm_forget(ss);
    if (ss->momenta && !ss->nonfinite && ss->s.n <= SESSION_PMEM_MAX)
        pm_sample(ss);
}

/* Whether a move is sampled: for the envelope, or for the memory. */
int ss_sampled(const struct session *ss)
{
    return ss->sampling || (ss->momenta && ss->s.n <= SESSION_PMEM_MAX);
}

/* The observed state now into the envelope, when sampling, and into the
 * momentum diagram's memory, when kept. */
void ss_sample_now(struct session *ss)
{
    if (ss->nonfinite)
        return;
    if (ss->momenta) {
        if (ss->s.n <= SESSION_PMEM_MAX)
            pm_sample(ss);
        else
            ss_pm_forget(ss);
    }
    if (!ss->sampling)
        return;
    const struct session_diag *d = session_diag(ss);
    double v[SESSION_NCH] = {d->ke, d->pe, d->e, d->px, d->py};
    col_add(ss, d->t, v);
}

/* The event engine's state in the middle of an advance (ss->s is written
 * back only at its end: its slots are the engine's ball numbers). */
void ss_sample_event(struct session *ss)
{
    if (ss->momenta && ss->s.n <= SESSION_PMEM_MAX) {
        double px[SESSION_PMEM_MAX], py[SESSION_PMEM_MAX];
        for (size_t i = 0; i < ss->s.n; i++) {
            size_t k = sim_slot(&ss->s, i);
            px[i] = ss->s.m[k] * ss->ev.vx[k];
            py[i] = ss->s.m[k] * ss->ev.vy[k];
        }
        pm_add(ss, ss->ev.t, px, py, ss->s.n);
    }
    if (!ss->sampling)
        return;
    struct event_diag ed;
    event_diag(&ss->ev, &ed);
    double v[SESSION_NCH] = {ed.ke, ed.pf, ed.e, ed.px, ed.py};
    col_add(ss, ss->ev.t, v);
}
const struct sim *session_observed(struct session *ss)
{
    return ss_engine(ss)->observed(ss);
}

double session_eref(const struct session *ss)
{
    return ss_engine(ss)->eref(ss);
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
    ss_engine(ss)->diag(ss, d);
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
