/*
 * event_cells.h - the event engine's grid (see event_cells.c): walking a
 * cell and the window of cells a record looks at inline, linking records
 * into cells, sizing the grid, neighbour lists. Private to the engine.
 */
#ifndef EVENT_CELLS_H
#define EVENT_CELLS_H

#include "event_impl.h"

struct sim;

/// Record @p k into, or out of, the cell its cx, cy name (big balls: none).
void ev_cell_link(struct event_in *ev, size_t k);
void ev_cell_unlink(struct event_in *ev, size_t k);

/// Sizes the grid for the balls of @p s (its cells empty) and writes, for
/// each ball number, the record that holds it (cell order) into @p at.
/// 0, or -1 out of memory.
int ev_grid_size(struct event_in *ev, const struct sim *s, int32_t *at);

/// Every record into its cell, the big ones into ev->big.
void ev_grid_link(struct event_in *ev);

/// Record @p k's neighbour list built anew around where it is now.
void ev_nl_build(struct event_in *ev, size_t k);

/// Every record's neighbour list at init.
void ev_nl_init(struct event_in *ev);

/* The grid has a border of empty cells all round, so that the 3x3 cells
 * around any cell are all there: cell (cx, cy), -1 <= cx <= nx, is at
 * (cy + 1) (nx + 2) + cx + 1. */
static EV_INLINE long cell_at(const struct event_in *ev, long cx, long cy)
{
    return (cy + 1) * (ev->nx + 2) + cx + 1;
}

/* The balls of cell c, one per call, -1 after the last:
 *     for (int32_t it = 0, j; (j = cell_step(ev, c, &it)) >= 0;)
 * (it: the next place in the cell, or -2 - the last ball of its list). */
static EV_INLINE int32_t cell_step(const struct event_in *ev, long c, int32_t *it)
{
    const struct event_cell *cl = &ev->cell[c];
    int32_t i = *it, j;
    if (i >= 0 && i < cl->n && i < EV_CELL_CAP) {
        *it = i + 1;
        return cl->j[i];
    }
    if (i >= 0)
        j = cl->n > EV_CELL_CAP ? ev->more[c] : -1;
    else
        j = ev->b[-2 - i].next;
    *it = -2 - j;
    return j;
}

/* The cells record k must look at: its own and reach[k] on every side,
 * clipped to the grid. */
static inline void cell_window(const struct event_in *ev, size_t k, long *x0, long *x1,
                               long *y0, long *y1)
{
    long reach = ev->q[k].reach;
    *x0 = ev->q[k].cx - reach > 0 ? ev->q[k].cx - reach : 0;
    *y0 = ev->q[k].cy - reach > 0 ? ev->q[k].cy - reach : 0;
    *x1 = ev->q[k].cx + reach < ev->nx ? ev->q[k].cx + reach : ev->nx - 1;
    *y1 = ev->q[k].cy + reach < ev->ny ? ev->q[k].cy + reach : ev->ny - 1;
}

#endif
