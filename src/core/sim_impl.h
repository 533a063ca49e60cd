/*
 * sim_impl.h - the core's insides (private to sim.c, sim_sweep.c and
 * sim_diag.c): the step's own buffers, the finiteness bits, the wall and
 * Hooke terms every path shares, and what the files give each other.
 */
#ifndef SIM_IMPL_H
#define SIM_IMPL_H

#include "sim.h"

#include "contact.h"
#include "grid.h"

#include <stdint.h>
#include <string.h>

/* How many blocks ahead step_grid prefetches the positions that enter its
 * window (0: not at all). Above a few 10^5 balls the arrays stream from
 * memory, and a neighbour in the next strip of cells (see grid_order) is a
 * load the hardware does not see coming; a hint, so no effect on results. */
#ifndef SIM_PREFETCH
#define SIM_PREFETCH 2
#endif

/* The sweep compiled again for wider vectors (AVX2), used when the
 * processor has them (sim_sweep.c): GCC or Clang on
 * x86-64. SIM_WIDE=0 builds the base alone. */
#ifndef SIM_WIDE
#if defined(__GNUC__) && defined(__x86_64__)
#define SIM_WIDE 1
#else
#define SIM_WIDE 0
#endif
#endif

/* Inlined wherever called, also into the wider copies of the sweep
 * (which would otherwise call the base's copy of a helper). */
#if defined(__GNUC__)
#define SIM_ALWAYS_INLINE __attribute__((always_inline))
#else
#define SIM_ALWAYS_INLINE
#endif

/* Pairs per chunk of sim_sweep's test of which listed pairs may
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
 * only its pairs and cells): the force ring of sim_sweep, copies of
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
    /* A step split in parts (see sim_sweep_split), kept from step to step: */
    struct split_buf *parts; /* nparts of them; part 0's ring is ring */
    int nparts;
};

/* A part's own buffers in a split step (see sim_sweep_split). */
struct split_buf {
    double *ring;     /* the part's ring, as sim_scratch's (nring entries);
                         NULL for part 0, which sweeps into sim_scratch's */
    double *held;     /* 2 * nring: the forces of the part's head blocks
                         (the part before it still reads them), fx then fy */
    struct split_term *terms; /* the part's terms on its head */
    size_t capterms;
};

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
static inline SIM_ALWAYS_INLINE uint64_t nf_bits(double v)
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
 * Wall force of a rectangle along one axis: a ball of radius r at
 * coordinate q inside [0, len] is pushed by k*(r - q) off the low wall and
 * by -k*(q + r - len) off the high one. Adds to *pe the spring energy when
 * pe is not NULL.
 */
static inline SIM_ALWAYS_INLINE double wall_force(double q, double r, double len, double k, double *pe)
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
static inline SIM_ALWAYS_INLINE double hooke_term(double s, double k, double d)
{
    uint64_t bits;
    memcpy(&bits, &s, sizeof bits);
    bits &= -(uint64_t)(s > 0);
    memcpy(&s, &bits, sizeof s);
    return s * k / d;
}

/*
 * The one rule for a broad phase, for the forces, the step, the cell order
 * and the diagnostics alike: there are pairs to find (a contact law; point
 * masses have none) among enough balls for the grid to pay (SIM_GRID_MIN).
 * Otherwise the pair loop is O(n^2) only in the balls that can touch, and
 * is the same bits as the grid would give.
 */
static inline int has_grid(const struct sim *s)
{
    return s->n >= SIM_GRID_MIN && s->p.contact != SIM_CONTACT_NONE;
}

/* What the broad phase reads of @p s. */
static inline struct grid_balls balls_of(const struct sim *s)
{
    struct grid_balls b = {s->x, s->y, s->r, s->p.w, s->p.h};
    return b;
}

/// The gap beyond touching up to which the force path of @p s needs pairs.
double sim_pair_reach(const struct sim *s);

/// The scalars of @p src (parameters, time, totals) into @p dst.
void sim_copy_scalars(struct sim *dst, const struct sim *src);

/// The other systems' forces (sim.c, see there) into @p fx, @p fy.
void sim_general_forces(const struct sim *s, const struct grid *g, double *fx, double *fy,
                        struct contact_sum *sum, long *contacts);

/// Frees the split step's buffers of @p sc (sim_sweep.c).
void sim_free_parts(struct sim_scratch *sc);

/// The Hooke rectangle's step over @p g in one sweep (sim_sweep.c).
/// @return SIM_OK, or SIM_ENOMEM (nothing changed).
int sim_sweep(struct sim *s, struct grid *g);

/// sim_sweep in parts on the threads @p th (sim_sweep.c); 1 when it
/// cannot split (nothing changed: sweep in one thread).
int sim_sweep_split(struct sim *s, struct grid *g, struct sim_threads *th);

#endif
