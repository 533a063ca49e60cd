/*
 * remote.c - a live run's keys and status (see remote.h).
 */
#include "remote.h"

#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Says what the session said after a refused command. */
static void refused(struct ui *u)
{
    app_say(u, SCREEN_WARNING);
}

/* enter: the cue ball along the aim at the kick speed. */
static void push_cue(struct ui *u)
{
    u->f.aiming = 0;
    double vx = u->f.kick_speed * cos(u->f.aim), vy = u->f.kick_speed * sin(u->f.aim);
    if (session_live_push(&u->ss, u->f.cue, vx, vy)) {
        refused(u);
        return;
    }
    app_note(u, "push: ball %zu toward v %.3g (a force pulse for one frame)", u->f.cue + 1,
             u->f.kick_speed);
}

void remote_drag(struct ui *u, size_t ball, double wx, double wy)
{
    const struct sim *s = session_state(&u->ss);
    size_t i = session_slot(&u->ss, ball);
    if (i >= s->n)
        return;
    double t = u->f.arrow_t > 0 ? u->f.arrow_t : 1;
    double dx = (wx - s->x[i]) / t, dy = (wy - s->y[i]) / t;
    if (session_live_push(&u->ss, ball, s->vx[i] + dx, s->vy[i] + dy)) {
        refused(u);
        return;
    }
    app_note(u, "push: ball %zu by dv %.3g (a force pulse for one frame)", ball + 1,
             hypot(dx, dy));
}

void remote_key(struct ui *u, int key)
{
    if (u->kill_armed) { /* the one question: y ends the run */
        u->kill_armed = 0;
        if (key != 'y' && key != 'Y') {
            app_note(u, "the run goes on");
            return;
        }
        if (session_live_kill(&u->ss))
            refused(u);
        else
            app_note_level(u, SCREEN_WARNING, "the run was ended (KILL); q quits");
        return;
    }
    struct session_live_info in = session_live_info(&u->ss);
    switch (key) {
    case ' ':
        if (session_live_pause(&u->ss)) {
            refused(u);
            return;
        }
        in = session_live_info(&u->ss);
        app_note(u, in.paused ? "the run is paused (space resumes it)" : "the run goes on");
        return;
    case '.': {
        int r = session_live_step(&u->ss);
        if (r < 0)
            refused(u);
        else if (r == SESSION_LIVE_STEP_PAUSED)
            app_note(u, "the run is paused: . lets one frame through, space resumes it");
        else if (r == SESSION_LIVE_STEP_TAKEN)
            app_note(u, "one frame: frame %llu (still paused: . again, space resumes)",
                     session_live_info(&u->ss).frames);
        else
            app_note(u, "one frame through: the run resumed until it comes");
        u->live_step = r == SESSION_LIVE_STEP_COMING ? in.frames + 1 : 0;
        return;
    }
    case '+':
    case '=':
    case '-': {
        long long to = key == '-' ? in.trate * 2 : in.trate / 2;
        if (to < 1) {
            app_note(u, "a frame every step already (trate 1)");
            return;
        }
        if (session_live_trate(&u->ss, to))
            refused(u);
        else
            app_note(u, "a frame every %lld step%s (trate)", to, to == 1 ? "" : "s");
        return;
    }
    case '\r':
    case '\n':
        if (app_no_cue(u) || !app_have_ball(u))
            return;
        push_cue(u);
        return;
    case 'r':
        if (in.state == SESSION_LIVE_RUNNING) {
            app_note(u, "the link is up (r reconnects after it dropped)");
            return;
        }
        if (session_live_reconnect(&u->ss)) {
            app_say(u, SCREEN_ERROR);
            return;
        }
        u->f.running = 1;
        u->live_seen = u->wall;
        app_resume_clock(u);
        app_note(u, "reconnected to %s", in.where);
        return;
    default: /* , ] [ */
        app_note(u, "the run is live: its frames come as it makes them");
        return;
    }
}

int remote_command(struct ui *u, const char *line)
{
    while (*line == ' ')
        line++;
    size_t n = strlen(line);
    while (n && line[n - 1] == ' ')
        n--;
    if (n == 4 && !strncmp(line, "kill", 4)) {
        if (!(session_live_info(&u->ss).can & SESSION_LIVE_CAN_KILL)) {
            app_note(u, "this link cannot end the run");
            return 0;
        }
        u->kill_armed = 1;
        app_note_level(u, SCREEN_WARNING, "end the run itself? y ends it, any other key "
                                          "keeps it going");
        u->note_until = u->wall + 1e9; /* until answered */
        return 0;
    }
    app_note(u, "a live run takes one command: ':kill' ends the run (q leaves it going)");
    return 0;
}

void remote_frame(struct ui *u)
{
    struct front *f = &u->f;
    struct session_live_info in = session_live_info(&u->ss);
    if (u->live_seen == 0)
        u->live_seen = u->wall;
    if (in.frames != u->live_frames) {
        u->live_frames = in.frames;
        u->live_seen = u->wall;
    }
    f->frame = (size_t)in.frames;
    f->v_diff = in.v_diff;
    f->remote_alert = 0;
    f->remote_note[0] = 0;
    f->trate = (in.can & SESSION_LIVE_CAN_TRATE) ? in.trate : 0;
    const char *state = "running";
    switch (in.state) {
    case SESSION_LIVE_RUNNING:
        if (in.stepping) {
            state = "stepping";
            snprintf(f->remote_note, sizeof f->remote_note,
                     "one frame: waiting for it (%.0f s)", floor(u->wall - u->live_seen));
        } else if (in.paused && u->live_step && in.frames == u->live_step) {
            state = "paused";
            snprintf(f->remote_note, sizeof f->remote_note,
                     "paused after one frame: . another, space resumes");
        } else if (in.paused) {
            state = "paused";
            snprintf(f->remote_note, sizeof f->remote_note,
                     "paused: . one frame, space resumes");
        } else if (u->wall - u->live_seen >= REMOTE_WAIT_S) {
            state = "waiting";
            snprintf(f->remote_note, sizeof f->remote_note, "waiting for the run (%.0f s)",
                     floor(u->wall - u->live_seen));
        }
        break;
    case SESSION_LIVE_DROPPED:
        state = "dropped";
        f->remote_alert = 1;
        snprintf(f->remote_note, sizeof f->remote_note, "the link dropped: r reconnects");
        break;
    case SESSION_LIVE_ENDED:
        state = "ended";
        snprintf(f->remote_note, sizeof f->remote_note, "the run ended, or its link closed: r reconnects");
        break;
    default:
        state = "ended";
        snprintf(f->remote_note, sizeof f->remote_note, "the run was ended (:kill)");
        break;
    }
    snprintf(f->remote_state, sizeof f->remote_state, "%s", state);
}
