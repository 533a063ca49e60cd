/*
 * bench-grid.c - the driver of tests/bench/grid.sh. Links the core.
 *
 *   bench-grid gen N SEED SCENE DATA
 *       writes a 2D gas of N discs (r = 1, m = 1, packing 0.4, k = 1000,
 *       dt = 0.002, speed 1 in random directions, on a jittered square
 *       lattice) as a scene file and as a LAMMPS data file (atom_style
 *       sphere), the same decimal numbers in both
 *   bench-grid run [-b] STEPS RUNS SCENE
 *       loads SCENE, then times RUNS runs of STEPS steps each (only the
 *       stepping) with sim_step, or with -b the O(n^2) loop, and prints
 *       one line of key=value: the median run, ns per ball-step, contacts
 *       per ball at the end, peak RSS of the process
 */
#define _POSIX_C_SOURCE 200809L

#include "grid.h"
#include "scene.h"
#include "sim.h"

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

static uint64_t rng = 1;
static double urand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int gen(long n, uint64_t seed, const char *scene_path, const char *data_path)
{
    const double phi = 0.4, r = 1;
    const double L = sqrt((double)n * SIM_PI * r * r / phi);
    long side = (long)ceil(sqrt((double)n));
    double cell = L / (double)side, jit = 0.45 * (cell - 2 * r);
    /* LAMMPS (29 Sep 2021) takes the mass of a sphere, 4/3 pi (d/2)^3
     * times the density, even in 2d: this density gives exactly 1. */
    const double density = nextafter(3 / (4 * SIM_PI), 1);
    FILE *fs = fopen(scene_path, "w"), *fd = fopen(data_path, "w");
    if (!fs || !fd) {
        perror("bench-grid gen");
        return 1;
    }
    fprintf(fs, "title gas of %ld discs, packing 0.4 (bench-grid)\n"
                "table %.17g %.17g\nk 1000\ndt 0.002\n", n, L, L);
    fprintf(fd, "springball bench: %ld discs r=1 m=1 packing 0.4\n\n"
                "%ld atoms\n1 atom types\n\n%.17g %.17g xlo xhi\n"
                "%.17g %.17g ylo yhi\n-0.5 0.5 zlo zhi\n\nAtoms # sphere\n\n",
            n, n, 0.0, L, 0.0, L);
    rng = seed;
    char (*vel)[72] = malloc((size_t)n * sizeof *vel);
    if (!vel)
        return 1;
    for (long i = 0; i < n; i++) {
        /* 10 digits: the same decimals for both programs, and a short
         * file, so that loading a million balls stays cheap. */
        char xs[32], ys[32], vxs[32], vys[32];
        double x = ((double)(i % side) + 0.5) * cell + (2 * urand() - 1) * jit;
        double y = ((double)(i / side) + 0.5) * cell + (2 * urand() - 1) * jit;
        double th = 2 * SIM_PI * urand();
        snprintf(xs, sizeof xs, "%.10g", x);
        snprintf(ys, sizeof ys, "%.10g", y);
        snprintf(vxs, sizeof vxs, "%.10g", cos(th));
        snprintf(vys, sizeof vys, "%.10g", sin(th));
        fprintf(fs, "ball %s %s %s %s 1 1\n", xs, ys, vxs, vys);
        fprintf(fd, "%ld 1 2 %.17g %s %s 0\n", i + 1, density, xs, ys);
        snprintf(vel[i], sizeof vel[i], "%s %s", vxs, vys);
    }
    fprintf(fd, "\nVelocities\n\n");
    for (long i = 0; i < n; i++)
        fprintf(fd, "%ld %s 0 0 0 0\n", i + 1, vel[i]);
    free(vel);
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

static void brute_step(struct sim *s)
{
    sim_forces_brute(s);
    for (size_t i = 0; i < s->n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        s->vx[i] += s->p.dt * ax;
        s->vy[i] += s->p.dt * ay;
        s->x[i] += s->p.dt * s->vx[i];
        s->y[i] += s->p.dt * s->vy[i];
    }
    s->t += s->p.dt;
    s->steps++;
}

static int run(int brute, long steps, int runs, const char *path)
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
    double t_load = now() - t0;
    double *t = malloc((size_t)runs * sizeof *t);
    for (int k = 0; k < runs; k++) {
        double a = now();
        for (long i = 0; i < steps; i++) {
            if (brute)
                brute_step(&s);
            else
                sim_step(&s);
        }
        t[k] = now() - a;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double med = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    double bsteps = (double)s.n * (double)steps;
    struct sim_diag d;
    sim_diag(&s, &d);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rss = (double)ru.ru_maxrss * 1024; /* Linux: kilobytes */
    long builds = s.grid ? grid_stats(s.grid).builds : 0;
    printf("n=%zu steps=%ld runs=%d median_s=%.6g ballsteps_per_s=%.4g "
           "ns_per_ballstep=%.4g contacts_per_ball=%.4g peak_rss=%.0f "
           "bytes_per_ball=%.1f builds=%ld load_s=%.3g e=%.10g finite=%d\n",
           s.n, steps, runs, med, bsteps / med, 1e9 * med / bsteps,
           2.0 * (double)d.contacts / (double)s.n, rss, rss / (double)s.n,
           builds, t_load, d.e, sim_finite(&s));
    free(t);
    sim_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "gen") == 0)
        return gen(atol(argv[2]), strtoull(argv[3], NULL, 10), argv[4], argv[5]);
    int brute = argc > 2 && strcmp(argv[2], "-b") == 0;
    if (argc == 5 + brute && strcmp(argv[1], "run") == 0)
        return run(brute, atol(argv[2 + brute]), atoi(argv[3 + brute]), argv[4 + brute]);
    fputs("usage: bench-grid gen N SEED SCENE DATA\n"
          "       bench-grid run [-b] STEPS RUNS SCENE\n", stderr);
    return 2;
}
