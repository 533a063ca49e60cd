/*
 * app.c - the terminal front end's state and what its parts share (see
 * app.h): notes and the wording of the session's codes, the selection,
 * the run toward its target time, set-up and the per-frame bookkeeping.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "app.h"

#include "gravity.h"
#include "lab.h"
#include "scene.h"
#include "script.h"
#include "text.h"
#include "traj.h"
#include "view.h"
#include "words.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOTE_SECONDS 2.5 /* a note shows this long (wall time) */
#define CARRY 0.25       /* live, the steps a frame could not take are carried
                            to the next frames up to this much wall time's */

double app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void app_note_level(struct ui *u, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->f.note, sizeof u->f.note, fmt, ap);
    va_end(ap);
    u->f.note_level = level;
    u->note_until = u->wall + NOTE_SECONDS;
}

/* What the session said, or NULL: its own text, or its note (enum
 * session_note) in words that name the keys that answer it. */
const char *app_said(struct ui *u)
{
    const struct session_said w = session_said(&u->ss);
    if (w.msg || !w.note)
        return w.msg;
    const size_t *b = w.ball;
    switch (w.note) {
    case SESSION_NOTE_NOT_FINITE:
        return "state not finite: ',' steps back, 'r' resets";
    case SESSION_NOTE_NOT_FINITE_PAUSED:
        return "not finite: paused (',' back, r reset)";
    case SESSION_NOTE_UNSTABLE:
        return "unstable: dt too large for k; paused (d or k, then ',' or r)";
    case SESSION_NOTE_NEEDS_SPRINGS:
        snprintf(u->said, sizeof u->said, "%s needs the spring engine (m)",
                 w.what ? w.what : "this");
        return u->said;
    case SESSION_NOTE_TABLE_FIXED:
        return "the table cannot change live (w saves the scene to edit)";
    case SESSION_NOTE_CROSSES_WALL:
        snprintf(u->said, sizeof u->said, "ball %zu crosses a wall: with walls hard "
                 "every ball must lie wholly on the table", b[0]);
        return u->said;
    case SESSION_NOTE_OVERLAP:
        snprintf(u->said, sizeof u->said, (session_caps(&u->ss) & SESSION_CAP_EXACT)
                 ? "ball %zu overlaps ball %zu: if they approach they collide at once"
                 : "ball %zu overlaps ball %zu: the springs push them apart", b[0], b[1]);
        return u->said;
    case SESSION_NOTE_STOPS_HERE:
        snprintf(u->said, sizeof u->said, "%zu ball%s: ',' stops here (memory)", b[0],
                 b[0] == 1 ? "" : "s");
        return u->said;
    case SESSION_NOTE_HISTORY_LIMIT:
        snprintf(u->said, sizeof u->said, "history limit (%zu %s kept)", b[0],
                 session_caps(&u->ss) & SESSION_CAP_STEPS ? "steps" : "moves");
        return u->said;
    case SESSION_NOTE_EVENT_FAULT:
        return words_event_fault(u->said, sizeof u->said, w.code, b[0], b[1]);
    case SESSION_NOTE_EVENT_STOP: {
        static const char pre[] = "not finite: paused (',' back, r reset): ";
        memcpy(u->said, pre, sizeof pre - 1);
        words_event_stop(u->said + sizeof pre - 1, sizeof u->said - (sizeof pre - 1),
                         w.code, b[0], b[1], w.t);
        return u->said;
    }
    }
    return "?";
}

/* Shows what the session said, when it said something. */
void app_say(struct ui *u, int level)
{
    const char *said = app_said(u);
    if (said)
        app_note_level(u, level, "%s", said);
}

void app_resume_clock(struct ui *u)
{
    u->target = session_state(&u->ss)->t;
    u->frames = 0;
    u->fps_since = u->wall;
    u->f.fps = 0;
}

/* Open space has no cue ball: the kick keys say so. */
int app_no_cue(struct ui *u)
{
    if (u->f.open)
        app_note(u, "open space: no cue ball to aim or kick");
    return u->f.open;
}

/* Why the event engine was refused, without the engine's own "event engine: "
 * prefix: the note already says "no event engine: ". */
const char *app_no_event_reason(struct ui *u)
{
    static const char prefix[] = "event engine: ";
    const char *why = app_said(u);
    return strncmp(why, prefix, sizeof prefix - 1) == 0 ? why + sizeof prefix - 1 : why;
}

/* The scene ball of the pusher, or (size_t)-1. */
size_t app_pusher_ball(const struct ui *u)
{
    /* the tags by ball (session.h's field), read in a plain loop: this runs
     * every frame, over 10^5 balls too */
    const uint32_t *tag = session_tags(&u->ss);
    for (size_t b = session_state(&u->ss)->n; tag && b-- > 0;)
        if (tag[b] == SCREEN_TAG_PUSHER)
            return b;
    return (size_t)-1;
}

/* The selection stays a ball after edits, ',' and '.'. */
void app_fix_cue(struct ui *u)
{
    size_t n = session_state(&u->ss)->n;
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
    size_t pusher = app_pusher_ball(u);
    u->f.pusher = pusher != (size_t)-1;
    /* a replay cannot aim nor edit: no handle (issue 42.11) */
    u->f.arrow = (!u->f.running || u->drag == DRAG_VELOCITY) && n > 0 && !u->f.open &&
                 !u->f.prompt && u->f.cue != pusher && !u->f.replay;
}

/* After an edit: the session's note (an overlap) or ours; a refusal warns. */
int app_edited(struct ui *u, int rc, const char *fmt, ...)
{
    if (rc) {
        app_say(u, SCREEN_WARNING);
        return -1;
    }
    if (app_said(u)) {
        app_say(u, SCREEN_INFO);
    } else if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(u->f.note, sizeof u->f.note, fmt, ap);
        va_end(ap);
        u->f.note_level = SCREEN_INFO;
        u->note_until = u->wall + NOTE_SECONDS;
    }
    app_fix_cue(u);
    return 0;
}

/* The selected ball, or a note that there is none. */
int app_have_ball(struct ui *u)
{
    if (session_state(&u->ss)->n == 0 || (u->f.pusher && session_state(&u->ss)->n == 1)) {
        app_note(u, "no ball: a or :ball adds one");
        return 0;
    }
    return 1;
}

const struct shown *app_shown(struct ui *u)
{
    if (shown_take(&u->sh, &u->ss) == 0) /* short of memory: the last one */
        shown_observe(&u->sh);
    return &u->sh;
}

void app_relayout(struct ui *u)
{
    if (shown_take(&u->sh, &u->ss) && u->live)
        app_note_level(u, SCREEN_ERROR, "out of memory for the copy shown");
    if (screen_layout(&u->scr, u->cols, u->rows, &u->sh, u->f.glyphs)) {
        if (u->live)
            app_note_level(u, SCREEN_ERROR, "out of memory for a %dx%d screen", u->cols, u->rows);
        else
            app_note_level(u, SCREEN_ERROR, "out of memory");
    }
    if (u->live)
        u->redraw = 1;
}

void app_select(struct ui *u, size_t ball)
{
    int had = u->lab.ps.ov.selected != PANEL_NONE;
    u->lab.ps.ov.selected = ball;
    u->lab.ps.pv.selected = ball;
    u->lab.ps.pv.free_scroll = 0;
    if (!had && u->lab.ps.values) /* the contacts' lines */
        app_relayout(u);
}

/* Shows frame k: read, then the session's state. */
int app_replay_show(struct ui *u, size_t k)
{
    struct traj_error err;
    if (traj_sim(u->tr, k, &u->fsim, &err) ||
        (u->fz && traj_depth(u->tr, k, u->fz, u->fz + u->tr->n, &err))) {
        u->f.running = 0;
        if (err.line > 0)
            app_note_level(u, err.nomem ? SCREEN_ERROR : SCREEN_WARNING, "frame %zu: line %lld: %s",
                           k, err.line, err.msg);
        else
            app_note_level(u, SCREEN_ERROR, "frame %zu: %s", k, err.msg);
        return -1;
    }
    if (session_show_depth(&u->ss, &u->fsim, u->fz, u->fz ? u->fz + u->tr->n : NULL)) {
        app_say(u, SCREEN_ERROR);
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
    if (k != u->f.frame && app_replay_show(u, k))
        return;
    if (k + 1 >= tr->nframes) {
        u->f.running = 0;
        app_note(u, "the last frame%s: space plays again from the first",
                 tr->cut ? " (the file is cut after it)" : "");
    }
}

/* === Running === */

struct budget {
    double until; /* live: wall time */
    long calls;   /* --snapshot: chunks of work left */
};

static int more_time(void *arg)
{
    struct budget *b = arg;
    return app_now() <= b->until;
}

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
    if ((session_caps(&u->ss) & SESSION_CAP_EXACT))
        return u->o.pause_at;
    unsigned long long k = sim_steps_until(session_state(&u->ss), u->o.pause_at);
    return k == ULLONG_MAX ? INFINITY : sim_time_after(session_state(&u->ss), k);
}

/* Advances the run toward the target time; @p live bounds it by most of
 * a frame of wall time. */
void app_run_to_target(struct ui *u, int live)
{
    if (u->tr) {
        replay_to_target(u);
        return;
    }
    struct budget b = {live ? app_now() + 0.7 / u->o.fps : 0, u->snap_calls};
    app_run_begin(u);
    int rc = !live && b.calls <= 0 ? 0 /* the wait's budget is spent */
             : session_advance(&u->ss, u->target, live ? more_time : more_work, &b);
    if (!live)
        u->snap_calls = b.calls;
    app_run_end(u, rc, live);
}

void app_run_begin(struct ui *u)
{
    u->run_stop = u->pause_armed ? pause_time(u) : INFINITY;
    if (u->target > u->run_stop)
        u->target = u->run_stop;
}

void app_run_end(struct ui *u, int rc, int live)
{
    const double stop = u->run_stop;
    if (rc >= 0 && session_state(&u->ss)->t >= stop) {
        u->pause_armed = 0;
        u->f.running = 0;
        app_note(u, "paused at t = %.6g (-T)", session_state(&u->ss)->t);
    }
    u->f.behind = rc == 0;
    double lag = u->target - session_state(&u->ss)->t;
    if (rc == 0 && live && (session_caps(&u->ss) & SESSION_CAP_STEPS) && lag <= CARRY * u->f.speed) {
        /* the steps that did not fit are the next frames' (a moment's
         * hiccup is caught up); behind when more than a frame late */
        u->f.behind = lag > u->f.speed / u->o.fps;
    } else if (rc == 0 || !(u->target <= 1e300)) {
        u->target = session_state(&u->ss)->t; /* what did not fit is dropped */
    }
    if (rc < 0) {
        u->f.running = 0;
        u->f.stopped = session_runaway(&u->ss);
        app_say(u, session_nonfinite(&u->ss) || session_runaway(&u->ss) ? SCREEN_ERROR : SCREEN_WARNING);
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
    if (tr->has_z || u->o.slice) { /* a 3-D run: its depth too */
        u->fz = malloc(2 * (tr->n ? tr->n : 1) * sizeof *u->fz);
        if (!u->fz)
            return -1;
    }
    struct front *f = &u->f;
    f->replay = 1;
    f->frames = tr->nframes;
    f->v_diff = tr->v_diff;
    if (app_replay_show(u, 0) && u->f.note_level == SCREEN_ERROR)
        return -1;
    if (!(u->o.speed > 0)) {
        double span = tr->fr[tr->nframes - 1].t - tr->fr[0].t;
        double sp = tr->nframes > 1 ? 10 * span / (double)(tr->nframes - 1) : 1;
        f->speed = u->speed0 = sp > 0 && isfinite(sp) ? sp : 1;
    }
    if (tr->cut || tr->notes[0])
        app_note_level(u, SCREEN_WARNING, "%s%s%s", tr->cut ? "the file is cut after the last frame" : "",
                       tr->cut && tr->notes[0] ? "; " : "", tr->notes);
    return 0;
}

int app_init(struct ui *u, const struct scene *sc, const char *name,
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
    if (!rc && o->history_mb > 0)
        session_set_budget(&u->ss, (size_t)(o->history_mb * 1048576.0));
    if (rc) {
        if (o->live)
            o->live->ops->close(o->live, 1);
        return -1;
    }
    if (o->slice && session_set_slice(&u->ss, o->slice_z0, o->slice_z1)) {
        if (o->live)
            o->live->ops->close(o->live, 1);
        session_free(&u->ss);
        return -1;
    }
    if (o->live && session_live(&u->ss, o->live, o->live_trate, o->live_first)) {
        session_free(&u->ss);
        return -1;
    }
    if (screen_init(&u->scr, sc, o->cell_aspect, color)) {
        session_free(&u->ss);
        return -1;
    }
    if (labscreen_init(&u->lab, &u->scr)) {
        screen_free(&u->scr);
        session_free(&u->ss);
        return -1;
    }
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
    if (o->live) { /* the frames are polled while it runs */
        f->remote = 1;
        f->running = 1;
    }
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
        app_note_level(u, SCREEN_WARNING, "no event engine: %s", app_no_event_reason(u));
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

void app_free(struct ui *u)
{
    sim_free(&u->fsim);
    free(u->fz);
    labscreen_free(&u->lab);
    recording_stop(&u->rec, NULL, 0);
    screen_free(&u->scr);
    shown_free(&u->sh);
    session_free(&u->ss);
    free(u->items);
}

/* The front end's per-frame bookkeeping: the note expires; a recording
 * writes the state shown when it changed. */
void app_frame(struct ui *u)
{
    if (u->f.note[0] && u->wall >= u->note_until)
        u->f.note[0] = 0;

    app_fix_cue(u);
    /* the split view follows the session's time */
    if (u->lab.ps.split) {
        int rc = labscreen_sync_twin(&u->lab, &u->ss, u->live ? 200000 : 0);
        if (rc < 0 || !(session_caps(&u->ss) & SESSION_CAP_STEPS)) {
            const char *why;
            labscreen_split(&u->lab, &u->ss, 0, &why);
            u->lab.ps.split = 0;
            app_relayout(u);
            app_note(u, "split off: %s", !(session_caps(&u->ss) & SESSION_CAP_STEPS)
                                             ? "the event engine is on (m)" : "the event engine failed");
        }
    }
    if (u->rec.on && recording_frame(&u->rec, &u->ss)) {
        char msg[sizeof u->f.note];
        recording_stop(&u->rec, msg, sizeof msg);
        app_note_level(u, SCREEN_ERROR, "%s", msg);
        u->f.recording = NULL;
    }
    u->f.rec_frames = u->rec.frames;
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
