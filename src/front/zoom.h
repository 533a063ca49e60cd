/*
 * zoom.h - the zoom keys (issue 26): z zooms in by 2 around the selected
 * ball (the table's centre when there is none), Z zooms out down to the
 * whole table, 0 is the whole table at once, F turns following the
 * selected ball on and off (off: the view stays where it is). The state is
 * struct front's; the screen draws it (screen_zoom.c).
 */
#ifndef ZOOM_H
#define ZOOM_H

struct ui;

/// The most the table is magnified.
#define ZOOM_MAX 64

void zoom_key(struct ui *u, int key); ///< z Z 0 F

#endif
