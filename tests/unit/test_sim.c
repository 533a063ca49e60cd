/*
 * test_sim.c - the spring core against analytic results: elastic exchange,
 * the 1:3 mass ratio, contact time pi*sqrt(mu/k), wall bounces, momentum
 * and energy conservation.
 */
#include "particles.h"
#include "scene.h"
#include "sim.h"
#include "event.h"
#include "test.h"
#include "universe.h"
#include "words.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two balls on the x axis of a table big enough that no wall is near. */
static void two_balls(struct sim *s, double k, double dt, double m1, double v1,
                      double m2, double v2)
{
    struct sim_params p = sim_default_params();
    p.w = 10000;
    p.h = 10000;
    p.k = k;
    p.dt = dt;
    sim_init(s, 2, &p);
    s->x[0] = 4900; s->y[0] = 5000; s->vx[0] = v1; s->m[0] = m1; s->r[0] = 10;
    s->x[1] = 5100; s->y[1] = 5000; s->vx[1] = v2; s->m[1] = m2; s->r[1] = 10;
}

static double overlap01(const struct sim *s)
{
    double dx = s->x[1] - s->x[0], dy = s->y[1] - s->y[0];
    return s->r[0] + s->r[1] - (sqrt(dx * dx + dy * dy) + SIM_DIST_EPS);
}

/*
 * Runs until the pair has met and separated; returns the contact time from
 * the overlap's zero crossings, interpolated linearly between steps (the
 * overlap is linear in t just outside the contact).
 */
static double run_collision(struct sim *s)
{
    double prev = overlap01(s), t_in = -1, t_out = -1;
    for (int i = 0; i < 1000000 && t_out < 0; i++) {
        double t0 = s->t;
        sim_step(s);
        double cur = overlap01(s);
        if (prev <= 0 && cur > 0)
            t_in = t0 + s->p.dt * (-prev) / (cur - prev);
        if (prev > 0 && cur <= 0 && t_in >= 0)
            t_out = t0 + s->p.dt * prev / (prev - cur);
        prev = cur;
    }
    /* A few more steps, to be well clear. */
    for (int i = 0; i < 10; i++)
        sim_step(s);
    return t_out - t_in;
}

static void test_equal_exchange(void)
{
    struct sim s;
    /* one at rest: the mover stops, the other leaves at v */
    two_balls(&s, 5, 0.05, 1, 10, 1, 0);
    run_collision(&s);
    CHECK_NEAR(s.vx[0], 0, 0.005 * 10);
    CHECK_NEAR(s.vx[1], 10, 0.005 * 10);
    CHECK_NEAR(s.vy[0], 0, 1e-12);
    sim_free(&s);
    /* both moving: they swap */
    two_balls(&s, 5, 0.05, 1, 7, 1, -3);
    run_collision(&s);
    CHECK_NEAR(s.vx[0], -3, 0.005 * 10);
    CHECK_NEAR(s.vx[1], 7, 0.005 * 10);
    sim_free(&s);
}

static void test_mass_ratio(void)
{
    /* m1 = 1 at v onto m2 = 3 at rest: v1' = (m1-m2)/(m1+m2) v = -v/2,
     * v2' = 2 m1/(m1+m2) v = v/2. */
    struct sim s;
    const double v = 8;
    two_balls(&s, 5, 0.05, 1, v, 3, 0);
    run_collision(&s);
    CHECK_NEAR(s.vx[0], -v / 2, 0.005 * v);
    CHECK_NEAR(s.vx[1], v / 2, 0.005 * v);
    sim_free(&s);
}

static void test_contact_time(void)
{
    const struct { double k, dt, m1, m2; } cases[] = {
        {5, 0.05, 1, 1},     /* the defaults: about 20 steps per contact */
        {5, 0.05, 1, 3},
        {50, 0.005, 2, 0.5},
        {1000, 0.002, 1, 1}, /* the benchmark's stiffness */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sim s;
        two_balls(&s, cases[i].k, cases[i].dt, cases[i].m1, 5, cases[i].m2, -1);
        double mu = cases[i].m1 * cases[i].m2 / (cases[i].m1 + cases[i].m2);
        double want = SIM_PI * sqrt(mu / cases[i].k);
        double got = run_collision(&s);
        CHECK_NEAR(got, want, 0.02 * want);
        sim_free(&s);
    }
}

static void test_wall_bounce(void)
{
    /* A ball of mass m hits the left wall at speed v: it comes back at v
     * after pi*sqrt(m/k) in contact. */
    const double m = 2, k = 5, v = 6;
    struct sim_params p = sim_default_params();
    p.k = k;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 100; s.y[0] = 200; s.vx[0] = -v; s.m[0] = m; s.r[0] = 10;
    double prev = s.r[0] - s.x[0], t_in = -1, t_out = -1;
    while (t_out < 0 && s.steps < 100000) {
        double t0 = s.t;
        sim_step(&s);
        double cur = s.r[0] - s.x[0]; /* penetration */
        if (prev <= 0 && cur > 0)
            t_in = t0 + p.dt * (-prev) / (cur - prev);
        if (prev > 0 && cur <= 0)
            t_out = t0 + p.dt * prev / (prev - cur);
        prev = cur;
    }
    double want = SIM_PI * sqrt(m / k);
    CHECK_NEAR(t_out - t_in, want, 0.02 * want);
    CHECK_NEAR(s.vx[0], v, 0.005 * v);
    CHECK_NEAR(s.vy[0], 0, 1e-12);
    sim_free(&s);
}

static void test_momentum(void)
{
    /* The break on a table so big that no ball reaches a wall: the pair
     * forces are equal and opposite, so momentum stays put. */
    struct scene sc;
    struct scene_error err;
    const char *text = "table 100000 100000\n"
                       "rack 50560 50200 5 12 1\n"
                       "ball 50160 50200 10 0 1 12\n"
                       "ball 50300 50260 1 -3 2.5 7\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    struct sim s;
    scene_to_sim(&sc, &s);
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    double p0 = hypot(d0.px, d0.py), worst = 0;
    long most_contacts = 0;
    for (int i = 0; i < 4000; i++) {
        sim_step(&s);
        sim_diag(&s, &d);
        double e = hypot(d.px - d0.px, d.py - d0.py) / p0;
        if (e > worst)
            worst = e;
        if (d.contacts > most_contacts)
            most_contacts = d.contacts;
    }
    CHECK(most_contacts >= 3); /* the rack really was hit */
    CHECK(worst <= 1e-12);
    printf("  momentum: worst relative error %.3g over 4000 steps\n", worst);
    sim_free(&s);
    scene_free(&sc);
}

static void test_break_energy(void)
{
    /*
     * The built-in break at dt = 0.01: total energy within 0.1% of its
     * start over 1e5 steps. Semi-implicit Euler is symplectic, so energy
     * does not drift. Between contacts (pe = 0) the energy is the kinetic
     * energy alone and must hold to 0.1%. During a contact, v of the state
     * lags x by half a step, so ke + pe swings by O(omega dt) and comes back:
     * that swing is measured and bounded too, loosely.
     */
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, scene_builtin, strlen(scene_builtin), &err) == 0);
    sc.p.dt = 0.01;
    struct sim s;
    scene_to_sim(&sc, &s);
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    double drift = 0, swing = 0;
    long free_samples = 0, contact_samples = 0;
    for (int i = 0; i < 100000; i++) {
        sim_step(&s);
        sim_diag(&s, &d);
        double e = fabs(d.e - d0.e) / d0.e;
        if (d.pe == 0) {
            free_samples++;
            if (e > drift)
                drift = e;
        } else {
            contact_samples++;
            if (e > swing)
                swing = e;
        }
    }
    CHECK(contact_samples > 1000 && free_samples > 1000);
    CHECK(drift <= 1e-3);
    CHECK(swing <= 2e-2);
    printf("  break: energy drift %.3g between contacts, swing %.3g in contact "
           "(1e5 steps, dt 0.01)\n", drift, swing);
    sim_free(&s);
    scene_free(&sc);
}

static void test_copy_and_determinism(void)
{
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, scene_builtin, strlen(scene_builtin), &err) == 0);
    struct sim a, b;
    scene_to_sim(&sc, &a);
    scene_to_sim(&sc, &b);
    for (int i = 0; i < 500; i++)
        sim_step(&a);
    sim_copy(&b, &a);
    for (int i = 0; i < 500; i++) {
        sim_step(&a);
        sim_step(&b);
    }
    CHECK(memcmp(a.x, b.x, a.n * sizeof *a.x) == 0);
    CHECK(memcmp(a.vy, b.vy, a.n * sizeof *a.vy) == 0);
    CHECK(a.steps == 1000 && b.steps == 1000 && a.t == b.t);
    sim_free(&a);
    sim_free(&b);
    scene_free(&sc);
}

static void test_contact_time_estimate(void)
{
    struct sim_params p = sim_default_params();
    struct sim s;
    sim_init(&s, 3, &p);
    s.m[0] = 4; s.m[1] = 1; s.m[2] = 3;
    /* lightest pair 1 and 3: mu = 3/4 */
    CHECK_NEAR(sim_contact_time(&s), SIM_PI * sqrt(0.75 / 5), 1e-12);
    CHECK(sim_finite(&s));
    s.vx[2] = NAN;
    CHECK(!sim_finite(&s));
    sim_free(&s);
}

/* A row of @p n balls (r = 1, m = 1) on a table of 1000 x 100, at rest
 * but ball @p bad, whose vx is @p v; parameters of @p p's system. */
static void row_of(struct sim *s, size_t n, size_t bad, double v, const struct sim_params *p)
{
    struct sim_params q = *p;
    q.w = 1000;
    q.h = 100;
    sim_init(s, n, &q);
    for (size_t i = 0; i < n; i++) {
        s->x[i] = 3 + 4 * (double)i;
        s->y[i] = 50;
        s->m[i] = s->r[i] = 1;
    }
    s->vx[bad] = v;
}

/* The step's own finiteness test (s->finite) on every force path: one
 * ball whose velocity is not finite, in each place of a sweep's blocks
 * (the first and last of a vectorised block, the block after, the short
 * block at the end), is found in the step that writes it; a finite state
 * says finite; and in a blow-up, finite is never said of a state that is
 * not, and the first state that is not is said to be so. */
static void test_step_finite(void)
{
    struct sim_params systems[4];
    systems[0] = sim_default_params(); /* the Hooke sweep */
    systems[1] = systems[0];
    systems[1].walls = SIM_WALLS_HARD; /* the general path, move_hard */
    systems[2] = systems[0];
    systems[2].friction = SIM_FRICTION_LINEAR; /* move_friction */
    systems[2].friction_c = 0.1;
    systems[3] = systems[0];
    systems[3].gravity = 1; /* the general path, integrate's loop */
    const size_t places[] = {0, 1, 63, 64, 127, 128, 199};
    const double vals[] = {NAN, INFINITY, -INFINITY};
    for (size_t y = 0; y < 4; y++) {
        for (size_t k = 0; k < sizeof places / sizeof *places; k++) {
            struct sim s;
            row_of(&s, 200, places[k], vals[k % 3], &systems[y]);
            CHECK(sim_step(&s) == SIM_OK);
            CHECK(!s.finite && !sim_finite(&s));
            sim_free(&s);
        }
        /* fewer balls than the grid wants: the O(n^2) path */
        struct sim s;
        row_of(&s, 5, 4, NAN, &systems[y]);
        CHECK(sim_step(&s) == SIM_OK && !s.finite && !sim_finite(&s));
        sim_free(&s);
        row_of(&s, 200, 0, 3, &systems[y]);
        for (int i = 0; i < 20; i++)
            CHECK(sim_step(&s) == SIM_OK && s.finite && sim_finite(&s));
        sim_free(&s);
    }
    /* a blow-up: dt far too large for k, two balls overlapping */
    struct sim_params p = sim_default_params();
    p.k = 1e9;
    p.dt = 1;
    struct sim s;
    row_of(&s, 150, 70, 0, &p);
    s.x[71] = s.x[70] + 1;
    int steps = 0, said = 0;
    while (sim_finite(&s) && steps < 1000) {
        CHECK(sim_step(&s) == SIM_OK);
        steps++;
        said += s.finite && !sim_finite(&s); /* never: finite said wrongly */
    }
    CHECK(steps < 1000 && !sim_finite(&s) && !s.finite && said == 0);
    sim_free(&s);
}

/* What a writer printed: the whole of @p f as a NUL-terminated string
 * (*len its length), to be freed. */
static char *written(FILE *f, size_t *len)
{
    long l = ftell(f);
    char *t = malloc(l > 0 ? (size_t)l + 1 : 1);
    rewind(f);
    *len = l > 0 && t ? fread(t, 1, (size_t)l, f) : 0;
    if (t)
        t[*len] = 0;
    fclose(f);
    return t;
}

/* A 5000-ball text in the particle (universe) format: distinct masses and
 * colours (names), so that a row shows which ball it is. */
static char *big_text(int universe, size_t n)
{
    FILE *f = tmpfile();
    unsigned long long q = 12345;
    if (universe)
        fprintf(f, "%zu\n1.00e+12\n", n);
    else
        fprintf(f, "%zu\n", n);
    for (size_t b = 0; b < n; b++) {
        double u[4];
        for (int c = 0; c < 4; c++) {
            q = q * 6364136223846793005ull + 1442695040888963407ull;
            u[c] = (double)(q >> 11) / 9007199254740992.0;
        }
        if (universe)
            fprintf(f, "%.6e %.6e %.6e %.6e %.6e b%zu\n", (u[0] - 0.5) * 1e12,
                    (u[1] - 0.5) * 1e12, (u[2] - 0.5) * 1e3,
                    (u[3] - 0.5) * 1e3, 1e20 * (1 + (double)b), b);
        else
            fprintf(f, "%.6f %.6f %.6f %.6f 0.004 %zu %zu %zu %zu\n",
                    0.005 + 0.99 * u[0], 0.005 + 0.99 * u[1], u[2] - 0.5,
                    u[3] - 0.5, 1 + b, b % 256, b / 256 % 256, (b * 7) % 256);
    }
    size_t len;
    return written(f, &len);
}

/*
 * Slots never show: a 5000-ball particle file and universe, stepped (and
 * so kept in cell order by the core), write back in scene order with their
 * colours and names (issue 10, bug 2: rows came back as other balls).
 */
static void test_write_scene_order(void)
{
    const size_t n = 5000;
    struct scene_error err;
    /* Particles: after 3 steps every row is its own ball (its mass and
     * colour), where an unsorted run of the same steps puts it. */
    char *text = big_text(0, n);
    struct scene sc;
    CHECK(particles_parse(&sc, text, strlen(text), &err) == 0);
    struct sim a, ref;
    CHECK(scene_to_sim(&sc, &a) == 0 && scene_to_sim(&sc, &ref) == 0);
    for (int i = 0; i < 3; i++) {
        sim_step(&a);
        sim_step_brute(&ref);
    }
    int moved = 0, inverse = 1;
    for (size_t b = 0; b < n; b++) {
        moved |= sim_slot(&a, b) != b;
        inverse &= a.id[sim_slot(&a, b)] == b;
    }
    CHECK(moved && inverse);
    size_t len;
    FILE *f = tmpfile();
    particles_write(f, &sc, &a);
    char *out = written(f, &len);
    struct scene back;
    CHECK(particles_parse(&back, out, len, &err) == 0);
    CHECK(back.n == n);
    int same = back.n == n;
    for (size_t b = 0; same && b < n; b++) {
        const struct scene_ball *o = &back.balls[b];
        same &= o->m == sc.balls[b].m && o->color == sc.balls[b].color &&
                fabs(o->x - ref.x[b]) < 1e-9 && fabs(o->vy - ref.vy[b]) < 1e-9;
    }
    CHECK(same);
    scene_free(&back);
    free(out);
    sim_free(&a);
    sim_free(&ref);
    scene_free(&sc);
    free(text);

    /* A universe: stepped, then its slots put in cell order; it writes the
     * same bytes as before the reorder, names and all. */
    text = big_text(1, n);
    CHECK(universe_parse(&sc, text, strlen(text), &err) == 0);
    struct sim u, p;
    CHECK(scene_to_sim(&sc, &u) == 0 && scene_to_sim(&sc, &p) == 0);
    for (int i = 0; i < 2; i++)
        sim_step(&u);
    sim_copy(&p, &u);
    /* a grid needs contacts and sizes: to reorder the slots */
    p.p.contact = SIM_CONTACT_HOOKE;
    for (size_t i = 0; i < n; i++)
        p.r[i] = 1e6;
    CHECK(sim_sort(&p) == 0);
    p.p.contact = SIM_CONTACT_NONE;
    for (size_t i = 0; i < n; i++)
        p.r[i] = 0;
    moved = 0;
    for (size_t b = 0; b < n; b++)
        moved |= sim_slot(&p, b) != b;
    CHECK(moved);
    size_t lu, lp;
    f = tmpfile();
    universe_write(f, &sc, &u);
    char *tu = written(f, &lu);
    f = tmpfile();
    universe_write(f, &sc, &p);
    char *tp = written(f, &lp);
    CHECK(lu > 0 && lu == lp && memcmp(tu, tp, lu) == 0);
    CHECK(universe_parse(&back, tp, lp, &err) == 0 && back.n == n);
    same = back.n == n;
    for (size_t b = 0; same && b < n; b++) {
        char name[32];
        snprintf(name, sizeof name, "b%zu", b);
        same &= strcmp(scene_ball_name(&back, b), name) == 0;
    }
    CHECK(same);
    scene_free(&back);
    free(tu);
    free(tp);
    sim_free(&u);
    sim_free(&p);
    scene_free(&sc);
    free(text);
}

/* Whether a and b hold the same state to the bit (and the same order). */
static int same_bits(const struct sim *a, const struct sim *b)
{
    size_t n = a->n * sizeof *a->x;
    return a->n == b->n && memcmp(a->x, b->x, n) == 0 && memcmp(a->y, b->y, n) == 0 &&
           memcmp(a->vx, b->vx, n) == 0 && memcmp(a->vy, b->vy, n) == 0 &&
           memcmp(a->id, b->id, a->n * sizeof *a->id) == 0 && a->t == b->t;
}

/*
 * The two force paths on the same plain scene (rectangle, spring walls,
 * Hooke, e = 1): the Hooke rectangle's fused sweep (sim_step) and the
 * general path over contact.c (sim_step_general) step to the same bits: the
 * built-in break (the pair loop), a gas of 2000 (the grid) and one of 5000
 * (the grid with the slots in cell order).
 */
static void test_paths_bitwise(void)
{
    static const char *const texts[] = {
        NULL,
        "table 1200 600\nk 50\ndt 0.01\nrandom 2000 3 1 1 30\n",
        "table 2000 1000\nk 50\ndt 0.01\nrandom 5000 2.5 1 2 30\nball 600 500 40 0 50 40\n",
    };
    for (size_t c = 0; c < sizeof texts / sizeof *texts; c++) {
        const char *text = texts[c] ? texts[c] : scene_builtin;
        struct scene sc;
        struct scene_error err;
        CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
        struct sim a, b;
        CHECK(scene_to_sim(&sc, &a) == 0 && scene_to_sim(&sc, &b) == 0);
        CHECK(sim_hooke_rect(&a.p));
        int ok = 1;
        struct sim_diag da, db;
        long contacts = 0;
        for (int i = 0; i < 2000 && ok; i++) {
            ok &= sim_step(&a) == SIM_OK && sim_step_general(&b) == SIM_OK;
            if (i % 50 == 0) {
                sim_diag(&a, &da);
                contacts += da.contacts;
            }
        }
        if (!(ok && same_bits(&a, &b) && contacts > 0))
            printf("  paths: case %zu: %s, %ld contacts\n", c,
                   ok ? "different bits" : "a step failed", contacts);
        CHECK(ok && same_bits(&a, &b));
        CHECK(contacts > 0);
        /* the diagnostics of both paths too */
        b.p.restitution = nextafter(1, 0); /* the general path's own sums */
        sim_diag(&a, &da);
        sim_diag(&b, &db);
        CHECK(da.contacts == db.contacts && da.pe == db.pe && da.ke == db.ke);
        sim_free(&a);
        sim_free(&b);
        scene_free(&sc);
    }
}

/*
 * Exact time: t is the time at the last change of dt plus the steps since
 * then times dt, so 1000 steps of 0.05 are t = 50 (adding dt gave
 * 49.999999999999289, and -T 50 ran 1001 steps); a change of dt, or a t set
 * from outside, starts a new base.
 */
static void test_exact_time(void)
{
    struct sim_params p = sim_default_params();
    struct sim s;
    CHECK(sim_init(&s, 1, &p) == 0);
    s.x[0] = s.y[0] = 100;
    s.m[0] = s.r[0] = 1;
    for (int i = 0; i < 1000; i++)
        sim_step(&s);
    CHECK(s.t == 50 && s.steps == 1000);
    s.p.dt = 0.1;
    for (int i = 0; i < 300; i++)
        sim_step(&s);
    CHECK(s.t == 50 + 300 * 0.1 && s.steps == 1300);
    s.t = 7; /* an engine hand-off */
    for (int i = 0; i < 30; i++)
        sim_step(&s);
    CHECK(s.t == 7 + 30 * 0.1 && s.steps == 1330);
    /* a copy goes on from the same base */
    struct sim c;
    CHECK(sim_init(&c, 1, &p) == 0);
    sim_copy(&c, &s);
    for (int i = 0; i < 70; i++) {
        sim_step(&s);
        sim_step(&c);
    }
    CHECK(s.t == c.t && c.t == 7 + 100 * 0.1);
    sim_free(&s);
    sim_free(&c);
}

/*
 * One rule for how many steps reach a time: sim_steps_until and
 * sim_time_after predict what sim_step does, from the start, after a
 * change of dt and after a t set from outside; k - 1 steps fall short of
 * T, k reach it.
 */
static void test_steps_until(void)
{
    struct sim_params p = sim_default_params();
    struct sim s;
    CHECK(sim_init(&s, 1, &p) == 0);
    s.x[0] = s.y[0] = 100;
    s.m[0] = s.r[0] = 1;
    CHECK(sim_steps_until(&s, 50) == 1000 && sim_time_after(&s, 1000) == 50);
    CHECK(sim_steps_until(&s, 50.01) == 1001);
    CHECK(sim_steps_until(&s, 0) == 0 && sim_steps_until(&s, -1) == 0);
    CHECK(sim_steps_until(&s, 1e-300) == 1);
    CHECK(sim_steps_until(&s, INFINITY) == ULLONG_MAX);
    CHECK(sim_steps_until(&s, NAN) == 0); /* never less than NaN: no step */
    CHECK(sim_steps_until(&s, 1e300) == ULLONG_MAX);
    /* against the steps themselves, at awkward times and after changes */
    const double dts[] = {0.05, 0.1, 0.03, 1.0 / 3};
    unsigned long long total = 0;
    for (int c = 0; c < 4; c++) {
        s.p.dt = dts[c];
        if (c == 2)
            s.t = 7.123; /* an engine hand-off */
        const double T = s.t + 17.3 * dts[c] + 4.9;
        unsigned long long k = sim_steps_until(&s, T);
        double want = sim_time_after(&s, k), before = sim_time_after(&s, k - 1);
        CHECK(before < T && want >= T);
        for (unsigned long long i = 0; i < k; i++) {
            CHECK(s.t < T);
            sim_step(&s);
        }
        CHECK(s.t == want && s.t >= T);
        total += k;
    }
    CHECK(s.steps == (long long)total);
    sim_free(&s);
}

/* The event engine's codes in the front end's one wording (words.h), for
 * -H and the terminal alike; cut to the room given. */
static void test_words(void)
{
    char buf[160];
    CHECK(strcmp(words_event_fault(buf, sizeof buf, EVENT_EOVERLAP, 11, 5000),
                 "event engine: balls 11 and 5000 overlap") == 0);
    CHECK(strcmp(words_event_fault(buf, sizeof buf, EVENT_EWALL, 11, 0),
                 "event engine: ball 11 reaches through the wall") == 0);
    CHECK(strcmp(words_event_fault(buf, sizeof buf, EVENT_ENOMEM, 0, 0),
                 "event engine: out of memory") == 0);
    CHECK(strcmp(words_event_fault(buf, 12, EVENT_EWALL, 11, 0), "event engin") == 0);
    CHECK(strcmp(words_event_stop(buf, sizeof buf, EVENT_SBOUNCE, 3, 3, 0.1),
                 "ball 3's bounce off a wall at t = 0.1: its speed overflows") == 0);
    CHECK(strcmp(words_event_stop(buf, sizeof buf, EVENT_SIMPULSE, 2, 9, 1e300),
                 "the collision of balls 2 and 9 at t = 1e+300: the impulse overflows "
                 "(speeds or masses too large)") == 0);
}

void test_sim(void)
{
    test_words();
    test_exact_time();
    test_steps_until();
    test_paths_bitwise();
    test_write_scene_order();
    test_equal_exchange();
    test_mass_ratio();
    test_contact_time();
    test_wall_bounce();
    test_momentum();
    test_break_energy();
    test_copy_and_determinism();
    test_contact_time_estimate();
    test_step_finite();
}
