/*
 * mem.c - the engines' large arrays through a chosen allocator. Each block
 * carries its size and its allocator in a 64-byte header before it, so
 * that mem_free needs neither and a block always goes back to the
 * allocator that gave it.
 */
#include "mem.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MEM_HEAD 64

struct mem_head {
    size_t size;                       /* of the whole block, header included */
    void (*release)(void *p, size_t size); /* gets the header's address back */
};

static void *plain_alloc(size_t size, unsigned how)
{
    (void)how;
    return aligned_alloc(64, size); /* a multiple of 64 (mem_alloc's) */
}

static void plain_release(void *p, size_t size)
{
    (void)size;
    free(p);
}

static struct mem_hooks hooks = {plain_alloc, plain_release, 0, NULL, NULL};

void mem_set_hooks(const struct mem_hooks *h)
{
    if (h && h->alloc && h->release)
        hooks = *h;
    else
        hooks = (struct mem_hooks){plain_alloc, plain_release, 0, NULL, NULL};
}

/* A block of @p size bytes; *zeroed: whether the allocator gave it zeroed. */
static void *take(size_t size, unsigned how, int *zeroed)
{
    if (size == 0 || size > SIZE_MAX - 2 * MEM_HEAD)
        return NULL;
    size_t whole = MEM_HEAD + ((size + 63) & ~(size_t)63);
    unsigned char *base = hooks.alloc(whole, how & (MEM_FLAT | MEM_LATE));
    if (!base)
        return NULL;
    assert(((uintptr_t)base & 63) == 0); /* the hooks hand out 64-byte blocks */
    *zeroed = hooks.zeroed_from && whole >= hooks.zeroed_from;
    struct mem_head *h = (struct mem_head *)(void *)base;
    h->size = whole;
    h->release = hooks.release;
    return base + MEM_HEAD;
}

void *mem_alloc(size_t size)
{
    int zeroed;
    return take(size, 0, &zeroed);
}

void *mem_alloc_as(size_t size, unsigned how)
{
    int zeroed = 0;
    void *p = take(size, how, &zeroed);
    if (p && (how & MEM_ZERO) && !zeroed)
        memset(p, 0, size);
    return p;
}

static struct mem_head *head_of(void *p)
{
    return (struct mem_head *)(void *)((unsigned char *)p - MEM_HEAD);
}

void *mem_realloc(void *p, size_t size)
{
    if (!p)
        return mem_alloc(size);
    size_t old = head_of(p)->size - MEM_HEAD;
    void *q = mem_alloc(size);
    if (!q)
        return NULL;
    memcpy(q, p, old < size ? old : size);
    mem_free(p);
    return q;
}

/* Whether block p came from the hooks now set, which can settle it. */
static int settles(void *p)
{
    return p && head_of(p)->release == hooks.release && hooks.settle && hooks.settle_poll;
}

void mem_settle(void *p, size_t size)
{
    if (size && settles(p))
        hooks.settle(head_of(p), size + MEM_HEAD);
}

int mem_settle_poll(void *p)
{
    return settles(p) ? hooks.settle_poll(head_of(p)) : -1;
}

void mem_free(void *p)
{
    if (!p)
        return;
    struct mem_head *h = head_of(p);
    h->release(h, h->size);
}
