/*
 * grid.h - the broad phase: a uniform grid of cells (a cell list) that
 * builds a Verlet neighbour list, so that finding every ball-ball contact
 * costs O(N) instead of the O(N^2) pair loop.
 *
 * Pure C11 and libm, like sim, and independent of it: the grid takes
 * positions, radii and the table as arrays (struct grid_balls), and gives
 * back pairs of slots and a cell order; it holds no physics and knows no
 * simulation. The caller owns the arrays, applies any order to them, and
 * keeps whatever scratch its sweeps need.
 *
 * The list holds every pair i < j whose centres are closer than
 * r_i + r_j + reach + skin at the time it is built. Between builds each ball
 * moves at most `travel` (a bound the caller feeds in from the velocities);
 * while travel <= skin / 2, no pair closer than r_i + r_j + reach can be
 * missing. When the bound passes that, the grid measures how far the balls
 * really went from where the build saw them, and keeps the list while that
 * is inside. Each build chooses its skin from how fast the last list went
 * stale and how many pairs it held (a cost model, GRID_COST_*): about 0.3
 * diameters where balls move little a step, more where they move far (the
 * default k and dt), so that a list lasts several steps. No force depends
 * on the skin: the list always holds every pair in contact. Rows are sorted: row i holds the slots j > i in ascending order,
 * so that a force loop over the list adds the same terms in the same order
 * as the O(N^2) loop (for i, for j > i) and gives the same bits.
 *
 * Balls much larger than the rest (more than GRID_LARGE times the median
 * radius) are kept out of the cells, which are sized for the small ones;
 * each large ball scans the cells its reach covers. That costs the area it
 * covers, so one big ball among many small ones stays O(N).
 */
#ifndef GRID_H
#define GRID_H

#include <stddef.h>
#include <stdint.h>

/// A ball is large when its radius exceeds this many times the median.
#define GRID_LARGE 4.0

/// The first build's skin as a fraction of the small balls' diameter (0.3
/// for r = 1, as the LAMMPS benchmark's neighbour skin); later builds
/// choose theirs between a quarter of it and 8 times it.
#ifndef GRID_SKIN
#define GRID_SKIN 0.15
#endif

/// The cost model that chooses each build's skin (grid.c, choose_skin), in
/// units of about a nanosecond on the machine it was measured on: a build,
/// per ball and per pair listed, and a step's sweep per pair listed. Only
/// their ratios matter.
#ifndef GRID_COST_BUILD
#define GRID_COST_BUILD 30.0
#endif
#ifndef GRID_COST_BPAIR
#define GRID_COST_BPAIR 10.0
#endif
#ifndef GRID_COST_PAIR
#define GRID_COST_PAIR 1.5
#endif

/// Columns of cells per strip of the cell order (see grid_order): a power
/// of 2, so that a cell's number needs no division.
#ifndef GRID_STRIP
#define GRID_STRIP 16
#endif
#if GRID_STRIP < 1 || (GRID_STRIP & (GRID_STRIP - 1)) != 0
#error "GRID_STRIP must be a power of 2"
#endif

/// Slots per block of a sweep (see grid_pairs.block_end).
#ifndef GRID_BLOCK
#define GRID_BLOCK 64
#endif

/// What grid_new refuses (its *err).
enum grid_error {
    GRID_OK = 0,
    GRID_ENOMEM = -1, ///< memory is short
    GRID_ESIZE = -2,  ///< no balls, too many, or a radius that is not finite
                      ///< and > 0 (points have no cell size: no grid for them)
};

/// The balls a grid reads, given again at every call: slot i is the disc
/// of radius r[i] at (x[i], y[i]). The radii are the ones grid_new saw (up
/// to the order of grid_order). [0, w] x [0, h] is the table: its cells
/// cover it (centres off it share the border cells), and the balls near its
/// walls are listed (grid_pairs.wall).
struct grid_balls {
    const double *x, *y, *r;
    double w, h;
};

/// The neighbour list in compressed rows: the slots paired with slot i
/// (all > i, ascending) are nbr[start[i]] .. nbr[start[i + 1] - 1].
struct grid_pairs {
    size_t n;              ///< number of slots (balls)
    const uint32_t *start; ///< n + 1 row starts
    const uint32_t *nbr;   ///< start[n] entries
    /// The row of each entry: pi[e] = i for start[i] <= e < start[i + 1],
    /// so that a sweep can run over the pairs (pi[e], nbr[e]) in one flat
    /// loop, without a loop per row whose length varies from ball to ball.
    const uint32_t *pi;
    /// Per block b of GRID_BLOCK slots: every slot its rows (and all rows
    /// before) name is < block_end[b]; >= the block's own end; ascending.
    const uint32_t *block_end;
    /// The largest block_end[b] - b * GRID_BLOCK: how many slots a sweep
    /// that finishes a block at a time keeps open at once (>= GRID_BLOCK).
    size_t window;
    /// The slots, ascending, whose disc grown by the skin reaches past a
    /// wall of [0, w] x [0, h]: before the next build, no other ball does.
    const uint32_t *wall;
    size_t nwall;
};

/// What one build found, for benchmarks and tests.
struct grid_stats {
    double reach;   ///< as given to grid_new
    double skin;    ///< the last build's skin (see grid_update)
    double cell;    ///< cell side
    long nx, ny;    ///< cells per row and column
    size_t nlarge;  ///< balls handled outside the cells
    long builds;    ///< neighbour list builds so far
    size_t pairs;   ///< pairs in the list
    size_t pair_cap; ///< entries the candidate arrays hold (their memory)
};

/// Makes a grid for @p n balls of radii @p r (which fix its cells) that
/// finds pairs up to a gap of @p reach >= 0 beyond touching.
/// @return the grid, or NULL with *err (when err is not NULL) set to
/// GRID_ENOMEM or GRID_ESIZE.
struct grid *grid_new(size_t n, const double *r, double reach, int *err);

/// Makes @p dst (a grid for the same balls and reach) hold the list of
/// @p src and its bound on travel, as if it had made that list itself: a
/// copy of the balls then needs no build of its own (copying is some ten
/// times cheaper). @return 0, or -1 (dst then invalid: its next update
/// builds) when they differ, src is invalid, or memory is short.
int grid_copy(struct grid *dst, const struct grid *src);

/// Frees the grid. Safe on NULL.
void grid_free(struct grid *g);

/// Adds @p dist to the bound on how far any ball moved since the build.
void grid_moved(struct grid *g, double dist);

/// Makes the list valid for the balls @p b, rebuilding it when it is stale
/// or balls may have moved more than skin / 2.
/// @return 0, or -1 when memory is short (then the list is invalid).
int grid_update(struct grid *g, const struct grid_balls *b);

/// Runs part(arg, k) for every k in 0 .. nparts - 1, each once, at once or
/// one after the other in any order, and returns when all have returned:
/// threads lent by the caller (the grid makes none; sim.h's struct
/// sim_threads is one).
typedef void grid_run_fn(void *ctx, int nparts, void (*part)(void *arg, int k), void *arg);

/// The most parts a build's search is split into.
#define GRID_PARTS_MAX 256
/// The most parts a build's sort into rows is split into.
#define GRID_ROWS_MAX 64
/// The most parts whose binning of the balls into cells each counts its
/// own cells (a count a cell a part); with more, the count and the placing
/// of the balls run in one thread (the rest of the binning in parts).
#define GRID_HIST_MAX 4

/// grid_update, a build's search for close pairs split over @p run
/// (NULL: one thread) in up to @p nthreads parts by strips of cells: the
/// same list, entry for entry.
int grid_update_par(struct grid *g, const struct grid_balls *b, grid_run_fn *run, void *ctx,
                    int nthreads);

/// The current list (valid after a successful grid_update).
struct grid_pairs grid_pairs(const struct grid *g);

/// Statistics of the grid.
struct grid_stats grid_stats(const struct grid *g);

/// The cell order of the balls @p b: src[k] = the slot whose ball goes to
/// slot k (src holds n entries), in strips of GRID_STRIP columns of cells,
/// each strip row by row, so that neighbours come near each other; ties
/// keep their order. The caller must then move every per-ball array it
/// keeps by src (new[k] = old[src[k]]) before the next call: a valid list
/// already follows the balls to their new slots (the same pairs, renamed
/// and in rows again, without a build); else it stays invalid.
/// @return 0, or -1 when memory is short (then src means nothing and the
/// grid is as it was).
int grid_order(struct grid *g, const struct grid_balls *b, uint32_t *src);

#endif
