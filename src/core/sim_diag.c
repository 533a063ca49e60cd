/*
 * sim_diag.c - the core's observers: the observed state (v + dt/2 F/m)
 * and its inverse, the diagnostics (energies, momentum, contacts), the
 * contact time and the finiteness of a state.
 */
#include "sim_impl.h"

#include "gravity.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* === The observed state (see sim.h) === */

/* Whether @p obs may keep its balls and broad phase for those of @p s: the
 * same slots, masses (the grid's scratch knows them) and radii on the same
 * table. *move is then how far a ball moved since obs last saw it. */
static int obs_keeps_grid(const struct sim *obs, const struct sim *s, double *move)
{
    *move = 0;
    if (obs->p.w != s->p.w || obs->p.h != s->p.h || obs->p.shape != s->p.shape)
        return 0;
    double m2 = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (obs->id[i] != s->id[i] || obs->r[i] != s->r[i] || obs->m[i] != s->m[i])
            return 0;
        double dx = s->x[i] - obs->x[i], dy = s->y[i] - obs->y[i];
        double d2 = dx * dx + dy * dy;
        m2 = d2 > m2 ? d2 : m2;
    }
    *move = sqrt(m2);
    return *move <= DBL_MAX; /* not NaN, not infinite */
}

int sim_observe(const struct sim *s, struct sim *obs)
{
    if (!obs->x || obs->n != s->n) {
        if (sim_assign(obs, s))
            return -1;
    } else {
        double move;
        /* The run's list made valid for its positions now, as its next
         * step would make it first (the same positions, so the same build
         * then or now; no force depends on the list): a copy of a stale
         * list would be built again here, and then once more by the run. */
        if (s->grid && has_grid(s) && grid_stats(s->grid).reach == sim_pair_reach(s)) {
            const struct grid_balls b = balls_of(s);
            (void)grid_update(s->grid, &b); /* short of memory: copied below as invalid */
        }
        if (obs_keeps_grid(obs, s, &move)) {
            /* slots, masses and radii as they were: what moves */
            size_t bytes = s->n * sizeof *s->x;
            memcpy(obs->x, s->x, bytes);
            memcpy(obs->y, s->y, bytes);
            memcpy(obs->vx, s->vx, bytes);
            memcpy(obs->vy, s->vy, bytes);
            sim_copy_scalars(obs, s);
            /* The run's list holds for these very positions and slots: a
             * copy of it, not a build (a frame's steps move the balls past
             * the copy's own skin nearly every frame). No force depends on
             * which list. */
            if (obs->grid && (!s->grid || grid_copy(obs->grid, s->grid)))
                grid_moved(obs->grid, move);
        } else {
            sim_copy(obs, s);
        }
    }
    int rc = sim_forces(obs);
    if (rc)
        return rc;
    const double h = 0.5 * obs->p.dt;
    for (size_t i = 0; i < obs->n; i++) {
        obs->vx[i] += h * obs->fx[i] / obs->m[i];
        obs->vy[i] += h * obs->fy[i] / obs->m[i];
    }
    return SIM_OK;
}

/* The stored component v whose observed one v + a is @p want, to the bit
 * when an ulp or two either way gets there. */
static double unobserve_one(double want, double a)
{
    double v = want - a;
    if (!isfinite(v))
        return want;
    for (int k = 0; k < 4 && v + a != want; k++)
        v = nextafter(v, v + a < want ? INFINITY : -INFINITY);
    return v + a == want ? v : want - a;
}

int sim_unobserve(struct sim *s, const double *vx, const double *vy)
{
    struct sim t = {0};
    if (sim_assign(&t, s))
        return -1;
    const double h = 0.5 * s->p.dt;
    int rc = SIM_OK;
    /* v_{j+1} = v_obs - h F(x, v_j)/m: F depends on v only through the
     * dashpot, whose part of the map shrinks by about zeta pi dt / tau (tau
     * the contact time) a pass; without one the second pass changes
     * nothing and ends it. */
    for (int pass = 0; pass < 64; pass++) {
        if ((rc = sim_forces(&t)))
            break;
        int changed = 0, force = 0;
        for (size_t i = 0; i < t.n; i++) {
            force |= t.fx[i] != 0 || t.fy[i] != 0;
            double ax = h * t.fx[i] / t.m[i], ay = h * t.fy[i] / t.m[i];
            double nx = unobserve_one(vx[i], ax), ny = unobserve_one(vy[i], ay);
            changed |= nx != t.vx[i] || ny != t.vy[i];
            t.vx[i] = nx;
            t.vy[i] = ny;
        }
        /* no force at all: nothing to depend on the velocities */
        if ((!changed && pass > 0) || !force)
            break;
    }
    if (rc == SIM_OK) {
        memcpy(s->vx, t.vx, s->n * sizeof *s->vx);
        memcpy(s->vy, t.vy, s->n * sizeof *s->vy);
    }
    sim_free(&t);
    return rc;
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

/*
 * The broad phase the diagnostics of @p s use: the run's own when it is
 * made for the current reach, else a temporary one in *own (to free); NULL
 * without has_grid (all pairs are then few or none). Sets *rc when a grid
 * was needed and could not be made.
 */
static struct grid *diag_grid(const struct sim *s, struct grid **own, int *rc)
{
    *own = NULL;
    *rc = SIM_OK;
    if (!has_grid(s))
        return NULL;
    const double reach = sim_pair_reach(s);
    struct grid *g = s->grid;
    if (!g || grid_stats(g).reach != reach) {
        int err;
        g = *own = grid_new(s->n, s->r, reach, &err);
        if (!g) {
            *rc = err == GRID_ESIZE ? SIM_ESIZE : SIM_ENOMEM;
            return NULL;
        }
    }
    const struct grid_balls b = balls_of(s);
    if (grid_update(g, &b)) {
        grid_free(*own);
        *own = NULL;
        *rc = SIM_ENOMEM;
        return NULL;
    }
    return g;
}

/* Diagnostics of the general path: the same sweep as sim_general_forces, into
 * scratch force arrays, for its energies and contact count. */
static int diag_general(const struct sim *s, struct sim_diag *d)
{
    const size_t n = s->n;
    for (size_t i = 0; i < n; i++) {
        double m = s->m[i];
        d->ke += 0.5 * m * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        d->px += m * s->vx[i];
        d->py += m * s->vy[i];
    }
    struct contact_sum sum = {0};
    struct grid *own;
    int rc;
    struct grid *g = diag_grid(s, &own, &rc);
    double *f = rc ? NULL : malloc(2 * (n ? n : 1) * sizeof *f);
    if (f) {
        sim_general_forces(s, g, f, f + (n ? n : 1), &sum, &d->contacts);
        free(f);
    } else {
        d->pe = NAN; /* no memory for the sweep: say so, do not guess */
        rc = rc ? rc : SIM_ENOMEM;
    }
    d->pe += sum.pe;
    d->pg = gravity_potential(n, s->x, s->y, s->m, s->p.gravity, s->p.softening);
    /* The field's potential, 0 at the origin (the table's lower left
     * corner), and the balls gone past an open side. */
    const struct sim_params *p = &s->p;
    for (size_t i = 0; i < n; i++) {
        if (p->gx != 0 || p->gy != 0)
            d->pf -= s->m[i] * (p->gx * s->x[i] + p->gy * s->y[i]);
        double r = s->r[i];
        if (((p->open & SIM_SIDE_LEFT) && s->x[i] + r < 0) ||
            ((p->open & SIM_SIDE_RIGHT) && s->x[i] - r > p->w) ||
            ((p->open & SIM_SIDE_BOTTOM) && s->y[i] + r < 0) ||
            ((p->open & SIM_SIDE_TOP) && s->y[i] - r > p->h))
            d->out++;
    }
    d->e = d->ke + d->pe + d->pg + d->pf;
    d->dissipated = s->dissipated;
    d->clamps = s->clamps;
    grid_free(own);
    return rc;
}

int sim_diag(const struct sim *s, struct sim_diag *d)
{
    memset(d, 0, sizeof *d);
    if (!hooke_rect(&s->p))
        return diag_general(s, d);
    const size_t n = s->n;
    const double k = s->p.k;
    /* The pairs from the grid (NULL rows mean all pairs). */
    struct grid *own;
    int rc;
    struct grid *g = diag_grid(s, &own, &rc);
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
        else if (!rc)
            diag_pairs(s, i, NULL, 0, d);
    }
    grid_free(own);
    if (rc)
        d->pe = NAN; /* no pairs without the grid: say so, do not guess */
    d->e = d->ke + d->pe;
    return rc;
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

