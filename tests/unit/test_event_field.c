/*
 * test_event_field.c - the event engine in a uniform field and with open
 * sides, against analytic results: a projectile exact to rounding, bounce
 * heights and times kept over 10^4 elastic bounces, a head-on collision in
 * free fall equal to the one without the field, energy ke + pf kept by an
 * elastic gas, the grid and all pairs bit for bit, balls thrown through an
 * open top coming back, a round table (a quartic: no missed bounce), and
 * the resting-contact rule; and friction (linear drag, rolling) exact:
 * single balls, head-on pairs and random rolling pairs against closed
 * forms and a brute-force search: balls at rest on a
 * floor, an inelastic pile settling, a state pressed into the floor by the
 * spring engine, all reaching their end time in bounded work.
 */
#include "event.h"
#include "event_impl.h" /* white box: the grid and lists chosen */
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int start(struct event *ev, struct sim *s, const char *text, int grid)
{
    struct event_config c = event_default_config();
    c.grid = grid;
    if (test_load(s, text) != 0)
        return -1;
    return event_init(ev, s, &c, NULL);
}

/* The state of ball i now. */
static void now(const struct event *ev, size_t i, double *x, double *y, double *vx,
                double *vy)
{
    struct sim s;
    sim_init(&s, ev->n, &ev->p);
    event_to_sim(ev, &s);
    *x = s.x[i];
    *y = s.y[i];
    *vx = s.vx[i];
    *vy = s.vy[i];
    sim_free(&s);
}

static int rel_near(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b);
}

static void test_projectile(void)
{
    /* x = x0 + vx t, y = y0 + vy t - g t^2 / 2, v = (vx, vy - g t) */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 1000 1000\nfield 0 -0.7\nball 100 300 3 12 1 10\n", 1) ==
          EVENT_OK);
    for (int k = 1; k <= 5; k++) {
        double T = 5.0 * k, x, y, vx, vy;
        CHECK(event_advance(&ev, T, 0) == 1);
        now(&ev, 0, &x, &y, &vx, &vy);
        CHECK(rel_near(x, 100 + 3 * T, 1e-15));
        CHECK(rel_near(y, 300 + 12 * T - 0.35 * T * T, 1e-14));
        CHECK(vx == 3);
        CHECK(rel_near(vy, 12 - 0.7 * T, 1e-14));
    }
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.events == 0);
    CHECK(rel_near(d.pf, -(-0.7 * (300 + 12 * 25.0 - 0.35 * 625)), 1e-14));
    CHECK_NEAR(d.de, 0, 1e-14);
    event_free(&ev);
    sim_free(&s);
}

static void test_bounces(void)
{
    /* Dropped from rest at height H above the floor's contact line: the
     * n-th bounce at t = (2n - 1) sqrt(2 H / g), leaving at sqrt(2 g H),
     * back to the same height, 10^4 times; a field along x alike. */
    static const struct {
        double gx, gy;
        const char *text;
    } cases[] = {
        {0, -0.7, "table 400 400\nfield 0 -0.7\nball 200 310 0 0 1 10\n"},
        {-2, 0, "table 400 400\nfield -2 0\nball 310 200 0 0 1 10\n"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim s;
        struct event ev;
        CHECK(start(&ev, &s, cases[c].text, 1) == EVENT_OK);
        double g = fabs(cases[c].gx + cases[c].gy), H = 300;
        double t1 = sqrt(2 * H / g), u = sqrt(2 * g * H);
        CHECK(event_step(&ev, 10000) == 10000);
        double x, y, vx, vy;
        now(&ev, 0, &x, &y, &vx, &vy);
        CHECK(rel_near(ev.t, 19999 * t1, 1e-12));
        /* the height it will rise to, y + v^2 / 2g: the drop's; the speed
         * itself is that at the moment reached, which is on a time grid
         * 1e-10 apart at t = 5e5 */
        double up = cases[c].gy != 0 ? vy : vx, across = cases[c].gy != 0 ? vx : vy;
        double q = cases[c].gy != 0 ? y : x;
        CHECK(up > 0 && rel_near(q + up * up / (2 * g), 310, 1e-12));
        CHECK(rel_near(up, u, 1e-10));
        CHECK(across == 0);
        /* to the top: the height of the drop */
        CHECK(event_advance(&ev, ev.t + t1, 0) == 1);
        now(&ev, 0, &x, &y, &vx, &vy);
        CHECK(rel_near(cases[c].gy != 0 ? y : x, 310, 1e-12));
        struct event_diag d;
        event_diag(&ev, &d);
        CHECK(d.walls == 10000);
        CHECK_NEAR(d.de, 0, 1e-12);
        event_free(&ev);
        sim_free(&s);
    }
}

static void test_free_fall_collision(void)
{
    /* Two balls head-on along x while falling: the field moves both alike,
     * so x and the velocities along x are those without it, to the bit,
     * and y is the free fall. */
    const char *with = "table 2000 2000\nfield 0 -1\nball 100 1900 4 0 1 10\n"
                       "ball 300 1900 -2 0 3 10\n";
    const char *without = "table 2000 2000\nball 100 1900 4 0 1 10\nball 300 1900 -2 0 3 10\n";
    struct sim s1, s2;
    struct event e1, e2;
    CHECK(start(&e1, &s1, with, 0) == EVENT_OK);
    CHECK(start(&e2, &s2, without, 0) == EVENT_OK);
    CHECK(event_advance(&e1, 50, 0) == 1);
    CHECK(event_advance(&e2, 50, 0) == 1);
    CHECK(e1.collisions == 1 && e2.collisions == 1);
    for (size_t i = 0; i < 2; i++) {
        double x1, y1, vx1, vy1, x2, y2, vx2, vy2;
        now(&e1, i, &x1, &y1, &vx1, &vy1);
        now(&e2, i, &x2, &y2, &vx2, &vy2);
        CHECK(x1 == x2 && vx1 == vx2);
        CHECK(rel_near(y1, 1900 - 0.5 * 2500, 1e-14));
        CHECK(vy1 == -50);
    }
    event_free(&e1);
    event_free(&e2);
    sim_free(&s1);
    sim_free(&s2);
}

/* Runs @p text for @p events with the grid and with all pairs: 1 when
 * every ball agrees to the bit. */
static int grid_is_pairs(const char *text, long long events)
{
    struct sim s1, s2, a, b;
    struct event g, p;
    int ok = start(&g, &s1, text, 2) == EVENT_OK && start(&p, &s2, text, 0) == EVENT_OK;
    ok = ok && g.in->grid && !p.in->grid;
    ok = ok && event_step(&g, events) == events && event_step(&p, events) == events;
    sim_init(&a, s1.n, &s1.p);
    sim_init(&b, s1.n, &s1.p);
    event_to_sim(&g, &a);
    event_to_sim(&p, &b);
    ok = ok && a.t == b.t && g.collisions == p.collisions && g.in->crossings > 0;
    for (size_t i = 0; ok && i < a.n; i++)
        ok = a.x[i] == b.x[i] && a.y[i] == b.y[i] && a.vx[i] == b.vx[i] &&
             a.vy[i] == b.vy[i];
    event_free(&g);
    event_free(&p);
    sim_free(&s1);
    sim_free(&s2);
    sim_free(&a);
    sim_free(&b);
    return ok;
}

static void test_gas(void)
{
    /* an elastic gas in a field keeps ke + pf (de) to 1e-12 */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 300 300\nfield 0.3 -1\nrandom 400 2 1 5 7\n", 1) == EVENT_OK);
    CHECK(ev.in->grid == 1 && ev.in->field);
    CHECK(event_step(&ev, 200000) == 200000);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.collisions > 100000 && d.walls > 1000);
    CHECK_NEAR(d.de, 0, 1e-12);
    event_free(&ev);
    sim_free(&s);
    /* the grid changes nothing: crossings are timed on parabolas */
    CHECK(grid_is_pairs("table 300 300\nfield 0.3 -1\nrandom 400 2 1 5 7\n", 50000));
    CHECK(grid_is_pairs("table 300 300\nfield 0 -2\nrestitution 0.9\nrandom 300 3 1 5 8\n",
                        50000));
    CHECK(grid_is_pairs("table 300 300\nfield 0 -1\nopen top\nrandom 300 3 1 12 9\n", 30000));
}

static void test_open(void)
{
    /* thrown up at 20 through an open top (h 100): out above it, back
     * down onto the floor at t = 40 and up again */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 100 100\nfield 0 -1\nopen top\nball 50 10 0 20 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_advance(&ev, 20, 0) == 1);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.out == 1 && d.walls == 0);
    double x, y, vx, vy;
    now(&ev, 0, &x, &y, &vx, &vy);
    CHECK(rel_near(y, 210, 1e-14));
    CHECK(event_step(&ev, 1) == 1);
    CHECK(rel_near(ev.t, 40, 1e-14));
    now(&ev, 0, &x, &y, &vx, &vy);
    CHECK(rel_near(vy, 20, 1e-13));
    event_diag(&ev, &d);
    CHECK(d.out == 0);
    event_free(&ev);
    sim_free(&s);
    /* through an open bottom: gone for good, no event ever */
    CHECK(start(&ev, &s, "table 100 100\nfield 0 -1\nopen bottom\nball 50 50 0 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_advance(&ev, 1000, 0) == 1);
    event_diag(&ev, &d);
    CHECK(d.out == 1 && d.events == 0);
    event_free(&ev);
    sim_free(&s);
    /* a ball starting past an open side is no fault; past a wall it is */
    CHECK(start(&ev, &s, "table 100 100\nopen left\nball -50 50 1 0 1 10\n", 1) == EVENT_OK);
    event_free(&ev);
    sim_free(&s);
    CHECK(start(&ev, &s, "table 100 100\nopen left\nball 150 50 1 0 1 10\n", 1) == EVENT_EWALL);
    sim_free(&s);
}

static void test_resting(void)
{
    /* at rest on the floor, elastic and not: it hops hrest high at most,
     * about sqrt(g / 8 hrest) times a unit of time, and time goes on */
    for (int inel = 0; inel <= 1; inel++) {
        struct sim s;
        struct event ev;
        CHECK(start(&ev, &s,
                    inel ? "table 100 100\nfield 0 -1\nrestitution 0.5\nball 50 10 0 0 1 10\n"
                         : "table 100 100\nfield 0 -1\nball 50 10 0 0 1 10\n",
                    1) == EVENT_OK);
        CHECK(event_advance(&ev, 100, 10000000) == 1);
        struct event_diag d;
        event_diag(&ev, &d);
        double rate = sqrt(1 / (8 * ev.in->hrest));
        CHECK(d.walls >= 90 * rate && d.walls <= 110 * rate);
        double x, y, vx, vy;
        now(&ev, 0, &x, &y, &vx, &vy);
        CHECK(y >= 10 - 1e-12 && y <= 10 + 1.0001 * ev.in->hrest);
        event_free(&ev);
        sim_free(&s);
    }
    /* an inelastic gas settles into a pile about eight balls deep: no ball
     * through the floor, the energy down to the hops, in bounded work */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 200 200\nfield 0 -1\nrestitution 0.7\nrandom 150 4 1 6 3\n",
                1) == EVENT_OK);
    double e0 = ev.in->e0;
    CHECK(event_advance(&ev, 100, 1000000) == 1);
    /* settled and hopping at a steady rate: the TC model's contact time is
     * the hop's (it grew without end when it was 1e-6 r / v) */
    long long c1 = ev.collisions;
    CHECK(event_advance(&ev, 150, 1000000) == 1);
    double rate = (double)(ev.collisions - c1) / 50;
    CHECK(rate > 200 && rate < 5000); /* 2 100 (it was 10^5 and growing) */
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.ke < 1e-3 * (e0 - d.pf));
    struct sim a;
    sim_init(&a, ev.n, &ev.p);
    event_to_sim(&ev, &a);
    double lowest = INFINITY;
    for (size_t i = 0; i < a.n; i++)
        lowest = fmin(lowest, a.y[i] - a.r[i]);
    CHECK(lowest >= -1e-9);
    sim_free(&a);
    event_free(&ev);
    sim_free(&s);
}

static void test_pressed(void)
{
    /* a state from the spring engine, pressed 0.1 into the floor and into
     * a wall the field leans on: out at once, on with time */
    struct sim s;
    struct event ev;
    struct event_config c = event_default_config();
    c.allow_overlap = 1;
    CHECK(test_load(&s, "table 100 100\nfield -0.5 -1\nrestitution 0.3\nball 9.9 9.9 0 0 1 10\n"
                    "ball 50 9.9 -1 0 1 10\n") == 0);
    CHECK(event_init(&ev, &s, &c, NULL) == EVENT_OK);
    CHECK(event_advance(&ev, 50, 1000000) == 1);
    struct sim a;
    sim_init(&a, ev.n, &ev.p);
    event_to_sim(&ev, &a);
    for (size_t i = 0; i < 2; i++)
        CHECK(a.x[i] >= 10 - 1e-9 && a.y[i] >= 10 - 1e-9);
    sim_free(&a);
    event_free(&ev);
    sim_free(&s);
}

static void test_extreme(void)
{
    /* speeds near 1e300 in a field: the squares overflow; no zero-time
     * bouncing between the walls, the events reached in bounded work */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 100 100\nfield 0 -1e-3\nball 50 50 1e300 3e299 1 1\n", 1) ==
          EVENT_OK);
    CHECK(event_step(&ev, 100) == 100);
    CHECK(ev.t > 0 && ev.t < 1e-295);
    event_free(&ev);
    sim_free(&s);
    /* a field and a slow ball on a huge table: no cancellation to 0 */
    CHECK(start(&ev, &s, "table 1e200 1e200\nfield 0 -1e-100\nball 5e199 5e199 1 0 1 1e190\n",
                1) == EVENT_OK);
    CHECK(event_step(&ev, 3) == 3);
    CHECK(ev.t > 1e149);
    event_free(&ev);
    sim_free(&s);
}

static void test_bowl(void)
{
    /* Dropped from the centre of a round table (R 100, r 10): the n-th
     * bounce at (2n - 1) sqrt(2 L / g), L = 90, 10^4 times */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table circle 100\nfield 0 -1\nball 100 100 0 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_step(&ev, 10000) == 10000);
    CHECK(rel_near(ev.t, 19999 * sqrt(180.0), 1e-12));
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK_NEAR(d.de, 0, 1e-12);
    event_free(&ev);
    sim_free(&s);
    /* Thrown across it: a billiard in a field, chaotic, with bounces that
     * graze the wall. Sampled between its events the ball is never past
     * the wall (a missed root would let it fly out), and ke + pf stays. */
    CHECK(start(&ev, &s, "table circle 100\nfield 0.3 -1\nball 60 120 7 3 1 10\n", 1) ==
          EVENT_OK);
    double worst = -INFINITY;
    int stepped = 1;
    for (int k = 0; k < 20000; k++) {
        double t0 = ev.t;
        stepped &= event_step(&ev, 1) == 1;
        double t1 = ev.t;
        for (int j = 1; j <= 8; j++) {
            double x, y, vx, vy;
            event_advance(&ev, t0 + (t1 - t0) * j / 8.0, 0);
            now(&ev, 0, &x, &y, &vx, &vy);
            double out = hypot(x - 100, y - 100) - 90;
            worst = out > worst ? out : worst;
        }
    }
    /* past it by no more than the time grid allows: positions are taken
     * at times 7e-12 apart at t = 6e4, at speeds near 15 */
    CHECK(worst <= 1e-9);
    CHECK(stepped);
    event_diag(&ev, &d);
    CHECK(d.walls == 20000);
    CHECK_NEAR(d.de, 0, 1e-12);
    event_free(&ev);
    sim_free(&s);
    /* at rest at the bottom: it hops, and time goes on */
    CHECK(start(&ev, &s, "table circle 100\nfield 0 -1\nrestitution 0.5\nball 100 10 0 0 1 10\n",
                1) == EVENT_OK);
    CHECK(event_advance(&ev, 100, 100000) == 1);
    event_diag(&ev, &d);
    CHECK(d.walls > 100 && d.walls < 1000);
    event_free(&ev);
    sim_free(&s);
    /* a gas in the bowl: the grid and all pairs to the bit */
    CHECK(grid_is_pairs("table circle 150\nfield 0 -1\nrandom 300 2 1 5 4\n", 30000));
}

static void test_sliding(void)
{
    /* An inelastic gas on a round table: balls end up sliding along the
     * wall, which with e < 1 makes ever shorter chords. They now leave it
     * for chords of sagitta hrest: 4 600 000 bounces in 100 units of time
     * before, 7 000 now. */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table circle 50\nrestitution 0.1\nrandom 100 0.5 1 5 141\n", 1) ==
          EVENT_OK);
    CHECK(event_advance(&ev, 100, 1000000) == 1);
    CHECK(ev.walls > 1000 && ev.walls < 50000);
    event_free(&ev);
    sim_free(&s);
    /* and with rolling friction they come to rest on it */
    CHECK(start(&ev, &s, "table circle 50\nfriction rolling 0.05\nrestitution 0.1\n"
                         "random 100 0.5 1 5 141\n", 1) == EVENT_OK);
    CHECK(event_advance(&ev, 200, 1000000) == 1);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.ke == 0);
    event_free(&ev);
    sim_free(&s);
}

static void test_unsupported(void)
{
    struct sim_params p = sim_default_params();
    p.gy = -1;
    p.open = SIM_SIDE_TOP;
    CHECK(event_unsupported(&p) == NULL);
    p.open = 0;
    p.shape = SIM_CIRCLE;
    CHECK(event_unsupported(&p) == NULL);
    p = sim_default_params();
    p.friction = SIM_FRICTION_DRAG;
    p.friction_c = 1;
    CHECK(event_unsupported(&p) && strstr(event_unsupported(&p), "friction drag") != NULL);
    p.friction = SIM_FRICTION_ROLLING;
    CHECK(event_unsupported(&p) == NULL);
    p.friction = SIM_FRICTION_LINEAR;
    CHECK(event_unsupported(&p) == NULL);
    p.gy = -1;
    CHECK(event_unsupported(&p) && strstr(event_unsupported(&p), "with a field") != NULL);
}

/* ===== Friction: linear drag and rolling ===== */

static void test_friction_one(void)
{
    /* linear drag c: x = x0 + v0 (1 - e^(-ct)) / c, v = v0 e^(-ct); it
     * reaches a wall 150 away at -ln(1 - 150 c / v0) / c */
    struct sim s;
    struct event ev;
    double x, y, vx, vy;
    CHECK(start(&ev, &s, "table 1000 1000\nfriction linear 0.05\nball 100 500 10 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_advance(&ev, 12, 0) == 1);
    now(&ev, 0, &x, &y, &vx, &vy);
    CHECK(rel_near(x, 100 + 10 * (1 - exp(-0.6)) / 0.05, 1e-14));
    CHECK(rel_near(vx, 10 * exp(-0.6), 1e-14) && y == 500 && vy == 0);
    event_free(&ev);
    sim_free(&s);
    CHECK(start(&ev, &s, "table 260 1000\nfriction linear 0.05\nball 100 500 10 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_step(&ev, 1) == 1 && ev.walls == 1);
    CHECK(rel_near(ev.t, -log(0.25) / 0.05, 1e-14));
    event_free(&ev);
    sim_free(&s);
    /* rolling A: stops after v0 / A, v0^2 / 2A away, and stays */
    CHECK(start(&ev, &s, "table 1000 1000\nfriction rolling 0.1\nball 100 500 8.3 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_advance(&ev, 40, 0) == 1);
    now(&ev, 0, &x, &y, &vx, &vy);
    CHECK(rel_near(x, 100 + 8.3 * 40 - 0.05 * 1600, 1e-14) && rel_near(vx, 8.3 - 4, 1e-14));
    CHECK(event_advance(&ev, 200, 0) == 1);
    now(&ev, 0, &x, &y, &vx, &vy);
    CHECK(rel_near(x, 100 + 8.3 * 8.3 / 0.2, 1e-14) && vx == 0 && vy == 0);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.ke == 0 && d.e0 == 0.5 * 8.3 * 8.3 && d.events == 0);
    event_free(&ev);
    sim_free(&s);
    /* a wall 300 away: reached at (8.3 - sqrt(8.3^2 - 60)) / 0.1 */
    CHECK(start(&ev, &s, "table 410 1000\nfriction rolling 0.1\nball 100 500 8.3 0 1 10\n", 1) ==
          EVENT_OK);
    CHECK(event_step(&ev, 1) == 1 && ev.walls == 1);
    CHECK(rel_near(ev.t, (8.3 - sqrt(8.3 * 8.3 - 60)) / 0.1, 1e-13));
    CHECK(event_step(&ev, 1) == 0); /* it stops before the other wall */
    event_free(&ev);
    sim_free(&s);
}

/* Ball positions under rolling friction, written out again for the
 * brute-force reference below. */
static void roll(double x, double y, double vx, double vy, double A, double t, double *px,
                 double *py)
{
    double w = sqrt(vx * vx + vy * vy);
    if (w == 0) {
        *px = x;
        *py = y;
        return;
    }
    double s = t < w / A ? t : w / A, d = w * s - 0.5 * A * s * s;
    *px = x + vx / w * d;
    *py = y + vy / w * d;
}

static double gap_at(const double b[8], double A, double t)
{
    double xi, yi, xj, yj;
    roll(b[0], b[1], b[2], b[3], A, t, &xi, &yi);
    roll(b[4], b[5], b[6], b[7], A, t, &xj, &yj);
    return hypot(xj - xi, yj - yi) - 2;
}

static void test_friction_pairs(void)
{
    /* head-on, both rolling: 200 - 16 s + 0.1 s^2 = 20 */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 1000 1000\nfriction rolling 0.1\nball 100 500 10 0 1 10\n"
                         "ball 300 500 -6 0 1 10\n", 0) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1 && ev.collisions == 1);
    CHECK(rel_near(ev.t, (16 - sqrt(184)) / 0.2, 1e-13));
    event_free(&ev);
    sim_free(&s);
    /* onto one at rest: 100 + 10 s - 0.05 s^2 = 280 */
    CHECK(start(&ev, &s, "table 1000 1000\nfriction rolling 0.1\nball 100 500 10 0 1 10\n"
                         "ball 300 500 0 0 1 10\n", 0) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1 && ev.collisions == 1);
    CHECK(rel_near(ev.t, 20, 1e-13));
    event_free(&ev);
    sim_free(&s);
    /* linear drag: 200 - 16 u = 20, u = (1 - e^(-cs)) / c */
    CHECK(start(&ev, &s, "table 1000 1000\nfriction linear 0.05\nball 100 500 10 0 1 10\n"
                         "ball 300 500 -6 0 1 10\n", 0) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1 && ev.collisions == 1);
    CHECK(rel_near(ev.t, -log(1 - 0.05 * 11.25) / 0.05, 1e-13));
    event_free(&ev);
    sim_free(&s);
    /* 400 random pairs of radius 1, rolling at A = 0.1 in all directions:
     * the first contact against a brute-force search (the gap sampled
     * 20000 times until both stop, then bisected), or none for both */
    unsigned long long seed = 12345;
    int agree = 0, met = 0, total = 400;
    for (int k = 0; k < total; k++) {
        double b[8];
        for (int i = 0; i < 8; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            b[i] = (double)(seed >> 11) / 9007199254740992.0;
        }
        /* positions within 6 of each other, speeds up to 3 */
        b[0] = 500 + 6 * b[0];
        b[1] = 500 + 6 * b[1];
        b[4] = 500 + 6 * b[4];
        b[5] = 500 + 6 * b[5];
        b[2] = 6 * b[2] - 3;
        b[3] = 6 * b[3] - 3;
        b[6] = 6 * b[6] - 3;
        b[7] = 6 * b[7] - 3;
        if (hypot(b[4] - b[0], b[5] - b[1]) < 2.01)
            b[4] = b[0] + 5;
        if (k % 2) { /* every other pair: j rolls roughly towards i */
            double dx = b[0] - b[4], dy = b[1] - b[5], d = hypot(dx, dy), w = hypot(b[6], b[7]);
            b[6] = w * dx / d + 0.3 * b[3];
            b[7] = w * dy / d - 0.3 * b[2];
        }
        char text[512];
        snprintf(text, sizeof text,
                 "table 1000 1000\nfriction rolling 0.1\nball %a %a %a %a 1 1\n"
                 "ball %a %a %a %a 1 1\n",
                 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
        double A = 0.1, tend = fmax(hypot(b[2], b[3]), hypot(b[6], b[7])) / A;
        double want = INFINITY, prev = 0;
        for (int i = 1; i <= 20000; i++) {
            double t = tend * i / 20000;
            if (gap_at(b, A, t) <= 0) {
                double lo = prev, hi = t;
                for (int it = 0; it < 200; it++) {
                    double mid = 0.5 * (lo + hi);
                    if (gap_at(b, A, mid) <= 0)
                        hi = mid;
                    else
                        lo = mid;
                }
                want = hi;
                break;
            }
            prev = t;
        }
        struct sim ss;
        struct event e2;
        if (start(&e2, &ss, text, 0) != EVENT_OK) {
            sim_free(&ss);
            continue;
        }
        double got = event_step(&e2, 1) == 1 ? e2.t : INFINITY;
        met += want < INFINITY;
        agree += (want == INFINITY && got == INFINITY) ||
                 (fabs(got - want) <= 1e-9 * (1 + want) && e2.collisions == 1);
        event_free(&e2);
        sim_free(&ss);
    }
    CHECK(agree == total);
    CHECK(met > 100 && met < total - 100);
    if (agree != total || !(met > 100 && met < total - 100))
        printf("rolling pairs: %d of %d agree, %d meet\n", agree, total, met);
}

static void test_friction_runs(void)
{
    /* gases with friction: the grid and all pairs to the bit */
    CHECK(grid_is_pairs("table 300 300\nfriction rolling 0.01\nrandom 400 2 1 5 7\n", 12000));
    CHECK(grid_is_pairs("table 300 300\nfriction linear 0.002\nrandom 400 2 1 5 7\n", 20000));
    /* the break on cloth: every ball comes to rest, every joule counted */
    struct sim s;
    struct event ev;
    CHECK(start(&ev, &s, "table 800 400\nfriction rolling 0.05\nrack 600 200 5 11 1\n"
                         "ball 200 200 12 0.3 1 11\n", 1) == EVENT_OK);
    CHECK(event_advance(&ev, 1000, 0) == 1);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.ke == 0 && d.collisions > 20 && d.e == 0);
    CHECK(event_step(&ev, 1) == 0); /* at rest for good */
    event_free(&ev);
    sim_free(&s);
}

/* A field beyond the engine's arithmetic is refused (issue 27.7): the
 * energy it can give the balls across the table, sum m (|gx| w + |gy| h),
 * overflows; just below that it runs, and the balls bounce off the floor. */
static void test_too_strong(void)
{
    struct event ev;
    struct sim s;
    CHECK(start(&ev, &s, "table 800 400\nfield 0 -1e308\nball 100 100 0 0 1 5\n"
                         "ball 300 100 0 0 1 5\n", 1) == EVENT_EFIELD);
    CHECK(ev.in == NULL);
    sim_free(&s);
    CHECK(start(&ev, &s, "table 800 400\nfield 1e308 -1e308\nopen top\n"
                         "ball 100 100 0 0 1 5\n", 1) == EVENT_EFIELD);
    sim_free(&s);
    /* 1e305: 2 x 4e307, finite; masses of 1e300 under 1: 2.4e303, finite */
    CHECK(start(&ev, &s, "table 800 400\nfield 0 -1e305\nball 100 100 0 0 1 5\n"
                         "ball 300 100 0 0 1 5\n", 1) == EVENT_OK);
    CHECK(event_step(&ev, 100) == 100 && ev.walls == 100);
    double x, y;
    event_position(&ev, 0, &x, &y);
    CHECK(y >= 5 - 1e-9 && y <= 100);
    event_free(&ev);
    sim_free(&s);
    CHECK(start(&ev, &s, "table 800 400\nfield 1 -1\nball 100 100 0 0 1e300 5\n"
                         "ball 300 100 0 0 1e300 5\n", 1) == EVENT_OK);
    event_free(&ev);
    sim_free(&s);
    /* the same masses and 1e6 times the field: 2.4e309 */
    CHECK(start(&ev, &s, "table 800 400\nfield 1e6 -1e6\nball 100 100 0 0 1e300 5\n"
                         "ball 300 100 0 0 1e300 5\n", 1) == EVENT_EFIELD);
    sim_free(&s);
}

void test_event_field(void)
{
    test_projectile();
    test_bounces();
    test_free_fall_collision();
    test_gas();
    test_open();
    test_resting();
    test_pressed();
    test_extreme();
    test_bowl();
    test_sliding();
    test_unsupported();
    test_friction_one();
    test_friction_pairs();
    test_friction_runs();
    test_too_strong();
}
