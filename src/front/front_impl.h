/*
 * front_impl.h - what front.c (the player, --snapshot, --cast, the frame
 * loop) and front_keys.c (the key table) give each other.
 */
#ifndef FRONT_IMPL_H
#define FRONT_IMPL_H

#include "app.h"
#include "script.h"

/* front_keys.c */
/// A key pressed (or played by a script): the prompt, the help, a replay's
/// keys, a lesson's, or the row of the key table.
void front_key(struct ui *u, int key);
/// A mouse event (enum app_mouse) at cell (@p x, @p y), @p mod: Shift,
/// Ctrl or Alt held: a lesson's blank screen shown again, the control
/// bar's item played as its key, else edit_mouse.
void front_mouse(struct ui *u, int kind, int x, int y, int mod);
/// The help of the live program (0) or of a replay (1), from the table,
/// into front_helps[0 .. front_nhelp).
void front_help(int mode);
/// front_help's modes: a simulation, a replay, a run going on elsewhere.
enum { FRONT_HELP_LIVE = 0, FRONT_HELP_REPLAY = 1, FRONT_HELP_REMOTE = 2 };
extern struct screen_help front_helps[];
extern size_t front_nhelp;
/// The terminal's size, and the screen laid out again for it.
void front_relayout(struct ui *u);

/* front.c */
/// Plays @p n items of a key script at once (a lesson's earlier steps).
void front_play_now(struct ui *u, const struct script_item *items, int n);

#endif
