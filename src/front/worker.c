/*
 * worker.c - the terminal's second thread: one advance of the session
 * beside the drawing, its spring steps split with helpers (split.h) from
 * WORKER_SPLIT_MIN balls on. See worker.h.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "worker.h"

#include "app.h"
#include "session.h"

#include <signal.h>

static int more_time(void *arg)
{
    const struct worker *w = arg;
    return app_now() <= w->until;
}

static void *run(void *arg)
{
    struct worker *w = arg;
    const struct sim *s = session_state(w->ss);
    const size_t min = split_min_env(WORKER_SPLIT_MIN);
    /* the helpers only when a step will split (sim.h): the Hooke
     * rectangle's; made once, from this thread, so that their signals
     * are blocked too */
    const int split = w->threads >= 2 && (session_caps(w->ss) & SESSION_CAP_STEPS) &&
                      s->n >= min && sim_hooke_rect(&s->p);
    if (split && w->split_on == 0)
        w->split_on = split_start(&w->split, w->threads, min) == 0 ? 1 : -1;
    if (split && w->split_on == 1)
        session_lend_threads(w->ss, &w->split.th);
    w->rc = session_advance(w->ss, w->target, more_time, w);
    session_lend_threads(w->ss, NULL);
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

void worker_free(struct worker *w)
{
    if (w->split_on == 1)
        split_stop(&w->split);
    w->split_on = 0;
}
