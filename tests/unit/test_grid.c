/*
 * test_grid.c - the broad phase against the O(n^2) pair loop: the same
 * contacts on random scenes (varied radii, a few large balls, balls off the
 * table, fast balls), the same forces to the bit, the same state after 1000
 * steps (to 1e-9, with the slots sorted in cell order), linear cost with one
 * huge ball, exact copies, scene order kept through a sort, and a sort
 * that renames a valid list instead of building it again.
 */
#include "grid.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/*
 * n balls of radius 1..3 at random (overlaps allowed) on a table sized for
 * packing fraction phi, nbig of them 40 times larger, a few centres off
 * the table, speeds up to vmax.
 */
static void random_sim(struct sim *s, size_t n, size_t nbig, double phi,
                       double vmax, uint64_t seed)
{
    test_seed(seed);
    struct sim_params p = sim_default_params();
    double area = 0;
    double *r = malloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        r[i] = i % (n / (nbig + 1) + 1) == 7 && nbig ? 40 : 1 + 2 * test_urand();
        if (r[i] == 40)
            nbig--;
        area += SIM_PI * r[i] * r[i];
    }
    p.w = sqrt(area / phi * 2);
    p.h = p.w / 2;
    p.k = 50;
    p.dt = 0.01;
    sim_init(s, n, &p);
    for (size_t i = 0; i < n; i++) {
        s->r[i] = r[i];
        s->m[i] = r[i] * r[i];
        s->x[i] = test_urand() * p.w;
        s->y[i] = test_urand() * p.h;
        if (i % 97 == 3) /* off the table, like a ball shot through a wall */
            s->x[i] = i % 2 ? -3 * test_urand() * r[i] : p.w + 30 * test_urand();
        s->vx[i] = vmax * (2 * test_urand() - 1);
        s->vy[i] = vmax * (2 * test_urand() - 1);
    }
    free(r);
}

/* What the broad phase reads of a sim, and a grid for it. */
static struct grid_balls balls(const struct sim *s)
{
    struct grid_balls b = {s->x, s->y, s->r, s->p.w, s->p.h};
    return b;
}

static struct grid *new_grid(const struct sim *s, double reach)
{
    return grid_new(s->n, s->r, reach, NULL);
}

static int update(struct grid *g, const struct sim *s)
{
    const struct grid_balls b = balls(s);
    return grid_update(g, &b);
}

/* The overlapping pairs (i < j) by the O(n^2) loop's own test, in its
 * order, as i * n + j; returns how many. */
static size_t brute_contacts(const struct sim *s, double reach, size_t *out)
{
    size_t c = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++) {
            double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
            double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
            if (d < s->r[i] + s->r[j] + reach)
                out[c++] = i * s->n + j;
        }
    return c;
}

/* Whether the grid (reach given) lists exactly the brute-force pairs, in
 * the same order; also that every row is ascending and above its slot. */
static int same_contacts(const struct sim *s, double reach)
{
    size_t cap = s->n * 64 + 1024;
    size_t *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    size_t na = brute_contacts(s, reach, a);
    struct grid *g = new_grid(s, reach);
    int ok = g && update(g, s) == 0;
    if (ok) {
        struct grid_pairs pl = grid_pairs(g);
        size_t nb = 0;
        for (size_t i = 0; i < s->n && ok; i++)
            for (uint32_t e = pl.start[i]; e < pl.start[i + 1]; e++) {
                size_t j = pl.nbr[e];
                if (j <= i || (e > pl.start[i] && j <= pl.nbr[e - 1]) || pl.pi[e] != i)
                    ok = 0;
                /* the listed pairs within reach, by the same test */
                double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
                double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
                if (d < s->r[i] + s->r[j] + reach)
                    b[nb++] = i * s->n + j;
            }
        ok = ok && nb == na && memcmp(a, b, na * sizeof *a) == 0;
        if (!ok)
            printf("  grid: %zu pairs, brute force %zu (n %zu, reach %g)\n",
                   nb, na, s->n, reach);
    }
    grid_free(g);
    free(a);
    free(b);
    return ok;
}

/* Makes the table f times wider and f times lower, balls and all: the same
 * area, so the same density. */
static void stretch(struct sim *s, double f)
{
    s->p.w *= f;
    s->p.h /= f;
    for (size_t i = 0; i < s->n; i++) {
        s->x[i] *= f;
        s->y[i] /= f;
    }
}

static void test_contacts_random(void)
{
    const struct { size_t n, nbig; double phi, reach; } cases[] = {
        {50, 0, 0.3, 0},  {200, 1, 0.4, 0},   {700, 2, 0.5, 0},
        {2000, 3, 0.4, 0}, {2000, 0, 0.7, 0}, {1000, 2, 0.3, 1.5},
        {1500, 5, 0.2, 6},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim s;
        random_sim(&s, cases[c].n, cases[c].nbig, cases[c].phi, 5, 100 + c);
        CHECK(same_contacts(&s, cases[c].reach));
        /* the same after the slots are put in cell order */
        CHECK(sim_sort(&s) == 0);
        CHECK(same_contacts(&s, cases[c].reach));
        sim_free(&s);
    }
    /* A table 40 times taller than wide (fewer columns of cells than a
     * strip of the cell order) and one 40 times wider. */
    for (int tall = 0; tall < 2; tall++) {
        struct sim s;
        random_sim(&s, 1500, 2, 0.4, 5, 77);
        double f = tall ? 1.0 / 9 : 4.5;
        stretch(&s, f);
        CHECK(same_contacts(&s, 0));
        CHECK(sim_sort(&s) == 0 && s.grid);
        struct grid_stats st = grid_stats(s.grid);
        CHECK(tall ? st.nx < GRID_STRIP : st.nx > 2 * GRID_STRIP);
        CHECK(same_contacts(&s, 0));
        sim_free(&s);
    }
}

/* Tables of 1 to 40 columns of cells: a single strip narrower than
 * GRID_STRIP, whole strips, and a last strip of every width, so that each
 * edge case of the build's ranges (E, NW, NE across a strip's edge) runs. */
static void test_contacts_widths(void)
{
    int seen[41] = {0};
    for (int cols = 1; cols <= 40; cols++) {
        struct sim s;
        random_sim(&s, 600, 0, 0.4, 5, 300 + (uint64_t)cols);
        struct grid *g0 = new_grid(&s, 0);
        double c = g0 && update(g0, &s) == 0 ? grid_stats(g0).cell : 0;
        grid_free(g0);
        /* the same area, (cols - 0.5) cells wide */
        double f = (cols - 0.5) * c / s.p.w;
        stretch(&s, f);
        CHECK(same_contacts(&s, 0));
        CHECK(sim_sort(&s) == 0 && s.grid);
        long nx = s.grid ? grid_stats(s.grid).nx : 0;
        if (nx >= 1 && nx <= 40)
            seen[nx] = 1;
        CHECK(same_contacts(&s, 1.5));
        sim_free(&s);
    }
    int widths = 0;
    for (int k = 1; k <= 40; k++)
        widths += seen[k];
    CHECK(widths >= 36 && seen[1] && seen[GRID_STRIP] && seen[GRID_STRIP + 1]);
}

/* Thousands of balls in one corner of a huge table. The cells cover the
 * balls, not the table (over the table, at most about two per ball, one
 * cell held them all); and the build's scratch stays linear in the balls
 * (it once reserved room for every pair of a cell's balls at once: M^2). */
static void test_cluster_memory(void)
{
    struct sim_params p = sim_default_params();
    p.w = p.h = 1e6;
    struct sim s;
    const size_t n = 3000, side = 55;
    CHECK(sim_init(&s, n, &p) == 0);
    for (size_t i = 0; i < n; i++) {
        s.r[i] = s.m[i] = 1;
        s.x[i] = 2 + (double)(i % side) * 2.2;
        s.y[i] = 2 + (double)(i / side) * 2.2;
    }
    struct grid *g = new_grid(&s, 0);
    CHECK(g && update(g, &s) == 0);
    struct grid_stats st = g ? grid_stats(g) : (struct grid_stats){0};
    CHECK(st.pairs > n && st.pair_cap <= 16 * n);
    /* cells sized by the cluster, not by the table: about one ball each
     * (diameter 2 plus the skin of 0.3), and the same contacts */
    CHECK(st.cell < 3);
    CHECK(same_contacts(&s, 0));
    grid_free(g);
    sim_free(&s);
}

/* Balls flung off the table: most of them far out, spread over a square
 * 200 times the table's side. The cells must span where they are, not the
 * table, whose border cells would hold them all (as they did: the fuzzer's
 * `random 35879 1 5 505879 0`, balls at up to 5e5, took 7.9 s for 40
 * spring steps, now 0.36 s, with the same output to the bit). The
 * contacts are the same either way. */
static void test_flung_out(void)
{
    struct sim_params p = sim_default_params();
    p.w = p.h = 100;
    struct sim s;
    const size_t n = 3000;
    CHECK(sim_init(&s, n, &p) == 0);
    uint64_t seed = 12345;
    for (size_t i = 0; i < n; i++) {
        s.r[i] = s.m[i] = 1;
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double u = (double)(seed >> 11) * 0x1p-53;
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        double v = (double)(seed >> 11) * 0x1p-53;
        if (i % 10 == 0) { /* a tenth still on the table */
            s.x[i] = 1 + 98 * u;
            s.y[i] = 1 + 98 * v;
        } else {
            s.x[i] = -1e4 + 2e4 * u;
            s.y[i] = -1e4 + 2e4 * v;
        }
    }
    struct grid *g = new_grid(&s, 0);
    CHECK(g && update(g, &s) == 0);
    struct grid_stats st = g ? grid_stats(g) : (struct grid_stats){0};
    /* the cells span where the balls are (2e4 wide), not the table (100) */
    CHECK((double)st.nx * st.cell > 1e4 && (double)st.ny * st.cell > 1e4);
    CHECK(st.pair_cap <= 64 * n);
    CHECK(same_contacts(&s, 0));
    grid_free(g);
    sim_free(&s);
}

static void test_forces_bitwise(void)
{
    /* Steps through a gas with fast balls (some move more than the skin in
     * one step) and compares sim_forces with sim_forces_brute to the bit. */
    struct sim s;
    random_sim(&s, 1200, 2, 0.45, 80, 7);
    size_t n = s.n;
    double *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
    int same = 1;
    long contacts = 0;
    for (int step = 0; step < 300; step++) {
        if (step % 30 == 0) {
            sim_forces_brute(&s);
            memcpy(fx, s.fx, n * sizeof *fx);
            memcpy(fy, s.fy, n * sizeof *fy);
            sim_forces(&s);
            same &= memcmp(fx, s.fx, n * sizeof *fx) == 0 &&
                    memcmp(fy, s.fy, n * sizeof *fy) == 0;
            struct sim_diag d;
            sim_diag(&s, &d);
            contacts += d.contacts;
        }
        sim_step(&s);
    }
    CHECK(same);
    CHECK(contacts > 100); /* there were contacts to get wrong */
    CHECK(grid_stats(s.grid).builds > 20);
    free(fx);
    free(fy);
    sim_free(&s);
}

#ifndef VLAT
#define VLAT 2.0
#endif

/* A non-overlapping gas: a jittered lattice of radii 1..2 with two balls
 * of radius 40 in holes cut out of it. */
static void lattice_sim(struct sim *s, long side, uint64_t seed)
{
    test_seed(seed);
    struct sim_params p = sim_default_params();
    const double a = 5; /* lattice spacing */
    p.w = p.h = side * a;
    p.k = 200;
    p.dt = 0.01;
    const double big[2][2] = {{0.3 * p.w, 0.4 * p.h}, {0.7 * p.w, 0.6 * p.h}};
    size_t n = 2;
    double (*b)[5] = malloc((size_t)(side * side) * sizeof *b);
    for (long i = 0; i < side * side; i++) {
        double x = (i % side + 0.5) * a + (test_urand() - 0.5) * 0.5;
        double y = (i / side + 0.5) * a + (test_urand() - 0.5) * 0.5;
        double r = 1 + test_urand();
        int clear = 1;
        for (int k = 0; k < 2; k++)
            if (hypot(x - big[k][0], y - big[k][1]) < 40 + r + 1)
                clear = 0;
        if (!clear)
            continue;
        b[n - 2][0] = x;
        b[n - 2][1] = y;
        b[n - 2][2] = r;
        b[n - 2][3] = VLAT * (2 * test_urand() - 1);
        b[n - 2][4] = VLAT * (2 * test_urand() - 1);
        n++;
    }
    sim_init(s, n, &p);
    for (size_t i = 0; i < n; i++) {
        int isbig = i == n / 3 || i == 2 * n / 3; /* not at the ends */
        size_t src = i - (i > n / 3) - (i > 2 * n / 3);
        if (isbig) {
            int k = i == n / 3 ? 0 : 1;
            s->x[i] = big[k][0];
            s->y[i] = big[k][1];
            s->r[i] = 40;
            s->vx[i] = 0.5;
            s->vy[i] = -0.25;
        } else {
            s->x[i] = b[src][0];
            s->y[i] = b[src][1];
            s->r[i] = b[src][2];
            s->vx[i] = b[src][3];
            s->vy[i] = b[src][4];
        }
        s->m[i] = s->r[i] * s->r[i];
    }
    free(b);
}

static double rel(double a, double b, double scale)
{
    return fabs(a - b) / fmax(fabs(b), scale);
}

static void test_state_after_1000_steps(void)
{
    /* The grid run re-sorts its slots every 128 steps (as sim_step does
     * from SIM_SORT_MIN balls on), so its sums run in another order than
     * the brute-force run's: the states agree to rounding, compared ball
     * by ball through id. */
    struct sim a, b;
    lattice_sim(&a, 40, 11);
    lattice_sim(&b, 40, 11);
    CHECK(a.n > 800 && a.n >= SIM_GRID_MIN);
    struct sim_diag d0;
    sim_diag(&a, &d0);
    long contacts = 0;
    for (int i = 0; i < 1000; i++) {
        if (i % 128 == 0)
            CHECK(sim_sort(&a) == 0);
        sim_step(&a);
        sim_step_brute(&b);
        if (i % 50 == 0) {
            struct sim_diag d;
            sim_diag(&b, &d);
            contacts += d.contacts;
        }
    }
    CHECK(contacts > 50);
    int moved = 0;
    double worst = 0;
    for (size_t i = 0; i < a.n; i++) {
        size_t j = a.id[i];
        moved |= j != i;
        worst = fmax(worst, rel(a.x[i], b.x[j], a.p.w));
        worst = fmax(worst, rel(a.y[i], b.y[j], a.p.h));
        worst = fmax(worst, rel(a.vx[i], b.vx[j], 1));
        worst = fmax(worst, rel(a.vy[i], b.vy[j], 1));
        CHECK(a.r[i] == b.r[j] && a.m[i] == b.m[j]);
    }
    CHECK(moved);
    CHECK(worst <= 1e-9);
    printf("  grid: %zu balls, 1000 steps, worst relative difference %.3g "
           "from brute force\n", a.n, worst);
    sim_free(&a);
    sim_free(&b);
}

static void test_step_bitwise_at(void)
{
    /* sim_step over the grid against the O(n^2) step, to the bit, while
     * the slots stay put (fewer than SIM_SORT_MIN balls): equal discs
     * (the sweep then reads no per-ball radii and masses) and mixed ones;
     * equal masses of 3, and powers of 2 (the sweep then multiplies by
     * the inverse), whose inverse is subnormal for 2^1023. */
    static const double masses[] = {3, 0.25, 0x1p1000, 0x1p1023, 1};
    for (int equal = 0; equal < 6; equal++) {
        struct sim a, b;
        random_sim(&a, 700, equal ? 0 : 2, 0.45, 20, 9);
        random_sim(&b, 700, equal ? 0 : 2, 0.45, 20, 9);
        if (equal)
            for (size_t i = 0; i < a.n; i++) {
                a.r[i] = b.r[i] = 2;
                a.m[i] = b.m[i] = masses[equal - 1];
            }
        for (int i = 0; i < 300; i++) {
            sim_step(&a);
            sim_step_brute(&b);
        }
        CHECK(memcmp(a.x, b.x, a.n * sizeof *a.x) == 0);
        CHECK(memcmp(a.y, b.y, a.n * sizeof *a.y) == 0);
        CHECK(memcmp(a.vx, b.vx, a.n * sizeof *a.vx) == 0);
        CHECK(memcmp(a.vy, b.vy, a.n * sizeof *a.vy) == 0);
        sim_free(&a);
        sim_free(&b);
    }
}

/*
 * The grid's step against the O(n^2) step at the edges of double: a
 * subnormal k (k/2 would round), radii so large that r_i + r_j is near
 * DBL_MAX (s + s would overflow), and pairs listed at distances whose
 * square overflows (d = inf, s = -inf: the force must be 0, not NaN).
 * Nine balls each, so that the grid runs: two in contact, the rest in a
 * row that the skin lists without contact.
 */
static void test_step_extremes_at(void)
{
    static const struct { double k, dt, m, r, gap, w; } cases[] = {
        {5e-324, 1, 1e-300, 1, -1, 100},
        {1.5e-323, 1, 1e-300, 1, -0.5, 100},
        {1e-10, 1e-300, 1, 6e307, -1, 10},
        {1, 1, 1, 6e153, 1e152, 1e155},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim_params p = sim_default_params();
        p.w = p.h = cases[c].w;
        p.k = cases[c].k;
        p.dt = cases[c].dt;
        struct sim a, b;
        CHECK(sim_init(&a, 9, &p) == 0 && sim_init(&b, 9, &p) == 0);
        double r = cases[c].r;
        for (size_t i = 0; i < 9; i++) {
            a.m[i] = cases[c].m;
            a.r[i] = r;
            /* balls 0 and 1: centres 2r + gap apart; then a row */
            a.x[i] = i < 2 ? p.w / 10 + (double)i * (2 * r + cases[c].gap)
                           : p.w / 10 + (double)(i - 2) * (p.w / 9);
            a.y[i] = i < 2 ? p.h / 2 : p.h * 0.9;
            a.vx[i] = i == 1 ? r / 100 : 0;
        }
        sim_copy(&b, &a);
        int finite_a = 1, finite_b = 1;
        for (int st = 0; st < 20; st++) {
            sim_step(&a);
            sim_step_brute(&b);
            finite_a &= sim_finite(&a);
            finite_b &= sim_finite(&b);
        }
        CHECK(a.grid != NULL);
        CHECK(finite_a == finite_b);
        CHECK(memcmp(a.x, b.x, 9 * sizeof *a.x) == 0);
        CHECK(memcmp(a.vx, b.vx, 9 * sizeof *a.vx) == 0);
        CHECK(memcmp(a.y, b.y, 9 * sizeof *a.y) == 0);
        sim_free(&a);
        sim_free(&b);
    }
}

/* The Hooke sweep at each vector width this processor has (SSE2, AVX2:
 * sim_set_width) against the O(n^2) step, to the bit: the same bits at
 * every width. */
static void test_step_bitwise(void)
{
    for (int w = 0; w <= 1; w++) {
        int got = sim_set_width(w);
        CHECK(got <= w);
        test_step_bitwise_at();
        test_step_extremes_at();
    }
    sim_set_width(1);
}

/*
 * The other systems on the grid: exponential contacts (acting before
 * touching, so the list must reach 40 EPS further), dashpots, a round
 * table, hard walls. Forces over the grid equal the O(n^2) loop's to the
 * bit while the gas runs, and the diagnostics agree too.
 */
static void test_systems_bitwise(void)
{
    static const struct { int shape, walls, contact; double e; } cases[] = {
        {SIM_RECT, SIM_WALLS_SPRING, SIM_CONTACT_EXP, 1},
        {SIM_RECT, SIM_WALLS_SPRING, SIM_CONTACT_HOOKE, 0.6},
        {SIM_CIRCLE, SIM_WALLS_SPRING, SIM_CONTACT_HOOKE, 0.9},
        {SIM_RECT, SIM_WALLS_HARD, SIM_CONTACT_HOOKE, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim s;
        random_sim(&s, 800, 1, 0.35, 20, 11 + c);
        s.p.shape = cases[c].shape;
        s.p.walls = cases[c].walls;
        s.p.contact = cases[c].contact;
        s.p.restitution = cases[c].e;
        s.p.exp_eps = 0.2;
        s.p.exp_kappa = 50;
        if (s.p.shape == SIM_CIRCLE)
            s.p.h = s.p.w; /* the disc inscribed in the square */
        size_t n = s.n;
        double *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
        int same = 1, diag_same = 1;
        long touching = 0;
        for (int step = 0; step < 200; step++) {
            if (step % 25 == 0) {
                sim_forces_brute(&s);
                memcpy(fx, s.fx, n * sizeof *fx);
                memcpy(fy, s.fy, n * sizeof *fy);
                sim_forces(&s);
                same &= memcmp(fx, s.fx, n * sizeof *fx) == 0 &&
                        memcmp(fy, s.fy, n * sizeof *fy) == 0;
                struct sim_diag d1, d2;
                sim_diag(&s, &d1);
                struct grid *keep = s.grid;
                s.grid = NULL; /* the diagnostics on a grid of their own */
                sim_diag(&s, &d2);
                s.grid = keep;
                diag_same &= d1.pe == d2.pe && d1.contacts == d2.contacts;
                touching += d1.contacts;
            }
            sim_step(&s);
        }
        CHECK(same);
        CHECK(diag_same);
        CHECK(touching > 10);
        CHECK(s.grid != NULL); /* the grid really served */
        free(fx);
        free(fy);
        sim_free(&s);
    }
}

static void test_touch(void)
{
    /* A ball moved by hand onto another far away: after sim_touch the
     * grid finds the new contact (its old list could not). */
    struct sim s;
    random_sim(&s, 600, 0, 0.2, 0, 31);
    sim_forces(&s); /* builds the list */
    size_t a = 10, b = 500;
    s.x[a] = s.x[b] + 0.5 * s.r[b];
    s.y[a] = s.y[b];
    sim_touch(&s);
    size_t n = s.n;
    double *fx = malloc(n * sizeof *fx);
    sim_forces_brute(&s);
    memcpy(fx, s.fx, n * sizeof *fx);
    CHECK(fx[a] != 0);
    sim_forces(&s);
    CHECK(memcmp(fx, s.fx, n * sizeof *fx) == 0);
    free(fx);
    sim_free(&s);
}

static void test_one_huge_ball(void)
{
    /* The brownian shape: one ball 40 times larger than 4000 small ones.
     * It stays out of the cells (which keep the small balls' size), and
     * the list stays linear: about the contacts of a gas, not n^2/2. */
    struct sim s;
    random_sim(&s, 4000, 1, 0.3, 1, 3);
    s.x[7] = s.p.w / 2;
    s.y[7] = s.p.h / 2;
    struct grid *g = new_grid(&s, 0);
    CHECK(g && update(g, &s) == 0);
    struct grid_stats st = grid_stats(g);
    CHECK(st.nlarge == 1);
    CHECK(st.cell < 10); /* sized for radii <= 3, not for 40 */
    CHECK(st.pairs < 4 * s.n);
    grid_free(g);
    CHECK(same_contacts(&s, 0));
    sim_free(&s);
}

static void test_copy_exact(void)
{
    /* From SIM_SORT_MIN balls on, sim_step sorts; a copy taken mid-run
     * (whose grid is built afresh, so its list is rebuilt at other steps)
     * goes on to the same bits. */
    struct sim a, b;
    random_sim(&a, SIM_SORT_MIN + 500, 2, 0.3, 5, 21);
    random_sim(&b, SIM_SORT_MIN + 500, 2, 0.3, 5, 21);
    for (int i = 0; i < 150; i++)
        sim_step(&a);
    sim_copy(&b, &a);
    CHECK(memcmp(a.id, b.id, a.n * sizeof *a.id) == 0);
    int sorted = 0;
    for (size_t i = 0; i < a.n; i++)
        sorted |= a.id[i] != i;
    CHECK(sorted);
    for (int i = 0; i < 150; i++) {
        sim_step(&a);
        sim_step(&b);
    }
    CHECK(memcmp(a.x, b.x, a.n * sizeof *a.x) == 0);
    CHECK(memcmp(a.vy, b.vy, a.n * sizeof *a.vy) == 0);
    CHECK(memcmp(a.id, b.id, a.n * sizeof *a.id) == 0);
    for (size_t i = 0; i < a.n; i++)
        CHECK(sim_slot(&a, a.id[i]) == i && sim_slot(&b, b.id[i]) == i);
    sim_free(&a);
    sim_free(&b);
}

/*
 * The default k and dt (5, 0.05): balls move a twentieth of their radius a
 * step and the list must last; the skin widens to what the balls' travel
 * asks (the first build's would be rebuilt nearly every step), and a step
 * over it is still the O(n^2) step to the bit, before and after the
 * slots are sorted. A copy, whose grid is new (its first list has the
 * first skin, built at other steps), sorts into the same order.
 */
static void test_default_regime(void)
{
    const size_t n = SIM_SORT_MIN + 1000;
    struct sim_params p = sim_default_params();
    p.w = p.h = sqrt((double)n * SIM_PI / 0.3);
    struct sim a, b;
    CHECK(sim_init(&a, n, &p) == 0 && sim_init(&b, n, &p) == 0);
    test_seed(5);
    for (size_t i = 0; i < n; i++) {
        a.r[i] = a.m[i] = 1;
        a.x[i] = 1 + test_urand() * (p.w - 2);
        a.y[i] = 1 + test_urand() * (p.h - 2);
        double th = 2 * SIM_PI * test_urand(), v = 2 * test_urand();
        a.vx[i] = v * cos(th);
        a.vy[i] = v * sin(th);
    }
    int same = 1, checks = 0;
    for (int i = 0; i < 300; i++) {
        if (i % 64 == 0 || i % 64 == 1) {
            sim_copy(&b, &a);
            CHECK(sim_step(&a) == 0);
            if (b.steps % SIM_SORT_EVERY == 0)
                CHECK(sim_sort(&b) == 0);
            sim_step_brute(&b);
            same &= memcmp(a.x, b.x, n * sizeof *a.x) == 0 &&
                    memcmp(a.vy, b.vy, n * sizeof *a.vy) == 0 &&
                    memcmp(a.id, b.id, n * sizeof *a.id) == 0;
            checks++;
        } else {
            CHECK(sim_step(&a) == 0);
        }
    }
    CHECK(same && checks == 10);
    struct grid_stats st = grid_stats(a.grid);
    CHECK(st.skin > 4 * GRID_SKIN * 2);
    CHECK(st.builds < 300 / 4);
    printf("  grid: default k and dt, %zu balls, 300 steps: %ld builds, skin %.3g\n",
           n, st.builds, st.skin);
    sim_free(&a);
    sim_free(&b);
}

/*
 * The observed state takes the run's list (grid_copy) rather than building
 * its own a frame behind: over 20 frames of 7 steps at the default k and dt
 * its grid builds once (20 times, every frame, with a list of its own; 6
 * when it built where the run's list was due for a build, which the run
 * then built again): a list due is the run's own build, made at the
 * observation instead of its next step, so the run builds no more than a
 * run that nobody observes (one more at most: the last observation's) and
 * steps to the same bits; and what it observes is what a fresh copy with
 * its own new grid observes, to the bit.
 */
static void test_observe_copies_list(void)
{
    const size_t n = 3000;
    struct sim_params p = sim_default_params();
    p.w = p.h = sqrt((double)n * SIM_PI / 0.3);
    struct sim a, b, obs = {0}, fresh = {0};
    CHECK(sim_init(&a, n, &p) == 0);
    test_seed(9);
    for (size_t i = 0; i < n; i++) {
        a.r[i] = a.m[i] = 1;
        a.x[i] = 1 + test_urand() * (p.w - 2);
        a.y[i] = 1 + test_urand() * (p.h - 2);
        a.vx[i] = 2 * test_urand() - 1;
        a.vy[i] = 2 * test_urand() - 1;
    }
    CHECK(sim_init(&b, n, &p) == 0);
    sim_copy(&b, &a);
    int same = 1;
    for (int frame = 0; frame < 20; frame++) {
        for (int st = 0; st < 7; st++) {
            CHECK(sim_step(&a) == 0);
            CHECK(sim_step(&b) == 0);
        }
        CHECK(sim_observe(&a, &obs) == 0);
        sim_free(&fresh);
        memset(&fresh, 0, sizeof fresh);
        CHECK(sim_observe(&a, &fresh) == 0);
        same &= memcmp(obs.vx, fresh.vx, n * sizeof *obs.vx) == 0 &&
                memcmp(obs.vy, fresh.vy, n * sizeof *obs.vy) == 0;
    }
    CHECK(same);
    CHECK(obs.grid && grid_stats(obs.grid).builds <= 1);
    CHECK(a.grid && b.grid && grid_stats(a.grid).builds <= grid_stats(b.grid).builds + 1);
    CHECK(memcmp(a.x, b.x, n * sizeof *a.x) == 0 && memcmp(a.vx, b.vx, n * sizeof *a.vx) == 0 &&
          memcmp(a.y, b.y, n * sizeof *a.y) == 0 && memcmp(a.vy, b.vy, n * sizeof *a.vy) == 0);
    sim_free(&b);
    sim_free(&a);
    sim_free(&obs);
    sim_free(&fresh);
}

static void test_write_in_scene_order(void)
{
    /* Sorting the slots changes nothing a scene shows: the written scene
     * of a sorted state is the one of the unsorted state, colours too. */
    char text[256];
    snprintf(text, sizeof text, "table 3000 3000\nball 5 5 1 0 1 2 #123456\n"
             "random %d 2 1 3 5\nball 2990 2990 0 1 2 3 red\n", SIM_SORT_MIN);
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, text, strlen(text), &err) == 0);
    for (size_t i = 0; i < sc.n; i++)
        sc.balls[i].color = (uint32_t)(i % 8);
    struct sim a, b;
    scene_to_sim(&sc, &a);
    scene_to_sim(&sc, &b);
    CHECK(sim_sort(&b) == 0);
    int sorted = 0;
    for (size_t i = 0; i < b.n; i++)
        sorted |= b.id[i] != i;
    CHECK(sorted);
    FILE *fa = tmpfile(), *fb = tmpfile();
    scene_write(fa, &sc, &a);
    scene_write(fb, &sc, &b);
    long la = ftell(fa), lb = ftell(fb);
    CHECK(la > 0 && la == lb);
    char *ta = malloc((size_t)la), *tb = malloc((size_t)lb);
    rewind(fa);
    rewind(fb);
    CHECK(fread(ta, 1, (size_t)la, fa) == (size_t)la);
    CHECK(fread(tb, 1, (size_t)lb, fb) == (size_t)lb);
    CHECK(memcmp(ta, tb, (size_t)la) == 0);
    free(ta);
    free(tb);
    fclose(fa);
    fclose(fb);
    sim_free(&a);
    sim_free(&b);
    scene_free(&sc);
}

static void test_diag_matches(void)
{
    /* sim_diag over the grid's list gives the O(n^2) sums to the bit. */
    struct sim s;
    random_sim(&s, 900, 2, 0.5, 5, 5);
    struct sim_diag d;
    sim_diag(&s, &d);
    double pe = 0;
    long contacts = 0;
    for (size_t i = 0; i < s.n; i++) {
        double lo, hi;
        lo = s.r[i] - s.x[i];
        hi = s.x[i] + s.r[i] - s.p.w;
        if (lo > 0) pe += 0.5 * s.p.k * lo * lo;
        if (hi > 0) pe += 0.5 * s.p.k * hi * hi;
        lo = s.r[i] - s.y[i];
        hi = s.y[i] + s.r[i] - s.p.h;
        if (lo > 0) pe += 0.5 * s.p.k * lo * lo;
        if (hi > 0) pe += 0.5 * s.p.k * hi * hi;
        for (size_t j = i + 1; j < s.n; j++) {
            double dx = s.x[j] - s.x[i], dy = s.y[j] - s.y[i];
            double ov = s.r[i] + s.r[j] - (sqrt(dx * dx + dy * dy) + SIM_DIST_EPS);
            if (ov > 0) {
                pe += 0.5 * s.p.k * ov * ov;
                contacts++;
            }
        }
    }
    CHECK(contacts > 100 && d.contacts == contacts);
    CHECK(d.pe == pe);
    sim_free(&s);
}

/* The scene ids of the listed pairs, as id_a * n + id_b with id_a < id_b,
 * sorted; and checks the rows are ascending and above their slot. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static size_t listed_ids(const struct sim *s, const struct grid *g,
                         uint64_t *out, int *rows_ok)
{
    struct grid_pairs pl = grid_pairs(g);
    size_t np = 0;
    for (size_t i = 0; i < s->n; i++)
        for (uint32_t e = pl.start[i]; e < pl.start[i + 1]; e++) {
            uint32_t j = pl.nbr[e];
            if (j <= i || (e > pl.start[i] && j <= pl.nbr[e - 1]) ||
                j >= pl.block_end[i / GRID_BLOCK] || pl.pi[e] != i)
                *rows_ok = 0;
            uint64_t a = s->id[i], b = s->id[j];
            out[np++] = a < b ? a * s->n + b : b * s->n + a;
        }
    qsort(out, np, sizeof *out, cmp_u64);
    return np;
}

static void test_sort_keeps_list(void)
{
    /* sim_sort (grid_order) on a valid list renames its pairs instead of building it
     * again: the same pairs of scene balls, rows ascending, the same balls
     * near a wall, no build; and the sweep over it still gives the O(n^2)
     * forces to the bit. */
    struct sim s, b;
    random_sim(&s, 1500, 3, 0.4, 5, 31);
    random_sim(&b, 1500, 3, 0.4, 5, 31);
    CHECK(sim_forces(&s) == 0 && s.grid); /* the run's grid, its list valid */
    struct grid *g = s.grid;
    uint64_t *before = malloc(s.n * 64 * sizeof *before);
    uint64_t *after = malloc(s.n * 64 * sizeof *after);
    int ok = 1;
    size_t n0 = listed_ids(&s, g, before, &ok);
    struct grid_pairs pl = grid_pairs(g);
    size_t nwall = pl.nwall;
    char *near = calloc(s.n, 1);
    for (size_t w = 0; w < pl.nwall; w++)
        near[s.id[pl.wall[w]]] = 1;
    long builds = grid_stats(g).builds;
    CHECK(sim_sort(&s) == 0 && s.grid == g);
    int moved = 0;
    for (size_t i = 0; i < s.n; i++)
        moved |= s.id[i] != i;
    CHECK(moved);
    CHECK(update(g, &s) == 0);
    CHECK(grid_stats(g).builds == builds);
    size_t n1 = listed_ids(&s, g, after, &ok);
    CHECK(ok);
    CHECK(n0 == n1 && n0 > 0 && memcmp(before, after, n0 * sizeof *before) == 0);
    pl = grid_pairs(g);
    CHECK(pl.nwall == nwall);
    int wall_ok = 1;
    for (size_t w = 0; w < pl.nwall; w++)
        wall_ok &= near[s.id[pl.wall[w]]] && (w == 0 || pl.wall[w] > pl.wall[w - 1]);
    CHECK(wall_ok);
    /* forces over the renamed list against the O(n^2) loop in the new
     * slot order (the order of the sums) */
    sim_copy(&b, &s);
    sim_forces(&s);
    CHECK(grid_stats(g).builds == builds);
    sim_forces_brute(&b);
    int same = 1;
    for (size_t i = 0; i < s.n; i++)
        same &= s.fx[i] == b.fx[i] && s.fy[i] == b.fy[i];
    CHECK(same);
    free(before);
    free(after);
    free(near);
    sim_free(&s);
    sim_free(&b);
}

/*
 * A point has no size: grid_new refuses radii that are 0, negative, NaN or
 * infinite with GRID_ESIZE (a zero radius once made a cell of 0, then NaN,
 * and grid_sort wrote out of bounds), and a sim with contacts among such
 * balls fails its step rather than guess; point masses without contacts
 * (a universe) have no grid at all and step.
 */
static void test_refuses_points(void)
{
    double r[16];
    const double bad[] = {0, -1, NAN, INFINITY};
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        for (size_t i = 0; i < 16; i++)
            r[i] = 1;
        r[9] = bad[b];
        int err = GRID_OK;
        struct grid *g = grid_new(16, r, 0, &err);
        CHECK(g == NULL && err == GRID_ESIZE);
        grid_free(g);
    }
    int err = GRID_ESIZE;
    struct grid *g = grid_new(16, (double[16]){1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, &err);
    CHECK(g != NULL && err == GRID_OK);
    grid_free(g);
    CHECK(grid_new(0, r, 0, &err) == NULL && err == GRID_ESIZE);

    struct sim s;
    random_sim(&s, SIM_SORT_MIN + 10, 0, 0.3, 1, 5);
    for (size_t i = 0; i < s.n; i++)
        s.r[i] = 0;
    double x0 = s.x[0];
    CHECK(sim_step(&s) == SIM_ESIZE && s.steps == 0 && s.x[0] == x0);
    struct sim_diag d;
    CHECK(sim_diag(&s, &d) == SIM_ESIZE && isnan(d.pe));
    s.p.contact = SIM_CONTACT_NONE;
    s.p.gravity = 1;
    CHECK(sim_step(&s) == SIM_OK && s.steps == 1 && s.grid == NULL);
    CHECK(sim_diag(&s, &d) == SIM_OK && !isnan(d.e));
    sim_free(&s);
}

/*
 * Cells for every finite table and radius (issue 11): 20000 balls spread
 * over a 1e200 table, of radius 1 or 1e-200, and 1e-200 on a small table.
 * The cell count (w/c + 1)(h/c + 1) was an infinity: the cell became
 * infinite, every ball shared one cell, and each step was O(N^2) (20 s and
 * 114 s for 100 steps). The cells must stay finite and about one per ball,
 * and the list equal the pairs of the O(n^2) loop.
 */
static void test_extreme_cells(void)
{
    static const struct { double w, r; } cases[] = {
        {1e200, 1}, {1e200, 1e-200}, {800, 1e-200}, {1.7e308, 1e-300},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sim_params p = sim_default_params();
        p.w = p.h = cases[c].w;
        struct sim s;
        const size_t n = 20000;
        CHECK(sim_init(&s, n, &p) == 0);
        test_seed(40 + c);
        for (size_t i = 0; i < n; i++) {
            s.r[i] = cases[c].r;
            s.m[i] = 1;
            s.x[i] = test_urand() * p.w;
            s.y[i] = test_urand() * p.h;
        }
        /* two touching pairs, so that there is something to find (below
         * SIM_DIST_EPS nothing touches) */
        s.x[1] = s.x[0] + cases[c].r;
        s.y[1] = s.y[0];
        s.x[3] = s.x[2];
        s.y[3] = s.y[2] + cases[c].r;
        struct grid *g = new_grid(&s, 0);
        CHECK(g && update(g, &s) == 0);
        struct grid_stats st = g ? grid_stats(g) : (struct grid_stats){0};
        double cells = (double)st.nx * (double)st.ny;
        CHECK(isfinite(st.cell) && st.cell > 0);
        CHECK(cells >= n / 4.0 && cells <= 4.0 * n + 256);
        CHECK(st.pairs < 100 && (cases[c].r < 1e-6 || st.pairs >= 2));
        grid_free(g);
        CHECK(same_contacts(&s, 0));
        sim_free(&s);
    }
}

void test_grid(void)
{
    test_extreme_cells();
    test_refuses_points();
    test_systems_bitwise();
    test_contacts_random();
    test_contacts_widths();
    test_cluster_memory();
    test_flung_out();
    test_forces_bitwise();
    test_state_after_1000_steps();
    test_step_bitwise();
    test_touch();
    test_one_huge_ball();
    test_copy_exact();
    test_default_regime();
    test_observe_copies_list();
    test_write_in_scene_order();
    test_diag_matches();
    test_sort_keeps_list();
}
