/*
 * split.h - a second thread for the core's split step (sim.h, struct
 * sim_threads): a helper thread that waits for the parts of a step and
 * takes whichever part is still free, so that a spring step of many balls
 * runs on two processors, to the same bits as on one. POSIX threads: the
 * core makes none; the terminal's worker (worker.h) and the benchmark
 * driver lend it to the sim they step.
 */
#ifndef SPLIT_H
#define SPLIT_H

#include "sim.h"

#include <pthread.h>

struct split {
    struct sim_threads th; ///< to set as sim.threads while the helper runs
    /* The parts of the step posted (gen counts the steps), claimed in turn
     * by whichever thread asks first (next), done when both ended (done);
     * quit ends the helper. All under mu. */
    pthread_t helper;
    pthread_mutex_t mu;
    pthread_cond_t go, fin;
    unsigned long gen;
    int next, done, quit;
    void (*part)(void *arg, int k);
    void *arg;
};

/// Starts the helper thread of @p sp (with the caller's signal mask);
/// sp->th then splits the steps of @p min balls or more.
/// @return 0, or -1 when no thread can be made (nothing to stop).
int split_start(struct split *sp, size_t min);

/// Ends the helper (between steps) and frees what split_start made.
void split_stop(struct split *sp);

#endif
