/*
 * actions.c - what the run keys do (see actions.h).
 */
#include "actions.h"

#include "app.h"
#include "edit.h"
#include "gravity.h"
#include "lab.h"
#include "traj.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define AIM_STEP (5 * SIM_PI / 180) /* one arrow key press turns 5 degrees */

/* Steps a search for a contact event (] [) may take at most, and ball-steps
 * (each step looks at every ball): a keypress never hangs a large scene. */
#define LAB_SEEK_MAX 20000
#define LAB_SEEK_WORK 1e7

/* The cue ball leaves along the aim at the kick speed. */
static void kick(struct ui *u)
{
    u->f.aiming = 0;
    if (session_kick(&u->ss, u->f.cue, u->f.kick_speed * cos(u->f.aim),
                     u->f.kick_speed * sin(u->f.aim))) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    app_note(u, "kick: ball %zu at %.3g", u->f.cue + 1, u->f.kick_speed);
}

void actions_pause(struct ui *u, int key)
{
    (void)key;
    if (session_nonfinite(&u->ss)) {
        app_note_level(u, SCREEN_WARNING, "state not finite: ',' steps back, 'r' resets");
        return;
    }
    u->f.running = !u->f.running;
    u->f.stopped = 0;
    if (u->f.running)
        app_resume_clock(u);
}

/* Notes what the move to position @p pos was when it was a kick or an edit
 * (undone by ',', redone by '.'): one move, one action (issue 26.2). */
static void note_edit_move(struct ui *u, long long pos, const char *done)
{
    size_t nact;
    const struct session_action *act = session_actions(&u->ss, &nact);
    size_t n = 0, i = nact, last = 0;
    while (i-- > 0 && act[i].pos >= pos)
        if (act[i].pos == pos && (act[i].kind == SESSION_KICK || act[i].kind >= SESSION_ADD)) {
            if (!n)
                last = i;
            n++;
        }
    if (!n) { /* a step of time: an earlier "undone" no longer says what was done */
        if (!strncmp(u->f.note, "undone: ", 8) || !strncmp(u->f.note, "redone: ", 8))
            u->f.note[0] = 0;
        return;
    }
    const struct session_action *a = &act[last];
    static const char *const what[] = {
        [SESSION_ADD - SESSION_ADD] = "the ball added",
        [SESSION_REMOVE - SESSION_ADD] = "the removal of ball",
        [SESSION_MOVE - SESSION_ADD] = "the move of ball",
        [SESSION_VELOCITY - SESSION_ADD] = "the velocity of ball",
        [SESSION_MASS - SESSION_ADD] = "the mass of ball",
        [SESSION_RADIUS - SESSION_ADD] = "the radius of ball",
        [SESSION_PARAMS - SESSION_ADD] = "the parameters",
        [SESSION_REVERSE - SESSION_ADD] = "time reversed",
    };
    const char *w = a->kind == SESSION_KICK ? "the kick of ball"
                    : (size_t)(a->kind - SESSION_ADD) < sizeof what / sizeof *what
                        ? what[a->kind - SESSION_ADD]
                        : NULL;
    if (n > 1 || !w)
        app_note(u, "%s: %zu edits", done, n);
    else if (a->kind == SESSION_KICK || (a->kind >= SESSION_REMOVE && a->kind <= SESSION_RADIUS))
        app_note(u, "%s: %s %zu", done, w, a->ball + 1);
    else
        app_note(u, "%s: %s", done, w);
}

void actions_step(struct ui *u, int key)
{
    (void)key;
    u->f.running = 0;
    if (session_forward(&u->ss) <= 0)
        app_say(u, session_nonfinite(&u->ss) ? SCREEN_ERROR : SCREEN_INFO);
    else
        note_edit_move(u, session_pos(&u->ss), "redone");
}

void actions_back(struct ui *u, int key)
{
    (void)key;
    u->f.running = 0;
    u->f.stopped = 0;
    long long pos = session_pos(&u->ss);
    if (session_back(&u->ss))
        app_say(u, SCREEN_INFO);
    else
        note_edit_move(u, pos, "undone");
}

/* The note of r: what it kept of the settings that differ from the
 * set-up's (issue 42.4), "reset" alone when none do. */
static void reset_note(struct ui *u)
{
    const struct sim_params *p = &session_state(&u->ss)->p, *q = &session_start(&u->ss)->p;
    char buf[160];
    int n = snprintf(buf, sizeof buf, "reset");
    const char *sep = "; kept ";
#define KEPT(...)                                                              \
    do {                                                                       \
        if (n >= 0 && (size_t)n < sizeof buf)                                  \
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s", sep);         \
        if (n >= 0 && (size_t)n < sizeof buf)                                  \
            n += snprintf(buf + n, sizeof buf - (size_t)n, __VA_ARGS__);       \
        sep = ", ";                                                            \
    } while (0)
    if (p->restitution != q->restitution)
        KEPT("e %.2f", p->restitution);
    if (p->line != q->line)
        KEPT("1-D %s", p->line ? "on" : "off");
    if (p->k != q->k)
        KEPT("k %.4g", p->k);
    if (p->dt != q->dt)
        KEPT("dt %.4g", p->dt);
    if (lab_border(p) != lab_border(q))
        KEPT("%s", lab_border_name(lab_border(p)));
    if (p->gravity != q->gravity)
        KEPT("gravity %s", p->gravity > 0 ? "on" : "off");
#undef KEPT
    app_note(u, "%s", buf);
}

void actions_reset(struct ui *u, int key)
{
    (void)key;
    if (session_reset(&u->ss)) {
        app_note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    u->f.aiming = 0;
    u->f.stopped = 0;
    screen_clear_trails(&u->scr);
    app_resume_clock(u);
    if (app_said(u))
        app_say(u, SCREEN_WARNING);
    else
        reset_note(u);
}

/* k K d D: k or dt down or up by 1.25, within the session's bounds. They
 * are the spring engine's; in event mode they are kept for it. */
void actions_param(struct ui *u, int key)
{
    int is_k = key == 'k' || key == 'K';
    const char *name = is_k ? "k" : "dt";
    const struct sim_params *p = &session_state(&u->ss)->p;
    double now = is_k ? p->k : p->dt;
    double want = key == 'K' || key == 'D' ? now * 1.25 : now / 1.25;
    int rc = is_k ? session_set_k(&u->ss, want) : session_set_dt(&u->ss, want);
    if (rc == 1)
        app_note(u, "%s stays within 10^6 of the scene's", name);
    else if (rc == 0 && (session_caps(&u->ss) & SESSION_CAP_EXACT))
        app_note(u, "%s %.4g (for the spring engine)", name, want);
}

void actions_engine(struct ui *u, int key)
{
    (void)key;
    int to = (session_caps(&u->ss) & SESSION_CAP_EXACT) ? SESSION_SPRING : SESSION_EVENT;
    if (session_set_engine(&u->ss, to)) {
        app_note(u, "no event engine: %s", app_no_event_reason(u));
        return;
    }
    u->f.stopped = 0;
    app_resume_clock(u);
    app_note(u, "%s", to == SESSION_EVENT ? "event engine: exact hard balls" : "spring engine");
}

/* Gravity on and off: the scene's G and softening, or, in a scene without
 * a gravity directive, gravity_default's. */
void actions_gravity(struct ui *u, int key)
{
    (void)key;
    const struct sim *s = session_state(&u->ss);
    double G, soft;
    if ((session_caps(&u->ss) & SESSION_CAP_EXACT)) {
        app_note(u, "gravity needs the spring engine (m)");
        return;
    }
    if (s->p.gravity != 0) {
        G = 0;
        soft = s->p.softening;
    } else if (u->sc->p.gravity != 0) {
        G = u->sc->p.gravity;
        soft = u->sc->p.softening;
    } else if (gravity_default(s->n, s->m, s->r, s->p.k, &G, &soft)) {
        app_note(u, "no gravity for this scene");
        return;
    }
    if (session_set_gravity(&u->ss, G, soft)) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    if (G == 0)
        app_note(u, "gravity off");
    else if (u->sc->p.gravity != 0)
        app_note(u, "gravity on: G %.3g", G);
    else
        app_note(u, "gravity on: G %.3g softening %.3g", G, soft);
}

void actions_speed(struct ui *u, int key)
{
    double sp = key == '-' ? u->f.speed / 2 : u->f.speed * 2;
    double lo = fmin(1.0 / 1024, u->speed0 / 1024), hi = fmax(1048576, u->speed0 * 1024);
    if (!(hi <= 1e300))
        hi = 1e300;
    if (sp >= lo && sp <= hi && isfinite(sp))
        u->f.speed = sp;
    else
        app_note(u, "speed stays within 1024 times the first");
}

void actions_aim(struct ui *u, int key)
{
    if (edit_pusher_arrow(u, key))
        return;
    u->lab.ps.focus = -1; /* the table's: enter kicks, not the values panel's row */
    double want = key == APP_KEY_RIGHT ? 0 : key == APP_KEY_UP ? SIM_PI / 2
                : key == APP_KEY_LEFT ? SIM_PI : -SIM_PI / 2;
    if (app_no_cue(u))
        return;
    /* the first press turns too (issue 26.11: it used to only show the aim) */
    double d = remainder(want - u->f.aim, 2 * SIM_PI);
    if (fabs(d) >= SIM_PI - 1e-9)
        d = SIM_PI; /* straight behind: turn counter-clockwise */
    u->f.aim += fabs(d) <= AIM_STEP ? d : copysign(AIM_STEP, d);
    u->f.aim = remainder(u->f.aim, 2 * SIM_PI);
    u->f.aiming = 1;
}

void actions_kick(struct ui *u, int key)
{
    (void)key;
    if (edit_values_enter(u) || session_nonfinite(&u->ss) || app_no_cue(u))
        return;
    kick(u);
}

/* < and >: the kick speed ([ and ] step between contact events). */
void actions_kick_speed(struct ui *u, int key)
{
    if (app_no_cue(u))
        return;
    u->lab.ps.focus = -1; /* enter kicks */
    double v = key == '>' ? u->f.kick_speed * 1.25 : u->f.kick_speed / 1.25;
    if (isfinite(v) && v > 1e-300 && v < 1e300)
        u->f.kick_speed = v;
    u->f.aiming = 1;
}

/* Tab: the next ball becomes the cue ball. */
void actions_cue(struct ui *u, int key)
{
    if (app_no_cue(u) || session_state(&u->ss)->n == 0)
        return;
    size_t n = session_state(&u->ss)->n;
    u->f.cue = key == APP_KEY_BTAB ? (u->f.cue + n - 1) % n : (u->f.cue + 1) % n;
    u->f.aiming = 1;
    app_select(u, u->f.cue); /* marked, its row and contacts in the values panel */
    /* to a row: enter edits it again after a click or an arrow gave it to
     * the kick (issue 42.3) */
    for (int i = 0; u->lab.ps.values && i < panel_count; i++)
        if (panel_table[i] == &panel_values_class)
            u->lab.ps.focus = i;
    app_note(u, "cue ball: ball %zu (selected)", u->f.cue + 1);
}

void actions_mouse(struct ui *u, int key)
{
    (void)key;
    u->f.mouse = !u->f.mouse; /* the loop tells the terminal */
    app_note(u, u->f.mouse ? "mouse on: click a ball to choose it, the table to aim"
                           : "mouse off: the terminal selects text");
}

void actions_trails(struct ui *u, int key)
{
    (void)key;
    u->f.trails = !u->f.trails;
    if (!u->f.trails)
        screen_clear_trails(&u->scr);
}

void actions_redraw(struct ui *u, int key)
{
    (void)key;
    u->redraw = 1;
}

void actions_quit(struct ui *u, int key)
{
    (void)key;
    u->quit = 1;
}

/* v p f c n i P s, PgUp PgDn: what is shown. */
void actions_lab(struct ui *u, int key)
{
    int pk = key == APP_KEY_PGUP ? PANEL_KEY_PGUP : key == APP_KEY_PGDN ? PANEL_KEY_PGDN : key;
    if (key == 's') {
        const char *why;
        int on = !u->lab.ps.split;
        if (labscreen_split(&u->lab, &u->ss, on, &why)) {
            app_note(u, "no split view: %s", why);
            return;
        }
        u->lab.ps.split = on;
        app_relayout(u);
        app_note(u, "%s", on ? "split, time-locked: springs' E is KE+PE (overlaps), hard balls' KE"
                             : "split off");
        return;
    }
    const char *msg = panel_key(&u->lab.ps, pk, session_state(&u->ss)->n);
    if (key == 'P') { /* a plot over time: every step and event sampled */
        session_sampling(&u->ss, u->lab.ps.plot == PANEL_PLOT_ENERGY ||
                                     u->lab.ps.plot == PANEL_PLOT_MOMENTUM);
        /* the momentum diagram: each move's momenta, drawn or not */
        session_momenta(&u->ss, u->lab.ps.plot == PANEL_PLOT_PDIAG);
    }
    if (key == 'i' || key == 'P' || key == 'C')
        app_relayout(u);
    /* a panel switched on that gets no room says so, and what it needs
     * (at 40x12 with the values on, P changed nothing and said nothing;
     * at 24x8 C said "control bar on" and showed none) */
    const struct panel_class *cls = key == 'i' ? &panel_values_class
                                  : key == 'P' ? &panel_plot_class
                                  : key == 'C' ? &panel_bar_class : NULL;
    int need;
    if (cls && msg && *msg && !screen_panel_room(&u->scr, cls, &need)) {
        if (key == 'C')
            app_note_level(u, SCREEN_WARNING, "control bar: no room (needs %d rows)",
                           need);
        else
            app_note_level(u, SCREEN_WARNING, "%s: no room (needs %d rows%s)",
                           key == 'i' ? "values" : msg, need,
                           key == 'P' && u->lab.ps.values ? "; i hides the values" : "");
        return;
    }
    if (msg && *msg)
        app_note(u, "%s", msg);
}

/* 1: 1-D mode on / off. */
void actions_line(struct ui *u, int key)
{
    (void)key;
    int on = !session_state(&u->ss)->p.line;
    if (session_set_line(&u->ss, on)) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    app_note(u, on ? "1-D: every ball keeps its row, vy = 0, contacts along x" : "2-D again");
}

/* e E: restitution down / up a tenth. */
void actions_restitution(struct ui *u, int key)
{
    double e = lab_restitution_step(session_state(&u->ss)->p.restitution, key == 'E' ? 1 : -1);
    if (session_set_restitution(&u->ss, e)) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    app_note(u, "restitution %.1f%s", e,
             e == 1 ? ": elastic" : e == 0 ? ": sticky, balls that meet move on together" : "");
}

/* V: time reversed, every velocity turned around (an edit: ',' undoes it). */
void actions_reverse(struct ui *u, int key)
{
    (void)key;
    app_edited(u, session_reverse(&u->ss), "time reversed");
}

/* b: spring walls -> hard walls -> no walls. */
void actions_border(struct ui *u, int key)
{
    (void)key;
    if (u->f.open) {
        app_note(u, "open space has no walls");
        return;
    }
    int b = lab_border_next(lab_border(&session_state(&u->ss)->p));
    struct sim_params p = session_state(&u->ss)->p;
    lab_border_set(&p, b, u->sc->p.shape, u->sc->p.open);
    if (session_set_border(&u->ss, p.shape, p.walls, p.open)) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    app_note(u, "%s", lab_border_name(b));
}

/* One move of the session forward or back, for lab_seek_event. */
static const struct sim *seek_forward(void *ctx)
{
    struct session *ss = ctx;
    return session_forward(ss) == 1 ? session_state(ss) : NULL;
}

static const struct sim *seek_back(void *ctx)
{
    struct session *ss = ctx;
    return session_back(ss) == 0 ? session_state(ss) : NULL;
}

/* ] [: to the next / previous contact event (a contact begins or ends). */
void actions_contact(struct ui *u, int key)
{
    if (!(session_caps(&u->ss) & SESSION_CAP_STEPS)) {
        app_note(u, "event mode: '.' steps one collision");
        return;
    }
    u->f.running = 0;
    struct lab_event ev;
    int fwd = key == ']';
    long most = LAB_SEEK_MAX;
    if (session_state(&u->ss)->n > 0 && LAB_SEEK_WORK / (double)session_state(&u->ss)->n < most)
        most = (long)(LAB_SEEK_WORK / (double)session_state(&u->ss)->n) + 1;
    if (lab_seek_event(session_state(&u->ss), fwd ? seek_forward : seek_back, &u->ss, most, &ev)) {
        app_note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    if (!ev.found) {
        if (session_nonfinite(&u->ss))
            app_say(u, SCREEN_ERROR);
        else if (!fwd && session_said(&u->ss).note == SESSION_NOTE_HISTORY_LIMIT)
            app_say(u, SCREEN_INFO);
        else if (ev.steps < most)
            app_note(u, "%s", fwd ? "no contact event ahead" : "no contact event back to the start");
        else
            app_note(u, "no contact event within %ld steps", most);
        return;
    }
    if (fwd) {
        if (ev.began && ev.ended)
            app_note(u, "%zu contact%s began, %zu ended (%ld step%s on)", ev.began,
                     ev.began > 1 ? "s" : "", ev.ended, ev.steps, ev.steps > 1 ? "s" : "");
        else
            app_note(u, "%zu contact%s %s (%ld step%s on)", ev.began + ev.ended,
                     ev.began + ev.ended > 1 ? "s" : "", ev.began ? "began" : "ended", ev.steps,
                     ev.steps > 1 ? "s" : "");
        return;
    }
    /* Back: what the next step forward does. */
    if (ev.began && ev.ended)
        app_note(u, "at the next step %zu contact%s end, %zu begin (%ld step%s back)", ev.began,
                 ev.began > 1 ? "s" : "", ev.ended, ev.steps, ev.steps > 1 ? "s" : "");
    else
        app_note(u, "%zu contact%s %s at the next step (%ld step%s back)", ev.began + ev.ended,
                 ev.began + ev.ended > 1 ? "s" : "",
                 ev.began ? (ev.began > 1 ? "end" : "ends") : (ev.ended > 1 ? "begin" : "begins"),
                 ev.steps, ev.steps > 1 ? "s" : "");
}

void actions_help(struct ui *u, int key)
{
    (void)key;
    u->f.help = 1;
}

/* R: starts or stops recording the states shown (recording.h). */
void actions_record(struct ui *u, int key)
{
    (void)key;
    char msg[sizeof u->f.note];
    if (u->rec.on) {
        int rc = recording_stop(&u->rec, msg, sizeof msg);
        app_note_level(u, rc ? SCREEN_ERROR : SCREEN_INFO, "%s", msg);
    } else {
        int rc = recording_start(&u->rec, "springball", &u->ss, msg, sizeof msg);
        app_note_level(u, rc ? SCREEN_ERROR : SCREEN_INFO, "%s", msg);
    }
    u->f.recording = u->rec.on ? u->rec.traj_name : NULL;
}

/* === Replay (issue 30): a recorded run played back ===================
 *
 * The session shows the frame (app_replay_show); the keys that move in
 * time go from frame to frame, the keys that look (panels, arrows, trails,
 * numbers, R, w) work as live, and those that need a simulation say so.
 */

/* space . , r ] [ */
void actions_replay_move(struct ui *u, int key)
{
    size_t n = u->tr->nframes, k = u->f.frame;
    if (key == ' ') {
        if (!u->f.running && k + 1 >= n && n > 1 && app_replay_show(u, 0))
            return;
        u->f.running = !u->f.running;
        if (u->f.running)
            app_resume_clock(u);
        return;
    }
    u->f.running = 0;
    size_t to = key == '.' ? k + 1 : key == ',' ? (k ? k - 1 : 0)
              : key == ']' ? k + 10 : key == '[' ? (k > 10 ? k - 10 : 0) : 0;
    if (to >= n)
        to = n - 1;
    if (to == k) {
        app_note(u, "%s frame", key == '.' || key == ']' ? "the last" : "the first");
        return;
    }
    if (app_replay_show(u, to) == 0 && key == 'r')
        screen_clear_trails(&u->scr);
}

/* w: the frame as a scene that runs on, and what it runs with. */
void actions_replay_save(struct ui *u, int key)
{
    edit_save(u, key);
    if (u->f.note_level != SCREEN_INFO)
        return;
    const struct traj *tr = u->tr;
    size_t len = strlen(u->f.note);
    snprintf(u->f.note + len, sizeof u->f.note - len, ", frame %zu: %s", u->f.frame,
             tr->have_params == 1 ? "k, dt and walls as recorded"
             : tr->have_params ? "k, dt and walls of the .in beside it"
             : "k and dt the scene defaults");
}

void actions_replay_refuse(struct ui *u, int key)
{
    (void)key;
    app_note(u, (session_caps(&u->ss) & SESSION_CAP_REMOTE) ? ACTIONS_REMOTE_NO_SIM
                                                             : ACTIONS_REPLAY_NO_SIM);
}
