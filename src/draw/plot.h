/*
 * plot.h - small plots drawn into a plain grid of character cells: braille
 * line plots with axes and labels, a histogram against a curve, arrows.
 *
 * Pure C11 and libm, no curses, no I/O: a panel of the terminal front end
 * gives a width x height grid of (glyph, colour) cells and gets it filled;
 * the front end copies the cells to the terminal, a --snapshot prints them.
 * Colours are the caller's tags, never interpreted here.
 *
 * Braille: a cell holds 2 x 4 dots, U+2800 plus a bit per dot
 *
 *     dot (0,0) 0x01   (1,0) 0x08
 *         (0,1) 0x02   (1,1) 0x10
 *         (0,2) 0x04   (1,2) 0x20
 *         (0,3) 0x40   (1,3) 0x80
 *
 * Dot coordinates run from the top left of the grid: dot (dx, dy) lies in
 * cell (dx / 2, dy / 4). Drawing a dot into a cell that shows other dots
 * keeps them (the union) and gives the cell the newest colour, so what is
 * drawn last (a curve over bars, an arrow over a ball) shows on top.
 * Drawing a dot into a cell that holds text replaces the text.
 */
#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>
#include <stdint.h>

/// One cell: a Unicode code point (0: blank) and a colour tag.
struct plot_cell {
    uint32_t ch;
    uint32_t color;
};

/// A grid of w x h cells, row-major; the caller owns the cells.
struct plot {
    int w, h;
    struct plot_cell *cell;
};

/// The first braille code point (no dots).
#define PLOT_BRAILLE 0x2800u

/// Blanks every cell (ch 0, colour 0).
void plot_clear(struct plot *p);

/// The cell at column @p col, row @p row, or NULL outside the grid.
struct plot_cell *plot_at(struct plot *p, int col, int row);

/// Writes the UTF-8 text @p s from column @p col of row @p row, one cell a
/// code point, clipped to the grid (a malformed byte shows as '?').
/// @return the column after the last one written (or clipped).
int plot_text(struct plot *p, int col, int row, const char *s, uint32_t color);

/// Sets dot (dx, dy) (nothing outside the grid).
void plot_dot(struct plot *p, int dx, int dy, uint32_t color);

/// Sets the dot that covers point (x, y) in dot coordinates, i.e. dot
/// (floor x, floor y); nothing outside the grid, for NaN or for a point
/// too far for an int (a ball at 1e300 is not undefined behaviour).
void plot_dotf(struct plot *p, double x, double y, uint32_t color);

/// A line of dots from dot coordinates (x0, y0) to (x1, y1) (fractions
/// allowed: a dot covers [dx, dx+1) x [dy, dy+1)), one dot per step along
/// the longer axis, both ends included; clipped to the grid. Non-finite
/// ends draw nothing.
void plot_line(struct plot *p, double x0, double y0, double x1, double y1,
               uint32_t color);

/// An arrow from cell coordinates (c0, r0) to (c1, r1) (fractional
/// columns and rows, as view_to_grid gives), with a head of two barbs at
/// 30 degrees of up to 3 dots, measured in square units for cells
/// @p aspect times as tall as wide. Shorter than a dot: a single dot.
void plot_arrow(struct plot *p, double c0, double r0, double c1, double r1,
                double aspect, uint32_t color);

/// Replaces every glyph outside ASCII by an ASCII look-alike, for
/// terminals without Unicode: braille by ' (dots only in the top half), .
/// (bottom half), : (both) or # (six dots or more); box lines by | - +;
/// anything else by *.
void plot_ascii(struct plot *p);

/// Significant digits plot_fmt shows at most.
#define PLOT_DIGITS 5

/// Writes @p v right-aligned in exactly @p width characters (4 <= width <
/// cap): fixed notation with at most PLOT_DIGITS significant digits and as
/// many decimals as fit (so a column of numbers lines up), an exponent
/// when that shows more digits (0.0000123, 12345678); zero (and -0) as
/// "0", NaN as "nan", infinities as "inf", "-inf"; "#" repeated when
/// nothing fits. @return @p buf.
char *plot_fmt(char *buf, size_t cap, double v, int width);

/// The data rectangle of a plot and the ranges it maps.
struct plot_frame {
    int left, top, w, h;   ///< data cells: [left, left+w) x [top, top+h)
    double x0, x1, y0, y1; ///< the values at the data rectangle's edges
};

/// Grid dot coordinates of the value (x, y) in frame @p f (x0 at the left
/// edge of the data area, x1 at its right; y1 at the top, y0 at the bottom).
void plot_map(const struct plot_frame *f, double x, double y, double *dx, double *dy);

/// One series of a line plot.
struct plot_series {
    const double *x, *y; ///< n points, x ascending
    size_t n;
    uint32_t color;
    const char *name;    ///< shown in the legend (NULL: not shown)
};

/// Options of plot_lines.
struct plot_lines_opt {
    const char *xname;   ///< the x axis' name, e.g. "t"
    int zero;            ///< 1: the y range includes 0
    uint32_t axis_color; ///< labels and axis lines
};

/// The smallest grid plot_lines and plot_hist draw into.
#define PLOT_MIN_W 16
#define PLOT_MIN_H 5

/// A line plot of @p nser series: the legend (names in their colours) on
/// the top row, y labels (top, middle, bottom values) and an axis line on
/// the left, x labels (first and last x, the axis' name) on the bottom row,
/// the series as braille lines in the rest, drawn in order (the last on
/// top). The y range is that of the data, widened by 5% (and to include 0
/// when asked); a flat series gets +-1 (or +-1% of its value) around it.
/// @param f filled with the frame used (may be NULL).
/// @return 0, or -1 when the grid is too small (under 16 x 5) or there
///   is no point: then the grid holds a one-line message.
int plot_lines(struct plot *p, const struct plot_series *ser, int nser,
               const struct plot_lines_opt *opt, struct plot_frame *f);

/// Options of plot_hist.
struct plot_hist_opt {
    const char *xname;     ///< the x axis' name, e.g. "speed"
    const char *bar_name;  ///< legend of the bars, e.g. "balls"
    const char *curve_name;///< legend of the curve
    uint32_t bar_color, curve_color, axis_color;
};

/// A histogram of @p nbins bins over [v0, v1]: bar b has height count[b];
/// a curve @p curve(v, ctx), in counts per bin, is drawn over the bars as a
/// braille line (one point per dot column): a cell it passes shows its
/// dots alone, in its colour, so that it stays a line across a bar. Labels as plot_lines (legend
/// on top, the y range 0 .. the largest of the counts and the curve, v0 and
/// v1 under the axis). @p curve may be NULL. Bars leave a gap of one dot
/// between them when they are at least 3 dots wide.
/// @return 0, or -1 when the grid is too small or nbins < 1 (a message).
int plot_hist(struct plot *p, const long *count, int nbins, double v0,
              double v1, double (*curve)(double v, const void *ctx),
              const void *ctx, const struct plot_hist_opt *opt,
              struct plot_frame *f);

#endif
