/*
 * replay.c - a recorded run as SCENE: headless, one frame printed; in the
 * terminal, played back (see replay.h, traj.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "replay.h"

#include "formats.h"
#include "headless.h"
#include "link.h"
#include "live.h"
#include "scene.h"
#include "sim.h"
#include "traj.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

int replay_is_run(const char *path, int format)
{
    if (format == FORMATS_XYZ || format == FORMATS_LAMMPSTRJ)
        return 1;
    if (format != FORMATS_AUTO || !strcmp(path, "-"))
        return 0;
    /* Only a regular file is sniffed here: a FIFO or a pipe read would
     * lose its bytes to this look (the scene loader then read nothing, or
     * waited forever on a FIFO's second open). Any other file is read
     * once, by the scene loader, which sniffs the bytes it read. */
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char head[4096];
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    return formats_trajectory(head, got) != 0;
}

/* Indexing a large file: its progress on a terminal's standard error. */
static void progress(void *arg, double done)
{
    const char *path = arg;
    if (done >= 1)
        fprintf(stderr, "\rspringball: %s: indexed%20s\r", path, "");
    else
        fprintf(stderr, "\rspringball: %s: indexing %3.0f%%", path, 100 * done);
    fflush(stderr);
}

/* The diagnostics line of -H --stats, a scene's (headless_stats: the
 * observed state, the shortest digits), then the frame's place. */
static void print_stats(const struct sim *s, size_t k, const struct traj *tr)
{
    char more[96];
    snprintf(more, sizeof more, " frame=%zu frames=%zu%s", k, tr->nframes,
             tr->v_diff ? " v=differences" : "");
    headless_stats(s, 1, more);
}

/* --slice: frame k's balls with z0 <= z <= z1 alone, in their order
 * (said on standard error: how many of how many). */
static int slice(struct traj *tr, size_t k, struct scene *sc, const struct replay_options *ro,
                 struct traj_error *err)
{
    double *z = malloc(2 * (tr->n ? tr->n : 1) * sizeof *z);
    if (!z) {
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        err->nomem = 1;
        return -1;
    }
    if (traj_depth(tr, k, z, z + tr->n, err)) {
        free(z);
        return -1;
    }
    size_t kept = 0;
    for (size_t b = 0; b < sc->n; b++)
        if (z[b] >= ro->z0 && z[b] <= ro->z1)
            sc->balls[kept++] = sc->balls[b];
    fprintf(stderr, "springball: --slice=%g:%g: %zu of %zu balls (frame %zu)\n", ro->z0,
            ro->z1, kept, sc->n, k);
    sc->n = kept;
    free(z);
    return 0;
}

/* -H: frame k printed as a scene that runs on. */
static int headless(struct traj *tr, const char *path, const struct replay_options *ro)
{
    size_t k = 0;
    if (ro->have_frame) {
        if (ro->frame >= tr->nframes) {
            fprintf(stderr, "springball: %s has %zu frames (0 to %zu): no frame %llu\n",
                    path, tr->nframes, tr->nframes - 1, ro->frame);
            return 2;
        }
        k = (size_t)ro->frame;
    } else if (ro->have_time) {
        k = traj_at_time(tr, ro->time);
    }
    struct scene sc;
    struct traj_error err;
    if (traj_scene(tr, k, &sc, &err)) {
        fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
        return err.nomem ? 1 : 2;
    }
    if (ro->slice && slice(tr, k, &sc, ro, &err)) {
        scene_free(&sc);
        fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
        return err.nomem ? 1 : 2;
    }
    struct sim s;
    if (scene_to_sim(&sc, &s)) {
        scene_free(&sc);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    s.t = tr->fr[k].t;
    s.steps = tr->fr[k].step;
    scene_write(stdout, &sc, &s);
    if (ro->stats)
        print_stats(&s, k, tr);
    sim_free(&s);
    scene_free(&sc);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

/* 1 when the file's last byte is not a newline (a line being written). */
static int partial_line(const char *path, long long size)
{
    if (size <= 0)
        return 1;
    int fd = open(path, O_RDONLY);
    char c = '\n';
    if (fd >= 0) {
        if (pread(fd, &c, 1, (off_t)(size - 1)) != 1)
            c = '\n';
        close(fd);
    }
    return c != '\n';
}

/* -H --follow: the file indexed again each time it has grown (looked at
 * every REPLAY_FOLLOW_POLL s; nothing else is done meanwhile), until the
 * frame asked for (-n) or the time (-T) is there; without either, the
 * last frame now. A file without a whole frame yet, or ending in a line
 * being written, is waited for. */
static int follow(const char *path, int tf, const struct replay_options *ro)
{
    cli_catch_stops();
    long long seen = -1;
    int said = 0;
    while (!cli_stop) {
        struct stat st;
        long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        if (size != seen && size > 0) {
            seen = size;
            struct traj tr;
            struct traj_error err;
            if (traj_open(&tr, path, tf, NULL, NULL, &err)) {
                if (err.nomem) {
                    fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
                    return 1;
                }
                if (!partial_line(path, size) && !strstr(err.msg, "whole frame") &&
                    !strstr(err.msg, "ends")) {
                    fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
                    return 2;
                }
            } else {
                int there = ro->have_frame ? ro->frame < tr.nframes
                          : ro->have_time ? tr.fr[tr.nframes - 1].t >= ro->time : 1;
                if (there) {
                    if (tr.notes[0])
                        fprintf(stderr, "springball: %s: %s\n", path, tr.notes);
                    int rc = headless(&tr, path, ro);
                    traj_close(&tr);
                    return rc;
                }
                traj_close(&tr);
            }
        }
        if (!said) {
            if (ro->have_frame)
                fprintf(stderr, "springball: %s: waiting for frame %llu\n", path, ro->frame);
            else if (ro->have_time)
                fprintf(stderr, "springball: %s: waiting for a frame at time %g\n", path,
                        ro->time);
            else
                fprintf(stderr, "springball: %s: waiting for a whole frame\n", path);
            said = 1;
        }
        struct timespec ts = {0, (long)(REPLAY_FOLLOW_POLL * 1e9)};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "springball: %s: stopped by a signal while following\n", path);
    return 1;
}

/* --follow in the terminal: the newest whole frame (waited for) as the
 * scene, handed over again by the link's first poll (its time, step and
 * velocities), then the frames that land, through the live engine (live.h). */
static int follow_terminal(const char *path, int tf, const struct ui_options *ui)
{
    cli_catch_stops();
    int said = 0;
    struct traj tr;
    struct traj_error err;
    while (traj_open(&tr, path, tf, NULL, NULL, &err)) {
        struct stat st;
        long long size = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        if (err.nomem || (size > 0 && !partial_line(path, size) &&
                          !strstr(err.msg, "whole frame") && !strstr(err.msg, "ends"))) {
            fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
            return err.nomem ? 1 : 2;
        }
        if (!said)
            fprintf(stderr, "springball: %s: waiting for a whole frame\n", path);
        said = 1;
        struct timespec ts = {0, (long)(REPLAY_FOLLOW_POLL * 1e9)};
        nanosleep(&ts, NULL);
        if (cli_stop) {
            fprintf(stderr, "springball: %s: stopped by a signal while following\n", path);
            return 1;
        }
    }
    struct scene sc;
    size_t k = tr.nframes - 1;
    if (traj_scene(&tr, k, &sc, &err)) {
        fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
        traj_close(&tr);
        return err.nomem ? 1 : 2;
    }
    char msg[256];
    struct link *l = link_follow_open(path, tf, &tr, tr.nframes - 1, msg, sizeof msg);
    traj_close(&tr);
    if (!l) {
        scene_free(&sc);
        fprintf(stderr, "springball: %s\n", msg);
        return 1;
    }
    int rc = live_main(l, &sc, 1, path, ui);
    scene_free(&sc);
    return rc;
}

int replay_main(const char *path, int format, const struct replay_options *ro,
                const struct ui_options *ui)
{
    struct traj tr;
    struct traj_error err;
    int tf = format == FORMATS_XYZ ? TRAJ_XYZ : format == FORMATS_LAMMPSTRJ ? TRAJ_LAMMPS
                                                                           : TRAJ_AUTO;
    if (ro->follow && ro->headless)
        return follow(path, tf, ro);
    if (ro->follow)
        return follow_terminal(path, tf, ui);
    int tty = isatty(STDERR_FILENO);
    if (traj_open(&tr, path, tf, tty ? progress : NULL, (void *)path, &err)) {
        if (err.line > 0)
            fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
        else
            fprintf(stderr, "%s:0: %s\n", path, err.msg);
        return err.nomem ? 1 : 2;
    }
    if (ro->headless) {
        if (tr.cut)
            fprintf(stderr, "springball: %s: cut after frame %zu\n", path, tr.nframes - 1);
        if (tr.notes[0])
            fprintf(stderr, "springball: %s: %s\n", path, tr.notes);
        int rc = headless(&tr, path, ro);
        traj_close(&tr);
        return rc;
    }
    /* The terminal (or --snapshot): the first frame as the scene the
     * front end is laid out for, then frame by frame. */
    struct scene sc;
    if (traj_scene(&tr, 0, &sc, &err)) {
        fprintf(stderr, "%s:%lld: %s\n", path, err.line, err.msg);
        traj_close(&tr);
        return err.nomem ? 1 : 2;
    }
    struct ui_options o = *ui;
    o.replay = &tr;
    o.engine = 0;
    int rc = ro->snapshot ? ui_snapshot(&sc, path, &o) : ui_run(&sc, path, &o);
    scene_free(&sc);
    traj_close(&tr);
    return rc;
}
