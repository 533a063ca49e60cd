/*
 * scene_gen.h - the scene language's generators: balls made by a rule (a
 * triangle rack, a random gas) rather than given one by one.
 *
 * The parser (scene.c) reads and checks a generator's fields, makes room
 * and words the errors; these functions only make the balls, the same
 * bits on every machine (no libm log or trigonometry in the sampling).
 * Pure C11 and libm: no I/O.
 */
#ifndef SCENE_GEN_H
#define SCENE_GEN_H

#include "scene.h"

#include <stdint.h>

/// Balls in a rack of @p rows rows: 1 + 2 + ... + rows.
#define SCENE_GEN_RACK_BALLS(rows) ((rows) * ((rows) + 1) / 2)

/// Fills @p out with a triangle rack of touching balls at rest: apex at
/// (@p x, @p y), opening toward +x, radius @p r, mass @p m, coloured like
/// a set of pool balls; SCENE_GEN_RACK_BALLS(rows) of them.
void scene_gen_rack(struct scene_ball *out, double x, double y,
                   unsigned long long rows, double r, double m);

/// What a random line asks for.
struct scene_gen_random {
    unsigned long long n;   ///< balls to place
    double r0, r1;          ///< radii uniform in [r0, r1] (r0 == r1: all r0)
    double m;               ///< mass of a ball of radius r0; m (r/r0)^2 for r
    double speed;           ///< each ball's speed, or (maxwell) the rms speed of
                            ///< mass m: temperature kT = m speed^2 / 2 for all
    uint64_t seed;          ///< of the generator (splitmix64)
    int maxwell;            ///< 1: 2-D Maxwell-Boltzmann velocities
};

/// What scene_gen_random returns.
enum {
    SCENE_GEN_OK = 0,
    SCENE_GEN_NOMEM = -1, ///< memory ran short
    SCENE_GEN_FULL = -2,  ///< no room found for the next ball (*placed of them placed)
};

/// Places want->n balls on the table of @p p, wholly on it and overlapping
/// neither the @p before balls already in @p balls nor each other, in
/// balls[before ...] (which has room for before + want->n).
/// @param placed  receives how many were placed (want->n on SCENE_GEN_OK)
/// @return SCENE_GEN_OK, SCENE_GEN_NOMEM or SCENE_GEN_FULL.
int scene_gen_random(struct scene_ball *balls, size_t before,
                    const struct sim_params *p, const struct scene_gen_random *want,
                    unsigned long long *placed);

/// Whether a disc of radius @p r at (@p x, @p y) lies wholly on the table
/// of @p p (rectangle or circle, every side closed).
int scene_gen_on_table(const struct sim_params *p, double x, double y, double r);

/// ln x for a finite x > 0 with the same bits on every IEEE 754 machine
/// (no libm log): what random's Maxwell-Boltzmann sampling uses.
double scene_gen_log(double x);

#endif
