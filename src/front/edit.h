/*
 * edit.h - live edits (issue 14): the mouse (select, drag a ball or the
 * tip of its velocity arrow, the wheel), the pusher, adding and removing
 * balls, the ':' command line and w (the state saved as a scene). The
 * selected ball is the cue ball.
 */
#ifndef EDIT_H
#define EDIT_H

struct ui;

/// One mouse event (enum app_mouse) at screen cell (@p x, @p y); @p mod:
/// Shift, Ctrl or Alt held.
void edit_mouse(struct ui *u, int kind, int x, int y, int mod);

/// While a ball is held and the run goes on, it stays at the pointer.
void edit_hold(struct ui *u);

void edit_add(struct ui *u, int key);     ///< a
void edit_delete(struct ui *u, int key);  ///< x, Delete
void edit_pusher(struct ui *u, int key);  ///< h
void edit_save(struct ui *u, int key);    ///< w
void edit_prompt(struct ui *u, int key);  ///< ':' opens the command line

/// The arrows move the pusher. @return 1 when there is a pusher (the key
/// is used), 0 when not.
int edit_pusher_arrow(struct ui *u, int key);

/// Enter on the selected row of the values panel (shown, with the focus,
/// a ball selected): opens the command line on ":v VX VY" of that ball.
/// @return 1 when it did, 0 when Enter is not for the values panel.
int edit_values_enter(struct ui *u);

/// A key while the command line is open.
void edit_prompt_key(struct ui *u, int key);

#endif
