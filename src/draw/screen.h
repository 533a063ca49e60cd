/*
 * screen.h - the whole terminal screen as a buffer of cells: title line,
 * table, panels, status line, notes and the help overlay, each drawn into
 * a rectangle computed in one place (screen_layout). Pure C11 and libm,
 * no curses and no I/O: the terminal front end flushes the cells that
 * changed; --snapshot prints them as UTF-8 text; the unit tests read them.
 *
 * Cells. A cell holds a Unicode code point, a foreground colour (0: the
 * terminal's default, else SCREEN_RGB | 0xrrggbb) and attributes. A wide
 * character (CJK) takes two cells: the second holds SCREEN_WIDE.
 *
 * Panels (the values table, the plots, the overlay over the table, the lab's
 * part of the status line...) are objects of a class, like htop's meters:
 * a struct panel_class names what a panel wants (a rectangle of some size,
 * or nothing when hidden), how it brings itself up to the state shown, how it
 * draws and which keys it takes. The screen reaches panels only through
 * their classes (screen_add_panel), never the other way round:
 *
 *     static int energy_want(void *self, const struct shown *sh, int *w, int *h)
 *     {
 *         *w = 24;
 *         *h = 3;
 *         return 1;
 *     }
 *     static void energy_draw(void *self, const struct panel_area *a)
 *     {
 *         screen_textf(a->scr, a->r.x, a->r.y, a->r.w, 0, 0, "E %.6g",
 *                      a->sh->d.e);
 *     }
 *     static const struct panel_class energy = {"energy", PANEL_BOX, energy_want,
 *                                               NULL, energy_draw};
 *     screen_add_panel(scr, &energy, NULL);
 *
 * screen_layout gives the shown PANEL_BOX panels a column on the right of
 * the table (stacked, each its wanted height; the last one takes what is
 * left) or a band under the table, at most a third of the rows or a
 * panel's least (the table keeps at least 6), the panels side by side in
 * it when each gets 40 columns,
 * else stacked: whichever leaves the table larger (when both leave it as
 * large, the column if the table keeps 60 columns beside it). Inside its
 * rectangle a panel draws with screen_put, screen_text, screen_textf and
 * screen_box; nothing is clipped for it beyond the rectangle it is given,
 * which it must not leave. A PANEL_TABLE panel draws over each table after
 * the balls; a PANEL_STATUS panel adds fields to the status line. Every
 * panel is redrawn every frame, after the table, before the help.
 *
 * The layer (src/draw/): the screen as cells, pure: the view, palette,
 * screen, panels (a class each: panel.h), plots and the lab's numbers. It
 * reads a struct shown (session/shown.h), never the session itself, and
 * owns no engine.
 */
#ifndef SCREEN_H
#define SCREEN_H

#include "palette.h"
#include "view.h"

#include <stddef.h>
#include <stdint.h>

struct scene;
struct shown;
struct sim;
struct screen;
struct screen_line;

/// A colour in a cell: SCREEN_RGB | 0xrrggbb; 0 is the default colour.
#define SCREEN_RGB 0x1000000u
/// The second cell of a wide character: nothing is written for it.
#define SCREEN_WIDE 0xffffffffu

/// Cell attributes (bits).
enum screen_attr {
    SCREEN_BOLD = 1,
    SCREEN_DIM = 2,
    SCREEN_REVERSE = 4,
};

/// Colours of the interface.
#define SCREEN_WARN (SCREEN_RGB | 0xd7af00)  ///< warnings: amber
#define SCREEN_ALERT (SCREEN_RGB | 0xff5f5f) ///< errors: light red

struct screen_cell {
    uint32_t ch;   ///< Unicode code point, ' ' when blank, or SCREEN_WIDE
    uint32_t fg;   ///< 0 or SCREEN_RGB | rgb
    uint8_t attr;  ///< enum screen_attr bits
};

/// A rectangle of cells: columns [x, x+w), rows [y, y+h).
struct screen_rect {
    int x, y, w, h;
};

/// Note levels.
enum screen_level { SCREEN_INFO = 0, SCREEN_WARNING = 1, SCREEN_ERROR = 2 };

/// What the front end shows besides the session: the state of the
/// terminal front end (keys change it; the screen draws it).
struct front {
    const char *title;  ///< the scene's title or file name
    int running;        ///< 1 running, 0 paused
    double speed;       ///< simulated time per wall second
    int aiming;         ///< 1: the aim arrow shows
    double aim;         ///< radians, counter-clockwise from +x
    size_t cue;         ///< scene index of the cue ball
    double kick_speed;  ///< the speed a kick gives the cue ball
    int trails;         ///< trails on
    int help;           ///< 0 closed, else the page shown + 1
    int behind;         ///< the last frames could not keep up with speed
    double fps;         ///< measured, 0 unknown (not shown)
    int stopped;        ///< paused by the front end (blow-up): why in note
    char note[160];     ///< a message for the status area, or ""
    int note_level;     ///< enum screen_level
    int glyphs;         ///< enum view_glyphs
    int open;           ///< open space (universe): labels, no cue ball
    int mouse;          ///< mouse reporting on (shown in the help)
    /* live edits (issue 14) */
    const char *prompt; ///< the ':' line being typed, or NULL when closed
    size_t prompt_cur;  ///< its cursor, a byte offset
    int arrow;          ///< 1: the cue (selected) ball's velocity arrow shows
    double arrow_t;     ///< the arrow reaches where the ball is in this time
    int pusher;         ///< 1: the pusher is on (scene ball pusher_ball)
    const char *recording; ///< the file R records to, NULL when not recording
    long long rec_frames;  ///< frames recorded so far
    /* replay (issue 30): a recorded run shown frame by frame */
    int replay;            ///< 1: the state is a recorded frame (SESSION_REPLAY)
    size_t frame, frames;  ///< the frame shown (from 0) and how many the file has
    int v_diff;            ///< its velocities are differences of positions
    /* a live run (issue 40): frames of a run elsewhere (SESSION_CAP_REMOTE) */
    int remote;            ///< 1: the state is the live run's last frame (frame: its number)
    char remote_state[16]; ///< the title's word: live, paused, waiting, dropped, ended
    char remote_note[96];  ///< the status line's warning, or ""
    int remote_alert;      ///< the warning in the alert colour (the link dropped)
    long long trate;       ///< its steps a frame; 0: not its to set (a file followed)
    /* zoom (issue 26): z Z 0 F */
    double zoom;           ///< the table this many times larger (1, 2, 4...); 0 or 1: whole
    int nofollow;          ///< 1: the zoomed view stays put; 0: it follows the cue ball
    double zoom_x, zoom_y; ///< where the view is centred when it does not follow
    /* a lesson shown to a class (issue 42.6) */
    int blank;             ///< 1: the screen is blank (a presenter's b): nothing drawn
};

/// Tags (session_tag) the front end gives balls: a scene ball keeps its
/// scene index; a ball added live is SCREEN_TAG_ADDED | its scene colour;
/// the pusher is SCREEN_TAG_PUSHER.
#define SCREEN_TAG_ADDED 0x80000000u
#define SCREEN_TAG_PUSHER 0x40000000u

/// One help entry: the keys (e.g. "k K") and what they do.
struct screen_help {
    const char *keys, *text;
};

struct screen;

/// Where a panel draws (struct panel_class's place).
enum panel_place {
    PANEL_BOX,    ///< a rectangle of its own beside or under the table
    PANEL_TABLE,  ///< over each table, after the balls
    PANEL_STATUS, ///< fields of the status line (screen_status_add)
    PANEL_ROW,    ///< a row of its own above the status line (want: h 1)
};

/// What a panel draws on. Only the fields of its place are set.
/// 1 when the cue ball carries the aim mark (view_mark): aiming or
/// paused, and a table (not open space).
int screen_aim_shown(const struct front *f);

struct panel_area {
    struct screen *scr;
    const struct shown *sh;    ///< what is shown of the session (shown.h)
    const struct front *f;
    struct screen_rect r;      ///< PANEL_BOX: its rectangle; PANEL_TABLE: the table's
    const struct view *v;      ///< PANEL_TABLE: the view the table was drawn from
    const struct sim *s;       ///< PANEL_TABLE: the state drawn on that table
    int second;                ///< PANEL_TABLE: 1 on the split view's second table
    struct screen_line *line;  ///< PANEL_STATUS: the status line
};

/// A panel's class: see the top of this file. @p self is the panel's own
/// state, given to screen_add_panel. Every function but want and draw may
/// be NULL.
struct panel_class {
    const char *name;
    int place; ///< enum panel_place
    /// 1 when the panel is shown, with the size it wants in cells in
    /// (*w, *h) (PANEL_BOX; w > 0, h > 0); 0 when hidden.
    int (*want)(void *self, const struct shown *sh, int *w, int *h);
    /// Brings the panel's state up to the state shown, before it is drawn.
    void (*update)(void *self, const struct shown *sh);
    /// Draws it (see struct panel_area).
    void (*draw)(void *self, const struct panel_area *a);
    /// Takes key @p key (a character or a PANEL_KEY_* of panel.h) for a
    /// scene of @p nballs balls: a message for the status line, "" (taken,
    /// nothing to say) or NULL (not its key).
    const char *(*key)(void *self, int key, size_t nballs);
    /// PANEL_TABLE: 1 with a point of state @p s to add to the trails in
    /// (*x, *y) (the centre of mass' path).
    int (*trail)(void *self, const struct sim *s, double *x, double *y);
    /// A second table, beside the first: its state and its title in
    /// @p title; NULL when there is none (the split view, when on).
    const struct sim *(*second)(void *self, const struct shown *sh, char *title, size_t size,
                                int glyphs);
    /// PANEL_BOX: the least rectangle it shows anything useful in (its
    /// rule included), in (*w, *h), with @p rows for the table and the
    /// panels; NULL: 8 x 2. The band under the table grows past its third
    /// of the rows to give a panel this much.
    void (*least)(void *self, int rows, int *w, int *h);
};

/// A panel: its class and its state.
struct screen_panel {
    const struct panel_class *cls;
    void *self;
};

/// Where everything goes, computed by screen_layout alone.
struct screen_layout {
    int too_small;            ///< below SCREEN_MIN_COLS x SCREEN_MIN_ROWS
    struct screen_rect title; ///< row 0
    struct screen_rect table; ///< the table's grid (the view), box included
    struct screen_rect side;  ///< the panel column, w = 0 when none
    struct screen_rect bottom;///< the panel band under the table when the column
                              ///< does not fit, h = 0 when none
    struct screen_rect table2;///< split view: the event engine's table, w = 0 when none
    struct screen_rect status;///< the last row
    struct screen_rect bar;   ///< the control bar's row above it, h = 0 when none
    int barwant;              ///< the control bar is on (shown or not)
    struct screen_rect note;  ///< the row(s) above the status line
};

/// Smallest screen that shows a table.
#define SCREEN_MIN_COLS 24
#define SCREEN_MIN_ROWS 8
#define SCREEN_MAX_PANELS 8

/// Adds field @p fmt (printf) to a status line at rank @p rank (1 shows
/// first, 7 goes first when the line is short) with @p attr (SCREEN_BOLD...).
void screen_status_add(struct screen_line *l, int rank, int attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

struct screen {
    int cols, rows;
    struct screen_cell *cell;   ///< cols * rows, row-major
    struct screen_layout lay;
    struct view v;              ///< the table's cells
    struct view v2;             ///< split view: the event engine's table
    int split;                  ///< the split view is laid out (a panel's second table)
    double aspect;              ///< cell height / width
    const struct scene *sc;     ///< colours, names, the view rectangle
    uint32_t *ball_fg;          ///< colour of each scene ball (0: the foreground)
    char (*ball_label)[PALETTE_LABEL_MAX]; ///< label of each body in open space ("": a dot)
    int color;                  ///< colours: 0 none, 8, 16 or 256 (1 counts as 256)
    int bg;                     ///< enum palette_bg: what the background is known to be
    int filled;                 ///< palette_fill's key (colours, background, glyphs), 0 none
    struct screen_panel panel[SCREEN_MAX_PANELS];
    struct screen_rect want[SCREEN_MAX_PANELS]; ///< what each wanted at the last
                                                ///< layout: w, h (w 0: hidden)
    int npanels;
    int help_pages;             ///< pages the help took at the last draw
    struct screen_rect legend;  ///< a legend the note leaves readable (the
                                ///< arrows' on the table's frame), set by a panel
                                ///< while the frame is drawn; w 0: none
    double zoom_cx, zoom_cy;    ///< the world point in the middle of the table as
                                ///< last drawn (the zoomed view's centre)
    struct {                    ///< the colour of the ball in each slot as last
        uint32_t *fg;           ///< drawn, for the slots' balls (id) and their
        uint32_t *id, *tag;     ///< tags (by ball) it was made for, with
        size_t n;               ///< palette key filled (0: not made)
        int filled;
    } slot;
    struct screen_zkey *zorder; ///< a 3-D run's slots, farthest first (drawn so)
    size_t zcap;
};

/// Starts a screen for scene @p sc (kept by pointer) with the given cell
/// aspect; @p color: the terminal's colours, 0 (none), 8, 16 or 256 (1
/// counts as 256). Ball colours and body labels come from palette.h for
/// that many colours and scr->bg (unknown unless set). @return 0, or -1
/// (memory).
int screen_init(struct screen *scr, const struct scene *sc, double aspect, int color);

/// Frees it. Safe on a zeroed struct.
void screen_free(struct screen *scr);

/// Lays out a screen of @p cols x @p rows for the table of @p sh (taken;
/// not observed) with the glyphs given, and clears it.
/// @return 0, or -1 (memory).
int screen_layout(struct screen *scr, int cols, int rows, const struct shown *sh, int glyphs);

/// Adds a panel of class @p cls with state @p self (kept by pointer).
/// @return its index, or -1 (full).
int screen_add_panel(struct screen *scr, const struct panel_class *cls, void *self);

/// Whether the panel of class @p cls, shown, got room at the last layout (a
/// rectangle of its least size: struct panel_class's least): 1 (or hidden,
/// or drawn over the table), 0 with the rows it needs in *@p need (the
/// control bar: the terminal's rows).
int screen_panel_room(const struct screen *scr, const struct panel_class *cls, int *need);

/// Draws everything for the state of @p sh (taken and observed: shown.h)
/// and @p f: title, table, panels, status line, note, help. Call
/// screen_layout first (and after a resize). @p help lists @p nhelp
/// entries for the help overlay. The session is never read: the frame
/// may be drawn while it steps elsewhere.
void screen_draw(struct screen *scr, const struct shown *sh, const struct front *f,
                 const struct screen_help *help, size_t nhelp);

/// Draws the zoom's marks over the table (when zoomed): the zoom (x4) on
/// the frame's top edge and, in the bottom right corner, the whole table
/// in small with the part shown filled in.
void screen_draw_zoom(struct screen *scr, const struct front *f);

/// Removes the trails from the table.
void screen_clear_trails(struct screen *scr);

/// The cell at column @p x, row @p y (NULL outside).
const struct screen_cell *screen_at(const struct screen *scr, int x, int y);

/// Writes one character (clipped to the screen); a control character (C0,
/// DEL, C1) is written as U+FFFD.
void screen_put(struct screen *scr, int x, int y, uint32_t ch, uint32_t fg, int attr);

/// Writes UTF-8 text from (x, y), at most @p max columns, never cutting a
/// character (a wide one that does not fit is left out). @return columns.
int screen_text(struct screen *scr, int x, int y, int max, uint32_t fg, int attr,
                const char *s);

/// printf into screen_text.
int screen_textf(struct screen *scr, int x, int y, int max, uint32_t fg, int attr,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/// Fills a rectangle with blanks.
void screen_fill(struct screen *scr, struct screen_rect r);

/// Draws a frame around @p r (inside it), with @p title on the top edge.
void screen_box(struct screen *scr, struct screen_rect r, const char *title, int glyphs);

/// Columns that UTF-8 text takes on a terminal (East Asian wide: 2).
int screen_width(const char *s);

/// Columns of one code point: 0 (combining), 1 or 2.
int screen_cp_width(uint32_t cp);

/// Code point @p c (at most U+10FFFF) as UTF-8 into @p out (4 bytes of
/// room). @return the bytes written, 1 to 4.
int screen_utf8_put(char *out, uint32_t c);

/// The drift of @p e from @p ref as the status line writes it
/// ("+0.125%", "0.000%", "+2.5e+03%", "?").
void screen_drift(char *buf, size_t size, double e, double ref);

/// The colour (0xrrggbb, 0 none) of a ball by its tag.
uint32_t screen_tag_color(const struct screen *scr, uint32_t tag);

/// The screen cell of the tip of the velocity arrow of the cue (selected)
/// ball, as drawn while f->arrow: a handle that a drag sets the velocity
/// with. @return 0, or -1 when there is none.
int screen_arrow_tip(const struct screen *scr, const struct shown *sh,
                     const struct front *f, int *x, int *y);

/// The scene ball under screen cell (x, y) (a click), or (size_t)-1.
size_t screen_ball_at(const struct screen *scr, const struct shown *sh, int x, int y);

/// The world point at the centre of screen cell (x, y).
void screen_to_world(const struct screen *scr, int x, int y, double *wx, double *wy);

/// Writes the screen as UTF-8 lines into @p out (at most @p size bytes,
/// NUL-terminated), with ANSI colours when @p ansi: 256 colours.
/// @return the bytes the whole text needs (as snprintf).
size_t screen_dump(const struct screen *scr, char *out, size_t size, int ansi);

#endif
