/*
 * screen_impl.h - what the screen's files share and nobody else calls:
 * the pieces screen_draw puts together, the UTF-8 decoder and the colour
 * of a ball by its tag.
 */
#ifndef SCREEN_IMPL_H
#define SCREEN_IMPL_H

#include "screen.h"

#include <stddef.h>
#include <stdint.h>

/// Decodes one UTF-8 character at @p s (never past a NUL) into *cp; a bad
/// byte is U+FFFD. @return the bytes used.
int screen_utf8_next(const char *s, uint32_t *cp);

/// The cell colour of a ball by its tag (SCREEN_TAG_ADDED...), 0 without
/// colours.
uint32_t screen_tag_fg(const struct screen *scr, uint32_t tag);

/// The second table a panel shows (the split view) and its title in
/// @p title; NULL when none does.
const struct sim *screen_second_table(const struct screen *scr, struct session *ss,
                                      char *title, size_t size, int glyphs);

/// The world rectangle of the table (the scene's view in open space) and
/// how it is bounded (enum view_rim).
void screen_world_rect(const struct screen *scr, const struct sim *s, double *x0, double *y0,
                       double *x1, double *y1, int *rim);

/// Lays the tables' views out again in their rectangles (the zoomed part
/// moved). @return 0, or -1 (memory).
int screen_views(struct screen *scr, struct session *ss);

/// While zoomed and following: the view moved onto the cue ball when it
/// left the middle half of the view.
void screen_zoom_follow(struct screen *scr, struct session *ss, const struct front *f);

/// While zoomed: the inset mark, where the view is on the table, in the
/// top right corner of table @p t.
void screen_zoom_inset(struct screen *scr, struct screen_rect t, const struct sim *s,
                       int glyphs);

/// The pieces of a frame (screen_draw), each over the whole screen.
void screen_draw_title(struct screen *scr, struct session *ss, const struct front *f);
void screen_draw_status(struct screen *scr, struct session *ss, const struct front *f);
void screen_draw_note(struct screen *scr, const struct front *f);
void screen_draw_table(struct screen *scr, struct session *ss, const struct front *f);
void screen_draw_arrow(struct screen *scr, struct session *ss, const struct front *f);
void screen_draw_prompt(struct screen *scr, const struct front *f);
void screen_draw_help(struct screen *scr, const struct front *f,
                      const struct screen_help *help, size_t nhelp);

#endif
