/*
 * formats.h - the input formats behind one door: one table says which
 * formats there are, how each is recognised, parsed and written back.
 *
 * The native scene format (scene.h), the NBody universe (universe.h) and
 * the textbook particle files (particles.h). Detection, --format, --help and
 * the writers all read formats_table; adding a format is adding a row (and
 * its enum scene_format). Recorded runs, replayed rather than parsed, have
 * a table of their own, formats_runs. Parsing prints nothing; only the
 * writers do I/O.
 *
 * The layer (src/io/): the formats, read and written: bytes in, a struct
 * or a `FILE:LINE: what` out; a struct in, text out. Scenes, universes,
 * particles, lessons, key scripts, recordings read back (traj*), frames
 * written (record), the LAMMPS export, numbers (text, numfmt) and the
 * engines' codes in words. It sees core and event, never the session.
 */
#ifndef FORMATS_H
#define FORMATS_H

#include "scene.h"

#include <stddef.h>
#include <stdio.h>

/// Ask formats_parse to detect the format.
#define FORMATS_AUTO (-1)

/// Recorded runs, which are not parsed whole but replayed frame by frame
/// (traj.h): extended or plain XYZ, LAMMPS dump text. What --format
/// names them, beside the enum scene_format values.
#define FORMATS_XYZ 16
#define FORMATS_LAMMPSTRJ 17

/// FORMATS_XYZ or FORMATS_LAMMPSTRJ when a file whose first @p len bytes
/// are @p head is a recorded run (traj_detect), else 0.
int formats_trajectory(const char *head, size_t len);

/// A recorded run's format: its --format name and what --help says of it.
struct format_run {
    int id;            ///< FORMATS_XYZ or FORMATS_LAMMPSTRJ
    const char *name;  ///< "xyz", "lammpstrj"
    const char *help;  ///< "(extended XYZ)"
};
/// The recorded runs' formats, in the order of --help.
extern const struct format_run formats_runs[];
extern const size_t formats_runs_count;

/// The recorded run's format named @p name (FORMATS_XYZ ...), or 0.
int formats_run_named(const char *name);

/// The name of recorded run format @p id ("xyz" ...), or NULL.
const char *formats_run_name(int id);

/// One format.
struct format {
    const char *name;  ///< its --format name ("scene", "universe", ...)
    const char *help;  ///< what --help says after the name, e.g. "(the native format)"
    /// 1 when @p text looks like this format; NULL: any text does (the native scene).
    int (*detect)(const char *text, size_t len);
    /// Parses the text into @p sc, as scene_parse (sets sc->format to the row's index).
    int (*parse)(struct scene *sc, const char *text, size_t len,
                 struct scene_error *err);
    /// Writes the state @p s in this format, so that parsing it gives it back.
    void (*write)(FILE *f, const struct scene *sc, const struct sim *s);
};

/// The formats, row i being enum scene_format i: the order of --help and of
/// the list of names in errors. Detection asks the rows from the last to the
/// first, so a format that an earlier row's detector also accepts goes after
/// it (a particle file looks like a universe; any text is a native scene).
extern const struct format formats_table[];
/// Rows in formats_table.
extern const size_t formats_count;

/// The row of format @p id (an enum scene_format; the native scene when out of range).
const struct format *formats_get(int id);

/// The enum scene_format named @p name (a row's name), or -1.
int formats_named(const char *name);

/// The names joined for a message, "scene, universe or particles", into
/// @p buf of @p size bytes (cut to fit). @return buf.
const char *formats_names(char *buf, size_t size);

/// The format of @p text (an enum scene_format): the last row whose
/// detector accepts it, else the native scene.
int formats_detect(const char *text, size_t len);

/// Parses @p text in @p format (an enum scene_format, or FORMATS_AUTO),
/// after a UTF-8 byte order mark if there is one (some editors write it).
/// @return 0, or -1 with @p err filled in, as scene_parse.
int formats_parse(struct scene *sc, const char *text, size_t len, int format,
                  struct scene_error *err);

/// Writes the state @p s in the format @p sc was read in.
void formats_write(FILE *f, const struct scene *sc, const struct sim *s);

#endif
