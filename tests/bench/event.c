/*
 * event.c - bench-event: events per second of the event engine on a gas of
 * N balls of radius 1, mass 1 and speed 1 at packing fraction PHI
 * (N pi / L^2 = PHI on an L x L table). Up to PHI = 0.4 the balls are
 * placed by the scene's `random` (seeded by SEED); denser gases, which
 * random placement cannot reach, start on a square lattice (spacing
 * sqrt(pi / PHI)) with directions drawn from SEED, and melt.
 *
 *     bench-event N GRID EVENTS SEED [PHI]      (PHI 0.3 by default)
 *     bench-event FILE GRID EVENTS              (a particle file or scene)
 *
 * GRID is event_config.grid (1: the default, grid above 20 balls and
 * neighbour lists from packing 0.7; 2: grid always, no lists; 3: lists
 * always; 0: all pairs). Prints one line:
 *     n grid events bookkeeping init_seconds run_seconds de collisions init_kernel run_cpu
 *     init_mib init_huge_mib
 * (bookkeeping: cell crossings and new neighbour lists; run_cpu: the
 * processor time of the run, less moved by other processes on a busy
 * machine than its wall clock run_seconds; init_kernel: the
 * system time within init_seconds, the kernel handing out and zeroing the
 * engine's memory, which on a virtual machine whose host has taken the
 * memory back can be most of it; init_mib: the memory event_init touched,
 * the resident memory it added in MiB, and init_huge_mib how much of that
 * is on huge pages, from Linux's /proc/self/smaps_rollup, -1 without it).
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "bigmem.h"
#include "event.h"
#include "formats.h"
#include "scene.h"
#include "sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* system time so far, in seconds */
static double system_time(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u))
        return 0;
    return (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

/* processor time of this process so far, in seconds */
static double cpu_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* resident memory and the part of it on huge pages, in KiB (-1: unknown) */
static void resident(long *rss, long *huge)
{
    char line[256];
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    *rss = *huge = -1;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Rss:", 4) == 0)
            *rss = atol(line + 4);
        else if (strncmp(line, "AnonHugePages:", 14) == 0)
            *huge = atol(line + 14);
    }
    fclose(f);
}

/* splitmix64, for the lattice's directions */
static double uniform(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static int lattice(struct sim *s, long n, double phi, uint64_t seed)
{
    long m = (long)ceil(sqrt((double)n));
    double a = sqrt(SIM_PI / phi), L = (double)m * a;
    struct sim_params p = sim_default_params();
    p.w = p.h = L;
    if (sim_init(s, (size_t)n, &p))
        return -1;
    for (long i = 0; i < n; i++) {
        double th = 2 * SIM_PI * uniform(&seed);
        s->x[i] = ((double)(i % m) + 0.5) * a;
        s->y[i] = ((double)(i / m) + 0.5) * a;
        s->vx[i] = cos(th);
        s->vy[i] = sin(th);
        s->m[i] = 1;
        s->r[i] = 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5 && argc != 6) {
        fputs("usage: bench-event N GRID EVENTS SEED [PHI] | FILE GRID EVENTS\n", stderr);
        return 2;
    }
    bigmem_install(); /* as springball does */
    int grid = atoi(argv[2]);
    long long events = atoll(argv[3]);
    struct sim s;
    struct scene sc;
    int have_scene = 0;
    if (argc == 4) {
        FILE *f = fopen(argv[1], "rb");
        static char text[1 << 24];
        size_t len = f ? fread(text, 1, sizeof text, f) : 0;
        if (f)
            fclose(f);
        struct scene_error err;
        if (!f || formats_parse(&sc, text, len, FORMATS_AUTO, &err)) {
            fprintf(stderr, "bench-event: %s: cannot read\n", argv[1]);
            return 1;
        }
        have_scene = 1;
        if (scene_to_sim(&sc, &s)) {
            fputs("bench-event: out of memory\n", stderr);
            return 1;
        }
    } else {
        long n = atol(argv[1]);
        double phi = argc == 6 ? atof(argv[5]) : 0.3;
        if (phi > 0.4) {
            if (lattice(&s, n, phi, (uint64_t)atoll(argv[4]))) {
                fputs("bench-event: out of memory\n", stderr);
                return 1;
            }
        } else {
            double L = sqrt((double)n * SIM_PI / phi);
            char text[256];
            snprintf(text, sizeof text, "table %.17g %.17g\nrandom %ld 1 1 1 %s\n", L, L,
                     n, argv[4]);
            struct scene_error err;
            if (scene_parse(&sc, text, strlen(text), &err)) {
                fprintf(stderr, "bench-event: %d: %s\n", err.line, err.msg);
                return 1;
            }
            have_scene = 1;
            if (scene_to_sim(&sc, &s)) {
                fputs("bench-event: out of memory\n", stderr);
                return 1;
            }
        }
    }
    struct event_config cfg = event_default_config();
    cfg.grid = grid;
    struct event ev;
    long rss0, huge0, rss1, huge1;
    resident(&rss0, &huge0);
    double k0 = system_time();
    double t0 = bench_now();
    if (event_init(&ev, &s, &cfg, NULL)) {
        fputs("bench-event: event_init failed\n", stderr);
        return 1;
    }
    double t1 = bench_now();
    double k1 = system_time();
    resident(&rss1, &huge1);
    double c1 = cpu_time();
    long long done = event_step(&ev, events);
    double t2 = bench_now();
    double c2 = cpu_time();
    struct event_diag d;
    event_diag(&ev, &d);
    printf("%zu %d %lld %lld %.6f %.6f %.3g %lld %.3f %.6f %.1f %.1f\n", s.n, grid, done,
           d.crossings + d.rebuilds, t1 - t0, t2 - t1, d.de, d.collisions, k1 - k0, c2 - c1,
           rss0 < 0 || rss1 < 0 ? -1 : (double)(rss1 - rss0) / 1024,
           huge0 < 0 || huge1 < 0 ? -1 : (double)(huge1 - huge0) / 1024);
    event_free(&ev);
    sim_free(&s);
    if (have_scene)
        scene_free(&sc);
    return 0;
}
