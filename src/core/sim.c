/*
 * sim.c - state, the spring step (the general path here, the Hooke
 * rectangle's sweep in sim_sweep.c), the cell order, time, live edits;
 * the observers are sim_diag.c's.
 */
#include "sim_impl.h"

#include "contact.h"
#include "gravity.h"
#include "grid.h"
#include "mem.h"

#include <float.h>
#include <limits.h>
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
    p.theta = -1; /* automatic */
    p.walls = SIM_WALLS_SPRING;
    p.contact = SIM_CONTACT_HOOKE;
    return p;
}

/* sim_init, but the arrays are left as the allocator gave them when
 * @p zero is 0 (a copy overwrites them all: sim_assign); @p how: mem.h's
 * use of them (0, or MEM_FLAT: sim_init_as). */
static int init_arrays_as(struct sim *s, size_t n, const struct sim_params *p, int zero,
                          unsigned how)
{
    memset(s, 0, sizeof *s);
    size_t cnt = n ? n : 1;
    if (cnt > (size_t)-1 / (SIM_ARRAYS * sizeof(double)) || cnt >= UINT32_MAX)
        return -1;
    /* the arrays on huge pages where the program asked (see mem.h); zeroed
     * ones as the allocator hands them out (fresh pages are zero already:
     * those a run never writes, fx and fy under the grid's step, are then
     * never handed out, and the others are not written twice) */
    double *block = mem_alloc_as(cnt * SIM_ARRAYS * sizeof(double), (zero ? MEM_ZERO : 0) | how);
    uint32_t *id = mem_alloc_as(2 * cnt * sizeof *id, how);
    if (!block || !id) {
        mem_free(block);
        mem_free(id);
        return -1;
    }
    if (zero) {
        for (size_t i = 0; i < cnt; i++)
            id[i] = id[cnt + i] = (uint32_t)i;
    }
    s->id = id;
    s->slot = id + cnt;
    s->dt_base = p->dt;
    s->finite = 1; /* zeros */
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

static int init_arrays(struct sim *s, size_t n, const struct sim_params *p, int zero)
{
    return init_arrays_as(s, n, p, zero, 0);
}

int sim_init(struct sim *s, size_t n, const struct sim_params *p)
{
    return init_arrays(s, n, p, 1);
}

int sim_init_as(struct sim *s, size_t n, const struct sim_params *p, unsigned how)
{
    return init_arrays_as(s, n, p, 1, how & MEM_FLAT);
}

void sim_free(struct sim *s)
{
    mem_free(s->x); /* the one block */
    mem_free(s->id); /* id and slot */
    grid_free(s->grid);
    if (s->scratch) {
        free(s->scratch->ring);
        sim_free_parts(s->scratch);
        free(s->scratch->tmp);
        free(s->scratch->src);
        free(s->scratch->ids);
        free(s->scratch);
    }
    memset(s, 0, sizeof *s);
}

/* The scalars of sim_copy: parameters, time and its base, totals. */
void sim_copy_scalars(struct sim *dst, const struct sim *src)
{
    dst->p = src->p;
    dst->t = src->t;
    dst->steps = src->steps;
    dst->t_base = src->t_base;
    dst->steps_base = src->steps_base;
    dst->dt_base = src->dt_base;
    dst->t_last = src->t_last;
    dst->steps_last = src->steps_last;
    dst->dissipated = src->dissipated;
    dst->clamps = src->clamps;
    dst->diss_power = src->diss_power;
    dst->clamp_now = src->clamp_now;
    dst->finite = src->finite;
}

void sim_copy(struct sim *dst, const struct sim *src)
{
    size_t cnt = src->n ? src->n : 1;
    memcpy(dst->x, src->x, cnt * SIM_ARRAYS * sizeof(double));
    memcpy(dst->id, src->id, cnt * sizeof *dst->id);
    memcpy(dst->slot, src->slot, cnt * sizeof *dst->slot);
    /* The radii may differ: dst builds its broad phase afresh. */
    grid_free(dst->grid);
    dst->grid = NULL;
    sim_copy_scalars(dst, src);
}

int sim_hooke_rect(const struct sim_params *p)
{
    return hooke_rect(p);
}

/*
 * The two force paths. The Hooke rectangle (sim_hooke_rect: rectangle,
 * spring walls on four sides, Hooke contacts, e = 1, no gravity, friction
 * or field) has its own code:
 * hooke_forces, and sim_sweep, which fuses the forces with the
 * integration over the grid. Every other system takes the general path,
 * sim_general_forces: the laws of contact.c, then gravity.c. On a scene both
 * can step, both give the same bits (tests/unit/test_sim.c).
 */

/* What a pair law needs beside the pair: the law, the state, where the
 * forces go and what is summed. */
struct general_ctx {
    const struct sim *s;
    const struct contact_law *law;
    double *fx, *fy;
    struct contact_sum *sum;
    long *contacts;
};

/* One pair of the other systems: its law (contact.c) at gap d - r_i - r_j,
 * with d the centre distance plus SIM_DIST_EPS, along (dx, dy) = x_j - x_i. */
static void general_pair(void *ctx, size_t i, size_t j, double dx, double dy,
                         double d)
{
    struct general_ctx *c = ctx;
    const struct sim *s = c->s;
    /* d - (r_i + r_j): minus the Hooke path's overlap, to the bit. */
    double gap = d - (s->r[i] + s->r[j]);
    if (!(gap < c->law->range))
        return;
    double mu = s->m[i] * s->m[j] / (s->m[i] + s->m[j]);
    double vn = ((s->vx[j] - s->vx[i]) * dx + (s->vy[j] - s->vy[i]) * dy) / d;
    struct contact_out o;
    contact_eval(c->law, gap, mu, vn, &o);
    double f = o.f / d;
    c->fx[j] += f * dx;
    c->fy[j] += f * dy;
    c->fx[i] -= f * dx;
    c->fy[i] -= f * dy;
    c->sum->pe += o.pe;
    c->sum->power += o.power;
    c->sum->clamps += o.clamped;
    if (c->contacts && o.touching)
        ++*c->contacts;
}

/* The gap beyond touching at which the other systems' pair law still acts:
 * what the broad phase must list. */
static double general_reach(const struct sim_params *p)
{
    struct contact_law law;
    contact_law_init(&law, p);
    return law.range > 0 ? law.range : 0;
}

/*
 * The other systems (round table, hard walls, exponential contacts,
 * dashpots, gravity): the pure laws of contact.c over every pair within the
 * law's range, then gravity.c: walls first, then pairs, then gravity, into
 * fx, fy (overwritten). The pairs come from the grid @p g (listed within
 * general_reach), or from the O(n^2) loop when g is NULL; both visit them
 * in the same order, so both give the same bits. Adds the contacts' pe,
 * dashpot power and clamps to *sum, and counts touching pairs into
 * *contacts when it is not NULL. Writes nothing else, so that sim_diag can
 * run it into scratch arrays.
 */
void sim_general_forces(const struct sim *s, const struct grid *g, double *fx, double *fy,
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
            const unsigned sx = contact_walls_of(p->open, 0);
            const unsigned sy = contact_walls_of(p->open, 1);
            for (size_t i = 0; i < n; i++) {
                fx[i] = contact_wall_axis(&law, x[i], vx[i], r[i], m[i], p->w, sx, sum);
                fy[i] = contact_wall_axis(&law, y[i], vy[i], r[i], m[i], p->h, sy, sum);
            }
        } else if (p->shape == SIM_CIRCLE) {
            double R = 0.5 * p->w;
            for (size_t i = 0; i < n; i++)
                contact_wall_circle(&law, x[i], y[i], vx[i], vy[i], r[i], m[i],
                                    R, R, R, &fx[i], &fy[i], sum);
        }
    }
    if (p->contact != SIM_CONTACT_NONE && p->restitution > 0) { /* 0: sticky, no law */
        struct general_ctx c = {s, &law, fx, fy, sum, contacts};
        if (g) {
            /* The listed pairs within the law's range, in the list's
             * order (the O(n^2) loop's, restricted). */
            const struct grid_pairs pl = grid_pairs(g);
            const double reach = grid_stats(g).reach;
            for (size_t i = 0; i < n; i++) {
                const double xi = x[i], yi = y[i], ri = r[i] + (reach > 0 ? reach : 0);
                for (uint32_t e = pl.start[i]; e < pl.start[i + 1]; e++) {
                    size_t j = pl.nbr[e];
                    double dx = x[j] - xi, dy = y[j] - yi;
                    double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
                    if (d < ri + r[j])
                        general_pair(&c, i, j, dx, dy, d);
                }
            }
        } else {
            for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++) {
                    double dx = x[j] - x[i], dy = y[j] - y[i];
                    general_pair(&c, i, j, dx, dy,
                                 sqrt(dx * dx + dy * dy) + SIM_DIST_EPS);
                }
        }
    }
    if (contacts && p->contact != SIM_CONTACT_NONE && p->restitution == 0) {
        /* sticky: no law, yet a pair that overlaps touches (stick_pair's
         * test); it counted 0 (issue 43.11) */
        const struct grid_pairs pl = g ? grid_pairs(g) : (struct grid_pairs){0};
        for (size_t i = 0; i < n; i++) {
            size_t cnt = g ? pl.start[i + 1] - pl.start[i] : n - i - 1;
            for (size_t e = 0; e < cnt; e++) {
                size_t j = g ? pl.nbr[pl.start[i] + e] : i + 1 + e;
                double dx = x[j] - x[i], dy = y[j] - y[i];
                if (sqrt(dx * dx + dy * dy) + SIM_DIST_EPS < r[i] + r[j])
                    ++*contacts;
            }
        }
    }
    /* Barnes-Hut when asked for; it declines (negative masses, no memory)
     * without adding anything, and then the exact sum runs. */
    double theta = p->theta >= 0 ? p->theta : n > SIM_BH_MIN ? SIM_BH_THETA : 0;
    if (!(theta > 0) ||
        gravity_bh_forces(n, x, y, m, p->gravity, p->softening, theta, fx, fy))
        gravity_forces(n, x, y, m, p->gravity, p->softening, fx, fy);
    /* The uniform field last: m g on every ball. */
    if (p->gx != 0 || p->gy != 0)
        for (size_t i = 0; i < n; i++) {
            fx[i] += m[i] * p->gx;
            fy[i] += m[i] * p->gy;
        }
    /* 1-D: contacts, walls and fields act along x only */
    if (p->line)
        for (size_t i = 0; i < n; i++)
            fy[i] = 0;
}

/*
 * Hard walls: the semi-implicit move (with friction after the kick), then
 * every centre that left the region it may occupy (the table shrunk by the
 * ball's radius, unbounded past an open side) is reflected at the crossing
 * point of its path (contact.h).
 */
static uint64_t move_hard(struct sim *s)
{
    const size_t n = s->n;
    /* sticky balls (restitution 0) meet elastic walls */
    const double dt = s->p.dt, e = s->p.restitution > 0 ? s->p.restitution : 1;
    const double R = 0.5 * s->p.w;
    const unsigned op = s->p.open;
    struct contact_friction fr;
    contact_friction_init(&fr, &s->p);
    uint64_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        double px = s->x[i], py = s->y[i], r = s->r[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        if (fr.kind != SIM_FRICTION_NONE)
            s->dissipated += s->m[i] * contact_friction_apply(&fr, &s->vx[i], &s->vy[i]);
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
        double lost = 0;
        if (s->p.shape == SIM_RECT) {
            lost += contact_reflect_axis(&s->x[i], &s->vx[i],
                                         op & SIM_SIDE_LEFT ? -INFINITY : r,
                                         op & SIM_SIDE_RIGHT ? INFINITY : s->p.w - r, e);
            lost += contact_reflect_axis(&s->y[i], &s->vy[i],
                                         op & SIM_SIDE_BOTTOM ? -INFINITY : r,
                                         op & SIM_SIDE_TOP ? INFINITY : s->p.h - r, e);
        } else if (s->p.shape == SIM_CIRCLE) {
            lost = contact_reflect_circle(px, py, &s->x[i], &s->y[i], &s->vx[i],
                                          &s->vy[i], R, R, R - r, e);
        }
        s->dissipated += s->m[i] * lost;
        nf |= nf_ball(s->x[i], s->y[i], s->vx[i], s->vy[i]);
    }
    return nf;
}

/*
 * The plain Hooke forces: walls, then for every row i its pairs j > i, all
 * of them when @p pl is NULL (the O(n^2) loop, the reference every faster
 * broad phase is tested against) or the listed ones, in the same order, so
 * both give the same bits. Force on j is k*s*(dx, dy)/d, on i the opposite,
 * each added to both balls' sums as the pair comes (the fused sweep adds
 * them in this order too, with hooke_term).
 */
static void hooke_forces(struct sim *s, const struct grid_pairs *pl)
{
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
        size_t e0 = pl ? pl->start[i] : i + 1, e1 = pl ? pl->start[i + 1] : n;
        for (size_t e = e0; e < e1; e++) {
            size_t j = pl ? pl->nbr[e] : e;
            double dx = x[j] - xi, dy = y[j] - yi;
            double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
            double ov = ri + r[j] - d;
            if (0 < ov) {
                double f = ov * k / d;
                fx[j] += f * dx;
                fy[j] += f * dy;
                fx[i] -= f * dx;
                fy[i] -= f * dy;
            }
        }
    }
}

void sim_forces_brute(struct sim *s)
{
    s->diss_power = 0;
    s->clamp_now = 0;
    if (!hooke_rect(&s->p)) {
        struct contact_sum sum = {0};
        sim_general_forces(s, NULL, s->fx, s->fy, &sum, NULL);
        s->diss_power = sum.power;
        s->clamp_now = sum.clamps;
        return;
    }
    hooke_forces(s, NULL);
}

const char *sim_strerror(int rc)
{
    switch (rc) {
    case SIM_OK:
        return "no error";
    case SIM_ENOMEM:
        return "out of memory";
    case SIM_ESIZE:
        return "a ball that meets others has no positive finite radius";
    default:
        return "unknown error";
    }
}

/* The gap beyond touching up to which the force path of @p s needs pairs. */
double sim_pair_reach(const struct sim *s)
{
    return hooke_rect(&s->p) ? s->p.reach : general_reach(&s->p);
}

/*
 * The broad phase of @p s for its path's reach, made when missing (and then
 * the masses and radii every ball shares noted in the scratch), or NULL
 * with *rc set (SIM_ENOMEM, SIM_ESIZE) when it cannot be: the caller fails
 * rather than fall back to all pairs. Only when has_grid(s).
 */
static struct grid *grid_for(struct sim *s, int *rc)
{
    const double reach = sim_pair_reach(s);
    *rc = SIM_ENOMEM;
    if (s->grid && grid_stats(s->grid).reach != reach) {
        grid_free(s->grid);
        s->grid = NULL;
    }
    if (!s->scratch && !(s->scratch = calloc(1, sizeof *s->scratch)))
        return NULL;
    if (!s->grid) {
        int err;
        s->grid = grid_new(s->n, s->r, reach, &err);
        if (!s->grid) {
            *rc = err == GRID_ESIZE ? SIM_ESIZE : SIM_ENOMEM;
            return NULL;
        }
        struct sim_scratch *sc = s->scratch;
        sc->same_m = sc->same_r = 1;
        for (size_t i = 1; i < s->n; i++) {
            sc->same_m &= s->m[i] == s->m[0];
            sc->same_r &= s->r[i] == s->r[0];
        }
        int e, ei;
        sc->inv_m = 1 / s->m[0];
        sc->m_pow2 = sc->same_m && s->m[0] > 0 && s->m[0] <= DBL_MAX &&
                     frexp(s->m[0], &e) == 0.5 && frexp(sc->inv_m, &ei) == 0.5 &&
                     sc->inv_m * s->m[0] == 1;
        for (size_t i = 0; i < GRID_BLOCK; i++) {
            sc->m_fill[i] = s->m[0];
            sc->r_fill[i] = s->r[0];
        }
    }
    *rc = SIM_OK;
    return s->grid;
}

/* grid_for, with the list valid for the current positions (a build's
 * search for pairs on the threads lent, when it is many balls'). */
static struct grid *grid_valid(struct sim *s, int *rc)
{
    struct grid *g = grid_for(s, rc);
    if (g) {
        const struct grid_balls b = balls_of(s);
        const struct sim_threads *th = s->threads;
        const int par = th && s->n >= th->min;
        if (grid_update_par(g, &b, par ? th->run : NULL, par ? th->ctx : NULL,
                            par ? th->nthreads : 1)) {
            *rc = SIM_ENOMEM;
            return NULL;
        }
    }
    return g;
}

int sim_forces(struct sim *s)
{
    int rc = SIM_OK;
    struct grid *g = has_grid(s) ? grid_valid(s, &rc) : NULL;
    if (rc)
        return rc;
    s->diss_power = 0;
    s->clamp_now = 0;
    if (!hooke_rect(&s->p)) {
        struct contact_sum sum = {0};
        sim_general_forces(s, g, s->fx, s->fy, &sum, NULL);
        s->diss_power = sum.power;
        s->clamp_now = sum.clamps;
        return SIM_OK;
    }
    /* The O(n^2) loop's sums restricted to the listed pairs, in its order:
     * the same bits. */
    const struct grid_pairs pl = g ? grid_pairs(g) : (struct grid_pairs){0};
    hooke_forces(s, g ? &pl : NULL);
    return SIM_OK;
}

void sim_touch(struct sim *s)
{
    grid_free(s->grid);
    s->grid = NULL;
}

size_t sim_slot(const struct sim *s, size_t ball)
{
    return s->slot[ball];
}

size_t sim_ball(const struct sim *s, size_t slot)
{
    return s->id[slot];
}

/* Moves the n entries of @p v by the order src (new[k] = old[src[k]]). */
static void permute(double *v, const uint32_t *src, double *tmp, size_t n)
{
    for (size_t k = 0; k < n; k++)
        tmp[k] = v[src[k]];
    memcpy(v, tmp, n * sizeof *v);
}

int sim_sort(struct sim *s)
{
    int rc = SIM_OK;
    struct grid *g = has_grid(s) ? grid_for(s, &rc) : NULL;
    if (!g)
        return rc;
    const size_t n = s->n;
    struct sim_scratch *sc = s->scratch;
    /* The buffers stay for the next sort: fresh ones every time would cost
     * their page faults again. */
    if (!sc->tmp)
        sc->tmp = malloc(n * sizeof *sc->tmp);
    if (!sc->src)
        sc->src = malloc(n * sizeof *sc->src);
    if (!sc->ids)
        sc->ids = malloc(n * sizeof *sc->ids);
    const struct grid_balls b = balls_of(s);
    if (!sc->tmp || !sc->src || !sc->ids || grid_order(g, &b, sc->src))
        return SIM_ENOMEM;
    /* Every per-ball array moves (an array of equal values is its own
     * permutation); fx, fy are scratch (see sim.h): left alone, their
     * pages stay untouched in a run that only steps. */
    double *arrays[] = {s->x, s->y, s->vx, s->vy, sc->same_m ? NULL : s->m,
                        sc->same_r ? NULL : s->r};
    for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++)
        if (arrays[a])
            permute(arrays[a], sc->src, sc->tmp, n);
    for (size_t k = 0; k < n; k++)
        sc->ids[k] = s->id[sc->src[k]];
    memcpy(s->id, sc->ids, n * sizeof *s->id);
    for (size_t k = 0; k < n; k++)
        s->slot[s->id[k]] = (uint32_t)k;
    return SIM_OK;
}

/* The semi-implicit move with friction between the kick and the drift:
 * v += dt F/m, v decays by the friction law over dt (contact.h), x += dt v.
 * The energy friction takes out goes to s->dissipated. */
static uint64_t move_friction(struct sim *s)
{
    const size_t n = s->n;
    const double dt = s->p.dt;
    struct contact_friction fr;
    contact_friction_init(&fr, &s->p);
    double lost = 0;
    uint64_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        lost += s->m[i] * contact_friction_apply(&fr, &s->vx[i], &s->vy[i]);
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
        nf |= nf_ball(s->x[i], s->y[i], s->vx[i], s->vy[i]);
    }
    s->dissipated += lost;
    return nf;
}

/* The move of every ball by its force, and s->finite for what it left. */
static void integrate(struct sim *s)
{
    const size_t n = s->n;
    const double dt = s->p.dt;
    uint64_t nf = 0;
    if (s->p.walls == SIM_WALLS_HARD)
        nf = move_hard(s);
    else if (s->p.friction != SIM_FRICTION_NONE)
        nf = move_friction(s);
    else for (size_t i = 0; i < n; i++) {
        double ax = s->fx[i] / s->m[i], ay = s->fy[i] / s->m[i];
        s->vx[i] += dt * ax;
        s->vy[i] += dt * ay;
        s->x[i] += dt * s->vx[i];
        s->y[i] += dt * s->vy[i];
        nf |= nf_ball(s->x[i], s->y[i], s->vx[i], s->vy[i]);
    }
    s->finite = nf_finite(nf);
}

/*
 * Time: t = t_base + (steps - steps_base) * dt, the time at the start of
 * the current dt plus the steps taken since times dt. Adding dt at every
 * step drifted (1000 steps of 0.05 gave 49.999999999999289, so that -T 50
 * ran 1001 steps). The base moves to the current t and step when dt
 * changes, or when t or steps were set from outside (an engine hand-off, a
 * replay).
 */
static void advance_time(struct sim *s)
{
    if (s->p.dt != s->dt_base || s->t != s->t_last || s->steps != s->steps_last) {
        s->t_base = s->t;
        s->steps_base = s->steps;
        s->dt_base = s->p.dt;
    }
    s->steps++;
    s->t = s->t_base + (double)(s->steps - s->steps_base) * s->dt_base;
    s->t_last = s->t;
    s->steps_last = s->steps;
}

double sim_time_after(const struct sim *s, unsigned long long k)
{
    /* advance_time's base moves to now at the next step when dt, t or
     * steps changed since its last step; it stays there afterwards. */
    if (s->p.dt != s->dt_base || s->t != s->t_last || s->steps != s->steps_last)
        return s->t + (double)k * s->p.dt;
    return s->t_base + (double)((unsigned long long)(s->steps - s->steps_base) + k) * s->dt_base;
}

unsigned long long sim_steps_until(const struct sim *s, double T)
{
    if (!(s->t < T))
        return 0;
    const double est = ceil((T - s->t) / s->p.dt);
    if (!(est < 0x1p63))
        return ULLONG_MAX;
    unsigned long long k = est < 1 ? 1 : (unsigned long long)est;
    /* The estimate is off by rounding alone: a few steps either way.
     * Below, time_after(k) >= T ... */
    for (int i = 0; i < 64 && k > 1 && sim_time_after(s, k - 1) >= T; i++)
        k--;
    /* ... and above: k - 1 falls short, k reaches T. */
    for (int i = 0; sim_time_after(s, k) < T; i++) {
        if (i == 64 || k == ULLONG_MAX - 1)
            return ULLONG_MAX;
        k++;
    }
    return k;
}

static void stick(struct sim *s, const struct grid *g);

void sim_step_brute(struct sim *s)
{
    sim_forces_brute(s);
    if (s->p.restitution == 0 && s->p.contact != SIM_CONTACT_NONE)
        stick(s, NULL);
    integrate(s);
    s->dissipated += s->p.dt * s->diss_power;
    s->clamps += s->clamp_now;
    advance_time(s);
}

/* What every step but the brute one does first: the cell order, when it
 * pays, at steps fixed by the state alone (a copy of the state steps to
 * the same bits as the original). */
static int step_begin(struct sim *s)
{
    if (has_grid(s) && s->n >= SIM_SORT_MIN && s->steps % SIM_SORT_EVERY == 0)
        return sim_sort(s);
    return SIM_OK;
}

/*
 * Sticky collisions (restitution 0): no pair law; a pair that overlaps and
 * still approaches along its line of centres n meets perfectly
 * inelastically, an impulse that leaves both with the normal velocity of
 * their centre of mass, v_n = (m_i v_i.n + m_j v_j.n) / (m_i + m_j), the
 * tangential ones kept: momentum kept, mu v_rel.n^2 / 2 dissipated. A pair
 * that no longer approaches is left alone, so that it moves on together
 * until something parts it. Made on the stored velocities, pair by pair
 * in the order of the pair loop (grid and O(n^2) give the same bits),
 * after the step's forces F (which no velocity changes here: a sticky
 * system has no dashpot) and before the kick.
 *
 * What it books is what the observed energy loses (sim.h: the observed
 * velocity is v + (dt/2) F/m): an impulse at fixed positions changes the
 * observed velocities as the stored ones, so the observed kinetic energy
 * changes by sum m (v + h a).dv + m dv^2 / 2, h = dt/2: the stored
 * -mu vn^2 / 2 plus h J (a_i - a_j).n. Against a spring wall (a_j.n < 0
 * on the front ball) that second part was the half of the loss not
 * booked: a pair off a wall lost 0.705 and booked 0.356 (issue 43.11).
 */
static void stick_pair(struct sim *s, size_t i, size_t j)
{
    double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
    double d = sqrt(dx * dx + dy * dy);
    if (!(d + SIM_DIST_EPS < s->r[i] + s->r[j]) || d == 0)
        return;
    double nx = dx / d, ny = dy / d;
    if (s->p.line) { /* 1-D: along x */
        nx = dx < 0 ? -1 : 1;
        ny = 0;
    }
    double vn = (s->vx[j] - s->vx[i]) * nx + (s->vy[j] - s->vy[i]) * ny;
    if (!(vn < 0))
        return;
    double mi = s->m[i], mj = s->m[j], mu = mi * mj / (mi + mj);
    double J = mu * vn; /* on i along n; -J on j */
    s->vx[i] += J / mi * nx;
    s->vy[i] += J / mi * ny;
    s->vx[j] -= J / mj * nx;
    s->vy[j] -= J / mj * ny;
    double an = (s->fx[i] / mi - s->fx[j] / mj) * nx + (s->fy[i] / mi - s->fy[j] / mj) * ny;
    s->dissipated += 0.5 * mu * vn * vn - 0.5 * s->p.dt * J * an;
}

static void stick(struct sim *s, const struct grid *g)
{
    const size_t n = s->n;
    if (g) {
        const struct grid_pairs pl = grid_pairs(g);
        for (size_t i = 0; i < n; i++)
            for (uint32_t e = pl.start[i]; e < pl.start[i + 1]; e++)
                stick_pair(s, i, pl.nbr[e]);
    } else {
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                stick_pair(s, i, j);
    }
}

/* A step of the general path (forces, then the integration), over the
 * grid when has_grid: nothing changed when it fails. */
static int step_general(struct sim *s)
{
    int rc = SIM_OK;
    struct grid *g = has_grid(s) ? grid_valid(s, &rc) : NULL;
    if (rc)
        return rc;
    struct contact_sum sum = {0};
    sim_general_forces(s, g, s->fx, s->fy, &sum, NULL);
    s->diss_power = sum.power;
    s->clamp_now = sum.clamps;
    if (s->p.restitution == 0 && s->p.contact != SIM_CONTACT_NONE)
        stick(s, g);
    integrate(s);
    s->dissipated += s->p.dt * s->diss_power;
    s->clamps += s->clamp_now;
    /* The list stays valid while no ball has moved half the skin: a ball
     * moves at most dt |v| in a step (a hard wall folds the path). */
    if (g) {
        double v2max = 0;
        for (size_t i = 0; i < s->n; i++) {
            double v2 = s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i];
            v2max = v2 > v2max ? v2 : v2max;
        }
        grid_moved(g, s->p.dt * sqrt(v2max));
    }
    advance_time(s);
    return SIM_OK;
}

int sim_step_general(struct sim *s)
{
    int rc = step_begin(s);
    return rc ? rc : step_general(s);
}

int sim_step(struct sim *s)
{
    int rc = step_begin(s);
    if (rc)
        return rc;
    if (!hooke_rect(&s->p))
        return step_general(s);
    struct grid *g = has_grid(s) ? grid_valid(s, &rc) : NULL;
    if (rc)
        return rc;
    if (g) {
        /* two parts at once, when lent the threads and it pays; else, and
         * when memory for the split is short, one sweep: the same bits */
        struct sim_threads *th = s->threads;
        rc = th && s->n >= th->min && s->n > GRID_BLOCK ? sim_sweep_split(s, g, th) : 1;
        if (rc == 1)
            rc = sim_sweep(s, g);
        if (rc)
            return rc;
    } else {
        s->diss_power = 0;
        s->clamp_now = 0;
        hooke_forces(s, NULL);
        integrate(s);
    }
    advance_time(s);
    return SIM_OK;
}

/* === Balls added and removed (the front end's live edits) === */

/* Replaces @p s by a copy of @p n balls with slots in scene order: the old
 * scene balls in order, without scene ball @p removed (SIZE_MAX: none),
 * then zeros up to n. Parameters, time and running totals are kept. */
static int rebuild(struct sim *s, size_t n, size_t removed)
{
    struct sim t;
    if (sim_init(&t, n, &s->p))
        return -1;
    struct sim arrays = t;
    t = *s; /* every scalar: time and its base, totals */
    t.n = n;
    t.x = arrays.x;
    t.y = arrays.y;
    t.vx = arrays.vx;
    t.vy = arrays.vy;
    t.m = arrays.m;
    t.r = arrays.r;
    t.fx = arrays.fx;
    t.fy = arrays.fy;
    t.id = arrays.id;
    t.slot = arrays.slot;
    t.grid = NULL;
    t.scratch = NULL;
    size_t j = 0;
    for (size_t k = 0; k < s->n && j < n; k++) {
        if (k == removed)
            continue;
        size_t i = s->slot[k];
        t.x[j] = s->x[i];
        t.y[j] = s->y[i];
        t.vx[j] = s->vx[i];
        t.vy[j] = s->vy[i];
        t.m[j] = s->m[i];
        t.r[j] = s->r[i];
        t.fx[j] = s->fx[i];
        t.fy[j] = s->fy[i];
        j++;
    }
    sim_free(s);
    *s = t;
    return 0;
}

int sim_add_ball(struct sim *s, double x, double y, double vx, double vy, double m, double r)
{
    if (s->n + 1 >= UINT32_MAX || rebuild(s, s->n + 1, SIZE_MAX))
        return -1;
    size_t i = s->n - 1;
    s->x[i] = x;
    s->y[i] = y;
    s->vx[i] = vx;
    s->vy[i] = vy;
    s->m[i] = m;
    s->r[i] = r;
    return 0;
}

int sim_add_balls(struct sim *s, size_t n)
{
    /* sim_init zeroes the new arrays */
    return n >= UINT32_MAX - s->n || rebuild(s, s->n + n, SIZE_MAX) ? -1 : 0;
}

int sim_remove_ball(struct sim *s, size_t ball)
{
    if (ball >= s->n)
        return -1;
    return rebuild(s, s->n - 1, ball);
}

int sim_assign(struct sim *dst, const struct sim *src)
{
    if (!dst->x || dst->n != src->n) {
        struct sim t; /* its arrays all copied below: not zeroed first */
        if (init_arrays(&t, src->n, &src->p, 0))
            return -1;
        t.threads = dst->threads; /* dst's own (sim.h) */
        sim_free(dst);
        *dst = t;
    }
    sim_copy(dst, src);
    return 0;
}
