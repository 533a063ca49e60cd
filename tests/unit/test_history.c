/*
 * test_history.c - stepping back: back N then forward N gives the same
 * bits, a user change in between is restored exactly, the depth is at
 * least what history_size promises, and memory stays within its ring.
 */
#include "history.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <string.h>

static struct sim break_sim(void)
{
    struct scene sc;
    struct scene_error err;
    struct sim s;
    memset(&s, 0, sizeof s);
    if (scene_parse(&sc, scene_builtin, strlen(scene_builtin), &err) == 0) {
        scene_to_sim(&sc, &s);
        scene_free(&sc);
    }
    return s;
}

/* Bit for bit: positions, velocities, time, steps, parameters. */
static int same(const struct sim *a, const struct sim *b)
{
    size_t sz = a->n * sizeof(double);
    return a->n == b->n && a->t == b->t && a->steps == b->steps &&
           a->p.k == b->p.k && a->p.dt == b->p.dt &&
           !memcmp(a->x, b->x, sz) && !memcmp(a->y, b->y, sz) &&
           !memcmp(a->vx, b->vx, sz) && !memcmp(a->vy, b->vy, sz);
}

static struct sim clone(const struct sim *s)
{
    struct sim c;
    sim_init(&c, s->n, &s->p);
    sim_copy(&c, s);
    return c;
}

static void step(struct history *h, struct sim *s, int n)
{
    for (int i = 0; i < n; i++) {
        sim_step(s);
        history_stepped(h, s);
    }
}

static void test_back_forward(int cap, long long every)
{
    struct sim s = break_sim();
    CHECK(s.n == 16);
    struct history h;
    CHECK(history_init(&h, &s, cap, every) == 0);
    struct sim start = clone(&s);
    step(&h, &s, 450); /* into the collision with the rack */
    struct sim mid = clone(&s);
    step(&h, &s, 550);
    struct sim end = clone(&s);
    CHECK(s.steps == 1000);
    CHECK(history_depth(&h) == 1000);
    /* Back 550: exactly the state at step 450. */
    int ok = 1;
    for (int i = 0; i < 550; i++)
        ok &= history_back(&h, &s) == 0;
    CHECK(ok);
    CHECK(same(&s, &mid));
    /* Back to the start, and no further (s unchanged). */
    for (int i = 0; i < 450; i++)
        ok &= history_back(&h, &s) == 0;
    CHECK(ok);
    CHECK(same(&s, &start));
    CHECK(history_back(&h, &s) == -1);
    CHECK(same(&s, &start));
    /* Forward 1000 again: the same bits as the first time. */
    step(&h, &s, 1000);
    CHECK(same(&s, &end));
    /* The test can fail: one step more is a different state. */
    sim_step(&s);
    CHECK(!same(&s, &end));
    sim_free(&start);
    sim_free(&mid);
    sim_free(&end);
    sim_free(&s);
    history_free(&h);
}

static void test_changes(void)
{
    struct sim s = break_sim();
    struct history h;
    CHECK(history_init(&h, &s, 16, 100) == 0);
    step(&h, &s, 250);
    struct sim before = clone(&s); /* at 250, before the change */
    /* A change between regular checkpoints: k up, and a kick. */
    s.p.k *= 1.25;
    s.vy[0] += 3; /* the cue ball */
    history_changed(&h, &s);
    struct sim after = clone(&s);
    step(&h, &s, 300);
    struct sim later = clone(&s);
    /* Back to just after the change: replay with the new k and kick. */
    for (int i = 0; i < 300; i++)
        history_back(&h, &s);
    CHECK(same(&s, &after));
    /* Forward again: the same future. */
    step(&h, &s, 300);
    CHECK(same(&s, &later));
    /* Back across the change: at 249 then 250 by replay, which is the
     * state before the change (the change is undone, not replayed). */
    for (int i = 0; i < 301; i++)
        history_back(&h, &s);
    CHECK(s.steps == 249);
    sim_step(&s);
    history_stepped(&h, &s);
    CHECK(same(&s, &before));
    /* Changes at the same position replace each other: one slot. */
    int count = h.count;
    s.p.dt *= 0.8;
    history_changed(&h, &s);
    s.p.dt *= 0.8;
    history_changed(&h, &s);
    CHECK(h.count == count + 1);
    sim_free(&before);
    sim_free(&after);
    sim_free(&later);
    sim_free(&s);
    history_free(&h);
}

static void test_bounded(void)
{
    /* 4 slots every 10 steps: after 1000 steps, only the last 30 to 40
     * can be undone, and going past them fails without harm. */
    struct sim s = break_sim();
    struct history h;
    CHECK(history_init(&h, &s, 4, 10) == 0);
    step(&h, &s, 1000);
    long long d = history_depth(&h);
    CHECK(d >= 30 && d <= 40);
    CHECK(h.count == 4);
    for (long long i = 0; i < d; i++)
        history_back(&h, &s);
    CHECK(s.steps == 1000 - d);
    CHECK(history_back(&h, &s) == -1);
    CHECK(s.steps == 1000 - d);
    sim_free(&s);
    history_free(&h);

    /* Sizes (issue 42.2): by the budget, no cap of 1000 steps. Two balls
     * reach back more than ten minutes at 20 t/s and dt 0.05 (400 steps a
     * second: 240000 steps), the break's 16 more than five (120000); a step
     * back replays at most about HISTORY_REPLAY ball-steps; 10^4 balls stay
     * within 64 MB and still reach 1000 steps back. */
    int cap;
    long long every;
    history_size(2, 64u << 20, 1000, &cap, &every);
    CHECK((long long)(cap - 2) * every >= 240000);
    CHECK(every * 2 <= HISTORY_REPLAY);
    CHECK((size_t)cap * history_per(2) <= (64u << 20));
    history_size(16, 64u << 20, 1000, &cap, &every);
    CHECK((long long)(cap - 2) * every >= 120000);
    CHECK(every * 16 <= HISTORY_REPLAY);
    history_size(16, 1u << 20, 1000, &cap, &every); /* 1 MB: less far */
    CHECK((size_t)cap * history_per(16) <= (1u << 20));
    CHECK((cap - 2) * every >= 1000 && (long long)(cap - 2) * every < 120000);
    history_size(10000, 64u << 20, 1000, &cap, &every);
    CHECK((size_t)cap * 10000 * 64 <= (64u << 20));
    CHECK((cap - 2) * every >= 1000);
    CHECK(every > 1);
    history_size(100000000, 64u << 20, 1000, &cap, &every);
    CHECK(cap == 4 && (cap - 2) * every >= 1000);
}

void test_history(void)
{
    test_back_forward(1002, 1); /* a checkpoint every step */
    test_back_forward(12, 100); /* replay up to 99 steps */
    test_back_forward(200, 7);
    test_changes();
    test_bounded();
}
