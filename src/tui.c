/*
 * tui.c - the terminal front end: curses set-up and restore, the frame
 * loop, keys, the title and status lines, the help overlay, signals.
 *
 * Everything drawn goes through curses' own diffing: stdscr is a stable
 * frame buffer, the table is never cleared per frame, and only the cells
 * the view reports as changed are written into it, so a frame of the break
 * costs the terminal a few hundred bytes.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include "tui.h"

#include "event.h"
#include "gravity.h"
#include "history.h"
#include "scene.h"
#include "sim.h"
#include "view.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

/* === Constants === */

enum {
    MIN_COLS = 24,         /* smallest terminal that shows a table */
    MIN_ROWS = 8,
    HISTORY_DEPTH = 1000,  /* steps that ',' can always undo */
    PAIR_WARN = 1,         /* colour pairs of the interface */
    PAIR_ALERT = 2,
    PAIR_BALL0 = 8,        /* ball colours from here on */
};
#define HISTORY_BUDGET ((size_t)64 << 20) /* bytes of checkpoints at most */
#define EVENT_CHUNK 1000 /* events between two looks at the clock */
#define AIM_STEP (5 * SIM_PI / 180)        /* one arrow key press turns 5 degrees */
#define TUI_PI SIM_PI

/* === Signals === */

/* Set by the handler, acted on in the loop: nothing else is safe there. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

/* Installed before curses starts, so that ncurses, which only catches
 * SIGINT and SIGTERM while they are at their defaults, leaves them to us.
 * No SA_RESTART: a blocking read returns at once. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* === Terminal set-up and restore === */

static SCREEN *ui_screen;
static double ui_t_end; /* wall time --duration ends, 0: none */
static FILE *ui_tty; /* /dev/tty when standard input is not a terminal */
static int ui_active;

/* Restores the terminal. Idempotent: called on every exit path and from
 * atexit. */
static void ui_end(void)
{
    if (ui_active) {
        ui_active = 0;
        mousemask(0, NULL);
        curs_set(1);
        endwin();
        delscreen(ui_screen);
        ui_screen = NULL;
    }
    if (ui_tty) {
        fclose(ui_tty);
        ui_tty = NULL;
    }
}

/* Starts curses on standard output with keys from standard input or
 * /dev/tty. Returns 0, or -1 with a message printed. */
static int ui_begin(void)
{
    FILE *in = stdin;
    if (!isatty(STDIN_FILENO)) {
        ui_tty = fopen("/dev/tty", "r");
        if (!ui_tty) {
            fprintf(stderr, "springball: cannot open /dev/tty for keys: %s\n",
                    strerror(errno));
            return -1;
        }
        in = ui_tty;
    }
    const char *term = getenv("TERM");
    if (!term || !*term) {
        fputs("springball: TERM is not set\n", stderr);
        ui_end();
        return -1;
    }
    ui_screen = newterm(NULL, stdout, in);
    if (!ui_screen) {
        fprintf(stderr, "springball: cannot use terminal type '%s'\n", term);
        ui_end();
        return -1;
    }
    set_term(ui_screen);
    ui_active = 1;
    atexit(ui_end);
    cbreak();
    noecho();
    nonl();
    curs_set(0);
    keypad(stdscr, TRUE);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);
    return 0;
}

/* === Colours === */

/* The xterm 256-colour index nearest to 0xrrggbb: the 6x6x6 cube or the
 * 24 greys. */
static int rgb_to_256(uint32_t rgb)
{
    static const int level[6] = {0, 95, 135, 175, 215, 255};
    int c[3] = {(int)(rgb >> 16) & 255, (int)(rgb >> 8) & 255, (int)rgb & 255};
    int q[3];
    long dc = 0;
    for (int i = 0; i < 3; i++) {
        int best = 0;
        for (int j = 1; j < 6; j++)
            if (abs(level[j] - c[i]) < abs(level[best] - c[i]))
                best = j;
        q[i] = best;
        dc += (long)(level[best] - c[i]) * (level[best] - c[i]);
    }
    int avg = (c[0] + c[1] + c[2]) / 3;
    int g = avg < 8 ? 0 : avg > 238 ? 23 : (avg - 8 + 5) / 10;
    if (g > 23)
        g = 23;
    int gv = 8 + 10 * g;
    long dg = 0;
    for (int i = 0; i < 3; i++)
        dg += (long)(gv - c[i]) * (gv - c[i]);
    return dg < dc ? 232 + g : 16 + 36 * q[0] + 6 * q[1] + q[2];
}

/* The basic colour nearest to 0xrrggbb; black becomes the default
 * foreground (-1) so that a black ball stays visible. */
static int rgb_to_8(uint32_t rgb)
{
    static const uint32_t base[8] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00,
                                     0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5};
    int best = 0;
    long bd = -1;
    for (int i = 0; i < 8; i++) {
        long d = 0;
        for (int sh = 0; sh <= 16; sh += 8) {
            long a = (long)(rgb >> sh) & 255, b = (long)(base[i] >> sh) & 255;
            d += (a - b) * (a - b);
        }
        if (bd < 0 || d < bd) {
            bd = d;
            best = i;
        }
    }
    return best == 0 ? -1 : best;
}

/* === State === */

struct ui {
    const struct scene *sc;
    const char *name;
    struct ui_options o;
    struct sim s;
    struct history h;
    int have_history;
    struct view v;
    int glyphs;          /* enum view_glyphs */
    int ncolors;         /* 0, 8 or 256 */
    short *pair;         /* colour pair of each scene ball */
    int rows, cols;      /* the terminal at the last layout */
    int too_small;
    int running, trails, aiming, quit;
    double aim;          /* radians, counter-clockwise from +x */
    double speed;        /* simulated time per wall second */
    size_t cue;          /* scene index of the cue ball */
    double kick_speed;   /* velocity a kick adds */
    double e_ref;        /* energy at the last change: what drift is against */
    struct ref { long long pos; double e; } *refs; /* e_ref of each change */
    size_t nrefs, caprefs;
    struct sim_diag d;   /* of the current state */
    double diag_at;      /* wall time of d */
    int diag_stale;
    double contact_steps;/* sim_contact_time / dt */
    double behind_until; /* wall time until which "behind" shows */
    int nonfinite;
    double fps;          /* measured */
    int frames;
    double fps_since;
    char note[96];       /* a short message for the status line */
    double note_until;
    double speed0;       /* the initial speed: what - and + are bounded by */
    int open;            /* open space (a universe): labels, no walls, no cue */
    size_t star;         /* scene index of the largest mass (open space) */
    /* The event engine (key m). While it runs, s is its state written back
     * after every advance, for drawing; s.p keeps the spring parameters. */
    int event;           /* 1: the event engine drives the state */
    struct event ev;
    struct event_diag ed;
    long long ev_events0, ev_coll0; /* counts before the engine was last built */
    double ev_t0;        /* time the event mode began (mean free time) */
    double ev_eref;      /* energy after the last change, for the drift */
    /* ',' in event mode: a ring of whole states, one before each '.' and
     * each frame advance (the spring history replays with sim_step, which
     * cannot serve the event engine). */
    struct snap {
        struct sim s;
        long long events, collisions;
        double e_ref;
        int live;        /* s allocated */
    } *snaps;
    size_t capsnap, snap0, nsnap;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The scene index of the ball in array slot i: large scenes are kept in
 * cell order in memory (grid_sort), so slots and scene balls differ. This
 * is the one place that maps a slot back to the scene's ball. */
static size_t ball_index(const struct sim *s, size_t i)
{
    return s->id[i];
}

/* The array slot of scene ball k (the inverse of ball_index). */
static size_t ball_slot(const struct sim *s, size_t k)
{
    return k < s->n ? sim_slot(s, k) : 0;
}

static void note(struct ui *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->note, sizeof u->note, fmt, ap);
    va_end(ap);
    u->note_until = now() + 2.5;
}

/* Diagnostics after a change or a step back: contact resolution, and the
 * energy reference, which is the energy right after the latest user change
 * at or before the current position (a change stepped back over no longer
 * counts). */
static void refresh_params(struct ui *u, int change)
{
    u->contact_steps = sim_contact_time(&u->s) / u->s.p.dt;
    long long pos = u->have_history ? u->h.now : 0;
    while (u->nrefs > 1 && u->refs[u->nrefs - 1].pos > pos)
        u->nrefs--;
    if (change) {
        struct sim_diag d;
        sim_diag(&u->s, &d);
        if (u->nrefs == 0 || u->refs[u->nrefs - 1].pos != pos) {
            if (u->nrefs == u->caprefs) {
                size_t nc = u->caprefs ? 2 * u->caprefs : 16;
                struct ref *nr = realloc(u->refs, nc * sizeof *nr);
                if (nr) {
                    u->refs = nr;
                    u->caprefs = nc;
                }
            }
            if (u->nrefs < u->caprefs)
                u->nrefs++;
        }
        if (u->nrefs) {
            u->refs[u->nrefs - 1].pos = pos;
            u->refs[u->nrefs - 1].e = d.e;
        }
        u->e_ref = d.e;
    } else if (u->nrefs) {
        u->e_ref = u->refs[u->nrefs - 1].e;
    }
    u->diag_stale = 1;
}

/* Records a user change in the history and updates what depends on it. */
static void changed(struct ui *u)
{
    if (u->have_history && history_changed(&u->h, &u->s))
        note(u, "out of memory: history cut short");
    refresh_params(u, 1);
}

static void one_step(struct ui *u)
{
    sim_step(&u->s);
    if (u->have_history)
        history_stepped(&u->h, &u->s);
}

static void check_finite(struct ui *u)
{
    u->nonfinite = !sim_finite(&u->s);
    if (u->nonfinite)
        u->running = 0;
}

/* === The event engine === */

/* Builds u->ev from u->s, overlaps allowed (spring states overlap).
 * Returns 0, or -1 with a note and nothing built. */
static int ev_build(struct ui *u)
{
    struct event_config cfg = event_default_config();
    cfg.allow_overlap = 1;
    struct event_fault f;
    int rc = event_init(&u->ev, &u->s, &cfg, &f);
    if (rc == EVENT_EWALL) {
        note(u, "event engine: ball %zu is through a wall", f.i + 1);
    } else if (rc == EVENT_EOVERLAP) {
        note(u, "event engine: balls %zu and %zu overlap", f.i + 1, f.j + 1);
    } else if (rc != EVENT_OK) {
        note(u, "event engine: out of memory");
    } else {
        event_diag(&u->ev, &u->ed);
        return 0;
    }
    memset(&u->ev, 0, sizeof u->ev);
    return -1;
}

/* Back to the springs with the engine's state (or, when @p why, after the
 * engine failed, with the state in u->s), recorded as a change. */
static void ev_leave(struct ui *u, const char *why)
{
    if (!why)
        event_to_sim(&u->ev, &u->s);
    event_free(&u->ev);
    memset(&u->ev, 0, sizeof u->ev);
    u->event = 0;
    u->nsnap = u->snap0 = 0;
    check_finite(u);
    changed(u);
    note(u, "%s", why ? why : "spring engine");
}

/* Starts the event mode from the current state; stays with the springs,
 * with a note, when there is no event engine for it. */
static void ev_enter(struct ui *u)
{
    const char *why = event_unsupported(&u->s.p);
    if (why) {
        note(u, "no event engine: %s", why);
        return;
    }
    if (u->nonfinite) {
        note(u, "state not finite: ',' steps back, 'r' resets");
        return;
    }
    if (ev_build(u))
        return;
    u->event = 1;
    u->ev_events0 = u->ev_coll0 = 0;
    u->ev_t0 = u->s.t;
    u->ev_eref = u->ed.ke;
    u->nsnap = u->snap0 = 0;
    note(u, "event engine: exact hard balls");
}

/* Keeps the current state for ',': the ring holds whole states, as many
 * as the spring history's depth allows within its memory budget; the
 * oldest goes first. A state that cannot be allocated is not kept. */
static void snap_push(struct ui *u)
{
    if (!u->snaps) {
        size_t per = sizeof(struct snap) + 8 * sizeof(double) * (u->s.n ? u->s.n : 1);
        size_t cap = HISTORY_BUDGET / per;
        if (cap > HISTORY_DEPTH)
            cap = HISTORY_DEPTH;
        if (cap < 2)
            cap = 2;
        u->snaps = calloc(cap, sizeof *u->snaps);
        if (!u->snaps)
            return;
        u->capsnap = cap;
    }
    /* When full this is the oldest slot, reused. */
    struct snap *p = &u->snaps[(u->snap0 + u->nsnap) % u->capsnap];
    if (!p->live) {
        if (sim_init(&p->s, u->s.n, &u->s.p))
            return;
        p->live = 1;
    }
    event_to_sim(&u->ev, &u->s);
    sim_copy(&p->s, &u->s);
    event_diag(&u->ev, &u->ed);
    p->events = u->ev_events0 + u->ed.events;
    p->collisions = u->ev_coll0 + u->ed.collisions;
    p->e_ref = u->ev_eref;
    if (u->nsnap == u->capsnap)
        u->snap0 = (u->snap0 + 1) % u->capsnap;
    else
        u->nsnap++;
}

/* Restores the latest kept state and builds the engine again from it; the
 * parameters (k, dt changed since) stay as they are. */
static int snap_pop(struct ui *u)
{
    if (u->nsnap == 0)
        return -1;
    const struct snap *p = &u->snaps[(u->snap0 + u->nsnap - 1) % u->capsnap];
    u->nsnap--;
    struct sim_params keep = u->s.p;
    sim_copy(&u->s, &p->s);
    u->s.p = keep;
    event_free(&u->ev);
    memset(&u->ev, 0, sizeof u->ev);
    if (ev_build(u)) {
        ev_leave(u, "event engine failed: back to springs");
        return 0;
    }
    u->ev_events0 = p->events;
    u->ev_coll0 = p->collisions;
    u->ev_eref = p->e_ref;
    return 0;
}

/* A frame of the event mode: to the frame's simulated time, looking at the
 * clock every EVENT_CHUNK events so that a frame never takes unbounded
 * time; what does not fit is dropped and the status line says behind. */
static void advance_event(struct ui *u, double wall, double t)
{
    snap_push(u);
    double target = u->ev.t + wall * u->speed;
    double budget = t + 0.7 / u->o.fps;
    int rc;
    do
        rc = event_advance(&u->ev, target, EVENT_CHUNK);
    while (rc == 0 && now() <= budget);
    if (rc == EVENT_ENOMEM || u->ev.nomem) {
        ev_leave(u, "event engine: out of memory, back to springs");
        return;
    }
    if (rc == 0)
        u->behind_until = t + 1;
    event_to_sim(&u->ev, &u->s);
}

/* === Drawing === */

/* Writes one cell at screen (row, col). */
static void put_cell(int row, int col, uint32_t ch, attr_t attr, short pair)
{
    wchar_t wc[2] = {(wchar_t)ch, 0};
    cchar_t cc;
    setcchar(&cc, wc, attr, pair, NULL);
    mvadd_wch(row, col, &cc);
}

/* The view's cell idx onto the screen (the table starts on row 1). */
static void paint(struct ui *u, int idx)
{
    uint32_t ch, color;
    int layer = view_glyph(&u->v, idx, &ch, &color);
    attr_t attr = A_NORMAL;
    /* Blanks and trails keep the colour of the ball that was there: the
     * same look, fewer colour switches on the wire; trails are dim. */
    short pair = (short)color;
    if (layer == VIEW_TRAIL)
        attr = A_DIM;
    else if (layer == VIEW_RIM)
        pair = 0;
    if (layer == VIEW_MARK)
        attr = A_BOLD;
    put_cell(1 + idx / u->v.map.cols, idx % u->v.map.cols, ch, attr, pair);
}

/* Display columns of a UTF-8 string (every character used here is one
 * column wide). */
static int text_width(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Writes s at (row, col), at most max columns; returns the columns used. */
static int put_text(int row, int col, const char *s, int max, attr_t attr, short pair)
{
    int w = 0;
    const char *p = s;
    while (*p && w < max) {
        p++;
        while (((unsigned char)*p & 0xc0) == 0x80)
            p++;
        w++;
    }
    attr_set(attr, pair, NULL);
    mvaddnstr(row, col, s, (int)(p - s));
    attr_set(A_NORMAL, 0, NULL);
    return w;
}


/* Clears row from column col to the end of the line. */
static void clear_from(int row, int col)
{
    move(row, col);
    clrtoeol();
}

/* The world rectangle and how it is bounded. An open-space scene (no
 * walls) would give its own extent here with VIEW_RIM_NONE. */
static void world_rect(const struct ui *u, double *x0, double *y0, double *x1,
                       double *y1, int *rim)
{
    const struct sim *s = &u->s;
    if (s->p.shape == SIM_OPEN) {
        *x0 = u->sc->view.x0;
        *y0 = u->sc->view.y0;
        *x1 = u->sc->view.x1;
        *y1 = u->sc->view.y1;
        *rim = VIEW_RIM_NONE;
        return;
    }
    *x0 = 0;
    *y0 = 0;
    *x1 = s->p.w;
    *y1 = s->p.h;
    *rim = s->p.shape == SIM_CIRCLE ? VIEW_RIM_CIRCLE : VIEW_RIM_BOX;
}

static void draw_box(const struct ui *u)
{
    const struct view_map *m = &u->v.map;
    int t = m->top, b = m->top + m->h + 1; /* screen rows: grid row + 1 */
    int l = m->left - 1, r = m->left + m->w;
    if (u->glyphs == VIEW_ASCII) {
        for (int i = l + 1; i < r; i++) {
            mvaddch(t, i, '-');
            mvaddch(b, i, '-');
        }
        for (int j = t + 1; j < b; j++) {
            mvaddch(j, l, '|');
            mvaddch(j, r, '|');
        }
        mvaddch(t, l, '+');
        mvaddch(t, r, '+');
        mvaddch(b, l, '+');
        mvaddch(b, r, '+');
        return;
    }
    for (int i = l + 1; i < r; i++) {
        mvadd_wch(t, i, WACS_HLINE);
        mvadd_wch(b, i, WACS_HLINE);
    }
    for (int j = t + 1; j < b; j++) {
        mvadd_wch(j, l, WACS_VLINE);
        mvadd_wch(j, r, WACS_VLINE);
    }
    mvadd_wch(t, l, WACS_ULCORNER);
    mvadd_wch(t, r, WACS_URCORNER);
    mvadd_wch(b, l, WACS_LLCORNER);
    mvadd_wch(b, r, WACS_LRCORNER);
}

/* Fits the table to the terminal as it is now, and paints it whole. This
 * and the help overlay are the only full repaints. */
static void layout(struct ui *u)
{
    u->rows = LINES;
    u->cols = COLS;
    erase();
    u->too_small = COLS < MIN_COLS || LINES < MIN_ROWS;
    int rc = 1;
    if (!u->too_small) {
        double x0, y0, x1, y1;
        int rim;
        world_rect(u, &x0, &y0, &x1, &y1, &rim);
        rc = view_layout(&u->v, COLS, LINES - 2, x0, y0, x1, y1, u->o.cell_aspect,
                         rim, u->glyphs);
        u->too_small = rc != 0;
    }
    if (u->too_small) {
        char l1[64], l2[64];
        if (rc < 0) {
            snprintf(l1, sizeof l1, "out of memory");
            snprintf(l2, sizeof l2, "for a %dx%d view", COLS, LINES);
        } else {
            snprintf(l1, sizeof l1, "terminal too small");
            snprintf(l2, sizeof l2, "%dx%d, need %dx%d", COLS, LINES, MIN_COLS, MIN_ROWS);
        }
        int row = LINES / 2 - 1;
        if (row < 0)
            row = 0;
        int c1 = (COLS - (int)strlen(l1)) / 2, c2 = (COLS - (int)strlen(l2)) / 2;
        put_text(row, c1 < 0 ? 0 : c1, l1, COLS, A_BOLD, 0);
        if (row + 1 < LINES)
            put_text(row + 1, c2 < 0 ? 0 : c2, l2, COLS, A_NORMAL, 0);
        return;
    }
    if (u->v.rim == VIEW_RIM_BOX)
        draw_box(u);
    const struct view_map *m = &u->v.map;
    for (int j = m->top; j < m->top + m->h; j++)
        for (int i = m->left; i < m->left + m->w; i++) {
            uint32_t ch, color;
            if (view_glyph(&u->v, j * m->cols + i, &ch, &color) != VIEW_EMPTY)
                paint(u, j * m->cols + i);
        }
}

/* A piece of the status line. */
struct piece {
    char text[112];
    const char *brief; /* shown instead when text does not fit, or NULL */
    attr_t attr;
    short pair;
};

static void piece(struct piece *p, int *n, attr_t attr, short pair, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p[*n].text, sizeof p[*n].text, fmt, ap);
    va_end(ap);
    p[*n].attr = attr;
    p[*n].pair = pair;
    p[*n].brief = NULL;
    (*n)++;
}

/* Numbers that stay a fixed width while they change a little. */
static void fmt_drift(char *buf, size_t size, double e, double ref)
{
    if (!isfinite(e)) {
        snprintf(buf, size, "%s", "?");
        return;
    }
    if (ref == 0) {
        snprintf(buf, size, "%+.3g", e - ref);
        return;
    }
    double pct = 100 * (e - ref) / fabs(ref);
    if (fabs(pct) < 1000)
        snprintf(buf, size, "%+.3f%%", pct);
    else
        snprintf(buf, size, "%+.2e%%", pct);
}

static void draw_title(const struct ui *u)
{
    int utf8 = u->glyphs == VIEW_BRAILLE;
    const char *dot = utf8 ? " \xc2\xb7 " : " - ";
    const char *times = utf8 ? "\xc3\x97" : "x";
    char left[256], right[128];
    if (u->sc->title)
        snprintf(left, sizeof left, " springball%s%s", dot, u->sc->title);
    else
        snprintf(left, sizeof left, " springball%s%s", dot, u->name);
    snprintf(right, sizeof right, "%s%s%s %s%g%s? help ",
             u->event ? "event" : "spring", dot,
             u->nonfinite ? "stopped" : u->running ? "running" : "paused", times,
             u->speed, dot);
    clear_from(0, 0);
    int rw = text_width(right);
    int lw = put_text(0, 0, left, COLS - rw - 1 > 0 ? COLS - rw - 1 : 0, A_BOLD, 0);
    if (lw + rw < COLS)
        put_text(0, COLS - rw, right, rw, u->running ? A_NORMAL : A_BOLD, 0);
}

static void draw_status(struct ui *u, double t)
{
    int utf8 = u->glyphs == VIEW_BRAILLE;
    const char *times = utf8 ? "\xc3\x97" : "x";
    const struct sim *s = &u->s;
    struct piece p[12];
    int n = 0;
    char drift[48];
    if (u->event) {
        /* Hard balls: events instead of steps, no k or dt, the energy is
         * the kinetic energy of event_diag. */
        long long nev = u->ev_events0 + u->ed.events;
        long long nco = u->ev_coll0 + u->ed.collisions;
        double el = s->t - u->ev_t0;
        fmt_drift(drift, sizeof drift, u->ed.ke, u->ev_eref);
        piece(p, &n, A_NORMAL, 0, " t %.2f", s->t);
        piece(p, &n, A_NORMAL, 0, "  events %lld", nev);
        piece(p, &n, A_NORMAL, 0, "  collisions %lld", nco);
        if (nco > 0)
            piece(p, &n, A_NORMAL, 0, "  mft %.3g", (double)s->n * el / (2.0 * (double)nco));
        else
            piece(p, &n, A_NORMAL, 0, "  mft -");
        piece(p, &n, A_NORMAL, 0, "  %s%g", times, u->speed);
        piece(p, &n, A_NORMAL, 0, "  E %.6g (%s)", u->ed.ke, drift);
    } else {
        fmt_drift(drift, sizeof drift, u->d.e, u->e_ref);
        piece(p, &n, A_NORMAL, 0, " t %.2f", s->t);
        piece(p, &n, A_NORMAL, 0, "  step %lld", s->steps);
        piece(p, &n, A_NORMAL, 0, "  dt %.4g", s->p.dt);
        if (s->p.contact != SIM_CONTACT_NONE)
            piece(p, &n, A_NORMAL, 0, "  k %.4g", s->p.k);
        piece(p, &n, A_NORMAL, 0, "  %s%g", times, u->speed);
        piece(p, &n, A_NORMAL, 0, "  E %.6g (%s)", u->d.e, drift);
        if (s->p.gravity != 0 && s->p.shape != SIM_OPEN)
            piece(p, &n, A_NORMAL, 0, "  G %.3g", s->p.gravity);
    }
    int core = n;
    /* Warnings, most serious first, take the place of the quiet part. */
    short alert = u->ncolors ? PAIR_ALERT : 0, warn = u->ncolors ? PAIR_WARN : 0;
    if (u->nonfinite) {
        piece(p, &n, A_BOLD, alert, "  not finite: paused (',' back, r reset)");
        p[n - 1].brief = "  not finite: paused";
    } else if (u->event || u->s.p.contact == SIM_CONTACT_NONE) {
        /* no contact to resolve with dt */
    } else if (u->contact_steps < SIM_PI / 2) {
        piece(p, &n, A_BOLD, alert, "  unstable: %.2g steps/contact",
              u->contact_steps);
        p[n - 1].brief = "  unstable";
    } else if (u->contact_steps < 10) {
        piece(p, &n, A_BOLD, warn, "  dt too coarse: %.2g steps/contact",
              u->contact_steps);
        p[n - 1].brief = "  dt too coarse";
    }
    if (t < u->behind_until)
        piece(p, &n, A_BOLD, warn, "  behind: cannot keep %s%g", times, u->speed);
    if (t < u->note_until)
        piece(p, &n, A_BOLD, 0, "  %s", u->note);
    if (n == core) {
        if (u->running && u->fps > 0)
            piece(p, &n, A_NORMAL, 0, "  %.0f fps", u->fps);
        piece(p, &n, A_NORMAL, 0, "  %zu balls", s->n);
        if (u->event)
            piece(p, &n, A_DIM, 0, "  back %zu", u->nsnap);
        else if (u->have_history)
            piece(p, &n, A_DIM, 0, "  back %lld", history_depth(&u->h));
    }
    int row = LINES - 1, col = 0;
    clear_from(row, 0);
    for (int i = 0; i < n; i++) {
        int w = text_width(p[i].text);
        if (col + w > COLS && p[i].brief && col + text_width(p[i].brief) <= COLS) {
            col += put_text(row, col, p[i].brief, COLS - col, p[i].attr, p[i].pair);
            continue;
        }
        if (col + w > COLS) {
            /* A number cut short would mislead: a quiet piece is left
             * out, a warning is cut to what fits. */
            if (i < core)
                break;
            if (p[i].attr == A_NORMAL || p[i].attr == A_DIM)
                continue;
        }
        col += put_text(row, col, p[i].text, COLS - col, p[i].attr, p[i].pair);
    }
}

/* A body of open space: the first letter of its name in upper case, the
 * largest mass a star. */
static uint32_t body_glyph(const struct ui *u, size_t k)
{
    if (k == u->star)
        return u->glyphs == VIEW_ASCII ? '*' : 0x2736; /* six-pointed star */
    const char *name = scene_ball_name(u->sc, k);
    unsigned char c = (unsigned char)name[0];
    if (c >= 'a' && c <= 'z')
        return (uint32_t)(c - 'a' + 'A');
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return c;
    return 'o';
}

static void draw(struct ui *u, double t)
{
    if (u->too_small) {
        refresh();
        return;
    }
    /* A state that is not finite is not drawn: the last frame stays. */
    if (!u->nonfinite) {
        const struct sim *s = &u->s;
        view_begin(&u->v);
        if (u->trails)
            for (size_t i = 0; i < s->n; i++)
                view_trail(&u->v, s->x[i], s->y[i]);
        for (size_t i = 0; i < s->n; i++) {
            size_t k = ball_index(s, i);
            if (u->open)
                view_label(&u->v, s->x[i], s->y[i], body_glyph(u, k),
                           (uint32_t)u->pair[k]);
            else
                view_ball(&u->v, s->x[i], s->y[i], s->r[i], (uint32_t)u->pair[k]);
        }
        if (u->aiming) {
            size_t c = ball_slot(s, u->cue);
            view_mark(&u->v, s->x[c], s->y[c], s->r[c], u->aim,
                      (uint32_t)u->pair[u->cue]);
        }
        view_end(&u->v);
        for (size_t i = 0; i < u->v.npaint; i++)
            paint(u, u->v.paint[i]);
    }
    draw_title(u);
    draw_status(u, t);
    refresh();
}

/* === Keys === */

static void kick(struct ui *u)
{
    size_t c = ball_slot(&u->s, u->cue);
    u->aiming = 0;
    if (u->event) {
        snap_push(u);
        event_kick(&u->ev, c, u->ev.vx[c] + u->kick_speed * cos(u->aim),
                   u->ev.vy[c] + u->kick_speed * sin(u->aim));
        event_to_sim(&u->ev, &u->s);
        event_diag(&u->ev, &u->ed);
        u->ev_eref = u->ed.ke;
        note(u, "kick");
        return;
    }
    u->s.vx[c] += u->kick_speed * cos(u->aim);
    u->s.vy[c] += u->kick_speed * sin(u->aim);
    changed(u);
    note(u, "kick");
}

/* Open space has no cue ball: the kick keys say so. */
static int no_cue(struct ui *u)
{
    if (u->open)
        note(u, "open space: no cue ball to aim or kick");
    return u->open;
}

static void k_pause(struct ui *u, int key)
{
    (void)key;
    if (u->nonfinite) {
        note(u, "state not finite: ',' steps back, 'r' resets");
        return;
    }
    u->running = !u->running;
}

static void k_step(struct ui *u, int key)
{
    (void)key;
    u->running = 0;
    if (u->event) {
        snap_push(u);
        if (event_step(&u->ev, 1) == 0)
            note(u, "no more events");
        event_to_sim(&u->ev, &u->s);
        return;
    }
    if (u->nonfinite)
        return;
    one_step(u);
    check_finite(u);
    u->diag_stale = 1;
}

static void k_back(struct ui *u, int key)
{
    (void)key;
    u->running = 0;
    if (u->event) {
        if (snap_pop(u))
            note(u, "no further back");
        return;
    }
    if (!u->have_history || history_back(&u->h, &u->s)) {
        note(u, "no further back");
        return;
    }
    check_finite(u);
    refresh_params(u, 0);
}

static void k_reset(struct ui *u, int key)
{
    (void)key;
    struct sim fresh;
    if (scene_to_sim(u->sc, &fresh)) {
        note(u, "out of memory");
        return;
    }
    sim_copy(&u->s, &fresh);
    sim_free(&fresh);
    u->nonfinite = 0;
    u->aiming = 0;
    view_clear_trails(&u->v);
    if (u->event) {
        event_free(&u->ev);
        memset(&u->ev, 0, sizeof u->ev);
        if (event_unsupported(&u->s.p) || ev_build(u)) {
            ev_leave(u, "reset: back to springs");
            return;
        }
        u->ev_events0 = u->ev_coll0 = 0;
        u->ev_t0 = u->s.t;
        u->ev_eref = u->ed.ke;
        u->nsnap = u->snap0 = 0;
        note(u, "reset");
        return;
    }
    changed(u);
    note(u, "reset");
}

/* k and dt are the spring engine's; in event mode they are kept for it. */
static void k_stiffness(struct ui *u, int key)
{
    u->s.p.k = key == 'K' ? u->s.p.k * 1.25 : u->s.p.k / 1.25;
    if (u->event) {
        refresh_params(u, 0);
        note(u, "k %.4g (for the spring engine)", u->s.p.k);
        return;
    }
    changed(u);
}

static void k_dt(struct ui *u, int key)
{
    u->s.p.dt = key == 'D' ? u->s.p.dt * 1.25 : u->s.p.dt / 1.25;
    if (u->event) {
        refresh_params(u, 0);
        note(u, "dt %.4g (for the spring engine)", u->s.p.dt);
        return;
    }
    changed(u);
}

static void k_engine(struct ui *u, int key)
{
    (void)key;
    if (u->event)
        ev_leave(u, NULL);
    else
        ev_enter(u);
}

/* Gravity on and off: the scene's G and softening, or, in a scene without
 * a gravity directive, gravity_default's. */
static void k_gravity(struct ui *u, int key)
{
    (void)key;
    if (u->event) {
        note(u, "gravity needs the spring engine (m)");
        return;
    }
    if (u->s.p.gravity != 0) {
        u->s.p.gravity = 0;
        note(u, "gravity off");
    } else if (u->sc->p.gravity != 0) {
        u->s.p.gravity = u->sc->p.gravity;
        u->s.p.softening = u->sc->p.softening;
        note(u, "gravity on: G %.3g", u->s.p.gravity);
    } else {
        double G, soft;
        if (gravity_default(u->s.n, u->s.m, u->s.r, u->s.p.k, &G, &soft)) {
            note(u, "no gravity for this scene");
            return;
        }
        u->s.p.gravity = G;
        u->s.p.softening = soft;
        note(u, "gravity on: G %.3g softening %.3g", G, soft);
    }
    changed(u);
}

static void k_speed(struct ui *u, int key)
{
    double sp = key == '-' ? u->speed / 2 : u->speed * 2;
    if (sp >= fmin(1.0 / 1024, u->speed0 / 1024) && sp <= fmax(1048576, u->speed0 * 1024))
        u->speed = sp;
}

/* An arrow turns the aim 5 degrees toward the direction it points. */
static void k_aim(struct ui *u, int key)
{
    double want = key == KEY_RIGHT ? 0 : key == KEY_UP ? TUI_PI / 2
                : key == KEY_LEFT ? TUI_PI : -TUI_PI / 2;
    if (no_cue(u))
        return;
    if (u->aiming) {
        double d = remainder(want - u->aim, 2 * TUI_PI);
        if (fabs(d) >= TUI_PI - 1e-9)
            d = TUI_PI; /* straight behind: turn counter-clockwise */
        u->aim += fabs(d) <= AIM_STEP ? d : copysign(AIM_STEP, d);
        u->aim = remainder(u->aim, 2 * TUI_PI);
    }
    u->aiming = 1;
}

static void k_kick(struct ui *u, int key)
{
    (void)key;
    if (u->nonfinite || no_cue(u))
        return;
    kick(u);
}

static void k_mouse(struct ui *u, int key)
{
    (void)key;
    MEVENT ev;
    if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return;
    if (u->too_small || u->nonfinite || no_cue(u))
        return;
    double x, y;
    view_to_world(&u->v.map, ev.x + 0.5, ev.y - 1 + 0.5, &x, &y);
    size_t c = ball_slot(&u->s, u->cue);
    double dx = x - u->s.x[c], dy = y - u->s.y[c];
    if (dx == 0 && dy == 0)
        return;
    u->aim = atan2(dy, dx);
    kick(u);
}

static void k_trails(struct ui *u, int key)
{
    (void)key;
    u->trails = !u->trails;
    if (!u->trails)
        view_clear_trails(&u->v);
}

static void k_quit(struct ui *u, int key)
{
    (void)key;
    u->quit = 1;
}

static void k_resize(struct ui *u, int key)
{
    (void)key;
    layout(u);
}

static void k_help(struct ui *u, int key);

/*
 * The key table: every key the program knows, in the order the help
 * overlay lists them. A key whose help is NULL shares the line above
 * (K next to k). Add a key by adding a row.
 */
static const struct binding {
    int key;
    void (*fn)(struct ui *, int key);
    const char *label; /* as the help shows it */
    const char *help;
} bindings[] = {
    {' ', k_pause, "space", "pause / resume"},
    {'.', k_step, ".", "one step forward (pauses); event mode: one event"},
    {',', k_back, ",", "one step back (at least 1000 steps); event mode:"},
    {0, NULL, "", "  one event after '.', one frame while running"},
    {'r', k_reset, "r", "reset the scene"},
    {'k', k_stiffness, "k K", "stiffness k down / up (x1.25)"},
    {'K', k_stiffness, NULL, NULL},
    {'d', k_dt, "d D", "time step dt down / up (x1.25)"},
    {'D', k_dt, NULL, NULL},
    {'-', k_speed, "- +", "speed down / up (x2)"},
    {'+', k_speed, NULL, NULL},
    {'=', k_speed, NULL, NULL},
    {KEY_LEFT, k_aim, "arrows", "aim the cue ball (5 degrees a press)"},
    {KEY_RIGHT, k_aim, NULL, NULL},
    {KEY_UP, k_aim, NULL, NULL},
    {KEY_DOWN, k_aim, NULL, NULL},
    {'\r', k_kick, "enter", "kick the cue ball along the aim"},
    {'\n', k_kick, NULL, NULL},
    {KEY_ENTER, k_kick, NULL, NULL},
    {KEY_MOUSE, k_mouse, "click", "kick the cue ball toward the point"},
    {'t', k_trails, "t", "trails on / off"},
    {'m', k_engine, "m", "engine: springs / exact events"},
    {'g', k_gravity, "g", "gravity on / off"},
    {'?', k_help, "?", "this help"},
    {'q', k_quit, "q Esc", "quit"},
    {27, k_quit, NULL, NULL},
    {KEY_RESIZE, k_resize, NULL, NULL},
};

static void handle_key(struct ui *u, int key)
{
    for (size_t i = 0; i < sizeof bindings / sizeof *bindings; i++)
        if (bindings[i].fn && bindings[i].key == key) {
            bindings[i].fn(u, key);
            return;
        }
    /* Unknown keys do nothing. */
}

/* Milliseconds to wait at most: @p ms (-1 forever) bounded by the end of
 * --duration. */
static int bound_wait(int ms, double t_end)
{
    if (t_end > 0) {
        double left = ceil((t_end - now()) * 1000);
        if (left < 0)
            left = 0;
        if (ms < 0 || left < ms)
            ms = (int)left;
    }
    return ms;
}

/* The help overlay: a box over the table, closed by any key. Time stands
 * still while it shows. */
static void k_help(struct ui *u, int key)
{
    (void)key;
    for (;;) {
        if (u->too_small)
            return;
        int nl = 0, w = 0;
        for (size_t i = 0; i < sizeof bindings / sizeof *bindings; i++)
            if (bindings[i].help) {
                nl++;
                int lw = 9 + (int)strlen(bindings[i].help);
                if (lw > w)
                    w = lw;
            }
        int hh = nl + 4, ww = w + 4;
        if (hh > LINES)
            hh = LINES;
        if (ww > COLS)
            ww = COLS;
        WINDOW *win = newwin(hh, ww, (LINES - hh) / 2, (COLS - ww) / 2);
        if (!win)
            return;
        keypad(win, TRUE);
        werase(win);
        if (u->glyphs == VIEW_ASCII)
            wborder(win, '|', '|', '-', '-', '+', '+', '+', '+');
        else
            box_set(win, WACS_VLINE, WACS_HLINE);
        mvwaddstr(win, 0, 2, " keys ");
        int row = 1;
        for (size_t i = 0; i < sizeof bindings / sizeof *bindings && row < hh - 2; i++) {
            if (!bindings[i].help)
                continue;
            wattron(win, A_BOLD);
            mvwaddnstr(win, row, 2, bindings[i].label, ww - 4);
            wattroff(win, A_BOLD);
            if (ww > 13)
                mvwaddnstr(win, row, 11, bindings[i].help, ww - 13);
            row++;
        }
        wattron(win, A_DIM);
        mvwaddnstr(win, hh - 2, 2, "any key closes", ww - 4);
        wattroff(win, A_DIM);
        wnoutrefresh(win);
        doupdate();
        int ch;
        do {
            wtimeout(win, bound_wait(-1, ui_t_end));
            ch = wgetch(win);
        } while (ch == ERR && !got_signal && !(ui_t_end > 0 && now() >= ui_t_end));
        delwin(win);
        if (ch == KEY_RESIZE) {
            layout(u);
            draw(u, now());
            continue;
        }
        break;
    }
    touchwin(stdscr);
    refresh();
}

/* === The frame loop === */

/* Advances by speed x the wall time since the last frame, in whole steps
 * of dt (the rest carries over), giving up on what does not fit in most
 * of a frame: then the status line says it is behind. */
static void advance(struct ui *u, double wall, double t, double *acc)
{
    *acc += wall * u->speed;
    double want_d = floor(*acc / u->s.p.dt);
    long long want = want_d > 1e7 ? 10000000LL : (long long)want_d;
    double budget = t + 0.7 / u->o.fps;
    long long done = 0;
    while (done < want) {
        one_step(u);
        done++;
        if (!sim_finite(&u->s)) {
            check_finite(u);
            break;
        }
        if ((done & 7) == 0 && now() > budget)
            break;
    }
    *acc -= (double)done * u->s.p.dt;
    if (done < want) {
        *acc = 0;
        if (!u->nonfinite)
            u->behind_until = t + 1;
    }
}

static int loop(struct ui *u)
{
    double t_prev = now(), acc = 0, next = t_prev;
    int resync = 0;
    u->fps_since = t_prev;
    layout(u);
    while (!got_signal && !u->quit) {
        double t = now();
        if (ui_t_end > 0 && t >= ui_t_end)
            break;
        if (resync) {
            t_prev = t;
            next = t;
            acc = 0;
            resync = 0;
        }
        if (u->running && u->event)
            advance_event(u, t - t_prev, t);
        else if (u->running)
            advance(u, t - t_prev, t, &acc);
        t_prev = t;
        /* The energy sums every pair: a few times a second is enough. */
        if (u->event) {
            event_diag(&u->ev, &u->ed); /* O(n), no pairs */
        } else if (u->diag_stale || t - u->diag_at > 0.25) {
            sim_diag(&u->s, &u->d);
            u->diag_at = t;
            u->diag_stale = 0;
        }
        draw(u, t);
        u->frames++;
        if (t - u->fps_since >= 1) {
            u->fps = u->frames / (t - u->fps_since);
            u->frames = 0;
            u->fps_since = t;
        }
        int ms;
        if (u->running) {
            next += 1 / u->o.fps;
            double tn = now();
            if (next < tn)
                next = tn;
            ms = (int)ceil((next - tn) * 1000);
        } else {
            /* Paused: wait for a key, using no CPU; wake only to take a
             * note off the status line. */
            ms = t < u->note_until ? (int)ceil((u->note_until - t) * 1000) : -1;
            resync = 1;
        }
        timeout(bound_wait(ms, ui_t_end));
        int ch = getch();
        while (ch != ERR && !u->quit) {
            timeout(0);
            if (ch == 27) {
                /* Esc alone quits; Esc at once followed by more is an escape
                 * sequence curses did not know: an unknown key, ignored. */
                int more = getch();
                if (more != ERR) {
                    while (getch() != ERR)
                        ;
                    ch = ERR;
                    continue;
                }
            }
            handle_key(u, ch);
            ch = getch();
        }
        if (!u->running) {
            resync = 1;
            u->fps_since = now();
            u->frames = 0;
        }
    }
    return 0;
}

/* === Entry === */

void ui_default_options(struct ui_options *o)
{
    o->fps = 30;
    o->speed = 0; /* by the scene: see default_speed */
    o->duration = 0;
    o->ascii = 0;
    o->no_color = 0;
    o->cell_aspect = 2;
    o->engine = 0;
}

/* The speed when --speed was not given: 20 time units a second for native
 * scenes (the break's cue ball reaches the rack in 2 s); 60 steps of dt a
 * second in open space (a year of planets.txt in about 21 s); in the unit
 * box of the particle format, a quarter of the box a second for the
 * fastest ball, as the break's cue ball does on its table (to two
 * significant digits). */
static double default_speed(const struct scene *sc)
{
    if (sc->p.shape == SIM_OPEN)
        return 60 * sc->p.dt;
    if (sc->format == SCENE_FORMAT_PARTICLES) {
        double vmax = 0;
        for (size_t i = 0; i < sc->n; i++)
            vmax = fmax(vmax, hypot(sc->balls[i].vx, sc->balls[i].vy));
        if (!(vmax > 0))
            return 1;
        /* to two significant digits, for the title line */
        double v = 0.25 * fmin(sc->p.w, sc->p.h) / vmax;
        double unit = pow(10, floor(log10(v)) - 1);
        v = round(v / unit) * unit;
        return isfinite(v) && v > 0 ? v : 1;
    }
    return 20;
}

/* One colour pair per distinct ball colour, as far as pairs go. */
static void init_colors(struct ui *u)
{
    int bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
    u->ncolors = COLORS >= 256 ? 256 : 8;
    init_pair(PAIR_WARN, COLOR_YELLOW, (short)bg);
    init_pair(PAIR_ALERT, COLOR_RED, (short)bg);
    int next = PAIR_BALL0;
    int fgs[256];
    short pairs[256];
    int nf = 0;
    for (size_t i = 0; i < u->sc->n; i++) {
        uint32_t c = u->sc->balls[i].color;
        if (c == SCENE_COLOR_NONE)
            continue;
        uint32_t rgb = scene_color_rgb(c);
        int fg = u->ncolors == 256 ? rgb_to_256(rgb) : rgb_to_8(rgb);
        if (fg < 0 && bg >= 0)
            fg = COLOR_WHITE;
        int j = 0;
        while (j < nf && fgs[j] != fg)
            j++;
        if (j == nf) {
            if (nf == 256 || next >= COLOR_PAIRS || next > 32767)
                continue;
            init_pair((short)next, (short)fg, (short)bg);
            fgs[nf] = fg;
            pairs[nf++] = (short)next++;
        }
        u->pair[i] = pairs[j];
    }
}

int ui_run(const struct scene *sc, const char *name, const struct ui_options *o)
{
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    int utf8 = cs && strcmp(cs, "UTF-8") == 0;
    struct ui *u = calloc(1, sizeof *u);
    if (!u) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    u->sc = sc;
    u->name = name;
    u->o = *o;
    u->glyphs = o->ascii || !utf8 ? VIEW_ASCII : VIEW_BRAILLE;
    u->speed = o->speed > 0 ? o->speed : default_speed(sc);
    u->speed0 = u->speed;
    u->pair = calloc(sc->n ? sc->n : 1, sizeof *u->pair);
    view_init(&u->v);
    if (!u->pair || scene_to_sim(sc, &u->s)) {
        fputs("springball: out of memory\n", stderr);
        free(u->pair);
        free(u);
        return 1;
    }
    int cap;
    long long every;
    history_size(u->s.n, HISTORY_BUDGET, HISTORY_DEPTH, &cap, &every);
    u->have_history = history_init(&u->h, &u->s, cap, every) == 0;

    /* The cue ball is the first ball (scene index 0): scenes list it
     * first. A kick adds the largest speed of the scene as loaded. */
    u->cue = 0;
    double vmax = 0;
    for (size_t i = 0; i < sc->n; i++)
        vmax = fmax(vmax, hypot(sc->balls[i].vx, sc->balls[i].vy));
    u->kick_speed = vmax > 0 ? vmax : (sc->p.w + sc->p.h) / 120;
    const struct scene_ball *cb = &sc->balls[u->cue];
    u->aim = cb->vx || cb->vy ? atan2(cb->vy, cb->vx) : 0;
    u->running = 1;
    u->open = u->s.p.shape == SIM_OPEN;
    u->trails = u->open;
    for (size_t i = 1; i < sc->n; i++)
        if (sc->balls[i].m > sc->balls[u->star].m)
            u->star = i;
    refresh_params(u, 1);
    if (o->engine)
        ev_enter(u);

    catch_signals();
    int rc = 1;
    if (ui_begin() == 0) {
        const char *nc = getenv("NO_COLOR");
        if (!o->no_color && !(nc && *nc) && has_colors() && start_color() == OK)
            init_colors(u);
        ui_t_end = o->duration > 0 ? now() + o->duration : 0;
        rc = loop(u);
    }
    ui_end();
    view_free(&u->v);
    if (u->have_history)
        history_free(&u->h);
    if (u->event)
        event_free(&u->ev);
    for (size_t i = 0; i < u->capsnap; i++)
        if (u->snaps[i].live)
            sim_free(&u->snaps[i].s);
    free(u->snaps);
    sim_free(&u->s);
    free(u->pair);
    free(u->refs);
    free(u);
    if (got_signal)
        return 128 + got_signal;
    return rc;
}
