/*
 * split.c - the helper threads of a split step. See split.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include "split.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The parts of the posted run, claimed one at a time in order by whichever
 * thread asks first: when a helper is slow to wake (a busy machine) the
 * others run its parts, and the run waits for no one. The parts are
 * independent (sim.h), so who runs which changes no bit. A claim is a
 * compare-and-swap of the run's word, no lock: the generation (high 32
 * bits), the count of parts (next 16) and the next part (low 16), all in
 * one word, so that a helper late from an earlier run can claim nothing
 * of a later one, nor read one run's count with another's parts.
 */
#define W_GEN(w) ((uint32_t)((w) >> 32))
#define W_PARTS(w) ((uint32_t)((w) >> 16) & 0xffffu)
#define W_NEXT(w) ((uint32_t)(w) & 0xffffu)

static void claim_parts(struct split *sp, uint32_t gen)
{
    uint64_t w = atomic_load(&sp->claim);
    for (;;) {
        if (W_GEN(w) != gen || W_NEXT(w) >= W_PARTS(w))
            return;
        if (!atomic_compare_exchange_weak(&sp->claim, &w, w + 1))
            continue; /* w reloaded */
        /* claimed: part and arg are this run's until its parts all end */
        sp->part(sp->arg, (int)W_NEXT(w));
        if (atomic_fetch_add(&sp->done, 1) + 1 == (int)W_PARTS(w)) {
            pthread_mutex_lock(&sp->mu);
            if (sp->waiting)
                pthread_cond_signal(&sp->fin);
            pthread_mutex_unlock(&sp->mu);
            return;
        }
        w = atomic_load(&sp->claim);
    }
}

/* struct sim_threads's run: posts the parts, takes its share, waits. */
static void run(void *ctx, int nparts, void (*part)(void *arg, int k), void *arg)
{
    struct split *sp = ctx;
    if (nparts <= 0)
        return;
    if (nparts > SPLIT_MAX) { /* not asked by the core: run the rest here */
        for (int k = SPLIT_MAX; k < nparts; k++)
            part(arg, k);
        nparts = SPLIT_MAX;
    }
    sp->part = part;
    sp->arg = arg;
    atomic_store(&sp->done, 0);
    pthread_mutex_lock(&sp->mu);
    const uint32_t gen = ++sp->gen;
    atomic_store(&sp->claim, (uint64_t)gen << 32 | (uint64_t)nparts << 16);
    if (nparts > 1)
        pthread_cond_broadcast(&sp->go);
    pthread_mutex_unlock(&sp->mu);
    claim_parts(sp, gen);
    /* A short spin (the last parts are usually ending), then sleep. */
    for (int i = 0; i < 2000 && atomic_load(&sp->done) < nparts; i++)
        ;
    if (atomic_load(&sp->done) < nparts) {
        pthread_mutex_lock(&sp->mu);
        sp->waiting = 1;
        while (atomic_load(&sp->done) < nparts)
            pthread_cond_wait(&sp->fin, &sp->mu);
        sp->waiting = 0;
        pthread_mutex_unlock(&sp->mu);
    }
}

static void *helper(void *arg)
{
    struct split *sp = arg;
    uint32_t seen = 0;
    pthread_mutex_lock(&sp->mu);
    for (;;) {
        while (sp->gen == seen && !sp->quit)
            pthread_cond_wait(&sp->go, &sp->mu);
        if (sp->quit)
            break;
        seen = sp->gen;
        pthread_mutex_unlock(&sp->mu);
        claim_parts(sp, seen);
        pthread_mutex_lock(&sp->mu);
    }
    pthread_mutex_unlock(&sp->mu);
    return NULL;
}

int split_start(struct split *sp, int nthreads, size_t min)
{
    if (nthreads < 2)
        return -1;
    if (nthreads > SPLIT_MAX)
        nthreads = SPLIT_MAX;
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
    atomic_store(&sp->claim, 0);
    atomic_store(&sp->done, 0);
    sp->waiting = sp->quit = 0;
    sp->part = NULL;
    sp->arg = NULL;
    sp->nhelpers = 0;
    while (sp->nhelpers < nthreads - 1 &&
           pthread_create(&sp->helper[sp->nhelpers], NULL, helper, sp) == 0)
        sp->nhelpers++;
    if (sp->nhelpers == 0) {
        pthread_cond_destroy(&sp->fin);
        pthread_cond_destroy(&sp->go);
        pthread_mutex_destroy(&sp->mu);
        return -1;
    }
    sp->th = (struct sim_threads){run, sp, sp->nhelpers + 1, min, 0, 0};
    return 0;
}

void split_stop(struct split *sp)
{
    pthread_mutex_lock(&sp->mu);
    sp->quit = 1;
    pthread_cond_broadcast(&sp->go);
    pthread_mutex_unlock(&sp->mu);
    for (int i = 0; i < sp->nhelpers; i++)
        pthread_join(sp->helper[i], NULL);
    pthread_cond_destroy(&sp->fin);
    pthread_cond_destroy(&sp->go);
    pthread_mutex_destroy(&sp->mu);
}

int split_cpus(void)
{
    long n = 0;
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > SPLIT_MAX ? SPLIT_MAX : (int)n;
}

size_t split_min_env(size_t dflt)
{
    const char *e = getenv("SPRINGBALL_SPLIT");
    if (!e || !*e)
        return dflt;
    /* digits alone: strtoull would take " -5" as 2^64 - 5 */
    for (const char *c = e; *c; c++)
        if (*c < '0' || *c > '9')
            return dflt;
    errno = 0;
    unsigned long long v = strtoull(e, NULL, 10);
    if (v == 0)
        return SIZE_MAX;
    return errno || v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}
