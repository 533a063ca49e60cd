/*
 * view.h - the table as a grid of character cells: the mapping from world
 * coordinates to cells, and a cell buffer that balls, trails, the rim and
 * the aiming mark are drawn into.
 *
 * Pure C11 and libm, no curses: the screen asks it what glyph and colour
 * each cell holds (view_glyph).
 *
 * World y points up (a ball with vy > 0 moves up the screen). A cell is
 * `aspect` times as tall as it is wide (about 2 in a terminal). The mapping
 * has the same scale in both directions measured in cell widths, so circles
 * stay round and 45 degrees stays 45 degrees.
 *
 * With braille glyphs a cell is 2 x 4 dots (square dots at aspect 2), so a
 * ball moves by half a cell at a time. With ASCII a ball is one character
 * when small and a disc of characters when it spans several cells.
 *
 * The cost of a frame is bounded by the screen: a ball costs its cells, a
 * ball smaller than a dot costs O(1), and many of those are a density. The
 * buffer is never cleared as a whole: a frame counter ("stamp") marks which
 * cells the current frame set, and a cell of an older stamp shows only its
 * background (the rim, trails).
 */
#ifndef VIEW_H
#define VIEW_H

#include <stddef.h>
#include <stdint.h>

/// Glyph sets.
enum view_glyphs {
    VIEW_BRAILLE = 0, ///< Unicode braille, 2 x 4 dots a cell, arrows
    VIEW_ASCII = 1,   ///< printable ASCII only
};

/// What bounds the world: drawn by the front end (a box) or here (a circle).
enum view_rim {
    VIEW_RIM_NONE = 0,   ///< open space: nothing drawn
    VIEW_RIM_BOX = 1,    ///< a rectangle: the front end draws a box around it
    VIEW_RIM_CIRCLE = 2, ///< the disc inscribed in the world rectangle
};

/// What a cell shows.
enum view_layer {
    VIEW_EMPTY = 0, ///< nothing: a space
    VIEW_BALL = 1,  ///< part of a ball (colour is the ball's tag)
    VIEW_MARK = 2,  ///< the aiming mark (colour is the tag it was given)
    VIEW_RIM = 3,   ///< the round table's rim
    VIEW_TRAIL = 4, ///< a trail left by ball centres
};

/// The mapping of the world rectangle [x0,x1] x [y0,y1] onto cells.
/// Grid coordinates are fractional cells: (c, r) is column c, row r from
/// the top left of the grid; cell (i, j) covers [i, i+1) x [j, j+1).
struct view_map {
    double x0, y0, x1, y1; ///< the world rectangle shown
    double aspect;         ///< cell height / cell width, > 0
    double sx, sy;         ///< cells per world unit across and down; sy = sx / aspect
    double ox, oy;         ///< grid coordinates of the world point (x0, y1)
    int left, top, w, h;   ///< the inner area: cells [left, left+w) x [top, top+h)
    int cols, rows;        ///< the grid
    double zoom;           ///< 1: the whole world rectangle fits (view_fit); more:
                           ///< that many times larger, a window on it (view_zoom)
};

/// Fits the world rectangle into a grid of @p cols x @p rows cells with a
/// frame of one cell on every side (for the box), as large as fits with
/// the same scale both ways, and centred.
/// @return 0, or -1 when the grid has no inside or the rectangle is empty.
int view_fit(struct view_map *m, double x0, double y0, double x1, double y1,
             int cols, int rows, double aspect);

/// Grid coordinates of the world point (x, y).
void view_to_grid(const struct view_map *m, double x, double y, double *c, double *r);

/// The world point at grid coordinates (c, r) (for a mouse click use the
/// cell centre, i + 0.5).
void view_to_world(const struct view_map *m, double c, double r, double *x, double *y);

/// One cell of the buffer. Valid for the current frame when stamp matches.
struct view_cell {
    uint32_t stamp;  ///< frame that last set the ball layer
    uint32_t ch;     ///< an explicit glyph (label, arrow, ASCII ball), or 0: dots
    uint32_t color;  ///< the caller's colour tag of the ball or mark
    uint8_t bits;    ///< dots of the ball layer (braille bits; ASCII: quadrants from them)
    uint8_t layer;   ///< enum view_layer of the ball layer
    uint8_t bg;      ///< background: braille dots, or the ASCII character
    uint8_t bgkind;  ///< background layer: VIEW_EMPTY, VIEW_RIM or VIEW_TRAIL
    /* Balls drawn as a point (smaller than a dot; in ASCII, than a cell):
     * their dots, how many, their area and their most common colour. */
    uint8_t hbits;   ///< dots they hit (ASCII: 1 when one is at least a cell wide)
    uint8_t lens;    ///< dots of two discs or more (balls that overlap, a squash):
                     ///< drawn at half density, so that the overlap shows
    uint16_t small;  ///< how many (saturates)
    uint16_t votes;  ///< majority vote for vcolor (Boyer-Moore)
    float area;      ///< their area in dot units (a dot is 1 x 1)
    uint32_t vcolor; ///< their leading colour
    uint8_t level;   ///< the density last drawn here (1..8), 0: none
};

/// Past this share of the lattice (dots, or cells in ASCII) covered by
/// point-sized balls, they are drawn as a density (see view_end).
#define VIEW_DENSITY_SHARE 0.25

/// The cell buffer of one grid.
struct view {
    struct view_map map;
    struct view_map whole;   ///< the map of the whole world (view_layout's)
    int glyphs;              ///< enum view_glyphs
    int rim;                 ///< enum view_rim
    struct view_cell *cell;  ///< map.cols * map.rows, row-major
    uint32_t stamp;          ///< the current frame
    int *used;               ///< ball-layer cells of this frame
    size_t nused;
    size_t ncells;           ///< allocated cells
    uint8_t *scratch;        ///< one ball's dots per cell while it is drawn
    size_t nsmall;           ///< point-sized balls this frame
    int density;             ///< 1: the last view_end drew them as a density
    int depth;               ///< 1: balls come farthest first (a 3-D run seen from
                             ///< above): a later ball covers the cells it shares
                             ///< (view_depth); 0: the one with more dots keeps them
};

/// Depth order on or off for the balls of the frames from now on: on, the
/// caller draws them farthest first and each covers what it shares with
/// those before it (no lens of half density between them).
void view_depth(struct view *v, int on);

/// A zeroed view; view_layout allocates.
void view_init(struct view *v);

/// Frees the buffer. Safe on a view from view_init.
void view_free(struct view *v);

/// Lays out a grid of @p cols x @p rows for the world rectangle with the
/// given rim and glyphs: every cell empty, the rim drawn into the
/// background, no previous frame.
/// @return 0, -1 when memory is short, 1 when the grid is too small.
int view_layout(struct view *v, int cols, int rows, double x0, double y0,
                double x1, double y1, double aspect, int rim, int glyphs);

/// Zoom: shows the world rectangle @p zoom times larger than view_layout
/// fitted it, in the same inner area, centred on the world point (cx, cy)
/// as far as the world rectangle allows (the window never shows past it;
/// a point not finite is its centre). The window moves by whole dots
/// (whole cells in ASCII), and the trails move with it; a new scale clears
/// them. A zoom of 1 (or less, or not finite) is the whole world again,
/// the very map of view_layout. Call between frames.
/// @return 1 when the window changed, else 0.
int view_zoom(struct view *v, double zoom, double cx, double cy);

/// The world point at the centre of the inner area (the centre of the
/// window when zoomed).
void view_centre(const struct view_map *m, double *x, double *y);

/// Starts a frame: the last frame's cells become the previous ones.
void view_begin(struct view *v);

/// Draws a ball of radius @p r centred at (x, y) with colour tag @p color,
/// clipped to the inner area, as the dots (or in ASCII the quadrants of
/// cells) whose centres lie inside it. Two touching balls never merge:
/// a ball of more than 1.5 dots of radius is drawn half a dot smaller, which
/// leaves a free dot between them (a drawn dot reaches about a third of a
/// dot beyond its centre), and a cell that two colours share shows the one
/// with more dots in it (only one colour fits in a cell). A ball smaller
/// than a dot is one dot. In ASCII a ball under three cells across or 1.5
/// rows tall is one character, 'o', or 'O' when at least a cell wide, in
/// its centre's cell or, when another ball has that one, the free
/// neighbour nearest to its centre; a larger one is a disc of quarter
/// cells ('/', '(', '_', '@'...). Cost: O(1) for a ball drawn as a point,
/// else in proportion to its cells.
void view_ball(struct view *v, double x, double y, double r, uint32_t color);

/// Adds the dot under (x, y) to the trails (the background).
void view_trail(struct view *v, double x, double y);

/// Removes every trail.
void view_clear_trails(struct view *v);

/// Draws the aiming mark next to a ball at (x, y) of radius r: a dotted
/// line (braille) and the aim's head (view_aim_head) toward @p angle
/// (radians, counter-clockwise from +x).
void view_mark(struct view *v, double x, double y, double r, double angle,
               uint32_t color);

/// Draws the UTF-8 text @p s (a body's label, one to a few characters) from
/// the cell under (x, y) rightwards, in the ball layer with colour tag
/// @p color; clipped to the grid. Nothing when the point is not finite.
void view_text(struct view *v, double x, double y, const char *s, uint32_t color);

/// Ends a frame: settles the point-sized balls.
///
/// Point-sized balls (see view_ball) become a density when they are more
/// than VIEW_DENSITY_SHARE of the lattice points: a cell then lights
/// ceil(8 * a / 0.9069) dots, a being the share of the cell their areas
/// cover (0.9069: the densest packing of discs), at least one; so a close-
/// packed crystal is all eight dots and a cell of a gas at 20% packing two.
/// The dots lit follow a fixed order, and a cell keeps its level while the
/// density stays within half a dot of it, so that a cell changes only when
/// its density does. In ASCII the density is one of ".:-=+*#@".
void view_end(struct view *v);

/// What cell @p idx (row * cols + column) shows: its layer, its glyph as a
/// Unicode code point (ASCII in VIEW_ASCII) and its colour tag: for balls
/// and the mark theirs, otherwise that of the last ball drawn there (0 if
/// none), which a front end may use for blanks and trails.
int view_glyph(const struct view *v, int idx, uint32_t *ch, uint32_t *color);

/// The arrow glyph nearest to @p angle (radians, counter-clockwise from +x):
/// a velocity's or a force's head.
uint32_t view_arrow(double angle, int glyphs);

/// The aim mark's head nearest to @p angle: a double arrow (U+21D0 to
/// U+21D9), so that it is not taken for a velocity's head without colour;
/// in ASCII 'x' (its place beside the ball gives the direction: an ASCII
/// arrow would be the velocity's '>').
uint32_t view_aim_head(double angle, int glyphs);

#endif
