/*
 * actions.h - what the run keys do: pause, step, back, reset, k, dt, e,
 * the engine, gravity, speed, aim, kick and the cue ball, reverse, 1-D,
 * the border, contact events, what is shown, R, and the keys of a replay.
 * Each takes the key that called it (one handler serves k and K); the key
 * table that binds them is front_keys.c's.
 */
#ifndef ACTIONS_H
#define ACTIONS_H

struct ui;

/// What a replay says to a key that needs a simulation.
#define ACTIONS_REPLAY_NO_SIM "replay: no simulation - w saves this frame as a scene"
/// What a live run says to a key that needs a simulation here.
#define ACTIONS_REMOTE_NO_SIM "live: the run is elsewhere - w saves this frame as a scene"

void actions_pause(struct ui *u, int key);       ///< space
void actions_step(struct ui *u, int key);        ///< .
void actions_back(struct ui *u, int key);        ///< ,
void actions_reset(struct ui *u, int key);       ///< r
void actions_param(struct ui *u, int key);       ///< k K d D
void actions_engine(struct ui *u, int key);      ///< m
void actions_gravity(struct ui *u, int key);     ///< g
void actions_speed(struct ui *u, int key);       ///< - + =
void actions_aim(struct ui *u, int key);         ///< the arrows (the pusher's, when on)
void actions_kick(struct ui *u, int key);        ///< enter
void actions_kick_speed(struct ui *u, int key);  ///< < >
void actions_cue(struct ui *u, int key);         ///< tab, shift-tab
void actions_mouse(struct ui *u, int key);       ///< M
void actions_trails(struct ui *u, int key);      ///< t
void actions_redraw(struct ui *u, int key);      ///< Ctrl-L
void actions_quit(struct ui *u, int key);        ///< q Esc
void actions_lab(struct ui *u, int key);         ///< v p f c n i P s PgUp PgDn
void actions_line(struct ui *u, int key);        ///< 1
void actions_restitution(struct ui *u, int key); ///< e E
void actions_reverse(struct ui *u, int key);     ///< V
void actions_border(struct ui *u, int key);      ///< b
void actions_contact(struct ui *u, int key);     ///< ] [
void actions_help(struct ui *u, int key);        ///< ?
void actions_record(struct ui *u, int key);      ///< R
/// A replay's space . , ] [ r: frames.
void actions_replay_move(struct ui *u, int key);
/// A replay's w: the frame as a scene that runs on.
void actions_replay_save(struct ui *u, int key);
/// A replay's answer to a key that needs a simulation.
void actions_replay_refuse(struct ui *u, int key);

#endif
