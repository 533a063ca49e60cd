/*
 * session_scene.h - the session's state as a scene (what w saves): the
 * parameters and the balls in scene order, as the run stores them, so that
 * the scene written reloads to the state bit for bit. Core: no I/O.
 */
#ifndef SESSION_SCENE_H
#define SESSION_SCENE_H

#include "scene_data.h"
#include "session.h"

#include <stddef.h>
#include <stdint.h>

/// Which state session_scene takes.
enum session_scene_when {
    SESSION_SCENE_NOW = 0,   ///< the state now (at t = 0, the set-up)
    SESSION_SCENE_START = 1, ///< the state reset returns to: the scene with
                             ///< the edits made at its start
};

/// Fills @p sc (which it initialises) with the session's state @p when:
/// its parameters (sc->p), its balls in scene order with the stored
/// positions and velocities, masses and radii, the table as the view, no
/// title and no names. Scene ball @p skip is left out ((size_t)-1: none;
/// a front end's pusher). Each ball's colour is @p color(arg, its tag)
/// (SCENE_COLOR_NONE when @p color is NULL). sc->cue is scene ball @p cue
/// numbered among the balls kept (1-based), 0 when @p cue is @p skip or
/// no ball. Free sc->balls with free() (or scene_free).
/// @return 0, or -1 when memory is short (sc empty, nothing to free).
int session_scene(const struct session *ss, int when, size_t skip, size_t cue,
                  uint32_t (*color)(void *arg, uint32_t tag), void *arg,
                  struct scene *sc);

#endif
