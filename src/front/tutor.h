/*
 * tutor.h - a lesson run in the terminal front end: its panel, its
 * keys, and going to a step.
 *
 * Going to step N starts the front end again from the scene, as it was
 * when the program began (the state, the panels and arrows, the speed),
 * plays the keys of steps 1 .. N-1 at once, each step opening paused,
 * then pauses and plays step N's own keys: as a demo in a terminal, at
 * once under --snapshot. So a step always opens on the same state, bit
 * for bit, whatever the class did in the step before (the run is
 * deterministic: it is the replay from the scene that ',' also does).
 *
 * Keys (tutor_key): PgDn and l reveal the step's answer when it asks
 * and the answer is not shown yet, else go to the next step; PgUp and L go
 * to the previous step (the first step again on the first); A reveals the
 * answer. Every other key keeps its meaning.
 */
#ifndef TUTOR_H
#define TUTOR_H

#include <stddef.h>

struct ui;
struct script_item;

/// What plays a step's keys: the front end's key-script player, playing
/// @p n items at once (as --snapshot does, also in a terminal).
typedef void (*tutor_player)(struct ui *u, const struct script_item *items, int n);

/// Adds the lesson panel of u->o.lesson to the screen (after app_init's
/// own panels). Nothing without a lesson. @return 0, or -1 (no room).
int tutor_open(struct ui *u);

/// Goes to step @p step (0-based, clamped): see the top of this file.
/// @return 0, or -1 when memory ran short (a note says so).
int tutor_goto(struct ui *u, size_t step, tutor_player play);

/// The lesson's keys. @return 1 when @p key was the lesson's, else 0.
int tutor_key(struct ui *u, int key, tutor_player play);

/// A presentation remote's keys in a lesson, pressed (not a step's own
/// keys): Esc and q ask "quit the lesson?" (y or q quits, any other key
/// stays), F5 opens the step shown again, b blanks the screen (any key
/// shows it again). @return 1 when @p key was taken, else 0.
int tutor_presenter(struct ui *u, int key, tutor_player play);

/// l, L and A of the key table, reached when no lesson is open (else
/// tutor_key takes them first): a note that says how to open one.
void tutor_keys(struct ui *u, int key);

#endif
