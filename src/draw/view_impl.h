/*
 * view_impl.h - what view.c and view_zoom.c share and nobody else calls:
 * the braille dot bits, the ASCII glyphs, the background's writer and the
 * round rim.
 */
#ifndef VIEW_IMPL_H
#define VIEW_IMPL_H

#include "view.h"

#include <stdint.h>

/* Braille: dot (column dx, row dy) of a cell is bit dot_bit[dy][dx] of
 * U+2800 + bits (dots 1-2-3-7 down the left, 4-5-6-8 down the right). */
static const uint8_t dot_bit[4][2] = {
    {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80},
};

enum { ASCII_BALL = 'O', ASCII_SMALL = 'o', ASCII_TRAIL = '.', ASCII_RIM = '#' };

/// Sets cell @p idx's background (braille bits, or in ASCII the character)
/// of layer @p kind; trails never cover the rim.
void view_set_bg(struct view *v, int idx, uint8_t bits, int kind);

/// Draws the round table's rim into the background.
void view_circle_rim(struct view *v);

#endif
