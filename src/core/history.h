/*
 * history.h - stepping back: checkpoints plus exact replay.
 *
 * sim_step is deterministic, so any past state is the nearest checkpoint at
 * or before it, stepped forward again. A checkpoint is taken every `every`
 * steps and at each user change (a kick, a new k or dt, a reset), since a
 * change is not something replay can redo. The checkpoints live in a ring of
 * `cap` copies; the oldest is dropped when it is full, so memory is bounded
 * by cap full states whatever the length of the run.
 *
 * Positions count the steps taken through history_stepped since
 * history_init (not sim->steps, which a reset sets back to 0): they only
 * grow, except that history_back moves one back and forgets the checkpoints
 * after it (a new future starts from there).
 *
 * Pure C11: no I/O, no globals.
 */
#ifndef HISTORY_H
#define HISTORY_H

#include "sim.h"

/// The checkpoint ring. Treat the fields as read-only outside history.c.
struct history {
    struct sim *cp;        ///< cap slots; a slot is allocated on first use
    long long *pos;        ///< position of each slot's state
    int cap;               ///< slots, >= 2
    int first, count;      ///< the ring: oldest slot and slots in use
    long long every;       ///< steps between regular checkpoints, >= 1
    long long now;         ///< position of the caller's current state
    long long high;        ///< the furthest position stepped to
};

/// Starts a history whose position 0 is the state @p s (a change point).
/// @param cap    checkpoints kept, >= 2
/// @param every  steps between checkpoints, >= 1; at least
///               (cap - 1) * every steps can be stepped back while no
///               change intervenes
/// @return 0, or -1 when memory is short (then nothing is left to free).
int history_init(struct history *h, const struct sim *s, int cap, long long every);

/// Frees the checkpoints. Safe on a zeroed struct.
void history_free(struct history *h);

/// Checkpoints a history keeps at most (an int, and the ring's array of
/// struct sim allocated at once stays within the budget's reach).
#define HISTORY_CAP_MAX (1 << 22)
/// Ball-steps a step back replays at most, about (see history_size).
#define HISTORY_REPLAY 1024

/// Bytes a checkpoint of @p n balls takes, about (its arrays, the
/// allocator's alignment and headers, its slot in the ring).
size_t history_per(size_t n);

/// Picks cap and every for a state of @p n balls: as many checkpoints as
/// @p budget bytes hold (history_per each), every so that a step back
/// replays about HISTORY_REPLAY ball-steps at most (2 balls: every 512),
/// and at least @p depth steps can be undone whatever the budget.
void history_size(size_t n, size_t budget, long long depth, int *cap,
                  long long *every);

/// Steps the history holds: from its oldest checkpoint to the furthest
/// position stepped to.
long long history_reach(const struct history *h);

/// 1 when the ring has dropped its oldest checkpoint (a step back cannot
/// reach the history's start), else 0.
int history_full(const struct history *h);

/// Records that @p s has just taken one sim_step from the current state.
/// @return 0, or -1 when a checkpoint could not be allocated (the history
/// then reaches less far back, but stays exact).
int history_stepped(struct history *h, const struct sim *s);

/// Records a user change: @p s (the state after the change) becomes a
/// checkpoint at the current position, replacing one already there.
/// @return 0, or -1 when memory is short.
int history_changed(struct history *h, const struct sim *s);

/// Steps @p s one step back: restores the latest checkpoint before the
/// current position and replays up to it.
/// @return 0, or -1 when the history reaches no further back (s unchanged),
/// or -2 when a replayed step failed (out of memory for the grid): s then
/// holds the state of an earlier position, which is where the history stands.
int history_back(struct history *h, struct sim *s);

/// How many steps history_back can still undo.
long long history_depth(const struct history *h);

#endif
