/*
 * live.c - a run going on elsewhere in the terminal (see live.h): the
 * first frame waited for when no scene gives the balls, the scene made,
 * the front end started on the link.
 */
#define _POSIX_C_SOURCE 200809L

#include "live.h"

#include "cli.h"
#include "connect.h"
#include "headless.h"
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds between two looks at a link that has sent no first frame. */
#define FIRST_POLL 0.05

/* The scene of frame @p fr when none is given: the table the frames'
 * extent from 0, masses 1, radii half the nearest neighbours' distance,
 * at rest. @return 0, or -1 when memory is short. */
static int made_up(const struct link_frame *fr, struct scene *out)
{
    struct scene_error err;
    if (scene_parse(out, "table 1 1\n", 10, &err))
        return -1;
    size_t n = fr->n;
    float *f = malloc((n ? n : 1) * 3 * sizeof *f);
    out->balls = malloc((n ? n : 1) * sizeof *out->balls);
    if (!f || !out->balls) {
        free(f);
        return -1;
    }
    for (size_t i = 0; i < 3 * n; i++)
        f[i] = (float)fr->xyz[i];
    double r = connect_radius(f, n);
    free(f);
    out->cap = out->n = n;
    double x1 = 0, y1 = 0;
    for (size_t i = 0; i < n; i++) {
        struct scene_ball *b = &out->balls[i];
        memset(b, 0, sizeof *b);
        b->x = fr->xyz[3 * i];
        b->y = fr->xyz[3 * i + 1];
        b->m = 1;
        b->r = r;
        x1 = fmax(x1, b->x + r);
        y1 = fmax(y1, b->y + r);
    }
    out->p.w = x1 > 0 ? x1 : 1;
    out->p.h = y1 > 0 ? y1 : 1;
    out->view = (struct scene_view){0, 0, out->p.w, out->p.h};
    return 0;
}

/* The first frame, waited for (a signal stops the wait). @return 0, or
 * the exit status with the message printed. */
static int first_frame(struct link *l, struct link_frame *fr)
{
    cli_catch_stops();
    int said = 0;
    for (int waits = 0; !cli_stop; waits++) {
        int r = l->ops->poll(l, fr);
        if (r == LINK_FRAME)
            return 0;
        if (r != LINK_NONE) {
            fprintf(stderr, "springball: %s\n", l->msg);
            return 1;
        }
        if (!said && waits * FIRST_POLL >= 1) {
            fprintf(stderr, "springball: %s: waiting for the run's first frame "
                            "(Ctrl-C stops)\n", l->where);
            said = 1;
        }
        struct timespec ts = {0, (long)(FIRST_POLL * 1e9)};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "springball: %s: stopped by a signal before the first frame\n", l->where);
    return 1;
}

int live_main(struct link *link, const struct scene *base, long long trate, const char *name,
              const struct ui_options *ui)
{
    struct scene sc;
    memset(&sc, 0, sizeof sc);
    unsigned long long first = 0;
    if (!base) {
        struct link_frame fr;
        int rc = first_frame(link, &fr);
        if (rc) {
            link->ops->close(link, 1);
            return rc;
        }
        if (made_up(&fr, &sc)) {
            scene_free(&sc);
            link->ops->close(link, 1);
            fputs("springball: out of memory\n", stderr);
            return 1;
        }
        first = fr.k;
    }
    struct ui_options o = *ui;
    o.live = link;
    o.live_trate = trate > 0 ? trate : 1;
    o.live_first = first;
    o.engine = 0;
    const struct scene *show = base ? base : &sc;
    int rc = ui_run(show, name, &o);
    scene_free(&sc);
    return rc;
}

int live_connect(const struct options *o, const struct scene *sc)
{
    char msg[512];
    struct link *l = link_imd_open(o->connect, LINK_IMD_TIMEOUT, sc ? sc->n : 0, msg, sizeof msg);
    if (!l) {
        fprintf(stderr, "springball: --connect=%s\n", msg);
        return 1;
    }
    if (o->have_trate && l->ops->trate(l, (int)o->trate)) {
        fprintf(stderr, "springball: --connect=%s\n", l->msg);
        l->ops->close(l, 0);
        return 1;
    }
    return live_main(l, sc, o->have_trate ? (long long)o->trate : 1, o->connect, &o->ui);
}
