/*
 * sim.c - state, the spring step and its diagnostics.
 */
#include "sim.h"

#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SIM_ARRAYS = 8 }; /* x y vx vy m r fx fy */

struct sim_params sim_default_params(void)
{
    struct sim_params p = {0};
    p.shape = SIM_RECT;
    p.w = 800;
    p.h = 400;
    p.k = 5;
    p.dt = 0.05;
    p.restitution = 1;
    return p;
}

int sim_init(struct sim *s, size_t n, const struct sim_params *p)
{
    memset(s, 0, sizeof *s);
    size_t cnt = n ? n : 1;
    if (cnt > (size_t)-1 / (SIM_ARRAYS * sizeof(double)) || cnt >= UINT32_MAX)
        return -1;
    double *block = calloc(cnt * SIM_ARRAYS, sizeof(double));
    uint32_t *id = malloc(cnt * sizeof *id);
    if (!block || !id) {
        free(block);
        free(id);
        return -1;
    }
    for (size_t i = 0; i < cnt; i++)
        id[i] = (uint32_t)i;
    s->id = id;
    s->p = *p;
    s->n = n;
    s->x = block;
    s->y = block + cnt;
    s->vx = block + 2 * cnt;
    s->vy = block + 3 * cnt;
    s->m = block + 4 * cnt;
    s->r = block + 5 * cnt;
    s->fx = block + 6 * cnt;
    s->fy = block + 7 * cnt;
    return 0;
}

void sim_free(struct sim *s)
{
    free(s->x); /* the one block */
    free(s->id);
    grid_free(s->grid);
    memset(s, 0, sizeof *s);
}

void sim_copy(struct sim *dst, const struct sim *src)
{
    size_t cnt = src->n ? src->n : 1;
    memcpy(dst->x, src->x, cnt * SIM_ARRAYS * sizeof(double));
    memcpy(dst->id, src->id, cnt * sizeof *dst->id);
    /* The radii may differ: dst builds its broad phase afresh. */
    grid_free(dst->grid);
    dst->grid = NULL;
    dst->p = src->p;
    dst->t = src->t;
    dst->steps = src->steps;
}

/*
 * Wall force of a rectangle along one axis: a ball of radius r at
 * coordinate q inside [0, len] is pushed by k*(r - q) off the low wall and
 * by -k*(q + r - len) off the high one. Adds to *pe the spring energy when
 * pe is not NULL.
 */
static double wall_force(double q, double r, double len, double k, double *pe)
{
    double f = 0;
    double lo = r - q;
    double hi = q + r - len;
    if (0 < lo) {
        f += lo * k;
        if (pe)
            *pe += 0.5 * k * lo * lo;
    }
    if (0 < hi) {
        f -= hi * k;
        if (pe)
            *pe += 0.5 * k * hi * hi;
    }
    return f;
}

int sim_wall_near(const struct sim *s, size_t i, double margin)
{
    /* Where wall_force is not 0 for radius r + margin. */
    double r = s->r[i] + margin, x = s->x[i], y = s->y[i];
    return r - x > 0 || x + r - s->p.w > 0 || r - y > 0 || y + r - s->p.h > 0;
}

void sim_forces_brute(struct sim *s)
{
    const size_t n = s->n;
    const double k = s->p.k;
    double *restrict x = s->x, *restrict y = s->y, *restrict r = s->r;
    double *restrict fx = s->fx, *restrict fy = s->fy;

    for (size_t i = 0; i < n; i++) {
        fx[i] = wall_force(x[i], r[i], s->p.w, k, NULL);
        fy[i] = wall_force(y[i], r[i], s->p.h, k, NULL);
    }
    /* The O(n^2) pair loop: the reference every faster broad phase is
     * tested against. Force on j is k*s*(dx, dy)/d, on i the opposite. */
    for (size_t i = 0; i < n; i++) {
        double xi = x[i], yi = y[i], ri = r[i];
        double fxi = 0, fyi = 0;
        for (size_t j = i + 1; j < n; j++) {
            double dx = x[j] - xi, dy = y[j] - yi;
            double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
            double ov = ri + r[j] - d;
            if (0 < ov) {
                double f = ov * k / d;
                fx[j] += f * dx;
                fy[j] += f * dy;
                fxi -= f * dx;
                fyi -= f * dy;
            }
        }
        fx[i] += fxi;
        fy[i] += fyi;
    }
}

/*
 * The broad phase of @p s with its list valid for the current positions, or
 * NULL when the O(n^2) loop is to be used: below SIM_GRID_MIN balls, or
 * when memory is short (slower, never wrong).
 */
static struct grid *sim_grid(struct sim *s)
{
    if (s->n < SIM_GRID_MIN)
        return NULL;
    if (s->grid && grid_stats(s->grid).reach != s->p.reach) {
        grid_free(s->grid);
        s->grid = NULL;
    }
    if (!s->grid)
        s->grid = grid_new(s, s->p.reach);
    if (!s->grid || grid_update(s->grid, s))
        return NULL;
    return s->grid;
}

void sim_forces(struct sim *s)
{
    struct grid *g = sim_grid(s);
    if (!g) {
        sim_forces_brute(s);
        return;
    }
    /* The O(n^2) loop's sums restricted to the listed pairs, in its order:
     * the same bits. */
    const struct grid_pairs pl = grid_pairs(g);
    const size_t n = s->n;
    const double k = s->p.k;
    double *restrict x = s->x, *restrict y = s->y, *restrict r = s->r;
    double *restrict fx = s->fx, *restrict fy = s->fy;
    for (size_t i = 0; i < n; i++) {
        fx[i] = wall_force(x[i], r[i], s->p.w, k, NULL);
        fy[i] = wall_force(y[i], r[i], s->p.h, k, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        double xi = x[i], yi = y[i], ri = r[i];
        double fxi = 0, fyi = 0;
        for (uint32_t e = pl.start[i]; e < pl.start[i + 1]; e++) {
            size_t j = pl.nbr[e];
            double dx = x[j] - xi, dy = y[j] - yi;
            double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
            double ov = ri + r[j] - d;
            if (0 < ov) {
                double f = ov * k / d;
                fx[j] += f * dx;
                fy[j] += f * dy;
                fxi -= f * dx;
                fyi -= f * dy;
            }
        }
        fx[i] += fxi;
        fy[i] += fyi;
    }
}

void sim_touch(struct sim *s)
{
    grid_free(s->grid);
    s->grid = NULL;
}

size_t sim_slot(const struct sim *s, uint32_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->id[i] == id)
            return i;
    return s->n;
}

static void integrate(struct sim *s)
{
    const size_t n = s->n;
    const double dt = s->p.dt;
    for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
    }
}

/*
 * The integration of GRID_BLOCK balls, as in integrate(); returns their
 * largest v^2. The first loop has no branch and a fixed count, so that the
 * compiler vectorises it even at -O2 (the same operations on two balls at
 * once: the same bits). The max stays scalar: without -ffinite-math-only a
 * compiler may not vectorise it.
 */
static double move_block(double *restrict x, double *restrict y,
                         double *restrict vx, double *restrict vy,
                         const double *restrict fx, const double *restrict fy,
                         const double *restrict m, double dt)
{
    double v2[GRID_BLOCK];
    for (size_t i = 0; i < GRID_BLOCK; i++) {
        double ax = fx[i] / m[i], ay = fy[i] / m[i];
        double u = vx[i] + dt * ax, v = vy[i] + dt * ay;
        vx[i] = u;
        vy[i] = v;
        x[i] += dt * u;
        y[i] += dt * v;
        v2[i] = u * u + v * v;
    }
    double most = 0;
    for (size_t i = 0; i < GRID_BLOCK; i++)
        most = v2[i] > most ? v2[i] : most;
    return most;
}

/*
 * The Hooke step over the neighbour list in one sweep, a block of
 * GRID_BLOCK slots at a time. Row i holds only slots j > i, so once the
 * rows of a block are done no later row touches its balls: their forces
 * are final and they can move at once, while their data is in cache. The
 * forces of the slots a block's rows reach start at 0, or at the wall force
 * for the few balls the grid lists as near a wall (for the others
 * wall_force gives +0 too). Each force gets the same terms in the same
 * order as in sim_forces_brute followed by the integration, so the result
 * is the same to the bit. A pair apart adds f = 0 (no branch to
 * mispredict): x + 0 = x.
 */
static void step_grid(struct sim *s, struct grid *g)
{
    const struct grid_pairs pl = grid_pairs(g);
    const size_t n = s->n, mask = pl.ring - 1;
    const double k = s->p.k, dt = s->p.dt, w = s->p.w, h = s->p.h;
    double *restrict x = s->x, *restrict y = s->y;
    double *restrict vx = s->vx, *restrict vy = s->vy;
    /* Equal masses or radii come from a block of copies (the same values,
     * so the same bits), and their arrays need not stream from memory. */
    const double *restrict r = pl.same_r ? pl.same_r : s->r;
    const size_t rmask = pl.same_r ? GRID_BLOCK - 1 : SIZE_MAX;
    const double *restrict m = s->m;
    /* The forces of the open window live in a ring that stays in cache:
     * slot p in entry p & mask. */
    double *restrict fx = pl.scratch, *restrict fy = pl.scratch + pl.ring;
    const uint32_t *restrict start = pl.start, *restrict nbr = pl.nbr;
    size_t ready = 0, wi = 0; /* forces of slots < ready are set */
    double v2max = 0;
    for (size_t b = 0, i0 = 0; i0 < n; b++, i0 += GRID_BLOCK) {
        const size_t i1 = n - i0 < GRID_BLOCK ? n : i0 + GRID_BLOCK;
        const size_t need = pl.block_end[b];
        for (size_t p = ready; p < need; p++) {
            fx[p & mask] = 0;
            fy[p & mask] = 0;
        }
        for (; wi < pl.nwall && pl.wall[wi] < need; wi++) {
            size_t p = pl.wall[wi];
            fx[p & mask] = wall_force(x[p], r[p & rmask], w, k, NULL);
            fy[p & mask] = wall_force(y[p], r[p & rmask], h, k, NULL);
        }
        ready = need;
        for (size_t i = i0; i < i1; i++) {
            const double xi = x[i], yi = y[i], ri = r[i & rmask];
            double fxi = 0, fyi = 0;
            for (uint32_t e = start[i]; e < start[i + 1]; e++) {
                const uint32_t j = nbr[e];
                double dx = x[j] - xi, dy = y[j] - yi;
                double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
                double ov = ri + r[j & rmask] - d;
                double f = (ov > 0 ? ov : 0) * k / d;
                fx[j & mask] += f * dx;
                fy[j & mask] += f * dy;
                fxi -= f * dx;
                fyi -= f * dy;
            }
            fx[i & mask] += fxi;
            fy[i & mask] += fyi;
        }
        /* The block's entries are contiguous: ring is a multiple of it. */
        const size_t o = i0 & mask;
        double m2 = 0;
        if (i1 - i0 == GRID_BLOCK) {
            m2 = move_block(x + i0, y + i0, vx + i0, vy + i0, fx + o, fy + o,
                            pl.same_m ? pl.same_m : m + i0, dt);
        } else {
            for (size_t i = i0; i < i1; i++) {
                double ax = fx[o + (i - i0)] / m[i], ay = fy[o + (i - i0)] / m[i];
                vx[i] += dt * ax;
                vy[i] += dt * ay;
                x[i] += dt * vx[i];
                y[i] += dt * vy[i];
                double v2 = vx[i] * vx[i] + vy[i] * vy[i];
                m2 = v2 > m2 ? v2 : m2;
            }
        }
        v2max = m2 > v2max ? m2 : v2max;
    }
    grid_moved(g, dt * sqrt(v2max));
}

void sim_step(struct sim *s)
{
    /* Cell order, when it pays, at steps fixed by the state alone: a copy
     * of the state steps to the same bits as the original. */
    if (s->n >= SIM_SORT_MIN && s->steps % SIM_SORT_EVERY == 0) {
        if (!s->grid || grid_stats(s->grid).reach != s->p.reach) {
            grid_free(s->grid);
            s->grid = grid_new(s, s->p.reach);
        }
        if (s->grid)
            grid_sort(s->grid, s);
    }
    struct grid *g = sim_grid(s);
    if (g) {
        step_grid(s, g);
    } else {
        sim_forces_brute(s);
        integrate(s);
    }
    s->t += s->p.dt;
    s->steps++;
}

/* The diagnostics' pair sums over row i of a list (all of j > i when
 * nbr is NULL), in the O(n^2) loop's order. */
static void diag_pairs(const struct sim *s, size_t i, const uint32_t *row,
                       size_t len, struct sim_diag *d)
{
    const double k = s->p.k;
    size_t cnt = row ? len : s->n - i - 1;
    for (size_t e = 0; e < cnt; e++) {
        size_t j = row ? row[e] : i + 1 + e;
        double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
        double dd = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
        double ov = s->r[i] + s->r[j] - dd;
        if (0 < ov) {
            d->pe += 0.5 * k * ov * ov;
            d->contacts++;
        }
    }
}

void sim_diag(const struct sim *s, struct sim_diag *d)
{
    memset(d, 0, sizeof *d);
    const size_t n = s->n;
    const double k = s->p.k;
    /* The pairs from the grid when there are many balls (a temporary one
     * if the run has none yet); NULL rows mean all pairs. */
    struct grid *g = NULL, *own = NULL;
    if (n >= SIM_GRID_MIN) {
        g = s->grid;
        if (!g || grid_stats(g).reach != s->p.reach)
            g = own = grid_new(s, s->p.reach);
        if (g && grid_update(g, s))
            g = NULL;
    }
    const struct grid_pairs pl = g ? grid_pairs(g) : (struct grid_pairs){0};
    for (size_t i = 0; i < n; i++) {
        double m = s->m[i];
        d->ke += 0.5 * m * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        d->px += m * s->vx[i];
        d->py += m * s->vy[i];
        wall_force(s->x[i], s->r[i], s->p.w, k, &d->pe);
        wall_force(s->y[i], s->r[i], s->p.h, k, &d->pe);
        if (g)
            diag_pairs(s, i, pl.nbr + pl.start[i], pl.start[i + 1] - pl.start[i], d);
        else
            diag_pairs(s, i, NULL, 0, d);
    }
    grid_free(own);
    d->e = d->ke + d->pe;
}

double sim_contact_time(const struct sim *s)
{
    if (s->n == 0)
        return INFINITY;
    double m1 = INFINITY, m2 = INFINITY; /* the two lightest masses */
    for (size_t i = 0; i < s->n; i++) {
        double m = s->m[i];
        if (m < m1) {
            m2 = m1;
            m1 = m;
        } else if (m < m2) {
            m2 = m;
        }
    }
    double mu = s->n > 1 ? m1 * m2 / (m1 + m2) : m1;
    return SIM_PI * sqrt(mu / s->p.k);
}

int sim_finite(const struct sim *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (!isfinite(s->x[i]) || !isfinite(s->y[i]) ||
            !isfinite(s->vx[i]) || !isfinite(s->vy[i]))
            return 0;
    return 1;
}
