/*
 * palette.h - what colour and what label each ball or body is drawn with.
 *
 * Pure C11 and libm, no curses: the front end asks once, at start, and
 * turns the answers into colour pairs.
 *
 * Colours. A scene gives a ball a colour as 0xrrggbb; a terminal has 256,
 * 16, 8 or no colours and a background the program cannot see. Every ink
 * chosen here is readable on a dark and on a light background: its WCAG
 * contrast ratio is at least PALETTE_MIN_CONTRAST (3:1, the ratio WCAG 2.1
 * asks of graphical objects) against both PALETTE_DARK_BG (#282828, as light
 * as the usual dark themes) and PALETTE_LIGHT_BG (#eeeeee, darker than
 * the usual light ones). Pure blue (#0000ff) has 2.4:1 on black; here it
 * becomes #0087ff. When the background is known (COLORFGBG), only that side
 * is held to the ratio, which leaves brighter inks on dark backgrounds.
 * White, black and greys become the terminal's own foreground colour, the
 * one ink that is readable on its background by construction.
 *
 * With 8 or 16 colours the palette's real values belong to the terminal's
 * theme; the ratios are computed with xterm's defaults (as tmux shows
 * them), and bold stands for bright with 8.
 *
 * Touching balls. palette_balls gives two balls of different colours that
 * touch in the initial state inks at least PALETTE_MIN_DE apart (a
 * distance in OKLab, about 5 just-noticeable differences), as near as it
 * can to the colours the scene asked for, so that a rack of touching balls
 * reads as balls, not as one mosaic, even where two of its colours fall on
 * one terminal colour. Balls of the same colour stay alike (a wall of equal
 * balls is one colour; the view keeps a free dot between touching balls),
 * and balls without a scene colour keep the foreground ink.
 *
 * Labels. palette_labels gives each body of a universe (which has no size
 * on screen) a short label, unique among the bodies, from its name: the
 * first letter, or as many letters as tell it from the others ("Ma" and
 * "Me" for mars.gif and mercury.gif), and a number when names repeat.
 * Equal bodies (same mass) are drawn alike: the star glyph goes to the
 * heaviest body only when it is at least 10 times heavier than any other.
 *
 * A front end, once at start (curses calls in brackets):
 *
 *     nc = [COLORS] >= 256 ? 256 : [COLORS] >= 16 ? 16 : 8;   (0: no colour)
 *     bg = palette_bg_from_colorfgbg(getenv("COLORFGBG"));
 *     b[i] = (struct palette_ball){x, y, r, scene_color_rgb(c), c != SCENE_COLOR_NONE};
 *     palette_balls(&p, b, n, nc, bg, which);
 *     for j in 1 .. p.n-1: [init_pair(FIRST + j, p.ink[j].fg, -1)]
 *     ball i: pair FIRST + which[i] (0 when which[i] is 0), A_BOLD when
 *             p.ink[which[i]].bold; the view's colour tag carries both.
 *     palette_labels(names, masses, n, ascii, label);   (open space)
 *     each frame: view_text(v, x, y, label[i], tag) when label[i][0],
 *             else view_ball(v, x, y, 0, tag) (a dot).
 */
#ifndef PALETTE_H
#define PALETTE_H

#include <stddef.h>
#include <stdint.h>

#define PALETTE_MIN_CONTRAST 3.0
#define PALETTE_DARK_BG 0x282828u
#define PALETTE_LIGHT_BG 0xeeeeeeu
#define PALETTE_MIN_DE 0.1

/// What is known of the terminal's background.
enum palette_bg {
    PALETTE_BG_UNKNOWN = 0, ///< readable on both (the default)
    PALETTE_BG_DARK = 1,
    PALETTE_BG_LIGHT = 2,
};

/// How a ball is drawn: a colour index and whether bold.
struct palette_ink {
    int16_t fg;   ///< -1: the terminal's default foreground; else 0..255
    uint8_t bold; ///< 1: bold (bright, with 8 colours)
};

/// The background of COLORFGBG ("15;0", "0;default;15": the last field is
/// the background's colour index): dark for 0-6 and 8, light for 7 and
/// 9-15, unknown otherwise or when @p s is NULL.
int palette_bg_from_colorfgbg(const char *s);

/// WCAG relative luminance of 0xrrggbb, 0 (black) to 1 (white).
double palette_luminance(uint32_t rgb);

/// WCAG contrast ratio of two colours, 1 to 21.
double palette_contrast(uint32_t a, uint32_t b);

/// Distance of two colours in OKLab (0: equal; black to white is 1).
double palette_distance(uint32_t a, uint32_t b);

/// 0xrrggbb of xterm colour @p index (0..255; xterm's defaults for 0..15).
uint32_t palette_xterm_rgb(int index);

/// What @p ink looks like with @p ncolors colours (bold as bright with 8);
/// @p fg_rgb for the default foreground.
uint32_t palette_ink_rgb(struct palette_ink ink, int ncolors, uint32_t fg_rgb);

/// The ink with @p ncolors (8, 16 or 256) that shows 0xrrggbb best: the
/// exact inverse of palette_ink_rgb for the inks palette_ink gives (so a
/// front end may keep colours as 0xrrggbb and turn them into colour
/// numbers when it writes), else the nearest in OKLab (256: among 16..255,
/// whose values are fixed; 16: 1..15; 8: 1..7, plain or bold).
struct palette_ink palette_ink_of(uint32_t rgb, int ncolors);

/// Whether @p ink is readable on the background(s) @p bg stands for.
int palette_readable(struct palette_ink ink, int ncolors, int bg);

/// The ink for 0xrrggbb with @p ncolors (0, 8, 16 or 256) colours on
/// background @p bg: greys become the default foreground; other colours
/// keep their hue, with the lightness moved into the readable band.
struct palette_ink palette_ink(uint32_t rgb, int ncolors, int bg);

/// One ball as palette_balls sees it.
struct palette_ball {
    double x, y, r;
    uint32_t rgb;   ///< the scene's colour, 0xrrggbb
    int colored;    ///< 0: the scene gave none (default foreground, never changed)
};

/// The distinct inks of a set of balls.
#define PALETTE_MAX_INKS 256
struct palette {
    size_t n;                                ///< inks in use
    struct palette_ink ink[PALETTE_MAX_INKS];
};

/// Inks for @p n balls: ink[which[i]] is ball i's. Balls of different
/// colours that touch (their gap is under 5% of the smaller radius) get
/// inks PALETTE_MIN_DE apart when the palette has enough readable inks. ink[0] is always the default
/// foreground. Work O(n log n) plus the touching pairs.
/// @return 0, or -1 when memory is short (then each ball has the ink its
/// colour asks for, touching or not).
int palette_balls(struct palette *p, const struct palette_ball *b, size_t n,
                  int ncolors, int bg, uint16_t *which);

/// Longest label, in bytes with its NUL (a star glyph is 3 bytes of UTF-8).
#define PALETTE_LABEL_MAX 8

/// Above this many bodies, none gets a label (they are drawn as dots).
#define PALETTE_MAX_LABELS 64

/// Labels of @p n bodies named @p names (NULL or "" for none; a path and an
/// extension such as ".gif" are dropped) with masses @p m: label[i] is a
/// NUL-terminated string of 1 to 3 characters, unique among the bodies, in
/// ASCII when @p ascii. Unnamed bodies are numbered. When n exceeds
/// PALETTE_MAX_LABELS, every label is "" except a star's.
/// @return how many labels are longer than one character.
size_t palette_labels(const char *const *names, const double *m, size_t n, int ascii,
                      char (*label)[PALETTE_LABEL_MAX]);

#endif
