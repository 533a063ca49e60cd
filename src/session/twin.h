/*
 * twin.h - the same scene in both engines, time-locked: the split view's
 * model ("s" key).
 *
 * Pure C11 and libm. A twin holds the spring engine's state (stepped by
 * its owner: sim_step, a step back through the history, a kick) and an
 * event engine built from the state the twin started from. twin_sync
 * brings the event engine to the spring engine's time exactly (ev.t ==
 * spring->t, the same double): forward by event_advance, backward by
 * rebuilding it from the start and advancing again (exact, deterministic,
 * and cheap for a classroom scene). The event engine's state is written
 * into twin.hard for drawing and for the lab's panels.
 *
 * Hard balls and springs differ where the contact time matters: the
 * cradle passes its momentum down the chain in the event engine, and the
 * springs share it out; the break's rack opens symmetrically in one and not
 * in the other.
 */
#ifndef TWIN_H
#define TWIN_H

#include "event.h"
#include "sim.h"

/// Both engines on one scene.
struct twin {
    struct sim start;  ///< the state both began from (rebuilds start here)
    struct sim hard;   ///< the event engine's state at its time (written back)
    struct event ev;   ///< the event engine; valid when ok
    int ok;            ///< 1: the event engine runs this scene
    const char *why;   ///< when not: why ("gravity", "open space", "contact exp",
                       ///< "out of memory")
    long long rebuilds;///< times the event engine was rebuilt to go back
};

/// Starts a twin on the state @p s (copied). When the event engine cannot
/// run it, ok is 0 and why says why; the twin is still valid to free.
/// @return 0, or -1 when memory is short (nothing left to free).
int twin_init(struct twin *tw, const struct sim *s);

/// Frees the twin. Safe on a zeroed struct.
void twin_free(struct twin *tw);

/// Brings the event engine to time @p t (the spring engine's s->t):
/// forward from where it is, or rebuilt from the start when t is earlier.
/// Writes the state into tw->hard (hard.t == t afterwards).
/// @param max_events a budget of events for this call (<= 0: none); when
///   it runs out the engine stops short and the call returns 0.
/// @return 1 when the time reached t, 0 when the budget ran out, -1 when
///   the engine failed (out of memory: ok becomes 0).
int twin_sync(struct twin *tw, double t, long long max_events);

/// Starts again from @p s (a reset, an edit, a new restitution or border):
/// the new start of both.
/// @return 0, or -1 when memory is short (the twin is then not ok).
int twin_restart(struct twin *tw, const struct sim *s);

#endif
