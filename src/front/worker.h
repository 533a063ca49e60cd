/*
 * worker.h - the terminal's second thread: one advance of the session
 * (session_advance toward a time, bounded by a wall clock) run beside the
 * drawing, then joined. The front end's alone (POSIX threads): the core
 * knows nothing of it and stays single-threaded. While a job runs the
 * session is the worker's: the caller reads and changes nothing of it
 * (it draws from a struct shown, shown.h) until worker_join.
 */
#ifndef WORKER_H
#define WORKER_H

#include "split.h"

#include <pthread.h>

struct session;

/// From this many balls on a job splits each spring step over the
/// threads of --threads (sim.h, struct sim_threads): the worker's and
/// helpers made at the first job that splits and kept until worker_free
/// (split.h). The environment's SPRINGBALL_SPLIT (a count; 0: never)
/// overrides it.
#ifndef WORKER_SPLIT_MIN
#define WORKER_SPLIT_MIN 50000
#endif

struct worker {
    pthread_t th;
    int busy;              ///< a job runs (started, not joined)
    struct session *ss;
    double target, until;  ///< the advance's time; the wall clock it stops at
    int rc;                ///< session_advance's result
    int threads;           ///< the threads a step may split over (the caller's
                           ///< to set before the first job; < 2: none)
    struct split split;    ///< the steps' helpers, from WORKER_SPLIT_MIN balls on
    int split_on;          ///< split holds helpers (1), could not make them (-1)
};

/// Starts the advance of @p ss toward simulated time @p target on a thread
/// of its own, asked every few steps whether app_now() is still at or
/// before @p until; signals are left to the caller's thread.
/// @return 0, or -1 when no thread can be made (nothing started: the
/// caller advances itself).
int worker_go(struct worker *w, struct session *ss, double target, double until);

/// Waits for the job to end. @return its session_advance result (1 the
/// target reached, 0 stopped by the clock, -1 refused or not finite: see
/// session.h), or 2 when no job ran.
int worker_join(struct worker *w);

/// Ends the helpers a job made (no job may run: worker_join first).
void worker_free(struct worker *w);

#endif
