/*
 * sim.c - state, the spring step and its diagnostics.
 */
#include "sim.h"

#include "contact.h"
#include "gravity.h"
#include "grid.h"
#include "mem.h"

#include <float.h>
#include <stdatomic.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SIM_ARRAYS = 8 }; /* x y vx vy m r fx fy */

/* How many blocks ahead step_grid prefetches the positions that enter its
 * window (0: not at all). Above a few 10^5 balls the arrays stream from
 * memory, and a neighbour in the next strip of cells (see grid_order) is a
 * load the hardware does not see coming; a hint, so no effect on results. */
#ifndef SIM_PREFETCH
#define SIM_PREFETCH 2
#endif

/* Pairs per chunk of step_hooke_grid's test of which listed pairs may
 * touch (a buffer on the stack). */
#ifndef SIM_CHUNK
#define SIM_CHUNK 256
#endif

/* The most parts a step is split into (struct sim_threads). */
#ifndef SIM_SPLIT_MAX
#define SIM_SPLIT_MAX 256
#endif

/*
 * The step's own buffers, kept from step to step (the broad phase keeps
 * only its pairs and cells): the force ring of step_hooke_grid, copies of
 * a mass and radius that every ball shares, and the cell order's scratch.
 */
struct sim_scratch {
    double *ring;     /* 2 * nring doubles: slot p's fx in entry p % nring, its
                         fy nring further; all +0 between steps */
    size_t nring;     /* a power of 2 >= the list's window */
    int same_m, same_r; /* every ball has the mass m[0] (radius r[0]): known
                           when the grid is made; masses and radii then stay */
    int m_pow2;       /* same_m, and m[0] a power of 2: F / m is F * inv_m to
                         the bit (both round the same exact quotient) */
    double inv_m;     /* 1 / m[0], exact when m_pow2 */
    double m_fill[GRID_BLOCK], r_fill[GRID_BLOCK]; /* those, repeated */
    double *tmp;      /* n doubles: one array being reordered */
    uint32_t *src;    /* n slots: the cell order */
    uint32_t *ids;    /* n: id being reordered */
    /* A step split in parts (see step_split), kept from step to step: */
    struct split_buf *parts; /* nparts of them; part 0's ring is ring */
    int nparts;
};

/* A part's own buffers in a split step (see step_split). */
struct split_buf {
    double *ring;     /* the part's ring, as sim_scratch's (nring entries);
                         NULL for part 0, which sweeps into sim_scratch's */
    double *held;     /* 2 * nring: the forces of the part's head blocks
                         (the part before it still reads them), fx then fy */
    struct split_term *terms; /* the part's terms on its head */
    size_t capterms;
};

/* Frees the parts' buffers of @p sc (the ring's size changed, or the end). */
static void free_parts(struct sim_scratch *sc)
{
    for (int k = 0; k < sc->nparts; k++) {
        free(sc->parts[k].ring);
        free(sc->parts[k].held);
        free(sc->parts[k].terms);
    }
    free(sc->parts);
    sc->parts = NULL;
    sc->nparts = 0;
}

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
 * @p zero is 0 (a copy overwrites them all: sim_assign). */
static int init_arrays(struct sim *s, size_t n, const struct sim_params *p, int zero)
{
    memset(s, 0, sizeof *s);
    size_t cnt = n ? n : 1;
    if (cnt > (size_t)-1 / (SIM_ARRAYS * sizeof(double)) || cnt >= UINT32_MAX)
        return -1;
    /* the arrays on huge pages where the program asked (see mem.h); zeroed
     * ones as the allocator hands them out (fresh pages are zero already:
     * those a run never writes, fx and fy under the grid's step, are then
     * never handed out, and the others are not written twice) */
    double *block = mem_alloc_as(cnt * SIM_ARRAYS * sizeof(double), zero ? MEM_ZERO : 0);
    uint32_t *id = mem_alloc(2 * cnt * sizeof *id);
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

int sim_init(struct sim *s, size_t n, const struct sim_params *p)
{
    return init_arrays(s, n, p, 1);
}

void sim_free(struct sim *s)
{
    mem_free(s->x); /* the one block */
    mem_free(s->id); /* id and slot */
    grid_free(s->grid);
    if (s->scratch) {
        free(s->scratch->ring);
        free_parts(s->scratch);
        free(s->scratch->tmp);
        free(s->scratch->src);
        free(s->scratch->ids);
        free(s->scratch);
    }
    memset(s, 0, sizeof *s);
}

/* The scalars of sim_copy: parameters, time and its base, totals. */
static void copy_scalars(struct sim *dst, const struct sim *src)
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
    copy_scalars(dst, src);
}

/* sim_hooke_rect, inlined into the step (with the tests of friction, the
 * field and open sides, a call per step cost the 16-ball break 1.4% of its
 * instructions). */
static inline int hooke_rect(const struct sim_params *p)
{
    return p->shape == SIM_RECT && p->walls == SIM_WALLS_SPRING &&
           p->contact == SIM_CONTACT_HOOKE && p->restitution == 1 &&
           p->gravity == 0 && (p->friction | (int)p->open | p->line) == 0 &&
           p->gx == 0 && p->gy == 0;
}

int sim_hooke_rect(const struct sim_params *p)
{
    return hooke_rect(p);
}

/*
 * The step's own finiteness test (s->finite), made as the integration
 * writes each ball: a double is not finite when its exponent's bits are
 * all ones, and then adding one to the exponent carries into the sign
 * bit, which no finite double's does. The movers OR these together (an
 * integer OR, which a compiler vectorises where it would not reorder a
 * sum of doubles); bit 63 of the result is set when any value is not
 * finite. The Hooke sweep tests one sum a ball, x + y + v^2, which is not
 * finite when any of x, y, vx, vy is not (and, rarely, when the sum
 * overflows: so s->finite 0 means "maybe", and sim_finite decides).
 */
#define NF_EXP 0x7ff0000000000000u
#define NF_ONE 0x0010000000000000u
static inline uint64_t nf_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b & NF_EXP) + NF_ONE;
}

static inline uint64_t nf_ball(double x, double y, double vx, double vy)
{
    return nf_bits(x) | nf_bits(y) | nf_bits(vx) | nf_bits(vy);
}

/* Whether nothing ORed into @p acc was not finite. */
static inline int nf_finite(uint64_t acc)
{
    return !(acc >> 63);
}

/*
 * The two force paths. The Hooke rectangle (sim_hooke_rect: rectangle,
 * spring walls on four sides, Hooke contacts, e = 1, no gravity, friction
 * or field) has its own code:
 * hooke_forces, and step_hooke_grid, which fuses the forces with the
 * integration over the grid. Every other system takes the general path,
 * general_forces: the laws of contact.c, then gravity.c. On a scene both
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
static void general_forces(const struct sim *s, const struct grid *g,
                           double *fx, double *fy, struct contact_sum *sum,
                           long *contacts)
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

/*
 * k*s/d when the overlap s > 0, else +0 (also when s is NaN, or -inf for
 * a pair whose distance overflows), without a branch: s's bits ANDed with
 * a mask of the test, so s becomes +0. For s > 0 the bits of k*s/d, so
 * that a sweep over every listed pair gives what the O(n^2) loop, which
 * skips the pairs apart, gives.
 */
static inline double hooke_term(double s, double k, double d)
{
    uint64_t bits;
    memcpy(&bits, &s, sizeof bits);
    bits &= -(uint64_t)(s > 0);
    memcpy(&s, &bits, sizeof s);
    return s * k / d;
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
        general_forces(s, NULL, s->fx, s->fy, &sum, NULL);
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

/*
 * The one rule for a broad phase, for the forces, the step, the cell order
 * and the diagnostics alike: there are pairs to find (a contact law; point
 * masses have none) among enough balls for the grid to pay (SIM_GRID_MIN).
 * Otherwise the pair loop is O(n^2) only in the balls that can touch, and
 * is the same bits as the grid would give.
 */
static int has_grid(const struct sim *s)
{
    return s->n >= SIM_GRID_MIN && s->p.contact != SIM_CONTACT_NONE;
}

/* The gap beyond touching up to which the force path of @p s needs pairs. */
static double pair_reach(const struct sim *s)
{
    return hooke_rect(&s->p) ? s->p.reach : general_reach(&s->p);
}

/* What the broad phase reads of @p s. */
static struct grid_balls balls_of(const struct sim *s)
{
    struct grid_balls b = {s->x, s->y, s->r, s->p.w, s->p.h};
    return b;
}

/*
 * The broad phase of @p s for its path's reach, made when missing (and then
 * the masses and radii every ball shares noted in the scratch), or NULL
 * with *rc set (SIM_ENOMEM, SIM_ESIZE) when it cannot be: the caller fails
 * rather than fall back to all pairs. Only when has_grid(s).
 */
static struct grid *grid_for(struct sim *s, int *rc)
{
    const double reach = pair_reach(s);
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
        general_forces(s, g, s->fx, s->fy, &sum, NULL);
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
        if (s->grid && has_grid(s) && grid_stats(s->grid).reach == pair_reach(s)) {
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
            copy_scalars(obs, s);
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
 * The integration of GRID_BLOCK balls, as in integrate(), their forces
 * from @p fx, @p fy, which it then sets to +0 (the ring's entries are
 * zero when the next slots take them); ORs their finiteness bits
 * (nf_bits) into *nf, and keeps in vm[i] the largest v^2 of the balls
 * i of the blocks so far (a NaN left out, as in a running max). The loop
 * has no branch and a fixed count, so that the compiler vectorises it even
 * at -O2 (the same operations on two balls at once: the same bits; the OR
 * is an integer one, the max one per lane, not a reduction, which a
 * compiler may not reorder). With @p pow2 (always a constant) the masses
 * are all 1 / @p inv, a power of 2, and F * inv is F / m to the bit.
 */
static inline void move_block(double *restrict x, double *restrict y,
                              double *restrict vx, double *restrict vy,
                              double *restrict fx, double *restrict fy,
                              const double *restrict m, int pow2, double inv,
                              double dt, uint64_t *nf, double *restrict vm)
{
    uint64_t bad = 0;
    for (size_t i = 0; i < GRID_BLOCK; i++) {
        double ax = pow2 ? fx[i] * inv : fx[i] / m[i];
        double ay = pow2 ? fy[i] * inv : fy[i] / m[i];
        fx[i] = 0;
        fy[i] = 0;
        double u = vx[i] + dt * ax, v = vy[i] + dt * ay;
        double p = x[i] + dt * u, q = y[i] + dt * v;
        vx[i] = u;
        vy[i] = v;
        x[i] = p;
        y[i] = q;
        double v2 = u * u + v * v;
        vm[i] = v2 > vm[i] ? v2 : vm[i];
        bad |= nf_bits((p + q) + v2);
    }
    *nf |= bad;
}

/*
 * The sweep's first pass over the listed pairs c0 .. c1 (see
 * step_hooke_grid): writes to near[] those that may touch, in their order,
 * and returns how many. A pair farther apart than r_i + r_j (with room for
 * the rounding of the square) is left out; one whose square is not finite
 * stays. @p rmask is 0 when every ball has radius r[0] (then r_i + r_j and
 * its square are the same two numbers for every pair, computed once: the
 * same bits), else SIZE_MAX. Always inlined with a constant rmask, so that
 * each case is its own loop.
 */
static inline size_t near_pairs(const double *restrict x, const double *restrict y,
                                const double *restrict r, size_t rmask,
                                const uint32_t *restrict pi, const uint32_t *restrict nbr,
                                uint32_t c0, uint32_t c1, uint32_t *restrict near)
{
    size_t nn = 0;
    const double same = r[0] + r[0], same2 = same * same * (1 + 0x1p-48);
    if (!rmask && same2 <= DBL_MAX) {
        /* The same test on the bits: a square is +0 or more, or NaN (of
         * either sign), and the doubles from +0 to +inf order as their
         * bits do, so lim2 <= d2 <= DBL_MAX is one unsigned compare. */
        uint64_t lo, hi;
        const double most = DBL_MAX;
        memcpy(&lo, &same2, sizeof lo);
        memcpy(&hi, &most, sizeof hi);
        const uint64_t span = hi - lo;
        for (uint32_t e = c0; e < c1; e++) {
            const uint32_t i = pi[e], j = nbr[e];
            double dx = x[j] - x[i], dy = y[j] - y[i];
            double d2 = dx * dx + dy * dy;
            uint64_t u;
            memcpy(&u, &d2, sizeof u);
            near[nn] = e;
            nn += u - lo > span;
        }
        return nn;
    }
    for (uint32_t e = c0; e < c1; e++) {
        const uint32_t i = pi[e], j = nbr[e];
        double dx = x[j] - x[i], dy = y[j] - y[i];
        double d2 = dx * dx + dy * dy, lim2 = same2;
        if (rmask) {
            double lim = r[i & rmask] + r[j & rmask];
            lim2 = lim * lim * (1 + 0x1p-48);
        }
        near[nn] = e;
        nn += !((d2 >= lim2) & (d2 <= DBL_MAX));
    }
    return nn;
}

/*
 * The sweep's second pass over a chunk: the forces of the @p nn listed
 * pairs near[] that may touch, each added to both balls' sums in the
 * ring (slot p's in rfx[p & mask], rfy[p & mask]) in the list's order.
 * With @p mixed 0 every radius is r[0] and r_i + r_j is @p same for every
 * pair (the same bits). Always inlined with a constant @p mixed.
 */
static inline void contact_sums(const double *restrict x, const double *restrict y,
                                const double *restrict r, int mixed, double same,
                                double k, const uint32_t *restrict pi,
                                const uint32_t *restrict nbr, const uint32_t *restrict near,
                                size_t nn, double *restrict rfx, double *restrict rfy,
                                size_t mask)
{
    for (size_t q = 0; q < nn; q++) {
        const uint32_t e = near[q], i = pi[e], j = nbr[e];
        double dx = x[j] - x[i], dy = y[j] - y[i];
        double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
        double ov = (mixed ? r[i] + r[j] : same) - d;
        double f = hooke_term(ov, k, d);
        const size_t a = i & mask, b = j & mask;
        rfx[b] += f * dx;
        rfy[b] += f * dy;
        rfx[a] -= f * dx;
        rfy[a] -= f * dy;
    }
}

/* What every sweep of the Hooke step reads: the list, the state, the
 * constants and the ring's mask (step_hooke_grid, and the parts of a step
 * split in two, step_split). */
struct sweep {
    struct grid_pairs pl;
    const struct sim_scratch *sc;
    double *x, *y, *vx, *vy;
    const double *r;  /* the radii, or r_fill when all are equal */
    const double *m;
    size_t n, nblock;
    size_t mask;      /* the ring's entries less one */
    size_t rmask;     /* GRID_BLOCK - 1 for r_fill, else SIZE_MAX */
    double k, dt, w, h;
    double same;      /* r_i + r_j when the radii are equal */
};

/* What the moves of a sweep found: the finiteness bits (nf_bits) of the
 * balls moved and their largest v^2, NaN left out: the largest of all is
 * the largest of the parts', in any order (the values are +0 or more), so
 * the same bits however the blocks were shared out. */
struct swept {
    uint64_t nf;
    double v2max;
};

/* The largest of @p v2max and the lanes @p vm (see move_block). */
static inline double lanes_max(const double *vm, double v2max)
{
    for (size_t i = 0; i < GRID_BLOCK; i++)
        v2max = vm[i] > v2max ? vm[i] : v2max;
    return v2max;
}

/* The sweep of @p s over @p g: the ring grown to hold the list's window
 * (a power of 2, a multiple of GRID_BLOCK, so that slot p keeps its
 * force in entry p % ring while its block's window is open). Fails
 * (SIM_ENOMEM, nothing changed) only when the ring cannot grow. */
static int sweep_init(struct sim *s, struct grid *g, struct sweep *sw)
{
    sw->pl = grid_pairs(g);
    struct sim_scratch *sc = s->scratch;
    size_t ring = GRID_BLOCK;
    while (ring < sw->pl.window)
        ring *= 2;
    if (ring > sc->nring) {
        double *nr = calloc(2 * ring, sizeof *nr); /* +0: see step_hooke_grid */
        if (!nr)
            return SIM_ENOMEM;
        free(sc->ring);
        sc->ring = nr;
        sc->nring = ring;
        /* the split's buffers are the ring's size: made again */
        free_parts(sc);
    }
    sw->sc = sc;
    sw->x = s->x;
    sw->y = s->y;
    sw->vx = s->vx;
    sw->vy = s->vy;
    /* Equal masses or radii come from a block of copies (the same values,
     * so the same bits), and their arrays need not stream from memory. */
    sw->r = sc->same_r ? sc->r_fill : s->r;
    sw->rmask = sc->same_r ? GRID_BLOCK - 1 : SIZE_MAX;
    sw->same = sw->r[0] + sw->r[0];
    sw->m = s->m;
    sw->n = s->n;
    sw->nblock = (s->n + GRID_BLOCK - 1) / GRID_BLOCK;
    sw->mask = sc->nring - 1;
    sw->k = s->p.k;
    sw->dt = s->p.dt;
    sw->w = s->p.w;
    sw->h = s->p.h;
    return SIM_OK;
}

/* The move of the balls i0 .. i1 - 1 (a block, full or the last) of
 * @p x, @p y, @p vx, @p vy (the caller's pointers to sw's) by the forces
 * @p bfx, @p bfy (their entries from 0), which it sets to +0; what it
 * found into *nf, *v2max and vm as struct swept's. */
static inline void sweep_move(const struct sweep *sw, double *restrict x, double *restrict y,
                              double *restrict vx, double *restrict vy, size_t i0, size_t i1,
                              double *restrict bfx, double *restrict bfy, uint64_t *nf,
                              double *v2maxp, double *restrict vm)
{
    const struct sim_scratch *sc = sw->sc;
    const double *restrict m = sw->m;
    const double dt = sw->dt;
    if (i1 - i0 == GRID_BLOCK && sc->m_pow2) {
        move_block(x + i0, y + i0, vx + i0, vy + i0, bfx, bfy,
                   sc->m_fill, 1, sc->inv_m, dt, nf, vm);
    } else if (i1 - i0 == GRID_BLOCK) {
        move_block(x + i0, y + i0, vx + i0, vy + i0, bfx, bfy,
                   sc->same_m ? sc->m_fill : m + i0, 0, 1, dt, nf, vm);
    } else {
        double v2max = *v2maxp;
        uint64_t bad = 0;
        for (size_t i = i0; i < i1; i++) {
            double ax = bfx[i - i0] / m[i], ay = bfy[i - i0] / m[i];
            bfx[i - i0] = 0;
            bfy[i - i0] = 0;
            vx[i] += dt * ax;
            vy[i] += dt * ay;
            x[i] += dt * vx[i];
            y[i] += dt * vy[i];
            double v2 = vx[i] * vx[i] + vy[i] * vy[i];
            v2max = v2 > v2max ? v2 : v2max;
            bad |= nf_bits((x[i] + y[i]) + v2);
        }
        *v2maxp = v2max;
        *nf |= bad;
    }
}

/*
 * The sweep of the blocks b0 .. b1 - 1 into the ring @p ring (fx in its
 * first half, fy in its second), each block's balls moved once its rows
 * are done; @p wi is the first wall ball of the first block's window
 * (pl.wall[wi] >= block_end[b0 - 1]). What the moves found goes to *out.
 */
static inline void sweep_blocks(const struct sweep *sw, double *ring, size_t b0, size_t b1,
                                size_t wi, struct swept *out)
{
    const struct grid_pairs pl = sw->pl;
    const struct sim_scratch *sc = sw->sc;
    const size_t n = sw->n, mask = sw->mask, rmask = sw->rmask;
    const double k = sw->k, w = sw->w, h = sw->h, same = sw->same;
    double *restrict x = sw->x, *restrict y = sw->y;
    double *restrict vx = sw->vx, *restrict vy = sw->vy;
    const double *restrict r = sw->r;
    /* The forces of the open window live in a ring that stays in cache:
     * slot p in entry p & mask, fx in one half, fy in the other (so that
     * the integration reads each as a vector). An entry is +0 when its
     * slot enters the window: the ring starts zero, and each block's
     * move sets its entries back to +0. */
    double *restrict rfx = ring, *restrict rfy = ring + mask + 1;
#define FX(p) rfx[(p) & mask]
#define FY(p) rfy[(p) & mask]
    const uint32_t *restrict start = pl.start, *restrict nbr = pl.nbr;
    const uint32_t *restrict pi = pl.pi;
    uint64_t nf = 0;
    double v2max = 0, vm[GRID_BLOCK] = {0};
    for (size_t b = b0; b < b1; b++) {
        const size_t i0 = b * GRID_BLOCK;
        const size_t i1 = n - i0 < GRID_BLOCK ? n : i0 + GRID_BLOCK;
        const size_t need = pl.block_end[b];
#if SIM_PREFETCH > 0 && defined(__GNUC__)
        /* The positions that enter the window SIM_PREFETCH blocks ahead:
         * the far neighbours, in the next strip of cells. */
        if (b + SIM_PREFETCH + 1 < sw->nblock) {
            for (size_t p = pl.block_end[b + SIM_PREFETCH] & ~(size_t)7;
                 p < pl.block_end[b + SIM_PREFETCH + 1]; p += 8) {
                __builtin_prefetch(x + p);
                __builtin_prefetch(y + p);
            }
        }
#endif
        for (; wi < pl.nwall && pl.wall[wi] < need; wi++) {
            size_t p = pl.wall[wi];
            FX(p) = wall_force(x[p], r[p & rmask], w, k, NULL);
            FY(p) = wall_force(y[p], r[p & rmask], h, k, NULL);
        }
        /* The block's pairs in one flat loop, whose count is known here.
         * A loop per row (0, 1 or 2 pairs, at random) mispredicts its end
         * for nearly every ball, and each miss waits for the loads of the
         * next row's bounds and neighbours: once the state no longer fits
         * in the second-level cache that doubled the cost of a step. */
        const uint32_t e1 = start[i1];
        for (uint32_t c0 = start[i0]; c0 < e1; c0 += SIM_CHUNK) {
            /* First the pairs that may touch, in their order: a listed
             * pair farther apart than r_i + r_j (with room for the
             * rounding of the square) adds +0 or -0 to sums that are
             * never -0, which changes no bit, so it is left out before
             * the root and the division. A pair whose square is not
             * finite stays (0 times infinity is NaN, as in the loop over
             * every pair). The test has no branch: the list's skin makes
             * most pairs apart, at random. */
            const uint32_t c1 = e1 - c0 < SIM_CHUNK ? e1 : c0 + SIM_CHUNK;
            uint32_t near[SIM_CHUNK];
            const size_t nn = sc->same_r ? near_pairs(x, y, r, 0, pi, nbr, c0, c1, near)
                                         : near_pairs(x, y, r, SIZE_MAX, pi, nbr, c0, c1, near);
            if (sc->same_r)
                contact_sums(x, y, r, 0, same, k, pi, nbr, near, nn, rfx, rfy, mask);
            else
                contact_sums(x, y, r, 1, same, k, pi, nbr, near, nn, rfx, rfy, mask);
        }
        /* The block's entries are contiguous: ring is a multiple of it. */
        const size_t o = i0 & mask;
        sweep_move(sw, x, y, vx, vy, i0, i1, rfx + o, rfy + o, &nf, &v2max, vm);
    }
    out->nf = nf;
    out->v2max = lanes_max(vm, v2max);
#undef FX
#undef FY
}

/*
 * The Hooke rectangle's step over the neighbour list in one sweep, a block of
 * GRID_BLOCK slots at a time. Row i holds only slots j > i, so once the
 * rows of a block are done no later row touches its balls: their forces
 * are final and they can move at once, while their data is in cache. A
 * block's rows are one flat run of pairs (grid_pairs.pi names the row of
 * each), taken in one loop. The forces of the slots a block's rows reach
 * start at 0, or at the wall force for the few balls the grid lists as
 * near a wall (for the others wall_force gives +0 too). Each force gets the same terms in the same
 * order as in sim_forces_brute followed by the integration, so the result
 * is the same to the bit. A pair apart adds f = 0 (no branch to
 * mispredict): x + 0 = x. Fails (SIM_ENOMEM, nothing changed) only when
 * the ring cannot grow.
 */
static int step_hooke_grid(struct sim *s, struct grid *g)
{
    struct sweep sw;
    if (sweep_init(s, g, &sw))
        return SIM_ENOMEM;
    struct swept out;
    sweep_blocks(&sw, s->scratch->ring, 0, sw.nblock, 0, &out);
    s->finite = nf_finite(out.nf);
    grid_moved(g, sw.dt * sqrt(out.v2max));
    return SIM_OK;
}

/*
 * The step split in parts that may run at once (struct sim_threads), to
 * the same bits as step_hooke_grid. The blocks are cut into np runs in
 * their order, part k's the blocks [b0, b1). Part k's rows reach slots up
 * to block_end[b1 - 1]: part k + 1's head, the slots [b1 * GRID_BLOCK,
 * block_end[b1 - 1]) that both read. In one thread, a head ball's force is
 * its wall force, then the part before's terms in their order, then its
 * own part's. So:
 *
 * - part k sweeps the blocks past its head as one thread does, into its
 *   own ring: the next part's head's wall forces and its own terms on that
 *   head too, and moves those blocks (nobody reads them after);
 * - part k's head blocks (those that hold its head) it sweeps into its
 *   ring too, but writes each term on a head ball, and whether it is added
 *   or subtracted, to its list in order instead of adding it, and moves
 *   none of them (the part before reads their positions): it keeps their
 *   other balls' forces aside (held);
 * - then, when both part k - 1 and part k are done, whichever ended last
 *   joins part k's head: its sums from part k - 1's ring plus part k's
 *   list in order, so every sum has the same terms in the same order as
 *   in one thread, each added or subtracted as there (a - b and a + -b
 *   differ in a NaN's sign), and part k's head blocks move. The two
 *   count on one counter a head: no lock, and no part waits for another.
 *
 * A part's head lies within it (the cut is made so: block_end[b0 - 1] <=
 * b1 * GRID_BLOCK), so part k - 1's rows are the only other rows that
 * reach it. The finiteness bits are ORed and the largest v^2 the largest
 * of the parts' and the joins': the same bits too.
 */
struct split_term {
    uint32_t p;    /* a head slot */
    uint32_t sub;  /* 1: subtracted from its sums (the pair's first ball),
                      as one thread does: a - b, not a + -b, which differ
                      in a NaN's sign bit */
    double fx, fy; /* the pair's term f * dx, f * dy */
};

/* One part of a split step. */
struct split_part {
    size_t b0, b1;   /* the part's blocks */
    size_t head;     /* the head is the slots [b0 * GRID_BLOCK, head) */
    size_t hblock;   /* the blocks [b0, hblock) hold the head */
    size_t wi;       /* the first wall ball from head on */
    double *ring;
    double *heldx, *heldy; /* the forces of the head's blocks, from slot
                              b0 * GRID_BLOCK */
    struct split_term *terms;
    size_t nterms;
    struct swept out, joined; /* the sweep's, the head's join's */
    atomic_int ends; /* part k - 1's and part k's ends: the second joins */
};

struct split_job {
    struct sweep sw;
    int np;
    struct split_part *pt;
};

/* Part k's head blocks (see step_split): their terms on the head listed,
 * their other balls' forces held, nothing moved. @return the first wall
 * ball past them. */
static size_t split_head(struct split_job *jb, struct split_part *pt)
{
    const struct sweep *sw = &jb->sw;
    const struct grid_pairs pl = sw->pl;
    const struct sim_scratch *sc = sw->sc;
    const size_t n = sw->n, mask = sw->mask, rmask = sw->rmask;
    const double k = sw->k, same = sw->same;
    const double *restrict x = sw->x, *restrict y = sw->y;
    const double *restrict r = sw->r;
    double *restrict rfx = pt->ring, *restrict rfy = pt->ring + mask + 1;
    const uint32_t *restrict pi = pl.pi, *restrict nbr = pl.nbr;
    struct split_term *restrict terms = pt->terms;
    const size_t base = pt->b0 * GRID_BLOCK, head = pt->head;
    size_t wi = pt->wi, nt = 0;
    for (size_t b = pt->b0; b < pt->hblock; b++) {
        const size_t i0 = b * GRID_BLOCK;
        const size_t i1 = n - i0 < GRID_BLOCK ? n : i0 + GRID_BLOCK;
        /* the wall balls past the head (the part before set the head's) */
        for (; wi < pl.nwall && pl.wall[wi] < pl.block_end[b]; wi++) {
            size_t p = pl.wall[wi];
            rfx[p & mask] = wall_force(x[p], r[p & rmask], sw->w, k, NULL);
            rfy[p & mask] = wall_force(y[p], r[p & rmask], sw->h, k, NULL);
        }
        const uint32_t e1 = pl.start[i1];
        for (uint32_t c0 = pl.start[i0]; c0 < e1; c0 += SIM_CHUNK) {
            const uint32_t c1 = e1 - c0 < SIM_CHUNK ? e1 : c0 + SIM_CHUNK;
            uint32_t near[SIM_CHUNK];
            const size_t nn = sc->same_r ? near_pairs(x, y, r, 0, pi, nbr, c0, c1, near)
                                         : near_pairs(x, y, r, SIZE_MAX, pi, nbr, c0, c1, near);
            /* contact_sums, each term on a head ball listed instead */
            for (size_t q = 0; q < nn; q++) {
                const uint32_t e = near[q], i = pi[e], j = nbr[e];
                double dx = x[j] - x[i], dy = y[j] - y[i];
                double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
                double ov = (sc->same_r ? same : r[i] + r[j]) - d;
                double f = hooke_term(ov, k, d);
                double tx = f * dx, ty = f * dy;
                if (j < head) {
                    terms[nt++] = (struct split_term){j, 0, tx, ty};
                } else {
                    rfx[j & mask] += tx;
                    rfy[j & mask] += ty;
                }
                if (i < head) {
                    terms[nt++] = (struct split_term){i, 1, tx, ty};
                } else {
                    rfx[i & mask] -= tx;
                    rfy[i & mask] -= ty;
                }
            }
        }
        /* The block's balls past the head are done: their forces held
         * (the ring's entries go on to later slots). */
        for (size_t p = i0 > head ? i0 : head; p < i1; p++) {
            pt->heldx[p - base] = rfx[p & mask];
            pt->heldy[p - base] = rfy[p & mask];
            rfx[p & mask] = 0;
            rfy[p & mask] = 0;
        }
    }
    pt->nterms = nt;
    return wi;
}

/* Part k's head joined (see step_split), parts k - 1 and k done: the
 * head's sums from part k - 1's ring then part k's terms in order, and
 * the head's blocks moved. */
static void split_join(const struct split_job *jb, struct split_part *pt,
                       double *prev_ring)
{
    const struct sweep *sw = &jb->sw;
    const size_t mask = sw->mask, base = pt->b0 * GRID_BLOCK;
    double *restrict rfx = prev_ring, *restrict rfy = prev_ring + mask + 1;
    double *restrict hx = pt->heldx, *restrict hy = pt->heldy;
    for (size_t p = base; p < pt->head; p++) {
        hx[p - base] = rfx[p & mask];
        hy[p - base] = rfy[p & mask];
        rfx[p & mask] = 0;
        rfy[p & mask] = 0;
    }
    for (size_t t = 0; t < pt->nterms; t++) {
        const struct split_term *tm = &pt->terms[t];
        if (tm->sub) {
            hx[tm->p - base] -= tm->fx;
            hy[tm->p - base] -= tm->fy;
        } else {
            hx[tm->p - base] += tm->fx;
            hy[tm->p - base] += tm->fy;
        }
    }
    uint64_t nf = 0;
    double v2max = 0, vm[GRID_BLOCK] = {0};
    for (size_t b = pt->b0; b < pt->hblock; b++) {
        const size_t i0 = b * GRID_BLOCK;
        const size_t i1 = sw->n - i0 < GRID_BLOCK ? sw->n : i0 + GRID_BLOCK;
        sweep_move(sw, sw->x, sw->y, sw->vx, sw->vy, i0, i1, hx + (i0 - base),
                   hy + (i0 - base), &nf, &v2max, vm);
    }
    pt->joined.nf = nf;
    pt->joined.v2max = lanes_max(vm, v2max);
}

/* Part k of a split step: its head's blocks, the rest as in one thread;
 * then the joins whose second end this is (its own head's, the next
 * part's). */
static void split_part(void *arg, int k)
{
    struct split_job *jb = arg;
    struct split_part *pt = &jb->pt[k];
    size_t wi = 0, from = 0;
    if (k > 0) {
        wi = split_head(jb, pt);
        from = pt->hblock;
    }
    sweep_blocks(&jb->sw, pt->ring, from, pt->b1, wi, &pt->out);
    if (k > 0 && atomic_fetch_add(&pt->ends, 1) == 1)
        split_join(jb, pt, jb->pt[k - 1].ring);
    if (k + 1 < jb->np && atomic_fetch_add(&jb->pt[k + 1].ends, 1) == 1)
        split_join(jb, &jb->pt[k + 1], pt->ring);
}

/* The cuts of the sweep's blocks into @p np parts, where a pair's share
 * and a ball's move, about alike, add up to k / np of the whole: the first
 * block of part k in pt[k].b0 (its last past it in pt[k].b1). @return 0,
 * or -1 when a part would be empty or its head not within it. */
static int split_cut(const struct sweep *sw, struct split_part *pt, int np)
{
    const uint32_t *start = sw->pl.start;
    const size_t n = sw->n, nblock = sw->nblock, whole = (size_t)start[n] + n;
    pt[0].b0 = 0;
    for (int k = 1; k < np; k++) {
        /* the first block b whose cost from 0 is >= whole * k / np */
        const size_t want = (size_t)((double)whole * k / np);
        size_t lo = pt[k - 1].b0 + 1, hi = nblock - 1;
        if (lo > hi)
            return -1;
        while (lo < hi) {
            size_t b = lo + (hi - lo) / 2, i0 = b * GRID_BLOCK;
            if ((size_t)start[i0] + i0 < want)
                lo = b + 1;
            else
                hi = b;
        }
        pt[k].b0 = lo;
        pt[k - 1].b1 = lo;
    }
    pt[np - 1].b1 = nblock;
    for (int k = 1; k < np; k++) {
        if (pt[k].b0 >= pt[k].b1)
            return -1;
        pt[k].head = sw->pl.block_end[pt[k].b0 - 1];
        pt[k].hblock = (pt[k].head + GRID_BLOCK - 1) / GRID_BLOCK;
        if (pt[k].hblock > pt[k].b1)
            return -1;
    }
    return 0;
}

/* The buffers of @p np parts in @p sc for rings of @p nring entries.
 * @return 0, or -1 when memory is short. */
static int split_bufs(struct sim_scratch *sc, int np, size_t nring)
{
    if (sc->nparts < np) {
        struct split_buf *b = realloc(sc->parts, (size_t)np * sizeof *b);
        if (!b)
            return -1;
        for (int k = sc->nparts; k < np; k++)
            b[k] = (struct split_buf){0};
        sc->parts = b;
        sc->nparts = np;
    }
    for (int k = 0; k < np; k++) {
        struct split_buf *b = &sc->parts[k];
        if (k > 0 && !b->ring && !(b->ring = calloc(2 * nring, sizeof *b->ring)))
            return -1;
        if (k > 0 && !b->held && !(b->held = malloc(2 * nring * sizeof *b->held)))
            return -1;
    }
    return 0;
}

/* step_hooke_grid in parts run by @p th (see above); 1 when it cannot
 * split (too few blocks, or no memory for its buffers: nothing changed,
 * step in one thread). */
static int step_split(struct sim *s, struct grid *g, struct sim_threads *th)
{
    struct split_job jb;
    if (sweep_init(s, g, &jb.sw))
        return SIM_ENOMEM;
    struct sim_scratch *sc = s->scratch;
    const struct sweep *sw = &jb.sw;
    const size_t nring = sw->mask + 1;
    struct split_part pt[SIM_SPLIT_MAX];
    /* as many parts as threads, fewer when the parts would be too small
     * for their heads */
    int np = th->nthreads < SIM_SPLIT_MAX ? th->nthreads : SIM_SPLIT_MAX;
    if ((size_t)np > sw->nblock)
        np = (int)sw->nblock;
    while (np >= 2 && split_cut(sw, pt, np))
        np--;
    if (np < 2 || split_bufs(sc, np, nring))
        return 1;
    for (int k = 0; k < np; k++) {
        struct split_part *p = &pt[k];
        struct split_buf *b = &sc->parts[k];
        p->ring = k ? b->ring : sc->ring;
        p->nterms = 0;
        atomic_init(&p->ends, 0);
        if (k == 0)
            continue;
        p->heldx = b->held;
        p->heldy = b->held + nring;
        /* at most two terms a pair of the head's blocks */
        const size_t base = p->b0 * GRID_BLOCK;
        const size_t hend = p->hblock * GRID_BLOCK < sw->n ? p->hblock * GRID_BLOCK : sw->n;
        const size_t nt = 2 * (size_t)(sw->pl.start[hend] - sw->pl.start[base]);
        if (nt > b->capterms) {
            struct split_term *t = malloc((nt + nt / 2) * sizeof *t);
            if (!t)
                return 1;
            free(b->terms);
            b->terms = t;
            b->capterms = nt + nt / 2;
        }
        p->terms = b->terms;
        size_t lo = 0, hi = sw->pl.nwall; /* the first wall ball >= head */
        while (lo < hi) {
            size_t mi = lo + (hi - lo) / 2;
            if (sw->pl.wall[mi] < p->head)
                lo = mi + 1;
            else
                hi = mi;
        }
        p->wi = lo;
    }
    jb.np = np;
    jb.pt = pt;
    th->run(th->ctx, np, split_part, &jb);
    th->split_steps++;
    th->most = np > th->most ? np : th->most;
    /* All done and joined: what the moves found, in any order. */
    uint64_t nf = 0;
    double v2max = 0;
    for (int k = 0; k < np; k++) {
        nf |= pt[k].out.nf;
        v2max = pt[k].out.v2max > v2max ? pt[k].out.v2max : v2max;
        if (k > 0) {
            nf |= pt[k].joined.nf;
            v2max = pt[k].joined.v2max > v2max ? pt[k].joined.v2max : v2max;
        }
    }
    s->finite = nf_finite(nf);
    grid_moved(g, sw->dt * sqrt(v2max));
    return SIM_OK;
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
    if (s->p.restitution == 0 && s->p.contact != SIM_CONTACT_NONE)
        stick(s, NULL);
    sim_forces_brute(s);
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
 * until something parts it. Made on the stored velocities before the
 * step's forces, pair by pair in the order of the pair loop (grid and
 * O(n^2) give the same bits).
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
    s->dissipated += 0.5 * mu * vn * vn;
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
    if (s->p.restitution == 0 && s->p.contact != SIM_CONTACT_NONE)
        stick(s, g);
    struct contact_sum sum = {0};
    general_forces(s, g, s->fx, s->fy, &sum, NULL);
    s->diss_power = sum.power;
    s->clamp_now = sum.clamps;
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
        rc = th && s->n >= th->min && s->n > GRID_BLOCK ? step_split(s, g, th) : 1;
        if (rc == 1)
            rc = step_hooke_grid(s, g);
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
    const double reach = pair_reach(s);
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

/* Diagnostics of the general path: the same sweep as general_forces, into
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
        general_forces(s, g, f, f + (n ? n : 1), &sum, &d->contacts);
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
