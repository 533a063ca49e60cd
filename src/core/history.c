/*
 * history.c - checkpoints in a ring, and replay.
 */
#include "history.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Slot of the i-th checkpoint, oldest first. */
static int slot(const struct history *h, int i)
{
    assert(h->cap > 0 && i >= 0 && i <= h->cap);
    return (h->first + i) % h->cap;
}

size_t history_per(size_t n)
{
    size_t cnt = n ? n : 1;
    /* sim_assign's block of 8 arrays of doubles and its two of ids, each
     * 64-byte aligned by mem.c (up to 64 bytes lost and a header of the
     * allocator's), the slot's struct sim and its position. */
    return cnt * (8 * sizeof(double) + 2 * sizeof(uint32_t)) + 2 * (64 + 16) +
           sizeof(struct sim) + sizeof(long long);
}

void history_size(size_t n, size_t budget, long long depth, int *cap,
                  long long *every)
{
    size_t cnt = n ? n : 1;
    size_t c = budget / history_per(n);
    if (c > HISTORY_CAP_MAX)
        c = HISTORY_CAP_MAX;
    if (c < 4)
        c = 4;
    *cap = (int)c;
    /* A step back replays at most every - 1 steps: about HISTORY_REPLAY
     * ball-steps, so a small scene's checkpoints lie further apart and the
     * budget reaches further back; and (cap - 2) * every >= depth leaves
     * one slot spare for a change. */
    long long e = (long long)((HISTORY_REPLAY + cnt - 1) / cnt);
    long long d = (depth + (long long)c - 3) / ((long long)c - 2);
    if (d > e)
        e = d;
    *every = e < 1 ? 1 : e;
}

long long history_reach(const struct history *h)
{
    return h->count > 0 ? h->high - h->pos[h->first] : 0;
}

int history_full(const struct history *h)
{
    return h->count > 0 && h->pos[h->first] > 0;
}

void history_free(struct history *h)
{
    if (h->cp)
        for (int i = 0; i < h->cap; i++)
            sim_free(&h->cp[i]);
    free(h->cp);
    free(h->pos);
    memset(h, 0, sizeof *h);
}

int history_init(struct history *h, const struct sim *s, int cap, long long every)
{
    memset(h, 0, sizeof *h);
    if (cap < 2)
        cap = 2;
    h->cp = calloc((size_t)cap, sizeof *h->cp);
    h->pos = calloc((size_t)cap, sizeof *h->pos);
    h->cap = cap;
    h->every = every < 1 ? 1 : every;
    if (!h->cp || !h->pos || history_changed(h, s)) {
        history_free(h);
        return -1;
    }
    return 0;
}

/* Copies s into slot i, allocating the slot on first use (and again when
 * an edit changed the number of balls). */
static int store(struct history *h, int i, const struct sim *s)
{
    if (sim_assign(&h->cp[i], s))
        return -1;
    h->pos[i] = h->now;
    return 0;
}

/* Appends a checkpoint of s at the current position. */
static int push(struct history *h, const struct sim *s)
{
    int i;
    if (h->count == h->cap) {
        i = h->first; /* drop the oldest */
        h->first = slot(h, 1);
        h->count--;
    } else {
        i = slot(h, h->count);
    }
    if (store(h, i, s))
        return -1;
    h->count++;
    return 0;
}

int history_changed(struct history *h, const struct sim *s)
{
    if (h->count > 0) {
        int last = slot(h, h->count - 1);
        if (h->pos[last] == h->now) {
            if (store(h, last, s))
                return -1;
            return 0;
        }
    }
    return push(h, s);
}

int history_stepped(struct history *h, const struct sim *s)
{
    h->now++;
    assert(h->count > 0); /* history_init pushed the start */
    if (h->now > h->high)
        h->high = h->now;
    int last = slot(h, h->count - 1);
    if (h->now - h->pos[last] >= h->every)
        return push(h, s);
    return 0;
}

int history_back(struct history *h, struct sim *s)
{
    if (history_depth(h) <= 0)
        return -1;
    long long target = h->now - 1;
    /* Forget checkpoints after the target: that future is being undone. */
    while (h->count > 1 && h->pos[slot(h, h->count - 1)] > target)
        h->count--;
    int last = slot(h, h->count - 1);
    if (sim_assign(s, &h->cp[last]))
        return -1;
    for (long long p = h->pos[last]; p < target; p++)
        if (sim_step(s)) { /* no memory for the grid: stop where the state is */
            h->now = p;
            return -2;
        }
    h->now = target;
    return 0;
}

long long history_depth(const struct history *h)
{
    if (h->count == 0)
        return 0;
    return h->now - h->pos[h->first];
}
