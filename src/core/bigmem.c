/*
 * bigmem.c - mem.h's blocks on huge pages (see bigmem.h).
 */
#define _GNU_SOURCE /* mremap */
#include "bigmem.h"
#include "mem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BIG_MIN ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIGMEM_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define BIGMEM_OFF 1
#endif

#ifndef BIGMEM_OFF /* under ASan the engines keep malloc: nothing here is used */
/* A mapping of size + HUGE_PAGE, trimmed to start on a huge page, marked
 * for huge pages unless MEM_FLAT; small blocks from malloc. The header
 * mem.c writes first holds what release gets back: the start and size of
 * the trimmed mapping. */
static void *big_alloc(size_t size, unsigned how)
{
    if (size < BIG_MIN)
        return aligned_alloc(64, size); /* a multiple of 64 (see mem.h) */
    if (size > SIZE_MAX - 2 * HUGE_PAGE)
        return NULL;
    size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    unsigned char *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uintptr_t a = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    unsigned char *start = (unsigned char *)a;
    if (start > m)
        munmap(m, (size_t)(start - m));
    munmap(start + len, (size_t)(m + HUGE_PAGE - start)); /* the tail: never empty */
#ifdef MADV_HUGEPAGE
    if (!(how & (MEM_FLAT | MEM_LATE)))
        madvise(start, len, MADV_HUGEPAGE);
#else
    (void)how;
#endif
    return start;
}

/*
 * Settling (mem_settle): a MEM_LATE block starts on small pages, which a
 * fresh process gets several times cheaper than huge ones on a virtual
 * machine whose host took its free memory back (see bigmem.h); a helper
 * thread maps a twin of it on huge pages and has the kernel hand them out
 * (MADV_POPULATE_WRITE, Linux 5.14), and the owner's next poll copies the
 * block into the twin and moves the twin's pages to the block's addresses
 * (mremap: the page tables move, huge pages intact). The helper takes the
 * jobs in turn and ends when none is left.
 */
#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23
#endif
#if defined(MADV_POPULATE_WRITE) && defined(MREMAP_FIXED) && defined(MADV_HUGEPAGE)
#define BIG_SETTLE 1
enum { QUEUED, WORKING, READY, FAILED, CANCELLED };
enum { SETTLE_MAX = 16 };
struct settle_job {
    int used, state;
    unsigned char *p, *twin; /* the block's mapping (whole huge pages), its twin */
    size_t len;
};
static struct {
    pthread_mutex_t lock;
    int running;
    struct settle_job job[SETTLE_MAX];
} sq = {PTHREAD_MUTEX_INITIALIZER, 0, {{0, 0, NULL, NULL, 0}}};

/* len bytes on huge pages, handed out: a mapping that starts on a huge
 * page, or NULL. */
static unsigned char *twin_map(size_t len)
{
    unsigned char *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uintptr_t a = ((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    unsigned char *start = (unsigned char *)a;
    if (start > m)
        munmap(m, (size_t)(start - m));
    munmap(start + len, (size_t)(m + HUGE_PAGE - start));
    if (madvise(start, len, MADV_HUGEPAGE) || madvise(start, len, MADV_POPULATE_WRITE)) {
        munmap(start, len); /* an old kernel: the block stays on small pages */
        return NULL;
    }
    return start;
}

static void *settle_run(void *arg)
{
    (void)arg;
    for (;;) {
        struct settle_job *j = NULL;
        pthread_mutex_lock(&sq.lock);
        for (int i = 0; i < SETTLE_MAX && !j; i++)
            if (sq.job[i].used && sq.job[i].state == QUEUED)
                j = &sq.job[i];
        if (!j) {
            sq.running = 0;
            pthread_mutex_unlock(&sq.lock);
            return NULL;
        }
        j->state = WORKING;
        size_t len = j->len;
        pthread_mutex_unlock(&sq.lock);
        unsigned char *t = twin_map(len);
        pthread_mutex_lock(&sq.lock);
        if (j->state == CANCELLED) { /* the block was freed meanwhile */
            if (t)
                munmap(t, len);
            j->used = 0;
        } else {
            j->twin = t;
            j->state = t ? READY : FAILED;
        }
        pthread_mutex_unlock(&sq.lock);
    }
}

/* The job of the block at p (the lock held), or NULL. */
static struct settle_job *job_of(void *p)
{
    for (int i = 0; i < SETTLE_MAX; i++)
        if (sq.job[i].used && sq.job[i].p == p)
            return &sq.job[i];
    return NULL;
}

static void big_settle(void *p, size_t size)
{
    if (size < BIG_MIN)
        return;
    pthread_mutex_lock(&sq.lock);
    struct settle_job *j = job_of(p);
    for (int i = 0; i < SETTLE_MAX && !j; i++)
        if (!sq.job[i].used) {
            j = &sq.job[i];
            *j = (struct settle_job){1, QUEUED, p, NULL,
                                     (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)};
        }
    if (j && !sq.running) {
        pthread_attr_t at;
        pthread_t t;
        if (pthread_attr_init(&at) == 0) {
            pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
            pthread_attr_setstacksize(&at, (size_t)64 << 10);
            sq.running = pthread_create(&t, &at, settle_run, NULL) == 0;
            pthread_attr_destroy(&at);
        }
        if (!sq.running)
            j->used = 0;
    }
    pthread_mutex_unlock(&sq.lock);
}

static int big_settle_poll(void *p)
{
    pthread_mutex_lock(&sq.lock);
    struct settle_job *j = job_of(p);
    int st = j ? j->state : FAILED;
    struct settle_job job = j ? *j : (struct settle_job){0};
    if (j && (st == READY || st == FAILED))
        j->used = 0;
    pthread_mutex_unlock(&sq.lock);
    if (st == QUEUED || st == WORKING)
        return 0;
    if (st != READY)
        return -1;
    memcpy(job.twin, job.p, job.len);
    if (mremap(job.twin, job.len, job.len, MREMAP_MAYMOVE | MREMAP_FIXED, job.p) == MAP_FAILED) {
        munmap(job.twin, job.len); /* the block stays where it is */
        return -1;
    }
    return 1;
}

/* A block freed: its job given up (the helper unmaps a twin it is making). */
static void settle_forget(void *p)
{
    pthread_mutex_lock(&sq.lock);
    struct settle_job *j = job_of(p);
    if (j && j->state == WORKING)
        j->state = CANCELLED;
    else if (j) {
        if (j->state == READY)
            munmap(j->twin, j->len);
        j->used = 0;
    }
    pthread_mutex_unlock(&sq.lock);
}
#endif

static void big_release(void *p, size_t size)
{
    if (size < BIG_MIN) {
        free(p);
        return;
    }
#ifdef BIG_SETTLE
    settle_forget(p);
#endif
    munmap(p, (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

#endif

int bigmem_install(void)
{
#ifndef BIGMEM_OFF
#ifdef BIG_SETTLE
    static const struct mem_hooks h = {big_alloc, big_release, BIG_MIN, /* mappings: zeroed */
                                       big_settle, big_settle_poll};
#else
    static const struct mem_hooks h = {big_alloc, big_release, BIG_MIN, NULL, NULL};
#endif
    mem_set_hooks(&h);
    return 1;
#else
    return 0;
#endif
}
