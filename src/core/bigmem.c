/*
 * bigmem.c - mem.h's blocks on huge pages (see bigmem.h).
 */
#define _DEFAULT_SOURCE
#include "bigmem.h"
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
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
    if (!(how & MEM_FLAT))
        madvise(start, len, MADV_HUGEPAGE);
#else
    (void)how;
#endif
    return start;
}

static void big_release(void *p, size_t size)
{
    if (size < BIG_MIN) {
        free(p);
        return;
    }
    munmap(p, (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

#endif

int bigmem_install(void)
{
#ifndef BIGMEM_OFF
    static const struct mem_hooks h = {big_alloc, big_release, BIG_MIN}; /* mappings: zeroed */
    mem_set_hooks(&h);
    return 1;
#else
    return 0;
#endif
}
