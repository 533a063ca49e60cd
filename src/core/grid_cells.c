/*
 * grid_cells.c - step 1 of a build of the neighbour list (see
 * grid_build.c): the box of the balls and the cells, then the balls into
 * cells by a counting sort stable by slot, with the balls near a wall,
 * the large ones, and the cell order's positions; each pass in parts on
 * the threads a caller lends, the same cells and order.
 */
#include "grid_impl.h"
#include "mem.h"

#include <stdlib.h>
#include <string.h>

/* Whether the disc of radius r at (x, y), grown by @p margin, reaches past
 * a wall of [0, w] x [0, h]. */
static int wall_near(const struct grid_balls *b, size_t i, double margin)
{
    double r = b->r[i] + margin, x = b->x[i], y = b->y[i];
    /* | not ||: no branch (NaN compares false either way) */
    return (r - x > 0) | (x + r - b->w > 0) | (r - y > 0) | (y + r - b->h > 0);
}

/* A build's step 1 in parts (see build): the cells of the slots
 * [n k / np, n (k + 1) / np), WALL_BIT on those near a wall, LARGE_CELL
 * for a large ball, and their positions into home. */
struct slots_job {
    struct grid *g;
    const struct grid_balls *s;
    double *home;
    int np;
};

static void slots_part(void *arg, int k)
{
    const struct slots_job *jb = arg;
    struct grid *g = jb->g;
    const struct grid_balls *s = jb->s;
    const size_t n = g->n;
    const size_t i0 = (size_t)((double)n * k / jb->np), i1 = (size_t)((double)n * (k + 1) / jb->np);
    for (size_t i = i0; i < i1; i++) {
        uint32_t c = s->r[i] > g->rlarge ? LARGE_CELL : cell_of(g, s->x[i], s->y[i]);
        g->cellof[i] = c | (wall_near(s, i, g->skin) ? WALL_BIT : 0);
    }
    if (jb->home)
        for (size_t i = i0; i < i1; i++) {
            jb->home[2 * i] = s->x[i];
            jb->home[2 * i + 1] = s->y[i];
        }
}

/*
 * A build's step 1 in 2 .. GRID_HIST_MAX parts, each a run of slots, to
 * the same cell order as one thread's (stable by slot): part k bins its
 * slots as slots_part does and counts them into its own count of each
 * cell, and of each range of cells (cells_count); then the cells' starts
 * and each part's place in each cell (its balls after the parts before
 * it), a range of cells a part from the ranges' starts (cells_first); then
 * each part places its balls (cells_place), its balls near a wall and
 * its large ones after the parts before it. The one-thread count, sums
 * and placing (38 instructions a ball on a list built at every step) no
 * longer wait for the parts.
 */
#define CELLS_RANGES (2 * GRID_HIST_MAX) /* the most ranges of cells */
struct cells_job {
    struct grid *g;
    const struct grid_balls *s;
    double *home;
    int np;
    size_t nw[GRID_HIST_MAX], nl[GRID_HIST_MAX]; /* walls, large: counts, then places */
    unsigned shift;  /* cell c is in range c >> shift */
    int nrange;
    uint32_t tot[GRID_HIST_MAX][CELLS_RANGES]; /* part k's balls in range r */
    uint32_t first[CELLS_RANGES]; /* range r's first place */
};

static void cells_count(void *arg, int k)
{
    struct cells_job *jb = arg;
    struct grid *g = jb->g;
    const struct grid_balls *s = jb->s;
    const size_t n = g->n;
    const size_t i0 = (size_t)((double)n * k / jb->np), i1 = (size_t)((double)n * (k + 1) / jb->np);
    uint32_t *restrict h = g->hist[k], *restrict cellof = g->cellof;
    uint32_t *restrict tot = jb->tot[k];
    const unsigned shift = jb->shift;
    memset(h, 0, g->nkeys * sizeof *h);
    memset(tot, 0, sizeof jb->tot[k]);
    size_t nw = 0, nl = 0;
    for (size_t i = i0; i < i1; i++) {
        const int wall = wall_near(s, i, g->skin);
        nw += (size_t)wall;
        if (s->r[i] > g->rlarge) {
            cellof[i] = LARGE_CELL | (wall ? WALL_BIT : 0);
            nl++;
            continue;
        }
        const uint32_t c = cell_of(g, s->x[i], s->y[i]);
        cellof[i] = c | (wall ? WALL_BIT : 0);
        h[c]++;
        tot[c >> shift]++;
    }
    jb->nw[k] = nw;
    jb->nl[k] = nl;
    if (jb->home)
        for (size_t i = i0; i < i1; i++) {
            jb->home[2 * i] = s->x[i];
            jb->home[2 * i + 1] = s->y[i];
        }
}

static void cells_place(void *arg, int k)
{
    struct cells_job *jb = arg;
    struct grid *g = jb->g;
    const size_t n = g->n;
    const size_t i0 = (size_t)((double)n * k / jb->np), i1 = (size_t)((double)n * (k + 1) / jb->np);
    uint32_t *restrict h = g->hist[k], *restrict cellof = g->cellof;
    uint32_t *restrict cell_ball = g->cell_ball;
    size_t w = jb->nw[k], l = jb->nl[k];
    for (size_t i = i0; i < i1; i++) {
        uint32_t c = cellof[i];
        if (c & WALL_BIT) {
            g->wall[w++] = (uint32_t)i;
            c &= ~WALL_BIT;
            cellof[i] = c;
        }
        if (c == LARGE_CELL) {
            cellof[i] = NO_CELL;
            g->large[l++] = (uint32_t)i;
            continue;
        }
        cell_ball[h[c]++] = (uint32_t)i;
    }
}

/* The cells' starts and the parts' places in them over range r of cells
 * (its first place known): cell c's balls from cs[c + 1], part k's first
 * in hist[k][c]. */
static void cells_first(void *arg, int r)
{
    struct cells_job *jb = arg;
    struct grid *g = jb->g;
    const size_t ncell = g->nkeys;
    const size_t c0 = (size_t)r << jb->shift;
    const size_t c1 = ((size_t)(r + 1) << jb->shift) < ncell ? (size_t)(r + 1) << jb->shift : ncell;
    uint32_t *restrict cs = g->cs;
    uint32_t at = jb->first[r];
    if (jb->np == 2) {
        uint32_t *restrict h0 = g->hist[0], *restrict h1 = g->hist[1];
        for (size_t c = c0; c < c1; c++) {
            const uint32_t a = h0[c], b = h1[c];
            cs[c + 1] = at;
            h0[c] = at;
            h1[c] = at + a;
            at += a + b;
        }
    } else {
        for (size_t c = c0; c < c1; c++) {
            cs[c + 1] = at;
            for (int k = 0; k < jb->np; k++) {
                const uint32_t a = g->hist[k][c];
                g->hist[k][c] = at;
                at += a;
            }
        }
    }
}

/* Step 1 in @p np parts (see cells_job), into cs (cell c's balls from
 * cs[c + 1], as grid_build leaves it). @return 0; 1 when it cannot (no
 * memory for the counts: nothing changed, bin in one thread); -1 when
 * memory is short for the list of balls near a wall. */
static int cells_par(struct grid *g, const struct grid_balls *s, double *home, grid_run_fn *run,
                     void *ctx, int np)
{
    const size_t ncell = g->nkeys;
    for (int k = 0; k < np; k++)
        if (g->hist_cap[k] < ncell) {
            uint32_t *h = mem_realloc(g->hist[k], ncell * sizeof *h);
            if (!h)
                return 1;
            g->hist[k] = h;
            g->hist_cap[k] = ncell;
        }
    struct cells_job jb;
    jb.g = g;
    jb.s = s;
    jb.home = home;
    jb.np = np;
    /* ranges of 2^shift cells, at most CELLS_RANGES of them: the cells'
     * starts in parts too */
    jb.shift = 0;
    while ((ncell - 1) >> jb.shift >= (size_t)np)
        jb.shift++;
    jb.nrange = (int)(((ncell - 1) >> jb.shift) + 1);
    run(ctx, np, cells_count, &jb);
    size_t nw = 0, nl = 0;
    for (int k = 0; k < np; k++) {
        size_t a = jb.nw[k], b = jb.nl[k];
        jb.nw[k] = nw;
        jb.nl[k] = nl;
        nw += a;
        nl += b;
    }
    while (g->wall_cap < nw)
        if (grid_grow(&g->wall, NULL, &g->wall_cap))
            return -1;
    g->nwall = nw;
    g->nlarge = nl; /* radii never change: large holds them */
    uint32_t at = 0;
    for (int r = 0; r < jb.nrange; r++) {
        jb.first[r] = at;
        for (int k = 0; k < np; k++)
            at += jb.tot[k][r];
    }
    g->cs[0] = 0;
    g->cs[ncell + 1] = at;
    run(ctx, jb.nrange, cells_first, &jb);
    run(ctx, np, cells_place, &jb);
    return 0;
}

/* The box of the balls in parts (see grid_box), then the cells. */
struct box_job {
    const struct grid *g;
    const struct grid_balls *s;
    int np;
    struct grid_box bx[GRID_PARTS_MAX];
};

static void box_part(void *arg, int k)
{
    struct box_job *jb = arg;
    const size_t n = jb->g->n;
    grid_box(jb->g, jb->s, n * (size_t)k / (size_t)jb->np, n * (size_t)(k + 1) / (size_t)jb->np,
             &jb->bx[k]);
}

int grid_box_parts(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
                   int nthreads)
{
    int np = run && nthreads >= 2 && g->n >= (size_t)nthreads * 1024 ? nthreads : 1;
    if (np > GRID_PARTS_MAX)
        np = GRID_PARTS_MAX;
    if (np < 2)
        return grid_geometry(g, s);
    struct box_job jb;
    jb.g = g;
    jb.s = s;
    jb.np = np;
    run(ctx, np, box_part, &jb);
    struct grid_box all = jb.bx[0];
    for (int k = 1; k < np; k++) {
        const struct grid_box *b = &jb.bx[k];
        all.x0 = b->x0 < all.x0 ? b->x0 : all.x0;
        all.x1 = b->x1 > all.x1 ? b->x1 : all.x1;
        all.y0 = b->y0 < all.y0 ? b->y0 : all.y0;
        all.y1 = b->y1 > all.y1 ? b->y1 : all.y1;
        all.off += b->off;
    }
    return grid_geometry_box(g, s, &all);
}

/* A build's cell order in parts (see step 1): the positions (and radii)
 * of the small balls k in [m k / np, m (k + 1) / np) of cell_ball (m of
 * them), and their cells' columns. */
struct fill_job {
    struct grid *g;
    const struct grid_balls *s;
    size_t m;
    int np, need_r;
};

static void fill_part(void *arg, int k)
{
    const struct fill_job *jb = arg;
    struct grid *g = jb->g;
    const struct grid_balls *s = jb->s;
    const size_t k0 = jb->m * (size_t)k / (size_t)jb->np;
    const size_t k1 = jb->m * (size_t)(k + 1) / (size_t)jb->np;
    const uint32_t *restrict ball = g->cell_ball, *restrict cellof = g->cellof;
    double *restrict pxy = g->pxy;
    unsigned char *restrict kcol = g->kcol;
    const uint32_t cmask = (uint32_t)g->strip - 1;
    for (size_t q = k0; q < k1; q++) {
        const uint32_t i = ball[q];
        kcol[q] = (unsigned char)(cellof[i] & cmask);
        pxy[2 * q] = s->x[i];
        pxy[2 * q + 1] = s->y[i];
    }
    if (jb->need_r)
        for (size_t q = k0; q < k1; q++)
            g->pr[q] = s->r[ball[q]];
}

/* Step 1 with the count and the placing in one thread (the binning and
 * the positions in @p np parts when np >= 2), into cs as cells_par.
 * @return 0, or -1 when memory is short. */
static int cells_one(struct grid *g, const struct grid_balls *s, double *home, grid_run_fn *run,
                     void *ctx, int np, int need_r)
{
    const size_t n = g->n, ncell = g->nkeys;
    uint32_t *cs = g->cs;
    memset(cs, 0, (ncell + 2) * sizeof *cs);
    if (np >= 2) {
        struct slots_job jb = {g, s, home, np};
        run(ctx, np, slots_part, &jb);
        for (size_t i = 0; i < n; i++) {
            uint32_t c = g->cellof[i];
            if (c & WALL_BIT) {
                if (g->nwall == g->wall_cap && grid_grow(&g->wall, NULL, &g->wall_cap))
                    return -1;
                g->wall[g->nwall++] = (uint32_t)i;
                c &= ~WALL_BIT;
                g->cellof[i] = c;
            }
            if (c == LARGE_CELL) {
                g->cellof[i] = NO_CELL;
                g->large[g->nlarge++] = (uint32_t)i;
                continue;
            }
            cs[c + 2]++;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            if (wall_near(s, i, g->skin)) {
                if (g->nwall == g->wall_cap && grid_grow(&g->wall, NULL, &g->wall_cap))
                    return -1;
                g->wall[g->nwall++] = (uint32_t)i;
            }
            if (s->r[i] > g->rlarge) {
                g->cellof[i] = NO_CELL;
                g->large[g->nlarge++] = (uint32_t)i;
                continue;
            }
            uint32_t c = cell_of(g, s->x[i], s->y[i]);
            g->cellof[i] = c;
            cs[c + 2]++;
        }
    }
    if (home) {
        if (np < 2)
            for (size_t i = 0; i < n; i++) {
                home[2 * i] = s->x[i];
                home[2 * i + 1] = s->y[i];
            }
        g->home_ok = 1;
    }
    for (size_t c = 0; c < ncell; c++)
        cs[c + 2] += cs[c + 1];
    /* Now cs[c + 1] is where cell c begins; filling by cs[c + 1]++
     * leaves cs[c + 1] at its end, which is where cell c + 1 begins. */
    if (np >= 2) {
        /* the cell order's positions in parts, after (see fill_part) */
        for (size_t i = 0; i < n; i++) {
            uint32_t c = g->cellof[i];
            if (c != NO_CELL)
                g->cell_ball[cs[c + 1]++] = (uint32_t)i;
        }
        struct fill_job jb = {g, s, cs[ncell + 1], np, need_r};
        run(ctx, np, fill_part, &jb);
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t c = g->cellof[i];
            if (c != NO_CELL) {
                uint32_t k = cs[c + 1]++;
                g->cell_ball[k] = (uint32_t)i;
                g->kcol[k] = (unsigned char)(c & (g->strip - 1));
                g->pxy[2 * k] = s->x[i];
                g->pxy[2 * k + 1] = s->y[i];
                if (need_r)
                    g->pr[k] = s->r[i];
            }
        }
    }
    /* cs[c + 1] = end of c = begin of c + 1: shift the view by one. */
    memmove(cs + 1, cs, (ncell + 1) * sizeof *cs);
    cs[0] = cs[1] = 0;
    return 0;
}

int grid_bin(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
             int nthreads, int need_r)
{
    const size_t n = g->n, ncell = g->nkeys;
    double *home = g->home;
    uint32_t *cs = g->cs;
    /* 1. small balls into cells: counting sort, stable by slot. The
     * balls near a wall are found in the same pass over x, y; with parts
     * on threads, each part takes a run of slots: its cells (the walls'
     * mark in the top bit), and the positions as the build saw them
     * (below); the count and the lists follow in slot order, in parts
     * too up to GRID_HIST_MAX parts (cells_par), else in one thread
     * (cells_one). */
    g->nlarge = 0;
    g->nwall = 0;
    int np = run && nthreads >= 2 && n >= (size_t)nthreads && ncell < LARGE_CELL ? nthreads : 1;
    if (np > GRID_PARTS_MAX)
        np = GRID_PARTS_MAX;
    int binned = 1;
    if (np >= 2 && np <= GRID_HIST_MAX) {
        binned = cells_par(g, s, home, run, ctx, np);
        if (binned < 0)
            return -1;
    }
    if (!binned) {
        if (home)
            g->home_ok = 1;
        struct fill_job jb = {g, s, cs[ncell + 1], np, need_r};
        run(ctx, np, fill_part, &jb);
    } else if (cells_one(g, s, home, run, ctx, np, need_r)) {
        return -1;
    }
    return 0;
}
