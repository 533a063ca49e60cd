/*
 * scene_gen.c - the rack and random generators (see scene_gen.h).
 */
#include "scene_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Colours a rack hands out, in order, like a set of pool balls. */
static const uint32_t rack_colors[] = {3, 4, 1, 5, 2, 6};

void scene_gen_rack(struct scene_ball *out, double x, double y,
                   unsigned long long rows, double r, double m)
{
    /* Row i stands sqrt(3)*r behind row i-1; its i+1 balls are 2r apart,
     * centred on the axis y: every neighbour pair touches exactly. */
    const double pitch = sqrt(3.0) * r;
    size_t c = 0;
    for (unsigned long long i = 0; i < rows; i++)
        for (unsigned long long j = 0; j <= i; j++) {
            struct scene_ball b = {0};
            b.x = x + (double)i * pitch;
            b.y = y + ((double)(2 * j) - (double)i) * r;
            b.m = m;
            b.r = r;
            b.color = rack_colors[c % (sizeof rack_colors / sizeof *rack_colors)];
            out[c++] = b;
        }
}

/* splitmix64: a tiny generator with a fixed, portable output sequence. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double rng_unit(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * ln x for a finite x > 0 from frexp (exact) and +, -, *, / (correctly
 * rounded in IEEE 754, and -ffp-contract=off keeps them apart), so that
 * the same bits come out on every machine: libm's log is faithful, not
 * correctly rounded, and its last bit differs between libraries. With x =
 * m 2^e, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) = 2 s (1 + s^2/3 +
 * s^4/5 + ...) with s = (m - 1)/(m + 1), |s| <= 0.1716: 13 terms leave
 * s^26/27 < 1e-21. ln 2 in two parts (fdlibm's split: e ln2_hi is exact
 * for |e| < 2000). Within 2 ulp of the true value (tested against libm).
 */
double scene_gen_log(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01;
    static const double ln2_lo = 1.90821492927058770002e-10;
    int e;
    double m = frexp(x, &e); /* m in [0.5, 1) */
    if (m < 0.70710678118654752440) {
        m *= 2;
        e--;
    }
    double sq = (m - 1) / (m + 1), s2 = sq * sq, sum = 0;
    for (int k = 13; k >= 1; k--)
        sum = s2 * (1.0 / (2 * k + 1) + sum);
    double lnm = 2 * sq + 2 * sq * sum;
    return e * ln2_hi + (e * ln2_lo + lnm);
}

/* A direction uniform on the circle, without trigonometry (whose last bits
 * differ between libms): a point in the unit disc, scaled to length 1. */
static void rng_direction(uint64_t *st, double *ux, double *uy)
{
    double u, v, q;
    do {
        u = 2 * rng_unit(st) - 1;
        v = 2 * rng_unit(st) - 1;
        q = u * u + v * v;
    } while (q > 1 || q < 1e-12);
    q = sqrt(q);
    *ux = u / q;
    *uy = v / q;
}

/* Two independent standard normal numbers (Marsaglia's polar method: a
 * point uniform in the unit disc, scaled by sqrt(-2 ln q / q)), from the
 * generator's bits, sqrt and scene_gen_log alone: the same on every machine. */
static void rng_normal2(uint64_t *st, double *a, double *b)
{
    double u, v, q;
    do {
        u = 2 * rng_unit(st) - 1;
        v = 2 * rng_unit(st) - 1;
        q = u * u + v * v;
    } while (q >= 1 || q == 0);
    double f = sqrt(-2 * scene_gen_log(q) / q);
    *a = u * f;
    *b = v * f;
}

/*
 * A bucket grid for placing balls without overlap. Cell size c; every ball j
 * is entered in each cell its box [x - (r_j + R), x + (r_j + R)] touches, so
 * a candidate of radius R need only look in the one cell of its centre.
 */
struct place_grid {
    double c;
    long nx, ny;
    int32_t *head;    /* first entry of a cell, -1 if none */
    int32_t *next;    /* next entry in the same cell */
    int32_t *ball;    /* ball of an entry */
    size_t used, cap;
};

/* The cell of coordinate @p v along an axis of @p n cells, clamped to
 * [0, n-1] before the conversion: a ball given before the random line may
 * still lie far off the table (check_inside comes last), and a double out
 * of the range of long must not be converted. */
static long grid_cell(double v, double c, long n)
{
    double q = floor(v / c);
    if (!(q >= 0))
        return 0;
    if (q >= (double)(n - 1))
        return n - 1;
    return (long)q;
}

static int grid_add(struct place_grid *g, const struct scene_ball *b, double R,
                    int32_t idx)
{
    double e = b->r + R;
    long x0 = grid_cell(b->x - e, g->c, g->nx), x1 = grid_cell(b->x + e, g->c, g->nx);
    long y0 = grid_cell(b->y - e, g->c, g->ny), y1 = grid_cell(b->y + e, g->c, g->ny);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++) {
            if (g->used == g->cap) {
                size_t cap = g->cap ? 2 * g->cap : 1024;
                int32_t *nn = realloc(g->next, cap * sizeof *nn);
                if (nn)
                    g->next = nn;
                int32_t *nb = realloc(g->ball, cap * sizeof *nb);
                if (nb)
                    g->ball = nb;
                if (!nn || !nb)
                    return -1;
                g->cap = cap;
            }
            long cell = cy * g->nx + cx;
            g->ball[g->used] = idx;
            g->next[g->used] = g->head[cell];
            g->head[cell] = (int32_t)g->used++;
        }
    return 0;
}

static int grid_free_spot(const struct place_grid *g, const struct scene_ball *balls,
                          double x, double y, double R)
{
    long cx = grid_cell(x, g->c, g->nx), cy = grid_cell(y, g->c, g->ny);
    for (int32_t e = g->head[cy * g->nx + cx]; e >= 0; e = g->next[e]) {
        const struct scene_ball *b = &balls[g->ball[e]];
        double dx = b->x - x, dy = b->y - y, rr = b->r + R;
        if (dx * dx + dy * dy < rr * rr)
            return 0;
    }
    return 1;
}

int scene_gen_on_table(const struct sim_params *p, double x, double y, double r)
{
    if (p->shape == SIM_CIRCLE) {
        double R = 0.5 * p->w, dx = x - R, dy = y - R;
        return dx * dx + dy * dy <= (R - r) * (R - r);
    }
    return x >= r && x <= p->w - r && y >= r && y <= p->h - r;
}

int scene_gen_random(struct scene_ball *balls, size_t before,
                    const struct sim_params *p, const struct scene_gen_random *want,
                    unsigned long long *placed)
{
    const unsigned long long n = want->n;
    const double R0 = want->r0, R = want->r1, m = want->m, speed = want->speed;
    const double sigma = speed * sqrt(0.5);
    const int maxwell = want->maxwell;
    const uint64_t seed = want->seed;
    const double w = p->w, h = p->h;
    *placed = 0;
    struct place_grid g = {0};
    size_t total = before + n;
    g.c = 4 * R;
    double most = 4.0 * (double)total + 64;
    /* Each axis first gets at most `most` cells, so that the count is a
     * finite product: a 1e200 table (or a radius of 1e-200) asked for
     * 1e400 cells, an infinity that made the cell infinite and put every
     * ball in one cell, an O(N^2) placement. */
    if (!(w / g.c <= most))
        g.c = w / most;
    if (!(h / g.c <= most))
        g.c = h / most;
    double cells = (w / g.c + 1) * (h / g.c + 1);
    if (cells > most)
        g.c *= sqrt(cells / most);
    /* A long thin table keeps too many cells along its length: cap each
     * axis, so that nx * ny <= 2 most + 1 (the placement does not depend
     * on the grid, only its speed does; grid_cell clamps to the last cell). */
    double fx = fmin(w / g.c, most), fy = fmin(h / g.c, most / (fx + 1));
    g.nx = (long)fx + 1;
    g.ny = (long)fy + 1;
    g.head = malloc((size_t)g.nx * (size_t)g.ny * sizeof *g.head);
    int rc = SCENE_GEN_NOMEM;
    if (!g.head)
        goto out;
    memset(g.head, 0xff, (size_t)g.nx * (size_t)g.ny * sizeof *g.head);
    for (size_t j = 0; j < before; j++)
        if (grid_add(&g, &balls[j], R, (int32_t)j))
            goto out;

    uint64_t st = seed;
    const long tries = 100000; /* per ball, before we call the table full */
    /* And for all of them: near the jamming limit every ball takes up to
     * `tries`, so that 10^7 balls could take hours (65322 of radius 1 on
     * the default table took 2 s). Tables filled to about half (RSA jams
     * at 0.547) need far fewer than 100 tries a ball on average. */
    unsigned long long budget = 100000 + 100ull * n, used = 0;
    for (unsigned long long i = 0; i < n; i++) {
        struct scene_ball b = {0};
        b.m = m;
        b.r = R;
        if (R0 < R) {
            /* uniform in [R0, R], mass M (r/R0)^2: one density of discs */
            b.r = R0 + rng_unit(&st) * (R - R0);
            b.m = m * ((b.r / R0) * (b.r / R0));
        }
        const double r = b.r;
        long t = 0;
        do {
            if (++t > tries || ++used > budget) {
                rc = SCENE_GEN_FULL;
                goto out;
            }
            b.x = r + rng_unit(&st) * (w - 2 * r);
            b.y = r + rng_unit(&st) * (h - 2 * r);
        } while (!scene_gen_on_table(p, b.x, b.y, r) ||
                 !grid_free_spot(&g, balls, b.x, b.y, r));
        if (maxwell) {
            /* 2-D Maxwell-Boltzmann at one temperature: Gaussian components
             * of variance kT/m each, kT = M SPEED^2/2 (SPEED the rms speed
             * of mass M), so that every mass has the mean kinetic energy
             * kT (equipartition). sqrt is correctly rounded: the bits stay
             * portable; one mass gives sigma itself (m / M = 1). */
            double a, c, s_b = sigma * sqrt(m / b.m);
            rng_normal2(&st, &a, &c);
            b.vx = s_b * a;
            b.vy = s_b * c;
        } else {
            double u, v;
            rng_direction(&st, &u, &v);
            b.vx = speed * u;
            b.vy = speed * v;
        }
        balls[before + i] = b;
        *placed = i + 1;
        if (grid_add(&g, &b, R, (int32_t)(before + i)))
            goto out;
    }
    rc = SCENE_GEN_OK;
out:
    free(g.head);
    free(g.next);
    free(g.ball);
    return rc;
}
