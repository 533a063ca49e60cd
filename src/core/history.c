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

void history_size(size_t n, size_t budget, long long depth, int *cap,
                  long long *every)
{
    /* sim_copy moves 8 arrays of n doubles. */
    size_t per = (n ? n : 1) * 8 * sizeof(double) + sizeof(struct sim);
    size_t c = budget / per;
    if (c > (size_t)depth + 2)
        c = (size_t)depth + 2;
    if (c < 4)
        c = 4;
    *cap = (int)c;
    /* (cap - 2) * every >= depth leaves one slot spare for a change. */
    long long e = (depth + (long long)c - 3) / ((long long)c - 2);
    *every = e < 1 ? 1 : e;
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
