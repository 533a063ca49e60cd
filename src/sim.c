/*
 * sim.c - state, the spring step and its diagnostics.
 */
#include "sim.h"

#include "contact.h"
#include "gravity.h"

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
    p.walls = SIM_WALLS_SPRING;
    p.contact = SIM_CONTACT_HOOKE;
    return p;
}

int sim_init(struct sim *s, size_t n, const struct sim_params *p)
{
    memset(s, 0, sizeof *s);
    size_t cnt = n ? n : 1;
    if (cnt > (size_t)-1 / (SIM_ARRAYS * sizeof(double)))
        return -1;
    double *block = calloc(cnt * SIM_ARRAYS, sizeof(double));
    if (!block)
        return -1;
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
    memset(s, 0, sizeof *s);
}

void sim_copy(struct sim *dst, const struct sim *src)
{
    size_t cnt = src->n ? src->n : 1;
    memcpy(dst->x, src->x, cnt * SIM_ARRAYS * sizeof(double));
    dst->p = src->p;
    dst->t = src->t;
    dst->steps = src->steps;
    dst->dissipated = src->dissipated;
    dst->clamps = src->clamps;
    dst->diss_power = src->diss_power;
    dst->clamp_now = src->clamp_now;
}

int sim_plain(const struct sim_params *p)
{
    return p->shape == SIM_RECT && p->walls == SIM_WALLS_SPRING &&
           p->contact == SIM_CONTACT_HOOKE && p->restitution == 1 &&
           p->gravity == 0;
}

/*
 * The other systems (round table, hard walls, exponential contacts,
 * dashpots, gravity): the O(n^2) pair loop calling the pure laws of
 * contact.c, then gravity.c: walls first, then pairs, then gravity, into
 * fx, fy (overwritten). Adds the contacts' pe, dashpot power and clamps to
 * *sum, and counts touching pairs into *contacts when it is not NULL. Writes
 * nothing else, so that sim_diag can run it into scratch arrays.
 */
static void forces_systems(const struct sim *s, double *fx, double *fy,
                           struct contact_sum *sum, long *contacts)
{
    const size_t n = s->n;
    const struct sim_params *p = &s->p;
    const double *x = s->x, *y = s->y, *vx = s->vx, *vy = s->vy;
    const double *m = s->m, *r = s->r;
    struct contact_law law;
    contact_law_init(&law, p);
    for (size_t i = 0; i < n; i++)
        fx[i] = fy[i] = 0;
    if (p->walls == SIM_WALLS_SPRING) {
        if (p->shape == SIM_RECT) {
            for (size_t i = 0; i < n; i++) {
                fx[i] = contact_wall_axis(&law, x[i], vx[i], r[i], m[i], p->w, sum);
                fy[i] = contact_wall_axis(&law, y[i], vy[i], r[i], m[i], p->h, sum);
            }
        } else if (p->shape == SIM_CIRCLE) {
            double R = 0.5 * p->w;
            for (size_t i = 0; i < n; i++)
                contact_wall_circle(&law, x[i], y[i], vx[i], vy[i], r[i], m[i],
                                    R, R, R, &fx[i], &fy[i], sum);
        }
    }
    if (p->contact != SIM_CONTACT_NONE) {
        for (size_t i = 0; i < n; i++) {
            double xi = x[i], yi = y[i], ri = r[i];
            for (size_t j = i + 1; j < n; j++) {
                double dx = x[j] - xi, dy = y[j] - yi;
                double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
                double gap = d - ri - r[j];
                if (!(gap < law.range))
                    continue;
                double mu = m[i] * m[j] / (m[i] + m[j]);
                double vn = ((vx[j] - vx[i]) * dx + (vy[j] - vy[i]) * dy) / d;
                struct contact_out o;
                contact_eval(&law, gap, mu, vn, &o);
                double f = o.f / d;
                fx[j] += f * dx;
                fy[j] += f * dy;
                fx[i] -= f * dx;
                fy[i] -= f * dy;
                sum->pe += o.pe;
                sum->power += o.power;
                sum->clamps += o.clamped;
                if (contacts && o.touching)
                    ++*contacts;
            }
        }
    }
    /* Barnes-Hut when asked for; it declines (negative masses, no memory)
     * without adding anything, and then the exact sum runs. */
    if (!(p->theta > 0) ||
        gravity_bh_forces(n, x, y, m, p->gravity, p->softening, p->theta, fx, fy))
        gravity_forces(n, x, y, m, p->gravity, p->softening, fx, fy);
}

/*
 * Hard walls: the semi-implicit move, then every centre that left the
 * region it may occupy (the table shrunk by the ball's radius) is reflected
 * at the crossing point of its path (contact.h).
 */
static void move_hard(struct sim *s)
{
    const size_t n = s->n;
    const double dt = s->p.dt, e = s->p.restitution;
    const double R = 0.5 * s->p.w;
    for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        double px = s->x[i], py = s->y[i], r = s->r[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
        double lost = 0;
        if (s->p.shape == SIM_RECT) {
            lost += contact_reflect_axis(&s->x[i], &s->vx[i], r, s->p.w - r, e);
            lost += contact_reflect_axis(&s->y[i], &s->vy[i], r, s->p.h - r, e);
        } else if (s->p.shape == SIM_CIRCLE) {
            lost = contact_reflect_circle(px, py, &s->x[i], &s->y[i], &s->vx[i],
                                          &s->vy[i], R, R, R - r, e);
        }
        s->dissipated += s->m[i] * lost;
    }
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

void sim_forces(struct sim *s)
{
    const size_t n = s->n;
    const double k = s->p.k;
    double *restrict x = s->x, *restrict y = s->y, *restrict r = s->r;
    double *restrict fx = s->fx, *restrict fy = s->fy;

    s->diss_power = 0;
    s->clamp_now = 0;
    if (!sim_plain(&s->p)) {
        struct contact_sum sum = {0};
        forces_systems(s, fx, fy, &sum, NULL);
        s->diss_power = sum.power;
        s->clamp_now = sum.clamps;
        return;
    }
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

void sim_step(struct sim *s)
{
    sim_forces(s);
    const size_t n = s->n;
    const double dt = s->p.dt;
    if (s->p.walls == SIM_WALLS_HARD)
        move_hard(s);
    else for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
    }
    s->dissipated += dt * s->diss_power;
    s->clamps += s->clamp_now;
    s->t += dt;
    s->steps++;
}

/* Diagnostics of the other systems: the same sweep as forces_systems, into
 * scratch force arrays, for its energies and contact count. */
static void diag_systems(const struct sim *s, struct sim_diag *d)
{
    const size_t n = s->n;
    for (size_t i = 0; i < n; i++) {
        double m = s->m[i];
        d->ke += 0.5 * m * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        d->px += m * s->vx[i];
        d->py += m * s->vy[i];
    }
    struct contact_sum sum = {0};
    double *f = malloc(2 * (n ? n : 1) * sizeof *f);
    if (f) {
        forces_systems(s, f, f + (n ? n : 1), &sum, &d->contacts);
        free(f);
    } else {
        d->pe = NAN; /* no memory for the sweep: say so, do not guess */
    }
    d->pe += sum.pe;
    d->pg = gravity_potential(n, s->x, s->y, s->m, s->p.gravity, s->p.softening);
    d->e = d->ke + d->pe + d->pg;
    d->dissipated = s->dissipated;
    d->clamps = s->clamps;
}

void sim_diag(const struct sim *s, struct sim_diag *d)
{
    memset(d, 0, sizeof *d);
    if (!sim_plain(&s->p)) {
        diag_systems(s, d);
        return;
    }
    const size_t n = s->n;
    const double k = s->p.k;
    for (size_t i = 0; i < n; i++) {
        double m = s->m[i];
        d->ke += 0.5 * m * (s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        d->px += m * s->vx[i];
        d->py += m * s->vy[i];
        wall_force(s->x[i], s->r[i], s->p.w, k, &d->pe);
        wall_force(s->y[i], s->r[i], s->p.h, k, &d->pe);
        for (size_t j = i + 1; j < n; j++) {
            double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
            double dd = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
            double ov = s->r[i] + s->r[j] - dd;
            if (0 < ov) {
                d->pe += 0.5 * k * ov * ov;
                d->contacts++;
            }
        }
    }
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
