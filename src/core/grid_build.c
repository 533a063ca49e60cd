/*
 * grid_build.c - a build of the neighbour list (see grid.c): the balls
 * into cells (grid_cells.c), the search for close pairs strip by strip,
 * the sort of the pairs into rows; each pass in parts on the threads a
 * caller lends (grid_update_par), the same list.
 */
#include "grid_impl.h"
#include "mem.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int emit(struct grid *g, uint32_t a, uint32_t b)
{
    if (g->np == g->p_cap && grid_grow(&g->pa, &g->pb, &g->p_cap))
        return -1;
    g->pa[g->np] = a < b ? a : b;
    g->pb[g->np] = a < b ? b : a;
    g->np++;
    return 0;
}

/* Whether centres (dx, dy) apart are closer than lim: the squares, or
 * where the square overflows (centres more than about 1e154 apart, which
 * a list of balls that size must still see) the distance itself. */
static inline int closer(double dx, double dy, double lim)
{
    double d2 = dx * dx + dy * dy;
    return d2 < lim * lim || (!(d2 <= DBL_MAX) && hypot(dx, dy) < lim);
}

/* Tests ball a against the balls cell_ball[k0..k1) and keeps the close
 * ones. */
static int test_range(struct grid *g, const struct grid_balls *s, uint32_t a,
                      size_t k0, size_t k1)
{
    const double xa = s->x[a], ya = s->y[a], ra = s->r[a] + g->cut;
    for (size_t k = k0; k < k1; k++) {
        uint32_t b = g->cell_ball[k];
        double dx = s->x[b] - xa, dy = s->y[b] - ya, lim = ra + s->r[b];
        if (closer(dx, dy, lim) && emit(g, a, b))
            return -1;
    }
    return 0;
}

static int test_pair(struct grid *g, const struct grid_balls *s, uint32_t a, uint32_t b)
{
    double dx = s->x[b] - s->x[a], dy = s->y[b] - s->y[a];
    double lim = s->r[a] + s->r[b] + g->cut;
    if (closer(dx, dy, lim))
        return emit(g, a, b);
    return 0;
}

/* Tests ball a against the balls of cells x0..x1 (x0 <= x1) of row cy,
 * which are contiguous in cell_ball within a strip. */
static int test_row(struct grid *g, const struct grid_balls *s, const uint32_t *cb,
                    uint32_t a, size_t x0, size_t x1, size_t cy)
{
    while (x0 <= x1) {
        size_t end = x0 | (g->strip - 1); /* the strip's last column */
        size_t hi = end < x1 ? end : x1;
        if (test_range(g, s, a, cb[cell_key(g, x0, cy)], cb[cell_key(g, hi, cy) + 1]))
            return -1;
        x0 = hi + 1;
    }
    return 0;
}

static int rows_par(struct grid *g, grid_run_fn *run, void *ctx, int np);

/* Room for the rows of @p np pairs: the neighbour list, and the sort's
 * scratch as long as the pair lists (p_cap). @return 0, or -1 (memory). */
static int rows_room(struct grid *g, size_t np)
{
    while (g->nbr_cap < np)
        if (grid_grow(&g->nbr, NULL, &g->nbr_cap))
            return -1;
    if (g->t_cap < np) {
        size_t cap = g->p_cap;
        uint32_t *nt = mem_realloc(g->t, cap * sizeof *nt);
        if (!nt)
            return -1;
        g->t = nt;
        g->t_cap = cap;
    }
    return 0;
}

/* A range cell_ball[k0 .. k1). */
struct span {
    uint32_t k0, k1;
};

/* Candidates a span test takes with no branch on their count (see
 * span_test): the cell order's arrays are padded by GRID_PAD >= it. */
#define SPAN_K 4 /* span_order's size */
#if SPAN_K > GRID_PAD
#error "SPAN_K must be at most GRID_PAD"
#endif

/* For each set m of the SPAN_K first candidates (bit j: the j-th), the
 * set's members in order (then 0s), and last their count. */
static const unsigned char span_order[1 << SPAN_K][SPAN_K + 1] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 1}, {0, 1, 0, 0, 2},
    {2, 0, 0, 0, 1}, {0, 2, 0, 0, 2}, {1, 2, 0, 0, 2}, {0, 1, 2, 0, 3},
    {3, 0, 0, 0, 1}, {0, 3, 0, 0, 2}, {1, 3, 0, 0, 2}, {0, 1, 3, 0, 3},
    {2, 3, 0, 0, 2}, {0, 2, 3, 0, 3}, {1, 2, 3, 0, 3}, {0, 1, 2, 3, 4},
};

/* The first j of SPAN_K candidates, j = 0 .. SPAN_K, as a set. */
static const unsigned char span_low[SPAN_K + 1] = {0, 1, 3, 7, 15};

/* span_order's members as 32-bit words, so that a span's four writes
 * are a vector's add and store. */
static const uint32_t span_at[1 << SPAN_K][SPAN_K] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
    {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

/* Tests ball @p a at (xa, ya) against the balls k0 .. k1 - 1 of the cell
 * order (cell_ball, their positions side by side in @p pxy and, unless
 * @p same, their radii in @p pr), writing every pair at pa[np], pb[np] (b
 * by its place k in the cell order, named by ball_strips) and
 * counting the close ones (where the square overflows, the distance
 * decides; see search): the first SPAN_K with no
 * branch on the count (those past k1 are read, never counted), the rest
 * one by one. @p ra is r_a + cut, @p lim2 the square of the limit when
 * @p same. pa, pb have room for SPAN_K + (k1 - k0) more. @return np. */
static inline size_t span_test(uint32_t a, double xa, double ya, double ra, int same,
                               double lim2same, const double *restrict pxy,
                               const double *restrict pr,
                               uint32_t k0, uint32_t k1, uint32_t *restrict pa,
                               uint32_t *restrict pb, size_t np)
{
    unsigned m = 0; /* bit j: candidate k0 + j is close */
#if defined(__SSE2__)
    if (same) {
        /* two candidates a vector: the same products and sums */
        const __m128d pa2 = _mm_set_pd(ya, xa), l2 = _mm_set1_pd(lim2same);
        for (uint32_t j = 0; j < SPAN_K; j += 2) {
            __m128d d0 = _mm_sub_pd(_mm_loadu_pd(pxy + 2 * (k0 + j)), pa2);
            __m128d d1 = _mm_sub_pd(_mm_loadu_pd(pxy + 2 * (k0 + j + 1)), pa2);
            d0 = _mm_mul_pd(d0, d0);
            d1 = _mm_mul_pd(d1, d1);
            __m128d d2 = _mm_add_pd(_mm_unpacklo_pd(d0, d1), _mm_unpackhi_pd(d0, d1));
            m |= (unsigned)_mm_movemask_pd(_mm_cmplt_pd(d2, l2)) << j;
        }
        const uint32_t left = k1 - k0; /* k1 >= k0 */
        m &= span_low[left < SPAN_K ? left : SPAN_K];
        /* the close ones written first, in order, by a table: no branch;
         * their places in the cell order (ball_strips names them after) */
        _mm_storeu_si128((__m128i *)(void *)(pa + np), _mm_set1_epi32((int)a));
        _mm_storeu_si128((__m128i *)(void *)(pb + np),
                         _mm_add_epi32(_mm_set1_epi32((int)k0),
                                       _mm_loadu_si128((const __m128i *)(const void *)span_at[m])));
    } else
#endif
    {
        for (uint32_t j = 0; j < SPAN_K; j++) {
            const uint32_t k = k0 + j;
            double dx = pxy[2 * k] - xa, dy = pxy[2 * k + 1] - ya, lim = 0, lim2 = lim2same;
            if (!same) {
                lim = ra + pr[k];
                lim2 = lim * lim;
            }
            double d2 = dx * dx + dy * dy;
            m |= (unsigned)((d2 < lim2) & (k < k1)) << j;
            if (!same && !(d2 <= DBL_MAX) && k < k1) /* rare: see search */
                m |= (unsigned)(hypot(dx, dy) < lim) << j;
        }
    }
#if defined(__SSE2__)
    if (!same)
#endif
    {
        /* as above, one by one */
        const uint32_t *o = span_at[m];
        for (uint32_t j = 0; j < SPAN_K; j++) {
            pa[np + j] = a;
            pb[np + j] = k0 + o[j];
        }
    }
    np += span_order[m][SPAN_K];
    for (uint32_t k = k0 + SPAN_K; k < k1; k++) {
        double dx = pxy[2 * k] - xa, dy = pxy[2 * k + 1] - ya, lim = 0, lim2 = lim2same;
        if (!same) {
            lim = ra + pr[k];
            lim2 = lim * lim;
        }
        double d2 = dx * dx + dy * dy;
        pa[np] = a;
        pb[np] = k;
        np += d2 < lim2;
        if (!same && !(d2 <= DBL_MAX))
            np += hypot(dx, dy) < lim;
    }
    return np;
}

/*
 * Step 2 of a build (see there) over the strips st0 .. st1 - 1 into @p c,
 * ball by ball in the cell order: each ball against the balls after it in
 * its cell and E of it (one range of the order within a strip), and those
 * of the cells NW, N, NE (another); a strip's edge adds the cells across
 * it. Empty cells cost nothing, and each range's first SPAN_K tests take
 * no branch on its length: on a sparse table (cells of a ball or less, a
 * list built at nearly every step) the cell by cell search mispredicted a
 * loop's end several times a ball. The pairs are the ones the cells give
 * (rows() sorts them): the same list. Reads @p g and @p s alone, so that
 * two threads may each take strips of their own.
 * @return 0, or -1 when memory is short.
 */
static inline int ball_strips(const struct grid *g, const uint32_t *cb, struct cands *c,
                              size_t st0, size_t st1, int same)
{
    const size_t ny = (size_t)g->ny, S = g->strip, scells = S * ny;
    const size_t nst = ((size_t)g->nx + S - 1) / S;
    const double *restrict pxy = g->pxy, *restrict pr = g->pr;
    const uint32_t *restrict ball = g->cell_ball;
    const unsigned char *restrict kcol = g->kcol;
    const double cut = g->cut, lim0 = (g->r0 + cut) + g->r0, lim02 = lim0 * lim0;
    size_t np = c->np;
    for (size_t st = st0; st < st1; st++) {
        for (size_t cy = 0; cy < ny; cy++) {
            const size_t base = st * scells + cy * S; /* cell (st S, cy) */
            const uint32_t kr0 = cb[base], kr1 = cb[base + S];
            const int up = cy + 1 < ny;
            for (uint32_t k = kr0; k < kr1; k++) {
                const size_t col = kcol[k], cl = base + col;
                /* own and E; NW .. NE; the cells across the edges */
                const uint32_t e1 = col + 1 < S ? cb[cl + 2] : cb[cl + 1];
                uint32_t u0 = 0, u1 = 0;
                if (up) {
                    u0 = cb[col > 0 ? cl + S - 1 : cl + S];
                    u1 = cb[col + 1 < S ? cl + S + 2 : cl + S + 1];
                }
                struct span sp[3];
                int ns = 0;
                if (col == 0 && st > 0 && up) { /* NW */
                    size_t e = base + S - scells + S - 1;
                    sp[ns++] = (struct span){cb[e], cb[e + 1]};
                }
                if (col + 1 == S && st + 1 < nst) { /* E, NE */
                    size_t e = base + scells;
                    sp[ns++] = (struct span){cb[e], cb[e + 1]};
                    if (up)
                        sp[ns++] = (struct span){cb[e + S], cb[e + S + 1]};
                }
                size_t need = 2 * SPAN_K + (e1 - k - 1) + (u1 - u0);
                for (int q = 0; q < ns; q++)
                    need += SPAN_K + sp[q].k1 - sp[q].k0;
                while (c->p_cap - np < need)
                    if (grid_grow(&c->pa, &c->pb, &c->p_cap)) {
                        c->np = np;
                        return -1;
                    }
                uint32_t *restrict pa = c->pa, *restrict pb = c->pb;
                const uint32_t a = ball[k];
                const double xa = pxy[2 * k], ya = pxy[2 * k + 1];
                const double ra = same ? 0 : pr[k] + cut;
                np = span_test(a, xa, ya, ra, same, lim02, pxy, pr, k + 1, e1, pa, pb, np);
                if (up)
                    np = span_test(a, xa, ya, ra, same, lim02, pxy, pr, u0, u1, pa, pb, np);
                for (int q = 0; q < ns; q++)
                    np = span_test(a, xa, ya, ra, same, lim02, pxy, pr, sp[q].k0,
                                   sp[q].k1, pa, pb, np);
            }
        }
    }
    /* the pairs' second balls, found by their places in the cell order */
    uint32_t *restrict pb = c->pb;
    for (size_t q = c->np; q < np; q++)
        pb[q] = ball[pb[q]];
    c->np = np;
    return 0;
}

/* Step 2 over the strips st0 .. st1 - 1: ball by ball (see ball_strips). */
static int search(const struct grid *g, const uint32_t *cb, struct cands *c, size_t st0,
                  size_t st1)
{
    /* Every pair's limit is lim0 when the radii are equal and its square
     * is below DBL_MAX / 4: then a pair whose square overflows is more
     * than sqrt(DBL_MAX) apart, never close; else the limit is
     * (r_a + cut) + r_b, and where the square overflows the distance
     * itself decides. */
    const double lim0 = (g->r0 + g->cut) + g->r0;
    const int fast = g->same_r && lim0 * lim0 <= DBL_MAX / 4; /* as grid_build's need_r */
    return fast ? ball_strips(g, cb, c, st0, st1, 1) : ball_strips(g, cb, c, st0, st1, 0);
}

/* A build's step 2 in parts (see grid_update_par). */
struct strips_job {
    const struct grid *g;
    const uint32_t *cb;
    struct cands **c; /* part k's buffers */
    size_t *st;       /* part k: strips st[k] .. st[k + 1] - 1 */
    int *rc;
};

static void strips_part(void *arg, int k)
{
    struct strips_job *jb = arg;
    jb->rc[k] = search(jb->g, jb->cb, jb->c[k], jb->st[k], jb->st[k + 1]);
}

/* The other parts' buffers of a build in @p np parts (see build).
 * @return 0, or -1 when memory is short. */
static int other_cands(struct grid *g, int np)
{
    if (g->nother < np - 1) {
        struct cands *o = realloc(g->other, (size_t)(np - 1) * sizeof *o);
        if (!o)
            return -1;
        for (int k = g->nother; k < np - 1; k++)
            o[k] = (struct cands){0};
        g->other = o;
        g->nother = np - 1;
    }
    for (int k = 0; k < np - 1; k++) {
        struct cands *o = &g->other[k];
        if (!o->pa) { /* grid_grow() doubles: a start */
            o->p_cap = g->n / (size_t)(4 * (np - 1)) + 16;
            o->pa = mem_alloc(o->p_cap * sizeof *o->pa);
            o->pb = mem_alloc(o->p_cap * sizeof *o->pb);
            if (!o->pa || !o->pb) {
                mem_free(o->pa);
                mem_free(o->pb);
                o->pa = o->pb = NULL;
                o->p_cap = 0;
                return -1;
            }
        }
        o->np = 0;
    }
    return 0;
}

int grid_build(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
               int nthreads)
{
    g->cut = (g->reach > 0 ? g->reach : 0) + g->skin;
    g->c0 = 2 * g->rsmall + g->cut;
    if (grid_box_parts(g, s, run, ctx, nthreads))
        return -1;
    /* Where the balls are now, to measure how far they get (see
     * grid_update); without the memory, the bound alone decides. */
    if (!g->home)
        g->home = mem_alloc(2 * g->n * sizeof *g->home);
    g->home_ok = 0;
    const size_t n = g->n;
    /* The cell order's arrays (see ball_strips), and its radii when the
     * pairs' limits differ (see search). */
    const double lim0 = (g->r0 + g->cut) + g->r0;
    const int need_r = !(g->same_r && lim0 * lim0 <= DBL_MAX / 4);
    if (!g->pxy) {
        g->pxy = mem_alloc(2 * (n + GRID_PAD) * sizeof *g->pxy);
        g->kcol = mem_alloc(n + GRID_PAD);
        if (!g->pxy || !g->kcol) {
            mem_free(g->pxy);
            mem_free(g->kcol);
            g->pxy = NULL;
            g->kcol = NULL;
            return -1;
        }
        memset(g->pxy + 2 * n, 0, 2 * GRID_PAD * sizeof *g->pxy);
        memset(g->kcol + n, 0, GRID_PAD);
    }
    if (need_r && !g->pr) {
        if (!(g->pr = mem_alloc((n + GRID_PAD) * sizeof *g->pr)))
            return -1;
        memset(g->pr + n, 0, GRID_PAD * sizeof *g->pr);
    }
    const long nx = g->nx, ny = g->ny;
    uint32_t *cs = g->cs;

    /* 1. small balls into cells (grid_cells.c) */
    if (grid_bin(g, s, run, ctx, nthreads, need_r))
        return -1;
    const uint32_t *cb = cs + 1; /* cell c: cell_ball[cb[c] .. cb[c + 1]) */

    /* 2. close pairs, strip by strip, row by row, ball by ball in the
     * cells' order (see ball_strips), in parts on the threads lent: the first strips into
     * g's buffers, the others' into g->other's, whose pairs then follow in
     * the parts' order. Which thread found a pair, and in which order,
     * changes nothing: rows() sorts the pairs, each found once, into one
     * list. */
    struct cands own = {g->pa, g->pb, 0, g->p_cap};
    const size_t S = g->strip, scells = S * (size_t)ny;
    const size_t nst = ((size_t)nx + S - 1) / S;
    int np = run && nthreads >= 2 ? nthreads : 1;
    if ((size_t)np > nst)
        np = (int)nst;
    if (np > GRID_PARTS_MAX)
        np = GRID_PARTS_MAX;
    int rc = 0;
    if (np >= 2) {
        if (other_cands(g, np))
            return -1;
        /* the strips cut where the small balls reach k / np of them */
        size_t st[GRID_PARTS_MAX + 1];
        struct cands *cp[GRID_PARTS_MAX];
        int rcs[GRID_PARTS_MAX];
        const size_t all = cb[nst * scells];
        st[0] = 0;
        st[np] = nst;
        cp[0] = &own;
        for (int k = 1; k < np; k++) {
            size_t lo = st[k - 1] + 1, hi = nst - (size_t)(np - k);
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if ((size_t)np * cb[mid * scells] < (size_t)k * all)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            st[k] = lo;
            cp[k] = &g->other[k - 1];
        }
        struct strips_job jb = {g, cb, cp, st, rcs};
        run(ctx, np, strips_part, &jb);
        for (int k = 0; k < np; k++)
            rc |= rcs[k];
    } else {
        rc = search(g, cb, &own, 0, nst);
    }
    g->pa = own.pa;
    g->pb = own.pb;
    g->np = own.np;
    g->p_cap = own.p_cap;
    if (rc)
        return -1;
    for (int k = 0; k < np - 1; k++) {
        const struct cands *o = &g->other[k];
        while (g->p_cap - g->np < o->np)
            if (grid_grow(&g->pa, &g->pb, &g->p_cap))
                return -1;
        memcpy(g->pa + g->np, o->pa, o->np * sizeof *o->pa);
        memcpy(g->pb + g->np, o->pb, o->np * sizeof *o->pb);
        g->np += o->np;
    }
    for (size_t l = 0; l < g->nlarge; l++) {
        uint32_t a = g->large[l];
        double e = s->r[a] + g->rsmall + g->cut;
        double xa = s->x[a] - g->x0, ya = s->y[a] - g->y0;
        long x0 = cell_coord(xa - e, g->c, nx), x1 = cell_coord(xa + e, g->c, nx);
        long y0 = cell_coord(ya - e, g->c, ny), y1 = cell_coord(ya + e, g->c, ny);
        for (long cy = y0; cy <= y1; cy++)
            if (test_row(g, s, cb, a, (size_t)x0, (size_t)x1, (size_t)cy))
                return -1;
        for (size_t m = l + 1; m < g->nlarge; m++)
            if (test_pair(g, s, a, g->large[m]))
                return -1;
    }

    if (np >= 2 && n >= (size_t)np * GRID_BLOCK ? rows_par(g, run, ctx, np) : grid_rows(g))
        return -1;
    g->valid = 1;
    g->travel = 0;
    g->moves = 0;
    g->builds++;
    return 0;
}

/* The larger of @p reach and one past the last slot of the row whose
 * entries are nbr[e0 .. e1) (rows ascend: its last), with no branch on
 * whether the row is empty (a third of the rows, at random, on a sparse
 * table). */
static inline uint32_t row_reach(uint32_t e0, uint32_t e1, const uint32_t *nbr, uint32_t reach)
{
    const uint32_t all = 0u - (uint32_t)(e1 > e0); /* all ones, or 0 */
    const uint32_t v = (nbr[(e1 - 1) & all] + 1) & all; /* nbr holds an entry */
    return v > reach ? v : reach;
}

/* Steps 3 and 4 of a build, from the candidate pairs pa, pb (either way): the
 * rows, each ascending, and how far each block's rows reach. */
int grid_rows(struct grid *g)
{
    const size_t n = g->n;
    /* 3. rows by the smaller slot, each row ascending: two stable
     * counting sorts, by the larger slot and then by the smaller (a sort of
     * each short row instead mispredicted a branch at nearly every row). */
    const size_t np = g->np;
    uint32_t *start = g->start;
    if (rows_room(g, np))
        return -1;
    uint32_t *restrict pa = g->pa, *restrict pb = g->pb, *restrict t = g->t;
    uint32_t *restrict nbr = g->nbr;
    uint32_t *restrict cur = g->cellof; /* no longer needed: the cursors */
    memset(start, 0, (n + 1) * sizeof *start);
    memset(cur, 0, n * sizeof *cur);
    for (size_t p = 0; p < np; p++) { /* the smaller slot first */
        uint32_t a = pa[p], b = pb[p];
        pa[p] = a < b ? a : b;
        pb[p] = a < b ? b : a;
        start[pa[p] + 1]++;
        cur[pb[p]]++;
    }
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cur[i];
        cur[i] = sum;
        sum += c;
        start[i + 1] += start[i];
    }
    /* 3a. by the larger slot into (t, nbr) */
    for (size_t p = 0; p < np; p++) {
        uint32_t q = cur[pb[p]]++;
        t[q] = pa[p];
        nbr[q] = pb[p];
    }
    /* 3b. by the smaller, stably, into (pa, pb): pa is then the row of each
     * entry (grid_pairs.pi), pb the list, copied to nbr. */
    memcpy(cur, start, n * sizeof *cur);
    for (size_t q = 0; q < np; q++) {
        uint32_t e = cur[t[q]]++;
        pa[e] = t[q];
        pb[e] = nbr[q];
    }
    memcpy(nbr, pb, np * sizeof *nbr);
    /* 4. how far each block's rows reach, and the balls near a wall. */
    uint32_t reach_end = 0;
    size_t window = GRID_BLOCK;
    for (size_t b = 0, i0 = 0; i0 < n; b++, i0 += GRID_BLOCK) {
        size_t i1 = n - i0 < GRID_BLOCK ? n : i0 + GRID_BLOCK;
        if (reach_end < i1)
            reach_end = (uint32_t)i1;
        for (size_t i = i0; i < i1; i++)
            reach_end = row_reach(start[i], start[i + 1], nbr, reach_end);
        g->block_end[b] = reach_end;
        if (reach_end - i0 > window)
            window = reach_end - i0;
    }
    g->window = window;
    return 0;
}

/*
 * rows() in @p np parts on the threads lent (np * GRID_BLOCK <= n), the
 * same list: the pairs cut into np runs, each run's pairs put the smaller
 * slot first and counted by the range of rows they go to (the rows cut
 * at blocks into np ranges); the runs then copy their pairs into their
 * ranges' places in run order (t, nbr); each range sorts its own pairs
 * into rows as rows() does all of them (by the larger slot, then stably
 * by the smaller: its counts span its rows and the slots they reach) and
 * notes how far each of its blocks' rows reach. Every pair is found once,
 * so any sort gives the one list.
 */
struct rows_job {
    struct grid *g;
    int np, pass;
    size_t npairs;
    size_t rlo[GRID_ROWS_MAX + 1]; /* range r: rows rlo[r] .. rlo[r + 1] - 1 */
    size_t base[GRID_ROWS_MAX + 1]; /* range r's pairs from base[r] */
    int rc[GRID_ROWS_MAX];          /* pass 2's: -1 when memory is short */
};

static void rows_part(void *arg, int k)
{
    struct rows_job *jb = arg;
    struct grid *g = jb->g;
    const int np = jb->np;
    uint32_t *restrict cnt = g->rcnt + (size_t)k * np;
    const unsigned char *restrict brange = g->brange;
    if (jb->pass < 2) {
        const size_t p0 = jb->npairs * (size_t)k / (size_t)np;
        const size_t p1 = jb->npairs * (size_t)(k + 1) / (size_t)np;
        uint32_t *restrict pa = g->pa, *restrict pb = g->pb;
        uint32_t lc[GRID_ROWS_MAX];
        for (int r = 0; r < np; r++)
            lc[r] = jb->pass == 0 ? 0 : cnt[r];
        if (jb->pass == 0) {
            for (size_t p = p0; p < p1; p++) {
                uint32_t a = pa[p], b = pb[p];
                uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
                pa[p] = lo;
                pb[p] = hi;
                lc[brange[lo / GRID_BLOCK]]++;
            }
        } else {
            uint32_t *restrict t = g->t, *restrict nbr = g->nbr;
            for (size_t p = p0; p < p1; p++) {
                uint32_t q = lc[brange[pa[p] / GRID_BLOCK]]++;
                t[q] = pa[p];
                nbr[q] = pb[p];
            }
        }
        for (int r = 0; r < np; r++)
            cnt[r] = lc[r];
        return;
    }
    /* pass 2: range k's rows, from (t, nbr) by the larger slot into
     * (pa, pb), then by the smaller into (t, nbr), rows into pa; the
     * counts span the rows and the slots they reach */
    const size_t i0 = jb->rlo[k], i1 = jb->rlo[k + 1];
    const size_t e0 = jb->base[k], e1 = jb->base[k + 1];
    uint32_t *restrict start = g->start;
    uint32_t *restrict t = g->t, *restrict nbr = g->nbr;
    uint32_t *restrict pa = g->pa, *restrict pb = g->pb;
    uint32_t most = 0;
    for (size_t e = e0; e < e1; e++)
        most = nbr[e] > most ? nbr[e] : most;
    const size_t hi = (size_t)most + 1 > i1 ? (size_t)most + 1 : i1;
    if (hi - i0 > g->rscr_cap[k]) {
        /* the hooks' allocators may be called from any thread (mem.h) */
        uint32_t *c = mem_realloc(g->rscr[k], (hi - i0) * sizeof *c);
        if (!c) {
            jb->rc[k] = -1;
            return;
        }
        g->rscr[k] = c;
        g->rscr_cap[k] = hi - i0;
    }
    uint32_t *restrict cur = g->rscr[k];
    memset(cur, 0, (hi - i0) * sizeof *cur);
    for (size_t e = e0; e < e1; e++)
        cur[nbr[e] - i0]++;
    uint32_t sum = (uint32_t)e0;
    for (size_t i = 0; i < hi - i0; i++) {
        uint32_t c = cur[i];
        cur[i] = sum;
        sum += c;
    }
    for (size_t e = e0; e < e1; e++) {
        uint32_t q = cur[nbr[e] - i0]++;
        pa[q] = t[e];
        pb[q] = nbr[e];
    }
    memset(cur, 0, (i1 - i0) * sizeof *cur);
    for (size_t e = e0; e < e1; e++)
        cur[pa[e] - i0]++;
    sum = (uint32_t)e0;
    for (size_t i = i0; i < i1; i++) {
        uint32_t c = cur[i - i0];
        start[i] = sum;
        cur[i - i0] = sum;
        sum += c;
    }
    if (i1 == g->n)
        start[i1] = sum;
    for (size_t e = e0; e < e1; e++) {
        uint32_t q = cur[pa[e] - i0]++;
        t[q] = pa[e];
        nbr[q] = pb[e];
    }
    if (e1 > e0) /* an empty strip may have no list yet (pa NULL) */
        memcpy(pa + e0, t + e0, (e1 - e0) * sizeof *pa);
    /* how far each block's rows reach (the running maximum is taken
     * over the blocks afterwards); cur[i - i0] is row i's end */
    for (size_t i0b = i0; i0b < i1; i0b += GRID_BLOCK) {
        const size_t i1b = i1 - i0b < GRID_BLOCK ? i1 : i0b + GRID_BLOCK;
        uint32_t reach = (uint32_t)i1b;
        for (size_t i = i0b; i < i1b; i++)
            reach = row_reach(start[i], cur[i - i0], nbr, reach);
        g->bmax[i0b / GRID_BLOCK] = reach;
    }
}

static int rows_par(struct grid *g, grid_run_fn *run, void *ctx, int np)
{
    const size_t n = g->n, npairs = g->np;
    if (np > GRID_ROWS_MAX)
        np = GRID_ROWS_MAX;
    const size_t nblock = (n + GRID_BLOCK - 1) / GRID_BLOCK;
    const size_t nc = GRID_ROWS_MAX * GRID_ROWS_MAX;
    if (!g->rcnt && !(g->rcnt = malloc(nc * sizeof *g->rcnt)))
        return grid_rows(g);
    if (!g->bmax && !(g->bmax = mem_alloc(nblock * sizeof *g->bmax)))
        return grid_rows(g);
    if (!g->brange && !(g->brange = mem_alloc(nblock)))
        return grid_rows(g);
    if (rows_room(g, npairs))
        return -1;
    struct rows_job jb;
    jb.g = g;
    jb.np = np;
    jb.npairs = npairs;
    for (int r = 0; r <= np; r++) {
        jb.rlo[r] = r == np ? n : nblock * (size_t)r / (size_t)np * GRID_BLOCK;
        if (r > 0)
            memset(g->brange + jb.rlo[r - 1] / GRID_BLOCK, r - 1,
                   (r == np ? nblock : jb.rlo[r] / GRID_BLOCK) - jb.rlo[r - 1] / GRID_BLOCK);
        if (r < np)
            jb.rc[r] = 0;
    }
    jb.pass = 0;
    run(ctx, np, rows_part, &jb);
    /* each run's place in each range: ranges in order, runs in order */
    uint32_t sum = 0;
    for (int r = 0; r < np; r++) {
        jb.base[r] = sum;
        for (int k = 0; k < np; k++) {
            uint32_t c = g->rcnt[(size_t)k * np + r];
            g->rcnt[(size_t)k * np + r] = sum;
            sum += c;
        }
    }
    jb.base[np] = sum;
    jb.pass = 1;
    run(ctx, np, rows_part, &jb);
    jb.pass = 2;
    run(ctx, np, rows_part, &jb);
    for (int r = 0; r < np; r++)
        if (jb.rc[r])
            return -1;
    uint32_t reach_end = 0;
    size_t window = GRID_BLOCK;
    for (size_t b = 0; b < nblock; b++) {
        reach_end = g->bmax[b] > reach_end ? g->bmax[b] : reach_end;
        g->block_end[b] = reach_end;
        if (reach_end - b * GRID_BLOCK > window)
            window = reach_end - b * GRID_BLOCK;
    }
    g->window = window;
    return 0;
}

