/*
 * split.h - the threads of the core's split step (sim.h, struct
 * sim_threads): helper threads, made once, that wait for the parts of a
 * step and take whichever part is still free, so that a spring step of
 * many balls runs on every processor, to the same bits as on one. POSIX
 * threads: the core makes none; the command line (headless), the
 * terminal's worker (worker.h) and the benchmark driver lend them to the
 * sim they step.
 */
#ifndef SPLIT_H
#define SPLIT_H

#include "sim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/// The most threads a split runs on (the caller's among them).
#define SPLIT_MAX 256

struct split {
    struct sim_threads th; ///< to set as sim.threads while the helpers run
    int nhelpers;
    pthread_t helper[SPLIT_MAX - 1];
    /* A run posted: its generation (high 32 bits), its count of parts
     * (next 16) and the next part to claim (low 16), one word, so that a
     * helper late from the run before claims nothing of this one (split.c,
     * claim_parts); the parts ended. */
    _Atomic uint64_t claim;
    atomic_int done;
    void (*part)(void *arg, int k);
    void *arg;
    /* Sleeping: the helpers wait for a new generation (go), the caller
     * for the last part (fin, when it sleeps: waiting). Under mu alone. */
    pthread_mutex_t mu;
    pthread_cond_t go, fin;
    uint32_t gen;
    int waiting, quit;
};

/// Starts @p nthreads - 1 helper threads for @p sp (with the caller's
/// signal mask); sp->th then splits the steps of @p min balls or more
/// over up to @p nthreads parts. @p nthreads is 2 .. SPLIT_MAX.
/// @return 0, or -1 when no thread can be made (nothing to stop); fewer
/// helpers than asked when some cannot be made (sp->th.nthreads says).
int split_start(struct split *sp, int nthreads, size_t min);

/// Ends the helpers (between steps) and frees what split_start made.
void split_stop(struct split *sp);

/// The processors this process may run on (sched_getaffinity where there
/// is one, else the processors online; at least 1, at most SPLIT_MAX).
int split_cpus(void);

/// The count of balls from which a step splits: the environment's
/// SPRINGBALL_SPLIT (digits alone; 0: never, returned as SIZE_MAX), else
/// @p dflt.
size_t split_min_env(size_t dflt);

#endif
