/*
 * split.c - the helper thread of a split step. See split.h.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "split.h"

/*
 * The parts of the posted step, claimed one at a time by whichever thread
 * asks first: when the helper is slow to wake (a busy machine) the
 * stepping thread runs both, and the step waits for no one. The parts are
 * independent (sim.h), so who runs which changes no bit.
 */
static void claim_parts(struct split *sp)
{
    for (;;) {
        pthread_mutex_lock(&sp->mu);
        int k = sp->next < 2 ? sp->next++ : -1;
        void (*part)(void *, int) = sp->part;
        void *arg = sp->arg;
        pthread_mutex_unlock(&sp->mu);
        if (k < 0)
            return;
        part(arg, k);
        pthread_mutex_lock(&sp->mu);
        if (++sp->done == 2)
            pthread_cond_signal(&sp->fin);
        pthread_mutex_unlock(&sp->mu);
    }
}

/* struct sim_threads's both: posts the step, takes its share, waits. */
static void both(void *ctx, void (*part)(void *arg, int k), void *arg)
{
    struct split *sp = ctx;
    pthread_mutex_lock(&sp->mu);
    sp->part = part;
    sp->arg = arg;
    sp->next = sp->done = 0;
    sp->gen++;
    pthread_cond_signal(&sp->go);
    pthread_mutex_unlock(&sp->mu);
    claim_parts(sp);
    pthread_mutex_lock(&sp->mu);
    while (sp->done < 2)
        pthread_cond_wait(&sp->fin, &sp->mu);
    pthread_mutex_unlock(&sp->mu);
}

static void *helper(void *arg)
{
    struct split *sp = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&sp->mu);
    for (;;) {
        while (sp->gen == seen && !sp->quit)
            pthread_cond_wait(&sp->go, &sp->mu);
        if (sp->quit)
            break;
        seen = sp->gen;
        pthread_mutex_unlock(&sp->mu);
        claim_parts(sp);
        pthread_mutex_lock(&sp->mu);
    }
    pthread_mutex_unlock(&sp->mu);
    return NULL;
}

int split_start(struct split *sp, size_t min)
{
    if (pthread_mutex_init(&sp->mu, NULL))
        return -1;
    if (pthread_cond_init(&sp->go, NULL)) {
        pthread_mutex_destroy(&sp->mu);
        return -1;
    }
    if (pthread_cond_init(&sp->fin, NULL)) {
        pthread_cond_destroy(&sp->go);
        pthread_mutex_destroy(&sp->mu);
        return -1;
    }
    sp->gen = 0;
    sp->next = sp->done = 2;
    sp->quit = 0;
    sp->part = NULL;
    sp->arg = NULL;
    if (pthread_create(&sp->helper, NULL, helper, sp)) {
        pthread_cond_destroy(&sp->fin);
        pthread_cond_destroy(&sp->go);
        pthread_mutex_destroy(&sp->mu);
        return -1;
    }
    sp->th = (struct sim_threads){both, sp, min};
    return 0;
}

void split_stop(struct split *sp)
{
    pthread_mutex_lock(&sp->mu);
    sp->quit = 1;
    pthread_cond_signal(&sp->go);
    pthread_mutex_unlock(&sp->mu);
    pthread_join(sp->helper, NULL);
    pthread_cond_destroy(&sp->fin);
    pthread_cond_destroy(&sp->go);
    pthread_mutex_destroy(&sp->mu);
}
