/*
 * bench.h - what the benchmark drivers share: the wall clock (POSIX
 * CLOCK_MONOTONIC), and the order of doubles for medians (util.h).
 * A driver defines _POSIX_C_SOURCE before any include.
 */
#ifndef BENCH_H
#define BENCH_H

#include "util.h"

#include <time.h>

/// Seconds on the monotonic clock.
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
