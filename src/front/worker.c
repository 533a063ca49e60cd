/*
 * worker.c - the terminal's second thread: one advance of the session
 * beside the drawing, its spring steps split with a helper (split.h) from
 * WORKER_SPLIT_MIN balls on. See worker.h.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "worker.h"

#include "app.h"
#include "session.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

static int more_time(void *arg)
{
    const struct worker *w = arg;
    return app_now() <= w->until;
}

/* The balls from which a job splits its steps (0: never). */
static size_t split_min(void)
{
    const char *e = getenv("SPRINGBALL_SPLIT");
    if (!e || !*e)
        return WORKER_SPLIT_MIN;
    /* digits alone: strtoull would take " -5" as 2^64 - 5 */
    for (const char *c = e; *c; c++)
        if (*c < '0' || *c > '9')
            return WORKER_SPLIT_MIN;
    errno = 0;
    unsigned long long v = strtoull(e, NULL, 10);
    return errno || v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

static void *run(void *arg)
{
    struct worker *w = arg;
    struct sim *s = &w->ss->s;
    const size_t min = split_min();
    /* the helper only when a step will split (sim.h): the Hooke
     * rectangle's; made from this thread, so its signals are blocked too */
    const int split = min > 0 && (session_caps(w->ss) & SESSION_CAP_STEPS) && s->n >= min &&
                      sim_hooke_rect(&s->p) &&
                      split_start(&w->split, min) == 0;
    if (split)
        s->threads = &w->split.th;
    w->rc = session_advance(w->ss, w->target, more_time, w);
    if (split) {
        w->ss->s.threads = NULL;
        split_stop(&w->split);
    }
    return NULL;
}

int worker_go(struct worker *w, struct session *ss, double target, double until)
{
    if (w->busy)
        return -1;
    w->ss = ss;
    w->target = target;
    w->until = until;
    w->rc = 2;
    /* The thread starts with every signal blocked: SIGINT, SIGWINCH... wake
     * the caller's wait, not the stepping. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&w->th, NULL, run, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return -1;
    w->busy = 1;
    return 0;
}

int worker_join(struct worker *w)
{
    if (!w->busy)
        return 2;
    pthread_join(w->th, NULL);
    w->busy = 0;
    return w->rc;
}
