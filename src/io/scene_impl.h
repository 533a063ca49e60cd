/*
 * scene_impl.h - what the scene's reader (scene.c) and writer
 * (scene_write.c) share: the names the format gives colours and sides.
 */
#ifndef SCENE_IMPL_H
#define SCENE_IMPL_H

#include "scene.h"

/// The colour names, by enum value (index 0, no name: the default colour).
extern const char *const scene_color_names[SCENE_COLOR_NAMED + 1];

/// The sides of `open` and `walls`: left, right, bottom, top (enum sim_side's order).
extern const char *const scene_side_names[4];

#endif
