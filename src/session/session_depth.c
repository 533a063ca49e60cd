/*
 * session_depth.c - a 3-D run seen from above (a replay or a live run):
 * the depth (z, vz) of each ball of the state, and the slice that keeps
 * only a layer. A frame comes with every ball; with a slice the state
 * holds only those inside it, so that the table, the panels, the plots and
 * the status line count them alone. See session.h (struct session_depth).
 */
#include "session_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ss_depth_free(struct session *ss)
{
    free(ss->dp.z);
    free(ss->dp.vz);
    free(ss->dp.atom);
    memset(&ss->dp, 0, sizeof ss->dp);
}

/* Room for @p n balls' depth. */
static int room(struct session_depth *dp, size_t n)
{
    if (n <= dp->cap && dp->z)
        return 0;
    size_t c = n ? n : 1;
    double *z = realloc(dp->z, c * sizeof *z);
    if (z)
        dp->z = z;
    double *vz = realloc(dp->vz, c * sizeof *vz);
    if (vz)
        dp->vz = vz;
    uint32_t *a = realloc(dp->atom, c * sizeof *a);
    if (a)
        dp->atom = a;
    if (!z || !vz || !a)
        return -1;
    dp->cap = c;
    return 0;
}

int session_set_slice(struct session *ss, double z0, double z1)
{
    ss_hush(ss);
    if (!isfinite(z0) || !isfinite(z1) || !(z0 < z1)) {
        ss->msg = "a slice is Z0 < Z1, both finite";
        return -1;
    }
    if (ss->s.n > UINT32_MAX) {
        ss->msg = "too many balls for a slice";
        return -1;
    }
    ss->dp.slice = 1;
    ss->dp.z0 = z0;
    ss->dp.z1 = z1;
    ss->dp.nall = ss->s.n;
    return 0;
}

const struct session_depth *session_3d(const struct session *ss)
{
    return &ss->dp;
}

/* The slice's balls of @p frame into ss->s, in their order, each tagged
 * with its index in the frame; the state's size follows their count. */
static int slice_take(struct session *ss, const struct sim *frame, const double *z,
                      const double *vz)
{
    struct session_depth *dp = &ss->dp;
    size_t n = 0;
    for (size_t b = 0; b < frame->n; b++) {
        double zb = z ? z[b] : 0;
        n += zb >= dp->z0 && zb <= dp->z1;
    }
    if (room(dp, n) || ss_tag_room(&ss->tag, &ss->captag, n)) {
        ss->msg = "out of memory";
        return -1;
    }
    if (n != ss->s.n) {
        struct sim t;
        if (sim_init(&t, n, &frame->p)) {
            ss->msg = "out of memory";
            return -1;
        }
        t.threads = ss->s.threads;
        sim_free(&ss->s);
        ss->s = t;
    }
    size_t k = 0;
    for (size_t b = 0; b < frame->n; b++) {
        double zb = z ? z[b] : 0;
        if (!(zb >= dp->z0 && zb <= dp->z1))
            continue;
        size_t i = sim_slot(&ss->s, k), j = sim_slot(frame, b);
        ss->s.x[i] = frame->x[j];
        ss->s.y[i] = frame->y[j];
        ss->s.vx[i] = frame->vx[j];
        ss->s.vy[i] = frame->vy[j];
        ss->s.m[i] = frame->m[j];
        ss->s.r[i] = frame->r[j];
        ss->s.fx[i] = ss->s.fy[i] = 0;
        dp->z[k] = zb;
        dp->vz[k] = vz ? vz[b] : 0;
        dp->atom[k] = (uint32_t)b;
        ss->tag[k] = (uint32_t)b;
        k++;
    }
    struct sim *s = &ss->s; /* the frame's clock and parameters */
    s->p = frame->p;
    s->t = frame->t;
    s->steps = frame->steps;
    s->t_base = frame->t_base;
    s->dt_base = frame->dt_base;
    s->t_last = frame->t_last;
    s->steps_base = frame->steps_base;
    s->steps_last = frame->steps_last;
    s->dissipated = frame->dissipated;
    s->clamps = frame->clamps;
    s->finite = frame->finite;
    return 0;
}

int ss_depth_take(struct session *ss, const struct sim *frame, const double *z,
                  const double *vz)
{
    struct session_depth *dp = &ss->dp;
    if (dp->slice) {
        if (frame->n != dp->nall) {
            ss->msg = "the frame has another ball count";
            return -1;
        }
        if (slice_take(ss, frame, z, vz))
            return -1;
    } else {
        if (frame->n != ss->s.n) {
            ss->msg = "replay: the frame has another ball count";
            return -1;
        }
        if (frame != &ss->s)
            sim_copy(&ss->s, frame);
        if (z) {
            if (room(dp, frame->n)) {
                ss->msg = "out of memory";
                return -1;
            }
            memcpy(dp->z, z, frame->n * sizeof *z);
            if (vz)
                memcpy(dp->vz, vz, frame->n * sizeof *vz);
            else
                memset(dp->vz, 0, frame->n * sizeof *dp->vz);
        }
    }
    dp->on = z != NULL;
    sim_touch(&ss->s);
    return 0;
}
