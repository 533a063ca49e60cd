/*
 * grid_impl.h - the broad phase's insides (private to grid.c and
 * grid_build.c): the grid's fields, a thread's buffers of a build, the
 * cell numbering, and what the two files give each other.
 */
#ifndef GRID_IMPL_H
#define GRID_IMPL_H

#include "grid.h"

#include <stddef.h>
#include <stdint.h>

/* One thread's buffer of a build's candidate pairs (see build): the
 * close pairs found. */
struct cands {
    uint32_t *pa, *pb;  /* candidate pairs (either way), cap p_cap */
    size_t np, p_cap;
};

struct grid {
    size_t n;           /* balls the grid is made for */
    double reach;       /* interaction range beyond touching, >= 0 */
    double skin;        /* extra range of the list, > 0: chosen at each build
                           (see choose_skin) */
    double skin0;       /* the first build's skin: GRID_SKIN diameters */
    double cut;         /* reach + skin */
    double rlarge;      /* a ball with r > rlarge is large */
    double rsmall;      /* the largest radius of a small ball */
    double c0;          /* the smallest cell side: 2 rsmall + cut */
    double c;           /* cell side, >= c0 (see geometry) */
    double x0, y0;      /* where cell (0, 0) begins */
    long nx, ny;        /* cells per row, per column */
    size_t cs_cap;      /* entries cs holds */
    int any_large;      /* some ball is large (radii never change) */
    int valid;          /* the list matches the positions (up to travel) */
    double travel;      /* bound on any ball's displacement since the build */
    double last_move;   /* the last grid_moved's dist */
    long moves;         /* grid_moved calls since the build */
    double *home;       /* 2n: each slot's x, y at the build (its travel is
                           measured against them), cap home_ok */
    int home_ok;        /* home holds this build's positions in these slots */
    long builds;
    size_t strip;       /* columns per strip, a power of 2: GRID_STRIP, or
                           less for a narrow table (see grid_new) */
    unsigned strip_shift; /* strip == 1 << strip_shift */
    size_t nkeys;       /* cell numbers: strips of `strip` columns */
    uint32_t *cs;       /* nkeys + 2: cell c holds cell_ball[cs[c+1]..cs[c+2]) */
    uint32_t *cell_ball;/* n + GRID_PAD: small balls by cell (the pad is
                           read by gather's fixed-size copies, never used) */
    struct cands *other;/* the other parts' when a build has parts (part
                           k's in other[k - 1]), nother of them */
    int nother;
    int same_r;         /* every ball has radius r0 (radii never change) */
    double r0;
    double *pxy;        /* the small balls' x, y in the cell order (as
                           cell_ball), side by side, padded by GRID_PAD */
    double *pr;         /* their radii when radii differ, padded */
    unsigned char *kcol;/* their cells' columns within a strip, padded */
    uint32_t *cellof;   /* n: cell of each slot (UINT32_MAX: large); scratch */
    uint32_t *large;    /* nlarge: large slots */
    size_t nlarge;
    uint32_t *start;    /* n + 1 row starts */
    uint32_t *nbr;      /* row entries, cap nbr_cap */
    size_t nbr_cap;
    uint32_t *pa, *pb;  /* candidate pairs (either way), cap p_cap; after rows(),
                           pa holds the row of each list entry (grid_pairs.pi) */
    size_t np, p_cap;
    uint32_t *t;        /* scratch of rows(): a sort's other half, cap t_cap */
    size_t t_cap;
    uint32_t *block_end;/* per GRID_BLOCK slots: see grid_pairs */
    uint32_t *wall;     /* slots near a wall, cap wall_cap */
    size_t nwall, wall_cap;
    size_t window;      /* see grid_pairs.window */
    uint32_t *sort_inv; /* n: the new slot of each old one, in grid_order */
    uint32_t *rcnt;     /* rows in parts (rows_par): GRID_ROWS_MAX^2 counts */
    uint32_t *bmax;     /* rows in parts: each block's reach, nblock */
    unsigned char *brange; /* rows in parts: each block's range, nblock */
    uint32_t *rscr[GRID_ROWS_MAX]; /* rows in parts: each range's counts, */
    size_t rscr_cap[GRID_ROWS_MAX]; /* their caps */
    uint32_t *hist[GRID_HIST_MAX]; /* a build's binning in parts (cells_par):
                                      part k's count of each cell, then
                                      where its next ball goes */
    size_t hist_cap[GRID_HIST_MAX];
};


#define NO_CELL UINT32_MAX

/* A build in parts (see slots_part) when the cell numbers are below
 * LARGE_CELL (cells are about 2n + 64): a number's top bit then marks a
 * ball near a wall, and LARGE_CELL a large ball. */
#define WALL_BIT 0x80000000u
#define LARGE_CELL 0x7fffffffu

/* Entries past n that the cell order's arrays hold (read, never used, by
 * span_test's tests without a branch on their count). */
#define GRID_PAD 8

/* Clamps q into [lo, hi] (NaN gives lo). */
static inline double clamp(double q, double lo, double hi)
{
    q = q > lo ? q : lo;
    return q < hi ? q : hi;
}

/* The cell coordinate of q along an axis of @p cells cells: clamped, so
 * that balls off the table share the border cells (clamping never moves
 * two coordinates apart, so neighbours stay neighbours); NaN gives 0. */
static inline long cell_coord(double q, double c, long cells)
{
    return (long)clamp(q / c, 0, (double)(cells - 1));
}

/* The number of cell (cx, cy): strip by strip of GRID_STRIP columns, each
 * strip row by row, so that the cells a ball's stencil reaches are near it
 * in this order (see grid_order). */
static inline size_t cell_key(const struct grid *g, size_t cx, size_t cy)
{
    return (((cx >> g->strip_shift) * (size_t)g->ny + cy) << g->strip_shift) +
           (cx & (g->strip - 1));
}

static inline uint32_t cell_of(const struct grid *g, double x, double y)
{
    return (uint32_t)cell_key(g, (size_t)cell_coord(x - g->x0, g->c, g->nx),
                              (size_t)cell_coord(y - g->y0, g->c, g->ny));
}

/// Doubles the capacity of @p a (and @p b beside it, unless NULL).
/// @return 0, or -1 when memory is short (then what grew stays grown).
int grid_grow(uint32_t **a, uint32_t **b, size_t *cap);

/* The box of the small balls' centres among the slots i0 .. i1 - 1, and
 * how many are off the table (see grid_geometry): parts' boxes join by
 * their least and largest, in any order. */
struct grid_box {
    double x0, x1, y0, y1;
    size_t off;
};
void grid_box(const struct grid *g, const struct grid_balls *b, size_t i0, size_t i1,
              struct grid_box *bx);

/// The cells for the balls @p b (see grid.c). @return 0, or -1 when
/// memory is short (the grid keeps its old cells).
int grid_geometry(struct grid *g, const struct grid_balls *b);

/// grid_geometry from the box @p bx of all the balls.
int grid_geometry_box(struct grid *g, const struct grid_balls *b, const struct grid_box *bx);

/// A build of the list for the balls @p s, its passes in up to
/// @p nthreads parts run by @p run (NULL: one thread) (grid_build.c).
/// @return 0, or -1 when memory is short.
int grid_build(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
               int nthreads);

/// The box of the balls @p s and the cells (grid_geometry), the box in up
/// to @p nthreads parts run by @p run (NULL: one thread) (grid_cells.c).
/// @return 0, or -1 when memory is short.
int grid_box_parts(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
                   int nthreads);

/// Step 1 of a build (grid_cells.c): the small balls of @p s into g's
/// cells (cs, cell_ball, cellof), the balls near a wall and the large
/// ones listed, the cell order's positions (pxy, kcol, and pr when
/// @p need_r) and home, in up to @p nthreads parts run by @p run.
/// @return 0, or -1 when memory is short.
int grid_bin(struct grid *g, const struct grid_balls *s, grid_run_fn *run, void *ctx,
             int nthreads, int need_r);

/// Steps 3 and 4 of a build, from the pairs pa, pb (grid_build.c).
int grid_rows(struct grid *g);

#endif
