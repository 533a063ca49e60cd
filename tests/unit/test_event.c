/*
 * test_event.c - the event-driven engine against analytic results: elastic
 * and inelastic two-ball collisions, walls, the round table, a tiny fast
 * ball that must never leave the table nor pass through a ball, energy and
 * momentum on the gas, grid == all pairs, the spring engine converging to
 * it as k grows, and simultaneous contacts (break, cradle) that terminate.
 */
#include "event.h"
#include "event_impl.h" /* white box: the grid and lists chosen */
#include "mem.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An allocator that fills its blocks with a byte: an engine that reads
 * what it never wrote then runs differently, or reads out of bounds. */
static unsigned char fill_byte;
static void *fill_alloc(size_t size, unsigned how)
{
    (void)how;
    void *p = aligned_alloc(64, size);
    if (p)
        memset(p, fill_byte, size);
    return p;
}
static void fill_release(void *p, size_t size)
{
    (void)size;
    free(p);
}

/* A simulation of n balls on a table w x h (all else zero). */
static void blank(struct sim *s, size_t n, double w, double h)
{
    struct sim_params p = sim_default_params();
    p.w = w;
    p.h = h;
    sim_init(s, n, &p);
}

static void put(struct sim *s, size_t i, double x, double y, double vx,
                double vy, double m, double r)
{
    s->x[i] = x;
    s->y[i] = y;
    s->vx[i] = vx;
    s->vy[i] = vy;
    s->m[i] = m;
    s->r[i] = r;
}

static struct event_config config(int grid)
{
    struct event_config c = event_default_config();
    c.grid = grid;
    return c;
}

static void test_two_balls(void)
{
    for (int grid = 0; grid <= 1; grid++) {
        struct event_config cfg = config(grid);
        struct sim s;
        struct event ev;
        /* Equal masses, head-on at 7 and -3, gap 200 - 20 = 180: contact at
         * t = 180 / 10 = 18; they exchange velocities. */
        blank(&s, 2, 10000, 10000);
        put(&s, 0, 4900, 5000, 7, 0, 1, 10);
        put(&s, 1, 5100, 5000, -3, 0, 1, 10);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        CHECK(event_step(&ev, 1) == 1);
        CHECK_NEAR(ev.t, 18, 1e-12);
        CHECK_NEAR(ev.vx[0], -3, 1e-12);
        CHECK_NEAR(ev.vx[1], 7, 1e-12);
        CHECK(ev.vy[0] == 0 && ev.vy[1] == 0);
        event_free(&ev);
        /* Masses 1 at v and 3 at rest: -v/2 and +v/2. */
        put(&s, 0, 4900, 5000, 8, 0, 1, 10);
        put(&s, 1, 5100, 5000, 0, 0, 3, 10);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        CHECK(event_step(&ev, 1) == 1);
        CHECK_NEAR(ev.t, 180.0 / 8, 1e-12);
        CHECK_NEAR(ev.vx[0], -4, 1e-12);
        CHECK_NEAR(ev.vx[1], 4, 1e-12);
        event_free(&ev);
        /* Oblique, equal masses, one at rest: hit with impact parameter
         * b = 10 (sigma = 20, so the line of centres is at 30 degrees):
         * the target leaves along the line of centres with v cos 30, the
         * mover at right angles with v sin 30. */
        put(&s, 0, 4900, 5000, 10, 0, 1, 10);
        put(&s, 1, 5100, 5010, 0, 0, 1, 10);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        CHECK(event_step(&ev, 1) == 1);
        double c30 = sqrt(3.0) / 2;
        /* contact when x gap = sigma cos 30: 200 - 20 c30 = 10 t */
        CHECK_NEAR(ev.t, (200 - 20 * c30) / 10, 1e-12);
        CHECK_NEAR(ev.vx[1], 10 * c30 * c30, 1e-12);
        CHECK_NEAR(ev.vy[1], 10 * c30 * 0.5, 1e-12);
        CHECK_NEAR(ev.vx[0] * ev.vx[1] + ev.vy[0] * ev.vy[1], 0, 1e-12);
        CHECK_NEAR(ev.vx[0], 2.5, 1e-12);
        CHECK_NEAR(ev.vy[0], -10 * c30 * 0.5, 1e-12);
        event_free(&ev);
        sim_free(&s);
    }
}

static void test_restitution(void)
{
    struct sim s;
    struct event ev;
    /* Head-on, masses 1 and 3, e = 0.5: momentum 1*8 kept, relative
     * velocity -8 becomes +4: v0 = (8 - 3*4)/4 = -1, v1 = 3. */
    blank(&s, 2, 10000, 10000);
    s.p.restitution = 0.5;
    put(&s, 0, 4900, 5000, 8, 0, 1, 10);
    put(&s, 1, 5100, 5000, 0, 0, 3, 10);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1);
    CHECK_NEAR(ev.vx[0], -1, 1e-12);
    CHECK_NEAR(ev.vx[1], 3, 1e-12);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK_NEAR(d.ke, 0.5 + 13.5, 1e-12);
    CHECK_NEAR(d.ke0, 32, 1e-12);
    event_free(&ev);
    sim_free(&s);
    /* A wall: speed 4 off the right wall at x = 100 - 10, e = 0.5. */
    blank(&s, 1, 100, 100);
    s.p.restitution = 0.5;
    put(&s, 0, 50, 50, 4, 0, 2, 10);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1);
    CHECK_NEAR(ev.t, 10, 1e-12);
    CHECK_NEAR(ev.vx[0], -2, 1e-12);
    event_diag(&ev, &d);
    CHECK_NEAR(d.wall_px, 2 * -6, 1e-12);
    event_free(&ev);
    sim_free(&s);
    /* Inelastic collapse: three balls in a line with e = 0.05 < 7 - 4 sqrt 3
     * would collide infinitely often in finite time; the TC model makes
     * the quick repeats elastic and the run ends. */
    blank(&s, 3, 1000, 100);
    s.p.restitution = 0.05;
    put(&s, 0, 100, 50, 1, 0, 1, 10);
    put(&s, 1, 200, 50, 0, 0, 1, 10);
    put(&s, 2, 221, 50, 0, 0, 1, 10);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_advance(&ev, 2000, 1000000) == 1);
    CHECK(ev.t == 2000);
    event_diag(&ev, &d);
    CHECK(d.events < 1000000);
    CHECK(d.ke < d.ke0);
    event_free(&ev);
    sim_free(&s);
}

static void test_walls(void)
{
    /* Rectangle: from (50, 30) at (3, -4) on 100 x 60 with r = 5: the floor
     * y = 5 at t = 25/4, then the right wall x = 95 at t = 45/3 = 15. */
    struct sim s;
    struct event ev;
    blank(&s, 1, 100, 60);
    put(&s, 0, 50, 30, 3, -4, 1, 5);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_step(&ev, 1) == 1);
    CHECK_NEAR(ev.t, 6.25, 1e-12);
    CHECK_NEAR(ev.vy[0], 4, 0);
    CHECK(event_step(&ev, 1) == 1);
    CHECK_NEAR(ev.t, 15, 1e-12);
    CHECK_NEAR(ev.vx[0], -3, 0);
    event_free(&ev);
    sim_free(&s);

    /* Round table of radius 100 (w = 200): a ball of radius 10 from the
     * centre along x at speed 9 reaches x = 100 + 90 at t = 10 and comes back
     * through the centre: position at t = 10 + 90/9 + 3 is 100 - 27. */
    blank(&s, 1, 200, 200);
    s.p.shape = SIM_CIRCLE;
    put(&s, 0, 100, 100, 9, 0, 1, 10);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_advance(&ev, 23, 0) == 1);
    double x, y;
    event_position(&ev, 0, &x, &y);
    CHECK_NEAR(x, 73, 1e-12);
    CHECK_NEAR(y, 100, 1e-12);
    event_free(&ev);

    /* Off-centre: the angular momentum about the centre, L = D x v, is kept
     * by every reflection (the normal is along D), so is the speed; every
     * sampled state lies inside R - r. */
    put(&s, 0, 130, 80, 7, 3, 1, 10);
    for (int grid = 0; grid <= 1; grid++) {
        struct event_config cfg = config(grid);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        double L0 = (130 - 100) * 3.0 - (80 - 100) * 7.0;
        int inside = 1;
        double worstL = 0;
        for (int k = 1; k <= 2000; k++) {
            event_advance(&ev, k * 0.731, 0);
            event_position(&ev, 0, &x, &y);
            double dx = x - 100, dy = y - 100;
            if (sqrt(dx * dx + dy * dy) > 90 * (1 + 1e-12))
                inside = 0;
            double L = dx * ev.vy[0] - dy * ev.vx[0];
            if (fabs(L - L0) > worstL)
                worstL = fabs(L - L0);
        }
        CHECK(inside);
        CHECK(worstL < 1e-9 * fabs(L0));
        CHECK(ev.walls > 30);
        CHECK_NEAR(ev.vx[0] * ev.vx[0] + ev.vy[0] * ev.vy[0], 58, 1e-9);
        event_free(&ev);
    }
    sim_free(&s);
}

/* Smallest distance between two balls flying straight for time T from
 * their positions and velocities in @p a, minus the sum of radii. */
static double min_gap(const struct sim *a, size_t i, size_t j, double T)
{
    double dx = a->x[j] - a->x[i], dy = a->y[j] - a->y[i];
    double vx = a->vx[j] - a->vx[i], vy = a->vy[j] - a->vy[i];
    double vv = vx * vx + vy * vy, s = 0;
    if (vv > 0) {
        s = -(dx * vx + dy * vy) / vv;
        s = s < 0 ? 0 : s > T ? T : s;
    }
    double ex = dx + s * vx, ey = dy + s * vy;
    return sqrt(ex * ex + ey * ey) - (a->r[i] + a->r[j]);
}

static void test_tiny_fast(void)
{
    /* A ball of radius 0.5 at speed 1e6 among five others on 800 x 400 for
     * 1000 time units. Checked between every two events: each pair's
     * closest approach over the straight flights in between (an independent
     * formula, not the engine's root) never goes below contact, and each
     * ball's centre stays on the table at every event (the table is convex,
     * so the ends of each flight suffice). Then at 1000 sample times.
     * Tolerance: near t = 1000 time is known to an ulp, 1.1e-13, so a ball
     * at speed 1e6 is placed to about 1e-7; passing through would show as
     * a gap of -(r_i + r_j), 20 or more. */
    struct sim s, a;
    blank(&s, 6, 800, 400);
    put(&s, 0, 100, 100, 1e6 * 0.6, 1e6 * 0.8, 1, 0.5);
    put(&s, 1, 400, 200, 0, 0, 1e9, 40);
    put(&s, 2, 200, 300, 0.5, 0, 1e9, 30);
    put(&s, 3, 600, 100, 0, -0.3, 1e9, 50);
    put(&s, 4, 700, 300, 0.2, 0.1, 1e9, 20);
    put(&s, 5, 300, 80, 0, 0, 1e9, 25);
    blank(&a, 6, 800, 400);
    memcpy(a.m, s.m, 6 * sizeof *a.m);
    memcpy(a.r, s.r, 6 * sizeof *a.r);
    struct event ev;
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    double worst = INFINITY, out = 0;
    long long steps = 0;
    while (ev.t < 1000) {
        event_to_sim(&ev, &a);
        double t0 = ev.t;
        if (event_step(&ev, 1) != 1)
            break;
        steps++;
        double T = (ev.t < 1000 ? ev.t : 1000) - t0;
        for (size_t i = 0; i < 6; i++) {
            double r = a.r[i];
            double o = fmax(fmax(r - a.x[i], a.x[i] + r - 800),
                            fmax(r - a.y[i], a.y[i] + r - 400));
            if (o > out)
                out = o;
            for (size_t j = i + 1; j < 6; j++) {
                double g = min_gap(&a, i, j, T);
                if (g < worst)
                    worst = g;
            }
        }
    }
    printf("tiny fast ball: %lld events, worst gap %.3g, worst out %.3g\n", steps, worst, out);
    CHECK(steps > 1000000);      /* it did bounce that often */
    CHECK(worst > -1e-6);        /* never into another ball */
    CHECK(out <= 1e-6);          /* never through a wall */
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(ev.ncoll[0] > 1000);   /* and it did hit the others */
    CHECK(fabs(d.de) < 1e-9);
    event_free(&ev);

    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    int bad = 0;
    for (int k = 1; k <= 1000; k++) {
        event_advance(&ev, k * 1.0, 0);
        CHECK(ev.t == k * 1.0);
        event_to_sim(&ev, &a);
        for (size_t i = 0; i < 6; i++) {
            if (a.x[i] < a.r[i] - 1e-6 || a.x[i] > 800 - a.r[i] + 1e-6 ||
                a.y[i] < a.r[i] - 1e-6 || a.y[i] > 400 - a.r[i] + 1e-6)
                bad++;
            for (size_t j = i + 1; j < 6; j++)
                if (min_gap(&a, i, j, 0) < -1e-6)
                    bad++;
        }
    }
    CHECK(bad == 0);
    event_free(&ev);
    sim_free(&a);
    sim_free(&s);
}

static void test_gas(void)
{
    /* scenes/gas.scene: energy is the only conserved quantity with walls;
     * momentum changes exactly by the walls' impulse, so
     * p(T) - p(0) - wall impulse = 0 (up to rounding). */
    static const char gas[] = "table 800 400\nrandom 300 6 1 8 1\n";
    struct sim s, g, a;
    CHECK(test_load(&s, gas) == 0);
    double px0 = 0, py0 = 0, pabs = 0;
    for (size_t i = 0; i < s.n; i++) {
        px0 += s.m[i] * s.vx[i];
        py0 += s.m[i] * s.vy[i];
        pabs += s.m[i] * sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i]);
    }
    struct event ev, en;
    struct event_config c1 = config(1), c0 = config(0);
    CHECK(event_init(&ev, &s, &c1, NULL) == EVENT_OK);
    CHECK(event_init(&en, &s, &c0, NULL) == EVENT_OK);
    CHECK(ev.in->nx > 1 && ev.in->ny > 1);
    CHECK(event_advance(&ev, 500, 0) == 1);
    CHECK(event_advance(&en, 500, 0) == 1);
    struct event_diag d, dn;
    event_diag(&ev, &d);
    event_diag(&en, &dn);
    CHECK(d.collisions > 10000);
    CHECK(fabs(d.de) < 1e-12);
    CHECK(fabs(dn.de) < 1e-12);
    CHECK_NEAR(d.px - px0 - d.wall_px, 0, 1e-12 * pabs);
    CHECK_NEAR(d.py - py0 - d.wall_py, 0, 1e-12 * pabs);
    CHECK(d.crossings > 0 && dn.crossings == 0);
    /* grid and all pairs: the same events, the same numbers */
    CHECK(d.collisions == dn.collisions && d.walls == dn.walls);
    blank(&g, s.n, 800, 400);
    blank(&a, s.n, 800, 400);
    event_to_sim(&ev, &g);
    event_to_sim(&en, &a);
    double worst = 0;
    for (size_t i = 0; i < s.n; i++)
        worst = fmax(worst, fmax(fabs(g.x[i] - a.x[i]), fabs(g.y[i] - a.y[i])));
    CHECK(worst == 0);
    event_free(&ev);
    event_free(&en);
    sim_free(&s);

    /* Far from the walls (a 1e6 table, for a time no ball can cross it)
     * momentum itself is kept. */
    CHECK(test_load(&s, gas) == 0);
    s.p.w = s.p.h = 1e6;
    for (size_t i = 0; i < s.n; i++) {
        s.x[i] += 5e5;
        s.y[i] += 5e5;
    }
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    event_advance(&ev, 200, 0);
    event_diag(&ev, &d);
    CHECK(d.walls == 0 && d.collisions > 500);
    CHECK_NEAR(d.px, px0, 1e-13 * pabs);
    CHECK_NEAR(d.py, py0, 1e-13 * pabs);
    CHECK(fabs(d.de) < 1e-12);
    CHECK(d.mft > 0 && d.mft < 200);
    event_free(&ev);
    sim_free(&s);
    sim_free(&g);
    sim_free(&a);
}

static void test_grid_big(void)
{
    /* Radii from 1 to 40 (one ball far above the median): the grid looks
     * further around the big one; it must agree with all pairs exactly. */
    static const char text[] =
        "table 400 400\nball 200 200 0.3 0.1 50 40\n"
        "random 200 2 1 3 7\nrandom 30 5 2 2 8\n";
    struct sim s, g, a;
    CHECK(test_load(&s, text) == 0);
    struct event ev, en;
    struct event_config c1 = config(1), c0 = config(0);
    CHECK(event_init(&ev, &s, &c1, NULL) == EVENT_OK);
    CHECK(event_init(&en, &s, &c0, NULL) == EVENT_OK);
    CHECK(ev.in->nbig == 1);
    event_advance(&ev, 300, 0);
    event_advance(&en, 300, 0);
    CHECK(ev.collisions == en.collisions && ev.collisions > 1000);
    CHECK(ev.ncoll[0] == en.ncoll[0] && ev.ncoll[0] > 10);
    blank(&g, s.n, 400, 400);
    blank(&a, s.n, 400, 400);
    event_to_sim(&ev, &g);
    event_to_sim(&en, &a);
    int same = 1;
    for (size_t i = 0; i < s.n; i++)
        same &= g.x[i] == a.x[i] && g.y[i] == a.y[i] && g.vx[i] == a.vx[i];
    CHECK(same);
    event_free(&ev);
    event_free(&en);
    sim_free(&s);
    sim_free(&g);
    sim_free(&a);
}

static void test_overlap(void)
{
    struct sim s;
    struct event ev;
    struct event_fault f = {0, 0};
    blank(&s, 4, 800, 400);
    put(&s, 0, 100, 100, 0, 0, 1, 10);
    put(&s, 1, 300, 100, 0, 0, 1, 10);
    put(&s, 2, 500, 100, 0, 0, 1, 10);
    put(&s, 3, 319, 100, 0, 0, 1, 10); /* into ball 1 (index 1) */
    CHECK(event_init(&ev, &s, NULL, &f) == EVENT_EOVERLAP);
    CHECK(f.i == 1 && f.j == 3);
    /* touching up to rounding is fine: 20 (1 - 1e-12) apart */
    s.x[3] = 300 + 20 * (1 - 1e-12);
    CHECK(event_init(&ev, &s, NULL, &f) == EVENT_OK);
    event_free(&ev);
    /* but not by 1e-6 */
    s.x[3] = 300 + 20 * (1 - 1e-6);
    CHECK(event_init(&ev, &s, NULL, &f) == EVENT_EOVERLAP);
    /* a ball through a wall */
    s.x[3] = 700;
    s.y[2] = 395;
    CHECK(event_init(&ev, &s, NULL, &f) == EVENT_EWALL);
    CHECK(f.i == 2);
    /* allowed (a state taken from the spring engine): the approaching
     * overlapping pair collides at once, the wall bounces at once */
    s.x[3] = 315;
    s.vx[3] = -1;
    s.vy[2] = 1;
    struct event_config c = event_default_config();
    c.allow_overlap = 1;
    CHECK(event_init(&ev, &s, &c, &f) == EVENT_OK);
    CHECK(event_advance(&ev, 0, 0) == 1);
    CHECK(ev.collisions == 1 && ev.walls == 1);
    CHECK(ev.vx[1] == -1 && ev.vx[3] == 0 && ev.vy[2] == -1);
    event_free(&ev);
    sim_free(&s);
}

/* The rack and the cradle: touching balls, simultaneous contacts. */
static void test_simultaneous(void)
{
    struct sim s;
    struct event ev;
    struct event_diag d;
    double xs[16], ys[16]; /* the break without the grid */
    for (int grid = 0; grid <= 1; grid++) {
        struct event_config cfg = config(grid);
        CHECK(test_load(&s, "rack 560 200 5 12 1\nball 160 200 10 0 1 12\n") == 0);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        CHECK(event_advance(&ev, 100, 100000) == 1);
        CHECK(ev.t == 100);
        event_diag(&ev, &d);
        CHECK(d.events < 1000 && d.collisions >= 15);
        CHECK(fabs(d.de) < 1e-12);
        /* the same order of simultaneous collisions with and without grid */
        int same = 1;
        for (size_t i = 0; i < 16; i++) {
            double x, y;
            event_position(&ev, i, &x, &y);
            if (grid)
                same &= x == xs[i] && y == ys[i];
            xs[i] = x;
            ys[i] = y;
        }
        CHECK(same);
        event_free(&ev);
        sim_free(&s);
        /* Newton's cradle: the cue stops, the far ball leaves with v, the
         * chain between stays at rest, through 5 collisions at one instant. */
        CHECK(test_load(&s, "ball 400 200 0 0 1 15\nball 430 200 0 0 1 15\n"
                       "ball 460 200 0 0 1 15\nball 490 200 0 0 1 15\n"
                       "ball 520 200 0 0 1 15\nball 150 200 10 0 1 15\n") == 0);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        CHECK(event_advance(&ev, 30, 0) == 1);
        CHECK(ev.collisions == 5);
        CHECK(ev.vx[5] == 0 && ev.vx[0] == 0 && ev.vx[3] == 0 && ev.vx[4] == 10);
        double x, y;
        event_position(&ev, 4, &x, &y);
        CHECK_NEAR(x, 520 + 8 * 10, 1e-9); /* hit at t = 22 */
        CHECK(event_advance(&ev, 100, 100000) == 1);
        event_diag(&ev, &d);
        CHECK(d.events == 11);
        event_free(&ev);
        sim_free(&s);
    }
}

static void test_big_rack(void)
{
    /* A 15-row rack (120 balls, 345 touching pairs): the hit spreads
     * through the lattice as one instant of binary collisions that must
     * end. Rounding leaves touching pairs with approach cosines near 1e-16;
     * without the engine's threshold they collide for ever (tested: more
     * than 100000 collisions at t = 5.8). */
    struct sim s;
    struct event ev;
    struct event_diag d;
    CHECK(test_load(&s, "rack 100 200 15 6 1\nball 30 200 10 0 1 6\n") == 0);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_advance(&ev, 5.8, 100000) == 1);
    event_diag(&ev, &d);
    printf("15-row rack: %lld collisions at the instant of the hit\n", d.collisions);
    CHECK(d.collisions > 120 && d.collisions < 5000);
    CHECK(event_advance(&ev, 100, 100000) == 1);
    event_diag(&ev, &d);
    CHECK(fabs(d.de) < 1e-12);
    event_free(&ev);
    sim_free(&s);

    /* A cooling inelastic gas (e = 0.9, a rack hit hard in a small box):
     * energy drains away, but impacts slower than 1e-6 of the fastest are
     * elastic, so time and speeds stay sane and nothing passes through. */
    CHECK(test_load(&s, "table 200 200\nrestitution 0.9\nrack 30 100 10 5 1\n"
                   "ball 10 100 10 0 1 5\n") == 0);
    struct sim a;
    sim_init(&a, s.n, &s.p);
    sim_copy(&a, &s);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    double worst = 0;
    for (int k = 0; k < 100000; k++) {
        event_to_sim(&ev, &a);
        double t0 = ev.t;
        if (event_step(&ev, 1) != 1)
            break;
        if (k % 50)
            continue; /* check every 50th flight */
        for (size_t i = 0; i < a.n; i++)
            for (size_t j = i + 1; j < a.n; j++)
                worst = fmin(worst, min_gap(&a, i, j, ev.t - t0));
    }
    event_diag(&ev, &d);
    CHECK(d.events == 100000);
    CHECK(d.ke < 1e-6 * d.ke0);
    CHECK(isfinite(ev.t) && ev.t < 1e12);
    CHECK(worst > -1e-9);
    event_free(&ev);
    sim_free(&a);
    sim_free(&s);
}

static void test_switch(void)
{
    /* What a front end does on a key: springs for a while, then the event
     * engine from that state (overlapping contacts allowed), then springs
     * again from the event engine's state. */
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nrandom 300 6 1 8 1\n") == 0);
    for (int k = 0; k < 400; k++)
        sim_step(&s);
    struct sim_diag sd;
    sim_diag(&s, &sd);
    CHECK(sd.contacts > 0);
    struct event ev;
    struct event_fault f;
    int rc = event_init(&ev, &s, NULL, &f); /* balls in contact or in walls */
    CHECK(rc == EVENT_EOVERLAP || rc == EVENT_EWALL);
    struct event_config cfg = event_default_config();
    cfg.allow_overlap = 1;
    CHECK(event_init(&ev, &s, &cfg, &f) == EVENT_OK);
    CHECK(ev.t == s.t);
    CHECK(event_advance(&ev, s.t + 50, 1000000) == 1);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK(d.collisions > 1000);
    CHECK(fabs(d.de) < 1e-12);
    CHECK_NEAR(d.ke0, sd.ke, 1e-9 * sd.ke);
    event_to_sim(&ev, &s);
    event_free(&ev);
    CHECK_NEAR(s.t, 400 * 0.05 + 50, 1e-9);
    /* now hard balls: no overlaps left, so the strict init accepts it */
    CHECK(event_init(&ev, &s, NULL, &f) == EVENT_OK);
    event_free(&ev);
    for (int k = 0; k < 100; k++)
        sim_step(&s);
    CHECK(sim_finite(&s));
    sim_diag(&s, &sd);
    CHECK_NEAR(sd.e, d.ke, 0.02 * d.ke);
    sim_free(&s);
}

/* Final positions of the spring engine at T with stiffness k, dt scaled so
 * that a contact lasts 40 steps, against the event engine. */
static double spring_error(const struct sim *init, const struct sim *exact,
                           double k, double T)
{
    struct sim s;
    sim_init(&s, init->n, &init->p);
    sim_copy(&s, init);
    s.p.k = k;
    s.p.dt = SIM_PI * sqrt(0.5 / k) / 40;
    long steps = (long)(T / s.p.dt + 0.5);
    s.p.dt = T / (double)steps; /* land on T exactly */
    for (long a = 0; a < steps; a++)
        sim_step(&s);
    double worst = 0;
    for (size_t i = 0; i < s.n; i++)
        worst = fmax(worst, hypot(s.x[i] - exact->x[i], s.y[i] - exact->y[i]));
    sim_free(&s);
    return worst;
}

static void test_spring_agrees(void)
{
    /* Only binary collisions: a head-on pair, an oblique pair, one ball
     * off a wall, far apart from each other. */
    struct sim s, e;
    blank(&s, 5, 800, 400);
    put(&s, 0, 100, 100, 5, 0, 1, 10);
    put(&s, 1, 200, 100, -5, 0, 1, 10);
    put(&s, 2, 400, 300, 6, 0, 1, 12);
    put(&s, 3, 500, 310, -2, 0, 1, 12);
    put(&s, 4, 700, 100, 4, 1, 1, 10);
    const double T = 30;
    struct event ev;
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    event_advance(&ev, T, 0);
    CHECK(ev.collisions == 2 && ev.walls == 1);
    blank(&e, 5, 800, 400);
    event_to_sim(&ev, &e);
    event_free(&ev);
    double e1 = spring_error(&s, &e, 50, T);
    double e2 = spring_error(&s, &e, 800, T);
    double e3 = spring_error(&s, &e, 12800, T);
    printf("spring vs event at T=%g: k=50 %.3g, k=800 %.3g, k=12800 %.3g\n",
           T, e1, e2, e3);
    /* the contact lasts pi sqrt(mu/k), so the error shrinks as 1/sqrt(k):
     * by 4 per step of 16 in k */
    CHECK(e1 > e2 && e2 > e3);
    CHECK(e1 / e2 > 3 && e2 / e3 > 3);
    sim_free(&s);
    sim_free(&e);
}

static void test_advance(void)
{
    /* advance lands exactly on T; a budget stops at an event time; going
     * back in time does nothing. */
    struct sim s;
    struct event ev;
    blank(&s, 1, 100, 100);
    put(&s, 0, 50, 50, 1, 0, 1, 10);
    CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
    CHECK(event_advance(&ev, 0.1 + 0.2, 0) == 1);
    CHECK(ev.t == 0.1 + 0.2);
    CHECK(event_advance(&ev, 1000, 3) == 0);
    CHECK_NEAR(ev.t, 40 + 2 * 80, 1e-12);
    CHECK(event_advance(&ev, 5, 0) == 1);
    CHECK_NEAR(ev.t, 200, 1e-12);
    event_to_sim(&ev, &s);
    CHECK(s.t == ev.t);
    CHECK_NEAR(s.x[0], 90, 1e-12);
    /* a kick at t = 250 (x = 40): up at speed 2, the ceiling y = 90 at
     * t = 250 + 20; the energy of reference follows */
    CHECK(event_advance(&ev, 250, 0) == 1);
    event_kick(&ev, 0, 0, 2);
    CHECK(event_step(&ev, 1) == 1);
    CHECK_NEAR(ev.t, 270, 1e-12);
    double x, y;
    event_position(&ev, 0, &x, &y);
    CHECK_NEAR(x, 40, 1e-12);
    CHECK_NEAR(y, 90, 1e-12);
    struct event_diag d;
    event_diag(&ev, &d);
    CHECK_NEAR(d.ke0, 2, 1e-12);
    CHECK_NEAR(d.de, 0, 1e-15);
    event_free(&ev);
    sim_free(&s);
}

/* Runs @p s for @p events in both broad phases; 1 when every position
 * and velocity agrees to the bit. */
static int sim_grid_matches_pairs(const struct sim *sp, long long events, long long *coll)
{
    const struct sim s = *sp;
    struct sim g, a;
    struct event ev, en;
    struct event_config c1 = config(2), c0 = config(0);
    if (event_init(&ev, &s, &c1, NULL) != EVENT_OK)
        return 0;
    if (event_init(&en, &s, &c0, NULL) != EVENT_OK) {
        event_free(&ev);
        return 0;
    }
    int ok = 1;
    ok = ok && ev.in->grid == 1 && en.in->grid == 0;
    ok = ok && event_step(&ev, events) == events && event_step(&en, events) == events;
    blank(&g, s.n, s.p.w, s.p.h);
    blank(&a, s.n, s.p.w, s.p.h);
    event_to_sim(&ev, &g);
    event_to_sim(&en, &a);
    ok = ok && g.t == a.t && ev.collisions == en.collisions;
    for (size_t i = 0; ok && i < s.n; i++)
        ok = g.x[i] == a.x[i] && g.y[i] == a.y[i] && g.vx[i] == a.vx[i] &&
             g.vy[i] == a.vy[i] && ev.ncoll[i] == en.ncoll[i];
    *coll = ev.collisions;
    event_free(&ev);
    event_free(&en);
    sim_free(&g);
    sim_free(&a);
    return ok;
}

/* sim_grid_matches_pairs over the scene @p text */
static int grid_matches_pairs(const char *text, long long events, long long *coll)
{
    struct sim s;
    if (test_load(&s, text) != 0)
        return 0;
    int ok = sim_grid_matches_pairs(&s, events, coll);
    sim_free(&s);
    return ok;
}

/* A square lattice of n balls of radius 1 at packing fraction phi, in
 * directions drawn from seed (the bench's dense gas, which melts). */
static void lattice(struct sim *s, size_t n, double phi, unsigned seed)
{
    size_t m = (size_t)ceil(sqrt((double)n));
    double a = sqrt(SIM_PI / phi), L = (double)m * a;
    blank(s, n, L, L);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        double th = 2 * SIM_PI * (double)(seed >> 8) / 16777216.0;
        put(s, i, ((double)(i % m) + 0.5) * a, ((double)(i / m) + 0.5) * a, cos(th),
            sin(th), 1, 1);
    }
}

/* Runs @p s for @p events with neighbour lists (grid 3) and with all
 * pairs, both built with @p overlap; 1 when lists were used (@p want_nl)
 * or not, and every position, velocity and count agrees to the bit. */
static int lists_match_pairs(const struct sim *s, long long events, int want_nl,
                             int overlap, long long *coll)
{
    struct sim g, a;
    struct event ev, en;
    struct event_config c3 = config(3), c0 = config(0);
    c3.allow_overlap = c0.allow_overlap = overlap;
    int ok = event_init(&ev, s, &c3, NULL) == EVENT_OK &&
             event_init(&en, s, &c0, NULL) == EVENT_OK;
    ok = ok && ev.in->grid == 1 && ev.in->nl == want_nl && en.in->grid == 0;
    ok = ok && event_step(&ev, events) == events && event_step(&en, events) == events;
    blank(&g, s->n, s->p.w, s->p.h);
    blank(&a, s->n, s->p.w, s->p.h);
    event_to_sim(&ev, &g);
    event_to_sim(&en, &a);
    ok = ok && g.t == a.t && ev.collisions == en.collisions && ev.walls == en.walls;
    for (size_t i = 0; ok && i < s->n; i++)
        ok = g.x[i] == a.x[i] && g.y[i] == a.y[i] && g.vx[i] == a.vx[i] &&
             g.vy[i] == a.vy[i] && ev.ncoll[i] == en.ncoll[i];
    struct event_diag d;
    event_diag(&ev, &d);
    ok = ok && (!want_nl || (d.rebuilds > 0 && d.crossings == 0));
    *coll = ev.collisions;
    event_free(&ev);
    event_free(&en);
    sim_free(&g);
    sim_free(&a);
    return ok;
}

static int text_lists_match(const char *text, long long events, int want_nl,
                            long long *coll)
{
    struct sim s;
    if (test_load(&s, text) != 0)
        return 0;
    int ok = lists_match_pairs(&s, events, want_nl, 0, coll);
    sim_free(&s);
    return ok;
}

static void test_lists(void)
{
    /* Neighbour lists change no course: the same collisions, to the bit,
     * as all pairs (and so as the grid), on a melting lattice at packing
     * 0.75 and 0.6, racks with equal-time contacts, elastic and inelastic,
     * the textbook's 16 balls, a gas on a round table, radii 1 to 2. */
    long long coll = 0;
    struct sim s;
    lattice(&s, 400, 0.75, 7);
    CHECK(lists_match_pairs(&s, 30000, 1, 0, &coll));
    CHECK(coll > 25000);
    sim_free(&s);
    lattice(&s, 300, 0.6, 8);
    CHECK(lists_match_pairs(&s, 20000, 1, 0, &coll));
    sim_free(&s);
    CHECK(text_lists_match("table 800 400\nrestitution 0.8\nrack 560 200 7 12 1\n"
                           "ball 160 200 10 0 1 12\n", 20000, 1, &coll));
    CHECK(coll > 5000);
    CHECK(text_lists_match("table 800 400\nrack 560 200 7 12 1\n"
                           "ball 160 200 10 0 1 12\n", 20000, 1, &coll));
    CHECK(text_lists_match("table 1 1\nrandom 16 0.03 1 0.5 4\n", 20000, 1, &coll));
    CHECK(text_lists_match("table circle 60\nrandom 300 1..2 1 3 5\n", 30000, 1, &coll));
    CHECK(coll > 20000);
    /* radii 2 and 9: no lists (the grid's big balls instead), same runs */
    CHECK(text_lists_match("table circle 150\nrandom 300 2 1 3 5\nrandom 10 9 4 1 6\n",
                           5000, 0, &coll));

    /* Crowded balls (a state taken from the spring engine, allowed to
     * overlap): lists too long to hold are wide and look at the cells;
     * still the same run. */
    blank(&s, 100, 40, 40);
    for (size_t i = 0; i < 100; i++) /* a blob 8 wide, its balls 0.7 apart */
        put(&s, i, 20 + 0.7 * (double)(i % 10) - 3.15, 20 + 0.7 * (double)(i / 10) - 3.15,
            cos(3.0 * (double)i), sin(3.0 * (double)i), 1, 1);
    CHECK(lists_match_pairs(&s, 5000, 1, 1, &coll));
    CHECK(coll > 1000);
    sim_free(&s);

    /* the lists' choice: packing 0.7 and up, plain hard balls only */
    struct event ev;
    struct event_config c1 = config(1);
    lattice(&s, 400, 0.72, 3);
    CHECK(event_init(&ev, &s, &c1, NULL) == EVENT_OK && ev.in->nl == 1);
    event_free(&ev);
    s.p.gx = 0.1; /* in a field: the grid */
    CHECK(event_init(&ev, &s, &c1, NULL) == EVENT_OK && ev.in->grid == 1 && ev.in->nl == 0);
    event_free(&ev);
    sim_free(&s);
    lattice(&s, 400, 0.65, 3);
    CHECK(event_init(&ev, &s, &c1, NULL) == EVENT_OK && ev.in->grid == 1 && ev.in->nl == 0);
    event_free(&ev);
    sim_free(&s);
    struct event_config c2 = config(2);
    lattice(&s, 400, 0.75, 3);
    CHECK(event_init(&ev, &s, &c2, NULL) == EVENT_OK && ev.in->grid == 1 && ev.in->nl == 0);
    event_free(&ev);
    sim_free(&s);
    /* asked for, but a skin below the rounding of positions on the table:
     * the grid (a list could expire at the instant it was built) */
    struct event_config c3 = config(3);
    CHECK(test_load(&s, "table 1e12 1e12\nball 100 100 1 0 1 1\nball 200 100 -1 0 1 1\n"
                   "ball 300 100 0 1 1 1\n") == 0);
    CHECK(event_init(&ev, &s, &c3, NULL) == EVENT_OK && ev.in->grid == 1 && ev.in->nl == 0);
    CHECK(event_step(&ev, 2) == 2 && ev.collisions == 1);
    event_free(&ev);
    sim_free(&s);
}

static void test_grid_ties(void)
{
    /* An inelastic rack of 28 balls hit head-on: its touching balls collide
     * at equal times, and some of those instants fall on a cell crossing.
     * A crossing changes no course, so it must not reorder them: the grid
     * and all pairs agree to the bit (they did not while a crossing bounded
     * the predictions). */
    long long coll = 0;
    CHECK(grid_matches_pairs("table 800 400\nrestitution 0.8\nrack 560 200 7 12 1\n"
                             "ball 160 200 10 0 1 12\n", 20000, &coll));
    CHECK(coll > 5000);
    CHECK(grid_matches_pairs("table 800 400\nrack 560 200 7 12 1\n"
                             "ball 160 200 10 0 1 12\n", 20000, &coll));
    /* the textbook's 16 balls with the grid forced on */
    CHECK(grid_matches_pairs("table 1 1\nrandom 16 0.03 1 0.5 4\n", 20000, &coll));
    /* a dilute mixture: many crossings, a ball crossing into a big one's
     * reach must find it (the big one's own window did not reach it) */
    CHECK(grid_matches_pairs("table 600 600\nrandom 400 1 1 2 11\nrandom 30 6 3 2 12\n",
                             100000, &coll));
    /* and a gas on a round table, big and small balls */
    CHECK(grid_matches_pairs("table circle 150\nrandom 300 2 1 3 5\nrandom 10 9 4 1 6\n",
                             50000, &coll));
    CHECK(coll > 20000);

    /* Crowded cells: a cell holds its first 3 balls in place and the rest
     * in a list. A dense blob of small balls on a wide table (cells sized
     * for the mean spacing, 3 wide, about 18 balls each) flies apart:
     * balls leave and enter crowded cells, from the list and from the
     * places (the list's first then takes the place), and the grid still
     * agrees with all pairs to the bit. */
    struct sim s;
    blank(&s, 100, 40, 40);
    for (size_t i = 0; i < 100; i++)
        put(&s, i, 17 + 0.7 * (double)(i % 10), 17 + 0.7 * (double)(i / 10),
            cos(3.0 * (double)i), sin(3.0 * (double)i), 1, 0.2);
    struct event ev;
    struct event_config c2 = config(2);
    CHECK(event_init(&ev, &s, &c2, NULL) == EVENT_OK && ev.in->cw > 2.1 && ev.in->ch > 2.1);
    event_free(&ev);
    CHECK(sim_grid_matches_pairs(&s, 20000, &coll));
    CHECK(coll > 1000);
    /* A cell's list of more is set up only when the cell first overflows
     * (nothing else reads it): on memory filled with 0x55 (a list that
     * would start at record 0x55555555) or 0x00 (at record 0), the same. */
    const struct mem_hooks fill = {fill_alloc, fill_release, 0, NULL, NULL};
    const unsigned char bytes[] = {0x55, 0x00};
    for (size_t b = 0; b < sizeof bytes; b++) {
        long long again = -1;
        fill_byte = bytes[b];
        mem_set_hooks(&fill);
        CHECK(sim_grid_matches_pairs(&s, 20000, &again));
        mem_set_hooks(NULL);
        CHECK(again == coll);
    }
    sim_free(&s);
}

/* Out of memory at start-up is reported: whichever of the engine's
 * allocations fails first, event_init returns EVENT_ENOMEM with every
 * block it took given back and the struct zeroed; the first start-up that
 * gets them all runs as usual. For all pairs, the grid and lists. */
static int oom_allow;
static long oom_live;
static void *oom_alloc(size_t size, unsigned how)
{
    (void)how;
    if (oom_allow-- <= 0)
        return NULL;
    void *p = aligned_alloc(64, size);
    oom_live += p != NULL;
    return p;
}
static void oom_release(void *p, size_t size)
{
    (void)size;
    oom_live -= p != NULL;
    free(p);
}

static void test_out_of_memory(void)
{
    const struct mem_hooks oom = {oom_alloc, oom_release, 0, NULL, NULL};
    const int grids[] = {0, 2, 3};
    struct sim s;
    blank(&s, 100, 21, 21);
    for (size_t i = 0; i < 100; i++) /* packing 0.71, lists with grid 3 */
        put(&s, i, 1.05 + 2.1 * (double)(i % 10), 1.05 + 2.1 * (double)(i / 10),
            cos(3.0 * (double)i), sin(3.0 * (double)i), 1, 1);
    for (size_t g = 0; g < sizeof grids / sizeof *grids; g++) {
        struct event_config c = config(grids[g]);
        int fails = 0, ok = 0;
        for (int allow = 0; allow < 64 && !ok; allow++) {
            struct event ev;
            oom_allow = allow;
            oom_live = 0;
            mem_set_hooks(&oom);
            int rc = event_init(&ev, &s, &c, NULL);
            if (rc == EVENT_OK) {
                ok = event_step(&ev, 100) == 100 && (grids[g] == 0 || ev.in->grid) &&
                     ev.in->nl == (grids[g] == 3);
                event_free(&ev);
            } else {
                fails++;
                CHECK(rc == EVENT_ENOMEM && ev.in == NULL && ev.vx == NULL && ev.n == 0);
            }
            mem_set_hooks(NULL);
            CHECK(oom_live == 0);
        }
        CHECK(ok);
        CHECK(fails >= 8 + (grids[g] != 0) * 3);
    }
    sim_free(&s);
}

/* The engine stops at the first event whose result is not finite and says
 * which, of which balls, when and why (issue 27.17), then runs no more. */
static int stops(const char *text, double T, int cause, size_t i, size_t j, double t)
{
    struct sim s;
    struct event ev;
    int ok = test_load(&s, text) == 0 && event_init(&ev, &s, NULL, NULL) == EVENT_OK;
    if (!ok)
        return 0;
    ok = ev.stop.cause == EVENT_RUNNING;
    event_advance(&ev, T, 0);
    ok = ok && ev.stop.cause == cause && ev.stop.i == i && ev.stop.j == j &&
         (t < 0 || ev.stop.t == t) && ev.t == ev.stop.t;
    long long c = ev.collisions, w = ev.walls;
    ok = ok && event_advance(&ev, 2 * T, 0) == 0 && event_step(&ev, 10) == 0;
    ok = ok && ev.collisions == c && ev.walls == w && ev.t == ev.stop.t;
    event_free(&ev);
    sim_free(&s);
    return ok;
}

static void test_stop(void)
{
    /* masses of 1e308: m1 m2 overflows; they meet at t = (300 - 100 - 10) / 2 */
    CHECK(stops("ball 100 200 1 0 1e308 5\nball 300 200 -1 0 1e308 5\n", 200,
                EVENT_SMASS, 0, 1, 95));
    /* speeds of 1e308 each way: the impulse overflows */
    CHECK(stops("ball 100 200 1e308 1e308 1 5\nball 300 200 0 0 1 5\n", 1, EVENT_SIMPULSE,
                0, 1, -1));
    /* past an open side at 1e308 for 10: the position overflows */
    CHECK(stops("open right\nball 600 100 0 0 1 5\nball 100 200 1e308 0 1 5\n", 10,
                EVENT_SFLIGHT, 1, 1, 10));
    /* and an ordinary run never stops */
    CHECK(!stops("ball 100 200 1 0 1 5\nball 300 200 -1 0 1 5\n", 200, EVENT_SMASS, 0, 1,
                 95));
}

/* The records are in cell order, row by row, and in ball order within a
 * cell (the counting sorts at init); records k and ball numbers i map
 * both ways. */
static int cell_ordered(const struct sim *s, int grid)
{
    struct event ev;
    struct event_config cfg = config(grid);
    if (event_init(&ev, s, &cfg, NULL) != EVENT_OK)
        return 0;
    size_t n = s->n;
    long *rec = malloc(n * sizeof *rec);
    int ok = rec != NULL && ev.in->grid == 1;
    for (size_t k = 0; ok && k < n; k++)
        rec[k] = -1;
    for (size_t i = 0; ok && i < n; i++) {
        long k = ev.in->at[i];
        ok = k >= 0 && (size_t)k < n && rec[k] < 0;
        if (ok)
            rec[k] = (long)i;
    }
    long last = -1, lasti = -1;
    for (size_t k = 0; ok && k < n; k++) {
        size_t i = (size_t)rec[k];
        double fx = floor(s->x[i] / ev.in->cw), fy = floor(s->y[i] / ev.in->ch);
        long cx = fx < 0 ? 0 : fx >= (double)ev.in->nx ? ev.in->nx - 1 : (long)fx;
        long cy = fy < 0 ? 0 : fy >= (double)ev.in->ny ? ev.in->ny - 1 : (long)fy;
        long key = cy * ev.in->nx + cx;
        ok = key > last || (key == last && (long)i > lasti);
        last = key;
        lasti = (long)i;
    }
    free(rec);
    event_free(&ev);
    return ok;
}

static void test_cell_order(void)
{
    struct sim s;
    struct scene sc;
    struct scene_error err;
    /* a gas in random places: rows of many balls, cells of several */
    const char *gas[] = {
        "table 300 100\nrandom 2000 1 1 1 3\n",
        "table 40 900\nrandom 1500 1 1 1 4\n",
        "table 500 500\nrandom 60 1 1 1 5\n", /* a thin gas: rows of one or none */
        "table 100 100\nrandom 300 0.5..3 1 1 6\n", /* big balls too */
    };
    for (size_t g = 0; g < sizeof gas / sizeof *gas; g++) {
        int loaded = scene_parse(&sc, gas[g], strlen(gas[g]), &err) == 0;
        CHECK(loaded);
        if (!loaded)
            continue;
        CHECK(scene_to_sim(&sc, &s) == 0);
        CHECK(cell_ordered(&s, 2));
        sim_free(&s);
        scene_free(&sc);
    }
    /* a blob, many balls to a cell, on a wide table */
    blank(&s, 100, 40, 40);
    for (size_t i = 0; i < 100; i++)
        put(&s, 99 - i, 17 + 0.7 * (double)(i % 10), 17 + 0.7 * (double)(i / 10), 0, 1, 1, 0.2);
    CHECK(cell_ordered(&s, 2));
    sim_free(&s);
}

/* The broad phase event_init chooses for @p text. */
static int chosen_grid(const char *text)
{
    struct sim s;
    struct event ev;
    struct event_config c1 = config(1);
    if (test_load(&s, text) != 0)
        return -1;
    int g = event_init(&ev, &s, &c1, NULL) == EVENT_OK ? ev.in->grid : -1;
    event_free(&ev);
    sim_free(&s);
    return g;
}

static void test_few_balls(void)
{
    /* All pairs for a few balls whatever the config (fewer instructions per
     * event than the grid's crossings, measured): up to 20 at packing 0.3,
     * more when dilute (20 (0.3 / packing)^(1/4), at most 200); the grid
     * above. Both give the same trajectories (test_grid_ties). */
    CHECK(chosen_grid("table 15 15\nrandom 20 1 1 1 3\n") == 0);  /* 0.28 */
    CHECK(chosen_grid("table 15 15\nrandom 21 1 1 1 3\n") == 1);  /* 0.29 */
    CHECK(chosen_grid("table 400 400\nrandom 70 1 1 1 3\n") == 0); /* 0.0014: 77 */
    CHECK(chosen_grid("table 400 400\nrandom 90 1 1 1 3\n") == 1);
    CHECK(chosen_grid("table 1e6 1e6\nrandom 200 1 1 1 3\n") == 0); /* at most 200 */
    CHECK(chosen_grid("table 1e6 1e6\nrandom 201 1 1 1 3\n") == 1);
}

static void test_extreme_tables(void)
{
    /* Cell sizes from sqrt(w h / n) overflowed on a 1e200 table (one cell:
     * every ball predicted against all, 2.8 s for 20 000 balls) and
     * underflowed on a 1e-200 one (a cell per diameter, 1e12 cells: out of
     * memory). Now about one cell per ball on both, and events run. */
    static const double sizes[][2] = {{1e200, 1e-3}, {1e-200, 1e-205}, {1e300, 1e290}};
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        double L = sizes[c][0], r = sizes[c][1], v = fmin(L * 1e-3, 1e100);
        size_t n = 20000, m = 142;
        struct sim s;
        struct event ev;
        blank(&s, n, L, L);
        for (size_t i = 0; i < n; i++)
            put(&s, i, L * ((double)(i % m) + 0.5) / (double)m,
                L * ((double)(i / m) + 0.5) / (double)m,
                v * (i % 3 ? 1 : -2), v * (i % 5 ? 1 : -1), 1, r);
        CHECK(event_init(&ev, &s, NULL, NULL) == EVENT_OK);
        CHECK(ev.in->grid == 1);
        CHECK(ev.in->nx * ev.in->ny >= (long)n / 4 && ev.in->nx * ev.in->ny <= 4 * (long)n);
        CHECK(event_step(&ev, 20) == 20);
        struct event_diag d;
        event_diag(&ev, &d);
        CHECK(fabs(d.de) < 1e-12);
        event_free(&ev);
        sim_free(&s);
    }
}

/* 400 balls of radii 1 to 1.2 (times 2^ls) in a 20 x 20 array on a table
 * 60 wide, at speeds 2^vs in directions from seed 7. */
static void scaled_gas(struct sim *s, int ls, int vs)
{
    double L = ldexp(1, ls), V = ldexp(1, vs);
    unsigned seed = 7;
    blank(s, 400, 60 * L, 60 * L);
    for (size_t i = 0; i < 400; i++) {
        seed = seed * 1103515245u + 12345u;
        double th = 2 * SIM_PI * (double)(seed >> 8) / 16777216.0;
        put(s, i, (3 + 2.7 * (double)(i % 20)) * L, (3 + 2.7 * (double)(i / 20)) * L,
            V * cos(th), V * sin(th), 1, L * (1 + 0.1 * (double)(i % 3)));
    }
}

static void test_extreme_scales(void)
{
    /* Hard balls have no scale: lengths times 2^a and speeds times 2^b give
     * the same run, its times times 2^(a - b), and powers of two scale
     * doubles exactly, so the same run to the bit, as long as the numbers
     * stay normal. Pair times at lengths times speeds beyond about 2^500
     * (or below 2^-500) are computed in scaled units for that: before,
     * D.V squared overflowed there into contacts at once, at a distance
     * (no collision at all at 2^400 and 2^300, 13 192 instead of 12 972 at
     * 2^262 and 2^250), or lost its rounding below. And the grid's bound
     * before the square root must not part the grid from all pairs (it did
     * at 2^260 and 2^256, and at 2^-268, before it was kept to normal
     * numbers). Below lengths of about 2^-510, squares of distances in the
     * collision itself are subnormal: not covered. */
    static const int scales[][2] = {{0, 0},      {-268, -268}, {260, 256}, {262, 250},
                                    {-500, -40}, {400, 300},   {500, 0}};
    struct sim ref, g;
    struct event ev;
    struct event_config c2 = config(2);
    long long coll = 0;
    scaled_gas(&ref, 0, 0);
    CHECK(event_init(&ev, &ref, &c2, NULL) == EVENT_OK && event_step(&ev, 20000) == 20000);
    long long ref_coll = ev.collisions;
    event_to_sim(&ev, &ref);
    event_free(&ev);
    for (size_t c = 0; c < sizeof scales / sizeof *scales; c++) {
        int ls = scales[c][0], vs = scales[c][1];
        struct sim s;
        scaled_gas(&s, ls, vs);
        CHECK(sim_grid_matches_pairs(&s, 20000, &coll));
        CHECK(coll == ref_coll);
        blank(&g, s.n, s.p.w, s.p.h);
        int ok = event_init(&ev, &s, &c2, NULL) == EVENT_OK && event_step(&ev, 20000) == 20000;
        if (ok)
            event_to_sim(&ev, &g);
        ok = ok && g.t == ldexp(ref.t, ls - vs);
        for (size_t i = 0; ok && i < s.n; i++)
            ok = g.x[i] == ldexp(ref.x[i], ls) && g.y[i] == ldexp(ref.y[i], ls) &&
                 g.vx[i] == ldexp(ref.vx[i], vs) && g.vy[i] == ldexp(ref.vy[i], vs);
        CHECK(ok);
        event_free(&ev);
        sim_free(&g);
        sim_free(&s);
    }
    sim_free(&ref);
}

static void test_overlap_first(void)
{
    /* The overlap check over the cells reports the first pair in ball
     * order, as the all-pairs check does, big balls included. */
    struct sim s;
    struct event ev;
    struct event_fault f;
    CHECK(test_load(&s, "table 400 400\nrandom 400 1 1 1 9\nball 200 200 0 0 1 30\n") == 0);
    size_t n = s.n;
    /* ball 399 on 250; the big one (400) overlaps some too */
    s.x[399] = s.x[250] + 0.5;
    s.y[399] = s.y[250];
    for (int grid = 0; grid <= 1; grid++) {
        struct event_config cfg = config(grid);
        CHECK(event_init(&ev, &s, &cfg, &f) == EVENT_EOVERLAP);
        size_t bi = n, bj = n;
        for (size_t i = 0; i < n && bi == n; i++)
            for (size_t j = i + 1; j < n; j++) {
                double dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i], sg = s.r[i] + s.r[j];
                if (dx * dx + dy * dy < sg * sg * 0.999) {
                    bi = i;
                    bj = j;
                    break;
                }
            }
        CHECK(f.i == bi && f.j == bj);
    }
    sim_free(&s);
}

/* Each ball's collisions count collisions only, not its bounces nor its
 * kicks (they are its counter's steps less those), with equal masses and
 * unequal, elastic and not; the most of one ball is the largest. Each
 * ball takes more than 256 steps: its counter wraps (see EV_CNT0). */
static void test_counts(void)
{
    for (int c = 0; c < 4; c++) {
        struct event_config cfg = config(c & 1);
        struct sim s;
        struct event ev;
        struct event_diag d;
        blank(&s, 3, 100, 30);
        s.p.restitution = c & 2 ? 0.9 : 1;
        put(&s, 0, 20, 15, 3, 0.1, 1, 5);
        put(&s, 1, 60, 15, -1, 0, c & 2 ? 2 : 1, 5);
        put(&s, 2, 85, 8, 0.5, 0.3, 1, 4);
        CHECK(event_init(&ev, &s, &cfg, NULL) == EVENT_OK);
        long long n[3] = {0, 0, 0}, walls = 0, colls = 0;
        for (int step = 0; step < 2000; step++) {
            long long w0 = ev.walls, c0 = ev.collisions;
            long long k0[3] = {ev.ncoll[0], ev.ncoll[1], ev.ncoll[2]};
            CHECK(event_step(&ev, 1) == 1);
            if (ev.collisions > c0)
                colls++;
            walls += ev.walls - w0;
            for (int i = 0; i < 3; i++)
                n[i] += ev.ncoll[i] - k0[i];
            if (step % 50 == 7)
                event_kick(&ev, (size_t)(step % 3), 2, -1);
        }
        CHECK(colls > 50 && walls > 50);
        CHECK(n[0] + n[1] + n[2] == 2 * colls && ev.collisions == colls);
        event_diag(&ev, &d);
        long long most = n[0] > n[1] ? n[0] : n[1];
        most = most > n[2] ? most : n[2];
        CHECK(d.max_ball == most);
        CHECK(ev.ncoll[0] == n[0] && ev.ncoll[1] == n[1] && ev.ncoll[2] == n[2]);
        event_free(&ev);
        sim_free(&s);
    }
}

void test_event(void)
{
    test_counts();
    test_two_balls();
    test_restitution();
    test_walls();
    test_advance();
    test_overlap();
    test_simultaneous();
    test_big_rack();
    test_switch();
    test_gas();
    test_grid_big();
    test_lists();
    test_spring_agrees();
    test_grid_ties();
    test_cell_order();
    test_few_balls();
    test_extreme_tables();
    test_extreme_scales();
    test_overlap_first();
    test_tiny_fast();
    test_out_of_memory();
    test_stop();
}
