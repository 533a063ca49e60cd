/*
 * bench-grid.c - the driver of tests/bench/grid.sh. Links the core.
 *
 *   bench-grid gen N SEED RELAX SCENE DATA [PHI]
 *       makes a 2D gas of N discs (r = 1, m = 1, packing PHI (default 0.4:
 *       above about 0.78 the lattice starts compressed), k = 1000,
 *       dt = 0.002, speed 1 in random directions, on a jittered square
 *       lattice), lets it mix for RELAX steps, and writes it as a scene
 *       file and as a LAMMPS data file (atom_style sphere), the same
 *       decimal numbers in both
 *   bench-grid run [-b | -s | -t | -tN] STEPS RUNS SCENE
 *       loads SCENE, then times RUNS runs of STEPS steps each (only the
 *       stepping) with sim_step, or with -b the O(n^2) loop, or with -s
 *       the terminal's session_forward (the step, its checkpoints for
 *       stepping back and its finiteness check; no diagnostics), or with
 *       -t sim_step split over two threads, -tN over N (split.h, the
 *       helpers made once; its processor time is all threads'), and prints
 *       one line of key=value: the median run, ns per ball-step, contacts
 *       per ball at the end, peak RSS of the process
 *   bench-grid stream N STEPS RUNS
 *       the memory floor of a step of N balls: STEPS passes that read and
 *       write x, y, vx, vy once each (64 bytes a ball, a kick and a drift
 *       as the step's), nothing else; prints the median run's processor
 *       ns per ball-step and the bytes a second it moved
 *
 * BENCH_WIDTH (0, 1) caps the sweep's vectors: SSE2, AVX2 (the default,
 * where the processor has it; see sim_set_width).
 */
#define _POSIX_C_SOURCE 200809L

#include "bigmem.h"
#include "grid.h"
#include "mem.h"
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "split.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The processor time of this thread (of the process, with two threads):
 * on a shared machine, time spent waiting for a processor is not the
 * program's. */
static int cpu_process;
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(cpu_process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 1;
static double urand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int gen(long n, uint64_t seed, long relax, const char *scene_path,
               const char *data_path, double phi)
{
    const double L = sqrt((double)n * SIM_PI / phi);
    long side = (long)ceil(sqrt((double)n));
    double cell = L / (double)side, jit = 0.45 * (cell - 2);
    struct sim_params p = sim_default_params();
    p.w = p.h = L;
    p.k = 1000;
    p.dt = 0.002;
    struct sim s;
    if (n < 1 || !(phi > 0 && phi < 1) || sim_init(&s, (size_t)n, &p)) {
        fputs("bench-grid gen: bad N or PHI, or out of memory\n", stderr);
        return 1;
    }
    rng = seed;
    for (long i = 0; i < n; i++) {
        s.x[i] = ((double)(i % side) + 0.5) * cell + (2 * urand() - 1) * jit;
        s.y[i] = ((double)(i / side) + 0.5) * cell + (2 * urand() - 1) * jit;
        double th = 2 * SIM_PI * urand();
        s.vx[i] = cos(th);
        s.vy[i] = sin(th);
        s.m[i] = s.r[i] = 1;
    }
    /* The lattice has no contacts yet: let the gas mix first, so that
     * both programs start from a gas in its steady state. */
    for (long i = 0; i < relax; i++)
        if (sim_step(&s)) {
            fputs("bench-grid gen: out of memory (the contact grid)\n", stderr);
            return 1;
        }
    /* LAMMPS (29 Sep 2021) takes the mass of a sphere, 4/3 pi (d/2)^3
     * times the density, even in 2d: this density gives exactly 1. */
    const double density = nextafter(3 / (4 * SIM_PI), 1);
    FILE *fs = fopen(scene_path, "w"), *fd = fopen(data_path, "w");
    if (!fs || !fd) {
        perror("bench-grid gen");
        return 1;
    }
    fprintf(fs, "title gas of %ld discs, packing %g (bench-grid)\n"
                "table %.17g %.17g\nk 1000\ndt 0.002\n", n, phi, L, L);
    fprintf(fd, "springball bench: %ld discs r=1 m=1 packing %g\n\n"
                "%ld atoms\n1 atom types\n\n%.17g %.17g xlo xhi\n"
                "%.17g %.17g ylo yhi\n-0.5 0.5 zlo zhi\n\nAtoms # sphere\n\n",
            n, phi, n, 0.0, L, 0.0, L);
    /* 10 digits: the same decimals for both programs, and a short file,
     * so that loading a million balls stays cheap. */
    for (long b = 0; b < n; b++) {
        size_t i = sim_slot(&s, (size_t)b);
        fprintf(fs, "ball %.10g %.10g %.10g %.10g 1 1\n", s.x[i], s.y[i],
                s.vx[i], s.vy[i]);
        fprintf(fd, "%ld 1 2 %.17g %.10g %.10g 0\n", b + 1, density, s.x[i], s.y[i]);
    }
    fprintf(fd, "\nVelocities\n\n");
    for (long b = 0; b < n; b++)
        fprintf(fd, "%ld %.10g %.10g 0 0 0 0\n", b + 1, s.vx[sim_slot(&s, (size_t)b)],
                s.vy[sim_slot(&s, (size_t)b)]);
    sim_free(&s);
    if (fclose(fs) || fclose(fd)) {
        perror("bench-grid gen");
        return 1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How run() steps: sim_step, the O(n^2) loop, session_forward, sim_step
 * on two threads. */
enum { RUN_STEP, RUN_BRUTE, RUN_SESSION, RUN_SPLIT };

static int run(int how, int nthreads, long steps, int runs, const char *path)
{
    double t0 = now();
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fclose(f);
    struct scene sc;
    struct scene_error err;
    if (scene_parse(&sc, text, (size_t)len, &err)) {
        fprintf(stderr, "%s:%d: %s\n", path, err.line, err.msg);
        return 1;
    }
    free(text);
    struct sim s;
    if (scene_to_sim(&sc, &s)) {
        fputs("out of memory\n", stderr);
        return 1;
    }
    scene_free(&sc);
    struct session ss;
    if (how == RUN_SESSION) {
        if (session_init(&ss, &s)) {
            fputs("bench-grid: out of memory (the session)\n", stderr);
            return 1;
        }
        sim_free(&s);
    }
    struct split sp;
    if (how == RUN_SPLIT) {
        if (split_start(&sp, nthreads, 0)) {
            fputs("bench-grid: no second thread\n", stderr);
            return 1;
        }
        s.threads = &sp.th;
        cpu_process = 1;
    }
    double t_load = now() - t0;
    double *t = malloc((size_t)runs * sizeof *t), *tc = malloc((size_t)runs * sizeof *tc);
    for (int k = 0; k < runs; k++) {
        double a = now(), ac = cpu_now();
        for (long i = 0; i < steps; i++) {
            if (how == RUN_BRUTE) {
                sim_step_brute(&s);
            } else if (how == RUN_SESSION) {
                if (session_forward(&ss) != 1) {
                    fputs("bench-grid: session_forward refused\n", stderr);
                    return 1;
                }
            } else if (sim_step(&s)) {
                fputs("bench-grid: out of memory (the contact grid)\n", stderr);
                return 1;
            }
        }
        t[k] = now() - a;
        tc[k] = cpu_now() - ac;
    }
    if (how == RUN_SPLIT) {
        s.threads = NULL;
        split_stop(&sp);
    }
    if (how == RUN_SESSION) {
        s = ss.s; /* the figures below from the session's state */
        ss.s = (struct sim){0};
        session_free(&ss);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    qsort(tc, (size_t)runs, sizeof *tc, cmp_double);
    double med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    double medc = runs % 2 ? tc[runs / 2] : 0.5 * (tc[runs / 2 - 1] + tc[runs / 2]);
    double bsteps = (double)s.n * (double)steps;
    struct sim_diag d;
    sim_diag(&s, &d);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss = (double)ru.ru_maxrss * 1024; /* Linux: kilobytes */
    long builds = s.grid ? grid_stats(s.grid).builds : 0;
    double skin = s.grid ? grid_stats(s.grid).skin : 0;
    double listed = s.grid ? (double)grid_stats(s.grid).pairs / (double)s.n : 0;
    printf("n=%zu steps=%ld runs=%d median_s=%.6g ballsteps_per_s=%.4g "
           "ns_per_ballstep=%.4g cpu_ns_per_ballstep=%.4g contacts_per_ball=%.4g peak_rss=%.0f "
           "bytes_per_ball=%.1f builds=%ld skin=%.3g listed_per_ball=%.3g load_s=%.3g "
           "e=%.10g finite=%d\n",
           s.n, steps, runs, med, bsteps / med, 1e9 * med / bsteps, 1e9 * medc / bsteps,
           2.0 * (double)d.contacts / (double)s.n, rss, rss / (double)s.n,
           builds, skin, listed, t_load, d.e, sim_finite(&s));
    free(t);
    free(tc);
    sim_free(&s);
    return 0;
}

static int stream(long n, long steps, int runs)
{
    double *a = n > 0 && runs > 0 ? mem_alloc(4 * (size_t)n * sizeof *a) : NULL;
    double *tc = runs > 0 ? malloc((size_t)runs * sizeof *tc) : NULL;
    if (!a || !tc) {
        fputs("bench-grid stream: bad N or RUNS, or out of memory\n", stderr);
        return 1;
    }
    double *x = a, *y = a + n, *vx = a + 2 * n, *vy = a + 3 * n;
    for (long i = 0; i < n; i++) {
        x[i] = (double)i;
        y[i] = 0.5 * (double)i;
        vx[i] = 1;
        vy[i] = -1;
    }
    const double dt = 0.002, damp = 1 - 0x1p-30; /* a force that keeps v finite */
    for (int k = 0; k < runs; k++) {
        double ac = cpu_now();
        for (long st = 0; st < steps; st++)
            for (long i = 0; i < n; i++) {
                double u = vx[i] * damp, v = vy[i] * damp;
                vx[i] = u;
                vy[i] = v;
                x[i] += dt * u;
                y[i] += dt * v;
            }
        tc[k] = cpu_now() - ac;
    }
    qsort(tc, (size_t)runs, sizeof *tc, cmp_double);
    double med = runs % 2 ? tc[runs / 2] : 0.5 * (tc[runs / 2 - 1] + tc[runs / 2]);
    double bsteps = (double)n * (double)steps;
    printf("n=%ld steps=%ld runs=%d cpu_ns_per_ballstep=%.4g gb_per_s=%.4g check=%g\n", n,
           steps, runs, 1e9 * med / bsteps, 64 * bsteps / med / 1e9, x[n / 2] + y[n - 1]);
    mem_free(a);
    free(tc);
    return 0;
}

int main(int argc, char **argv)
{
    bigmem_install(); /* as springball does */
    /* BENCH_WIDTH=0, 1: the widest vectors the sweep may use (see
     * sim_set_width), to time them against each other in one build */
    const char *wid = getenv("BENCH_WIDTH");
    sim_set_width(wid ? atoi(wid) : 1);
    if ((argc == 7 || argc == 8) && strcmp(argv[1], "gen") == 0)
        return gen(atol(argv[2]), strtoull(argv[3], NULL, 10), atol(argv[4]),
                   argv[5], argv[6], argc == 8 ? atof(argv[7]) : 0.4);
    if (argc == 5 && strcmp(argv[1], "stream") == 0)
        return stream(atol(argv[2]), atol(argv[3]), atoi(argv[4]));
    int how = argc > 2 && strcmp(argv[2], "-b") == 0   ? RUN_BRUTE
              : argc > 2 && strcmp(argv[2], "-s") == 0 ? RUN_SESSION
              : argc > 2 && strncmp(argv[2], "-t", 2) == 0 ? RUN_SPLIT
                                                             : RUN_STEP;
    int nthreads = how == RUN_SPLIT ? (argv[2][2] ? atoi(argv[2] + 2) : 2) : 1;
    int opt = how != RUN_STEP;
    if (argc == 5 + opt && strcmp(argv[1], "run") == 0 && (how != RUN_SPLIT || nthreads >= 2))
        return run(how, nthreads, atol(argv[2 + opt]), atoi(argv[3 + opt]), argv[4 + opt]);
    fputs("usage: bench-grid gen N SEED RELAX SCENE DATA [PHI]\n"
          "       bench-grid run [-b | -s | -t | -tN] STEPS RUNS SCENE\n"
          "       bench-grid stream N STEPS RUNS\n", stderr);
    return 2;
}
