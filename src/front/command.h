/*
 * command.h - the ':' command line of the front end: one line of the
 * scene language applied live (the scene's own parser reads it: ball,
 * rack, random add balls; k, dt, restitution, walls, contact, gravity ...
 * change the run; title renames), and a few edit verbs for the selected
 * ball:
 *
 *     m M        its mass          r R        its radius
 *     v VX VY    its velocity      x X Y      its position (velocity kept)
 *     del        removes it
 *
 * plus the line editor that takes the keys (history with Up and Down).
 * Pure C11: no curses, no I/O; the front end applies the command to the
 * session.
 */
#ifndef COMMAND_H
#define COMMAND_H

#include "scene.h"
#include "sim.h"

#include <stddef.h>

/// What a command line asks for.
enum command_kind {
    COMMAND_NONE = 0, ///< a blank line or a comment: nothing
    COMMAND_PARAMS,   ///< the run's parameters become p
    COMMAND_BALLS,    ///< balls[0..n) are added (ball, rack, random)
    COMMAND_TITLE,    ///< the title becomes title
    COMMAND_MASS,     ///< the selected ball's mass becomes a
    COMMAND_RADIUS,   ///< its radius becomes a
    COMMAND_VELOCITY, ///< its velocity becomes (a, b)
    COMMAND_POSITION, ///< its position becomes (a, b)
    COMMAND_DELETE,   ///< it is removed
    COMMAND_CUE,      ///< `cue N`: ball N (1-based, in a) becomes the selected one
    COMMAND_STEP,     ///< `step N`: a lesson's step N (1-based, in a)
};

/// A parsed command. Free with command_free.
struct command {
    int kind;                 ///< enum command_kind
    double a, b;              ///< the edit verbs' values
    struct sim_params p;      ///< COMMAND_PARAMS
    struct scene_ball *balls; ///< COMMAND_BALLS
    size_t n;
    char *title;              ///< COMMAND_TITLE
};

/// Parses @p line against the current state @p s (its parameters, and its
/// balls in scene order, which a random line avoids and hard walls check).
/// @return 0, or -1 with the parser's own message in @p err (nothing to
/// free then).
int command_parse(struct command *c, const char *line, const struct sim *s,
                  char *err, size_t errsize);

/// Frees what command_parse allocated. Safe on a zeroed struct.
void command_free(struct command *c);

/// The most balls one line adds (:random, :rack): each is a move kept for ','.
#define COMMAND_BALLS_MAX 100000
/// Longest command line, bytes.
#define COMMAND_MAX 200
/// Lines the history keeps.
#define COMMAND_HISTORY 64

/// Keys of the line editor (a printable byte is itself).
enum command_key {
    COMMAND_KEY_ENTER = -1,
    COMMAND_KEY_CANCEL = -2, ///< Esc, or Backspace on an empty line
    COMMAND_KEY_BACKSPACE = -3,
    COMMAND_KEY_DELETE = -4,
    COMMAND_KEY_LEFT = -5,
    COMMAND_KEY_RIGHT = -6,
    COMMAND_KEY_HOME = -7,
    COMMAND_KEY_END = -8,
    COMMAND_KEY_UP = -9,     ///< the previous line of the history
    COMMAND_KEY_DOWN = -10,  ///< the next one (past the last: the line typed)
    COMMAND_KEY_KILL = -11,  ///< C-u: clears the line
};

/// The line being typed and the history.
struct command_line {
    char buf[COMMAND_MAX + 1];
    size_t len, cur;          ///< bytes, cursor (a byte offset)
    char hist[COMMAND_HISTORY][COMMAND_MAX + 1];
    int nhist;                ///< lines kept, the newest last
    int browse;               ///< index being shown, nhist: the typed line
    char typed[COMMAND_MAX + 1]; ///< the typed line while browsing
    int over;                 ///< a key was dropped: the line was full
};

/// Clears the line (the history stays) to start typing.
void command_open(struct command_line *cl);

/// Opens the line filled with @p text (cut at COMMAND_MAX bytes), the
/// cursor at byte @p cur (at most the end).
void command_fill(struct command_line *cl, const char *text, size_t cur);

/// Takes one key. @return 1 when Enter ended the line (buf holds it, and
/// the history has it), -1 when it was cancelled, 2 when Enter came after
/// keys were dropped at COMMAND_MAX bytes (the line is not what was typed:
/// refused, until it is mended by a deletion or cleared), 0 otherwise.
int command_key(struct command_line *cl, int key);

#endif
