/*
 * panel.h - the classroom lab's panels, each an object of the screen's
 * panel class (screen.h's struct panel_class), one file each, over one
 * state (struct panel_state) that the front end keeps and its keys change:
 *
 *  panel_values.c   the values table (PhET's "More Data"): a row per ball
 *                   that fits (# m x y vx vy px py KE), the selected one
 *                   highlighted, a totals row (sum px, sum py, sum KE), a
 *                   line with the spring PE, E, M and the centre of mass, and
 *                   with a ball selected its contacts: partner, overlap s,
 *                   spring force k s and the dashpot force. Keys: i, Tab,
 *                   Shift-Tab, PgUp, PgDn.
 *  panel_plot.c     KE, PE and E, or sum px and sum py, over the last stretch
 *                   of the session's envelope (braille lines, each column
 *                   from its least to its greatest sample); the speed
 *                   histogram against the 2-D Maxwell-Boltzmann law; the
 *                   momentum diagram (panel_pdiag.c draws it). Key: P.
 *  panel_overlay.c  what is drawn over the table: velocity, momentum and
 *                   force arrows from each ball's centre with their legend,
 *                   ball numbers, the selected ball's ring, the centre of mass
 *                   and its path. Keys: v p f c n.
 *  panel_status.c   the lab's fields of the status line (KE, PE, the total
 *                   momentum, e, 1-D, the border).
 *  panel_split.c    the split view's second table (the event engine). Key: s.
 *
 * Each draws into a plain grid of cells (struct plot) that the panel's class
 * copies to the screen (panel_blit); colours are the tags of enum
 * panel_color, which panel_color maps to the screen's. The table of
 * classes is panel_table; panel_key hands a key to the focused panel first,
 * then to the others in the table's order.
 */
#ifndef PANEL_H
#define PANEL_H

#include "lab.h"
#include "plot.h"
#include "screen.h"

#include <stddef.h>
#include <stdint.h>

struct view_map;

/// Above this many balls the overlay draws arrows and numbers for the
/// selected ball alone (a few thousand arrows are a blur, and cost more
/// than the step).
#define PANEL_MANY 1000

/// No ball selected.
#define PANEL_NONE ((size_t)-1)

/// Colour tags of the panels (values above any scene colour tag).
enum panel_color {
    PANEL_TEXT = 0x40000001,  ///< ordinary text
    PANEL_DIM,                ///< axes, headers, units
    PANEL_HILITE,             ///< the selected ball's row
    PANEL_KE,                 ///< kinetic energy
    PANEL_PE,                 ///< spring potential energy
    PANEL_E,                  ///< total energy
    PANEL_PX,                 ///< sum px
    PANEL_PY,                 ///< sum py
    PANEL_BAR,                ///< histogram bars
    PANEL_CURVE,              ///< the Maxwell-Boltzmann curve
    PANEL_V,                  ///< velocity arrows
    PANEL_P,                  ///< momentum arrows
    PANEL_F,                  ///< force arrows
    PANEL_CM,                 ///< centre of mass and its path
    PANEL_SELECT,             ///< the selected ball's ring
    PANEL_WARN,               ///< a warning (energy drift)
    PANEL_COLOR_END
};

/// What the values panel shows, and where it is scrolled to.
struct panel_values {
    size_t selected; ///< scene ball, or PANEL_NONE
    size_t scroll;   ///< first ball row; moved to show the selected ball
    int ascii;       ///< 1: ASCII only ("sum", "k*s")
    int free_scroll; ///< 1: the user paged away: do not follow the selected ball
    int hard;        ///< 1: the event engine's state (hard balls: no springs to list)
    int lesson;      ///< 1: PgUp and PgDn turn a lesson's pages: the rule names the
                     ///< wheel and Tab, which scroll it there
    const double *z, *vz;  ///< a 3-D run's depth of each ball (z and vz columns), or NULL
    const uint32_t *atom;  ///< the run's number of each ball (a slice), or NULL
};

/// Draws the values panel of @p s. Rows from the top: the header, a row
/// per ball from o->scroll on (moved so that the selected ball's row is
/// shown unless o->free_scroll: o->scroll is updated), the totals row, the PE/E/centre-of-mass
/// line, then the selected ball's contacts (as many as fit, at most 6
/// lines, "+N more" when they do not). Which rows show, when not all,
/// is on the panel's rule (panel_values_title).
/// @return the number of ball rows shown (the step of PgUp/PgDn).
int panel_values(struct plot *p, const struct sim *s, struct panel_values *o);

/// The values panel's name on its rule into @p buf: "values", or with
/// @p rows of the @p n balls shown from @p scroll on, which and the keys
/// that page ("values 1-11/16 PgDn", "values 6-16/16 PgUp"); in a lesson
/// (@p lesson 1), where PgDn turns the page, what scrolls it there
/// ("values 1-11/16 wheel tab"). @return buf.
const char *panel_values_title(char *buf, size_t size, size_t scroll, int rows, size_t n,
                               int lesson);

struct panel_state;

/// Screen cell (@p x, @p y) in the values panel as drawn last: the ball of
/// the row there (scene index), its column (enum lab_col) in *@p col; or
/// PANEL_NONE (no ball's row there, or the panel hidden).
size_t panel_values_at(const struct panel_state *ps, int x, int y, int *col);

struct session_col;

/// The envelope columns @p col[0..n) (session.h, oldest first) as an
/// oscilloscope draws them: KE, PE and E (@p momentum 0, E drawn last) or
/// sum px and sum py (1), each column a line from its first sample down
/// to its least, up to its greatest and on to its last, so that a sample
/// between two frames is never lost. @p ascii: "sum px" for "Σpx".
/// @return 0, or -1 with a message in the grid (too small, no samples,
/// memory).
int panel_envelope(struct plot *p, const struct session_col *col, size_t n, int momentum,
                   int ascii);

/// The speed histogram of @p s (2 N^(1/3) bins, as many as fit at two
/// cells a bin, 4 .. LAB_HIST_MAX) under the curve N dv P(v) of the 2-D
/// Maxwell-Boltzmann law with a^2 = <v^2>/2 of the balls themselves.
/// @return 0, or -1 with a message in the grid.
int panel_speeds(struct plot *p, const struct sim *s, int ascii);

/// Arrow kinds (bits of panel_overlay.arrows).
enum panel_arrow {
    PANEL_ARROW_V = 1, ///< velocity v
    PANEL_ARROW_P = 2, ///< momentum m v
    PANEL_ARROW_F = 4, ///< net force F
};

/// What is drawn over the table, and the arrow scales kept between frames.
struct panel_overlay {
    unsigned arrows;             ///< PANEL_ARROW_* bits
    struct lab_scale scale[3];   ///< v, p, F: kept while they fit (lab_scale_fit);
                                 ///< reset one when its kind is switched on
    int numbers;                 ///< 1: ball numbers (1-based, as in the values panel)
    int cm;                      ///< 1: the centre of mass
    size_t selected;             ///< the ball with a ring, or PANEL_NONE
    double aspect;               ///< cell height / width (2)
    int ascii;                   ///< 1: ASCII only
    int aim;                     ///< 1: the aim mark is on the table: the
                                 ///< legend names its head beside the arrows'
    const struct view *view;     ///< the table's cells (its map the grid's): labels
                                 ///< keep off its balls; NULL: not known
    int handle;                  ///< 1: the velocity handle (screen_draw_arrow) is at
    int handle_col, handle_row;  ///< this cell of the grid, which labels keep off
    int legend_row, legend_x0, legend_x1; ///< out: the legend's cells as drawn,
                                 ///< [x0, x1) of that row (x1 == x0: none)
};

/// Draws the overlay of @p s onto @p p, a grid of m->cols x m->rows cells
/// laid out by @p m (the table's view_map); only cells with something to
/// show are set (plot_clear it first). @p fx, @p fy: the net forces in
/// scene order (lab_forces) when force arrows are on, else may be NULL.
/// The largest arrow of each kind is at most a quarter of the table's
/// smaller side (at least 3 cells); the legend ("v 2/cell" in each kind's
/// colour) is on the frame's bottom line. Above PANEL_MANY balls, arrows
/// and numbers are drawn for the selected ball only (the scale still
/// fits them all), and the legend says so.
void panel_overlay(struct plot *p, const struct view_map *m, const struct sim *s,
                   struct panel_overlay *o, const double *fx, const double *fy);

/* ===== The lab's display state, its keys and its layout ===== */

/// The smallest grid panel_pdiag draws into.
#define PANEL_PDIAG_MIN_W 20
#define PANEL_PDIAG_MIN_H 4

/// Draws the momentum diagram into @p p: on the left each ball's momentum
/// before the last contact, on the right now, drawn tip to tail from an
/// origin in the ball's colour @p color[i] (arrows on one line are moved
/// a row apart, so that none hides another), the total sum p beside them
/// (a row below the closing side, or on rows of its own), both halves
/// on one scale; each half's time and total on its top row (the bottom
/// row, the notes', only when the top has no room for them). @p bx, @p by
/// NULL: no contact yet (the left half says so).
/// @return 0, or -1 with a message in the grid (too small, no balls).
int panel_pdiag(struct plot *p, size_t n, const double *bx, const double *by, double t_before,
                const double *nx, const double *ny, double t_now, const uint32_t *color,
                double aspect, int ascii);

/// What the P key cycles through.
enum panel_plot {
    PANEL_PLOT_OFF = 0,
    PANEL_PLOT_ENERGY,   ///< KE, PE, E over time
    PANEL_PLOT_MOMENTUM, ///< sum px, sum py over time
    PANEL_PLOT_SPEEDS,   ///< the speed histogram and the law
    PANEL_PLOT_PDIAG,    ///< the momentum diagram (panel_pdiag.c)
    PANEL_PLOT_COUNT
};

/// Keys that are not characters (the front end maps its key codes).
enum panel_keycode {
    PANEL_KEY_NEXT = 0x110000, ///< Tab: select the next ball
    PANEL_KEY_PREV,            ///< Shift-Tab: the previous one
    PANEL_KEY_PGUP,            ///< PgUp, wheel up: the values panel up a page
    PANEL_KEY_PGDN,            ///< PgDn, wheel down: down a page
};

/// The control bar's items at most (panel_bar.c).
#define PANEL_BAR_MAX 16
/// What panel_bar_at gives for the elasticity's value: a drag or the wheel
/// there sets it in steps of 0.01 (beyond Unicode, as the key codes).
#define PANEL_BAR_ELASTIC 0x130000

/// Where a click on the control bar lands: columns [x0, x1) play @p key.
struct panel_bar_hit {
    int x0, x1, key;
};

/// The lab's display state: what is shown, kept by the front end.
struct panel_state {
    struct panel_overlay ov; ///< arrows and their scales, numbers, centre of
                             ///< mass, the selected ball
    int values;              ///< 1: the values panel is shown (i)
    struct panel_values pv;  ///< its scroll; pv.selected follows ov.selected
    int plot;                ///< enum panel_plot (P)
    int split;               ///< 1: both engines side by side (s)
    int rows;                ///< ball rows the values panel showed last (a page)
    struct screen_rect values_r; ///< where the values panel was drawn last
    int focus;               ///< the panel (index in panel_table) keys go to first
    /* the force arrows' forces, of the state of version f_version */
    double *fx, *fy;         ///< net forces in scene order
    size_t nf;               ///< their length
    unsigned long f_version; ///< the session's version they were computed for
    /* the split view's second table: the event engine's state, kept by
     * the front end (labscreen.h owns both engines and syncs them) */
    const struct sim *split_hard; ///< its state at the session's time, or NULL
    long long split_collisions;   ///< its collisions so far
    /* the control bar (C), its items as drawn last */
    int bar;                 ///< 1: the control bar is shown
    int bar_y;               ///< its screen row as drawn last
    struct panel_bar_hit hit[PANEL_BAR_MAX];
    int nhit;
};

/// The key a click on screen cell (@p x, @p y) of the control bar plays
/// (a character, PANEL_BAR_ELASTIC on the elasticity's value), or 0 (not
/// on an item, or the bar hidden).
int panel_bar_at(const struct panel_state *ps, int x, int y);

/// Everything off, no ball selected, cells twice as tall as wide.
void panel_state_init(struct panel_state *ps);

/// Frees what the state holds (forces, the split view's engines); safe
/// on a state that holds nothing.
void panel_state_free(struct panel_state *ps);

/// The classes of the lab's panels, each over a struct panel_state.
extern const struct panel_class panel_values_class, panel_plot_class, panel_overlay_class,
    panel_status_class, panel_split_class, panel_bar_class;

/// The lab's panels in the order the screen shows them (the values panel
/// above or left of the plot).
extern const struct panel_class *const panel_table[];
/// How many.
extern const int panel_count;

/// Hands the lab key @p key (v p f c i n P s, PANEL_KEY_*) to the panels
/// of panel_table over @p ps, for a scene of @p nballs balls: the focused
/// one first (ps->focus), then the others in order; the one that takes it
/// has the focus after.
/// @return a short message for the status line ("velocity arrows on",
///   "ball 3", "plot: energy"), or NULL when no panel takes the key
///   (e E b ] [ act on the simulation: the front end's).
const char *panel_key(struct panel_state *ps, int key, size_t nballs);

/* ===== Shared by the panels' files ===== */

/// The screen colour and attributes of a panel colour tag (enum
/// panel_color) or a ball colour.
void panel_color(uint32_t tag, uint32_t *fg, int *attr);

/// Copies grid @p p to the screen at (x, y), mapping colours; ASCII
/// look-alikes when @p glyphs is VIEW_ASCII.
void panel_blit(struct screen *scr, int x, int y, struct plot *p, int glyphs);

/// A grid of w x h cells (free its cells), or one with none (w = h = 0)
/// when memory is short.
struct plot panel_grid(int w, int h);

/// "── name ─────" on the first row of rectangle @p r.
void panel_rule(struct screen *scr, struct screen_rect r, const char *name, int glyphs);

/// The glyph shown where the overlay's @p over (0: nothing) lies on the
/// table's @p under: braille dots are merged, anything else of the overlay
/// wins.
uint32_t panel_merge(uint32_t under, uint32_t over);

#endif
