/*
 * test_split.c - a step split in parts (struct sim_threads) reaches the
 * same state, every double to the bit, as one thread's sim_step (and a
 * build's search for pairs in parts the same list): on
 * many steps of varied scenes (equal and unequal masses and radii, a
 * power-of-2 mass and not, dense and dilute, walls, a large ball among
 * small ones, one ball, fewer balls than two blocks, a ball that is not
 * finite), in 2, 3, 4 and 7 parts run in several orders and on that
 * many threads (split.h; tests/worker.sh runs the terminal's against -H,
 * tests/golden.sh -H with --threads=1 to 4).
 */
#include "grid.h"
#include "sim.h"
#include "split.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPLIT_PI 3.14159265358979323846

/* The parts one after the other: in order, last first, or odd ones
 * first then even ones, as ctx says (the parts must not depend on each
 * other's order). Counts the splits. */
struct order {
    int how; /* 0 in order, 1 reversed, 2 odd parts first */
    long calls;
    int most;
};

static void run_in_order(void *ctx, int np, void (*part)(void *arg, int k), void *arg)
{
    struct order *o = ctx;
    o->calls++;
    o->most = np > o->most ? np : o->most;
    if (o->how == 2) {
        for (int k = 1; k < np; k += 2)
            part(arg, k);
        for (int k = 0; k < np; k += 2)
            part(arg, k);
        return;
    }
    for (int k = 0; k < np; k++)
        part(arg, o->how ? np - 1 - k : k);
}

/* A scene of its kind (see cases below). */
struct kind {
    const char *what;
    size_t n;
    double phi;      /* packing fraction of the table */
    double rmin, rmax; /* radii uniform in [rmin, rmax] */
    double mmin, mmax; /* masses likewise (mmin == mmax: all equal) */
    double speed;    /* speeds up to this */
    double k, dt;
    int big;         /* one ball 30 times the largest radius */
    int bad;         /* 1: one ball's velocity infinite, from the start;
                        2: every 37th ball's x NaN at the middle step, the
                        list kept (its pairs' terms NaN: a - b is not
                        a + -b there, in the sign) */
    int steps;
};

static void make(struct sim *s, const struct kind *c, uint64_t seed)
{
    test_seed(seed);
    struct sim_params p = sim_default_params();
    p.k = c->k;
    p.dt = c->dt;
    double rm = (c->rmin + c->rmax) / 2;
    double side = sqrt((double)c->n * SPLIT_PI * rm * rm / c->phi);
    p.w = side * 1.5;
    p.h = side / 1.5;
    CHECK(sim_init(s, c->n, &p) == 0);
    for (size_t i = 0; i < c->n; i++) {
        s->r[i] = c->rmin + (c->rmax - c->rmin) * test_urand();
        s->m[i] = c->mmin + (c->mmax - c->mmin) * test_urand();
        /* overlaps allowed, a few centres past a wall */
        s->x[i] = -2 * c->rmax + (p.w + 4 * c->rmax) * test_urand();
        s->y[i] = -2 * c->rmax + (p.h + 4 * c->rmax) * test_urand();
        double a = 2 * SPLIT_PI * test_urand(), v = c->speed * test_urand();
        s->vx[i] = v * cos(a);
        s->vy[i] = v * sin(a);
    }
    if (c->big && c->n > 0) {
        s->r[0] = 30 * c->rmax;
        s->m[0] = 900 * c->mmax;
        s->x[0] = p.w / 2;
        s->y[0] = p.h / 2;
    }
    if (c->bad && c->n > 1)
        s->vx[c->n / 2] = INFINITY;
}

static int same_double(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* a and b hold the same state to the bit. */
static int same_state(const struct sim *a, const struct sim *b)
{
    const size_t n = a->n;
    int same = a->n == b->n && same_double(a->x, b->x, n) && same_double(a->y, b->y, n) &&
               same_double(a->vx, b->vx, n) && same_double(a->vy, b->vy, n) &&
               same_double(a->m, b->m, n) && same_double(a->r, b->r, n) &&
               memcmp(a->id, b->id, n * sizeof *a->id) == 0 && a->t == b->t &&
               a->steps == b->steps && a->finite == b->finite;
    if (same && a->grid && b->grid) {
        /* the same bound on travel, so the same builds */
        struct grid_stats ga = grid_stats(a->grid), gb = grid_stats(b->grid);
        same = ga.builds == gb.builds && ga.pairs == gb.pairs && ga.skin == gb.skin;
    }
    return same && (a->grid == NULL) == (b->grid == NULL);
}

static void test_split_bits(void)
{
    /* what, n, phi, r, m, speed, k, dt, big, bad, steps */
    static const struct kind cases[] = {
        {"default gas", 3000, 0.3, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 300},
        {"dense, unequal", 2000, 0.85, 0.5, 2, 0.3, 5, 0.5, 5, 0.05, 0, 0, 300},
        {"dilute, fast", 1500, 0.05, 1, 1, 3, 3, 20, 5, 0.05, 0, 0, 300},
        {"benchmark regime", 2000, 0.8, 1, 1, 1, 1, 1, 1000, 0.002, 0, 0, 400},
        {"sorted slots", 5000, 0.4, 1, 1, 0.25, 0.25, 2, 5, 0.05, 0, 0, 200},
        {"large ball", 2500, 0.3, 1, 1.5, 1, 2, 1, 5, 0.05, 1, 0, 200},
        {"not finite", 800, 0.3, 1, 1, 1, 1, 1, 5, 0.05, 0, 1, 20},
        {"NaN positions", 3000, 0.3, 1, 1, 1, 1, 1, 5, 0.05, 0, 2, 40},
        {"two blocks, dense", 100, 0.7, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 400},
        {"two blocks and one ball", 129, 0.5, 0.7, 1.3, 1, 4, 1, 5, 0.05, 0, 0, 400},
        {"one block", 64, 0.6, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 100},
        {"fewer than the grid", 5, 0.6, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 100},
        {"one ball", 1, 0.01, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 100},
    };
    /* parts as threads: 2, 3, 4 and 7, in order, reversed and odd ones
     * first (one thread), and on that many threads (split.h); 2 on the
     * slots as made, more in the cells' order (sim_sort) */
    static const int nths[] = {2, 3, 4, 7};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const struct kind *kd = &cases[c];
        for (size_t ti = 0; ti < sizeof nths / sizeof *nths; ti++)
        for (int order = 0; order < 4; order++) {
            const int nth = nths[ti];
            struct sim a, b;
            make(&a, kd, 1000 + c);
            make(&b, kd, 1000 + c);
            /* in the cells' order beyond two threads (else the parts'
             * heads span the slots: two parts at most) */
            if (nth > 2)
                CHECK(sim_sort(&a) == SIM_OK && sim_sort(&b) == SIM_OK);
            struct order o = {order, 0, 0};
            struct sim_threads th = {run_in_order, &o, nth, 0, 0, 0};
            struct split sp;
            if (order < 3) {
                b.threads = &th;
            } else {
                CHECK(split_start(&sp, nth, 0) == 0);
                b.threads = &sp.th;
            }
            int ok = 1, same = 1, at = -1;
            for (int i = 0; i < kd->steps && ok && same; i++) {
                if (kd->bad == 2 && i == kd->steps / 2)
                    for (size_t j = 0; j < kd->n; j += 37)
                        a.x[j] = b.x[j] = NAN;
                ok = sim_step(&a) == SIM_OK && sim_step(&b) == SIM_OK;
                same = same_state(&a, &b);
                at = i;
            }
            if (!(ok && same))
                printf("  split: %s (%d threads, order %d): %s at step %d\n", kd->what, nth,
                       order, ok ? "different bits" : "a step failed", at + 1);
            CHECK(ok && same);
            /* it did split every step wherever there are two blocks
             * (and the builds' searches beside), into as many parts as
             * threads where the scene is large enough */
            if (order < 3) {
                CHECK(o.calls >= (kd->n > GRID_BLOCK ? kd->steps : 0));
                CHECK(th.split_steps == (kd->n > GRID_BLOCK ? kd->steps : 0));
                /* as many parts as threads, where the heads allow */
                if (kd->n >= 3000 && !kd->big)
                    CHECK(th.most == nth);
            } else {
                split_stop(&sp);
            }
            if (kd->bad)
                CHECK(!a.finite && !sim_finite(&b));
            sim_free(&a);
            sim_free(&b);
        }
    }
}

/* Below min the step is one thread's; the threads survive sim_assign
 * whatever the count, and a copy does not take them. */
static void test_split_min(void)
{
    static const struct kind gas = {"gas", 600, 0.3, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 10};
    struct sim a, b;
    make(&a, &gas, 7);
    make(&b, &gas, 7);
    struct order o = {0, 0, 0};
    struct sim_threads th = {run_in_order, &o, 2, 601, 0, 0};
    b.threads = &th;
    for (int i = 0; i < 10; i++)
        CHECK(sim_step(&b) == SIM_OK);
    CHECK(o.calls == 0);
    th.min = 600;
    for (int i = 0; i < 10; i++)
        CHECK(sim_step(&b) == SIM_OK);
    CHECK(o.calls >= 10);
    struct sim c = {0};
    CHECK(sim_assign(&c, &b) == 0);
    CHECK(c.threads == NULL);
    struct sim one;
    static const struct kind small = {"small", 100, 0.3, 1, 1, 1, 1, 1, 5, 0.05, 0, 0, 10};
    make(&one, &small, 8);
    CHECK(sim_assign(&b, &one) == 0 && b.n == 100); /* made again: other n */
    CHECK(b.threads == &th);
    sim_free(&a);
    sim_free(&b);
    sim_free(&c);
    sim_free(&one);
}

/* A build's search for pairs in two parts (grid_update_both) gives the
 * list of one thread's grid_update, entry for entry: equal radii and
 * radii from 0.5 to 2 with a few large balls, on tables of many strips of
 * cells, in either order of the parts. */
static void test_split_build(void)
{
    for (int c = 0; c < 4; c++) {
        const size_t n = 6000;
        test_seed(77 + (uint64_t)c);
        double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        double *r = malloc(n * sizeof *r);
        const double w = 900, h = 60;
        for (size_t i = 0; i < n; i++) {
            x[i] = w * test_urand();
            y[i] = h * test_urand();
            r[i] = c & 1 ? 0.5 + 1.5 * test_urand() : 1;
            if (c & 1 && i % 1000 == 0)
                r[i] = 12; /* large */
        }
        int err;
        struct grid *g1 = grid_new(n, r, 0, &err), *g2 = grid_new(n, r, 0, &err);
        const struct grid_balls b = {x, y, r, w, h};
        struct order o = {c >> 1, 0, 0};
        CHECK(g1 && g2 && grid_update(g1, &b) == 0 &&
              grid_update_par(g2, &b, run_in_order, &o, 2 + c) == 0);
        /* the box, the slots (up to GRID_HIST_MAX parts: their count,
         * the cells' starts, their places), the cell order's positions,
         * the strips, the rows (three passes) */
        CHECK(o.calls == (2 + c <= GRID_HIST_MAX ? 9 : 7) && o.most == 2 + c);
        if (g1 && g2) {
            const struct grid_pairs p1 = grid_pairs(g1), p2 = grid_pairs(g2);
            const size_t nb = (n + GRID_BLOCK - 1) / GRID_BLOCK;
            CHECK(grid_stats(g1).nx > 2 * GRID_STRIP); /* strips to split */
            CHECK(p1.start[n] == p2.start[n] && p1.start[n] > n / 2);
            CHECK(memcmp(p1.start, p2.start, (n + 1) * sizeof *p1.start) == 0);
            CHECK(memcmp(p1.nbr, p2.nbr, p1.start[n] * sizeof *p1.nbr) == 0);
            CHECK(memcmp(p1.pi, p2.pi, p1.start[n] * sizeof *p1.pi) == 0);
            CHECK(memcmp(p1.block_end, p2.block_end, nb * sizeof *p1.block_end) == 0);
            CHECK(p1.window == p2.window && p1.nwall == p2.nwall && p1.nwall > 0);
            CHECK(memcmp(p1.wall, p2.wall, p1.nwall * sizeof *p1.wall) == 0);
        }
        grid_free(g1);
        grid_free(g2);
        free(x);
        free(y);
        free(r);
    }
}

void test_split(void)
{
    test_split_build();
    test_split_bits();
    test_split_min();
}
