/*
 * grid.h - the broad phase: a uniform grid of cells (a cell list) that
 * builds a Verlet neighbour list, so that finding every ball-ball contact
 * costs O(N) instead of the O(N^2) pair loop.
 *
 * Pure C11 and libm, like sim. The grid is a cache: it holds no physics,
 * only which pairs of array slots can interact, and is rebuilt on demand.
 *
 * The list holds every pair i < j whose centres are closer than
 * r_i + r_j + reach + skin at the time it is built. Between builds each ball
 * moves at most `travel` (a bound the caller feeds in from the velocities);
 * while travel <= skin / 2, no pair closer than r_i + r_j + reach can be
 * missing. Rows are sorted: row i holds the slots j > i in ascending order,
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

struct sim;

/// A ball is large when its radius exceeds this many times the median.
#define GRID_LARGE 4.0

/// The skin as a fraction of the small balls' diameter (0.3 for r = 1, as
/// the LAMMPS benchmark's neighbour skin).
#ifndef GRID_SKIN
#define GRID_SKIN 0.15
#endif

/// Columns of cells per strip of the cell order (see grid_sort): a power
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
    /// The slots, ascending, that may touch a wall before the next build
    /// (sim_wall_near with the skin): all others feel no wall force.
    const uint32_t *wall;
    size_t nwall;
    /// Scratch for a sweep: 2 * ring doubles. ring is a power of 2, a
    /// multiple of GRID_BLOCK, and >= block_end[b] - b * GRID_BLOCK for
    /// every block b, so that slot p can keep its force in ring entry
    /// p % ring while its block's window is open.
    double *scratch;
    size_t ring;
    /// When all balls have the same mass (radius), GRID_BLOCK copies of
    /// it, so that a sweep reads no per-ball masses (radii); else NULL.
    /// Known from grid_new on: masses and radii must not change after.
    const double *same_m, *same_r;
};

/// What one build found, for benchmarks and tests.
struct grid_stats {
    double reach;   ///< as given to grid_new
    double cell;    ///< cell side
    long nx, ny;    ///< cells per row and column
    size_t nlarge;  ///< balls handled outside the cells
    long builds;    ///< neighbour list builds so far
    size_t pairs;   ///< pairs in the list
    size_t pair_cap; ///< entries the candidate arrays hold (their memory)
};

/// Makes a grid for the balls of @p s (their number and radii fix its
/// cells) that finds pairs up to a gap of @p reach >= 0 beyond touching.
/// @return the grid, or NULL when memory is short.
struct grid *grid_new(const struct sim *s, double reach);

/// Frees the grid. Safe on NULL.
void grid_free(struct grid *g);

/// Marks the list stale: the next grid_update rebuilds it. Call after
/// moving balls other than by stepping, or after reordering slots.
void grid_invalidate(struct grid *g);

/// Adds @p dist to the bound on how far any ball moved since the build.
void grid_moved(struct grid *g, double dist);

/// Makes the list valid for the current positions of @p s, rebuilding it
/// when it is stale or balls may have moved more than skin / 2.
/// @return 0, or -1 when memory is short (then the list is invalid).
int grid_update(struct grid *g, const struct sim *s);

/// The current list (valid after a successful grid_update).
struct grid_pairs grid_pairs(const struct grid *g);

/// Statistics of the grid.
struct grid_stats grid_stats(const struct grid *g);

/// Reorders the slots of @p s (every per-ball array, id included, but not
/// the scratch fx, fy) in cell
/// order, in strips of GRID_STRIP columns of cells, each strip row by row,
/// so that neighbours sit near each other in memory; ties keep their
/// order. A valid list follows the balls to their new slots (the same pairs,
/// renamed and in rows again, without a build); else it stays invalid.
/// @return 0, or -1 when memory is short (then nothing moved).
int grid_sort(struct grid *g, struct sim *s);

/*
 * A per-pair law: called once for every listed pair i < j that lies within
 * reach (dist < r_i + r_j + reach), in the list's order, with the vector
 * (dx, dy) = x_j - x_i and its length dist (plus SIM_DIST_EPS).
 */
typedef void grid_pair_fn(void *ctx, size_t i, size_t j, double dx, double dy,
                          double dist);

/// Calls @p fn for each pair within reach of the current list (call
/// grid_update first).
void grid_each_pair(const struct grid *g, const struct sim *s,
                    grid_pair_fn *fn, void *ctx);

#endif
