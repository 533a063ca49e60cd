/*
 * view.h - the table as a grid of character cells: the mapping from world
 * coordinates to cells, and a cell buffer that balls, trails, the rim and
 * the aiming mark are drawn into.
 *
 * Pure C11 and libm, no curses: the terminal front end asks it which cells
 * changed and what glyph and colour each holds, and writes only those.
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
 * The cost of a frame is in proportion to the cells the balls cover: the
 * buffer is never cleared as a whole. A frame counter ("stamp") marks which
 * cells the current frame set, and the cells of the previous frame are kept
 * in a list so that those left behind can be repainted.
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
    uint32_t pstamp; ///< frame that last listed the cell for painting
    uint32_t dstamp; ///< frame that last changed the background
    uint32_t ch;     ///< an explicit glyph (ASCII ball, arrow), or 0: braille bits
    uint32_t color;  ///< the caller's colour tag of the ball or mark
    uint8_t bits;    ///< braille dots of the ball layer
    uint8_t layer;   ///< enum view_layer of the ball layer
    uint8_t bg;      ///< background: braille dots, or the ASCII character
    uint8_t bgkind;  ///< background layer: VIEW_EMPTY, VIEW_RIM or VIEW_TRAIL
};

/// The cell buffer of one grid.
struct view {
    struct view_map map;
    int glyphs;              ///< enum view_glyphs
    int rim;                 ///< enum view_rim
    struct view_cell *cell;  ///< map.cols * map.rows, row-major
    uint32_t stamp;          ///< the current frame
    int *used, *prev;        ///< ball-layer cells of this frame and the last
    size_t nused, nprev;
    int *dirty;              ///< background cells changed this frame
    size_t ndirty;
    int *paint;              ///< what view_end found to repaint
    size_t npaint;
    size_t ncells;           ///< allocated cells
};

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

/// Starts a frame: the last frame's cells become the previous ones.
void view_begin(struct view *v);

/// Draws a ball of radius @p r centred at (x, y) with colour tag @p color,
/// clipped to the inner area. A ball smaller than a dot still shows as a
/// few dots (braille) or one character (ASCII).
void view_ball(struct view *v, double x, double y, double r, uint32_t color);

/// Draws the character @p ch (a Unicode code point, ASCII in VIEW_ASCII) in
/// the cell under (x, y), in the ball layer with colour tag @p color: a
/// body of a universe, which has no size, shown by a letter. Nothing when
/// the point is outside the inner area or not finite.
void view_label(struct view *v, double x, double y, uint32_t ch, uint32_t color);

/// Adds the dot under (x, y) to the trails (the background).
void view_trail(struct view *v, double x, double y);

/// Removes every trail.
void view_clear_trails(struct view *v);

/// Draws the aiming mark next to a ball at (x, y) of radius r: a dotted
/// line (braille) and an arrow toward @p angle (radians, counter-clockwise
/// from +x).
void view_mark(struct view *v, double x, double y, double r, double angle,
               uint32_t color);

/// Ends a frame: fills v->paint with each cell whose glyph may have
/// changed since the last frame (the cells of this frame, those of the last
/// one, changed background), each once.
void view_end(struct view *v);

/// What cell @p idx (row * cols + column) shows: its layer, its glyph as a
/// Unicode code point (ASCII in VIEW_ASCII) and its colour tag: for balls
/// and the mark theirs, otherwise that of the last ball drawn there (0 if
/// none), which a front end may use for blanks and trails.
int view_glyph(const struct view *v, int idx, uint32_t *ch, uint32_t *color);

/// The arrow glyph nearest to @p angle (radians, counter-clockwise from +x).
uint32_t view_arrow(double angle, int glyphs);

#endif
