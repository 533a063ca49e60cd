/*
 * test_phet.c - what PhET's Collision Lab has, through the session:
 * reverse (V) retraces the run, in the spring engine the very steps it
 * took (to rounding), in the event engine the same path.
 */
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void forward(struct session *ss, int n)
{
    for (int i = 0; i < n; i++)
        session_forward(ss);
}

/* Largest distance of a ball from where it is in @p b (scene order), and
 * of its velocity from @p sign times b's. */
static double apart_x(const struct sim *a, const struct sim *b)
{
    double d = 0;
    for (size_t k = 0; k < a->n; k++) {
        size_t i = sim_slot(a, k), j = sim_slot(b, k);
        d = fmax(d, hypot(a->x[i] - b->x[j], a->y[i] - b->y[j]));
    }
    return d;
}

static double apart_v(const struct sim *a, const struct sim *b, double sign)
{
    double d = 0;
    for (size_t k = 0; k < a->n; k++) {
        size_t i = sim_slot(a, k), j = sim_slot(b, k);
        d = fmax(d, hypot(a->vx[i] - sign * b->vx[j], a->vy[i] - sign * b->vy[j]));
    }
    return d;
}

/* n steps of the break, V, n steps: back at the rack, the cue ball going
 * back along its way; V again sets it off as it started. */
static void reverse_break(int n, double tol)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    struct sim start = {0};
    CHECK(sim_assign(&start, &ss.s) == 0);
    forward(&ss, n);
    CHECK(apart_x(&ss.s, &start) > 100);
    double ke = session_diag(&ss)->ke;
    CHECK(session_reverse(&ss) == 0);
    CHECK_NEAR(session_diag(&ss)->ke, ke, 1e-9 * ke); /* the energy shown stays */
    forward(&ss, n);
    CHECK_NEAR(apart_x(&ss.s, &start), 0, tol);
    /* the stored velocity is -v_{-1/2}: with no force at the start, -v_0 */
    CHECK_NEAR(apart_v(&ss.s, &start, -1), 0, tol);
    CHECK(session_reverse(&ss) == 0);
    CHECK_NEAR(apart_v(&ss.s, &start, 1), 0, tol);
    sim_free(&start);
    session_free(&ss);
}

/* V is an edit: ',' undoes it (the state before, to the bit) and '.'
 * redoes it. */
static void reverse_undo(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    forward(&ss, 760); /* in the rack */
    struct sim before = {0};
    CHECK(sim_assign(&before, &ss.s) == 0);
    CHECK(session_reverse(&ss) == 0);
    struct sim after = {0};
    CHECK(sim_assign(&after, &ss.s) == 0);
    CHECK(apart_v(&after, &before, -1) > 0); /* a force acts: not just -v */
    CHECK(session_back(&ss) == 0);
    CHECK(apart_v(&ss.s, &before, 1) == 0 && apart_x(&ss.s, &before) == 0);
    CHECK(session_forward(&ss) == 1);
    CHECK(apart_v(&ss.s, &after, 1) == 0 && apart_x(&ss.s, &after) == 0);
    sim_free(&before);
    sim_free(&after);
    session_free(&ss);
}

/* A few balls apart (the rack's simultaneous contacts have no reverse
 * in hard balls: the order of the pairs decides). */
static const char *few = "table 800 400\nball 200 180 10 0 1 15\nball 450 200 0 0 3 25\n"
                         "ball 600 100 -3 4 2 20\nball 100 300 6 -2 1 10\n";

/* The event engine: to t = 50 through collisions and walls, V, 50 more:
 * where it started. */
static void reverse_event(void)
{
    struct session ss;
    CHECK(test_start(&ss, few) == 0);
    struct sim start = {0};
    CHECK(sim_assign(&start, &ss.s) == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_advance(&ss, 50, NULL, NULL) == 1);
    CHECK(apart_x(&ss.s, &start) > 100);
    CHECK(session_reverse(&ss) == 0);
    CHECK(session_advance(&ss, 100, NULL, NULL) == 1);
    CHECK_NEAR(apart_x(&ss.s, &start), 0, 1e-9); /* 3.2e-13 measured */
    CHECK_NEAR(apart_v(&ss.s, &start, -1), 0, 1e-6);
    CHECK(session_back(&ss) == 0); /* the move to t = 100 */
    CHECK(session_back(&ss) == 0); /* V undone */
    CHECK(ss.s.t == 50);
    sim_free(&start);
    session_free(&ss);
}

/* The observed velocity of scene ball @p b. */
static void v_of(struct session *ss, size_t b, double *vx, double *vy)
{
    const struct sim *o = session_observed(ss);
    *vx = o->vx[sim_slot(o, b)];
    *vy = o->vy[sim_slot(o, b)];
}

static int v_is(struct session *ss, size_t b, double vx, double vy)
{
    double x, y;
    v_of(ss, b, &x, &y);
    return x == vx && y == vy;
}

/* One undo per action: an edit then a kick at one step come back one a
 * press, then the step; '.' redoes them in order. A kick at t = 0 is
 * undone too, and is no part of the scene that reset returns to. */
static void undo_each(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    forward(&ss, 5);
    CHECK(session_set_velocity(&ss, 0, 3, 1) == 0);
    CHECK(session_kick(&ss, 0, 0, 7) == 0);
    CHECK(v_is(&ss, 0, 0, 7));
    CHECK(session_back(&ss) == 0);
    CHECK(v_is(&ss, 0, 3, 1) && ss.s.t == 0.25);
    CHECK(session_back(&ss) == 0);
    CHECK(v_is(&ss, 0, 10, 0) && ss.s.t == 0.25);
    CHECK(session_back(&ss) == 0);
    CHECK(ss.s.t == 0.2);
    forward(&ss, 2);
    CHECK(v_is(&ss, 0, 3, 1) && ss.s.t == 0.25);
    forward(&ss, 1);
    CHECK(v_is(&ss, 0, 0, 7) && ss.s.t == 0.25);
    forward(&ss, 1);
    CHECK(ss.s.steps == 6);
    session_free(&ss);

    /* at t = 0 */
    CHECK(test_start(&ss, scene_builtin) == 0);
    CHECK(session_kick(&ss, 0, 0, 7) == 0);
    CHECK(session_depth(&ss) == 1);
    CHECK(session_back(&ss) == 0);
    CHECK(v_is(&ss, 0, 10, 0) && ss.s.t == 0);
    CHECK(session_back(&ss) == -1);
    CHECK(session_forward(&ss) == 1); /* the kick redone */
    CHECK(v_is(&ss, 0, 0, 7) && ss.s.t == 0);
    CHECK(session_reset(&ss) == 0);
    CHECK(v_is(&ss, 0, 10, 0));
    /* an edit at t = 0 is the scene, a kick after it is not */
    CHECK(session_set_velocity(&ss, 0, 3, 1) == 0);
    CHECK(session_kick(&ss, 0, 0, 7) == 0);
    CHECK(session_reset(&ss) == 0);
    CHECK(v_is(&ss, 0, 3, 1));
    session_free(&ss);
}

/* Sticky (restitution 0): 1 kg at 10 onto 3 kg at rest, head-on: both
 * move on at 2.5, momentum 10 kept, 50 - 12.5 = 37.5 dissipated; grid
 * and O(n^2) agree (40 balls take the grid). */
static void sticky_pair(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nrestitution 0\n"
                        "ball 200 200 10 0 1 15\nball 450 200 0 0 3 25\n") == 0);
    int ok = 1;
    for (int i = 0; i < 1000; i++) /* to t = 50: they meet at t = 21 */
        ok &= sim_step(&s) == 0;
    CHECK(ok);
    size_t a = sim_slot(&s, 0), b = sim_slot(&s, 1);
    CHECK(s.vx[a] == 2.5 && s.vx[b] == 2.5 && s.vy[a] == 0 && s.vy[b] == 0);
    CHECK_NEAR(s.dissipated, 37.5, 1e-12);
    struct sim_diag d;
    CHECK(sim_diag(&s, &d) == 0);
    CHECK_NEAR(d.ke + d.dissipated, 50, 1e-12);
    CHECK(s.x[b] - s.x[a] < 40); /* together */
    /* stuck, overlapping: a contact, though no force acts (it counted 0) */
    CHECK(s.x[b] - s.x[a] < 15 + 25 && d.contacts == 1);
    /* on to the right wall (elastic for sticky balls): they come back as one */
    for (int i = 0; i < 4000; i++)
        sim_step(&s);
    CHECK(s.vx[a] < 0 && s.vx[b] < 0);
    CHECK_NEAR(s.vx[a], s.vx[b], 1e-9);
    /* the pair's bounce: the wall turns the front ball a step at a time and
     * the back one sticks to it again each step: a little is lost (3 %) */
    CHECK_NEAR(s.vx[a], -2.5, 0.1);
    printf("  sticky pair off a spring wall at dt %g: %.6g after, 2.5 before\n", s.p.dt, -s.vx[a]);
    CHECK(sim_diag(&s, &d) == 0);
    CHECK_NEAR(d.px, 4 * s.vx[a], 1e-9);
    sim_free(&s);

    /* The budget off the wall (issue 43.11): what the pair loses there is
     * booked, e + dissipated = 50 to the step's O(dt^2) (the impulses
     * booked what the observed energy loses; the booking of the stored
     * velocities alone left out half: 49.650 at dt 0.05, an O(dt) error).
     * Measured once the pair has left the wall (no force: observed and
     * stored the same) at three dt: 5.4e-3, 2.3e-3, 4.0e-4; one elastic
     * ball off the same wall is itself off by 4.9e-2 of 50 at dt 0.05. */
    for (int h = 0; h < 3; h++) {
        double dt = 0.05 / (1 << h);
        char text[256];
        snprintf(text, sizeof text, "table 800 400\nrestitution 0\ndt %g\n"
                 "ball 200 200 10 0 1 15\nball 300 200 0 0 3 15\n", dt);
        CHECK(test_load(&s, text) == 0);
        long steps = lround(225 / dt);
        for (long i = 0; i < steps; i++)
            sim_step(&s);
        CHECK(sim_diag(&s, &d) == 0);
        a = sim_slot(&s, 0);
        CHECK(s.vx[a] < 0 && d.contacts == 1); /* back from the wall, as one */
        double res = d.e + d.dissipated - 50;
        printf("  sticky pair off the wall at dt %g: e + dissipated - 50 = %.3g\n", dt, res);
        CHECK(fabs(res) < 10 * dt * dt);
        sim_free(&s);
    }

    /* a third ball joins: three at 10/5 = 2 (1 + 3 + 1 kg, p 10) */
    CHECK(test_load(&s, "table 2000 400\nrestitution 0\n"
                        "ball 200 200 10 0 1 15\nball 450 200 0 0 3 25\nball 700 200 0 0 1 15\n") == 0);
    for (int i = 0; i < 3000; i++)
        sim_step(&s);
    for (size_t k = 0; k < 3; k++)
        CHECK_NEAR(s.vx[sim_slot(&s, k)], 2, 1e-12);
    sim_free(&s);

    /* the grid and the O(n^2) loop: the same bits */
    const char *row = "table 800 400\nrestitution 0\nrandom 40 10 1 5 3\n";
    struct sim g, o;
    CHECK(test_load(&g, row) == 0 && test_load(&o, row) == 0);
    for (int i = 0; i < 500; i++) {
        sim_step(&g);
        sim_step_brute(&o);
    }
    int same = g.dissipated == o.dissipated && g.dissipated > 0;
    for (size_t k = 0; k < g.n; k++) {
        size_t i = sim_slot(&g, k), j = sim_slot(&o, k);
        same &= g.x[i] == o.x[j] && g.vx[i] == o.vx[j] && g.vy[i] == o.vy[j];
    }
    CHECK(same);
    sim_free(&g);
    sim_free(&o);
}

/* 1-D: 1 kg at 10 onto 3 kg at rest in rows 20 apart (they overlap, off
 * centre): the contact acts along x, as head-on: -5 and 5 (to the step's
 * O(dt^2) in the energy), vy stays 0 and every ball keeps its row; a kick
 * and a typed velocity keep to x, a ball moved keeps its row; ',' turns
 * it off again; the event engine refuses it. */
static void line_mode(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nball 200 180 10 3 1 15\nball 450 200 0 0 3 25\n") == 0);
    CHECK(session_set_line(&ss, 1) == 0 && ss.s.p.line == 1);
    CHECK(v_is(&ss, 0, 10, 0)); /* vy dropped */
    forward(&ss, 1200); /* t = 60: met at t = 21 */
    size_t a = sim_slot(&ss.s, 0), b = sim_slot(&ss.s, 1);
    CHECK(ss.s.y[a] == 180 && ss.s.y[b] == 200 && ss.s.vy[a] == 0 && ss.s.vy[b] == 0);
    CHECK_NEAR(ss.s.vx[a], -5, 0.01);
    CHECK_NEAR(ss.s.vx[b], 5, 0.01);
    CHECK_NEAR(ss.s.vx[a] + 3 * ss.s.vx[b], 10, 1e-12);
    CHECK(session_kick(&ss, 0, 3, 4) == 0 && v_is(&ss, 0, 3, 0));
    CHECK(session_set_velocity(&ss, 1, -2, 7) == 0 && v_is(&ss, 1, -2, 0));
    CHECK(session_move(&ss, 0, 300, 50, 0) == 0);
    a = sim_slot(&ss.s, 0);
    CHECK(ss.s.x[a] == 300 && ss.s.y[a] == 180);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == -1 && ss.msg != NULL);
    CHECK(session_set_line(&ss, 0) == 0 && ss.s.p.line == 0);
    session_free(&ss);

    /* sticky in 1-D, rows apart: along x, both at 2.5, rows kept */
    CHECK(test_start(&ss, "table 800 400\nrestitution 0\n"
                          "ball 200 180 10 0 1 15\nball 450 200 0 0 3 25\n") == 0);
    CHECK(session_set_line(&ss, 1) == 0);
    forward(&ss, 1000);
    a = sim_slot(&ss.s, 0);
    b = sim_slot(&ss.s, 1);
    CHECK(ss.s.vx[a] == 2.5 && ss.s.vx[b] == 2.5 && ss.s.vy[a] == 0 && ss.s.vy[b] == 0);
    CHECK(ss.s.y[a] == 180 && ss.s.y[b] == 200);
    session_free(&ss);
}

void test_phet(void)
{
    sticky_pair();
    line_mode();
    undo_each();
    reverse_break(400, 1e-12); /* no contact yet: 0 measured */
    reverse_break(1500, 1e-9); /* through the break: 5.5e-12 measured */
    reverse_undo();
    reverse_event();
}
