/*
 * app_keys.h - the front end's own key codes and input events: what
 * term.c decodes the terminal's keys and mouse into, and what a key
 * script (script.h) plays. Nothing here knows curses.
 *
 * A key is a character code (Control-x is 1..26, Esc 27, a byte of a
 * UTF-8 character 0x80..0xff) or one of enum app_key, beyond Unicode. The
 * keys a script can name keep the script's codes, so a script's key is
 * the app's key as it is.
 */
#ifndef APP_KEYS_H
#define APP_KEYS_H

#include "script.h"

/// Keys that are not characters.
enum app_key {
    APP_KEY_UP = SCRIPT_UP,
    APP_KEY_DOWN = SCRIPT_DOWN,
    APP_KEY_LEFT = SCRIPT_LEFT,
    APP_KEY_RIGHT = SCRIPT_RIGHT,
    APP_KEY_BACKSPACE = SCRIPT_BACKSPACE,
    APP_KEY_BTAB = SCRIPT_BTAB, ///< shift-tab
    APP_KEY_PGUP = SCRIPT_PGUP,
    APP_KEY_PGDN = SCRIPT_PGDN,
    APP_KEY_F5 = SCRIPT_F5,
    APP_KEY_DELETE = 0x110100,  ///< the Delete key
    APP_KEY_HOME,
    APP_KEY_END,
    APP_KEY_RESIZE,             ///< the terminal changed size
    APP_KEY_MOUSE,              ///< a mouse event (struct app_input's mouse)
    APP_KEY_OTHER,              ///< a key the front end has no name for
};

/// Alt (Meta) held with a character: APP_KEY_ALT | the character.
#define APP_KEY_ALT SCRIPT_ALT

/// Mouse events: the script's numbers (enum script_mouse).
enum app_mouse {
    APP_MOUSE_PRESS = SCRIPT_PRESS,
    APP_MOUSE_MOVE = SCRIPT_DRAG, ///< the pointer moved (with the button held)
    APP_MOUSE_RELEASE = SCRIPT_RELEASE,
    APP_MOUSE_WHEEL_UP = SCRIPT_WHEEL_UP,
    APP_MOUSE_WHEEL_DOWN = SCRIPT_WHEEL_DOWN,
};

/// One input: a key, or (key APP_KEY_MOUSE) a mouse event on a cell.
struct app_input {
    int key;   ///< a character code or enum app_key
    int mouse; ///< APP_KEY_MOUSE: enum app_mouse
    int x, y;  ///< APP_KEY_MOUSE: the cell, from 0, 0 at the top left
    int mod;   ///< APP_KEY_MOUSE: 1 when Shift, Ctrl or Alt is held
};

#endif
