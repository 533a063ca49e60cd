/*
 * tui.c - the terminal front end: the frame loop, the key table and its
 * handlers, the key script of --keys, and --snapshot (the same keys and
 * screen without a terminal). The terminal itself is term.c's.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include "tui.h"

#include "command.h"
#include "event.h"
#include "gravity.h"
#include "app_keys.h"
#include "lab.h"
#include "labscreen.h"
#include "scene.h"
#include "palette.h"
#include "recording.h"
#include "screen.h"
#include "script.h"
#include "session.h"
#include "sim.h"
#include "traj.h"
#include "term.h"
#include "text.h"
#include "view.h"
#include "words.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define AIM_STEP (5 * SIM_PI / 180) /* one arrow key press turns 5 degrees */
#define NOTE_SECONDS 2.5            /* a note shows this long (wall time) */
#define KEY_CTRL_L 12

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Milliseconds to wait for @p seconds, rounded up, in [0, one hour]: a wait
 * of any length (a script's <t 1e300>, an infinite one) is a poll that
 * sleeps; the loop wakes at most hourly to look again. */
static int ms_until(double seconds)
{
    double ms = ceil(seconds * 1000);
    if (!(ms > 0)) /* also NaN */
        return 0;
    return ms < 3600e3 ? (int)ms : 3600000;
}


/* === The front end's state === */

struct ui {
    const struct scene *sc;
    struct ui_options o;
    struct session ss;
    struct screen scr;
    struct front f;
    struct lab_front lab;  /* the classroom lab: panels, vectors, split view */
    int live;              /* 1: a terminal; 0: --snapshot */
    int ncolors;           /* 0, 8, 16 or 256 */
    int quit;
    double wall;           /* the clock: now() live, the script's in a snapshot */
    double target;         /* simulated time the run aims at */
    double note_until;     /* wall time the note goes */
    double speed0;         /* the initial speed: what - and + are bounded by */
    int click_x, click_y;  /* the cell of the last click */
    int redraw;            /* Ctrl-L: write every cell again */
    /* live edits */
    struct command_line cl;/* the ':' line and its history */
    int prompting;         /* the ':' line is open */
    char title_buf[128];   /* a title given by ':title' */
    int drag;              /* enum drag: what the held button does */
    double grab_dx, grab_dy; /* the ball's centre from the pointer */
    double ptr_x, ptr_y;   /* the pointer's last world point */
    double add_x, add_y;   /* the last click's: where 'a' adds */
    int have_ptr;          /* a click has been made */
    unsigned added;        /* balls added by 'a': their colours go round */
    int saves;             /* files written by w */
    double arrow_t0;       /* the velocity arrow's time without the lab's arrows */
    /* the script */
    struct script_item *items;
    int nitems, next_item;
    double due;            /* wall time the current wait ends (live, paused) */
    int save_next;         /* the number w tries first */
    long snap_calls;       /* --snapshot: chunks of work the wait has left */
    int wait_sim;          /* a wait runs until the simulated time wait_end */
    double wait_end;
    /* fps */
    int frames;
    double fps_since, last_frame;
    struct recording rec;  /* R: the states shown, to files (recording.h) */
    char said[160];        /* a session note in words (session_said) */
    int pause_armed;       /* -T: the pause at o.pause_at is still to come */
    /* replay (issue 30): a recorded run played back, nothing simulated */
    struct traj *tr;       /* the run, or NULL */
    struct sim fsim;       /* the frame read, then shown */
};

static void lab_select(struct ui *u, size_t ball);

/* Steps a search for a contact event (] [) may take at most, and ball-steps
 * (each step looks at every ball): a keypress never hangs a large scene. */
#define LAB_SEEK_MAX 20000
#define LAB_SEEK_WORK 1e7

static void note_level(struct ui *u, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void note_level(struct ui *u, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->f.note, sizeof u->f.note, fmt, ap);
    va_end(ap);
    u->f.note_level = level;
    u->note_until = u->wall + NOTE_SECONDS;
}

#define note(u, ...) note_level(u, SCREEN_INFO, __VA_ARGS__)

/* What the session said, or NULL: its own text, or its note (enum
 * session_note) in words that name the keys that answer it. */
static const char *session_said(struct ui *u)
{
    const struct session *ss = &u->ss;
    if (ss->msg || !ss->note)
        return ss->msg;
    const size_t *b = ss->note_ball;
    switch (ss->note) {
    case SESSION_NOTE_NOT_FINITE:
        return "state not finite: ',' steps back, 'r' resets";
    case SESSION_NOTE_NOT_FINITE_PAUSED:
        return "not finite: paused (',' back, r reset)";
    case SESSION_NOTE_UNSTABLE:
        return "unstable: dt too large for k; paused (d or k, then ',' or r)";
    case SESSION_NOTE_NEEDS_SPRINGS:
        snprintf(u->said, sizeof u->said, "%s needs the spring engine (m)",
                 ss->note_what ? ss->note_what : "this");
        return u->said;
    case SESSION_NOTE_TABLE_FIXED:
        return "the table cannot change live (w saves the scene to edit)";
    case SESSION_NOTE_CROSSES_WALL:
        snprintf(u->said, sizeof u->said, "ball %zu crosses a wall: with walls hard "
                 "every ball must lie wholly on the table", b[0]);
        return u->said;
    case SESSION_NOTE_OVERLAP:
        snprintf(u->said, sizeof u->said, ss->engine == SESSION_EVENT
                 ? "ball %zu overlaps ball %zu: if they approach they collide at once"
                 : "ball %zu overlaps ball %zu: the springs push them apart", b[0], b[1]);
        return u->said;
    case SESSION_NOTE_STOPS_HERE:
        snprintf(u->said, sizeof u->said, "%zu balls: ',' stops here (memory)", b[0]);
        return u->said;
    case SESSION_NOTE_EVENT_FAULT:
        return words_event_fault(u->said, sizeof u->said, ss->note_code, b[0], b[1]);
    case SESSION_NOTE_EVENT_STOP: {
        static const char pre[] = "not finite: paused (',' back, r reset): ";
        memcpy(u->said, pre, sizeof pre - 1);
        words_event_stop(u->said + sizeof pre - 1, sizeof u->said - (sizeof pre - 1),
                         ss->note_code, b[0], b[1], ss->note_t);
        return u->said;
    }
    }
    return "?";
}

/* Shows what the session said, when it said something. */
static void session_note(struct ui *u, int level)
{
    const char *said = session_said(u);
    if (said)
        note_level(u, level, "%s", said);
}

static void resume_clock(struct ui *u)
{
    u->target = u->ss.s.t;
    u->frames = 0;
    u->fps_since = u->wall;
    u->f.fps = 0;
}

/* === Keys === */

enum drag { DRAG_NONE, DRAG_EMPTY, DRAG_BALL, DRAG_VELOCITY, DRAG_PUSHER };

/* Open space has no cue ball: the kick keys say so. */
static int no_cue(struct ui *u)
{
    if (u->f.open)
        note(u, "open space: no cue ball to aim or kick");
    return u->f.open;
}

static void kick(struct ui *u)
{
    u->f.aiming = 0;
    if (session_kick(&u->ss, u->f.cue, u->f.kick_speed * cos(u->f.aim),
                     u->f.kick_speed * sin(u->f.aim))) {
        session_note(u, SCREEN_WARNING);
        return;
    }
    note(u, "kick: ball %zu at %.3g", u->f.cue + 1, u->f.kick_speed);
}

static void k_pause(struct ui *u, int key)
{
    (void)key;
    if (u->ss.nonfinite) {
        note_level(u, SCREEN_WARNING, "state not finite: ',' steps back, 'r' resets");
        return;
    }
    u->f.running = !u->f.running;
    u->f.stopped = 0;
    if (u->f.running)
        resume_clock(u);
}

static void k_step(struct ui *u, int key)
{
    (void)key;
    u->f.running = 0;
    if (session_forward(&u->ss) <= 0)
        session_note(u, u->ss.nonfinite ? SCREEN_ERROR : SCREEN_INFO);
}

static void k_back(struct ui *u, int key)
{
    (void)key;
    u->f.running = 0;
    u->f.stopped = 0;
    if (session_back(&u->ss))
        session_note(u, SCREEN_INFO);
}

static void k_reset(struct ui *u, int key)
{
    (void)key;
    if (session_reset(&u->ss)) {
        note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    u->f.aiming = 0;
    u->f.stopped = 0;
    screen_clear_trails(&u->scr);
    resume_clock(u);
    if (session_said(u))
        session_note(u, SCREEN_WARNING);
    else
        note(u, "reset");
}

/* k K d D: k or dt down or up by 1.25, within the session's bounds. They
 * are the spring engine's; in event mode they are kept for it. */
static void k_param(struct ui *u, int key)
{
    int is_k = key == 'k' || key == 'K';
    const char *name = is_k ? "k" : "dt";
    double *now = is_k ? &u->ss.s.p.k : &u->ss.s.p.dt;
    double want = key == 'K' || key == 'D' ? *now * 1.25 : *now / 1.25;
    if (is_k)
        session_set_k(&u->ss, want);
    else
        session_set_dt(&u->ss, want);
    if (*now != want)
        note(u, "%s stays within 10^6 of the scene's", name);
    else if (u->ss.engine == SESSION_EVENT)
        note(u, "%s %.4g (for the spring engine)", name, *now);
}

/* Why the event engine was refused, without the engine's own "event engine: "
 * prefix: the note already says "no event engine: ". */
static const char *no_event_reason(struct ui *u)
{
    static const char prefix[] = "event engine: ";
    const char *why = session_said(u);
    return strncmp(why, prefix, sizeof prefix - 1) == 0 ? why + sizeof prefix - 1 : why;
}

static void k_engine(struct ui *u, int key)
{
    (void)key;
    int to = u->ss.engine == SESSION_EVENT ? SESSION_SPRING : SESSION_EVENT;
    if (session_set_engine(&u->ss, to)) {
        note(u, "no event engine: %s", no_event_reason(u));
        return;
    }
    u->f.stopped = 0;
    resume_clock(u);
    note(u, "%s", to == SESSION_EVENT ? "event engine: exact hard balls" : "spring engine");
}

/* Gravity on and off: the scene's G and softening, or, in a scene without
 * a gravity directive, gravity_default's. */
static void k_gravity(struct ui *u, int key)
{
    (void)key;
    const struct sim *s = &u->ss.s;
    double G, soft;
    if (u->ss.engine == SESSION_EVENT) {
        note(u, "gravity needs the spring engine (m)");
        return;
    }
    if (s->p.gravity != 0) {
        G = 0;
        soft = s->p.softening;
    } else if (u->sc->p.gravity != 0) {
        G = u->sc->p.gravity;
        soft = u->sc->p.softening;
    } else if (gravity_default(s->n, s->m, s->r, s->p.k, &G, &soft)) {
        note(u, "no gravity for this scene");
        return;
    }
    if (session_set_gravity(&u->ss, G, soft)) {
        session_note(u, SCREEN_WARNING);
        return;
    }
    if (G == 0)
        note(u, "gravity off");
    else if (u->sc->p.gravity != 0)
        note(u, "gravity on: G %.3g", G);
    else
        note(u, "gravity on: G %.3g softening %.3g", G, soft);
}

static void k_speed(struct ui *u, int key)
{
    double sp = key == '-' ? u->f.speed / 2 : u->f.speed * 2;
    double lo = fmin(1.0 / 1024, u->speed0 / 1024), hi = fmax(1048576, u->speed0 * 1024);
    if (!(hi <= 1e300))
        hi = 1e300;
    if (sp >= lo && sp <= hi && isfinite(sp))
        u->f.speed = sp;
    else
        note(u, "speed stays within 1024 times the first");
}

/* An arrow turns the aim 5 degrees toward the direction it points. */
static int pusher_arrow(struct ui *u, int key);

static void k_aim(struct ui *u, int key)
{
    if (pusher_arrow(u, key))
        return;
    double want = key == APP_KEY_RIGHT ? 0 : key == APP_KEY_UP ? SIM_PI / 2
                : key == APP_KEY_LEFT ? SIM_PI : -SIM_PI / 2;
    if (no_cue(u))
        return;
    if (u->f.aiming) {
        double d = remainder(want - u->f.aim, 2 * SIM_PI);
        if (fabs(d) >= SIM_PI - 1e-9)
            d = SIM_PI; /* straight behind: turn counter-clockwise */
        u->f.aim += fabs(d) <= AIM_STEP ? d : copysign(AIM_STEP, d);
        u->f.aim = remainder(u->f.aim, 2 * SIM_PI);
    }
    u->f.aiming = 1;
}

static void k_kick(struct ui *u, int key)
{
    (void)key;
    if (u->ss.nonfinite || no_cue(u))
        return;
    kick(u);
}

/* < and >: the kick speed ([ and ] step between contact events). */
static void k_kick_speed(struct ui *u, int key)
{
    if (no_cue(u))
        return;
    double v = key == '>' ? u->f.kick_speed * 1.25 : u->f.kick_speed / 1.25;
    if (isfinite(v) && v > 1e-300 && v < 1e300)
        u->f.kick_speed = v;
    u->f.aiming = 1;
}

/* Tab: the next ball becomes the cue ball. */
static void k_cue(struct ui *u, int key)
{
    if (no_cue(u) || u->ss.s.n == 0)
        return;
    size_t n = u->ss.s.n;
    u->f.cue = key == APP_KEY_BTAB ? (u->f.cue + n - 1) % n : (u->f.cue + 1) % n;
    u->f.aiming = 1;
    lab_select(u, u->f.cue); /* marked, its row and contacts in the values panel */
    note(u, "cue ball: ball %zu (selected)", u->f.cue + 1);
}

/* === Live edits (issue 14): the selected ball is the cue ball === */

#define PUSHER_MASS 1e30 /* infinite for the others: not pushed back */
#define WHEEL_MASS 1.1   /* a wheel notch: mass times this (or divided) */
#define WHEEL_RADIUS 1.05

/* The scene ball of the pusher, or (size_t)-1. */
static size_t pusher_ball(const struct ui *u)
{
    for (size_t b = u->ss.s.n; b-- > 0;)
        if (session_tag(&u->ss, b) == SCREEN_TAG_PUSHER)
            return b;
    return (size_t)-1;
}

/* The selection stays a ball after edits, ',' and '.'. */
static void fix_cue(struct ui *u)
{
    size_t n = u->ss.s.n;
    if (u->f.cue >= n)
        u->f.cue = n ? n - 1 : 0;
    if (u->lab.ps.ov.selected != PANEL_NONE && u->lab.ps.ov.selected != u->f.cue) {
        u->lab.ps.ov.selected = n ? u->f.cue : PANEL_NONE; /* the lab's selection follows */
        u->lab.ps.pv.selected = u->lab.ps.ov.selected;
    }
    /* with the lab's velocity arrows on, the handle sits at the tip of
     * the selected ball's: the same scale */
    const struct lab_scale *vs = &u->lab.ps.ov.scale[0];
    double sx = u->scr.v.map.sx;
    if ((u->lab.ps.ov.arrows & PANEL_ARROW_V) && vs->per_cell > 0 && sx > 0 &&
        u->drag != DRAG_VELOCITY)
        u->f.arrow_t = 1 / (vs->per_cell * sx);
    else if (u->drag != DRAG_VELOCITY)
        u->f.arrow_t = u->arrow_t0;
    u->f.pusher = pusher_ball(u) != (size_t)-1;
    u->f.arrow = (!u->f.running || u->drag == DRAG_VELOCITY) && n > 0 && !u->f.open &&
                 !u->f.prompt && u->f.cue != pusher_ball(u);
}

/* After an edit: the session's note (an overlap) or ours; a refusal warns. */
static int edited(struct ui *u, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int edited(struct ui *u, int rc, const char *fmt, ...)
{
    if (rc) {
        session_note(u, SCREEN_WARNING);
        return -1;
    }
    if (session_said(u)) {
        session_note(u, SCREEN_INFO);
    } else if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(u->f.note, sizeof u->f.note, fmt, ap);
        va_end(ap);
        u->f.note_level = SCREEN_INFO;
        u->note_until = u->wall + NOTE_SECONDS;
    }
    fix_cue(u);
    return 0;
}

/* The selected ball, or a note that there is none. */
static int have_ball(struct ui *u)
{
    if (u->ss.s.n == 0 || (u->f.pusher && u->ss.s.n == 1)) {
        note(u, "no ball: a or :ball adds one");
        return 0;
    }
    return 1;
}

static void kick(struct ui *u);

/* The velocity as the drag of the arrow's tip says: speed and direction. */
static void drag_velocity(struct ui *u, double wx, double wy)
{
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i >= u->ss.s.n || !(u->f.arrow_t > 0))
        return;
    double vx = (wx - u->ss.s.x[i]) / u->f.arrow_t, vy = (wy - u->ss.s.y[i]) / u->f.arrow_t;
    double deg = atan2(vy, vx) * 180 / SIM_PI;
    if (deg < 0)
        deg += 360;
    edited(u, session_set_velocity(&u->ss, u->f.cue, vx, vy), "ball %zu: v %.3g at %.0f%s",
           u->f.cue + 1, hypot(vx, vy), deg, u->f.glyphs == VIEW_ASCII ? " deg" : "\xc2\xb0");
}

static void move_pusher(struct ui *u, double wx, double wy)
{
    size_t p = pusher_ball(u);
    if (p == (size_t)-1)
        return;
    session_gesture(&u->ss, 1); /* paused: one move however far it goes */
    edited(u, session_move(&u->ss, p, wx, wy, 1), NULL);
}

/* One mouse event at screen cell (x, y); @p mod: Shift, Ctrl or Alt held. */
static void mouse_event(struct ui *u, int kind, int x, int y, int mod)
{
    if (u->scr.lay.too_small || u->prompting)
        return;
    if (u->tr) { /* replay: a click selects, nothing moves */
        size_t b = kind == APP_MOUSE_PRESS ? screen_ball_at(&u->scr, &u->ss, x, y) : (size_t)-1;
        if (b < u->ss.s.n) {
            u->f.cue = b;
            lab_select(u, b);
            note(u, "ball %zu (selected)", b + 1);
        }
        return;
    }
    double wx, wy;
    screen_to_world(&u->scr, x, y, &wx, &wy);
    u->click_x = x;
    u->click_y = y;
    fix_cue(u);
    if (kind != APP_MOUSE_WHEEL_UP && kind != APP_MOUSE_WHEEL_DOWN && u->drag == DRAG_NONE)
        session_gesture(&u->ss, 0); /* a wheel's run of notches ends */
    switch (kind) {
    case APP_MOUSE_PRESS: {
        u->ptr_x = u->add_x = wx;
        u->ptr_y = u->add_y = wy;
        u->have_ptr = 1;
        int tx, ty;
        if (u->f.pusher) {
            u->drag = DRAG_PUSHER;
            session_gesture(&u->ss, 1);
            move_pusher(u, wx, wy);
            return;
        }
        if (u->f.arrow && !screen_arrow_tip(&u->scr, &u->ss, &u->f, &tx, &ty) &&
            abs(tx - x) <= 1 && ty == y) {
            u->drag = DRAG_VELOCITY;
            session_gesture(&u->ss, 1);
            note(u, "drag the tip: the velocity of ball %zu", u->f.cue + 1);
            return;
        }
        size_t b = screen_ball_at(&u->scr, &u->ss, x, y);
        if (b != (size_t)-1) {
            u->f.cue = b;
            u->f.aiming = !u->f.open;
            size_t i = session_slot(&u->ss, b);
            u->grab_dx = u->ss.s.x[i] - wx;
            u->grab_dy = u->ss.s.y[i] - wy;
            u->drag = DRAG_BALL;
            session_gesture(&u->ss, 1);
            lab_select(u, b);
            if (u->f.open)
                note(u, "selected: ball %zu", b + 1);
            else
                note(u, "cue ball: ball %zu (selected)", b + 1);
            return;
        }
        u->drag = DRAG_EMPTY;
        return;
    }
    case APP_MOUSE_MOVE:
        u->ptr_x = wx;
        u->ptr_y = wy;
        if (u->drag == DRAG_BALL)
            edited(u, session_move(&u->ss, u->f.cue, wx + u->grab_dx, wy + u->grab_dy, 0),
                   "ball %zu at (%.4g, %.4g)", u->f.cue + 1, wx + u->grab_dx, wy + u->grab_dy);
        else if (u->drag == DRAG_VELOCITY)
            drag_velocity(u, wx, wy);
        else if (u->drag == DRAG_PUSHER || (u->f.pusher && u->f.mouse))
            move_pusher(u, wx, wy); /* the pusher follows the pointer */
        return;
    case APP_MOUSE_RELEASE: {
        int was = u->drag;
        u->drag = DRAG_NONE;
        session_gesture(&u->ss, 0);
        fix_cue(u);
        if (was != DRAG_EMPTY || u->ss.nonfinite || no_cue(u) || !have_ball(u))
            return;
        /* a click on empty table: kick toward it */
        size_t c = session_slot(&u->ss, u->f.cue);
        double dx = wx - u->ss.s.x[c], dy = wy - u->ss.s.y[c];
        if (dx == 0 && dy == 0)
            return;
        u->f.aim = atan2(dy, dx);
        kick(u);
        return;
    }
    default: { /* the wheel over the selected ball: mass (with a modifier, radius) */
        size_t b = screen_ball_at(&u->scr, &u->ss, x, y);
        if (b == (size_t)-1 || b != u->f.cue || b == pusher_ball(u)) {
            if (u->lab.ps.values) /* elsewhere it scrolls the values panel */
                panel_key(&u->lab.ps, kind == APP_MOUSE_WHEEL_UP ? PANEL_KEY_PGUP : PANEL_KEY_PGDN,
                          u->ss.s.n);
            else
                note(u, "the wheel over the selected ball changes its mass");
            return;
        }
        size_t i = session_slot(&u->ss, b);
        int up = kind == APP_MOUSE_WHEEL_UP;
        session_gesture(&u->ss, 1);
        if (mod) {
            double r = up ? u->ss.s.r[i] * WHEEL_RADIUS : u->ss.s.r[i] / WHEEL_RADIUS;
            edited(u, session_set_radius(&u->ss, b, r), "ball %zu: r %.4g", b + 1, r);
        } else {
            double m = up ? u->ss.s.m[i] * WHEEL_MASS : u->ss.s.m[i] / WHEEL_MASS;
            edited(u, session_set_mass(&u->ss, b, m), "ball %zu: m %.4g", b + 1, m);
        }
        return;
    }
    }
}

/* While a ball is held and the run goes on, it stays at the pointer. */
static void hold(struct ui *u)
{
    if (u->drag == DRAG_BALL && u->f.running)
        session_move(&u->ss, u->f.cue, u->ptr_x + u->grab_dx, u->ptr_y + u->grab_dy, 0);
}

/* a: a ball at the last click (or the table's centre), with the selected
 * ball's mass and radius, at rest; it becomes the selected one. */
static void k_add(struct ui *u, int key)
{
    (void)key;
    const struct sim *s = &u->ss.s;
    double x = u->have_ptr ? u->add_x : 0.5 * s->p.w, y = u->have_ptr ? u->add_y : 0.5 * s->p.h;
    if (s->p.shape == SIM_OPEN && !u->have_ptr)
        x = y = 0; /* open space: the view is -R..R */
    double m = 1, r = 0.05 * fmin(s->p.w, s->p.h);
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i < s->n && u->f.cue != pusher_ball(u)) {
        m = s->m[i];
        r = s->r[i];
    }
    uint32_t color = 1 + u->added % 6; /* red, green, yellow, blue, magenta, cyan */
    if (edited(u, session_add_ball(&u->ss, x, y, 0, 0, m, r, SCREEN_TAG_ADDED | color), NULL))
        return;
    u->added++;
    u->f.cue = u->ss.s.n - 1;
    if (!session_said(u))
        note(u, "ball %zu added at (%.4g, %.4g): m %.4g r %.4g", u->f.cue + 1, x, y, m, r);
    fix_cue(u);
}

/* x, Delete: the selected ball goes (',' brings it back). */
static void k_delete(struct ui *u, int key)
{
    (void)key;
    if (!have_ball(u))
        return;
    size_t b = u->f.cue;
    if (b == pusher_ball(u)) {
        note(u, "h takes the pusher away");
        return;
    }
    edited(u, session_remove_ball(&u->ss, b), "ball %zu removed (',' brings it back)", b + 1);
}

/* h: the pusher, a ball of infinite mass at the pointer (or moved by the
 * arrows) that pushes the others through the contact law. */
static void k_pusher(struct ui *u, int key)
{
    (void)key;
    size_t p = pusher_ball(u);
    if (p != (size_t)-1) {
        edited(u, session_remove_ball(&u->ss, p), "pusher off");
        return;
    }
    if (u->ss.engine == SESSION_EVENT) {
        /* moved without a velocity, it would pass through the balls it
         * lands on: an overlap that does not approach is left to separate */
        note(u, "the pusher needs the spring engine (m)");
        return;
    }
    const struct sim *s = &u->ss.s;
    double x = u->have_ptr ? u->ptr_x : 0.5 * s->p.w, y = u->have_ptr ? u->ptr_y : 0.5 * s->p.h;
    double r = 0.05 * fmin(s->p.w, s->p.h);
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i < s->n)
        r = s->r[i];
    edited(u, session_add_ball(&u->ss, x, y, 0, 0, PUSHER_MASS, r, SCREEN_TAG_PUSHER),
           "pusher on: drag it, or move it with the arrows; h again takes it away");
}

/* The arrows move the pusher a cell's width (or two rows' height). */
static int pusher_arrow(struct ui *u, int key)
{
    size_t p = pusher_ball(u);
    if (p == (size_t)-1)
        return 0;
    size_t i = session_slot(&u->ss, p);
    double step = 1 / u->scr.v.map.sx;
    if (!(step > 0) || !isfinite(step))
        step = u->ss.s.r[i];
    double x = u->ss.s.x[i], y = u->ss.s.y[i];
    x += key == APP_KEY_RIGHT ? step : key == APP_KEY_LEFT ? -step : 0;
    y += key == APP_KEY_UP ? step * u->scr.v.map.aspect : key == APP_KEY_DOWN ? -step * u->scr.v.map.aspect : 0;
    session_gesture(&u->ss, !u->f.running);
    edited(u, session_move(&u->ss, p, x, y, 1), NULL);
    return 1;
}

/* The colour a saved ball keeps: its scene colour by its tag. */
static uint32_t tag_scene_color(const struct ui *u, uint32_t tag)
{
    if (tag & SCREEN_TAG_ADDED)
        return tag & ~SCREEN_TAG_ADDED;
    return tag < u->sc->n ? u->sc->balls[tag].color : SCENE_COLOR_NONE;
}

/* Opens a new file for w: --save-to's name, else springball-N.scene; a
 * name taken gets the next number (never an overwrite). The numbers go on
 * from the last save's, so that many saves do not search from 1 each. */
static FILE *save_open(struct ui *u, char *name, size_t size)
{
    int from = u->save_next > 1 ? u->save_next : 1;
    for (int n = from; n < from + 10000; n++) {
        if (u->o.save_to) {
            const char *s = u->o.save_to, *dot = strrchr(s, '.'), *slash = strrchr(s, '/');
            if (!dot || (slash && dot < slash) || dot == s)
                dot = s + strlen(s);
            if (n == 1)
                snprintf(name, size, "%s", s);
            else
                snprintf(name, size, "%.*s-%d%s", (int)(dot - s), s, n, dot);
        } else {
            snprintf(name, size, "springball-%d.scene", n);
        }
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "w");
            if (!f) {
                close(fd);
                remove(name);
            }
            u->save_next = n + 1;
            return f;
        }
        if (errno != EEXIST)
            return NULL;
    }
    errno = EEXIST;
    return NULL;
}

/* w: the state as a scene file that reloads to it bit for bit. */
static void k_save(struct ui *u, int key)
{
    (void)key;
    struct sim s = {0};
    struct scene out;
    memset(&out, 0, sizeof out);
    if (sim_assign(&s, &u->ss.s)) {
        note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    size_t p = pusher_ball(u);
    if (p != (size_t)-1)
        sim_remove_ball(&s, p); /* the pusher is not part of the scene */
    out.p = s.p;
    out.title = (char *)(u->title_buf[0] ? u->title_buf : u->sc->title);
    out.n = out.cap = s.n;
    out.balls = calloc(s.n ? s.n : 1, sizeof *out.balls);
    if (!out.balls) {
        sim_free(&s);
        note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    for (size_t b = 0, k = 0; b < u->ss.s.n; b++)
        if (b != p)
            out.balls[k++].color = tag_scene_color(u, session_tag(&u->ss, b));
    /* the cue ball, by its number without the pusher */
    if (u->f.cue != p && u->f.cue < u->ss.s.n && !u->f.open)
        out.cue = u->f.cue + 1 - (p != (size_t)-1 && p < u->f.cue);
    char name[SAVE_TO_MAX + 32];
    FILE *f = sim_finite(&s) ? save_open(u, name, sizeof name) : NULL;
    if (!sim_finite(&s)) {
        /* inf or nan is no scene: it would not read back */
        note_level(u, SCREEN_ERROR, "cannot save: the state is not finite "
                                    "(, steps back)");
    } else if (!f) {
        note_level(u, SCREEN_ERROR, "cannot save: %s", strerror(errno));
    } else {
        scene_write(f, &out, &s);
        int bad = fflush(f) != 0 || ferror(f);
        int e = errno;
        if (fclose(f) != 0 && !bad)
            bad = 1, e = errno;
        if (bad) {
            remove(name); /* no partial file (a full disk) */
            note_level(u, SCREEN_ERROR, "cannot save %s: %s", name, strerror(e));
        } else {
            u->saves++;
            note(u, "saved %s (%zu balls)", name, s.n);
        }
    }
    free(out.balls);
    sim_free(&s);
}

/* Runs a ':' line. @return 0, or -1 when it was refused (the line stays). */
static int run_command(struct ui *u, const char *line)
{
    struct command c;
    char err[256];
    if (command_parse(&c, line, session_observed(&u->ss), err, sizeof err)) {
        note_level(u, SCREEN_ERROR, "%s", err);
        return -1;
    }
    int rc = 0;
    size_t b = u->f.cue;
    switch (c.kind) {
    case COMMAND_NONE:
        break;
    case COMMAND_PARAMS:
        rc = edited(u, session_set_params(&u->ss, &c.p), "%s", line);
        break;
    case COMMAND_BALLS:
        if (c.n > COMMAND_BALLS_MAX) { /* the moves kept for ',' take memory */
            note_level(u, SCREEN_ERROR, "at most %d balls a command (a scene file takes more)",
                       COMMAND_BALLS_MAX);
            rc = -1;
            break;
        }
        {
            /* all at once: one copy of the state, not one a ball */
            struct session_ball *nb = malloc((c.n ? c.n : 1) * sizeof *nb);
            if (!nb) {
                note_level(u, SCREEN_ERROR, "out of memory");
                rc = -1;
                break;
            }
            for (size_t i = 0; i < c.n; i++)
                nb[i] = (struct session_ball){c.balls[i].x, c.balls[i].y, c.balls[i].vx,
                                              c.balls[i].vy, c.balls[i].m, c.balls[i].r,
                                              SCREEN_TAG_ADDED | c.balls[i].color};
            rc = edited(u, session_add_balls(&u->ss, nb, c.n), NULL);
            free(nb);
        }
        if (rc == 0) {
            u->f.cue = u->ss.s.n - 1;
            if (!session_said(u))
                note(u, c.n == 1 ? "ball %zu added" : "%zu balls added", c.n == 1 ? u->ss.s.n : c.n);
        }
        break;
    case COMMAND_CUE:
        u->f.cue = (size_t)c.a - 1;
        u->f.aiming = 1;
        lab_select(u, u->f.cue);
        note(u, "cue ball: ball %zu", u->f.cue + 1);
        break;
    case COMMAND_TITLE:
        snprintf(u->title_buf, sizeof u->title_buf, "%s", c.title);
        u->f.title = u->title_buf;
        break;
    default:
        if (!have_ball(u)) {
            rc = -1;
            break;
        }
        if (b == pusher_ball(u) && c.kind != COMMAND_POSITION) {
            note(u, "the pusher: h takes it away");
            rc = -1;
            break;
        }
        if (c.kind == COMMAND_MASS)
            rc = edited(u, session_set_mass(&u->ss, b, c.a), "ball %zu: m %.6g", b + 1, c.a);
        else if (c.kind == COMMAND_RADIUS)
            rc = edited(u, session_set_radius(&u->ss, b, c.a), "ball %zu: r %.6g", b + 1, c.a);
        else if (c.kind == COMMAND_VELOCITY)
            rc = edited(u, session_set_velocity(&u->ss, b, c.a, c.b), "ball %zu: v (%.6g, %.6g)",
                        b + 1, c.a, c.b);
        else if (c.kind == COMMAND_POSITION)
            rc = edited(u, session_move(&u->ss, b, c.a, c.b, 0), "ball %zu at (%.6g, %.6g)",
                        b + 1, c.a, c.b);
        else
            rc = edited(u, session_remove_ball(&u->ss, b), "ball %zu removed (',' brings it back)",
                        b + 1);
        break;
    }
    command_free(&c);
    if (rc && !u->f.note[0])
        note_level(u, SCREEN_ERROR, "refused");
    else if (rc)
        u->f.note_level = SCREEN_ERROR;
    return rc;
}

static void prompt_show(struct ui *u)
{
    u->f.prompt = u->prompting ? u->cl.buf : NULL;
    u->f.prompt_cur = u->cl.cur;
    fix_cue(u);
}

/* ':' opens the command line (it pauses: edits are made at one moment). */
static void k_prompt(struct ui *u, int key)
{
    (void)key;
    u->prompting = 1;
    u->f.running = 0;
    u->f.help = 0;
    command_open(&u->cl);
    prompt_show(u);
}

/* A key while the command line is open. */
static void prompt_key(struct ui *u, int key)
{
    int k = key == '\r' || key == '\n' ? COMMAND_KEY_ENTER
          : key == 27 ? COMMAND_KEY_CANCEL
          : key == APP_KEY_BACKSPACE || key == 127 || key == 8 ? COMMAND_KEY_BACKSPACE
          : key == APP_KEY_DELETE ? COMMAND_KEY_DELETE
          : key == APP_KEY_LEFT ? COMMAND_KEY_LEFT
          : key == APP_KEY_RIGHT ? COMMAND_KEY_RIGHT
          : key == APP_KEY_HOME || key == 1 ? COMMAND_KEY_HOME
          : key == APP_KEY_END || key == 5 ? COMMAND_KEY_END
          : key == APP_KEY_UP ? COMMAND_KEY_UP
          : key == APP_KEY_DOWN ? COMMAND_KEY_DOWN
          : key == 21 ? COMMAND_KEY_KILL
          : key >= 0x20 && key < 0x100 ? key : 0;
    if (k == 0)
        return;
    int r = command_key(&u->cl, k);
    if (r < 0) {
        u->prompting = 0;
    } else if (r == 2) {
        note_level(u, SCREEN_ERROR, "the line is longer than %d characters: "
                                    "not run (C-u clears it)", COMMAND_MAX);
    } else if (r > 0) {
        if (run_command(u, u->cl.buf) == 0)
            u->prompting = 0;
        /* refused: the line stays to be mended, the message above it */
    }
    prompt_show(u);
}

static void k_mouse_toggle(struct ui *u, int key)
{
    (void)key;
    u->f.mouse = !u->f.mouse;
    term_mouse(u->f.mouse);
    note(u, u->f.mouse ? "mouse on: click to kick or choose the cue ball"
                       : "mouse off: the terminal selects text");
}

static void k_trails(struct ui *u, int key)
{
    (void)key;
    u->f.trails = !u->f.trails;
    if (!u->f.trails)
        screen_clear_trails(&u->scr);
}

static void k_redraw(struct ui *u, int key)
{
    (void)key;
    u->redraw = 1;
}

static void k_quit(struct ui *u, int key)
{
    (void)key;
    u->quit = 1;
}

static void relayout(struct ui *u);

/* === The classroom lab's keys === */

/* Lays the screen out again (a panel shown or hidden, the split view). */
static void lab_relayout(struct ui *u)
{
    if (u->live) {
        relayout(u);
        return;
    }
    if (screen_layout(&u->scr, u->o.snap_cols, u->o.snap_rows, &u->ss, u->f.glyphs)) {
        note_level(u, SCREEN_ERROR, "out of memory");
    }
}

static void lab_select(struct ui *u, size_t ball)
{
    int had = u->lab.ps.ov.selected != PANEL_NONE;
    u->lab.ps.ov.selected = ball;
    u->lab.ps.pv.selected = ball;
    u->lab.ps.pv.free_scroll = 0;
    if (!had && u->lab.ps.values) /* the contacts' lines */
        lab_relayout(u);
}

/* v p f c n i P s, PgUp PgDn: what is shown. */
static void k_lab(struct ui *u, int key)
{
    int pk = key == APP_KEY_PGUP ? PANEL_KEY_PGUP : key == APP_KEY_PGDN ? PANEL_KEY_PGDN : key;
    if (key == 's') {
        const char *why;
        int on = !u->lab.ps.split;
        if (labscreen_split(&u->lab, &u->ss, on, &why)) {
            note(u, "no split view: %s", why);
            return;
        }
        u->lab.ps.split = on;
        lab_relayout(u);
        note(u, "%s", on ? "split: the spring engine and the event engine, time-locked"
                         : "split off");
        return;
    }
    const char *msg = panel_key(&u->lab.ps, pk, u->ss.s.n);
    if (key == 'P') /* a plot over time: every step and event sampled */
        session_sampling(&u->ss, u->lab.ps.plot == PANEL_PLOT_ENERGY ||
                                     u->lab.ps.plot == PANEL_PLOT_MOMENTUM);
    if (key == 'i' || key == 'P')
        lab_relayout(u);
    if (msg && *msg)
        note(u, "%s", msg);
}

/* 1: 1-D mode on / off. */
static void k_line(struct ui *u, int key)
{
    (void)key;
    int on = !u->ss.s.p.line;
    if (session_set_line(&u->ss, on)) {
        session_note(u, SCREEN_WARNING);
        return;
    }
    note(u, on ? "1-D: every ball keeps its row, vy = 0, contacts along x" : "2-D again");
}

/* e E: restitution down / up a tenth. */
static void k_restitution(struct ui *u, int key)
{
    double e = lab_restitution_step(u->ss.s.p.restitution, key == 'E' ? 1 : -1);
    if (session_set_restitution(&u->ss, e)) {
        session_note(u, SCREEN_WARNING);
        return;
    }
    note(u, "restitution %.1f%s", e,
         e == 1 ? ": elastic" : e == 0 ? ": sticky, balls that meet move on together" : "");
}

/* V: time reversed, every velocity turned around (an edit: ',' undoes it). */
static void k_reverse(struct ui *u, int key)
{
    (void)key;
    edited(u, session_reverse(&u->ss), "time reversed");
}

/* b: spring walls -> hard walls -> no walls. */
static void k_border(struct ui *u, int key)
{
    (void)key;
    if (u->f.open) {
        note(u, "open space has no walls");
        return;
    }
    int b = lab_border_next(lab_border(&u->ss.s.p));
    struct sim_params p = u->ss.s.p;
    lab_border_set(&p, b, u->sc->p.shape, u->sc->p.open);
    if (session_set_border(&u->ss, p.shape, p.walls, p.open)) {
        session_note(u, SCREEN_WARNING);
        return;
    }
    note(u, "%s", lab_border_name(b));
}

/* One move of the session forward or back, for lab_seek_event. */
static const struct sim *seek_forward(void *ctx)
{
    struct session *ss = ctx;
    return session_forward(ss) == 1 ? &ss->s : NULL;
}

static const struct sim *seek_back(void *ctx)
{
    struct session *ss = ctx;
    return session_back(ss) == 0 ? &ss->s : NULL;
}

/* ] [: to the next / previous contact event (a contact begins or ends). */
static void k_contact(struct ui *u, int key)
{
    if (u->ss.engine != SESSION_SPRING) {
        note(u, "event mode: '.' steps one collision");
        return;
    }
    u->f.running = 0;
    struct lab_event ev;
    int fwd = key == ']';
    long most = LAB_SEEK_MAX;
    if (u->ss.s.n > 0 && LAB_SEEK_WORK / (double)u->ss.s.n < most)
        most = (long)(LAB_SEEK_WORK / (double)u->ss.s.n) + 1;
    if (lab_seek_event(&u->ss.s, fwd ? seek_forward : seek_back, &u->ss, most, &ev)) {
        note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    if (!ev.found) {
        if (u->ss.nonfinite)
            session_note(u, SCREEN_ERROR);
        else if (ev.steps < most)
            note(u, "%s", fwd ? "no contact event ahead" : "no contact event back to the start");
        else
            note(u, "no contact event within %ld steps", most);
        return;
    }
    if (fwd) {
        if (ev.began && ev.ended)
            note(u, "%zu contact%s began, %zu ended (%ld step%s on)", ev.began,
                 ev.began > 1 ? "s" : "", ev.ended, ev.steps, ev.steps > 1 ? "s" : "");
        else
            note(u, "%zu contact%s %s (%ld step%s on)", ev.began + ev.ended,
                 ev.began + ev.ended > 1 ? "s" : "", ev.began ? "began" : "ended", ev.steps,
                 ev.steps > 1 ? "s" : "");
        return;
    }
    /* Back: what the next step forward does. */
    if (ev.began && ev.ended)
        note(u, "at the next step %zu contact%s end, %zu begin (%ld step%s back)", ev.began,
             ev.began > 1 ? "s" : "", ev.ended, ev.steps, ev.steps > 1 ? "s" : "");
    else
        note(u, "%zu contact%s %s at the next step (%ld step%s back)", ev.began + ev.ended,
             ev.began + ev.ended > 1 ? "s" : "",
             ev.began ? (ev.began > 1 ? "end" : "ends") : (ev.ended > 1 ? "begin" : "begins"),
             ev.steps, ev.steps > 1 ? "s" : "");
}

static void k_resize(struct ui *u, int key)
{
    (void)key;
    relayout(u);
}

static void k_help(struct ui *u, int key)
{
    (void)key;
    u->f.help = 1;
}

/* R: starts or stops recording the states shown (recording.h). */
static void k_record(struct ui *u, int key)
{
    (void)key;
    char msg[sizeof u->f.note];
    if (u->rec.on) {
        int rc = recording_stop(&u->rec, msg, sizeof msg);
        note_level(u, rc ? SCREEN_ERROR : SCREEN_INFO, "%s", msg);
    } else {
        int rc = recording_start(&u->rec, "springball", &u->ss, msg, sizeof msg);
        note_level(u, rc ? SCREEN_ERROR : SCREEN_INFO, "%s", msg);
    }
    u->f.recording = u->rec.on ? u->rec.traj_name : NULL;
}

/*
 * The key table: every key the program knows, in the order the help
 * lists them. A key whose help is NULL shares the entry above (K next to
 * k). Add a key by adding a row.
 */
static const struct binding {
    int key;
    void (*fn)(struct ui *, int key);
    const char *label; /* as the help shows it */
    const char *help;
} bindings[] = {
    {' ', k_pause, "space", "pause / resume"},
    {'.', k_step, ".", "one step forward (pauses); event mode: one event"},
    {',', k_back, ",", "one step back (pauses); '.' replays kicks and changes"},
    {'r', k_reset, "r", "reset the scene (',' stops there)"},
    {'k', k_param, "k K", "stiffness k down / up (x1.25)"},
    {'K', k_param, NULL, NULL},
    {'d', k_param, "d D", "time step dt down / up (x1.25)"},
    {'D', k_param, NULL, NULL},
    {'-', k_speed, "- +", "speed down / up (x2)"},
    {'+', k_speed, NULL, NULL},
    {'=', k_speed, NULL, NULL},
    {APP_KEY_LEFT, k_aim, "arrows", "aim the cue ball (5 degrees a press)"},
    {APP_KEY_RIGHT, k_aim, NULL, NULL},
    {APP_KEY_UP, k_aim, NULL, NULL},
    {APP_KEY_DOWN, k_aim, NULL, NULL},
    {'\r', k_kick, "enter", "kick: the cue ball leaves along the aim at the kick speed"},
    {'\n', k_kick, NULL, NULL},
    {'<', k_kick_speed, "< >", "kick speed down / up (x1.25)"},
    {'>', k_kick_speed, NULL, NULL},
    {'\t', k_cue, "tab S-tab", "next / previous ball: the cue ball, selected"},
    {APP_KEY_BTAB, k_cue, NULL, NULL},
    {APP_KEY_MOUSE, NULL, "click M", "select, kick toward; drag a ball, its arrow; wheel; M: off"},
    {'a', k_add, "a x h w :", "add, remove, pusher, save; ':' a scene line or m r v x del"},
    {'x', k_delete, NULL, NULL},
    {APP_KEY_DELETE, k_delete, NULL, NULL},
    {'h', k_pusher, NULL, NULL},
    {'w', k_save, NULL, NULL},
    {':', k_prompt, NULL, NULL},
    {'M', k_mouse_toggle, NULL, NULL},
    {'t', k_trails, "t", "trails on / off"},
    {'m', k_engine, "m", "engine: springs / exact events"},
    {'g', k_gravity, "g", "gravity on / off"},
    {'R', k_record, "R", "record the states shown to springball-N.xyz, .csv / stop"},
    {KEY_CTRL_L, k_redraw, "C-l", "redraw the screen"},
    {'?', k_help, NULL, NULL}, /* the title line says "? help" */
    {'q', k_quit, "q Esc", "quit"},
    {27, k_quit, NULL, NULL},
    {'v', k_lab, "v p f", "velocity / momentum / force arrows on / off"},
    {'p', k_lab, NULL, NULL},
    {'f', k_lab, NULL, NULL},
    {'c', k_lab, "c", "centre of mass (its path with the trails)"},
    {'n', k_lab, "n", "ball numbers"},
    {'i', k_lab, "i", "values panel: m x y v p KE of each ball, totals, the selected ball's contacts (wheel, PgUp, PgDn scroll)"},
    {APP_KEY_PGUP, k_lab, NULL, NULL},
    {APP_KEY_PGDN, k_lab, NULL, NULL},
    {'P', k_lab, "P", "plot: energy, momentum, speeds against Maxwell-Boltzmann, off"},
    {']', k_contact, "] [", "step to the next / previous contact event (springs)"},
    {'[', k_contact, NULL, NULL},
    {'e', k_restitution, "e E", "restitution down / up 0.1 (both engines)"},
    {'E', k_restitution, NULL, NULL},
    {'b', k_border, "b", "border: spring walls, hard walls, no walls"},
    {'1', k_line, "1", "1-D mode on / off: every ball keeps its row (vy 0, contacts along x)"},
    {'V', k_reverse, "V", "reverse time: every velocity turned around, the run retraces its path"},
    {'s', k_lab, "s", "split: the spring and the event engine side by side, time-locked"},
    {APP_KEY_RESIZE, k_resize, NULL, NULL},
};

#define NBINDINGS (sizeof bindings / sizeof *bindings)

static struct screen_help help[NBINDINGS + 32];
static size_t nhelp;

/* === Replay (issue 30): a recorded run played back ===================
 *
 * The session shows the frame (session_show); the keys that move in time
 * go from frame to frame, the keys that look (panels, arrows, trails,
 * numbers, R, w) work as live, and those that need a simulation say so.
 */

#define REPLAY_NO_SIM "replay: no simulation - w saves this frame as a scene"

/* Shows frame k: read, then the session's state. */
static int replay_show(struct ui *u, size_t k)
{
    struct traj_error err;
    if (traj_sim(u->tr, k, &u->fsim, &err)) {
        u->f.running = 0;
        if (err.line > 0)
            note_level(u, err.nomem ? SCREEN_ERROR : SCREEN_WARNING, "frame %zu: line %lld: %s",
                       k, err.line, err.msg);
        else
            note_level(u, SCREEN_ERROR, "frame %zu: %s", k, err.msg);
        return -1;
    }
    if (session_show(&u->ss, &u->fsim)) {
        session_note(u, SCREEN_ERROR);
        return -1;
    }
    u->f.frame = k;
    return 0;
}

/* Running: the last frame at or before the target time. */
static void replay_to_target(struct ui *u)
{
    const struct traj *tr = u->tr;
    size_t k = traj_at_time(tr, u->target);
    if (k < u->f.frame && u->target >= tr->fr[u->f.frame].t)
        k = u->f.frame; /* frames of one time: the later stays */
    if (k != u->f.frame && replay_show(u, k))
        return;
    if (k + 1 >= tr->nframes) {
        u->f.running = 0;
        note(u, "the last frame%s: space plays again from the first",
             tr->cut ? " (the file is cut after it)" : "");
    }
}

/* space . , r ] [ */
static void k_replay_move(struct ui *u, int key)
{
    size_t n = u->tr->nframes, k = u->f.frame;
    if (key == ' ') {
        if (!u->f.running && k + 1 >= n && n > 1 && replay_show(u, 0))
            return;
        u->f.running = !u->f.running;
        if (u->f.running)
            resume_clock(u);
        return;
    }
    u->f.running = 0;
    size_t to = key == '.' ? k + 1 : key == ',' ? (k ? k - 1 : 0)
              : key == ']' ? k + 10 : key == '[' ? (k > 10 ? k - 10 : 0) : 0;
    if (to >= n)
        to = n - 1;
    if (to == k) {
        note(u, "%s frame", key == '.' || key == ']' ? "the last" : "the first");
        return;
    }
    if (replay_show(u, to) == 0 && key == 'r')
        screen_clear_trails(&u->scr);
}

/* w: the frame as a scene that runs on, and what it runs with. */
static void k_replay_save(struct ui *u, int key)
{
    k_save(u, key);
    if (u->f.note_level != SCREEN_INFO)
        return;
    const struct traj *tr = u->tr;
    size_t len = strlen(u->f.note);
    snprintf(u->f.note + len, sizeof u->f.note - len, ", frame %zu: %s", u->f.frame,
             tr->have_params == 1 ? "k, dt and walls as recorded"
             : tr->have_params ? "k, dt and walls of the .in beside it"
             : "k and dt the scene defaults");
}

static void k_replay_refuse(struct ui *u, int key)
{
    (void)key;
    note(u, REPLAY_NO_SIM);
}

/* The keys of a replay, in the order of its help. */
static const struct binding replay_bindings[] = {
    {' ', k_replay_move, "space", "play / pause (the last frame: from the first)"},
    {'.', k_replay_move, ". ,", "one frame forward / back (pauses)"},
    {',', k_replay_move, NULL, NULL},
    {']', k_replay_move, "] [", "ten frames forward / back"},
    {'[', k_replay_move, NULL, NULL},
    {'r', k_replay_move, "r", "the first frame"},
    {'-', k_speed, "- +", "speed down / up (x2): frames follow the recorded time"},
    {'+', k_speed, NULL, NULL},
    {'=', k_speed, NULL, NULL},
    {'w', k_replay_save, "w", "save this frame as a scene that runs on"},
    {'\t', k_cue, "tab S-tab", "next / previous ball, selected"},
    {APP_KEY_BTAB, k_cue, NULL, NULL},
    {APP_KEY_MOUSE, NULL, "click M", "select a ball; wheel; M: mouse off"},
    {'M', k_mouse_toggle, NULL, NULL},
    {'t', k_trails, "t", "trails on / off"},
    {'v', k_lab, "v p c", "velocity / momentum arrows, centre of mass"},
    {'p', k_lab, NULL, NULL},
    {'c', k_lab, NULL, NULL},
    {'n', k_lab, "n", "ball numbers"},
    {'i', k_lab, "i", "values panel of the frame (PgUp, PgDn scroll)"},
    {APP_KEY_PGUP, k_lab, NULL, NULL},
    {APP_KEY_PGDN, k_lab, NULL, NULL},
    {'P', k_lab, "P", "plot: energy, momentum, speeds against Maxwell-Boltzmann, off"},
    {'R', k_record, "R", "record the frames shown to springball-N.xyz, .csv / stop"},
    {KEY_CTRL_L, k_redraw, "C-l", "redraw the screen"},
    {'?', k_help, NULL, NULL},
    {'q', k_quit, "q Esc", "quit"},
    {27, k_quit, NULL, NULL},
    {APP_KEY_RESIZE, k_resize, NULL, NULL},
    {0, k_replay_refuse, "k d e b g m s f", "a: x h : enter arrows: " REPLAY_NO_SIM},
};

#define NREPLAY (sizeof replay_bindings / sizeof *replay_bindings)

static void replay_key(struct ui *u, int key)
{
    for (size_t i = 0; i + 1 < NREPLAY; i++)
        if (replay_bindings[i].fn && replay_bindings[i].key == key) {
            replay_bindings[i].fn(u, key);
            return;
        }
    /* a key of the live program that needs a simulation */
    for (size_t i = 0; i < NBINDINGS; i++)
        if (bindings[i].key == key) {
            k_replay_refuse(u, key);
            return;
        }
}

static void help_fill(int replay)
{
    nhelp = 0;
    const struct binding *b = replay ? replay_bindings : bindings;
    size_t n = replay ? NREPLAY : NBINDINGS;
    for (size_t i = 0; i < n; i++)
        if (b[i].help)
            help[nhelp++] = (struct screen_help){b[i].label, b[i].help};
}

static void handle_key(struct ui *u, int key)
{
    if (u->prompting && key != APP_KEY_RESIZE && key != APP_KEY_MOUSE) {
        prompt_key(u, key);
        return;
    }
    if (key != APP_KEY_MOUSE && u->drag == DRAG_NONE)
        session_gesture(&u->ss, 0);
    if (u->f.help && key != APP_KEY_RESIZE && key != APP_KEY_MOUSE) {
        /* The help is open: space turns the page, any other key closes. */
        if (key == ' ' && u->f.help < u->scr.help_pages) {
            u->f.help++;
        } else {
            u->f.help = 0;
            resume_clock(u);
        }
        return;
    }
    if (u->tr) {
        replay_key(u, key);
        return;
    }
    for (size_t i = 0; i < NBINDINGS; i++)
        if (bindings[i].fn && bindings[i].key == key) {
            bindings[i].fn(u, key);
            return;
        }
    /* Unknown keys do nothing. */
}

/* === Running === */

struct budget {
    double until; /* live: wall time */
    long calls;   /* --snapshot: chunks of work left */
};

static int more_time(void *arg)
{
    struct budget *b = arg;
    return now() <= b->until;
}

/* A snapshot's wait does at most 10^6 steps or events in all, however
 * many frames it draws (trails, a plot): a wait too long for that ends
 * behind, the same way on every run. */
#define SNAP_CALLS(u) ((u)->ss.engine == SESSION_EVENT ? 1000 : 125000)

static int more_work(void *arg)
{
    struct budget *b = arg;
    return --b->calls > 0;
}

/* -T: where the run pauses, the time of the step that reaches T by the
 * core's rule (what -H -T runs and the export's run counts), or T itself
 * for the event engine. */
static double pause_time(const struct ui *u)
{
    if (u->ss.engine == SESSION_EVENT)
        return u->o.pause_at;
    unsigned long long k = sim_steps_until(&u->ss.s, u->o.pause_at);
    return k == ULLONG_MAX ? INFINITY : sim_time_after(&u->ss.s, k);
}

/* Advances the run toward the target time; @p live bounds it by most of
 * a frame of wall time. */
static void run_to_target(struct ui *u, int live)
{
    if (u->tr) {
        replay_to_target(u);
        return;
    }
    struct budget b = {live ? now() + 0.7 / u->o.fps : 0, u->snap_calls};
    const double stop = u->pause_armed ? pause_time(u) : INFINITY;
    if (u->target > stop)
        u->target = stop;
    int rc = !live && b.calls <= 0 ? 0 /* the wait's budget is spent */
             : session_advance(&u->ss, u->target, live ? more_time : more_work, &b);
    if (!live)
        u->snap_calls = b.calls;
    if (rc >= 0 && u->ss.s.t >= stop) {
        u->pause_armed = 0;
        u->f.running = 0;
        note(u, "paused at t = %.6g (-T)", u->ss.s.t);
    }
    u->f.behind = rc == 0;
    if (rc == 0 || !(u->target <= 1e300))
        u->target = u->ss.s.t; /* what did not fit is dropped */
    if (rc < 0) {
        u->f.running = 0;
        u->f.stopped = u->ss.runaway;
        session_note(u, u->ss.nonfinite || u->ss.runaway ? SCREEN_ERROR : SCREEN_WARNING);
    }
}

/* === Set-up shared by the terminal and --snapshot === */

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
        double v = 0.25 * fmin(sc->p.w, sc->p.h) / vmax;
        double unit = pow(10, floor(log10(v)) - 1);
        v = round(v / unit) * unit;
        return isfinite(v) && v > 0 ? v : 1;
    }
    return 20;
}

/* The cue ball: the scene's (`cue N`, or a ball named "cue"), else the
 * first white ball that moves, else the first that moves, else the first. */
static size_t default_cue(const struct scene *sc)
{
    if (sc->cue > 0 && sc->cue <= sc->n) /* the scene's `cue N` */
        return sc->cue - 1;
    for (size_t i = 0; i < sc->n; i++)
        if (!strcmp(scene_ball_name(sc, i), "cue"))
            return i;
    for (size_t i = 0; i < sc->n; i++)
        if ((sc->balls[i].vx || sc->balls[i].vy) && sc->balls[i].color != SCENE_COLOR_NONE &&
            scene_color_rgb(sc->balls[i].color) >= 0xe0e0e0)
            return i;
    for (size_t i = 0; i < sc->n; i++)
        if (sc->balls[i].vx || sc->balls[i].vy)
            return i;
    return 0;
}

/* Replay: the first frame shown, the status line's frame count, a speed
 * of ten frames a second on average (unless --speed), what was made up
 * said. @return 0, or -1 when memory is short. */
static int replay_init(struct ui *u, struct traj *tr)
{
    u->tr = tr;
    if (sim_init(&u->fsim, tr->n, &tr->p))
        return -1;
    struct front *f = &u->f;
    f->replay = 1;
    f->frames = tr->nframes;
    f->v_diff = tr->v_diff;
    if (replay_show(u, 0) && u->f.note_level == SCREEN_ERROR)
        return -1;
    if (!(u->o.speed > 0)) {
        double span = tr->fr[tr->nframes - 1].t - tr->fr[0].t;
        double sp = tr->nframes > 1 ? 10 * span / (double)(tr->nframes - 1) : 1;
        f->speed = u->speed0 = sp > 0 && isfinite(sp) ? sp : 1;
    }
    if (tr->cut || tr->notes[0])
        note_level(u, SCREEN_WARNING, "%s%s%s", tr->cut ? "the file is cut after the last frame" : "",
                   tr->cut && tr->notes[0] ? "; " : "", tr->notes);
    return 0;
}

static int ui_init(struct ui *u, const struct scene *sc, const char *name,
                   const struct ui_options *o, int glyphs, int color)
{
    memset(u, 0, sizeof *u);
    u->sc = sc;
    u->o = *o;
    struct sim s;
    if (scene_to_sim(sc, &s))
        return -1;
    int rc = session_init(&u->ss, &s);
    sim_free(&s);
    if (rc)
        return -1;
    if (screen_init(&u->scr, sc, o->cell_aspect, color)) {
        session_free(&u->ss);
        return -1;
    }
    if (labscreen_init(&u->lab, &u->scr)) {
        screen_free(&u->scr);
        session_free(&u->ss);
        return -1;
    }
    help_fill(o->replay != NULL);
    struct front *f = &u->f;
    f->title = sc->title ? sc->title : name;
    f->glyphs = glyphs;
    f->speed = o->speed > 0 ? o->speed : default_speed(sc);
    u->speed0 = f->speed;
    f->open = sc->p.shape == SIM_OPEN;
    f->trails = f->open;
    f->mouse = o->mouse;
    /* set-up mode: an empty table, or --paused, waits for its balls */
    f->running = !o->paused && (sc->n > 0 || o->replay);
    u->pause_armed = o->pause_at >= 0;
    if (sc->n > 0) {
        f->cue = default_cue(sc);
        double vmax = 0;
        for (size_t i = 0; i < sc->n; i++)
            vmax = fmax(vmax, hypot(sc->balls[i].vx, sc->balls[i].vy));
        f->kick_speed = vmax > 0 ? vmax : (sc->p.w + sc->p.h) / 120;
        const struct scene_ball *cb = &sc->balls[f->cue];
        f->aim = cb->vx || cb->vy ? atan2(cb->vy, cb->vx) : 0;
    } else {
        f->kick_speed = (sc->p.w + sc->p.h) / 120; /* an empty table to fill */
    }
    /* The velocity arrow of the selected ball reaches a fifth of the
     * table at the kick speed. */
    f->arrow_t = 0.2 * fmax(sc->p.w, sc->p.h) / f->kick_speed;
    if (!(f->arrow_t > 0 && f->arrow_t < DBL_MAX))
        f->arrow_t = 1;
    u->arrow_t0 = f->arrow_t;
    if (o->replay && replay_init(u, o->replay)) {
        labscreen_free(&u->lab);
        screen_free(&u->scr);
        session_free(&u->ss);
        return -1;
    }
    if (o->engine && !o->replay && session_set_engine(&u->ss, SESSION_EVENT))
        note_level(u, SCREEN_WARNING, "no event engine: %s", no_event_reason(u));
    if (o->keys) {
        char err[160];
        u->nitems = script_parse(o->keys, &u->items, err, sizeof err);
        if (u->nitems < 0) {
            fprintf(stderr, "springball: --keys: %s\n", text_visible(err));
            screen_free(&u->scr);
            session_free(&u->ss);
            return -2;
        }
    }
    return 0;
}

static void ui_free(struct ui *u)
{
    sim_free(&u->fsim);
    labscreen_free(&u->lab);
    recording_stop(&u->rec, NULL, 0);
    screen_free(&u->scr);
    session_free(&u->ss);
    free(u->items);
}

/* The front end's per-frame bookkeeping: the note expires; a recording
 * writes the state shown when it changed. */
static void frame_state(struct ui *u)
{
    if (u->f.note[0] && u->wall >= u->note_until)
        u->f.note[0] = 0;
    fix_cue(u);
    /* the split view follows the session's time */
    if (u->lab.ps.split) {
        int rc = labscreen_sync_twin(&u->lab, &u->ss, u->live ? 200000 : 0);
        if (rc < 0 || u->ss.engine != SESSION_SPRING) {
            const char *why;
            labscreen_split(&u->lab, &u->ss, 0, &why);
            u->lab.ps.split = 0;
            lab_relayout(u);
            note(u, "split off: %s", u->ss.engine != SESSION_SPRING
                                         ? "the event engine is on (m)" : "the event engine failed");
        }
    }
    if (u->rec.on && recording_frame(&u->rec, &u->ss)) {
        char msg[sizeof u->f.note];
        recording_stop(&u->rec, msg, sizeof msg);
        note_level(u, SCREEN_ERROR, "%s", msg);
        u->f.recording = NULL;
    }
    u->f.rec_frames = u->rec.frames;
}

/* === --snapshot === */

int ui_snapshot(const struct scene *sc, const char *name, const struct ui_options *o)
{
    struct ui *u = malloc(sizeof *u);
    if (!u) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    const char *nc = getenv("NO_COLOR");
    int color = !o->no_color && !(nc && *nc) ? 256 : 0;
    int rc = ui_init(u, sc, name, o, o->ascii ? VIEW_ASCII : VIEW_BRAILLE, color);
    if (rc) {
        if (rc == -1)
            fputs("springball: out of memory\n", stderr);
        free(u);
        return rc == -2 ? 2 : 1;
    }
    u->live = 0;
    if (screen_layout(&u->scr, o->snap_cols, o->snap_rows, &u->ss, u->f.glyphs)) {
        fputs("springball: out of memory\n", stderr);
        ui_free(u);
        free(u);
        return 1;
    }
    /* The screen is drawn after every key, as a terminal would between
     * frames (the help's pages and the view's trails depend on it). */
    screen_draw(&u->scr, &u->ss, &u->f, help, nhelp);
    for (int i = 0; i < u->nitems && !u->quit; i++) {
        const struct script_item *it = &u->items[i];
        if (it->kind == SCRIPT_KEY) {
            handle_key(u, it->key);
        } else if (it->kind == SCRIPT_CLICK) {
            mouse_event(u, APP_MOUSE_PRESS, it->x, it->y, 0);
            mouse_event(u, APP_MOUSE_RELEASE, it->x, it->y, 0);
        } else if (it->kind == SCRIPT_MOUSE) {
            mouse_event(u, it->mouse, it->x, it->y, it->mod);
        } else {
            /* A wait: T of simulated time while running, which a live
             * terminal spends in T / speed seconds. */
            u->wall += it->t / u->f.speed;
            u->snap_calls = SNAP_CALLS(u);
            if (u->f.running && !u->f.help && u->drag == DRAG_BALL) {
                /* a ball held while running: frame by frame, as live */
                double end = u->ss.s.t + it->t, frame = u->f.speed / u->o.fps;
                long frames = 0;
                while (u->ss.s.t < end && u->f.running && frames++ < 100000) {
                    u->target = fmin(end, u->ss.s.t + frame);
                    hold(u);
                    run_to_target(u, 0);
                    if (u->f.behind)
                        break;
                }
            } else if (u->f.running && !u->f.help) {
                double end = u->ss.s.t + it->t;
                if (u->f.trails) {
                    /* the frames a terminal would draw, for the trails
                     * (a plot samples every step itself) */
                    double frame = u->f.speed / u->o.fps;
                    long nf = (long)fmin(it->t / frame, 100000);
                    for (long k = 1; k < nf && u->f.running && u->snap_calls > 0; k++) {
                        u->target = end - (double)(nf - k) * frame;
                        run_to_target(u, 0);
                        screen_draw(&u->scr, &u->ss, &u->f, help, nhelp);
                    }
                }
                if (u->f.running) {
                    u->target = end;
                    run_to_target(u, 0);
                }
            }
        }
        frame_state(u);
        screen_draw(&u->scr, &u->ss, &u->f, help, nhelp);
    }
    size_t need = screen_dump(&u->scr, NULL, 0, color);
    char *buf = malloc(need + 1);
    rc = 0;
    if (!buf) {
        fputs("springball: out of memory\n", stderr);
        rc = 1;
    } else {
        screen_dump(&u->scr, buf, need + 1, color);
        fwrite(buf, 1, need, stdout);
        free(buf);
        if (fflush(stdout) || ferror(stdout)) {
            fprintf(stderr, "springball: write error: %s\n", strerror(errno));
            rc = 1;
        }
    }
    ui_free(u);
    free(u);
    return rc;
}

static void relayout(struct ui *u)
{
    int cols, rows;
    term_size(&cols, &rows);
    if (screen_layout(&u->scr, cols, rows, &u->ss, u->f.glyphs))
        note_level(u, SCREEN_ERROR, "out of memory for a %dx%d screen", cols, rows);
    u->redraw = 1;
}

static int loop(struct ui *u)
{
    int rc = 0, empty_reads = 0;
    double t_end = u->o.duration > 0 ? now() + u->o.duration : 0;
    double next = now();
    u->wall = next;
    resume_clock(u);
    relayout(u);
    if (u->nitems > 0)
        u->due = u->wall;
    int first = 1;
    while (!term_signal() && !u->quit) {
        double t = now();
        /* The run starts at the first frame: the time the set-up took (long
         * on a loaded machine) does not run the table before the script's
         * first items, so a script's first wait starts at t = 0. */
        double dtw = first ? 0 : t - u->wall;
        first = 0;
        u->wall = t;
        /* A gap (the process stopped and continued, a slow terminal) is
         * one frame, not a jump that would fall behind. */
        if (dtw > 0.25)
            dtw = 1 / u->o.fps;
        if (t_end > 0 && t >= t_end)
            break;
        if (u->f.running && !u->f.help) {
            u->target += dtw * u->f.speed;
            /* a wait of the script ends exactly where a snapshot's does */
            if (u->wait_sim && u->target > u->wait_end)
                u->target = u->wait_end;
            hold(u);
            run_to_target(u, 1);
        }
        /* the script: a wait ends when the run has reached its time (or,
         * paused, after T / speed seconds); then the items that follow */
        if (u->wait_sim && (!u->f.running || u->f.help ||
                            (u->tr && u->target >= u->wait_end) || /* replay: frames */
                            u->ss.s.t + (u->ss.engine == SESSION_SPRING ? u->ss.s.p.dt * (1 - 1e-9) : 0) > u->wait_end))
            u->wait_sim = 0;
        while (u->next_item < u->nitems && !u->wait_sim && t >= u->due && !u->quit) {
            const struct script_item *it = &u->items[u->next_item++];
            if (it->kind == SCRIPT_KEY) {
                handle_key(u, it->key);
            } else if (it->kind == SCRIPT_CLICK) {
                mouse_event(u, APP_MOUSE_PRESS, it->x, it->y, 0);
                mouse_event(u, APP_MOUSE_RELEASE, it->x, it->y, 0);
            } else if (it->kind == SCRIPT_MOUSE) {
                mouse_event(u, it->mouse, it->x, it->y, it->mod);
            } else if (u->f.running && !u->f.help) {
                u->wait_sim = 1;
                u->wait_end = u->ss.s.t + it->t;
                u->target = u->ss.s.t;
            } else {
                u->due = t + it->t / u->f.speed;
            }
        }
        frame_state(u);
        screen_draw(&u->scr, &u->ss, &u->f, help, nhelp);
        term_mouse(u->f.mouse);
        term_flush(&u->scr, u->ncolors, u->redraw);
        u->redraw = 0;
        /* fps: frames over the last second; a gap (help, suspend) starts
         * the count again */
        double tf = now();
        if (tf - u->last_frame > 0.5) {
            u->frames = 0;
            u->fps_since = tf;
        }
        u->last_frame = tf;
        u->frames++;
        if (tf - u->fps_since >= 1) {
            u->f.fps = u->frames / (tf - u->fps_since);
            u->frames = 0;
            u->fps_since = tf;
        }
        int ms;
        if (u->f.running && !u->f.help) {
            next += 1 / u->o.fps;
            if (next < tf)
                next = tf;
            ms = ms_until(next - tf);
        } else {
            /* Paused: wait for a key, using no CPU; wake only to take a
             * note away or for the script. */
            ms = u->f.note[0] ? ms_until(u->note_until - tf) : -1;
            if (ms == 0)
                ms = 1;
            next = tf;
        }
        if (u->next_item < u->nitems) {
            int md = ms_until(u->due - tf);
            if (ms < 0 || md < ms)
                ms = md;
        }
        if (t_end > 0) {
            int left = ms_until(t_end - tf);
            if (ms < 0 || left < ms)
                ms = left;
        }
        int w = term_wait(ms);
        if (w < 0) { /* the terminal is gone */
            rc = 1;
            break;
        }
        struct app_input in;
        int got = 0, r;
        while (!u->quit && (r = term_read(&in)) > 0) {
            got = 1;
            if (r == 2)
                continue;
            if (in.key == APP_KEY_MOUSE)
                mouse_event(u, in.mouse, in.x, in.y, in.mod);
            else
                handle_key(u, in.key);
        }
        /* Readable yet nothing to read, again and again: end of file. */
        empty_reads = got || w == 0 ? 0 : empty_reads + 1;
        if (empty_reads > 100) {
            rc = 1;
            break;
        }
    }
    return rc;
}

void ui_default_options(struct ui_options *o)
{
    memset(o, 0, sizeof *o);
    o->fps = 30;
    o->speed = 0; /* by the scene: see default_speed */
    o->cell_aspect = 2;
    o->mouse = 1;
    o->snap_cols = 80;
    o->snap_rows = 24;
    o->pause_at = -1;
}

int ui_run(const struct scene *sc, const char *name, const struct ui_options *o)
{
    setlocale(LC_CTYPE, "");
    const char *cs = nl_langinfo(CODESET);
    int utf8 = cs && strcmp(cs, "UTF-8") == 0;
    const char *term = getenv("TERM");
    /* The Linux console's font has no braille. */
    int console = term && strncmp(term, "linux", 5) == 0;
    int glyphs = o->ascii || !utf8 || console ? VIEW_ASCII : VIEW_BRAILLE;
    struct ui *u = malloc(sizeof *u);
    if (!u) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    int rc = ui_init(u, sc, name, o, glyphs, 1);
    if (rc) {
        if (rc == -1)
            fputs("springball: out of memory\n", stderr);
        free(u);
        return rc == -2 ? 2 : 1;
    }
    u->live = 1;
    term_catch_signals();
    rc = term_begin();
    if (rc == 0) {
        const char *nc = getenv("NO_COLOR");
        u->ncolors = term_colors(o->no_color || (nc && *nc));
        u->scr.color = u->ncolors;
        u->scr.bg = palette_bg_from_colorfgbg(getenv("COLORFGBG"));
        term_mouse(u->f.mouse);
        rc = loop(u);
    }
    term_end();
    ui_free(u);
    free(u);
    if (term_signal())
        return 128 + term_signal();
    return rc;
}
