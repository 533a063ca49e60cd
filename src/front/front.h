/*
 * front.h - the terminal front end: the entry points main.c calls (the
 * key table is front_keys.c's, the key-script player front.c's).
 *
 * The layer (src/front/): the terminal front end: curses in term.c alone,
 * the one key table (front_keys.c), the controllers (app, actions, edit, zoom,
 * tutor), the worker thread, recording and the split view's engines
 * (labscreen). It sees every layer beneath it, never cli.
 */
#ifndef FRONT_H
#define FRONT_H

#include "app_options.h"

struct scene;

/// Runs the live view of @p sc (named @p name in the title line) until the
/// user quits, a signal arrives, the terminal goes away or the duration is
/// over. Standard output must be a terminal; keys come from standard
/// input, or from /dev/tty when standard input is not a terminal (a scene
/// read from a pipe). The key script of o->keys plays as a demo.
/// @return the exit status: 0 on a normal quit, 1 when the terminal is
/// lost or memory is short, 2 when the terminal cannot be used (TERM dumb,
/// unset) or the key script is bad, 128 + N after signal N (SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT), with the terminal restored on every path.
int ui_run(const struct scene *sc, const char *name, const struct ui_options *o);

/// --snapshot: plays o->keys against the simulated clock without a
/// terminal and prints the screen of o->snap_cols x o->snap_rows to
/// standard output as UTF-8 text (ANSI colours unless o->no_color or
/// NO_COLOR). @return 0, 1 (memory, write error) or 2 (a bad key script).
int ui_snapshot(const struct scene *sc, const char *name, const struct ui_options *o);

#endif
