/*
 * shown.c - what the drawing reads of the session: a copy taken between
 * advances, observed on its own. See shown.h.
 */
#include "shown.h"

#include <stdlib.h>
#include <string.h>

/* The depth of the state taken (n balls), into arrays of its own. */
static int take_depth(struct shown *sh, const struct session_depth *dp, size_t n)
{
    struct session_depth *d = &sh->dp;
    if ((dp->on || dp->slice) && (n > d->cap || !d->z)) {
        size_t c = n ? n : 1;
        double *z = realloc(d->z, c * sizeof *z);
        if (z)
            d->z = z;
        double *vz = realloc(d->vz, c * sizeof *vz);
        if (vz)
            d->vz = vz;
        uint32_t *a = realloc(d->atom, c * sizeof *a);
        if (a)
            d->atom = a;
        if (!z || !vz || !a)
            return -1;
        d->cap = c;
    }
    d->on = dp->on;
    d->slice = dp->slice;
    d->z0 = dp->z0;
    d->z1 = dp->z1;
    d->nall = dp->nall;
    if (dp->on && n) {
        memcpy(d->z, dp->z, n * sizeof *d->z);
        memcpy(d->vz, dp->vz, n * sizeof *d->vz);
    }
    if (dp->slice && dp->atom && n)
        memcpy(d->atom, dp->atom, n * sizeof *d->atom);
    else if (dp->slice) /* no frame sliced yet: every ball, in order */
        for (size_t b = 0; b < n; b++)
            d->atom[b] = (uint32_t)b;
    return 0;
}

int shown_take(struct shown *sh, struct session *ss)
{
    size_t n = ss->s.n;
    if (!sh->obs)
        sh->obs = &sh->s; /* nothing taken yet: an empty table */
    if (n > sh->captag || !sh->tag) {
        uint32_t *t = realloc(sh->tag, (n ? n : 1) * sizeof *t);
        if (!t)
            return -1;
        sh->tag = t;
        sh->captag = n ? n : 1;
    }
    int same = sh->have && sh->version == ss->version && ss->version != 0 &&
               sh->engine == ss->engine && sh->pos == ss->pos && sh->s.n == n &&
               sh->nonfinite == ss->nonfinite;
    if (!same) {
        if (sim_assign(&sh->s, &ss->s))
            return -1;
        sh->have = 1;
        sh->observed = 0;
        sh->diag_taken = 0;
        sh->version = ss->version;
        sh->engine = ss->engine;
        sh->caps = session_caps(ss);
        sh->engine_name = session_engine_name(ss);
        sh->pos = ss->pos;
        sh->nonfinite = ss->nonfinite;
        sh->contact_steps = session_contact_steps(ss);
        if (sh->caps & SESSION_CAP_EXACT) { /* the engine's own sums: now */
            sh->d = *session_diag(ss);
            sh->diag_taken = 1;
        }
        if (take_depth(sh, session_3d(ss), n))
            return -1;
    }
    /* what may change with the state kept: cheap */
    if (ss->tag && n)
        memcpy(sh->tag, ss->tag, n * sizeof *sh->tag);
    else
        for (size_t b = 0; b < n; b++)
            sh->tag[b] = UINT32_MAX;
    sh->depth = session_depth(ss);
    sh->e_ref = session_eref(ss);
    if (sh->observed)
        sh->d.e_ref = sh->e_ref;
    sh->pm = ss->pm;
    sh->ncol = session_columns(ss);
    if (sh->ncol > SESSION_COLS)
        sh->ncol = SESSION_COLS;
    if (sh->ncol)
        memcpy(sh->col, session_column(ss, 0), sh->ncol * sizeof *sh->col);
    return 0;
}

void shown_observe(struct shown *sh)
{
    if (!sh->have || sh->observed)
        return;
    sh->obs = &sh->s;
    if ((sh->caps & SESSION_CAP_OBSERVES) && !sh->nonfinite && sh->s.n > 0 &&
        sim_observe(&sh->s, &sh->o) != -1)
        sh->obs = &sh->o;
    if (!sh->diag_taken)
        session_diag_of(sh->obs, &sh->d);
    sh->d.e_ref = sh->e_ref;
    sh->observed = 1;
}

void shown_free(struct shown *sh)
{
    sim_free(&sh->s);
    sim_free(&sh->o);
    free(sh->tag);
    free(sh->dp.z);
    free(sh->dp.vz);
    free(sh->dp.atom);
    memset(sh, 0, sizeof *sh);
}

size_t shown_slot(const struct shown *sh, size_t ball)
{
    return ball < sh->s.n ? sim_slot(&sh->s, ball) : sh->s.n;
}

uint32_t shown_tag(const struct shown *sh, size_t ball)
{
    return ball < sh->s.n && sh->tag ? sh->tag[ball] : UINT32_MAX;
}
