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
const struct sim *screen_second_table(const struct screen *scr, const struct shown *sh,
                                      char *title, size_t size, int glyphs);

/// The zoom (screen_zoom.c): each table's window for the frame to come;
/// the sides of the world that zoomed map @p m shows (SIM_SIDE_* bits, all
/// four at zoom 1: those drawn as walls); the sides of table @p t's frame
/// that are not walls, drawn dotted (1 when zoomed and drawn, else 0).
void screen_zoom_views(struct screen *scr, const struct shown *sh, const struct front *f);
unsigned screen_zoom_walls(const struct view_map *m);
int screen_zoom_edges(struct screen *scr, const struct view *v, struct screen_rect t,
                       unsigned walls);

/// The pieces of a frame (screen_draw), each over the whole screen.
void screen_draw_title(struct screen *scr, const struct shown *sh, const struct front *f);
void screen_draw_status(struct screen *scr, const struct shown *sh, const struct front *f);
void screen_draw_note(struct screen *scr, const struct front *f);
void screen_draw_table(struct screen *scr, const struct shown *sh, const struct front *f);
void screen_draw_arrow(struct screen *scr, const struct shown *sh, const struct front *f);
void screen_draw_prompt(struct screen *scr, const struct front *f);
void screen_draw_help(struct screen *scr, const struct front *f,
                      const struct screen_help *help, size_t nhelp);

#endif
