/*
 * event.c - bench-event: events per second of the event engine on a random
 * gas of N balls of radius 1 at packing fraction 0.3 (N pi / L^2 = 0.3 on an
 * L x L table, placed by the scene's `random`, speed 1).
 *
 *     bench-event N GRID EVENTS SEED
 *
 * prints one line: n grid events crossings init_seconds run_seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include "event.h"
#include "scene.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fputs("usage: bench-event N GRID EVENTS SEED\n", stderr);
        return 2;
    }
    long n = atol(argv[1]);
    int grid = atoi(argv[2]);
    long long events = atoll(argv[3]);
    double L = sqrt((double)n * SIM_PI / 0.3);
    char text[256];
    snprintf(text, sizeof text, "table %.17g %.17g\nrandom %ld 1 1 1 %s\n", L, L,
             n, argv[4]);
    struct scene sc;
    struct scene_error err;
    if (scene_parse(&sc, text, strlen(text), &err)) {
        fprintf(stderr, "bench-event: %d: %s\n", err.line, err.msg);
        return 1;
    }
    struct sim s;
    if (scene_to_sim(&sc, &s)) {
        fputs("bench-event: out of memory\n", stderr);
        return 1;
    }
    struct event_config cfg = event_default_config();
    cfg.grid = grid;
    struct event ev;
    double t0 = now();
    if (event_init(&ev, &s, &cfg, NULL)) {
        fputs("bench-event: event_init failed\n", stderr);
        return 1;
    }
    double t1 = now();
    long long done = event_step(&ev, events);
    double t2 = now();
    struct event_diag d;
    event_diag(&ev, &d);
    printf("%ld %d %lld %lld %.6f %.6f %.3g\n", n, grid, done, d.crossings,
           t1 - t0, t2 - t1, d.de);
    event_free(&ev);
    sim_free(&s);
    scene_free(&sc);
    return 0;
}
