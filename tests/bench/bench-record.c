/*
 * bench-record.c - the driver of tests/bench/record.sh. Links the core and
 * the writers.
 *
 *   bench-record print COUNT RUNS
 *       ns per number of numfmt_double against snprintf "%.17g", on COUNT
 *       numbers of each of three kinds (positions in [0, 800), a run's
 *       velocities ~ N(0, 1) scaled, random bit patterns); the two printers
 *       alternate RUNS times, the median of each is printed
 *   bench-record frames SCENE FRAMES RUNS OUT
 *       loads SCENE, then alternately writes FRAMES extended XYZ frames of
 *       its state to OUT (/dev/null: the writer's own cost) with record_xyz
 *       on one thread and on its default threads (the CPUs online), the
 *       same frames with fprintf "%.17g" (the peer: what the headless
 *       writers do), and times 10 sim_steps; prints medians: frames/s,
 *       MB/s, and one frame's writing over the 10 steps between frames at
 *       --every 10
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "formats.h"
#include "numfmt.h"
#include "record.h"
#include "scene.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_s = 7;
static uint64_t rng(void)
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double u01(void)
{
    return (double)(rng() >> 11) * (1.0 / 9007199254740992.0);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, util_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Keeps the compiler from dropping the printing. */
static volatile size_t sink;

static int bench_print(long count, int runs)
{
    double *v = malloc((size_t)count * sizeof *v);
    if (!v)
        return 1;
    const char *kinds[3] = {"positions", "velocities", "any bits"};
    printf("%-11s %12s %12s %7s\n", "numbers", "shortest ns", "%.17g ns", "ratio");
    for (int k = 0; k < 3; k++) {
        for (long i = 0; i < count; i++) {
            if (k == 0) {
                v[i] = 800 * u01();
            } else if (k == 1) {
                /* Box-Muller */
                double a = u01(), b = u01();
                v[i] = 3 * sqrt(-2 * log(a + 1e-300)) * cos(2 * SIM_PI * b);
            } else {
                uint64_t bits = rng();
                memcpy(&v[i], &bits, sizeof bits);
                if (!isfinite(v[i]))
                    v[i] = 1;
            }
        }
        double *ta = malloc((size_t)runs * sizeof *ta), *tb = malloc((size_t)runs * sizeof *tb);
        if (!ta || !tb)
            return 1;
        char buf[64];
        for (int r = 0; r < runs; r++) {
            double t0 = bench_now();
            size_t s = 0;
            for (long i = 0; i < count; i++)
                s += numfmt_double(buf, v[i]);
            double t1 = bench_now();
            for (long i = 0; i < count; i++)
                s += (size_t)snprintf(buf, sizeof buf, "%.17g", v[i]);
            double t2 = bench_now();
            sink += s;
            ta[r] = (t1 - t0) / (double)count * 1e9;
            tb[r] = (t2 - t1) / (double)count * 1e9;
        }
        double a = median(ta, runs), b = median(tb, runs);
        qsort(ta, (size_t)runs, sizeof *ta, util_cmp_double);
        qsort(tb, (size_t)runs, sizeof *tb, util_cmp_double);
        printf("%-11s %5.1f (%4.1f-%4.1f) %5.0f (%3.0f-%3.0f) %6.1fx\n", kinds[k], a, ta[0],
               ta[runs - 1], b, tb[0], tb[runs - 1], b / a);
        free(ta);
        free(tb);
    }
    free(v);
    return 0;
}

/* The peer: one frame as fprintf with "%.17g" would write it. */
static void xyz_printf(FILE *f, const struct sim *s)
{
    fprintf(f, "%zu\nLattice=\"%.17g 0 0 0 %.17g 0 0 0 1\" "
               "Properties=" RECORD_XYZ_PROPERTIES " "
               "Time=%.17g pbc=\"F F F\"\n", s->n, s->p.w, s->p.h, s->t);
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        fprintf(f, "X %.17g %.17g 0 %.17g %.17g 0 %.17g %.17g %.17g %.17g 0 %.17g\n", s->x[i],
                s->y[i], s->vx[i], s->vy[i], s->r[i], s->m[i], s->m[i] * s->vx[i],
                s->m[i] * s->vy[i], s->m[i]);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* Writes FRAMES frames to OUT with @p threads threads (0: the default);
 * returns the seconds, *bytes the bytes of one frame. */
static double time_ours(const struct sim *s, int frames, const char *out, int threads,
                        long *bytes)
{
    FILE *f = fopen(out, "wb");
    struct record w;
    if (!f || record_attach(&w, f))
        exit(1);
    if (threads)
        w.threads = threads;
    double t0 = bench_now();
    for (int k = 0; k < frames; k++)
        record_xyz(&w, s, s->steps);
    *bytes = (long)(w.bytes + w.len) / frames;
    if (record_close(&w) || fclose(f))
        exit(1);
    return bench_now() - t0;
}

static int bench_frames(const char *scene_path, int frames, int runs, const char *out)
{
    size_t len;
    char *text = read_file(scene_path, &len);
    struct scene sc;
    struct scene_error err;
    struct sim s;
    if (!text || formats_parse(&sc, text, len, FORMATS_AUTO, &err) || scene_to_sim(&sc, &s)) {
        fprintf(stderr, "bench-record: cannot load %s\n", scene_path);
        return 1;
    }
    free(text);
    /* A few steps first: sorted slots and numbers as a run has them. */
    for (int i = 0; i < 20; i++)
        sim_step(&s);
    double *ta = malloc((size_t)runs * sizeof *ta), *tb = malloc((size_t)runs * sizeof *tb);
    double *tc = malloc((size_t)runs * sizeof *tc), *td = malloc((size_t)runs * sizeof *td);
    long bytes = 0, ours = 0;
    int threads = 1;
    for (int r = 0; r < runs; r++) {
        ta[r] = time_ours(&s, frames, out, 1, &ours);
        struct record probe;
        if (record_attach(&probe, stdout) == 0) {
            threads = probe.threads;
            record_close(&probe);
        }
        td[r] = time_ours(&s, frames, out, 0, &ours);
        FILE *f = fopen(out, "wb");
        if (!f)
            return 1;
        double t2 = bench_now();
        for (int k = 0; k < frames; k++)
            xyz_printf(f, &s);
        fflush(f);
        if (fclose(f))
            return 1;
        double t3 = bench_now();
        for (int k = 0; k < 10; k++)
            sim_step(&s);
        double t4 = bench_now();
        tb[r] = t3 - t2;
        tc[r] = t4 - t3;
    }
    {
        /* The peer's bytes: one more frame to a counting pass. */
        FILE *f = tmpfile();
        if (f) {
            xyz_printf(f, &s);
            bytes = ftell(f);
            fclose(f);
        }
    }
    double a = median(ta, runs) / frames, b = median(tb, runs) / frames;
    double c = median(tc, runs), d = median(td, runs) / frames;
    qsort(ta, (size_t)runs, sizeof *ta, util_cmp_double);
    qsort(tb, (size_t)runs, sizeof *tb, util_cmp_double);
    qsort(td, (size_t)runs, sizeof *td, util_cmp_double);
    printf("n=%zu frames_per_s=%.3g spread=%.3g-%.3g threads=%d threads_frames_per_s=%.3g "
           "spread_threads=%.3g-%.3g printf_frames_per_s=%.3g spread_printf=%.3g-%.3g "
           "ratio=%.2f mb_per_frame=%.1f printf_mb_per_frame=%.1f mb_per_s=%.0f "
           "ns_per_ball=%.0f steps10_s=%.3g frame_over_10_steps=%.2f "
           "threads_frame_over_10_steps=%.2f\n",
           s.n, 1 / a, frames / ta[runs - 1], frames / ta[0], threads, 1 / d,
           frames / td[runs - 1], frames / td[0], 1 / b, frames / tb[runs - 1],
           frames / tb[0], b / a, ours / 1e6, bytes / 1e6, ours / 1e6 / a,
           a / (double)s.n * 1e9, c, a / c, d / c);
    free(ta);
    free(tb);
    free(tc);
    free(td);
    sim_free(&s);
    scene_free(&sc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "print") == 0)
        return bench_print(atol(argv[2]), atoi(argv[3]));
    if (argc == 6 && strcmp(argv[1], "frames") == 0)
        return bench_frames(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
    fputs("usage: bench-record print COUNT RUNS | frames SCENE FRAMES RUNS OUT\n", stderr);
    return 2;
}
