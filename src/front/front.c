/*
 * front.c - the terminal front end's entry points (see front.h): the one
 * key-script player of --keys (live and --snapshot), --snapshot, --cast
 * and the frame loop. The key table is front_keys.c's; the terminal,
 * term.c's; what the keys do, actions.c's and edit.c's.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "front.h"
#include "front_impl.h"

#include "actions.h"
#include "app.h"
#include "edit.h"
#include "remote.h"
#include "tutor.h"
#include "script.h"
#include "term.h"
#include "view.h"
#include "worker.h"
#include "zoom.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* === --cast (issue 45): the frames as an asciicast === */

/* Why the cast stopped, in words: a write error or the size cap. */
static void cast_why(const struct ui *u, char *buf, size_t size)
{
    if (u->cast.full)
        snprintf(buf, size, "%s: the cast reached its size cap of %llu bytes "
                 "(SPRINGBALL_CAST_MAX) at %.2f s and ends there", u->o.cast,
                 u->cast.max, u->cast.last);
    else
        snprintf(buf, size, "%s: write error: %s (the cast ends at %.2f s)", u->o.cast,
                 strerror(u->cast.err), u->cast.last);
}

/* Opens o->cast (before the terminal starts, so that a refusal is a plain
 * message). @return 0, or 1 with the reason printed. */
static int cast_open_file(struct ui *u)
{
    if (!u->o.cast)
        return 0;
    if (cast_open(&u->cast, u->o.cast, cast_max_from(getenv("SPRINGBALL_CAST_MAX")))) {
        fprintf(stderr, "springball: %s: cannot write: %s\n", u->o.cast, strerror(errno));
        return 1;
    }
    u->casting = 1;
    return 0;
}

/* The header's time: SOURCE_DATE_EPOCH when set (the same bytes on every
 * run, as reproducible builds ask), else now. */
static long long cast_timestamp(void)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    if (e && *e) {
        char *end;
        errno = 0;
        long long v = strtoll(e, &end, 10);
        if (!*end && !errno && v >= 0)
            return v;
    }
    return (long long)time(NULL);
}

/* The screen as drawn now, at @p t seconds of the cast: the header first,
 * a resize event when the size changed, then the bytes that differ (all of
 * them with @p redraw). A cast that stops says so on the status line. */
static void cast_frame(struct ui *u, double t, int redraw)
{
    if (!u->casting)
        return;
    const struct screen *scr = &u->scr;
    int rc = 0;
    if (!u->cast_headed) {
        u->cast_headed = 1;
        const char *term = u->cast_snap ? "xterm-256color" : getenv("TERM");
        rc = cast_header(&u->cast, scr->cols, scr->rows, cast_timestamp(), u->f.title, term);
    } else if (u->ansi.cols && (scr->cols != u->ansi.cols || scr->rows != u->ansi.rows)) {
        char size[32];
        int n = snprintf(size, sizeof size, "%dx%d", scr->cols, scr->rows);
        rc = cast_event(&u->cast, t, "r", size, (size_t)n);
    }
    if (!rc && ansi_frame(&u->ansi, scr, u->cast_snap ? u->scr.color : u->ncolors, redraw))
        u->cast.err = ENOMEM, rc = -1;
    if (!rc && u->ansi.len)
        rc = cast_event(&u->cast, t, "o", u->ansi.buf, u->ansi.len);
    if (rc && u->live && !u->cast_said) {
        char why[512];
        cast_why(u, why, sizeof why);
        app_note_level(u, SCREEN_ERROR, "%s", why);
        u->cast_said = 1;
    }
}

/* The cast ended at @p t seconds: the terminal handed back, the file
 * closed. @return 0, or 1 with the reason printed (after the terminal is
 * restored) when it stopped early. */
static int cast_finish(struct ui *u, double t)
{
    if (!u->casting)
        return 0;
    u->casting = 0;
    if (u->cast_headed && !u->cast.err && !u->cast.full && ansi_end(&u->ansi) == 0)
        cast_event(&u->cast, t, "o", u->ansi.buf, u->ansi.len);
    int rc = cast_close(&u->cast);
    ansi_free(&u->ansi);
    if (rc) {
        char why[512];
        cast_why(u, why, sizeof why);
        fprintf(stderr, "springball: %s\n", why);
        return 1;
    }
    return 0;
}

/* --snapshot's cast: the screen drawn at wall time @p w, the note gone
 * once its time is past, as a terminal shows it mid-wait. */
static void cast_snap_frame(struct ui *u, double w)
{
    if (!u->cast_snap)
        return;
    char keep = u->f.note[0];
    if (keep && w >= u->note_until) {
        u->f.note[0] = 0;
        screen_draw(&u->scr, app_shown(u), &u->f, front_helps, front_nhelp);
    }
    cast_frame(u, w - u->cast_t0, 0);
    u->f.note[0] = keep;
}

/* === The key script: one player, live and --snapshot === */

/* A wait of --snapshot: T of simulated time while running, which a live
 * terminal spends in T / speed seconds, run at once. The frames a
 * terminal would draw are drawn when they matter: for the trails, and for
 * a cast, which writes each at the wall time a terminal would show it. */
static void snap_wait(struct ui *u, double t)
{
    double w0 = u->wall, speed = u->f.speed;
    u->wall += t / u->f.speed;
    u->snap_calls = APP_SNAP_CALLS(u);
    if (u->f.running && !u->f.help && u->drag == DRAG_BALL) {
        /* a ball held while running: frame by frame, as live */
        double start = session_state(&u->ss)->t, end = start + t, frame = u->f.speed / u->o.fps;
        long frames = 0;
        while (session_state(&u->ss)->t < end && u->f.running && frames++ < 100000) {
            double to = fmin(end, session_state(&u->ss)->t + frame);
            u->target = to;
            edit_hold(u);
            app_run_to_target(u, 0);
            if (u->cast_snap && to < end) {
                screen_draw(&u->scr, app_shown(u), &u->f, front_helps, front_nhelp);
                cast_snap_frame(u, w0 + (to - start) / speed);
            }
            if (u->f.behind)
                break;
        }
    } else if (u->f.running && !u->f.help) {
        double start = session_state(&u->ss)->t, end = start + t;
        /* the event engine's plots take a sample where each frame's advance
         * ends, as in a terminal (the springs' sample every step) */
        int frame_samples = (session_caps(&u->ss) & SESSION_CAP_EXACT) &&
                            u->lab.ps.plot != PANEL_PLOT_OFF;
        int draw = u->f.trails || u->cast_snap;
        if (draw || frame_samples) {
            /* the frames a terminal would draw, for the trails, the cast
             * and the event engine's plots: the same with --cast or not */
            double frame = u->f.speed / u->o.fps;
            long nf = (long)fmin(t / frame, 100000);
            for (long k = 1; k < nf && u->f.running && u->snap_calls > 0; k++) {
                double to = end - (double)(nf - k) * frame;
                u->target = to;
                app_run_to_target(u, 0);
                if (draw) {
                    screen_draw(&u->scr, app_shown(u), &u->f, front_helps, front_nhelp);
                    cast_snap_frame(u, w0 + (to - start) / speed);
                }
            }
        }
        if (u->f.running) {
            u->target = end;
            app_run_to_target(u, 0);
        }
    } else if (u->cast_snap && u->f.note[0] && u->note_until > w0 && u->note_until < u->wall) {
        /* paused: the one change a terminal shows, the note going */
        cast_snap_frame(u, u->note_until);
    }
}

/* Plays the script from its next item at wall time @p t: keys, clicks and
 * mouse events at once. A wait, live, starts and ends the playing (the
 * loop ends it when the run has reached its time or, paused, after T /
 * speed seconds); in a snapshot it runs at once, and the screen is drawn
 * after every item as a terminal would between frames (the help's pages
 * and the trails depend on it). */
static void play(struct ui *u, double t)
{
    while (u->next_item < u->nitems && !u->wait_sim && t >= u->due && !u->quit) {
        const struct script_item *it = &u->items[u->next_item++];
        if (it->kind == SCRIPT_KEY) {
            /* a lesson step's own keys ('.' steps) are not a presenter's */
            u->step_key = u->lesson.playing || u->lesson.demo;
            front_key(u, it->key);
            u->step_key = 0;
        } else if (it->kind == SCRIPT_CLICK) {
            front_mouse(u, APP_MOUSE_PRESS, it->x, it->y, 0);
            front_mouse(u, APP_MOUSE_RELEASE, it->x, it->y, 0);
        } else if (it->kind == SCRIPT_MOUSE) {
            front_mouse(u, it->mouse, it->x, it->y, it->mod);
        } else if (!u->live) {
            snap_wait(u, it->t);
        } else if (u->f.running && !u->f.help) {
            u->wait_sim = 1;
            u->wait_end = session_state(&u->ss)->t + it->t;
            u->target = session_state(&u->ss)->t;
        } else {
            u->due = t + it->t / u->f.speed;
        }
        if (!u->live) {
            app_frame(u);
            screen_draw(&u->scr, app_shown(u), &u->f, front_helps, front_nhelp);
            cast_snap_frame(u, u->wall);
        }
    }
}

/* A lesson's keys (tutor.h): @p n items played at once, as
 * --snapshot plays them, in a terminal too; the script in progress is
 * kept. */
void front_play_now(struct ui *u, const struct script_item *items, int n)
{
    struct script_item *keep = u->items;
    int nk = u->nitems, next = u->next_item, live = u->live, wait_sim = u->wait_sim;
    double due = u->due, wall = u->wall;
    u->items = (struct script_item *)items;
    u->nitems = n;
    u->next_item = 0;
    u->wait_sim = 0;
    u->due = u->wall;
    u->live = 0;
    play(u, u->wall);
    u->items = keep;
    u->nitems = nk;
    u->next_item = next;
    u->wait_sim = wait_sim;
    u->due = due;
    u->live = live;
    if (live)
        u->wall = wall; /* a terminal's clock is the real one */
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
    int rc = app_init(u, sc, name, o, o->ascii ? VIEW_ASCII : VIEW_BRAILLE, color);
    if (rc) {
        if (rc == -1)
            fputs("springball: out of memory\n", stderr);
        free(u);
        return rc == -2 ? 2 : 1;
    }
    front_help(o->replay ? FRONT_HELP_REPLAY : o->live ? FRONT_HELP_REMOTE : FRONT_HELP_LIVE);
    u->live = 0;
    u->cols = o->snap_cols;
    u->rows = o->snap_rows;
    if (shown_take(&u->sh, &u->ss) ||
        screen_layout(&u->scr, u->cols, u->rows, &u->sh, u->f.glyphs)) {
        fputs("springball: out of memory\n", stderr);
        app_free(u);
        free(u);
        return 1;
    }
    tutor_goto(u, o->step ? o->step - 1 : 0, front_play_now);
    screen_draw(&u->scr, app_shown(u), &u->f, front_helps, front_nhelp);
    if (cast_open_file(u)) {
        app_free(u);
        free(u);
        return 1;
    }
    u->cast_snap = u->casting;
    u->cast_t0 = u->wall;
    cast_frame(u, 0, 0);
    play(u, u->wall);
    rc = cast_finish(u, u->wall - u->cast_t0);
    size_t need = screen_dump(&u->scr, NULL, 0, color);
    char *buf = malloc(need + 1);
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
    app_free(u);
    free(u);
    return rc;
}

/* === The terminal === */

/* The observers' time (shown_observe) is at most 1 / OBS_SHARE of the
 * wall time while the worker runs. */
#define OBS_SHARE 16

/* 1 when what is drawn reads the observed state ball by ball (the lab's
 * panels and marks, the velocity arrow): it is observed every frame. */
static int reads_balls(const struct ui *u)
{
    const struct panel_state *ps = &u->lab.ps;
    return u->f.arrow || ps->values || ps->plot != PANEL_PLOT_OFF || ps->split ||
           ps->ov.arrows || ps->ov.numbers || ps->ov.cm || ps->ov.selected != PANEL_NONE;
}

/* 1 when the run advances on the worker (worker.h): running, live, not
 * --no-thread, not a replay (which simulates nothing). */
static int threaded(const struct ui *u)
{
    return u->f.running && !u->f.help && u->live && !u->o.no_thread &&
           (session_caps(&u->ss) & SESSION_CAP_SIMULATES);
}

/* The live frame: the state the last advance reached is taken (shown.h)
 * and, running on the worker, the next advance starts, to stop by @p next
 * (the next frame's time), while the frame is drawn from the copy; the
 * caller joins it (join) before it reads or changes the session again.
 * Else the loop has advanced the run already, as --snapshot does. */
static void frame(struct ui *u, struct worker *w, double next)
{
    if (shown_take(&u->sh, &u->ss))
        app_note_level(u, SCREEN_ERROR, "out of memory for the copy shown");
    if (threaded(u)) {
        app_run_begin(u);
        if (worker_go(w, &u->ss, u->target, next))
            app_run_to_target(u, 1); /* no thread to be had: here, then */
    }
    /* The observers' share bounded: while the worker runs and nothing
     * drawn reads the observation ball by ball (only the status line's
     * sums), it is made at most a sixteenth of the wall time (a 10^5-ball
     * gas: 10 ms, some 6 times a second; 10^4: every frame). */
    double t0 = app_now();
    if (!w->busy || reads_balls(u) || t0 >= u->obs_next || !u->sh.obs) {
        int had = u->sh.observed;
        shown_observe(&u->sh);
        if (!had)
            u->obs_next = t0 + OBS_SHARE * (app_now() - t0);
    }
    screen_draw(&u->scr, &u->sh, &u->f, front_helps, front_nhelp);
}

/* The worker's advance, when one runs, taken back: from here on the
 * session is the front end's again. */
static void join(struct ui *u, struct worker *w)
{
    if (w->busy)
        app_run_end(u, worker_join(w), 1);
}

/* 1 when the loop advances the run: running, the help closed; a live
 * run's frames are taken with the help open too (a viewer that stops
 * reading stalls a run that waits on its socket). */
static int advancing(const struct ui *u)
{
    return u->f.running && (!u->f.help || u->f.remote);
}

static int loop(struct ui *u)
{
    int rc = 0, empty_reads = 0;
    struct worker w = {0};
    w.threads = u->o.threads > 0 ? u->o.threads : split_cpus();
    double t_end = u->o.duration > 0 ? app_now() + u->o.duration : 0;
    double next = app_now();
    u->wall = next;
    u->cast_t0 = next;
    app_resume_clock(u);
    front_relayout(u);
    if (u->nitems > 0)
        u->due = u->wall;
    int first = 1;
    while (!term_signal() && !u->quit) {
        double t = app_now();
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
        if (advancing(u)) {
            u->target += dtw * u->f.speed;
            /* a wait of the script ends exactly where a snapshot's does */
            if (u->wait_sim && u->target > u->wait_end)
                u->target = u->wait_end;
            edit_hold(u);
            if (!threaded(u))
                app_run_to_target(u, 1);
        }
        /* the script: a wait ends when the run has reached its time (or,
         * paused, after T / speed seconds); then the items that follow */
        if (u->wait_sim && (!u->f.running || u->f.help ||
                            (u->tr && u->target >= u->wait_end) || /* replay: frames */
                            session_reached(&u->ss, u->wait_end)))
            u->wait_sim = 0;
        play(u, t);
        app_frame(u);
        if (u->f.remote)
            remote_frame(u); /* the link's state in the title and status words */
        /* the frame's time: the next one is due 1 / fps after this one */
        if (advancing(u)) {
            double per = 1 / u->o.fps;
            if (u->f.remote && u->live_seen > 0 && u->wall - u->live_seen > REMOTE_IDLE_S &&
                per < 1 / REMOTE_IDLE_HZ)
                per = 1 / REMOTE_IDLE_HZ; /* nothing comes: looked at 4 times a second */
            next += per;
            if (next < t)
                next = t;
        }
        frame(u, &w, next);
        term_mouse(u->f.mouse);
        term_flush(&u->scr, u->ncolors, u->redraw);
        cast_frame(u, u->wall - u->cast_t0, u->redraw);
        u->redraw = 0;
        /* fps: frames over the last second; a gap (help, suspend) starts
         * the count again */
        double tf = app_now();
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
        if (advancing(u)) {
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
        if (w.busy && (ms < 0 || ms > ms_until(w.until - tf)))
            ms = ms_until(w.until - tf); /* the worker's end: the next frame */
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
        int wr = term_wait(ms);
        join(u, &w); /* keys, edits and the script change the session: not while it steps */
        if (wr < 0) { /* the terminal is gone */
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
                front_mouse(u, in.mouse, in.x, in.y, in.mod);
            else
                front_key(u, in.key);
        }
        /* Readable yet nothing to read, again and again: end of file. */
        empty_reads = got || wr == 0 ? 0 : empty_reads + 1;
        if (empty_reads > 100) {
            rc = 1;
            break;
        }
    }
    join(u, &w);
    worker_free(&w);
    return rc;
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
    int rc = app_init(u, sc, name, o, glyphs, 1);
    if (rc) {
        if (rc == -1)
            fputs("springball: out of memory\n", stderr);
        free(u);
        return rc == -2 ? 2 : 1;
    }
    u->live = 1;
    front_help(o->replay ? FRONT_HELP_REPLAY : o->live ? FRONT_HELP_REMOTE : FRONT_HELP_LIVE);
    term_catch_signals();
    rc = cast_open_file(u);
    if (rc == 0)
        rc = term_begin();
    if (rc == 0) {
        const char *nc = getenv("NO_COLOR");
        u->ncolors = term_colors(o->no_color || (nc && *nc));
        u->scr.color = u->ncolors;
        u->scr.bg = palette_bg_from_colorfgbg(getenv("COLORFGBG"));
        term_mouse(u->f.mouse);
        tutor_goto(u, o->step ? o->step - 1 : 0, front_play_now);
        rc = loop(u);
    }
    term_end();
    /* the cast's end after the terminal's: a message shows on a clean one */
    if (cast_finish(u, u->wall - u->cast_t0) && rc == 0)
        rc = 1;
    app_free(u);
    free(u);
    if (term_signal())
        return 128 + term_signal();
    return rc;
}
