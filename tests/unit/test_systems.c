/*
 * test_systems.c - the other systems against analytic results: the
 * exponential integral, the exponential contact's turning gap, restitution
 * by dashpot, the round table's spring wall, hard walls (exact energy,
 * crossing point, containment), gravity (Newton, Plummer, the figure-eight
 * orbit over its period).
 */
#include "contact.h"
#include "gravity.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <stdint.h>
#include <string.h>

/* ===== E1 ===== */

static void test_e1(void)
{
    /* reference values to 20 digits (mpmath e1) */
    static const struct { double x, e1; } ref[] = {
        {1e-5, 10.935719800043695615}, {0.1, 1.8229239584193906661},
        {1, 0.21938393439552027368},   {2, 0.048900510708061119567},
        {5, 0.0011482955912753257973}, {10, 4.1569689296853242774e-6},
        {30, 3.0215520106888125448e-15},
    };
    for (size_t i = 0; i < sizeof ref / sizeof *ref; i++)
        CHECK_NEAR(contact_e1(ref[i].x), ref[i].e1, 2e-14 * ref[i].e1);
    /* the inverse: mpmath roots, and round trips over 60 decades */
    CHECK_NEAR(contact_e1_inv(0.01), 3.2105126306506182912, 1e-13);
    CHECK_NEAR(contact_e1_inv(1), 0.26473701045154315946, 1e-14);
    CHECK_NEAR(contact_e1_inv(3), 0.028763214987121246488, 1e-15);
    static const double ys[] = {1e-300, 1e-40, 1e-8, 0.1, 0.5, 0.9999, 1.0001,
                                7, 25, 39.9, 45, 300};
    for (size_t i = 0; i < sizeof ys / sizeof *ys; i++) {
        double x = contact_e1_inv(ys[i]);
        CHECK(x > 0);
        CHECK_NEAR(contact_e1(x), ys[i], 1e-12 * ys[i]);
    }
}

static void test_zeta(void)
{
    CHECK(contact_zeta(1) == 0);
    /* e = exp(-pi): ln e = -pi, zeta = pi / sqrt(2 pi^2) = 1/sqrt(2) */
    CHECK_NEAR(contact_zeta(exp(-SIM_PI)), sqrt(0.5), 1e-15);
    /* the defining property exp(-zeta pi / sqrt(1 - zeta^2)) = e */
    for (double e = 0.05; e < 1; e += 0.1) {
        double z = contact_zeta(e);
        CHECK_NEAR(exp(-z * SIM_PI / sqrt(1 - z * z)), e, 1e-14);
    }
}

/* ===== Two balls on the x axis of a huge table ===== */

static void pair_sim(struct sim *s, const struct sim_params *p, double m1,
                     double v1, double m2, double v2, double gap)
{
    sim_init(s, 2, p);
    s->r[0] = s->r[1] = 10;
    s->m[0] = m1;
    s->m[1] = m2;
    s->x[0] = 0.5 * p->w - 10 - 0.5 * gap;
    s->x[1] = 0.5 * p->w + 10 + 0.5 * gap;
    s->y[0] = s->y[1] = 0.5 * p->h;
    s->vx[0] = v1;
    s->vx[1] = v2;
}

static double gap01(const struct sim *s)
{
    return s->x[1] - s->x[0] + SIM_DIST_EPS - s->r[0] - s->r[1];
}

static struct sim_params big_table(void)
{
    struct sim_params p = sim_default_params();
    p.w = p.h = 100000;
    return p;
}

static void test_exp_turning_gap(void)
{
    /* g* = eps E1^-1(v0^2/(2 kappa)) whatever the masses */
    static const struct { double eps, kappa, m1, m2, v0; } cases[] = {
        {1, 50, 1, 3, 10},    /* E1(g* / eps) = 1 */
        {2, 5000, 2, 2, 10},  /* 0.01: a wide turn */
        {0.5, 6, 1, 1, 6},    /* 3: a close one */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim_params p = big_table();
        p.contact = SIM_CONTACT_EXP;
        p.exp_eps = cases[c].eps;
        p.exp_kappa = cases[c].kappa;
        p.dt = 2e-4 * cases[c].eps;
        double M = cases[c].m1 + cases[c].m2, v0 = cases[c].v0;
        struct sim s;
        /* centre of mass at rest, relative speed v0, starting beyond the cutoff */
        pair_sim(&s, &p, cases[c].m1, v0 * cases[c].m2 / M, cases[c].m2,
                 -v0 * cases[c].m1 / M, 41 * cases[c].eps);
        struct sim_diag d0, d;
        sim_diag(&s, &d0);
        double gmin = INFINITY;
        for (long i = 0; i < 2000000 && s.vx[1] - s.vx[0] < 0.999 * v0; i++) {
            sim_step(&s);
            double g = gap01(&s);
            if (g < gmin)
                gmin = g;
        }
        double want = cases[c].eps * contact_e1_inv(v0 * v0 / (2 * cases[c].kappa));
        CHECK_NEAR(gmin, want, 2e-3 * want);
        sim_diag(&s, &d);
        CHECK_NEAR(s.vx[1] - s.vx[0], v0, 2e-3 * v0); /* elastic */
        CHECK_NEAR(d.e, d0.e, 1e-3 * d0.e);
        CHECK(d.clamps == 0 && d.pe >= 0);
        printf("  exp contact: turning gap %.9g, predicted %.9g (eps %g)\n", gmin,
               want, cases[c].eps);
        sim_free(&s);
    }
}

static void test_exp_wall(void)
{
    /* a ball of mass 3 at speed 4 onto the left wall: the same formula with
     * mu = m and the gap between its surface and the wall */
    struct sim_params p = sim_default_params();
    p.contact = SIM_CONTACT_EXP;
    p.exp_eps = 1;
    p.exp_kappa = 20;
    p.dt = 1e-4;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 100;
    s.y[0] = 200;
    s.vx[0] = -4;
    s.m[0] = 3;
    s.r[0] = 10;
    double gmin = INFINITY;
    while (s.vx[0] < 0 && s.steps < 1000000) {
        sim_step(&s);
        if (s.x[0] - s.r[0] < gmin)
            gmin = s.x[0] - s.r[0];
    }
    double want = contact_e1_inv(16.0 / 40.0);
    CHECK_NEAR(gmin, want, 2e-3 * want);
    sim_free(&s);
}

static void test_exp_clamp(void)
{
    /* dt far too large: the first step jumps into overlap. The gap is
     * clamped and counted, and nothing turns into NaN or infinity. */
    struct sim_params p = big_table();
    p.contact = SIM_CONTACT_EXP;
    p.exp_eps = 0.1;
    p.exp_kappa = 1;
    p.dt = 1;
    struct sim s;
    pair_sim(&s, &p, 1, 5, 1, -5, 2);
    for (int i = 0; i < 5; i++)
        sim_step(&s);
    struct sim_diag d;
    sim_diag(&s, &d);
    CHECK(d.clamps > 0);
    CHECK(sim_finite(&s) && isfinite(d.e));
    sim_free(&s);
    /* a law evaluated right at contact and beyond overlap stays finite */
    struct contact_law law;
    contact_law_init(&law, &p);
    struct contact_out o;
    CHECK(contact_eval(&law, 0, 1, 0, &o) == 1 && o.clamped && isfinite(o.f));
    CHECK(contact_eval(&law, -3, 1, 0, &o) == 1 && o.clamped && isfinite(o.pe));
    CHECK(contact_eval(&law, 40 * 0.1 + 1e-9, 1, 0, &o) == 0);
    /* the potential vanishes at the cutoff */
    CHECK(contact_eval(&law, 40 * 0.1 * (1 - 1e-12), 1, 0, &o) == 1);
    CHECK_NEAR(o.pe, 0, 1e-25);
}

/* Runs a pair until it has met and separated; returns the closing speed
 * ratio |v_rel after| / |v_rel before|. */
static double collide(struct sim *s)
{
    double v_before = s->vx[0] - s->vx[1];
    int met = 0;
    for (long i = 0; i < 10000000; i++) {
        sim_step(s);
        double g = gap01(s);
        if (g < 0)
            met = 1;
        if (met && g > 0)
            break;
    }
    return (s->vx[1] - s->vx[0]) / v_before;
}

static void test_restitution(void)
{
    static const double es[] = {0.95, 0.8, 0.5, 0.2, 0.05};
    for (size_t c = 0; c < sizeof es / sizeof *es; c++) {
        struct sim_params p = big_table();
        p.restitution = es[c];
        p.dt = 0.001; /* the explicit dashpot errs by O(zeta omega dt) */
        struct sim s;
        pair_sim(&s, &p, 1, 6, 3, -2, 1);
        struct sim_diag d0, d;
        sim_diag(&s, &d0);
        double ratio = collide(&s);
        CHECK_NEAR(ratio, es[c], 0.01 * es[c]);
        /* the energy taken out is what the diagnostics report: the loss of
         * relative kinetic energy mu v^2 (1 - e^2)/2, mu = 3/4, v = 8 */
        sim_diag(&s, &d);
        double lost = 0.5 * 0.75 * 64 * (1 - ratio * ratio);
        CHECK_NEAR(d.dissipated, lost, 0.01 * lost);
        CHECK_NEAR(d.e + d.dissipated, d0.e, 0.01 * lost);
        CHECK_NEAR(d.px, d0.px, 1e-12);
        printf("  restitution %.2f: speed ratio %.5f, dissipated %.6g of %.6g\n",
               es[c], ratio, d.dissipated, lost);
        sim_free(&s);
    }
    /* a spring wall with a dashpot: the ball comes back at e v */
    struct sim_params p = sim_default_params();
    p.restitution = 0.6;
    p.dt = 0.005;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 30; s.y[0] = 200; s.vx[0] = -5; s.m[0] = 2; s.r[0] = 10;
    while (!(s.vx[0] > 0 && s.x[0] > 30))
        sim_step(&s);
    CHECK_NEAR(s.vx[0], 0.6 * 5, 0.01 * 3);
    sim_free(&s);
}

/* ===== Round table and hard walls ===== */

static void test_round_spring_wall(void)
{
    /* force k p along the radius when p = |x - c| + r - R > 0 */
    struct sim_params p = sim_default_params();
    p.shape = SIM_CIRCLE;
    p.w = p.h = 200; /* R = 100, c = (100, 100) */
    p.k = 7;
    struct contact_law law;
    contact_law_init(&law, &p);
    const double th = 0.7, pen = 2.5, r = 10;
    double dist = 100 - r + pen;
    double x = 100 + dist * cos(th), y = 100 + dist * sin(th), fx = 0, fy = 0;
    struct contact_sum sum = {0};
    contact_wall_circle(&law, x, y, 0, 0, r, 1, 100, 100, 100, &fx, &fy, &sum);
    CHECK_NEAR(fx, -7 * pen * cos(th), 1e-12);
    CHECK_NEAR(fy, -7 * pen * sin(th), 1e-12);
    CHECK_NEAR(sum.pe, 0.5 * 7 * pen * pen, 1e-12);
    /* inside: no force */
    fx = fy = 0;
    contact_wall_circle(&law, 150, 100, 0, 0, r, 1, 100, 100, 100, &fx, &fy, &sum);
    CHECK(fx == 0 && fy == 0);
}

static void test_hard_rect_energy(void)
{
    /* One ball bouncing off the four hard walls: speed kept bit for bit. */
    struct sim_params p = sim_default_params();
    p.walls = SIM_WALLS_HARD;
    p.dt = 0.37;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 400; s.y[0] = 200; s.vx[0] = 31.7; s.vy[0] = -17.3;
    s.m[0] = 2; s.r[0] = 15;
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    int bounces = 0, inside = 1;
    for (int i = 0; i < 20000; i++) {
        double vx = s.vx[0], vy = s.vy[0];
        sim_step(&s);
        bounces += (vx != s.vx[0]) + (vy != s.vy[0]);
        inside &= s.x[0] >= 15 && s.x[0] <= 785 && s.y[0] >= 15 && s.y[0] <= 385;
    }
    sim_diag(&s, &d);
    CHECK(bounces > 500);
    CHECK(inside);
    CHECK(d.ke == d0.ke && d.e == d0.e && d.dissipated == 0);
    CHECK(fabs(s.vx[0]) == 31.7 && fabs(s.vy[0]) == 17.3);
    sim_free(&s);
}

static void test_hard_circle(void)
{
    /* the crossing parameter of a radial path: p = c, q = c + 2 rho */
    CHECK_NEAR(contact_circle_crossing(5, 5, 25, 5, 5, 5, 10), 0.5, 1e-15);
    /* a chord from inside: p = (0, -6), q = (0, 12) on a circle of 10 at 0:
     * crosses at y = 10, alpha = 16/18 */
    CHECK_NEAR(contact_circle_crossing(0, -6, 0, 12, 0, 0, 10), 16.0 / 18, 1e-15);
    /* oblique: p = (6, 0) moving by (0, 10) crosses at (6, 8) */
    double qx = 6, qy = 10, vx = 0, vy = 1;
    contact_reflect_circle(6, 0, &qx, &qy, &vx, &vy, 0, 0, 10, 1);
    /* n = -(0.6, 0.8): v' = v - 2 (v.n) n = (0,1) - 2*0.8*(0.6,0.8) */
    CHECK_NEAR(vx, -0.96, 1e-15);
    CHECK_NEAR(vy, 1 - 1.28, 1e-15);
    CHECK_NEAR(hypot(vx, vy), 1, 1e-15);
    /* the rest of the path (0, 2) is mirrored the same way from (6, 8) */
    CHECK_NEAR(qx, 6 - 2 * 0.96, 1e-14);
    CHECK_NEAR(qy, 8 + 2 * (1 - 1.28), 1e-14);

    /* A ball in a round table with hard walls: energy exact to rounding
     * over thousands of bounces, and never outside. */
    struct sim_params p = sim_default_params();
    p.shape = SIM_CIRCLE;
    p.walls = SIM_WALLS_HARD;
    p.w = p.h = 400;
    p.dt = 0.29;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 230; s.y[0] = 170; s.vx[0] = 41.3; s.vy[0] = 27.1;
    s.m[0] = 1.5; s.r[0] = 12;
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    double worst = 0;
    int outside = 0;
    for (int i = 0; i < 50000; i++) {
        sim_step(&s);
        double dx = s.x[0] - 200, dy = s.y[0] - 200;
        outside += dx * dx + dy * dy > 188.0 * 188.0;
        sim_diag(&s, &d);
        double e = fabs(d.ke - d0.ke) / d0.ke;
        if (e > worst)
            worst = e;
    }
    CHECK(outside == 0);
    CHECK(worst < 1e-12);
    printf("  hard round wall: relative energy error %.3g over 50000 steps\n", worst);
    sim_free(&s);
}

/* Every ball of the scene's table stays on it for 4000 steps. */
static void check_contained(const char *text, int hard)
{
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    struct sim s;
    scene_to_sim(&sc, &s);
    const double R = 0.5 * s.p.w;
    long bad = 0;
    double deepest = 0;
    for (int i = 0; i < 4000; i++) {
        sim_step(&s);
        for (size_t j = 0; j < s.n; j++) {
            double dx = s.x[j] - R, dy = s.y[j] - R, lim = hard ? R - s.r[j] : R;
            bad += dx * dx + dy * dy > lim * lim;
            double pen = sqrt(dx * dx + dy * dy) + s.r[j] - R;
            if (pen > deepest)
                deepest = pen;
        }
    }
    CHECK(bad == 0);
    if (hard)
        CHECK(deepest <= 1e-9);
    printf("  round table, %s walls: %zu balls, deepest penetration %.3g\n",
           hard ? "hard" : "spring", s.n, deepest);
    sim_free(&s);
    scene_free(&sc);
}

static void test_round_containment(void)
{
    check_contained("table circle 150\nk 200\ndt 0.01\nrandom 80 5 1 12 7\n", 0);
    check_contained("table circle 150\nk 200\ndt 0.01\nwalls hard\nrandom 80 5 1 12 7\n", 1);
    check_contained("table circle 150\nk 20\nwalls hard\ncontact exp 0.5 40\n"
                    "dt 0.01\nrandom 60 5 1 6 3\n", 1);
}

/* ===== Gravity ===== */

static void test_gravity_law(void)
{
    const double x[2] = {1, 4}, y[2] = {2, 6}, m[2] = {3, 5}; /* d = 5 */
    double fx[2] = {0, 0}, fy[2] = {0, 0};
    gravity_forces(2, x, y, m, 2, 0, fx, fy);
    double f = 2 * 3 * 5 / 25.0;
    CHECK_NEAR(fx[0], f * 0.6, 1e-14);
    CHECK_NEAR(fy[0], f * 0.8, 1e-14);
    CHECK_NEAR(fx[1], -f * 0.6, 1e-14);
    CHECK_NEAR(gravity_potential(2, x, y, m, 2, 0), -30 / 5.0, 1e-14);
    /* Plummer: G m1 m2 d / (d^2 + s^2)^(3/2), potential -G m1 m2/sqrt(d^2+s^2) */
    fx[0] = fy[0] = fx[1] = fy[1] = 0;
    gravity_forces(2, x, y, m, 2, 12, fx, fy);
    f = 30 * 5 / pow(25.0 + 144, 1.5);
    CHECK_NEAR(hypot(fx[0], fy[0]), f, 1e-15);
    CHECK_NEAR(gravity_potential(2, x, y, m, 2, 12), -30 / 13.0, 1e-14);
    /* coincident bodies: no force, no NaN */
    const double z[2] = {1, 1};
    fx[0] = fy[0] = 0;
    gravity_forces(2, z, z, m, 2, 0, fx, fy);
    CHECK(fx[0] == 0 && fy[0] == 0);
}

/* A system of point masses under gravity G, no walls, no contacts. */
static void open_sim(struct sim *s, size_t n, double G, double dt)
{
    struct sim_params p = sim_default_params();
    p.shape = SIM_OPEN;
    p.contact = SIM_CONTACT_NONE;
    p.gravity = G;
    p.dt = dt;
    sim_init(s, n, &p);
}

static void test_figure_eight(void)
{
    /* Chenciner-Montgomery: G = m = 1, period 6.32591398 (Simo's value). */
    const double T = 6.32591398;
    const int steps = 20000;
    struct sim s;
    open_sim(&s, 3, 1, T / steps);
    const double x1 = 0.97000436, y1 = -0.24308753;
    const double vx3 = -0.93240737, vy3 = -0.86473146;
    double x0[3] = {x1, -x1, 0}, y0[3] = {y1, -y1, 0};
    for (int i = 0; i < 3; i++) {
        s.x[i] = x0[i];
        s.y[i] = y0[i];
        s.m[i] = 1;
        s.vx[i] = i == 2 ? vx3 : -vx3 / 2;
        s.vy[i] = i == 2 ? vy3 : -vy3 / 2;
    }
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    /* the diagnostics by hand: ke = (2 (v/2)^2 + v^2)/2, pe = -sum 1/r */
    double v2 = vx3 * vx3 + vy3 * vy3;
    double r12 = 2 * hypot(x1, y1), r13 = hypot(x1, y1);
    CHECK_NEAR(d0.ke, 0.5 * (v2 / 2 + v2), 1e-15);
    CHECK_NEAR(d0.pg, -(1 / r12 + 2 / r13), 1e-15);
    double worst = 0;
    for (int i = 0; i < steps; i++) {
        sim_step(&s);
        sim_diag(&s, &d);
        double e = fabs(d.e - d0.e) / fabs(d0.e);
        if (e > worst)
            worst = e;
    }
    double back = 0;
    for (int i = 0; i < 3; i++)
        back = fmax(back, hypot(s.x[i] - x0[i], s.y[i] - y0[i]));
    CHECK(worst < 1e-4);
    CHECK(back < 2e-3);
    CHECK_NEAR(d.px, 0, 1e-12);
    printf("  figure eight: energy error %.3g over one period, back within %.3g\n",
           worst, back);
    sim_free(&s);
}

static void test_gravity_scene(void)
{
    /* gravity with spring collisions: two balls fall together from rest,
     * bounce (elastic springs) and the energy ke + pe + pg holds. */
    const char *text = "table 1000 1000\nk 50\ndt 0.002\ngravity 100 1\n"
                       "ball 400 500 0 0 2 10\nball 600 500 0 0 3 10\n";
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.p.gravity == 100 && sc.p.softening == 1);
    struct sim s;
    scene_to_sim(&sc, &s);
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    CHECK_NEAR(d0.pg, -100 * 6 / sqrt(200.0 * 200 + 1), 1e-12);
    /* Out of contact, the energy error relative to the fall's depth
     * |pg(touching) - pg(start)| holds tight; in contact the springs swing
     * it by O(omega dt) as in the break. */
    const double depth = 100 * 6 * (1 / sqrt(401.0) - 1 / sqrt(40001.0));
    long touched = 0;
    double worst = 0, swing = 0;
    for (int i = 0; i < 200000; i++) {
        sim_step(&s);
        sim_diag(&s, &d);
        double e = fabs(d.e - d0.e) / depth;
        if (d.contacts > 0) {
            touched++;
            swing = fmax(swing, e);
        } else {
            worst = fmax(worst, e);
        }
    }
    CHECK(touched > 100);
    CHECK(worst < 1e-3);
    CHECK(swing < 2e-2);
    CHECK_NEAR(d.px, 0, 1e-9);
    printf("  gravity scene: energy error %.3g out of contact, %.3g in (%ld steps)\n",
           worst, swing, touched);
    sim_free(&s);
    scene_free(&sc);
}

/* splitmix64, for reproducible random bodies */
static double unit_rand(unsigned long long *st)
{
    unsigned long long z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static void test_barnes_hut(void)
{
    /* 2000 bodies, clustered (a dense core in a wide halo) so the tree is
     * deep: the rms error of the Barnes-Hut forces against the exact sum,
     * relative to the rms force, within the monopole method's usual bounds
     * and growing with theta; theta -> 0 gives the exact sum. */
    enum { N = 2000 };
    static double x[N], y[N], m[N], ex[N], ey[N], bx[N], by[N];
    unsigned long long st = 42;
    for (int i = 0; i < N; i++) {
        double r = i < N / 4 ? 0.05 * unit_rand(&st) : unit_rand(&st);
        double a = 2 * SIM_PI * unit_rand(&st);
        x[i] = r * cos(a);
        y[i] = r * sin(a);
        m[i] = 0.5 + unit_rand(&st);
    }
    x[7] = x[8]; /* two coincident bodies */
    y[7] = y[8];
    memset(ex, 0, sizeof ex);
    memset(ey, 0, sizeof ey);
    gravity_forces(N, x, y, m, 1, 0.001, ex, ey);
    static const struct { double theta, rms; } cases[] = {
        {1e-3, 1e-10}, {0.1, 3e-4}, {0.5, 2e-2}, {1.0, 6e-2},
    };
    double prev = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memset(bx, 0, sizeof bx);
        memset(by, 0, sizeof by);
        CHECK(gravity_bh_forces(N, x, y, m, 1, 0.001, cases[c].theta, bx, by) == 0);
        double se = 0, sf = 0;
        int finite = 1;
        for (int i = 0; i < N; i++) {
            double dx = bx[i] - ex[i], dy = by[i] - ey[i];
            se += dx * dx + dy * dy;
            sf += ex[i] * ex[i] + ey[i] * ey[i];
            finite &= isfinite(bx[i]) && isfinite(by[i]);
        }
        double rms = sqrt(se / sf);
        CHECK(finite);
        CHECK(rms <= cases[c].rms);
        CHECK(rms > prev);
        prev = rms;
        printf("  barnes-hut theta %g: rms force error %.3g\n", cases[c].theta, rms);
    }
    /* declines without touching the forces: negative mass, bad theta */
    m[3] = -1;
    bx[0] = 5;
    CHECK(gravity_bh_forces(N, x, y, m, 1, 0, 0.5, bx, by) == -1 && bx[0] == 5);
    m[3] = 1;
    CHECK(gravity_bh_forces(N, x, y, m, 1, 0, 0, bx, by) == -1 && bx[0] == 5);
    CHECK(gravity_bh_forces(N, x, y, m, 1, 0, 1.5, bx, by) == -1 && bx[0] == 5);
    /* every body in one point: no force and no NaN */
    double px[3] = {1, 1, 1}, py[3] = {2, 2, 2}, pm[3] = {1, 2, 3}, fx[3] = {0}, fy[3] = {0};
    CHECK(gravity_bh_forces(3, px, py, pm, 1, 0, 0.5, fx, fy) == 0);
    CHECK(fx[0] == 0 && fy[2] == 0);
    /* through the sim: sim_forces takes the tree when theta > 0; over a
     * tenth of a dynamical time the run stays next to the exact one */
    struct sim a, b;
    open_sim(&a, 300, 1, 1e-3);
    open_sim(&b, 300, 1, 1e-3);
    a.p.softening = b.p.softening = 0.01;
    b.p.theta = 0.3;
    for (int i = 0; i < 300; i++) {
        a.x[i] = b.x[i] = x[N / 4 + i]; /* halo bodies: t_dyn about 1 */
        a.y[i] = b.y[i] = y[N / 4 + i];
        a.m[i] = b.m[i] = m[N / 4 + i] / 300;
    }
    for (int i = 0; i < 100; i++) {
        sim_step(&a);
        sim_step(&b);
    }
    double dev = 0;
    for (int i = 0; i < 300; i++)
        dev = fmax(dev, hypot(a.x[i] - b.x[i], a.y[i] - b.y[i]));
    CHECK(dev > 0 && dev < 1e-3); /* the tree ran, and stayed close */
    printf("  barnes-hut theta 0.3 in the sim: 100 steps within %.3g of exact\n", dev);
    sim_free(&a);
    sim_free(&b);
}

/* The front end's default gravity: two touching balls of the mean radius
 * and mass attract, through gravity_forces, with k r / 100 (a tenth of a
 * contact compressed by r / 10). */
static void test_gravity_default(void)
{
    double m[2] = {1, 3}, r[2] = {10, 14}, G, soft;
    CHECK(gravity_default(2, m, r, 5, &G, &soft) == 0);
    CHECK_NEAR(soft, 12, 1e-12);
    double mm[2] = {2, 2}, x[2] = {0, 24}, y[2] = {0, 0}, fx[2] = {0, 0}, fy[2] = {0, 0};
    gravity_forces(2, x, y, mm, G, soft, fx, fy);
    CHECK_NEAR(fx[0], 5 * 12 / 100.0, 1e-12);
    CHECK_NEAR(fx[1], -5 * 12 / 100.0, 1e-12);
    CHECK(gravity_default(0, m, r, 5, &G, &soft) == -1 && G == 0);
}

/* Automatic gravity (theta < 0, the default): up to SIM_BH_MIN bodies the
 * exact sum to the bit; above, the tree, close to the exact sum. */
static void test_gravity_auto(void)
{
    const size_t sizes[2] = {SIM_BH_MIN, SIM_BH_MIN + 1};
    for (int c = 0; c < 2; c++) {
        size_t n = sizes[c];
        struct sim a, e;
        open_sim(&a, n, 1, 1e-3);
        open_sim(&e, n, 1, 1e-3);
        CHECK(a.p.theta < 0);
        e.p.theta = 0; /* exact at any size */
        a.p.softening = e.p.softening = 0.01;
        uint64_t st = 12345;
        for (size_t i = 0; i < n; i++) {
            st = st * 6364136223846793005u + 1442695040888963407u;
            double u = (double)(st >> 11) / 9007199254740992.0;
            st = st * 6364136223846793005u + 1442695040888963407u;
            double v = (double)(st >> 11) / 9007199254740992.0;
            a.x[i] = e.x[i] = u;
            a.y[i] = e.y[i] = v * v; /* denser at the bottom */
            a.m[i] = e.m[i] = 1.0 / (double)n;
            a.r[i] = e.r[i] = 0;
        }
        sim_forces(&a);
        sim_forces(&e);
        double num = 0, den = 0;
        for (size_t i = 0; i < n; i++) {
            num += (a.fx[i] - e.fx[i]) * (a.fx[i] - e.fx[i]) +
                   (a.fy[i] - e.fy[i]) * (a.fy[i] - e.fy[i]);
            den += e.fx[i] * e.fx[i] + e.fy[i] * e.fy[i];
        }
        double rel = sqrt(num / den);
        if (c == 0)
            CHECK(rel == 0); /* exact: the same sum */
        else
            CHECK(rel > 0 && rel < 0.03); /* the tree at theta 0.5 */
        printf("  gravity auto, %zu bodies: rms force error %.3g\n", n, rel);
        sim_free(&a);
        sim_free(&e);
    }
}

void test_systems(void)
{
    test_gravity_auto();
    test_gravity_default();
    test_e1();
    test_zeta();
    test_exp_turning_gap();
    test_exp_wall();
    test_exp_clamp();
    test_restitution();
    test_round_spring_wall();
    test_hard_rect_energy();
    test_hard_circle();
    test_round_containment();
    test_gravity_law();
    test_figure_eight();
    test_gravity_scene();
    test_barnes_hut();
}
