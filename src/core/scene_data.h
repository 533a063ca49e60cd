/*
 * scene_data.h - a scene as data: its balls, colours and parameters
 * (scene.h parses and writes it). No stdio, so that the core may fill
 * one (session_scene).
 */
#ifndef SCENE_DATA_H
#define SCENE_DATA_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/// Ball colour: SCENE_COLOR_NONE, a named colour 1..SCENE_COLOR_NAMED, or
/// SCENE_COLOR_RGB | 0xrrggbb.
#define SCENE_COLOR_NONE 0u
#define SCENE_COLOR_NAMED 7u
#define SCENE_COLOR_RGB 0x1000000u

/// Most balls a scene may hold, all ball, rack and random lines together
/// (a rack of ROWS rows holds ROWS(ROWS+1)/2). The fuzz build lowers it.
#ifndef SCENE_MAX_BALLS
#define SCENE_MAX_BALLS 10000000ull
#endif

/// The file format a scene was read from, and is written back in.
enum scene_format {
    SCENE_FORMAT_NATIVE = 0,    ///< the scene directives described here
    SCENE_FORMAT_UNIVERSE = 1,  ///< the classic NBody universe (universe.h)
    SCENE_FORMAT_PARTICLES = 2, ///< the textbook particle format (particles.h)
    SCENE_FORMAT_LESSON = 3,    ///< a lesson (lesson.h): its scene keeps the format
                                ///< of its own text or file
};

/// One ball as the scene gives it.
struct scene_ball {
    double x, y, vx, vy, m, r;
    uint32_t color;
    uint32_t name; ///< offset of its name in scene.names; 0 is "" (no name)
};

/// The rectangle of the plane the front end shows.
struct scene_view {
    double x0, y0, x1, y1;
};

/// A parsed scene: parameters, an optional title and the balls in order
/// (rack and random already expanded).
struct scene {
    struct sim_params p;
    char *title;              ///< NULL when the scene has none
    size_t n, cap;            ///< balls in use and allocated
    struct scene_ball *balls;
    int format;               ///< enum scene_format it was read in (and is written in)
    char *names;              ///< ball names back to back, each NUL-terminated,
                              ///< starting with "" at offset 0; NULL when none has one
    size_t names_len, names_cap;
    double radius;            ///< universe radius R (view -R..R); 0 in native scenes
    struct scene_view view;   ///< native: the table [0,w]x[0,h]; universe: [-R,R]^2
    size_t cue;               ///< `cue N`: the front end's cue ball N (1-based); 0: none
};

#endif
