/*
 * test_mem.c - the engines' allocator: alignment, sizes, the hooks (a
 * block goes back to the allocator that gave it), and bigmem's blocks on
 * huge-page boundaries with an engine on them giving the same run.
 */
#define _POSIX_C_SOURCE 200809L
#include "bigmem.h"
#include "event.h"
#include "event_impl.h"
#include "mem.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* a hundredth of a second */
static void nap(void)
{
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
}

static int given, taken;
static size_t given_size, taken_size;

static void *count_alloc(size_t size, unsigned how)
{
    (void)how;
    given++;
    given_size = size;
    return aligned_alloc(64, size);
}

static void count_release(void *p, size_t size)
{
    taken++;
    taken_size = size;
    free(p);
}

/* An allocator whose blocks hold 0x55 bytes, and the use it was asked for;
 * it says its blocks of 8 KiB and more come zeroed (they do not, so a
 * MEM_ZERO block from it shows whether mem.c believed it). */
static unsigned dirty_how;
static void *dirty_alloc(size_t size, unsigned how)
{
    dirty_how = how;
    void *p = aligned_alloc(64, size);
    if (p)
        memset(p, 0x55, size);
    return p;
}

static void dirty_release(void *p, size_t size)
{
    (void)size;
    free(p);
}

/* Whether @p n bytes at @p p are all @p byte. */
static int all_bytes(const unsigned char *p, size_t n, unsigned char byte)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != byte)
            return 0;
    return 1;
}

/* A run of the event engine on a 70 000-ball gas (records past 4 MiB, so
 * mapped by bigmem once installed): its final velocities' sum of squares,
 * bit for bit. With @p settle, 20 000 events in parts, the engine waited
 * for at one event a hundredth of a second until its records moved to
 * huge pages (mem_settle), or for 10 s; *moved: whether they did. */
static double run_gas_as(int settle, int *moved)
{
    const char *text = "table 900 900\nrandom 70000 1 1 1 7\n";
    struct scene sc;
    struct scene_error err;
    struct sim s;
    struct event ev;
    double sum = -1;
    if (scene_parse(&sc, text, strlen(text), &err) || scene_to_sim(&sc, &s))
        return sum;
    if (event_init(&ev, &s, NULL, NULL) == EVENT_OK) {
        long long left = 20000;
        if (settle) {
            left -= event_step(&ev, 10000);
            for (int w = 0; w < 1000 && ev.in->settling; w++) {
                nap();
                left -= event_step(&ev, 1);
            }
            *moved = ev.in->settling == 0;
        }
        event_step(&ev, left);
        sum = 0;
        for (size_t i = 0; i < s.n; i++)
            sum += ev.vx[i] * ev.vx[i] + 3 * ev.vy[i] * ev.vy[i];
        event_free(&ev);
    }
    sim_free(&s);
    scene_free(&sc);
    return sum;
}

static double run_gas(void)
{
    return run_gas_as(0, NULL);
}

void test_mem(void)
{
    /* malloc's: aligned, writable, nothing for 0 or an overflowing size */
    unsigned char *p = mem_alloc(100);
    CHECK(p && (uintptr_t)p % 64 == 0);
    if (p)
        memset(p, 7, 100);
    mem_free(p);
    mem_free(NULL);
    CHECK(mem_alloc(0) == NULL);
    CHECK(mem_alloc(SIZE_MAX) == NULL);
    CHECK(mem_alloc(SIZE_MAX - 64) == NULL);

    /* a chosen allocator gets the size with the header, and gets the block
     * back even after another is chosen */
    struct mem_hooks h = {count_alloc, count_release, 0, NULL, NULL};
    mem_set_hooks(&h);
    p = mem_alloc(1000);
    CHECK(given == 1 && given_size >= 1000 + 64 && given_size % 64 == 0);
    CHECK(p && (uintptr_t)p % 64 == 0);
    mem_set_hooks(NULL);
    mem_free(p);
    CHECK(taken == 1 && taken_size == given_size);
    p = mem_alloc(1000);
    CHECK(given == 1); /* malloc's again */
    mem_free(p);
    CHECK(taken == 1);

    /* MEM_ZERO: zero bytes, written by mem.c unless the allocator gives
     * them zeroed (from zeroed_from bytes, header included); the use
     * reaches the allocator as MEM_FLAT or 0, MEM_ZERO being mem.c's */
    struct mem_hooks d = {dirty_alloc, dirty_release, 8192, NULL, NULL};
    mem_set_hooks(&d);
    p = mem_alloc_as(1000, MEM_ZERO | MEM_FLAT);
    CHECK(p && all_bytes(p, 1000, 0) && dirty_how == MEM_FLAT);
    mem_free(p);
    p = mem_alloc_as(1000, MEM_FLAT); /* not asked zero: as given */
    CHECK(p && all_bytes(p, 1000, 0x55));
    mem_free(p);
    p = mem_alloc_as(10000, MEM_ZERO); /* "given zeroed": not written */
    CHECK(p && all_bytes(p, 10000, 0x55) && dirty_how == 0);
    mem_free(p);
    mem_set_hooks(NULL);
    p = mem_alloc_as(3000, MEM_ZERO);
    CHECK(p && all_bytes(p, 3000, 0));
    mem_free(p);

    /* bigmem: large blocks start a header before a 2 MiB boundary, are
     * whole, and an engine on them runs as on malloc's */
    double plain = run_gas();
    int mapped = bigmem_install();
    size_t big = (size_t)5 << 20;
    p = mem_alloc(big);
    CHECK(p != NULL);
    if (mapped)
        CHECK(p && (uintptr_t)(p - 64) % ((size_t)2 << 20) == 0);
    if (p) {
        memset(p, 1, big);
        CHECK(p[0] == 1 && p[big - 1] == 1);
    }
    mem_free(p);
    unsigned char *small = mem_alloc(3000);
    CHECK(small && (uintptr_t)small % 64 == 0);
    mem_free(small);
    /* zeroed blocks, mapped (on small pages: MEM_FLAT) or from malloc */
    p = mem_alloc_as(big, MEM_ZERO | MEM_FLAT);
    CHECK(p && all_bytes(p, big, 0));
    if (mapped)
        CHECK(p && (uintptr_t)(p - 64) % ((size_t)2 << 20) == 0);
    mem_free(p);
    p = mem_alloc_as(3000, MEM_ZERO);
    CHECK(p && all_bytes(p, 3000, 0));
    mem_free(p);
    double huge = run_gas();
    /* MEM_LATE (small pages first), mem_settle: the bytes the same after
     * the move to huge pages, at the same address; nothing pending after
     * it; a block freed while its huge pages are made, and blocks too
     * small to move, are fine */
    p = mem_alloc_as(big, MEM_LATE);
    CHECK(p != NULL);
    if (p) {
        for (size_t i = 0; i < big; i++)
            p[i] = (unsigned char)(i * 131 >> 3);
        mem_settle(p, big);
        int st = 0;
        for (int w = 0; w < 1000 && (st = mem_settle_poll(p)) == 0; w++)
            nap();
        CHECK(st == 1 || st == -1); /* -1: no huge pages here */
        CHECK(mem_settle_poll(p) == -1);
        int same = 1;
        for (size_t i = 0; i < big; i++)
            same &= p[i] == (unsigned char)(i * 131 >> 3);
        CHECK(same);
    }
    mem_free(p);
    p = mem_alloc_as(big, MEM_LATE | MEM_ZERO);
    CHECK(p && all_bytes(p, big, 0));
    mem_settle(p, big);
    mem_free(p); /* pending: given up */
    small = mem_alloc_as(3000, MEM_LATE);
    mem_settle(small, 3000);
    CHECK(small && mem_settle_poll(small) == -1);
    mem_free(small);
    int moved = 0;
    double settled = run_gas_as(1, &moved);
    if (mapped)
        CHECK(moved);
    mem_set_hooks(NULL);
    CHECK(plain >= 0 && memcmp(&plain, &huge, sizeof plain) == 0);
    CHECK(memcmp(&plain, &settled, sizeof plain) == 0);
}
