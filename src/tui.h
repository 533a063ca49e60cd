/*
 * tui.h - the terminal front end: the one entry point main.c calls.
 */
#ifndef TUI_H
#define TUI_H

struct scene;

/// Options of the terminal front end (see springball(1)).
struct ui_options {
    double fps;         ///< frame rate cap, > 0, default 30
    double speed;       ///< initial speed: simulated time per wall second, > 0;
                        ///< 0 (default): by the scene (20 for native scenes)
    double duration;    ///< wall seconds until it quits by itself; 0: never
    int ascii;          ///< 1: ASCII glyphs even in a UTF-8 locale
    int no_color;       ///< 1: no colour (NO_COLOR in the environment also)
    double cell_aspect; ///< cell height / cell width, > 0, default 2
    int engine;         ///< 0: spring engine (default), 1: event engine
};

/// The defaults above.
void ui_default_options(struct ui_options *o);

/// Runs the live view of @p sc (named @p name in the title line) until the
/// user quits, a signal arrives or the duration is over. Standard output
/// must be a terminal; keys come from standard input, or from /dev/tty when
/// standard input is not a terminal (a scene read from a pipe).
/// @return the exit status: 0 on a normal quit, 1 when the terminal cannot
/// be used or memory is short, 128 + N after signal N (SIGINT, SIGTERM,
/// SIGHUP), with the terminal restored on every path.
int ui_run(const struct scene *sc, const char *name, const struct ui_options *o);

#endif
