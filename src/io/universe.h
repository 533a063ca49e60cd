/*
 * universe.h - the classic NBody "universe" format (Princeton COS126):
 *
 *     N                      the number of bodies, a whole number >= 1
 *     R                      the universe radius: the view spans -R..R
 *     x y vx vy mass name    N rows, SI units (m, m/s, kg); name was an image
 *     ...                    anything after the N rows is a comment
 *
 * Blank lines may stand anywhere before the last row. A universe has no
 * walls and no collisions: its bodies are point masses under mutual
 * gravity with G = 6.67e-11 (no softening), stepped like every scene.
 *
 * universe_parse reads text and returns a struct scene or an error with its
 * line; it prints nothing. universe_write is the only function doing I/O.
 */
#ifndef UNIVERSE_H
#define UNIVERSE_H

#include "scene.h"

#include <stddef.h>
#include <stdio.h>

/// The gravitational constant of the format, m^3 kg^-1 s^-2.
#define UNIVERSE_G 6.67e-11

/// The time step a universe runs at unless --dt says otherwise: 25000 s,
/// the standard dt of the assignment (about 1/1260 of a year).
#define UNIVERSE_DT 25000.0

/// Most bodies a universe may announce.
#define UNIVERSE_MAX_N 10000000ull

/// Largest radius R: 2R stays finite, and R written as %.2e reads back.
#define UNIVERSE_MAX_R 1e307

/// Largest magnitude universe_write prints: DBL_MAX cut (not rounded) to
/// the format's 5 digits, so that every finite value it writes reads back
/// as a finite number (%11.4e rounds 1.79769e308 up to 1.7977e+308, which
/// overflows). The reader takes any finite number.
#define UNIVERSE_MAX_ABS 1.7976e308

/// Longest body name, in bytes.
#define UNIVERSE_MAX_NAME 255

/// 1 when @p text looks like a universe: its first token is a whole number
/// (digits only), which no scene directive is.
int universe_detect(const char *text, size_t len);

/// Parses @p len bytes of universe text into @p sc (which it initialises):
/// format SCENE_FORMAT_UNIVERSE, shape SIM_OPEN (w = h = 2R), contact
/// SIM_CONTACT_NONE, gravity UNIVERSE_G, dt UNIVERSE_DT, radius R, view
/// [-R,R]^2, every ball of radius 0 with its name.
/// @return 0, or -1 with @p err filled in and nothing left to free.
int universe_parse(struct scene *sc, const char *text, size_t len,
                   struct scene_error *err);

/// Writes the state of @p s in the universe format with the radius and names
/// of @p sc: N, R as %.2e, each body as "%11.4e %11.4e %11.4e %11.4e %11.4e
/// %12s" (the assignment's layout, so published outputs compare byte for byte).
void universe_write(FILE *f, const struct scene *sc, const struct sim *s);

#endif
