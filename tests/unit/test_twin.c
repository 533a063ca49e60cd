/*
 * test_twin.c - both engines on one scene: time-locked to the same double
 * after every step, forward and back (a rebuild gives the very state a
 * direct run gives), the classic difference of the cradle (hard balls pass
 * the momentum to the last ball, springs share it out), a scene the event
 * engine refuses, a budget of events.
 */
#include "scene.h"
#include "test.h"
#include "twin.h"

#include <string.h>

static const char *cradle =
    "table 800 400\n"
    "ball 400 200 0 0 1 15\nball 430 200 0 0 1 15\nball 460 200 0 0 1 15\n"
    "ball 490 200 0 0 1 15\nball 520 200 0 0 1 15\nball 150 200 10 0 1 15\n";

static void test_locked(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nball 250 200 10 0 1 20\nball 550 200 -10 0 1 20\n") == 0);
    struct twin tw;
    CHECK(twin_init(&tw, &s) == 0 && tw.ok && tw.why == NULL);
    int locked = 1;
    for (int i = 0; i < 400; i++) {
        sim_step(&s);
        locked &= twin_sync(&tw, s.t, 0) == 1;
        locked &= tw.ev.t == s.t && tw.hard.t == s.t;
    }
    CHECK(locked);
    /* both exchanged velocities: exactly in the event engine */
    CHECK(tw.hard.vx[sim_slot(&tw.hard, 0)] == -10 && tw.hard.vx[sim_slot(&tw.hard, 1)] == 10);
    CHECK_NEAR(s.vx[sim_slot(&s, 0)], -10, 0.05);
    twin_free(&tw);
    sim_free(&s);
}

static void test_back(void)
{
    struct sim s;
    CHECK(test_load(&s, cradle) == 0);
    struct twin a, b;
    CHECK(twin_init(&a, &s) == 0 && twin_init(&b, &s) == 0);
    CHECK(twin_sync(&a, 30, 0) == 1);
    CHECK(twin_sync(&a, 27.5, 0) == 1);
    CHECK(a.rebuilds == 1 && a.hard.t == 27.5);
    CHECK(twin_sync(&b, 27.5, 0) == 1 && b.rebuilds == 0);
    int same = 1;
    for (size_t i = 0; i < s.n; i++)
        same &= a.hard.x[i] == b.hard.x[i] && a.hard.y[i] == b.hard.y[i] &&
                a.hard.vx[i] == b.hard.vx[i] && a.hard.vy[i] == b.hard.vy[i];
    CHECK(same);
    /* a budget of one event stops short */
    CHECK(twin_sync(&b, 100, 1) == 0 && b.ev.t < 100);
    CHECK(twin_sync(&b, 100, 0) == 1 && b.ev.t == 100);
    twin_free(&a);
    twin_free(&b);
    sim_free(&s);
}

static void test_cradle(void)
{
    struct sim s;
    CHECK(test_load(&s, cradle) == 0);
    struct twin tw;
    CHECK(twin_init(&tw, &s) == 0);
    while (s.t < 40)
        sim_step(&s);
    CHECK(twin_sync(&tw, s.t, 0) == 1);
    /* hard balls: the far ball (scene ball 4) leaves with the whole
     * velocity, the others are at rest */
    int rest = 0, moving = 0;
    for (size_t b = 0; b < 6; b++) {
        double v = tw.hard.vx[sim_slot(&tw.hard, b)];
        rest += b != 4 && v == 0;
    }
    CHECK(rest == 5);
    CHECK_NEAR(tw.hard.vx[sim_slot(&tw.hard, 4)], 10, 1e-12);
    /* springs: the momentum is shared out, several balls move */
    for (size_t b = 0; b < 6; b++)
        moving += fabs(s.vx[sim_slot(&s, b)]) > 0.1;
    CHECK(moving >= 3);
    twin_free(&tw);
    sim_free(&s);
}

static void test_refused(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\ngravity 100 5\nrandom 20 6 1 0.3 4\n") == 0);
    struct twin tw;
    CHECK(twin_init(&tw, &s) == 0);
    CHECK(!tw.ok && strcmp(tw.why, "gravity") == 0);
    CHECK(twin_sync(&tw, 1, 0) == -1);
    /* without gravity it runs */
    s.p.gravity = 0;
    CHECK(twin_restart(&tw, &s) == 0 && tw.ok);
    CHECK(twin_sync(&tw, 1, 0) == 1);
    twin_free(&tw);
    sim_free(&s);
}

void test_twin(void)
{
    test_locked();
    test_back();
    test_cradle();
    test_refused();
}
