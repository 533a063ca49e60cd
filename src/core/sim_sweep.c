/*
 * sim_sweep.c - the Hooke rectangle's step over the neighbour list: the
 * forces fused with the integration in one sweep of the cell order, and
 * that sweep split in parts on the threads a caller lends, to the same
 * bits (see sim.h, struct sim_threads).
 */
#include "sim_impl.h"

#include "mem.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Frees the parts' buffers of @p sc (the ring's size changed, or the end). */
void sim_free_parts(struct sim_scratch *sc)
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
static inline SIM_ALWAYS_INLINE void move_block(double *restrict x, double *restrict y,
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
 * sim_sweep): writes to near[] those that may touch, in their order,
 * and returns how many. A pair farther apart than r_i + r_j (with room for
 * the rounding of the square) is left out; one whose square is not finite
 * stays. @p rmask is 0 when every ball has radius r[0] (then r_i + r_j and
 * its square are the same two numbers for every pair, computed once: the
 * same bits), else SIZE_MAX. Always inlined with a constant rmask, so that
 * each case is its own loop.
 */
static inline SIM_ALWAYS_INLINE size_t near_pairs(const double *restrict x, const double *restrict y,
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
static inline SIM_ALWAYS_INLINE void contact_sums(const double *restrict x, const double *restrict y,
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
 * constants and the ring's mask (sim_sweep, and the parts of a step
 * split in parts, sim_sweep_split). */
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
static inline SIM_ALWAYS_INLINE double lanes_max(const double *vm, double v2max)
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
        double *nr = calloc(2 * ring, sizeof *nr); /* +0: see sim_sweep */
        if (!nr)
            return SIM_ENOMEM;
        free(sc->ring);
        sc->ring = nr;
        sc->nring = ring;
        /* the split's buffers are the ring's size: made again */
        sim_free_parts(sc);
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
static inline SIM_ALWAYS_INLINE void sweep_move(const struct sweep *sw, double *restrict x, double *restrict y,
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
static inline SIM_ALWAYS_INLINE void
sweep_body(const struct sweep *sw, double *ring, size_t b0, size_t b1, size_t wi,
           struct swept *out)
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
 * sweep_body compiled for the vector widths this processor has: the
 * integration of a block (move_block) is one loop the compiler
 * vectorises, two balls a vector with SSE2, four with AVX2 (AVX-512's
 * eight measured no faster: 3.23-3.37 ns a ball-step at 10^6 against
 * AVX2's 3.21-3.28). Every lane does the same IEEE operations as one ball alone
 * (no contraction into fused multiply-adds: -ffp-contract=off), and the
 * OR and the largest v^2 are the same in any order, so the bits are the
 * same at every width (test_sweep_widths steps a scene at each).
 */
static void sweep_base(const struct sweep *sw, double *ring, size_t b0, size_t b1, size_t wi,
                       struct swept *out)
{
    sweep_body(sw, ring, b0, b1, wi, out);
}

#if SIM_WIDE
__attribute__((target("avx2"))) static void
sweep_avx2(const struct sweep *sw, double *ring, size_t b0, size_t b1, size_t wi,
           struct swept *out)
{
    sweep_body(sw, ring, b0, b1, wi, out);
}
#endif

/* The widest vectors to use (sim_set_width): 0 the build's, 1 AVX2; set
 * before any step, read by every thread. */
static int width_cap = 1;

int sim_set_width(int cap)
{
    width_cap = cap;
#if SIM_WIDE
    if (cap >= 1 && __builtin_cpu_supports("avx2"))
        return 1;
#endif
    return 0;
}

static void sweep_blocks(const struct sweep *sw, double *ring, size_t b0, size_t b1, size_t wi,
                         struct swept *out)
{
#if SIM_WIDE
    if (width_cap >= 1 && __builtin_cpu_supports("avx2")) {
        sweep_avx2(sw, ring, b0, b1, wi, out);
        return;
    }
#endif
    sweep_base(sw, ring, b0, b1, wi, out);
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
int sim_sweep(struct sim *s, struct grid *g)
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
 * the same bits as sim_sweep. The blocks are cut into np runs in
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

/* Part k's head blocks (see sim_sweep_split): their terms on the head listed,
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

/* Part k's head joined (see sim_sweep_split), parts k - 1 and k done: the
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

/* sim_sweep in parts run by @p th (see above); 1 when it cannot
 * split (too few blocks, or no memory for its buffers: nothing changed,
 * step in one thread). */
int sim_sweep_split(struct sim *s, struct grid *g, struct sim_threads *th)
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

