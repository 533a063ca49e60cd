/*
 * script.h - key scripts (--keys): a line of keys, waits in simulated time
 * and clicks, parsed into items that the front end plays (in a terminal as
 * a demo, with --snapshot against the simulated clock).
 *
 * Syntax: tokens separated by blanks. A token is
 *   - a key: one printable ASCII character, or a name: space, enter, esc,
 *     tab, btab, backspace, up, down, left, right, pgup, pgdn, or C-x
 *     (Control-x);
 *   - <t T>: wait T >= 0 units of simulated time;
 *   - <click COL ROW>: a click on that screen cell, from 0, 0 at the top left;
 *   - <press C R>, <drag C R>, <release C R>, <wheel up|down C R [mod]>:
 *     mouse events (drag: the pointer moves there with the button held);
 *   - <:LINE>: the keys ':', LINE and Enter (the command line);
 *   - <lt>: the key '<' (kick speed down), which alone would open an item;
 * any of them followed by *N (1 <= N <= 100000) for N times. An item <...>
 * (but <:LINE>) holds at most 63 characters; columns and rows are decimal
 * digits, 0 to 10000.
 *
 * Pure C11: no curses, no I/O.
 */
#ifndef SCRIPT_H
#define SCRIPT_H

#include <stddef.h>

/// What an item is.
enum script_kind {
    SCRIPT_KEY = 0,   ///< press key
    SCRIPT_WAIT = 1,  ///< wait t of simulated time
    SCRIPT_CLICK = 2, ///< click on cell (x, y)
    SCRIPT_MOUSE = 3, ///< a mouse event (mouse) on cell (x, y)
};

/// Mouse events of SCRIPT_MOUSE: <press C R>, <drag C R> (the pointer moves
/// there, button held), <release C R>, <wheel up|down C R [mod]>.
enum script_mouse {
    SCRIPT_PRESS = 0,
    SCRIPT_DRAG = 1,
    SCRIPT_RELEASE = 2,
    SCRIPT_WHEEL_UP = 3,
    SCRIPT_WHEEL_DOWN = 4,
};

/// Keys that are not characters: codes beyond Unicode (the front end maps
/// them to its own).
enum script_special {
    SCRIPT_UP = 0x110000,
    SCRIPT_DOWN,
    SCRIPT_LEFT,
    SCRIPT_RIGHT,
    SCRIPT_BACKSPACE,
    SCRIPT_BTAB, ///< shift-tab
    SCRIPT_PGUP,
    SCRIPT_PGDN,
    SCRIPT_F5,   ///< F5 (a presentation remote's start-the-show key)
};

/// Alt (Meta) held with a character: SCRIPT_ALT | the character (M-e).
#define SCRIPT_ALT 0x200000

struct script_item {
    int kind;  ///< enum script_kind
    int key;   ///< SCRIPT_KEY: a character code (Control-x is 1..26) or enum script_special
    double t;  ///< SCRIPT_WAIT: simulated time, finite, >= 0
    int x, y;  ///< SCRIPT_CLICK, SCRIPT_MOUSE: screen cell
    int mouse; ///< SCRIPT_MOUSE: enum script_mouse
    int mod;   ///< SCRIPT_MOUSE: 1 when a modifier is held (wheel ... mod)
};

/// Parses @p s into a new array *@p items (free it).
/// @return the count of items, or -1 with a message (without the option's
/// name) in @p err and nothing allocated.
int script_parse(const char *s, struct script_item **items, char *err, size_t errsize);

#endif
