/*
 * grid.c - cells, the neighbour list built from them, and the cell-order
 * sort of the balls.
 *
 * A build (1) drops every small ball into its cell with a counting sort,
 * stable in slot order; (2) tests each small ball against the balls later
 * in its own cell and in the four cells ahead of it (E, NW, N, NE: a half
 * stencil, so every pair is tested once), and each large ball against the
 * cells its reach covers and against the other large balls, keeping the
 * pairs closer than r_a + r_b + reach + skin; (3) gathers the kept pairs
 * into rows by their smaller slot with a second counting sort, and sorts
 * each (short) row. Every step is linear in N plus the pairs found.
 * The build itself is grid_build.c's; here the cells' geometry, the
 * list's upkeep (when to build, the skin), copies and the cell order.
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

/* The k-th smallest of a[0..n) (a is reordered): Wirth's selection, which
 * stays linear on average when many values are equal. */
static double select_kth(double *a, size_t n, size_t k)
{
    ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (l < m) {
        double x = a[kk];
        ptrdiff_t i = l, j = m;
        do {
            while (a[i] < x)
                i++;
            while (x < a[j])
                j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            m = j;
    }
    return a[kk];
}

/*
 * The span [*lo, *hi] of the small balls' coordinates q (x or y) but the
 * 1/32 lowest and highest (and the non-finite), at least [0, len] (just
 * that when the span is wider than a quarter of the doubles' range):
 * where most balls are when many have left the table. 0, or -1 when
 * memory is short.
 */
static int bulk(const struct grid *g, const struct grid_balls *b, const double *q,
                double len, double *lo, double *hi)
{
    double *v = malloc(g->n * sizeof *v);
    if (!v)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < g->n; i++)
        if (!(g->any_large && b->r[i] > g->rlarge) && q[i] >= -DBL_MAX && q[i] <= DBL_MAX)
            v[m++] = q[i];
    *lo = 0;
    *hi = len;
    if (m) {
        double a = select_kth(v, m, m / 32), z = select_kth(v, m, m - 1 - m / 32);
        *lo = a < 0 ? a : 0;
        *hi = z > len ? z : len;
        if (!(*hi - *lo <= DBL_MAX / 4)) { /* the box's width stays finite */
            *lo = 0;
            *hi = len;
        }
    }
    free(v);
    return 0;
}

/*
 * The cells for the current positions: squares of side c0 over the box
 * that holds the small balls' centres, cut to the table (balls off it
 * share the border cells), larger when that would make more than about 2
 * cells per ball. Sized by the balls rather than the table, a dense cluster
 * on a huge table still gets cells of about one ball each. When more than
 * a sixteenth of the balls are off the table (flung out), the box is cut
 * to where most of them are instead (see bulk): cut to the table, they
 * would all share its border cells, N^2 pairs. Any cells are correct (a
 * ball's neighbours are in its cell and the 8 around it), only more or
 * fewer balls share one.
 * @return 0, or -1 when memory is short.
 */
void grid_box(const struct grid *g, const struct grid_balls *b, size_t i0, size_t i1,
              struct grid_box *bx)
{
    const double tw = b->w > 0 ? b->w : 1, th = b->h > 0 ? b->h : 1;
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    size_t off = 0;
#if defined(__SSE2__)
    if (!g->any_large && i1 - i0 >= 2) {
        /* Two balls a vector, each lane its own least and largest (min_pd
         * is x < m ? x : m, max_pd x > m ? x : m, as below: a NaN never
         * taken), joined as below: the same box and count as the loop
         * below, which took 31 instructions a ball on a list built at
         * every step. */
        __m128d lx0 = _mm_set1_pd(INFINITY), ly0 = lx0;
        __m128d lx1 = _mm_set1_pd(-INFINITY), ly1 = lx1;
        const __m128d zero = _mm_setzero_pd(), vw = _mm_set1_pd(tw), vh = _mm_set1_pd(th);
        __m128i in = _mm_setzero_si128(); /* each lane less the balls on the table */
        size_t i = i0;
        for (; i + 2 <= i1; i += 2) {
            const __m128d x = _mm_loadu_pd(b->x + i), y = _mm_loadu_pd(b->y + i);
            lx0 = _mm_min_pd(x, lx0);
            lx1 = _mm_max_pd(x, lx1);
            ly0 = _mm_min_pd(y, ly0);
            ly1 = _mm_max_pd(y, ly1);
            const __m128d on = _mm_and_pd(_mm_and_pd(_mm_cmpge_pd(x, zero), _mm_cmple_pd(x, vw)),
                                          _mm_and_pd(_mm_cmpge_pd(y, zero), _mm_cmple_pd(y, vh)));
            in = _mm_add_epi64(in, _mm_castpd_si128(on)); /* all ones: -1 */
        }
        double l[8];
        uint64_t c[2];
        _mm_storeu_pd(l, lx0);
        _mm_storeu_pd(l + 2, lx1);
        _mm_storeu_pd(l + 4, ly0);
        _mm_storeu_pd(l + 6, ly1);
        _mm_storeu_si128((__m128i *)(void *)c, in);
        for (int q = 0; q < 2; q++) {
            x0 = l[q] < x0 ? l[q] : x0;
            x1 = l[2 + q] > x1 ? l[2 + q] : x1;
            y0 = l[4 + q] < y0 ? l[4 + q] : y0;
            y1 = l[6 + q] > y1 ? l[6 + q] : y1;
        }
        off = (i - i0) - (size_t)(-(c[0] + c[1]));
        i0 = i;
    }
#endif
    for (size_t i = i0; i < i1; i++) {
        if (g->any_large && b->r[i] > g->rlarge)
            continue;
        double x = b->x[i], y = b->y[i];
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;
        off += !((x >= 0) & (x <= tw) & (y >= 0) & (y <= th)); /* no branch */
    }
    *bx = (struct grid_box){x0, x1, y0, y1, off};
}

int grid_geometry(struct grid *g, const struct grid_balls *b)
{
    struct grid_box bx;
    grid_box(g, b, 0, g->n, &bx);
    return grid_geometry_box(g, b, &bx);
}

int grid_geometry_box(struct grid *g, const struct grid_balls *b, const struct grid_box *bx)
{
    const double tw = b->w > 0 ? b->w : 1, th = b->h > 0 ? b->h : 1;
    double x0 = bx->x0, x1 = bx->x1, y0 = bx->y0, y1 = bx->y1;
    const size_t off = bx->off;
    double bx0 = 0, bx1 = tw, by0 = 0, by1 = th;
    if (off > g->n / 16 + 8 &&
        (bulk(g, b, b->x, tw, &bx0, &bx1) || bulk(g, b, b->y, th, &by0, &by1)))
        return -1;
    x0 = clamp(x0, bx0, bx1);
    x1 = clamp(x1, x0, bx1);
    y0 = clamp(y0, by0, by1);
    y1 = clamp(y1, y0, by1);
    const double w = x1 - x0, h = y1 - y0;
    const double most = 2.0 * (double)g->n + 64;
    /* Cells of side c0, or larger when that would make more than about
     * `most` of them. Each side first gets at most `most` cells, so that the
     * count below is a finite product (a 1e200 table with cells of 2 asked
     * for 1e399 cells, an infinity that made the cell infinite and put
     * every ball in one cell: a silent O(N^2)); larger cells are always
     * correct, only slower. */
    double c = g->c0;
    if (!(w / c <= most))
        c = w / most;
    if (!(h / c <= most))
        c = h / most;
    double cells = (w / c + 1) * (h / c + 1);
    if (cells > most)
        c *= sqrt(cells / most) * 1.01;
    const long nx = (long)(w / c) + 1, ny = (long)(h / c) + 1;
    /* A power of 2, so that a cell's number takes shifts, not divisions:
     * GRID_STRIP, or the smallest one that holds a narrower box. */
    unsigned shift = 0;
    while (((size_t)1 << shift) < GRID_STRIP && ((size_t)1 << shift) < (size_t)nx)
        shift++;
    const size_t strip = (size_t)1 << shift;
    const size_t nkeys = ((size_t)nx + strip - 1) / strip * strip * (size_t)ny;
    /* The memory first: when it is short, the grid keeps its old cells,
     * which still fit cs (grid_order may use them). */
    if (nkeys + 2 > g->cs_cap) {
        uint32_t *ncs = mem_realloc(g->cs, (nkeys + 2) * sizeof *ncs);
        if (!ncs)
            return -1;
        g->cs = ncs;
        g->cs_cap = nkeys + 2;
    }
    g->c = c;
    g->x0 = x0;
    g->y0 = y0;
    g->nx = nx;
    g->ny = ny;
    g->strip_shift = shift;
    g->strip = strip;
    g->nkeys = nkeys;
    return 0;
}

struct grid *grid_new(size_t n, const double *r, double reach, int *err)
{
    int why = GRID_ESIZE;
    struct grid *g = NULL;
    double *tmp = NULL;
    /* A point has no size to make cells of (a cell of 0, then NaN, sent
     * every ball out of bounds): say so rather than guess one. */
    if (n == 0 || n >= NO_CELL)
        goto fail;
    for (size_t i = 0; i < n; i++)
        if (!(r[i] > 0 && r[i] <= DBL_MAX))
            goto fail;
    why = GRID_ENOMEM;
    g = calloc(1, sizeof *g);
    tmp = malloc(n * sizeof *tmp);
    if (!g || !tmp)
        goto fail;
    g->n = n;
    g->reach = reach;
    memcpy(tmp, r, n * sizeof *tmp);
    double rmed = select_kth(tmp, n, n / 2);
    free(tmp);
    tmp = NULL;
    g->rlarge = GRID_LARGE * rmed;
    for (size_t i = 0; i < n; i++) {
        if (r[i] > g->rlarge)
            g->nlarge++;
        else if (r[i] > g->rsmall)
            g->rsmall = r[i];
    }
    g->any_large = g->nlarge > 0;
    g->skin = g->skin0 = GRID_SKIN * 2 * g->rsmall;
    g->cut = (reach > 0 ? reach : 0) + g->skin;
    g->c0 = 2 * g->rsmall + g->cut;
    g->cell_ball = mem_alloc((n + GRID_PAD) * sizeof *g->cell_ball);
    if (g->cell_ball)
        memset(g->cell_ball + n, 0, GRID_PAD * sizeof *g->cell_ball);
    g->r0 = r[0];
    g->same_r = 1;
    for (size_t i = 1; i < n; i++)
        g->same_r &= r[i] == r[0];
    g->cellof = mem_alloc(n * sizeof *g->cellof);
    g->large = mem_alloc((g->nlarge ? g->nlarge : 1) * sizeof *g->large);
    g->start = mem_alloc((n + 1) * sizeof *g->start);
    g->p_cap = n / 2 + 16;
    g->pa = mem_alloc(g->p_cap * sizeof *g->pa);
    g->pb = mem_alloc(g->p_cap * sizeof *g->pb);
    g->nbr_cap = g->p_cap;
    g->nbr = mem_alloc(g->nbr_cap * sizeof *g->nbr);
    g->block_end = mem_alloc((n / GRID_BLOCK + 1) * sizeof *g->block_end);
    g->wall_cap = 1024;
    g->wall = mem_alloc(g->wall_cap * sizeof *g->wall);
    g->sort_inv = mem_alloc(n * sizeof *g->sort_inv);
    if (!g->block_end || !g->wall || !g->cell_ball || !g->cellof || !g->large || !g->start ||
        !g->pa || !g->pb || !g->nbr || !g->sort_inv)
        goto fail;
    if (err)
        *err = GRID_OK;
    return g;
fail:
    free(tmp);
    grid_free(g);
    if (err)
        *err = why;
    return NULL;
}

/* Makes *a hold at least @p need entries of @p size bytes (its contents
 * need not stay). */
static int reserve(void **a, size_t *cap, size_t need, size_t size)
{
    if (*cap >= need)
        return 0;
    void *na = mem_realloc(*a, need * size);
    if (!na)
        return -1;
    *a = na;
    *cap = need;
    return 0;
}

int grid_copy(struct grid *dst, const struct grid *src)
{
    dst->valid = 0;
    if (dst->n != src->n || dst->reach != src->reach || dst->nlarge != src->nlarge ||
        !src->valid)
        return -1;
    const size_t n = src->n, np = src->start[n];
    size_t pcap = dst->p_cap, ncap = dst->nbr_cap;
    if (reserve((void **)&dst->nbr, &ncap, np, sizeof *dst->nbr))
        return -1;
    dst->nbr_cap = ncap;
    /* pa and pb grow together */
    size_t pb_cap = pcap;
    if (reserve((void **)&dst->pa, &pcap, np, sizeof *dst->pa) ||
        reserve((void **)&dst->pb, &pb_cap, np, sizeof *dst->pb))
        return -1;
    dst->p_cap = pcap < pb_cap ? pcap : pb_cap;
    if (reserve((void **)&dst->wall, &dst->wall_cap, src->nwall, sizeof *dst->wall))
        return -1;
    if (src->home_ok && !dst->home && !(dst->home = mem_alloc(2 * n * sizeof *dst->home)))
        return -1;
    memcpy(dst->start, src->start, (n + 1) * sizeof *dst->start);
    memcpy(dst->nbr, src->nbr, np * sizeof *dst->nbr);
    memcpy(dst->pa, src->pa, np * sizeof *dst->pa);
    memcpy(dst->block_end, src->block_end, (n / GRID_BLOCK + 1) * sizeof *dst->block_end);
    memcpy(dst->wall, src->wall, src->nwall * sizeof *dst->wall);
    memcpy(dst->large, src->large, src->nlarge * sizeof *dst->large);
    if (src->home_ok)
        memcpy(dst->home, src->home, 2 * n * sizeof *dst->home);
    dst->np = np;
    dst->nwall = src->nwall;
    dst->window = src->window;
    dst->home_ok = src->home_ok;
    dst->skin = src->skin;
    dst->cut = src->cut;
    dst->c0 = src->c0;
    dst->travel = src->travel;
    dst->last_move = src->last_move;
    dst->moves = src->moves;
    dst->valid = 1;
    return 0;
}

void grid_free(struct grid *g)
{
    if (!g)
        return;
    mem_free(g->cs);
    mem_free(g->cell_ball);
    mem_free(g->pxy);
    mem_free(g->pr);
    mem_free(g->kcol);
    free(g->rcnt);
    mem_free(g->bmax);
    mem_free(g->brange);
    for (int k = 0; k < GRID_ROWS_MAX; k++)
        mem_free(g->rscr[k]);
    for (int k = 0; k < GRID_HIST_MAX; k++)
        mem_free(g->hist[k]);
    for (int k = 0; k < g->nother; k++) {
        mem_free(g->other[k].pa);
        mem_free(g->other[k].pb);
    }
    free(g->other);
    mem_free(g->cellof);
    mem_free(g->large);
    mem_free(g->start);
    mem_free(g->nbr);
    mem_free(g->pa);
    mem_free(g->pb);
    mem_free(g->block_end);
    mem_free(g->wall);
    mem_free(g->sort_inv);
    mem_free(g->t);
    mem_free(g->home);
    free(g);
}

void grid_moved(struct grid *g, double dist)
{
    g->travel += dist;
    g->last_move = dist;
    g->moves++;
}

int grid_grow(uint32_t **a, uint32_t **b, size_t *cap)
{
    size_t nc = *cap * 2;
    uint32_t *na = mem_realloc(*a, nc * sizeof *na);
    if (na)
        *a = na;
    uint32_t *nb = b ? mem_realloc(*b, nc * sizeof *nb) : NULL;
    if (nb)
        *b = nb;
    if (!na || (b && !nb))
        return -1;
    *cap = nc;
    return 0;
}

/*
 * The largest distance any ball has moved from where the build saw it (the
 * squares compared, one root): at most the bound `travel`, often much less
 * (the fastest ball at one step is not the fastest at the next, and
 * collisions turn balls back). NaN when a position is not finite.
 */
static void moved_range(const struct grid *g, const struct grid_balls *b, size_t i0,
                        size_t i1, double *most2, int *badp)
{
    const double *restrict x = b->x, *restrict y = b->y, *restrict h = g->home;
    double most = 0;
    int bad = 0;
    for (size_t i = i0; i < i1; i++) {
        double dx = x[i] - h[2 * i], dy = y[i] - h[2 * i + 1];
        double d2 = dx * dx + dy * dy;
        bad |= !(d2 <= DBL_MAX);
        most = d2 > most ? d2 : most;
    }
    *most2 = most;
    *badp = bad;
}

/* displacement in parts: part k's slots [n k / np, n (k + 1) / np) */
struct moved_job {
    const struct grid *g;
    const struct grid_balls *b;
    int np;
    double most[GRID_PARTS_MAX];
    int bad[GRID_PARTS_MAX];
};

static void moved_part(void *arg, int k)
{
    struct moved_job *jb = arg;
    const size_t n = jb->g->n;
    moved_range(jb->g, jb->b, n * (size_t)k / (size_t)jb->np,
                n * (size_t)(k + 1) / (size_t)jb->np, &jb->most[k], &jb->bad[k]);
}

/* The largest of the parts' (or one thread's) squares: the same in any
 * order (they are +0 or more). */
static double displacement(const struct grid *g, const struct grid_balls *b, grid_run_fn *run,
                           void *ctx, int nthreads)
{
    double most = 0;
    int bad = 0;
    int np = run && nthreads >= 2 && g->n >= (size_t)nthreads * 1024 ? nthreads : 1;
    if (np > GRID_PARTS_MAX)
        np = GRID_PARTS_MAX;
    if (np >= 2) {
        struct moved_job jb;
        jb.g = g;
        jb.b = b;
        jb.np = np;
        run(ctx, np, moved_part, &jb);
        for (int k = 0; k < np; k++) {
            most = jb.most[k] > most ? jb.most[k] : most;
            bad |= jb.bad[k];
        }
    } else {
        moved_range(g, b, 0, g->n, &most, &bad);
    }
    return bad ? NAN : sqrt(most);
}

/*
 * The skin of the next build, from what the last list cost: a wider skin
 * lists more pairs (each costs a build a little, and every step's sweep
 * a little more), a narrower one is rebuilt sooner. Per ball and step,
 *     cost(s) = (GRID_COST_BUILD + GRID_COST_BPAIR m(s)) / life(s)
 *               + GRID_COST_PAIR m(s),
 * with m(s) the pairs per ball, scaled from the last build's count by the
 * area of the ring the list covers, (D + s)^2 for D = 2 r + reach, and
 * life(s) = max(1, 0.45 s / u) the steps it lasts for balls that move u a
 * step: the last list's own measure (the farthest any ball got over the
 * steps it lasted). The skins tried are skin0 * 2^(k/4) for skin0 / 4 ..
 * 8 skin0; none of it changes a force (the list holds every pair in
 * contact whatever the skin), only the time taken.
 */
static void choose_skin(struct grid *g, double moved)
{
    /* Lengths in units of D, so that no square overflows. */
    const double D = 2 * g->rsmall + (g->reach > 0 ? g->reach : 0);
    const double u = moved / (double)g->moves / D;
    const double listed = g->valid ? (double)g->start[g->n] : 0;
    if (!(u > 0 && u <= DBL_MAX) || !(listed > 0) || g->moves < 1)
        return; /* nothing learnt: the last skin again */
    const double ds = 1 + g->skin / D;
    const double q = listed / ((double)g->n * ds * ds);
    double best = g->skin, best_cost = INFINITY;
    for (int k = -8; k <= 12; k++) {
        double sk = g->skin0 * pow(2, k / 4.0);
        if (!(D + sk <= DBL_MAX / 4))
            break; /* cells of a finite side */
        double m = q * (1 + sk / D) * (1 + sk / D);
        double life = 0.45 * (sk / D) / u;
        life = life > 1 ? life : 1;
        double cost = (GRID_COST_BUILD + GRID_COST_BPAIR * m) / life + GRID_COST_PAIR * m;
        if (cost < best_cost) {
            best_cost = cost;
            best = sk;
        }
    }
    g->skin = best;
}

int grid_update_par(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
                    int nthreads)
{
    /* 0.45 rather than 0.5: a margin for the rounding of the tests. */
    const double limit = 0.45 * g->skin;
    if (g->valid && g->travel <= limit)
        return 0;
    double moved = g->travel;
    /* When the last step alone went past the limit (d + last_move >
     * limit for any d >= 0: a list built at every step), the measure
     * cannot keep the list: the bound stands for it. */
    if (g->valid && g->home_ok && g->last_move <= limit) {
        /* The bound says stale: measure. When the farthest ball is still
         * a step's bound inside the limit, the list stays, and the bound
         * starts again from the measure. */
        double d = displacement(g, s, run, ctx, nthreads);
        if (d + g->last_move <= limit) {
            g->travel = d;
            return 0;
        }
        if (d <= DBL_MAX)
            moved = d;
    }
    if (g->valid)
        choose_skin(g, moved);
    g->valid = 0;
    return grid_build(g, s, run, ctx, nthreads);
}

int grid_update(struct grid *g, const struct grid_balls *s)
{
    return grid_update_par(g, s, NULL, NULL, 1);
}

struct grid_pairs grid_pairs(const struct grid *g)
{
    struct grid_pairs p = {g->n, g->start, g->nbr, g->pa, g->block_end,
                           g->window, g->wall, g->nwall};
    return p;
}

struct grid_stats grid_stats(const struct grid *g)
{
    struct grid_stats st;
    st.reach = g->reach;
    st.skin = g->skin;
    st.cell = g->c;
    st.nx = g->nx;
    st.ny = g->ny;
    st.nlarge = g->nlarge;
    st.builds = g->builds;
    st.pairs = g->valid ? g->start[g->n] : 0;
    st.pair_cap = g->p_cap;
    return st;
}

/* A valid list follows the balls to their new slots (src[k] is the old
 * slot of new slot k): the same pairs, renamed, in rows again, and the same
 * balls near a wall; the bound on travel stays. Cheaper than a build, which
 * would find the same pairs again. */
static int remap(struct grid *g, const uint32_t *src)
{
    const size_t n = g->n;
    uint32_t *inv = g->sort_inv;
    for (size_t k = 0; k < n; k++)
        inv[src[k]] = (uint32_t)k;
    const size_t np = g->start[n];
    while (g->p_cap < np)
        if (grid_grow(&g->pa, &g->pb, &g->p_cap))
            return -1;
    size_t p = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t e = g->start[i]; e < g->start[i + 1]; e++, p++) {
            uint32_t a = inv[i], b = inv[g->nbr[e]];
            g->pa[p] = a < b ? a : b;
            g->pb[p] = a < b ? b : a;
        }
    g->np = np;
    /* The wall list, ascending again: mark, then collect. */
    uint32_t *mark = g->cellof; /* scratch */
    memset(mark, 0, n * sizeof *mark);
    for (size_t w = 0; w < g->nwall; w++)
        mark[inv[g->wall[w]]] = 1;
    size_t nw = 0;
    for (size_t k = 0; k < n; k++)
        if (mark[k])
            g->wall[nw++] = (uint32_t)k;
    return grid_rows(g);
}

int grid_order(struct grid *g, const struct grid_balls *b, uint32_t *src)
{
    /* The cells' order (see cell_key): a ball's neighbours in the row of
     * cells above sit about GRID_STRIP cells ahead in memory, not a whole
     * table's width; only the pairs across a strip's edge are far apart.
     * The cells are made for the positions now with the first skin, not
     * taken from the last build: then the order, and so the order of
     * every sum of forces after it, follows from the positions alone, not
     * from when the list was built or with which skin (a copy of the
     * state, whose grid is new, sorts and steps to the same bits). */
    const size_t n = g->n;
    g->c0 = 2 * g->rsmall + (g->reach > 0 ? g->reach : 0) + g->skin0;
    if (grid_geometry(g, b))
        return -1;
    const size_t nkeys = g->nkeys;
    /* Counting sort of all slots (large ones by their centre's cell):
     * src[k] is the old slot of the ball that goes to slot k. */
    uint32_t *cs = g->cs;
    memset(cs, 0, (nkeys + 1) * sizeof *cs);
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cell_of(g, b->x[i], b->y[i]);
        g->cellof[i] = c;
        cs[c + 1]++;
    }
    for (size_t c = 0; c < nkeys; c++)
        cs[c + 1] += cs[c];
    for (size_t i = 0; i < n; i++)
        src[cs[g->cellof[i]]++] = (uint32_t)i;
    if (g->valid && remap(g, src))
        g->valid = 0;
    g->home_ok = 0; /* the slots moved: the bound alone until the build */
    return 0;
}
