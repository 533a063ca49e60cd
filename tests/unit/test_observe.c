/*
 * test_observe.c - the observed state (sim_observe, sim_unobserve): the
 * synchronised velocity of a pair in contact against its closed form, the
 * observed energy through the head-on contact conserved to O(dt^2) where
 * the stored velocities' is off by O(dt), a typed velocity read back to
 * the bit, a change of dt or e that keeps what is observed, the observed
 * and stored states the same bits where no force acts, and an observer
 * that never changes the run it observes.
 */
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "test.h"

#include <string.h>

static const char headon[] = "table 800 400\n"
                             "ball 250 200 10 0 1 20\n"
                             "ball 550 200 -10 0 1 20\n";

/* Steps @p s to step @p n. */
static void step_to(struct sim *s, long long n)
{
    while (s->steps < n)
        sim_step(s);
}

/* A pair overlapping by about 5 in the middle of a large table: each
 * observed velocity is the stored one plus dt/2 times the spring's
 * acceleration k s / m, away from the partner. */
static void test_pair_closed_form(void)
{
    struct sim s, o = {0};
    CHECK(test_load(&s, "table 800 400\nk 5\ndt 0.05\n"
                        "ball 300 200 3 0.5 1 20\n"
                        "ball 335 200 -1 0 2 20\n") == 0);
    CHECK(sim_observe(&s, &o) == SIM_OK);
    double d = 35 + SIM_DIST_EPS, f = 5 * (40 - d) * 35 / d, h = 0.025;
    size_t a = sim_slot(&s, 0), b = sim_slot(&s, 1);
    CHECK_NEAR(o.vx[a], 3 - h * f / 1, 1e-12);
    CHECK_NEAR(o.vx[b], -1 + h * f / 2, 1e-12);
    CHECK(o.vy[a] == 0.5 && o.vy[b] == 0); /* no force across the line */
    CHECK(o.x[a] == s.x[a] && o.y[b] == s.y[b] && o.t == s.t); /* positions are the step's */
    CHECK(s.vx[a] == 3 && s.vx[b] == -1);                       /* s untouched */
    sim_free(&o);
    sim_free(&s);
}

/* The largest |E - E0| / E0 through the head-on contact, of the observed
 * state and of the stored one, at time step @p dt. */
static void headon_drift(double dt, double *obs, double *stored)
{
    struct sim s, o = {0};
    char text[200];
    snprintf(text, sizeof text, "dt %g\n%s", dt, headon);
    CHECK(test_load(&s, text) == 0);
    struct sim_diag d;
    sim_diag(&s, &d);
    double e0 = d.e;
    *obs = *stored = 0;
    while (s.t < 16) { /* the contact lasts from t = 13 to about 14 */
        sim_step(&s);
        sim_diag(&s, &d);
        *stored = fmax(*stored, fabs(d.e - e0) / e0);
        CHECK(sim_observe(&s, &o) == SIM_OK);
        sim_diag(&o, &d);
        *obs = fmax(*obs, fabs(d.e - e0) / e0);
    }
    sim_free(&o);
    sim_free(&s);
}

static void test_energy_order(void)
{
    double o1, s1, o2, s2;
    headon_drift(0.05, &o1, &s1);
    headon_drift(0.025, &o2, &s2);
    CHECK(o1 < 0.01 && s1 > 0.05); /* the 0.6% and 8.6% */
    double r_obs = o1 / o2, r_stored = s1 / s2;
    if (!(r_obs > 3.5 && r_obs < 4.5 && r_stored > 1.7 && r_stored < 2.3))
        printf("  drift %.3g/%.3g observed, %.3g/%.3g stored\n", o1, o2, s1, s2);
    CHECK(r_obs > 3.5 && r_obs < 4.5);       /* O(dt^2) */
    CHECK(r_stored > 1.7 && r_stored < 2.3); /* O(dt) */
}

/* Observed velocities in slot order, copied. */
static void observed(const struct sim *s, double *vx, double *vy)
{
    struct sim o = {0};
    CHECK(sim_observe(s, &o) == SIM_OK);
    memcpy(vx, o.vx, s->n * sizeof *vx);
    memcpy(vy, o.vy, s->n * sizeof *vy);
    sim_free(&o);
}

/* Mid-contact (step 270, the deepest overlap), 12.5 typed for ball 1
 * reads back as 12.5, and the other ball's observed velocity stays; with
 * and without the dashpot. */
static void test_typed_reads_back(void)
{
    for (int damped = 0; damped < 2; damped++) {
        struct sim s;
        char text[200];
        snprintf(text, sizeof text, "restitution %s\n%s", damped ? "0.5" : "1", headon);
        CHECK(test_load(&s, text) == 0);
        step_to(&s, 270);
        double vx[2], vy[2], wx[2], wy[2];
        observed(&s, vx, vy);
        size_t a = sim_slot(&s, 0), b = sim_slot(&s, 1);
        if (!(fabs(vx[a]) < 2))
            printf("  typed: step %lld vx %g\n", s.steps, vx[a]);
        CHECK(fabs(vx[a]) < 2); /* in the middle of the exchange */
        vx[a] = 12.5;
        vy[a] = 0;
        CHECK(sim_unobserve(&s, vx, vy) == SIM_OK);
        CHECK(s.vx[a] != 12.5); /* the stored one is the half step's */
        observed(&s, wx, wy);
        CHECK(wx[a] == 12.5 && wy[a] == 0);
        CHECK(wx[b] == vx[b] && wy[b] == vy[b]);
        sim_free(&s);
    }
}

/* Paused mid-contact, a new dt or restitution re-derives the stored
 * velocities: the observed state, and so its energy, stays. */
static void test_change_keeps_observed(void)
{
    for (int c = 0; c < 3; c++) {
        struct sim s, o = {0}, o2 = {0};
        CHECK(test_load(&s, headon) == 0);
        step_to(&s, 270);
        CHECK(sim_observe(&s, &o) == SIM_OK);
        struct sim_diag d0, d1, d2;
        sim_diag(&o, &d0);
        if (c == 0)
            s.p.dt = 0.0625;
        else if (c == 1)
            s.p.restitution = 0.5;
        else
            s.p.k = 6.25;
        /* unchanged, the observed KE moves (the 0.0144 -> 0.0015) */
        CHECK(sim_observe(&s, &o2) == SIM_OK);
        sim_diag(&o2, &d1);
        CHECK(c == 1 || fabs(d1.ke - d0.ke) > 1e-4);
        CHECK(sim_unobserve(&s, o.vx, o.vy) == SIM_OK);
        CHECK(sim_observe(&s, &o2) == SIM_OK);
        sim_diag(&o2, &d2);
        for (size_t i = 0; i < 2; i++)
            CHECK(o2.vx[i] == o.vx[i] && o2.vy[i] == o.vy[i]);
        CHECK(d2.ke == d0.ke);
        sim_free(&o2);
        sim_free(&o);
        sim_free(&s);
    }
}

/* No contact, no wall, no field: the observed state is the stored one, to
 * the bit. A field acts everywhere: observed = stored + g dt/2. */
static void test_free_flight(void)
{
    struct sim s, o = {0};
    CHECK(test_load(&s, headon) == 0);
    step_to(&s, 20);
    CHECK(sim_observe(&s, &o) == SIM_OK);
    CHECK(memcmp(o.vx, s.vx, 2 * sizeof *s.vx) == 0 && memcmp(o.vy, s.vy, 2 * sizeof *s.vy) == 0);
    sim_free(&s);
    CHECK(test_load(&s, "field 0 -2\nball 400 200 1 0 3 10\n") == 0);
    CHECK(sim_observe(&s, &o) == SIM_OK);
    CHECK(o.vx[0] == 1);
    CHECK_NEAR(o.vy[0], -2 * 0.025, 1e-15);
    sim_free(&o);
    sim_free(&s);
}

/* Whether a and b hold the same state to the bit (and the same order). */
static int same_bits(const struct sim *a, const struct sim *b)
{
    size_t n = a->n * sizeof *a->x;
    return a->n == b->n && memcmp(a->x, b->x, n) == 0 && memcmp(a->y, b->y, n) == 0 &&
           memcmp(a->vx, b->vx, n) == 0 && memcmp(a->vy, b->vy, n) == 0 &&
           memcmp(a->id, b->id, a->n * sizeof *a->id) == 0 && a->t == b->t;
}

/* A run observed every step is the run not observed, to the bit, over a
 * re-sort of the slots (5000 balls); the observer that kept its broad
 * phase all along sees what a fresh one sees. */
static void test_observer_changes_nothing(void)
{
    static const char gas[] = "table 2000 1000\nk 50\ndt 0.01\n"
                              "random 5000 2.5 1 2 30\nball 600 500 40 0 50 40\n";
    struct sim a, b, o = {0}, fresh = {0};
    CHECK(test_load(&a, gas) == 0 && test_load(&b, gas) == 0);
    int ok = 1;
    for (int i = 0; i < 140 && ok; i++) {
        ok &= sim_step(&a) == SIM_OK && sim_step(&b) == SIM_OK;
        ok &= sim_observe(&a, &o) == SIM_OK;
    }
    CHECK(ok && same_bits(&a, &b));
    CHECK(sim_observe(&a, &fresh) == SIM_OK);
    CHECK(same_bits(&o, &fresh));
    sim_free(&fresh);
    sim_free(&o);
    sim_free(&a);
    sim_free(&b);
}

/* The session: mid-contact (headon, step 270), a typed velocity reads back
 * to the bit, and dt, e and k changed while paused keep every observed
 * velocity and so the kinetic energy shown (the 0.0144 -> 0.0015
 * after d); stepped back over and forward again, the run is the same
 * bits. */
static void test_session_keeps(void)
{
    struct session ss;
    CHECK(test_start(&ss, headon) == 0);
    while (ss.s.steps < 270)
        session_forward(&ss);
    const struct sim *o = session_observed(&ss);
    size_t a = sim_slot(o, 0), b = sim_slot(o, 1);
    double ke = session_diag(&ss)->ke, vb = o->vx[b];
    CHECK(session_diag(&ss)->contacts == 1);
    CHECK(session_set_dt(&ss, ss.s.p.dt * 1.25) == 0);
    CHECK(session_diag(&ss)->ke == ke);
    CHECK(session_set_restitution(&ss, 0.5) == 0);
    CHECK(session_diag(&ss)->ke == ke);
    CHECK(session_set_k(&ss, ss.s.p.k / 1.25) == 0);
    CHECK(session_diag(&ss)->ke == ke);
    CHECK(session_set_velocity(&ss, 0, 12.5, 0) == 0);
    o = session_observed(&ss);
    CHECK(o->vx[a] == 12.5 && o->vy[a] == 0 && o->vx[b] == vb);
    CHECK(session_kick(&ss, 1, 3, -4) == 0);
    o = session_observed(&ss);
    CHECK(o->vx[b] == 3 && o->vy[b] == -4 && o->vx[a] == 12.5);
    /* a drag keeps the velocity shown */
    CHECK(session_move(&ss, 0, ss.s.x[a] - 1, ss.s.y[a], 0) == 0);
    o = session_observed(&ss);
    CHECK(o->vx[sim_slot(o, 0)] == 12.5);
    struct sim later = {0};
    for (int i = 0; i < 10; i++)
        session_forward(&ss);
    CHECK(sim_assign(&later, &ss.s) == 0);
    for (int i = 0; i < 15; i++)
        session_back(&ss);
    for (int i = 0; i < 15; i++)
        session_forward(&ss);
    CHECK(same_bits(&ss.s, &later));
    sim_free(&later);
    session_free(&ss);
}

void test_observe(void)
{
    test_pair_closed_form();
    test_energy_order();
    test_typed_reads_back();
    test_change_keeps_observed();
    test_free_flight();
    test_observer_changes_nothing();
    test_session_keeps();
}
