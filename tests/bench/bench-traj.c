/*
 * bench-traj.c - the driver of tests/bench/traj.sh: opens a recorded run
 * (traj.h) and reads its frames, timing each part.
 *
 *   bench-traj FILE   prints: bytes frames balls index_s frame_first_s
 *                     frame_step_s (median of the steps forward)
 *                     frame_back_s (median of steps back) maxrss_mb
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "sim.h"
#include "traj.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: bench-traj FILE\n", stderr);
        return 2;
    }
    struct traj tr;
    struct traj_error err;
    double t0 = bench_now();
    if (traj_open(&tr, argv[1], TRAJ_AUTO, NULL, NULL, &err)) {
        fprintf(stderr, "%s:%lld: %s\n", argv[1], err.line, err.msg);
        return 2;
    }
    double t_index = bench_now() - t0;
    struct sim s;
    if (sim_init(&s, tr.n, &tr.p))
        return 1;
    t0 = bench_now();
    if (traj_sim(&tr, 0, &s, &err))
        return 2;
    double t_first = bench_now() - t0;
    size_t n = tr.nframes > 1 ? tr.nframes - 1 : 1;
    double *fw = malloc(n * sizeof *fw), *bw = malloc(n * sizeof *bw);
    size_t nf = 0, nb = 0;
    for (size_t k = 1; k < tr.nframes && k <= 20; k++) {
        t0 = bench_now();
        traj_sim(&tr, k, &s, &err);
        fw[nf++] = bench_now() - t0;
    }
    for (size_t k = nf; k-- > 0 && nb < 10;) {
        t0 = bench_now();
        traj_sim(&tr, k, &s, &err);
        bw[nb++] = bench_now() - t0;
    }
    qsort(fw, nf, sizeof *fw, cmp);
    qsort(bw, nb, sizeof *bw, cmp);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%lld %zu %zu %.3f %.3f %.3f %.3f %.0f\n", tr.size, tr.nframes, tr.n, t_index,
           t_first, nf ? fw[nf / 2] : 0, nb ? bw[nb / 2] : 0, (double)ru.ru_maxrss / 1024);
    free(fw);
    free(bw);
    sim_free(&s);
    traj_close(&tr);
    return 0;
}
