/*
 * test_friction.c - friction, the uniform field, open sides and the
 * Maxwell-Boltzmann gas against analytic results:
 *
 *  drag      v(t) = v0/(1 + c v0 t),  x(t) = ln(1 + c v0 t)/c
 *  linear    v(t) = v0 exp(-c t),     x(t) = v0 (1 - exp(-c t))/c
 *  rolling   stops at t = v0/A after x = v0^2/(2A), then stays at rest
 *  field     a projectile: x = x0 + vx t, y = y0 + vy t - g t^2/2 (and the
 *            semi-implicit Euler's own closed form, - g t dt/2 more)
 *  bounces   on a spring floor: the heights stay, the energy is bounded
 *  energy    ke + pe + pf + dissipated constant to first order in dt
 *  gas       2-D Maxwell-Boltzmann moments; the same bits from the same seed
 *
 * The velocity laws are exact per step (contact.h), so they agree to
 * rounding; positions are the integrator's (x += dt v after the step's
 * friction), first order in dt: the tests check the error and that it
 * halves with dt.
 */
#include "contact.h"
#include "scene_gen.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One ball of mass 2, radius 5 in the middle of a table far too big for
 * it to reach a wall. */
static void lone_ball(struct sim *s, const struct sim_params *p, double vx,
                      double vy)
{
    sim_init(s, 1, p);
    s->x[0] = 0.5 * p->w;
    s->y[0] = 0.5 * p->h;
    s->vx[0] = vx;
    s->vy[0] = vy;
    s->m[0] = 2;
    s->r[0] = 5;
}

static struct sim_params open_params(int law, double c, double dt)
{
    struct sim_params p = sim_default_params();
    p.w = p.h = 1e6;
    p.friction = law;
    p.friction_c = c;
    p.dt = dt;
    return p;
}

/* ===== Friction ===== */

/* Runs a lone ball with speed v0 along (3, 4)/5 for time T under a law;
 * returns the distance travelled and leaves the final speed in *v and the
 * dissipated energy in *diss. */
static double run_law(int law, double c, double dt, double v0, double T,
                      double *v, double *diss)
{
    struct sim_params p = open_params(law, c, dt);
    struct sim s;
    lone_ball(&s, &p, 0.6 * v0, 0.8 * v0);
    long n = lround(T / dt);
    double x0 = s.x[0], y0 = s.y[0];
    for (long i = 0; i < n; i++)
        sim_step(&s);
    *v = hypot(s.vx[0], s.vy[0]);
    struct sim_diag d;
    sim_diag(&s, &d);
    *diss = d.dissipated;
    /* the direction is kept: vx/vy stays 3/4 */
    CHECK_NEAR(s.vx[0] * 0.8, s.vy[0] * 0.6, 1e-13 * v0);
    double dist = hypot(s.x[0] - x0, s.y[0] - y0);
    sim_free(&s);
    return dist;
}

static void test_drag_law(void)
{
    /* the series' level 7: c = 0.0005; v0 = 8 */
    const double c = 0.0005, v0 = 8, T = 2000, dt = 0.05;
    double v, diss, v2, diss2;
    double x1 = run_law(SIM_FRICTION_DRAG, c, dt, v0, T, &v, &diss);
    double x2 = run_law(SIM_FRICTION_DRAG, c, dt / 2, v0, T, &v2, &diss2);
    double want_v = v0 / (1 + c * v0 * T), want_x = log1p(c * v0 * T) / c;
    CHECK_NEAR(v, want_v, 1e-12 * want_v);
    CHECK_NEAR(v2, want_v, 1e-12 * want_v);
    /* the energy taken out is the kinetic energy lost (m = 2) */
    CHECK_NEAR(diss, v0 * v0 - want_v * want_v, 1e-11 * v0 * v0);
    /* positions: first order, the right-endpoint sum lags by dt (v0 - v)/2 */
    double e1 = want_x - x1, e2 = want_x - x2;
    CHECK_NEAR(e1, 0.5 * dt * (v0 - want_v), 1e-3 * dt * v0);
    CHECK(e1 > 0 && e1 / e2 > 1.98 && e1 / e2 < 2.02);
    printf("  drag: v(T) %.17g, closed form %.17g; x error %.3g, %.3g at dt/2\n",
           v, want_v, e1, e2);
}

static void test_linear_law(void)
{
    const double c = 0.01, v0 = 5, T = 300, dt = 0.05;
    double v, diss, v2, diss2;
    double x1 = run_law(SIM_FRICTION_LINEAR, c, dt, v0, T, &v, &diss);
    double x2 = run_law(SIM_FRICTION_LINEAR, c, dt / 2, v0, T, &v2, &diss2);
    double want_v = v0 * exp(-c * T), want_x = -v0 * expm1(-c * T) / c;
    CHECK_NEAR(v, want_v, 1e-12 * want_v);
    CHECK_NEAR(v2, want_v, 1e-12 * want_v);
    CHECK_NEAR(diss, v0 * v0 - want_v * want_v, 1e-11 * v0 * v0);
    double e1 = want_x - x1, e2 = want_x - x2;
    CHECK_NEAR(e1, 0.5 * dt * (v0 - want_v), 1e-3 * dt * v0);
    CHECK(e1 > 0 && e1 / e2 > 1.98 && e1 / e2 < 2.02);
    printf("  linear: v(T) %.17g, closed form %.17g; x error %.3g, %.3g at dt/2\n",
           v, want_v, e1, e2);
}

/* A rolling ball from speed v0: the time of the first step at rest and the
 * distance it rolled; then checks that it does not move again. */
static double roll(double A, double v0, double dt, double *t_stop)
{
    struct sim_params p = open_params(SIM_FRICTION_ROLLING, A, dt);
    struct sim s;
    lone_ball(&s, &p, -0.6 * v0, 0.8 * v0);
    double x0 = s.x[0], y0 = s.y[0];
    *t_stop = -1;
    for (long i = 0; i < 10000000 && *t_stop < 0; i++) {
        sim_step(&s);
        if (s.vx[0] == 0 && s.vy[0] == 0)
            *t_stop = s.t;
    }
    double dist = hypot(s.x[0] - x0, s.y[0] - y0);
    /* at rest for good: the same bits after 10^4 more steps */
    double x = s.x[0], y = s.y[0];
    for (int i = 0; i < 10000; i++)
        sim_step(&s);
    CHECK(s.x[0] == x && s.y[0] == y && s.vx[0] == 0 && s.vy[0] == 0);
    struct sim_diag d;
    sim_diag(&s, &d);
    CHECK_NEAR(d.dissipated, v0 * v0, 1e-12 * v0 * v0); /* all of m v0^2/2, m = 2 */
    CHECK(d.ke == 0);
    sim_free(&s);
    return dist;
}

static void test_rolling_law(void)
{
    const double A = 0.1, v0 = 8.3;
    double ts1, ts2;
    double d1 = roll(A, v0, 0.05, &ts1), d2 = roll(A, v0, 0.025, &ts2);
    double want_t = v0 / A, want_d = v0 * v0 / (2 * A);
    /* the stop lands on the first step at or after v0/A */
    CHECK(ts1 >= want_t - 1e-9 && ts1 < want_t + 0.05 + 1e-9);
    CHECK(ts2 >= want_t - 1e-9 && ts2 < want_t + 0.025 + 1e-9);
    double e1 = fabs(d1 - want_d), e2 = fabs(d2 - want_d);
    CHECK(e1 < v0 * 0.05 && e2 < v0 * 0.025);
    CHECK(e2 < 0.6 * e1);
    printf("  rolling: stop at t %.6g and %.6g (v0/A %.6g), distance %.9g and "
           "%.9g (v0^2/2A %.9g)\n", ts1, ts2, want_t, d1, d2, want_d);
}

/* Rolling friction under a field: held at rest while |g| <= A (static
 * friction), sliding at |g| - A beyond. */
static void test_rolling_field(void)
{
    struct sim_params p = open_params(SIM_FRICTION_ROLLING, 0.5, 0.05);
    p.gx = 0.3;
    p.gy = -0.4; /* |g| = 0.5 = A: held */
    struct sim s;
    lone_ball(&s, &p, 0, 0);
    double x = s.x[0], y = s.y[0];
    for (int i = 0; i < 5000; i++)
        sim_step(&s);
    CHECK(s.x[0] == x && s.y[0] == y && s.vx[0] == 0 && s.vy[0] == 0);
    sim_free(&s);
    p.gx = 0;
    p.gy = -0.7; /* slides down at 0.2 */
    lone_ball(&s, &p, 0, 0);
    for (int i = 0; i < 2000; i++)
        sim_step(&s);
    CHECK(s.vx[0] == 0);
    CHECK_NEAR(s.vy[0], -0.2 * s.t, 1e-11);
    sim_free(&s);
}

/* No law reverses a velocity, however large c dt. */
static void test_friction_stiff(void)
{
    static const struct { int law; double c; } cases[] = {
        {SIM_FRICTION_DRAG, 1e6}, {SIM_FRICTION_LINEAR, 1e3},
        {SIM_FRICTION_ROLLING, 1e6},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sim_params p = open_params(cases[k].law, cases[k].c, 1);
        struct sim s;
        lone_ball(&s, &p, 7, -3);
        for (int i = 0; i < 100; i++) {
            sim_step(&s);
            CHECK(s.vx[0] >= 0 && s.vy[0] <= 0 && sim_finite(&s));
        }
        sim_free(&s);
    }
    /* and the law itself: energy out = kinetic energy lost */
    struct contact_friction f;
    struct sim_params p = open_params(SIM_FRICTION_DRAG, 0.3, 0.1);
    contact_friction_init(&f, &p);
    double vx = 3, vy = 4;
    double lost = contact_friction_apply(&f, &vx, &vy);
    CHECK_NEAR(hypot(vx, vy), 5 / 1.15, 1e-15);
    CHECK_NEAR(lost, 0.5 * (25 - 25 / (1.15 * 1.15)), 1e-14);
    vx = vy = 0;
    CHECK(contact_friction_apply(&f, &vx, &vy) == 0 && vx == 0 && vy == 0);
}

/* Friction with hard walls (reflected after the friction's share of the
 * step) and with dashpots: every ball stops, and the energy taken out is
 * all of the start's. */
static void test_friction_walls(void)
{
    static const char *const texts[] = {
        "walls hard\nfriction rolling 0.05\nrandom 40 8 1 6 3\n",
        "restitution 0.7\nfriction drag 0.01\nrandom 40 8 1 6 3\n",
    };
    for (size_t k = 0; k < 2; k++) {
        struct scene sc;
        struct scene_error err;
        CHECK(scene_parse(&sc, texts[k], strlen(texts[k]), &err) == 0);
        struct sim s;
        CHECK(scene_to_sim(&sc, &s) == 0);
        struct sim_diag d0, d;
        sim_diag(&s, &d0);
        for (int i = 0; i < 40000; i++)
            sim_step(&s);
        sim_diag(&s, &d);
        /* rolling: at rest to the bit; drag: v0/(1 + c v0 t) ~ 0.005 */
        CHECK(k ? d.ke < 1e-3 * d0.e : d.ke == 0);
        CHECK_NEAR(d.e + d.dissipated, d0.e, 0.01 * d0.e);
        printf("  friction with %s: ke %.3g, e + dissipated %.9g (start %.9g)\n",
               k ? "dashpots" : "hard walls", d.ke, d.e + d.dissipated, d0.e);
        sim_free(&s);
        scene_free(&sc);
    }
}

/* ===== The uniform field ===== */

static void test_projectile(void)
{
    const double g = 0.7, vx0 = 3, vy0 = 5;
    for (double dt = 0.05; dt > 0.01; dt /= 2) {
        struct sim_params p = open_params(SIM_FRICTION_NONE, 0, dt);
        p.gy = -g;
        struct sim s;
        lone_ball(&s, &p, vx0, vy0);
        const double x0 = s.x[0], y0 = s.y[0];
        double top = -INFINITY, land = NAN, py = y0, px = x0;
        struct sim_diag d0, d;
        sim_diag(&s, &d0);
        CHECK_NEAR(d0.pf, 2 * g * y0, 1e-9); /* -m g.y with g = (0, -g) */
        for (long i = 0; i < lround(20 / dt); i++) {
            sim_step(&s);
            top = s.y[0] > top ? s.y[0] : top;
            if (isnan(land) && s.y[0] < y0 && py >= y0) /* back down at y0 */
                land = px + (s.x[0] - px) * (py - y0) / (py - s.y[0]) - x0;
            px = s.x[0];
            py = s.y[0];
        }
        double t = s.t;
        /* semi-implicit Euler's own closed form, to rounding */
        /* (x0 = 5e5: its ulp 6e-11, added to once a step) */
        CHECK_NEAR(s.x[0], x0 + vx0 * t, 1e-6);
        CHECK_NEAR(s.y[0], y0 + vy0 * t - 0.5 * g * t * t - 0.5 * g * t * dt, 1e-6);
        CHECK_NEAR(s.vy[0], vy0 - g * t, 1e-12);
        /* the exact parabola: off by g t dt / 2, first order */
        double ey = (y0 + vy0 * t - 0.5 * g * t * t) - s.y[0];
        CHECK_NEAR(ey, 0.5 * g * t * dt, 1e-6);
        /* height and range */
        double H = vy0 * vy0 / (2 * g), R = 2 * vx0 * vy0 / g;
        CHECK(fabs(top - y0 - H) < vy0 * dt);
        CHECK(fabs(land - R) < 2 * vx0 * dt);
        /* the energy of semi-implicit Euler in free fall: -m g^2 t dt / 2 */
        sim_diag(&s, &d);
        CHECK_NEAR(d.e - d0.e, -0.5 * 2 * g * g * t * dt, 1e-9);
        printf("  projectile dt %g: height %.9g (H %.9g), range %.9g (R %.9g), "
               "y error %.3g = g t dt/2\n", dt, top - y0, H, land, R, ey);
        sim_free(&s);
    }
}

/*
 * A ball dropped from 300 on a spring floor (the series' level 5: g = 0.7,
 * k = 5). Semi-implicit Euler has no exact energy here: the floor's force
 * has a kink where contact begins, and the step that straddles it gives or
 * takes a little energy depending on where in the step contact starts. So
 * the peak heights make a random walk with no drift; its steps shrink as
 * dt^2 or faster (measured per-bounce rms 0.47 at dt 0.05, 0.099 at 0.025,
 * 0.011 at 0.0125), and at dt 0.0125 200 bounces stay within 0.03 of 300.
 */
static void test_bounce_heights(void)
{
    const int N = 200;
    double rms[3], mean[3], worst[3];
    for (int pass = 0; pass < 3; pass++) {
        struct sim_params p = sim_default_params();
        p.gy = -0.7;
        p.dt = 0.05 / (1 << pass);
        struct sim s;
        sim_init(&s, 1, &p);
        s.x[0] = 400;
        s.y[0] = 300;
        s.m[0] = 1;
        s.r[0] = 10;
        double prev = s.y[0], up = 0, last = 300, s1 = 0, s2 = 0;
        int peaks = 0;
        worst[pass] = 0;
        while (peaks < N && s.steps < 100000000) {
            sim_step(&s);
            if (s.vy[0] <= 0 && up > 0) { /* a peak */
                double h = prev > s.y[0] ? prev : s.y[0];
                double dev = fabs(h - 300);
                worst[pass] = dev > worst[pass] ? dev : worst[pass];
                s1 += h - last;
                s2 += (h - last) * (h - last);
                last = h;
                peaks++;
            }
            up = s.vy[0];
            prev = s.y[0];
        }
        CHECK(peaks == N);
        mean[pass] = s1 / N;
        rms[pass] = sqrt(s2 / N);
        /* no drift: the net change is that of a random walk of N steps */
        CHECK(fabs(mean[pass]) < 5 * rms[pass] / sqrt(N));
        printf("  bounces dt %g: %d peaks within %.4g of the drop height 300; "
               "per bounce rms %.3g, mean %.3g\n", p.dt, N, worst[pass],
               rms[pass], mean[pass]);
        sim_free(&s);
    }
    CHECK(rms[1] < rms[0] / 3 && rms[2] < rms[1] / 3);
    CHECK(worst[2] < 0.05);
}

/* ke + pe + pf + dissipated is constant to first order in dt: a gas with
 * drag, a field and spring walls, at dt and dt/2. */
static double bookkeeping(double dt, int law, double c)
{
    struct scene sc;
    struct scene_error err;
    const char *text = "table 300 300\nrandom 40 6 1 4 11 maxwell\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    sc.p.dt = dt;
    sc.p.k = 20;
    sc.p.gy = -0.5;
    sc.p.gx = 0.1;
    sc.p.friction = law;
    sc.p.friction_c = c;
    struct sim s;
    CHECK(scene_to_sim(&sc, &s) == 0);
    struct sim_diag d0, d;
    sim_diag(&s, &d0);
    double worst = 0;
    while (s.t < 200) {
        sim_step(&s);
        sim_diag(&s, &d);
        double de = fabs(d.e + d.dissipated - d0.e);
        worst = de > worst ? de : worst;
    }
    CHECK(d.dissipated > 0.05 * d0.e); /* friction did work */
    sim_free(&s);
    scene_free(&sc);
    return worst / d0.e;
}

static void test_energy_bookkeeping(void)
{
    static const struct { int law; double c; const char *name; } laws[] = {
        {SIM_FRICTION_DRAG, 0.002, "drag"},
        {SIM_FRICTION_LINEAR, 0.002, "linear"},
        {SIM_FRICTION_ROLLING, 0.004, "rolling"},
    };
    for (size_t k = 0; k < sizeof laws / sizeof *laws; k++) {
        double a = bookkeeping(0.02, laws[k].law, laws[k].c);
        double b = bookkeeping(0.01, laws[k].law, laws[k].c);
        CHECK(a < 0.02 && b < 0.02);
        CHECK(b < 0.75 * a); /* shrinks with dt (first order: about half) */
        printf("  bookkeeping with %s: |ke + pe + pf + dissipated - e0|/e0 "
               "%.3g at dt 0.02, %.3g at 0.01\n", laws[k].name, a, b);
    }
}

/* ===== Open sides ===== */

static void test_open_top(void)
{
    /* thrown up through an open top, a ball keeps flying and falls back in;
     * through an open bottom it falls for good */
    struct sim_params p = sim_default_params();
    p.gy = -0.7;
    p.open = SIM_SIDE_TOP | SIM_SIDE_BOTTOM;
    struct sim s;
    sim_init(&s, 1, &p);
    s.x[0] = 400;
    s.y[0] = 300;
    s.vy[0] = 30; /* rises 30^2/1.4 = 643 above 300 */
    s.m[0] = 1;
    s.r[0] = 10;
    struct sim_diag d;
    long most = 0;
    double top = 0;
    while (s.vy[0] > 0 || s.y[0] > 0) {
        sim_step(&s);
        sim_diag(&s, &d);
        most = d.out > most ? d.out : most;
        top = s.y[0] > top ? s.y[0] : top;
    }
    CHECK(most == 1 && top > 900 && top < 950);
    for (int i = 0; i < 400; i++)
        sim_step(&s);
    sim_diag(&s, &d);
    CHECK(d.out == 1 && s.y[0] < -500 && s.x[0] == 400);
    sim_free(&s);
    /* hard walls with an open side: reflected by the others only */
    p.walls = SIM_WALLS_HARD;
    p.open = SIM_SIDE_RIGHT;
    p.gy = 0;
    sim_init(&s, 1, &p);
    s.x[0] = 700;
    s.y[0] = 200;
    s.vx[0] = 20;
    s.vy[0] = 3;
    s.m[0] = 1;
    s.r[0] = 10;
    for (int i = 0; i < 4000; i++)
        sim_step(&s);
    CHECK(s.x[0] > 4000 && s.vx[0] == 20 && s.y[0] >= 10 && s.y[0] <= 390);
    sim_free(&s);
}

/* ===== The gas ===== */

static void test_scene_gen_log(void)
{
    uint64_t st = 12345;
    double worst = 0;
    for (int i = 0; i < 200000; i++) {
        st = st * 6364136223846793005u + 1442695040888963407u;
        /* x over 600 decades and near 1 */
        double u = (double)(st >> 11) / 9007199254740992.0;
        double x = i % 2 ? exp((u - 0.5) * 1400) : 1 + (u - 0.5) * 1e-3;
        double a = scene_gen_log(x), b = log(x);
        double ulp = nextafter(fabs(b), INFINITY) - fabs(b);
        double e = fabs(a - b) / ulp;
        worst = e > worst ? e : worst;
    }
    CHECK(worst <= 2);
    CHECK(scene_gen_log(1) == 0);
    CHECK_NEAR(scene_gen_log(2), 0.69314718055994530942, 1e-16);
    CHECK_NEAR(scene_gen_log(4.9406564584124654e-324), -744.44007192138126, 1e-12);
    printf("  scene_gen_log: within %.2g ulp of libm's log\n", worst);
}

/* FNV-1a over the bytes of every ball's numbers. */
static uint64_t scene_hash(const struct scene *sc)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < sc->n; i++) {
        double v[6] = {sc->balls[i].x, sc->balls[i].y, sc->balls[i].vx,
                       sc->balls[i].vy, sc->balls[i].m, sc->balls[i].r};
        for (int k = 0; k < 6; k++) {
            uint64_t b;
            memcpy(&b, &v[k], sizeof b);
            for (int j = 0; j < 8; j++) {
                h ^= (b >> (8 * j)) & 0xff;
                h *= 1099511628211u;
            }
        }
    }
    return h;
}

static void test_maxwell(void)
{
    const size_t N = 100000;
    const double vrms = 3;
    struct scene sc;
    struct scene_error err;
    const char *text = "table 4000 4000\nrandom 100000 1 1 3 42 maxwell\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.n == N);
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, s4 = 0;
    size_t below = 0;
    for (size_t i = 0; i < sc.n; i++) {
        double u = sc.balls[i].vx, v = sc.balls[i].vy;
        sx += u;
        sy += v;
        sxx += u * u;
        syy += v * v;
        sxy += u * v;
        s4 += u * u * u * u + v * v * v * v;
        below += u * u + v * v < vrms * vrms;
    }
    const double var = vrms * vrms / 2, n = (double)N;
    /* means within 3 sigma of 0: sigma of a mean is sqrt(var / N) */
    CHECK(fabs(sx / n) < 3 * sqrt(var / n));
    CHECK(fabs(sy / n) < 3 * sqrt(var / n));
    /* variances within 3 sigma of var: sigma of a sample variance is var sqrt(2/N) */
    CHECK(fabs(sxx / n - var) < 3 * var * sqrt(2 / n));
    CHECK(fabs(syy / n - var) < 3 * var * sqrt(2 / n));
    /* uncorrelated, and Gaussian tails: E u^4 = 3 var^2 (sigma sqrt(96/N) var^2) */
    CHECK(fabs(sxy / n) < 3 * var / sqrt(n));
    CHECK(fabs(s4 / (2 * n) - 3 * var * var) < 3 * var * var * sqrt(96 / (2 * n)));
    /* the 2-D speed law: P(|v| < vrms) = 1 - 1/e */
    double pb = 1 - exp(-1);
    CHECK(fabs((double)below / n - pb) < 3 * sqrt(pb * (1 - pb) / n));
    printf("  maxwell, %zu balls: means %.3g %.3g, variances %.5g %.5g (%g), "
           "P(v < vrms) %.5f (%.5f)\n", N, sx / n, sy / n, sxx / n, syy / n, var,
           (double)below / n, pb);
    scene_free(&sc);
    /* the same seed gives the same bits on every machine: the placement and
     * the speeds use +, -, *, /, sqrt and frexp alone (this constant was
     * computed on x86-64 glibc and must hold everywhere; it changed when
     * each mass got its own variance kT/m) */
    text = "table 200 100\nrandom 50 2..4 1 3 7 maxwell\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    uint64_t h = scene_hash(&sc);
    printf("  maxwell, 50 balls of seed 7: hash %016llx\n", (unsigned long long)h);
    CHECK(h == 0xb1d47c2949df4e94ull);
    scene_free(&sc);
    /* One temperature: every mass draws its components from a Gaussian of
     * variance kT/m, kT = M SPEED^2 / 2 (8 here), so that light and heavy
     * balls (masses 1 to 9) have the same mean kinetic energy kT. Each
     * ball's energy is exponential with mean kT, so a group's mean has the
     * error kT / sqrt(n). (Each mass at rms speed SPEED gave the heavy
     * balls 2.7 times the light ones' energy: 50.56 and 18.55.) */
    text = "table 4000 4000\nrandom 100000 1..3 1 4 5 maxwell\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    double kl = 0, kh = 0, nl = 0, nh = 0;
    for (size_t i = 0; i < sc.n; i++) {
        const struct scene_ball *b = &sc.balls[i];
        double ke = 0.5 * b->m * (b->vx * b->vx + b->vy * b->vy);
        if (b->r < 2)
            kl += ke, nl++;
        else
            kh += ke, nh++;
    }
    const double kT = 8;
    kl /= nl;
    kh /= nh;
    printf("  maxwell, masses 1 to 9 at kT %g: mean kinetic energy %.4f (%g light), "
           "%.4f (%g heavy)\n", kT, kl, nl, kh, nh);
    CHECK(fabs(kl - kh) < 3 * kT * sqrt(1 / nl + 1 / nh));
    CHECK(fabs(kl - kT) < 3 * kT / sqrt(nl));
    CHECK(fabs(kh - kT) < 3 * kT / sqrt(nh));
    scene_free(&sc);
}

static void test_radius_range(void)
{
    struct scene sc;
    struct scene_error err;
    const char *text = "table 2000 2000\nrandom 20000 1..3 2 1 5\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    double sr = 0;
    int mass_ok = 1, range_ok = 1, speed_ok = 1;
    for (size_t i = 0; i < sc.n; i++) {
        const struct scene_ball *b = &sc.balls[i];
        sr += b->r;
        mass_ok &= b->m == 2 * (b->r * b->r); /* M (r/R0)^2, R0 = 1 */
        range_ok &= b->r >= 1 && b->r <= 3;
        speed_ok &= fabs(hypot(b->vx, b->vy) - 1) < 1e-15;
    }
    CHECK(mass_ok && range_ok && speed_ok);
    /* uniform on [1, 3]: mean 2, sigma of the mean sqrt(1/3 / N) */
    double n = (double)sc.n;
    CHECK(fabs(sr / n - 2) < 3 * sqrt(1.0 / 3 / n));
    /* no two overlap (a sorted sweep along x) */
    size_t *ord = malloc(sc.n * sizeof *ord);
    for (size_t i = 0; i < sc.n; i++)
        ord[i] = i;
    for (size_t i = 1; i < sc.n; i++) { /* insertion sort is fine: nearly random */
        size_t k = ord[i], j = i;
        while (j > 0 && sc.balls[ord[j - 1]].x > sc.balls[k].x) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = k;
    }
    int overlap = 0;
    for (size_t a = 0; a < sc.n; a++)
        for (size_t b = a + 1; b < sc.n; b++) {
            const struct scene_ball *p = &sc.balls[ord[a]], *q = &sc.balls[ord[b]];
            if (q->x - p->x >= 6)
                break;
            double dx = q->x - p->x, dy = q->y - p->y, rr = p->r + q->r;
            overlap |= dx * dx + dy * dy < rr * rr;
        }
    CHECK(!overlap);
    free(ord);
    scene_free(&sc);
}

/* ===== Scenes ===== */

static void test_directives(void)
{
    struct scene sc;
    struct scene_error err;
    const char *text = "friction drag 0.0005\nfield 0 -0.7\nopen top left\n"
                       "ball 100 450 0 0 1 10\nball -5 200 1 0 1 10\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.p.friction == SIM_FRICTION_DRAG && sc.p.friction_c == 0.0005);
    CHECK(sc.p.gx == 0 && sc.p.gy == -0.7);
    CHECK(sc.p.open == (SIM_SIDE_TOP | SIM_SIDE_LEFT));
    CHECK(!sim_hooke_rect(&sc.p));
    /* written and read back: the same parameters and bytes */
    struct sim s;
    CHECK(scene_to_sim(&sc, &s) == 0);
    char buf[4096], buf2[4096];
    FILE *f = tmpfile();
    scene_write(f, &sc, &s);
    rewind(f);
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    CHECK(strstr(buf, "friction drag 0.0005\n") != NULL);
    CHECK(strstr(buf, "field 0 -0.7\n") != NULL);
    CHECK(strstr(buf, "open left top\n") != NULL);
    struct scene sc2;
    CHECK(scene_parse(&sc2, buf, len, &err) == 0);
    CHECK(memcmp(&sc2.p, &sc.p, sizeof sc.p) == 0);
    struct sim s2;
    CHECK(scene_to_sim(&sc2, &s2) == 0);
    f = tmpfile();
    scene_write(f, &sc2, &s2);
    rewind(f);
    size_t len2 = fread(buf2, 1, sizeof buf2 - 1, f);
    fclose(f);
    CHECK(len2 == len && memcmp(buf, buf2, len) == 0);
    sim_free(&s);
    sim_free(&s2);
    scene_free(&sc);
    scene_free(&sc2);
    /* the other laws, and no-ops that keep the plain path */
    text = "friction rolling 0.2\nball 100 100 0 0 1 10\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.p.friction == SIM_FRICTION_ROLLING && sc.p.friction_c == 0.2);
    scene_free(&sc);
    text = "friction linear 3\nball 100 100 0 0 1 10\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sc.p.friction == SIM_FRICTION_LINEAR && sc.p.friction_c == 3);
    scene_free(&sc);
    text = "field 0 0\nball 100 100 0 0 1 10\n";
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    CHECK(sim_hooke_rect(&sc.p));
    scene_free(&sc);

    static const struct { const char *text; int line; const char *msg; } bad[] = {
        {"friction\n", 1, "friction: missing law"},
        {"friction sticky 1\n", 1, "friction: unknown law 'sticky'"},
        {"friction drag\n", 1, "friction drag C: missing field"},
        {"friction drag 1 2\n", 1, "friction drag C: extra field '2'"},
        {"friction rolling 0\n", 1, "friction rolling A must be > 0"},
        {"friction linear x\n", 1, "friction linear C: 'x' is not a number"},
        {"friction drag 1\nfriction linear 1\n", 2, "'friction' given twice"},
        {"field 1\n", 1, "field GX GY: missing field"},
        {"field 1 2 3\n", 1, "extra field '3'"},
        {"field 0 inf\n", 1, "field GY"},
        {"field 0 1\nfield 0 1\n", 2, "'field' given twice"},
        {"open\n", 1, "open SIDE... (left right bottom top): missing field"},
        {"open middle\n", 1, "open: unknown side 'middle'"},
        {"open top top\n", 1, "open: side 'top' given twice"},
        {"open top\nopen left\n", 2, "'open' given twice"},
        {"table circle 100\nopen top\nball 100 100 0 0 1 5\n", 2,
         "open: only a rectangular table has sides to open"},
        {"walls hard\nopen top\nball 100 500 0 0 1 5\nball 100 -1 0 0 1 5\n", 4,
         "ball 2 at (100, -1) of radius 5 crosses a wall"},
        {"walls hard\nopen left\nball -20 -1 0 0 1 5\n", 3,
         "ball 1 at (-20, -1) of radius 5 crosses a wall"},
        {"random 5 3..1 1 1 1\n", 1, "random: radius range 3..1 runs backwards"},
        {"random 5 0..1 1 1 1\n", 1, "smallest radius must be > 0"},
        {"random 5 1..x 1 1 1\n", 1, "largest radius: 'x' is not a number"},
        {"random 5 1 1 1 1 boltzmann\n", 1, "random: unknown option 'boltzmann'"},
        {"random 5 1 1 1 1 maxwell x\n", 1, "extra field 'x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = scene_parse(&sc, bad[i].text, strlen(bad[i].text), &err);
        check_parse_error("friction", i, rc, &sc, &err, bad[i].line, bad[i].msg, 0);
    }
}

void test_friction(void)
{
    test_drag_law();
    test_linear_law();
    test_rolling_law();
    test_rolling_field();
    test_friction_stiff();
    test_friction_walls();
    test_projectile();
    test_bounce_heights();
    test_energy_bookkeeping();
    test_open_top();
    test_scene_gen_log();
    test_maxwell();
    test_radius_range();
    test_directives();
}
