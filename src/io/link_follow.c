/*
 * link_follow.c - a link (link.h) to a recording still being written
 * (traj.h): the file looked at when polled, indexed again only when it
 * has grown, its newest whole frame handed over with its own velocities,
 * step and time. A file cannot be paused or pushed: those operations are
 * NULL.
 */
#define _POSIX_C_SOURCE 200809L

#include "link.h"

#include "sim.h"
#include "traj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct link_follow {
    struct link l;
    char *path;
    int format;
    long long seen;   /* the size last indexed */
    size_t next;      /* the frames handed over so far */
    size_t n;
    struct sim s;     /* the frame read */
    double *xyz, *v;
    double *zz;       /* the frame's z and vz (2 n) */
};

static int follow_poll(struct link *l, struct link_frame *fr)
{
    struct link_follow *f = (struct link_follow *)l;
    struct stat st;
    if (stat(f->path, &st)) {
        snprintf(l->msg, sizeof l->msg, "%s: gone", f->path);
        return LINK_ERROR;
    }
    if ((long long)st.st_size == f->seen)
        return LINK_NONE;
    struct traj tr;
    struct traj_error err;
    if (traj_open(&tr, f->path, f->format, NULL, NULL, &err))
        return LINK_NONE; /* no whole frame yet, or one being written */
    f->seen = (long long)st.st_size;
    if (tr.nframes <= f->next) {
        traj_close(&tr);
        return LINK_NONE;
    }
    size_t k = tr.nframes - 1;
    if (tr.n != f->n || traj_sim(&tr, k, &f->s, &err) ||
        traj_depth(&tr, k, f->zz, f->zz + f->n, &err)) {
        snprintf(l->msg, sizeof l->msg, "%s: frame %zu: %s", f->path, k,
                 tr.n != f->n ? "another number of balls than the first" : err.msg);
        traj_close(&tr);
        return LINK_ERROR;
    }
    for (size_t b = 0; b < f->n; b++) {
        size_t i = sim_slot(&f->s, b);
        f->xyz[3 * b] = f->s.x[i];
        f->xyz[3 * b + 1] = f->s.y[i];
        f->xyz[3 * b + 2] = f->zz[b];
        f->v[3 * b] = f->s.vx[i];
        f->v[3 * b + 1] = f->s.vy[i];
        f->v[3 * b + 2] = f->zz[f->n + b];
    }
    fr->n = f->n;
    fr->xyz = f->xyz;
    fr->v = f->v;
    fr->step = tr.fr[k].step;
    fr->t = tr.fr[k].t;
    fr->k = k; /* from 0, as a replay counts */
    f->next = tr.nframes;
    traj_close(&tr);
    return LINK_FRAME;
}

static void follow_close(struct link *l, int bye)
{
    (void)bye;
    struct link_follow *f = (struct link_follow *)l;
    sim_free(&f->s);
    free(f->xyz);
    free(f->v);
    free(f->zz);
    free(f->path);
    free(f);
}

static const struct link_ops follow_ops = {
    .name = "follow",
    .poll = follow_poll,
    .close = follow_close,
};

struct link *link_follow_open(const char *path, int format, const struct traj *tr,
                              size_t taken, char *msg, size_t msize)
{
    struct link_follow *f = calloc(1, sizeof *f);
    if (f) {
        f->path = strdup(path);
        f->xyz = malloc((tr->n ? tr->n : 1) * 3 * sizeof *f->xyz);
        f->v = malloc((tr->n ? tr->n : 1) * 3 * sizeof *f->v);
        f->zz = malloc((tr->n ? tr->n : 1) * 2 * sizeof *f->zz);
    }
    if (!f || !f->path || !f->xyz || !f->v || !f->zz || sim_init(&f->s, tr->n, &tr->p)) {
        if (f) {
            free(f->path);
            free(f->xyz);
            free(f->v);
            free(f->zz);
            free(f);
        }
        snprintf(msg, msize, "out of memory");
        return NULL;
    }
    f->l.ops = &follow_ops;
    snprintf(f->l.where, sizeof f->l.where, "%s", path);
    f->format = format;
    f->seen = taken < tr->nframes ? -1 : tr->size; /* frames to hand over: look again */
    f->next = taken;
    f->n = tr->n;
    return &f->l;
}
