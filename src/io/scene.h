/*
 * scene.h - the native scene format: parse a buffer, build a simulation,
 * write a state back as a scene.
 *
 * scene_parse reads text and returns data or an error with its line number;
 * it prints nothing. scene_write is the only function here that does I/O.
 */
#ifndef SCENE_H
#define SCENE_H

#include "scene_data.h" /* struct scene, without stdio */
#include "sim.h"
#include "text.h" /* struct scene_error */

#include <stdint.h>
#include <stdio.h>

/// The name of ball @p i ("" when it has none), e.g. "earth.gif".
const char *scene_ball_name(const struct scene *sc, size_t i);

/// Appends a name of @p len bytes to sc->names and stores its offset in
/// *off. @return 0, or -1 when memory is short or the names pass 4 GiB.
int scene_add_name(struct scene *sc, const char *name, size_t len, uint32_t *off);

/// Parses @p len bytes of scene text into @p sc (which it initialises).
/// @return 0, or -1 with @p err filled in and nothing left to free.
int scene_parse(struct scene *sc, const char *text, size_t len,
                struct scene_error *err);

/// Parses one line of scene text into @p sc as the next line of a scene
/// would be: the directive changes sc->p (or the title), ball, rack and
/// random lines append balls (random avoiding those already there), and
/// the checks of a whole scene follow (with hard walls every ball lies on
/// the table). Each directive may be given once per call, as in a file.
/// The front end's command line is this: the scene language applied live.
/// @p sc is a parsed scene or one built by the caller (balls allocated
/// with cap >= n). @return 0, or -1 with @p err (line 1); then @p sc may
/// be partly changed: parse into a copy.
int scene_parse_line(struct scene *sc, const char *line, size_t len,
                     struct scene_error *err);

/// Frees what scene_parse allocated.
void scene_free(struct scene *sc);

/// Builds a simulation (t = 0) from the scene. @return 0, or -1 when memory
/// is short.
int scene_to_sim(const struct scene *sc, struct sim *s);

/// As scene_to_sim, the arrays for a use @p how (sim_init_as).
int scene_to_sim_as(const struct scene *sc, struct sim *s, unsigned how);

/// Writes the state of @p s (with the title and colours of @p sc, ball for
/// ball in the same order) as a scene file, numbers in their shortest
/// round-trip digits (numfmt.h), so that parsing the output and writing it
/// again gives the same bytes.
void scene_write(FILE *f, const struct scene *sc, const struct sim *s);

/// The parameters of @p p as scene directives on one line, separated by
/// "; " ("k 5; dt 0.05; walls hard"): k and dt always, the table when it
/// is round, the others when not at their default (numbers in their shortest exact form).
/// What a recording's comment line carries so that its frames run on
/// (record.h). @return the length it needed, as snprintf.
int scene_params_text(char *buf, size_t size, const struct sim_params *p);

/// The name of a colour as a scene writes it ("red", "#10a0ff"), or NULL
/// for SCENE_COLOR_NONE. @p buf holds at least 8 bytes.
const char *scene_color_name(uint32_t color, char *buf);

/// The 0xrrggbb value of a colour (a plain terminal palette for the names);
/// SCENE_COLOR_NONE gives white.
uint32_t scene_color_rgb(uint32_t color);

/// The built-in scene (identical to scenes/break.scene), NUL-terminated.
extern const char scene_builtin[];

#endif
