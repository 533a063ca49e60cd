/*
 * remote.h - the keys and the status of a run going on elsewhere (the
 * session's SESSION_CAP_REMOTE, session_live): space pauses the run
 * itself, + - its frame rate, enter and a drag push a ball (a force
 * pulse), r reconnects, ':kill' (asking once) ends the run, q leaves it
 * going. The front end asks the capability, never which link it is.
 */
#ifndef REMOTE_H
#define REMOTE_H

#include <stddef.h>

struct ui;

/// Seconds without a frame before the status line says it waits.
#define REMOTE_WAIT_S 2.0
/// Seconds without a frame after which the link is looked at only
/// REMOTE_IDLE_HZ times a second (a file or a run that sends nothing costs
/// no CPU); the first frame after brings the frame rate back.
#define REMOTE_IDLE_S 0.5
#define REMOTE_IDLE_HZ 4.0

/// A key of a live run: space + - = enter r . , ] [ ':' and the kill's y.
void remote_key(struct ui *u, int key);

/// The ':' line of a live run: "kill" asks to end the run. @return 0
/// (the line closes).
int remote_command(struct ui *u, const char *line);

/// A drag from scene ball @p ball released at world point (wx, wy): the
/// ball pushed by the velocity whose arrow was drawn (the arrow reaches
/// where the ball goes in the velocity arrow's time), added to its own.
void remote_drag(struct ui *u, size_t ball, double wx, double wy);

/// The frame's bookkeeping: the title's state word and the status line's
/// warning from the link's state and the time since the last frame.
void remote_frame(struct ui *u);

#endif
