/*
 * connect.c - -H --connect=HOST:PORT: frames of a running simulation over
 * IMD, printed as a scene and recorded (see connect.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "connect.h"

#include "cli.h"
#include "imd.h"
#include "record.h"
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Three frames: the one before, the one being made a scene, the next. */
struct frames {
    float *f[3];            /* 3 n floats each */
    unsigned long long k[3]; /* their numbers from 1; 0: none */
    size_t n;
};

/* Radius when nothing gives one: half the smallest distance between
 * neighbours (sorted by x, the sweep stops once x alone is farther). */
static int cmp_x(const void *a, const void *b)
{
    const float *p = a, *q = b;
    return (p[0] > q[0]) - (p[0] < q[0]);
}

double connect_radius(const float *xyz, size_t n)
{
    if (n < 2)
        return 1;
    float *s = malloc(n * 2 * sizeof *s);
    if (!s)
        return 1;
    for (size_t i = 0; i < n; i++)
        s[2 * i] = xyz[3 * i], s[2 * i + 1] = xyz[3 * i + 1];
    qsort(s, n, 2 * sizeof *s, cmp_x);
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && s[2 * j] - s[2 * i] < best; j++) {
            double dx = s[2 * j] - s[2 * i], dy = s[2 * j + 1] - s[2 * i + 1];
            double d = sqrt(dx * dx + dy * dy);
            if (d > 0 && d < best)
                best = d;
        }
    free(s);
    return isfinite(best) ? best / 2 : 1;
}

/* The frame in slot 1 as a scene: @p base's balls and parameters, or
 * made up. Velocities are differences over the frames' time, @p trate
 * steps of dt each. */
static int frame_scene(const struct frames *fr, const struct scene *base,
                       unsigned long long trate, struct scene *out)
{
    size_t n = fr->n;
    struct scene_error err;
    if (scene_parse(out, "table 1 1\n", 10, &err))
        return -1;
    if (base) {
        out->p = base->p;
        out->view = base->view;
    }
    out->balls = malloc(n * sizeof *out->balls);
    if (!out->balls)
        return -1;
    out->cap = out->n = n;
    const float *a = fr->k[0] ? fr->f[0] : fr->f[1], *b = fr->k[2] ? fr->f[2] : fr->f[1];
    double tf = (double)trate * out->p.dt;
    double span = tf * (double)((fr->k[2] ? fr->k[2] : fr->k[1]) - (fr->k[0] ? fr->k[0] : fr->k[1]));
    double r = base ? 0 : connect_radius(fr->f[1], n);
    double x1 = 0, y1 = 0;
    for (size_t i = 0; i < n; i++) {
        struct scene_ball *sb = &out->balls[i];
        memset(sb, 0, sizeof *sb);
        sb->x = fr->f[1][3 * i];
        sb->y = fr->f[1][3 * i + 1];
        sb->vx = span > 0 ? ((double)b[3 * i] - a[3 * i]) / span : 0;
        sb->vy = span > 0 ? ((double)b[3 * i + 1] - a[3 * i + 1]) / span : 0;
        if (base) {
            sb->m = base->balls[i].m;
            sb->r = base->balls[i].r;
            sb->color = base->balls[i].color;
        } else {
            sb->m = 1;
            sb->r = r;
        }
        if (sb->x + sb->r > x1)
            x1 = sb->x + sb->r;
        if (sb->y + sb->r > y1)
            y1 = sb->y + sb->r;
    }
    if (base) {
        if (base->title)
            out->title = strdup(base->title);
    } else {
        out->p.w = x1 > 0 ? x1 : 1;
        out->p.h = y1 > 0 ? y1 : 1;
        out->view = (struct scene_view){0, 0, out->p.w, out->p.h};
    }
    return 0;
}

/* Records and prints: the state of the frame in slot 1. */
struct out {
    struct record traj, series;
    int have_traj, have_series, series_head;
    unsigned long long trate;
    const struct scene *base;
};

static int emit(struct out *o, const struct frames *fr, FILE *print, int stats)
{
    struct scene sc;
    memset(&sc, 0, sizeof sc);
    struct sim s;
    if (frame_scene(fr, o->base, o->trate, &sc) || scene_to_sim(&sc, &s)) {
        scene_free(&sc);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    long long step = (long long)(fr->k[1] * o->trate);
    s.steps = step;
    s.t = (double)step * sc.p.dt;
    if (o->have_traj)
        record_xyz(&o->traj, &s, step);
    if (o->have_series) {
        if (!o->series_head)
            record_series_header(&o->series, &s.p, 0), o->series_head = 1;
        record_series_row(&o->series, &s, step);
    }
    if (print) {
        scene_write(print, &sc, &s);
        if (stats) {
            struct sim_diag d;
            if (sim_diag(&s, &d) == 0)
                fprintf(stderr, "t=%.17g steps=%lld ke=%.17g pe=%.17g e=%.17g px=%.17g "
                                "py=%.17g contacts=%ld frame=%llu v=differences\n",
                        s.t, s.steps, d.ke, d.pe, d.e, d.px, d.py, d.contacts, fr->k[1]);
        }
    }
    sim_free(&s);
    scene_free(&sc);
    return 0;
}

int connect_headless(const struct options *o, const struct scene *base)
{
    struct imd_conn *c = malloc(sizeof *c);
    struct frames fr = {{NULL, NULL, NULL}, {0, 0, 0}, 0};
    struct out out;
    memset(&out, 0, sizeof out);
    out.base = base;
    out.trate = o->have_trate ? o->trate : 1;
    if (!c) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    if (imd_open(c, o->connect, CONNECT_TIMEOUT, base ? base->n : 0)) {
        fprintf(stderr, "springball: --connect=%s\n", c->msg);
        free(c);
        return 1;
    }
    int rc = 0;
    if (o->have_trate && imd_send(c, IMD_TRATE, (int32_t)o->trate)) {
        fprintf(stderr, "springball: --connect=%s\n", c->msg);
        imd_close(c, 0);
        free(c);
        return 1;
    }
    if (o->rec.traj) {
        if (record_open(&out.traj, o->rec.traj)) {
            fprintf(stderr, "springball: --traj: %s: %s\n", o->rec.traj, strerror(errno));
            imd_close(c, 1);
            free(c);
            return 1;
        }
        out.have_traj = 1;
    }
    if (o->rec.series) {
        if (record_open(&out.series, o->rec.series)) {
            fprintf(stderr, "springball: --series: %s: %s\n", o->rec.series, strerror(errno));
            if (out.have_traj)
                record_close(&out.traj);
            imd_close(c, 1);
            free(c);
            return 1;
        }
        out.have_series = 1;
    }
    cli_catch_stops();
    unsigned long long want = o->have_steps ? o->steps : 0; /* 0: to the end */
    int ended = 0, done = 0, zdrop = 0;
    while (!done && !cli_stop) {
        int r = imd_next(c, 1000);
        if (r == IMD_NEXT_WAIT)
            continue;
        if (r == IMD_NEXT_ERR) {
            fprintf(stderr, "springball: --connect=%s\n", c->msg);
            rc = 1;
            break;
        }
        if (r == IMD_NEXT_END) {
            ended = 1;
            break;
        }
        size_t n = c->r.natoms;
        if (!fr.n) {
            fr.n = n;
            for (int i = 0; i < 3; i++)
                if (!(fr.f[i] = malloc(n * 12))) {
                    fputs("springball: out of memory\n", stderr);
                    rc = 1;
                    goto out;
                }
        }
        for (size_t i = 0; i < n && !zdrop; i++)
            if (c->r.xyz[3 * i + 2] != 0)
                zdrop = 1;
        /* shift: the next becomes the current */
        float *t = fr.f[0];
        fr.f[0] = fr.f[1], fr.k[0] = fr.k[1];
        fr.f[1] = fr.f[2], fr.k[1] = fr.k[2];
        fr.f[2] = t;
        memcpy(fr.f[2], c->r.xyz, n * 12);
        fr.k[2] = c->r.frames;
        if (fr.k[1] && emit(&out, &fr, want && fr.k[1] == want ? stdout : NULL, o->stats)) {
            rc = 1;
            break;
        }
        if (want && fr.k[1] == want)
            done = 1;
    }
    if (!rc && !done && fr.k[2] && (ended || cli_stop || !want)) {
        /* the last frame, one-sided */
        float *t = fr.f[0];
        fr.f[0] = fr.f[1], fr.k[0] = fr.k[1];
        fr.f[1] = fr.f[2], fr.k[1] = fr.k[2];
        fr.f[2] = t, fr.k[2] = 0;
        if (!want || fr.k[1] == want) {
            rc = emit(&out, &fr, stdout, o->stats);
            done = 1;
        }
    }
    if (!rc && want && !done) {
        if (cli_stop)
            fprintf(stderr, "springball: --connect=%s: stopped by a signal after frame %llu\n",
                    o->connect, c->r.frames);
        else
            fprintf(stderr, "springball: --connect=%s: the run ended after %llu frames, "
                            "before frame %llu\n", o->connect, c->r.frames, want);
        rc = cli_stop ? 1 : 2;
    } else if (!rc && !fr.k[1] && !fr.k[2]) {
        fprintf(stderr, "springball: --connect=%s: no frame came\n", o->connect);
        rc = 1;
    }
    if (!rc) {
        fprintf(stderr, "springball: --connect=%s: velocities are differences of frames "
                        "(IMD sends none)\n", o->connect);
        if (!o->have_trate)
            fprintf(stderr, "springball: --connect=%s: the run's trate is not in the "
                            "protocol: one step a frame (--trate=N sets and counts it)\n",
                    o->connect);
        if (zdrop)
            fprintf(stderr, "springball: --connect=%s: a 3-D run: z was dropped (seen from "
                            "above)\n", o->connect);
    }
out:
    imd_close(c, !ended);
    free(c);
    for (int i = 0; i < 3; i++)
        free(fr.f[i]);
    if (out.have_traj && record_close(&out.traj)) {
        fprintf(stderr, "springball: --traj: write error\n");
        rc = 1;
    }
    if (out.have_series && record_close(&out.series)) {
        fprintf(stderr, "springball: --series: write error\n");
        rc = 1;
    }
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}
