/*
 * test_session.c - the session without a terminal: the timeline replays a
 * kick (and k, dt) exactly after stepping back, a new change cuts the
 * future, reset starts a new timeline, the event mode does the same with
 * its kept states, the energy shown is that of a synchronised state, live
 * parameters stay bounded and finite, and the samples follow the state.
 */
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "test.h"

#include <float.h>
#include <string.h>

/* Bit for bit, in scene order (slots may differ). */
static int same(const struct session *a, const struct sim *b)
{
    const struct sim *s = &a->s;
    if (s->n != b->n || s->t != b->t || s->p.k != b->p.k || s->p.dt != b->p.dt)
        return 0;
    for (size_t k = 0; k < s->n; k++) {
        size_t i = sim_slot(s, (uint32_t)k), j = sim_slot(b, (uint32_t)k);
        if (memcmp(&s->x[i], &b->x[j], sizeof(double)) || memcmp(&s->y[i], &b->y[j], sizeof(double)) ||
            memcmp(&s->vx[i], &b->vx[j], sizeof(double)) || memcmp(&s->vy[i], &b->vy[j], sizeof(double)))
            return 0;
    }
    return 1;
}

/* A kick, a k and a dt change stepped back over come back on the way
 * forward, exactly; the energy reference follows the position. */
static void test_replay(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    double e_start = session_diag(&ss)->e_ref;
    test_forward(&ss, 100);
    CHECK(session_kick(&ss, 0, 0, 12) == 0); /* the cue ball straight up */
    double e_kick = session_diag(&ss)->e_ref;
    CHECK(e_kick != e_start);
    test_forward(&ss, 50);
    CHECK(session_set_k(&ss, 6.25) == 0);
    test_forward(&ss, 30);
    CHECK(session_set_dt(&ss, 0.04) == 0);
    test_forward(&ss, 200);
    struct sim end = test_clone(&ss.s);
    CHECK(ss.pos == 381); /* the kick is a move of its own */

    CHECK(test_backward(&ss, 300)); /* to position 81, before all three */
    CHECK(ss.pos == 81);
    CHECK(ss.s.p.k == 5 && ss.s.p.dt == 0.05);
    CHECK(ss.s.vy[session_slot(&ss, 0)] == 0);
    CHECK(session_diag(&ss)->e_ref == e_start);
    test_forward(&ss, 20); /* position 101: the kick is back */
    CHECK(ss.s.vy[session_slot(&ss, 0)] != 0);
    CHECK(session_diag(&ss)->e_ref == e_kick);
    test_forward(&ss, 280);
    CHECK(same(&ss, &end));
    CHECK(ss.s.p.k == 6.25 && ss.s.p.dt == 0.04);

    /* Running forward (advance) replays as well. */
    CHECK(test_backward(&ss, 300));
    CHECK(session_advance(&ss, end.t, NULL, NULL) == 1);
    CHECK(same(&ss, &end));

    /* A new change cuts the future: the k and dt changes are gone. */
    CHECK(test_backward(&ss, 250)); /* position 130: after the kick, before k */
    CHECK(session_kick(&ss, 0, 3, 0) == 0);
    test_forward(&ss, 250);
    CHECK(ss.s.p.k == 5 && ss.s.p.dt == 0.05);
    CHECK(!same(&ss, &end));
    sim_free(&end);
    session_free(&ss);
}

/* After reset, ',' does not step into the old run. */
static void test_reset(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    test_forward(&ss, 40);
    session_set_k(&ss, 7);
    CHECK(session_reset(&ss) == 0); /* the balls back, k kept (issue 42.4) */
    CHECK(ss.s.t == 0 && ss.s.p.k == 7 && ss.pos == 0 && ss.s.x[0] == ss.start.x[0]);
    CHECK(session_depth(&ss) == 0);
    CHECK(session_back(&ss) == -1);
    CHECK(ss.s.t == 0);
    test_forward(&ss, 3);
    CHECK(test_backward(&ss, 3));
    CHECK(session_back(&ss) == -1);
    CHECK(ss.s.t == 0);
    session_free(&ss);
}

/* Issue 42.2: the head-on pair run 3000 steps (t 150, past the collision
 * at 13) steps back to t 0 exactly at the default budget; with the least
 * budget the break stops at its limit and says how many steps it kept. */
static void test_budget(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nball 200 200 10 0 1 20\nball 600 200 -10 0 1 20\n") == 0);
    test_forward(&ss, 3000);
    CHECK(test_backward(&ss, 3000));
    CHECK(ss.s.t == 0 && ss.s.x[0] == 200 && ss.s.vx[0] == 10);
    CHECK(session_back(&ss) == -1 && ss.note != SESSION_NOTE_HISTORY_LIMIT);
    session_free(&ss);
    CHECK(test_start(&ss, scene_builtin) == 0);
    CHECK(session_set_budget(&ss, 0) == 0); /* the least: SESSION_BUDGET_MIN */
    test_forward(&ss, 3000);
    long long d = session_depth(&ss);
    CHECK(d >= 1000 && d < 3000);
    CHECK(test_backward(&ss, (int)d));
    CHECK(session_back(&ss) == -1 && ss.note == SESSION_NOTE_HISTORY_LIMIT);
    CHECK(ss.note_ball[0] == (size_t)d);
    session_free(&ss);
}

/* The event engine: back and forward over a kick give the same states;
 * a switch of engine is a new timeline. */
static void test_event_mode(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    test_forward(&ss, 10);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_depth(&ss) == 0);
    CHECK(session_back(&ss) == -1);
    double t0 = ss.s.t;
    CHECK(session_advance(&ss, t0 + 25, NULL, NULL) == 1);
    CHECK(ss.s.t == t0 + 25);
    test_forward(&ss, 3);
    CHECK(session_kick(&ss, 0, -5, 5) == 0);
    test_forward(&ss, 5);
    CHECK(session_advance(&ss, ss.s.t + 10, NULL, NULL) == 1);
    struct sim end = test_clone(&ss.s);
    long long ev_end = session_diag(&ss)->events;
    long long depth = session_depth(&ss);
    CHECK(depth == 11); /* the kick is a move of its own */
    CHECK(test_backward(&ss, 11));
    CHECK(ss.s.t == t0);
    CHECK(session_back(&ss) == -1);
    test_forward(&ss, 5); /* through the kick */
    CHECK(ss.s.vx[session_slot(&ss, 0)] == -5);
    CHECK(session_advance(&ss, end.t, NULL, NULL) == 1);
    CHECK(same(&ss, &end));
    CHECK(session_diag(&ss)->events == ev_end);
    /* A new kick cuts the kept future. */
    CHECK(test_backward(&ss, 3));
    CHECK(session_kick(&ss, 0, 1, 0) == 0);
    CHECK(session_depth(&ss) == 9);
    test_forward(&ss, 1);
    CHECK(ss.s.t != end.t || !same(&ss, &end));
    /* Back to springs: a new timeline. */
    CHECK(session_set_engine(&ss, SESSION_SPRING) == 0);
    CHECK(session_depth(&ss) == 0);
    sim_free(&end);
    session_free(&ss);

    /* Open space has no event engine: refused with a reason. */
    CHECK(test_start(&ss, "table 100 100\ngravity 1\nball 50 50 0 0 1 1\n") == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == -1);
    CHECK(ss.msg != NULL && ss.engine == SESSION_SPRING);
    session_free(&ss);
}

/* Head-on at the default dt: the energy of synchronised velocities moves
 * well under 1% through the contact; that of the stored (half-step)
 * velocities moves by several percent. */
static void test_sync_energy(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nball 250 200 10 0 1 20 red\n"
                     "ball 550 200 -10 0 1 20 blue\n") == 0);
    double e0 = session_diag(&ss)->e, worst = 0, worst_half = 0;
    for (int i = 0; i < 400; i++) {
        session_forward(&ss);
        const struct session_diag *d = session_diag(&ss);
        struct sim_diag sd;
        sim_diag(&ss.s, &sd);
        worst = fmax(worst, fabs(d->e - e0) / e0);
        worst_half = fmax(worst_half, fabs(sd.e - e0) / e0);
    }
    CHECK(worst < 0.008); /* 0.63% at the deepest overlap */
    CHECK(worst_half > 0.05);
    session_free(&ss);
}

/* A caller's budget: yes twice, then no. */
static int three(void *arg)
{
    int *n = arg;
    return ++*n < 3;
}

/* k, dt: pressing D or K thousands of times stays finite and bounded;
 * NaN or infinity is never taken. */
static void test_bounds(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    for (int i = 0; i < 4000; i++) {
        session_set_dt(&ss, ss.s.p.dt * 1.25);
        session_set_k(&ss, ss.s.p.k * 1.25);
    }
    CHECK(ss.s.p.dt <= 0.05 * SESSION_PARAM_RANGE && isfinite(ss.s.p.dt));
    CHECK(ss.s.p.k <= 5 * SESSION_PARAM_RANGE);
    for (int i = 0; i < 8000; i++)
        session_set_dt(&ss, ss.s.p.dt / 1.25);
    CHECK(ss.s.p.dt >= 0.05 / SESSION_PARAM_RANGE && ss.s.p.dt > 0);
    session_set_dt(&ss, NAN);
    CHECK(ss.s.p.dt > 0 && isfinite(ss.s.p.dt));
    session_set_k(&ss, INFINITY);
    CHECK(isfinite(ss.s.p.k));
    CHECK(session_kick(&ss, 0, NAN, 0) == -1);
    CHECK(session_kick(&ss, 99, 1, 0) == -1);
    /* An advance to an infinite time is bounded by the caller's budget. */
    session_reset(&ss);
    int calls = 0;
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_advance(&ss, INFINITY, three, &calls) == 0);
    CHECK(calls == 3 && isfinite(ss.s.t) && ss.s.t > 0);
    session_free(&ss);
}

/* Samples: none while sampling is off; on, one a step (never one a call
 * of session_diag), rewound by a step back, cleared by reset. */
static void test_samples(void)
{
    struct session ss;
    CHECK(test_start(&ss, scene_builtin) == 0);
    test_forward(&ss, 3);
    CHECK(session_columns(&ss) == 0);
    session_sampling(&ss, 1);
    CHECK(session_columns(&ss) == 1 && session_column(&ss, 0)->t0 == ss.s.t);
    for (int i = 0; i < 10; i++) {
        session_forward(&ss);
        session_diag(&ss);
        session_diag(&ss); /* the same state: no new sample */
    }
    CHECK(session_columns(&ss) == 11); /* now and 10 steps */
    CHECK(session_column(&ss, 10)->t1 == ss.s.t);
    CHECK(test_backward(&ss, 4));
    CHECK(session_columns(&ss) == 7);
    session_reset(&ss);
    CHECK(session_columns(&ss) == 1 && session_column(&ss, 0)->t0 == 0);
    session_free(&ss);
}

/* The head-on contact in one advance (a frame that catches up 280 steps):
 * every step is in the envelope, the dip of KE and the hump of PE, and E
 * within 1% of 100 all through (the observed state's). Over 5000 steps
 * the columns merge, memory stays SESSION_COLS columns, and the least KE
 * of the envelope is the least of all the steps, to the bit. */
static void test_envelope(void)
{
    static const char headon[] = "table 800 400\nball 250 200 10 0 1 20\n"
                                 "ball 550 200 -10 0 1 20\n";
    struct session ss, tw;
    CHECK(test_start(&ss, headon) == 0 && test_start(&tw, headon) == 0);
    session_sampling(&ss, 1);
    CHECK(session_advance(&ss, 14, NULL, NULL) == 1);
    CHECK(session_columns(&ss) == 281);
    double kmin = INFINITY, pmax = 0, edev = 0;
    for (size_t i = 0; i < session_columns(&ss); i++) {
        const struct session_col *c = session_column(&ss, i);
        kmin = fmin(kmin, c->lo[SESSION_CH_KE]);
        pmax = fmax(pmax, c->hi[SESSION_CH_PE]);
        edev = fmax(edev, fmax(c->hi[SESSION_CH_E] - 100, 100 - c->lo[SESSION_CH_E]));
    }
    CHECK(kmin < 1 && pmax > 90 && edev < 1);
    CHECK(session_advance(&ss, 250, NULL, NULL) == 1);
    double least = INFINITY;
    while (tw.s.steps < ss.s.steps) {
        session_forward(&tw);
        least = fmin(least, session_diag(&tw)->ke);
    }
    long long count = 0;
    kmin = INFINITY;
    for (size_t i = 0; i < session_columns(&ss); i++) {
        const struct session_col *c = session_column(&ss, i);
        count += c->count;
        kmin = fmin(kmin, c->lo[SESSION_CH_KE]);
    }
    CHECK(session_columns(&ss) <= SESSION_COLS && ss.per > 1);
    CHECK(count == ss.s.steps + 1);
    CHECK(kmin == least);
    session_free(&tw);
    session_free(&ss);
    /* the event engine: every event of a small scene */
    CHECK(test_start(&ss, scene_builtin) == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    session_sampling(&ss, 1);
    CHECK(session_advance(&ss, 40, NULL, NULL) == 1);
    long long events = session_diag(&ss)->events;
    count = 0;
    for (size_t i = 0; i < session_columns(&ss); i++)
        count += session_column(&ss, i)->count;
    if (!(events > 20 && count >= events + 1))
        printf("  envelope: %lld events, %lld samples\n", events, count);
    CHECK(events > 20 && count >= events + 1);
    session_free(&ss);
}

/* A blow-up stops forward moves with a message; ',' gets back. */
static void test_nonfinite(void)
{
    struct session ss;
    CHECK(test_start(&ss, "k 1e9\ndt 1\nball 100 200 10 0 1 20\nball 140 200 -10 0 1 20\n") == 0);
    int rc = 0;
    for (int i = 0; i < 100 && rc >= 0; i++)
        rc = session_forward(&ss);
    CHECK(rc == -1 && ss.nonfinite && ss.note == SESSION_NOTE_NOT_FINITE_PAUSED);
    CHECK(session_forward(&ss) == -1);
    CHECK(session_back(&ss) == 0);
    CHECK(!ss.nonfinite);
    session_free(&ss);
    /* 100 balls (the grid's sweep, whose integration tests finiteness as
     * it goes): paused at the first step whose state is not finite */
    char text[8192];
    int len = snprintf(text, sizeof text, "table 1000 100\nk 1e9\ndt 1\n");
    for (int i = 0; i < 100; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "ball %d 50 0 0 1 1\n",
                        i == 51 ? 3 + 4 * 50 + 1 : 3 + 4 * i);
    struct sim ref;
    CHECK(test_load(&ref, text) == 0 && test_start(&ss, text) == 0);
    long long first = 0;
    while (sim_finite(&ref) && first < 1000) {
        sim_step(&ref);
        first++;
    }
    rc = 0;
    for (int i = 0; i < 1000 && rc >= 0; i++)
        rc = session_forward(&ss);
    CHECK(first > 1 && first < 1000);
    CHECK(rc == -1 && ss.nonfinite && ss.note == SESSION_NOTE_NOT_FINITE_PAUSED);
    CHECK(ss.pos == first && ss.s.steps == first);
    sim_free(&ref);
    session_free(&ss);
}

/* fuzz_session: the event engine with a ball of mass 1e300, a field and
 * rolling friction came to an event time of NaN; the queue filed it in its
 * overflow list and q_top rebuilt the calendar for ever (session_forward
 * never returned). Now a NaN time is no event: forward moves end. */
static void test_event_nan(void)
{
    struct session ss;
    CHECK(test_start(&ss, "ball 100 200 3 0 1 20\nball 300 200 0 0 2 20\n"
                     "ball 600 100 -1 2 1 10\n") == 0);
    session_set_mass(&ss, 1, 0); /* refused */
    session_forward(&ss);
    session_add_ball(&ss, 0.5, 20, 3, 0, 1e300, 0.5, 7);
    session_set_k(&ss, 20);
    session_remove_ball(&ss, 0);
    session_forward(&ss);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    session_set_dt(&ss, 0.05);
    session_set_border(&ss, 1, 1, 7);
    session_group(&ss, 0);
    session_set_border(&ss, 0, 1, 6);
    session_set_mass(&ss, 1, 1e9);
    struct sim_params q = ss.s.p;
    q.friction = SIM_FRICTION_ROLLING;
    q.friction_c = 3;
    q.gx = 799;
    q.gy = 3;
    q.open = 7;
    session_set_params(&ss, &q);
    session_set_dt(&ss, -1); /* refused */
    while (session_back(&ss) == 0)
        ;
    for (int i = 0; i < 50; i++)
        session_forward(&ss);
    CHECK(ss.s.n == 3); /* reached: no endless loop */
    session_free(&ss);
}

/* The event engine's codes reach the front end as notes with scene balls
 * (counted from 1, whatever the slots' order): a refusal (enum
 * event_status) and a stop at a result not finite (its struct event_stop),
 * where the session pauses; ',' gets back, and a run stops there again. */
static void test_event_codes(void)
{
    struct session ss;
    struct sim s;
    CHECK(test_load(&s, "table 2000 1000\nrandom 5000 1 1 0 30\n"
                        "ball 100 200 1 0 1e308 5\nball 300 200 -1 0 1e308 5\n") == 0);
    CHECK(sim_sort(&s) == 0 && sim_slot(&s, 5000) != 5000);
    CHECK(session_init(&ss, &s) == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_advance(&ss, 200, NULL, NULL) == -1);
    CHECK(ss.nonfinite && ss.note == SESSION_NOTE_EVENT_STOP && !ss.msg);
    CHECK(ss.note_code == EVENT_SMASS && ss.note_ball[0] == 5001 && ss.note_ball[1] == 5002);
    CHECK_NEAR(ss.note_t, 95, 1e-9);
    CHECK(session_forward(&ss) == -1 && ss.note == SESSION_NOTE_NOT_FINITE);
    CHECK(session_advance(&ss, 300, NULL, NULL) == -1 && ss.note == SESSION_NOTE_NOT_FINITE);
    CHECK(session_set_restitution(&ss, 0.5) == -1 && ss.note == SESSION_NOTE_NOT_FINITE);
    CHECK(session_back(&ss) == 0 && !ss.nonfinite && ss.s.t == 0 && sim_finite(&ss.s));
    CHECK(session_advance(&ss, 200, NULL, NULL) == -1 && ss.note == SESSION_NOTE_EVENT_STOP);
    CHECK(ss.note_ball[0] == 5001 && ss.note_ball[1] == 5002);
    session_free(&ss);
    sim_free(&s);

    CHECK(test_start(&ss, "table 800 400\nfield 0 -1e308\nball 100 100 0 0 1 5\n"
                          "ball 300 100 0 0 1 5\n") == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == -1 && ss.engine == SESSION_SPRING);
    CHECK(ss.note == SESSION_NOTE_EVENT_FAULT && ss.note_code == EVENT_EFIELD && !ss.msg);
    session_free(&ss);
}

void test_session(void)
{
    test_event_nan();
    test_replay();
    test_reset();
    test_budget();
    test_event_mode();
    test_sync_energy();
    test_bounds();
    test_samples();
    test_envelope();
    test_nonfinite();
    test_event_codes();
}
