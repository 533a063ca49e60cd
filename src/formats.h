/*
 * formats.h - the three input formats behind one door: which one a text is
 * in, parsing it, and writing a state back in the format it came in.
 *
 * The native scene format (scene.h), the NBody universe (universe.h) and
 * the textbook particle files (particles.h). Parsing prints nothing; only
 * formats_write does I/O.
 */
#ifndef FORMATS_H
#define FORMATS_H

#include "scene.h"

#include <stdio.h>

/// Ask formats_parse to detect the format.
#define FORMATS_AUTO (-1)

/// The format of @p text (an enum scene_format): a particle file when line
/// 1 is a single count and line 2 has nine fields, else a universe when the
/// first token is a count, else a native scene. (A particle file also looks
/// like a universe, so particles are asked first.)
int formats_detect(const char *text, size_t len);

/// Parses @p text in @p format (an enum scene_format, or FORMATS_AUTO),
/// after a UTF-8 byte order mark if there is one (some editors write it).
/// @return 0, or -1 with @p err filled in, as scene_parse.
int formats_parse(struct scene *sc, const char *text, size_t len, int format,
                  struct scene_error *err);

/// Writes the state @p s in the format @p sc was read in.
void formats_write(FILE *f, const struct scene *sc, const struct sim *s);

#endif
