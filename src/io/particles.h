/*
 * particles.h - the particle format of the textbook event-driven simulation
 * (Sedgewick and Wayne, Algorithms 4/e, section 6.1, CollisionSystem):
 *
 *     n
 *     rx ry vx vy radius mass r g b      (n rows)
 *
 * in the unit box [0,1]^2, colours as integers 0-255. Blank lines are
 * ignored; anything else after the n rows is an error.
 *
 * particles_parse reads text and returns a struct scene (format
 * SCENE_FORMAT_PARTICLES) or an error with its line; it prints nothing.
 * particles_write is the only function here that does I/O.
 */
#ifndef PARTICLES_H
#define PARTICLES_H

#include "scene.h"
#include "sim.h"

#include <stdio.h>

/// Fraction of the smallest radius the largest spring overlap may reach.
#define PARTICLES_OVERLAP 0.01
/// Time steps per shortest contact.
#define PARTICLES_STEPS 20

/// 1 when @p text looks like the particle format: its first line is a single
/// whole number and its second a row of nine fields.
int particles_detect(const char *text, size_t len);

/// Parses @p len bytes of particle text into @p sc (which it initialises):
/// table 1 x 1, restitution 1, k and dt from particles_spring().
/// @return 0, or -1 with @p err filled in and nothing left to free.
int particles_parse(struct scene *sc, const char *text, size_t len,
                    struct scene_error *err);

/// The spring engine's k and dt for a set of balls, so that springs
/// imitate hard balls at this scale (see README "Particle files"):
///   k  = 4 * KEmax / (PARTICLES_OVERLAP * rmin)^2   (KEmax = max m v^2 / 2)
///   dt = pi * sqrt(mumin / k) / PARTICLES_STEPS     (mumin = m1 m2/(m1+m2)
///        of the two lightest balls)
/// A pair's relative kinetic energy is at most the sum of the two balls',
/// 2 KEmax, so k s^2 / 2 <= 2 KEmax bounds a head-on overlap s by
/// PARTICLES_OVERLAP * rmin; the lightest pair's contact lasts
/// PARTICLES_STEPS steps and every other contact longer. With every ball
/// at rest, KEmax is taken as 1/2 (unit mass at unit speed).
/// @return 0, or -1 when no finite k and dt > 0 result.
int particles_spring(const struct scene *sc, double *k, double *dt);

/// Writes the state of @p s with the colours of @p sc in the particle
/// format, numbers as %.17g (parsing the output and writing it again gives
/// the same bytes).
void particles_write(FILE *f, const struct scene *sc, const struct sim *s);

#endif
