/*
 * ansi.h - a screen of cells (screen.h) as the bytes a terminal is sent to
 * show it: from the cells it shows now to those of the next frame, only
 * what differs. Pure (no curses, no I/O): --cast writes these bytes
 * (cast.h), with or without a terminal.
 *
 * The bytes are ECMA-48 as every terminal emulator (xterm, tmux, VTE,
 * asciinema's player) reads them, and nothing else: CUP and CUF to move,
 * SGR 0, 1, 2, 7 and the colours (30-37 with 8 colours, 90-97 beside them
 * with 16, 38;5;N with 256, palette_ink_of as the terminal front end maps
 * them), EL to blank the rest of a row, ED 2 to clear, DECTCEM to hide the
 * cursor, UTF-8 glyphs. No scrolling region, no insert or delete, no
 * character repeat, no alternate screen: played into any terminal of the
 * frame's size, the bytes leave exactly the cells of the screen.
 *
 * Why its own bytes, not curses driven on a pipe (newterm): curses writes
 * what the terminfo entry of TERM offers and its optimiser picks (scrolling
 * regions, insert and delete, REP in today's xterm-256color, ECH, clears
 * that lean on bce), so that the played cast would depend on how well the
 * player emulates each (asciinema's player does not do all of them) and on
 * the TERM of the machine that made it; without a terminal (CI, a pipe)
 * there may be no entry at all; and a second curses SCREEN beside the
 * terminal's own would have to be switched in and out around every flush.
 * These bytes are the same on every machine, a handful of sequences every
 * emulator has, from the same cells term_flush writes (and, like it, only
 * those that changed); tests/unit/test_cast.c plays them into a terminal
 * of its own and checks every cell.
 *
 * Cells that look alike are one: a blank is a blank whatever its colour or
 * attributes, reverse aside. A glyph that a terminal would not keep in its
 * cell (a wide character without its second cell or in the last column, a
 * second cell without its first, a character of no width) is a blank.
 */
#ifndef ANSI_H
#define ANSI_H

#include "screen.h"

#include <stddef.h>
#include <stdint.h>

/// The terminal as the bytes so far left it. Zero it before the first use.
struct ansi {
    int cols, rows;            ///< the size of the last frame; 0: none yet
    struct screen_cell *shown; ///< the cells shown, cols * rows
    int cx, cy;                ///< the cursor; cx < 0: not known
    uint32_t pen_fg;           ///< the SGR state's colour (0: the default)
    int pen_attr;              ///< its attributes; -1: not known
    char *buf;                 ///< the bytes of the last ansi_frame / ansi_end
    size_t len, cap;
    int nomem;
};

/// The bytes (in a->buf, a->len) that take the terminal from what it shows
/// to @p scr in @p ncolors colours (0, 8, 16 or 256). The first frame, one
/// of a new size and, with @p redraw, any frame clears the screen first
/// (and hides the cursor). @return 0, or -1 when memory is short.
int ansi_frame(struct ansi *a, const struct screen *scr, int ncolors, int redraw);

/// The bytes (in a->buf, a->len) that hand the terminal back: attributes
/// off, the cursor shown, below the last row. @return 0 or -1 (memory).
int ansi_end(struct ansi *a);

void ansi_free(struct ansi *a);

#endif
