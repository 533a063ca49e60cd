/*
 * term.h - the terminal: curses, and nothing else of the program. The one
 * module that includes curses (tests/house.sh checks it).
 *
 * It starts and restores the terminal, catches the signals that end the
 * program, makes colour pairs as colours are met, writes the cells of a
 * screen (screen.h) that differ from what it wrote last, waits for input
 * and decodes keys and the mouse into the front end's codes (app_keys.h).
 * What to do with them is the front end's.
 */
#ifndef TERM_H
#define TERM_H

struct app_input;
struct screen;

/// Installs the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT (before
/// term_begin, so that curses leaves them to us). They only set a flag.
void term_catch_signals(void);

/// The signal caught since term_catch_signals, or 0.
int term_signal(void);

/// Starts curses on standard output with keys from standard input, or
/// from /dev/tty when standard input is not a terminal.
/// @return 0, or an exit status (1: no /dev/tty, 2: no usable terminal)
/// with the message printed to standard error.
int term_begin(void);

/// Restores the terminal. Idempotent: called on every exit path, and
/// from atexit.
void term_end(void);

/// Starts colours unless @p no_color. @return how many the terminal
/// shows: 0, 8, 16 or 256.
int term_colors(int no_color);

/// The terminal's size in cells.
void term_size(int *cols, int *rows);

/// Mouse reporting on or off (press, release, moves with the button held,
/// the wheel). Does nothing before term_begin.
void term_mouse(int on);

/// Writes to the terminal the cells of @p scr that differ from what was
/// written last, in @p ncolors colours (term_colors); @p redraw: every
/// cell, the terminal cleared first.
void term_flush(const struct screen *scr, int ncolors, int redraw);

/// Waits for input at most @p ms milliseconds (-1: forever).
/// @return 1 when there is input, 0 on a timeout or a signal, -1 when the
/// terminal is gone (hung up, closed).
int term_wait(int ms);

/// Reads one input without waiting.
/// @return 1 with @p in filled; 2 when what was read is ignored (an escape
/// sequence curses does not know: the rest of it is read too); 0 when
/// there is nothing to read. Esc alone is the key 27.
int term_read(struct app_input *in);

#endif
