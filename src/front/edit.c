/*
 * edit.c - live edits (see edit.h): the mouse, the pusher, adding and
 * removing balls, the ':' command line and w.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "edit.h"

#include "app.h"
#include "command.h"
#include "files.h"
#include "numfmt.h"
#include "panel.h"
#include "remote.h"
#include "scene.h"
#include "session_scene.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define PUSHER_MASS 1e30 /* infinite for the others: not pushed back */
#define WHEEL_MASS 1.1   /* a wheel notch: mass times this (or divided) */
#define WHEEL_RADIUS 1.05

static void edit_row(struct ui *u, size_t b, int col);

/* The velocity as the drag of the arrow's tip says: speed and direction. */
static void drag_velocity(struct ui *u, double wx, double wy)
{
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i >= session_state(&u->ss)->n || !(u->f.arrow_t > 0))
        return;
    double vx = (wx - session_state(&u->ss)->x[i]) / u->f.arrow_t, vy = (wy - session_state(&u->ss)->y[i]) / u->f.arrow_t;
    double deg = atan2(vy, vx) * 180 / SIM_PI;
    if (deg < 0)
        deg += 360;
    app_edited(u, session_set_velocity(&u->ss, u->f.cue, vx, vy), "ball %zu: v %.3g at %.0f%s",
               u->f.cue + 1, hypot(vx, vy), deg, u->f.glyphs == VIEW_ASCII ? " deg" : "\xc2\xb0");
}

static void move_pusher(struct ui *u, double wx, double wy)
{
    size_t p = app_pusher_ball(u);
    if (p == (size_t)-1)
        return;
    session_gesture(&u->ss, 1); /* paused: one move however far it goes */
    app_edited(u, session_move(&u->ss, p, wx, wy, 1), NULL);
}

/* One mouse event at screen cell (x, y); @p mod: Shift, Ctrl or Alt held. */
void edit_mouse(struct ui *u, int kind, int x, int y, int mod)
{
    if (u->scr.lay.too_small || u->prompting)
        return;
    if (session_caps(&u->ss) & SESSION_CAP_REMOTE) { /* a live run: select, drag: push */
        if (kind == APP_MOUSE_PRESS) {
            size_t b = screen_ball_at(&u->scr, app_shown(u), x, y);
            u->drag = DRAG_NONE;
            if (b < session_state(&u->ss)->n) {
                u->f.cue = b;
                u->drag = DRAG_PUSH;
                app_select(u, b);
                app_note(u, "ball %zu (selected; drag to push it)", b + 1);
            }
        } else if (kind == APP_MOUSE_RELEASE && u->drag == DRAG_PUSH) {
            u->drag = DRAG_NONE;
            if (screen_ball_at(&u->scr, app_shown(u), x, y) != u->f.cue) {
                double wx, wy;
                screen_to_world(&u->scr, x, y, &wx, &wy);
                remote_drag(u, u->f.cue, wx, wy);
            }
        }
        return;
    }
    if (u->tr) { /* replay: a click selects, nothing moves */
        size_t b = kind == APP_MOUSE_PRESS ? screen_ball_at(&u->scr, app_shown(u), x, y) : (size_t)-1;
        if (b < session_state(&u->ss)->n) {
            u->f.cue = b;
            app_select(u, b);
            app_note(u, "ball %zu (selected)", b + 1);
        }
        return;
    }
    double wx, wy;
    screen_to_world(&u->scr, x, y, &wx, &wy);
    app_fix_cue(u);
    if (kind != APP_MOUSE_WHEEL_UP && kind != APP_MOUSE_WHEEL_DOWN && u->drag == DRAG_NONE)
        session_gesture(&u->ss, 0); /* a wheel's run of notches ends */
    switch (kind) {
    case APP_MOUSE_PRESS: {
        int tx, ty, col;
        size_t row = panel_values_at(&u->lab.ps, x, y, &col);
        if (row < session_state(&u->ss)->n) { /* a number of the values panel: typed into */
            edit_row(u, row, col);
            return;
        }
        u->ptr_x = u->add_x = wx;
        u->ptr_y = u->add_y = wy;
        u->have_ptr = 1;
        if (u->f.pusher) {
            u->drag = DRAG_PUSHER;
            session_gesture(&u->ss, 1);
            move_pusher(u, wx, wy);
            return;
        }
        if (u->f.arrow && !screen_arrow_tip(&u->scr, app_shown(u), &u->f, &tx, &ty) &&
            abs(tx - x) <= 1 && ty == y) {
            u->drag = DRAG_VELOCITY;
            session_gesture(&u->ss, 1);
            app_note(u, "drag the tip: the velocity of ball %zu", u->f.cue + 1);
            return;
        }
        size_t b = screen_ball_at(&u->scr, app_shown(u), x, y);
        if (b != (size_t)-1) {
            u->f.cue = b;
            u->f.aiming = !u->f.open;
            size_t i = session_slot(&u->ss, b);
            u->grab_dx = session_state(&u->ss)->x[i] - wx;
            u->grab_dy = session_state(&u->ss)->y[i] - wy;
            u->drag = DRAG_BALL;
            session_gesture(&u->ss, 1);
            app_select(u, b);
            if (u->f.open)
                app_note(u, "selected: ball %zu", b + 1);
            else
                app_note(u, "cue ball: ball %zu (selected)", b + 1);
            return;
        }
        /* empty table aims; a panel, the title or the status line nothing */
        const struct screen_rect t = u->scr.lay.table;
        if (x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h)
            u->drag = DRAG_EMPTY;
        return;
    }
    case APP_MOUSE_MOVE:
        u->ptr_x = wx;
        u->ptr_y = wy;
        if (u->drag == DRAG_BALL)
            app_edited(u, session_move(&u->ss, u->f.cue, wx + u->grab_dx, wy + u->grab_dy, 0),
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
        app_fix_cue(u);
        if (was != DRAG_EMPTY || session_nonfinite(&u->ss) || app_no_cue(u) || !app_have_ball(u))
            return;
        /* a click on empty table: the selected ball aims at it (the aim
         * arrow and the status line show it); enter kicks, 'a' adds a
         * ball there (issue 26) */
        size_t c = session_slot(&u->ss, u->f.cue);
        double dx = wx - session_state(&u->ss)->x[c], dy = wy - session_state(&u->ss)->y[c];
        if (dx == 0 && dy == 0)
            return;
        u->f.aim = atan2(dy, dx);
        u->f.aiming = 1;
        u->lab.ps.focus = -1; /* enter kicks, not the values panel's row */
        app_note(u, "ball %zu aims here: enter kicks it, a adds a ball here", u->f.cue + 1);
        return;
    }
    default: { /* the wheel over the selected ball: mass (with a modifier, radius) */
        size_t b = screen_ball_at(&u->scr, app_shown(u), x, y);
        if (b == (size_t)-1 || b != u->f.cue || b == app_pusher_ball(u)) {
            if (u->lab.ps.values) /* elsewhere it scrolls the values panel */
                panel_key(&u->lab.ps, kind == APP_MOUSE_WHEEL_UP ? PANEL_KEY_PGUP : PANEL_KEY_PGDN,
                          session_state(&u->ss)->n);
            else
                app_note(u, "the wheel over the selected ball changes its mass");
            return;
        }
        size_t i = session_slot(&u->ss, b);
        int up = kind == APP_MOUSE_WHEEL_UP;
        session_gesture(&u->ss, 1);
        if (mod) {
            double r = up ? session_state(&u->ss)->r[i] * WHEEL_RADIUS : session_state(&u->ss)->r[i] / WHEEL_RADIUS;
            app_edited(u, session_set_radius(&u->ss, b, r), "ball %zu: r %.4g", b + 1, r);
        } else {
            double m = up ? session_state(&u->ss)->m[i] * WHEEL_MASS : session_state(&u->ss)->m[i] / WHEEL_MASS;
            app_edited(u, session_set_mass(&u->ss, b, m), "ball %zu: m %.4g", b + 1, m);
        }
        return;
    }
    }
}

/* While a ball is held and the run goes on, it stays at the pointer. */
void edit_hold(struct ui *u)
{
    if (u->drag == DRAG_BALL && u->f.running)
        session_move(&u->ss, u->f.cue, u->ptr_x + u->grab_dx, u->ptr_y + u->grab_dy, 0);
}

/* a: a ball at the last click (or the table's centre), with the selected
 * ball's mass and radius, at rest; it becomes the selected one. */
void edit_add(struct ui *u, int key)
{
    (void)key;
    const struct sim *s = session_state(&u->ss);
    double x = u->have_ptr ? u->add_x : 0.5 * s->p.w, y = u->have_ptr ? u->add_y : 0.5 * s->p.h;
    if (s->p.shape == SIM_OPEN && !u->have_ptr)
        x = y = 0; /* open space: the view is -R..R */
    double m = 1, r = 0.05 * fmin(s->p.w, s->p.h);
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i < s->n && u->f.cue != app_pusher_ball(u)) {
        m = s->m[i];
        r = s->r[i];
    }
    uint32_t color = 1 + u->added % 6; /* red, green, yellow, blue, magenta, cyan */
    if (app_edited(u, session_add_ball(&u->ss, x, y, 0, 0, m, r, SCREEN_TAG_ADDED | color), NULL))
        return;
    u->added++;
    u->f.cue = session_state(&u->ss)->n - 1;
    if (!app_said(u))
        app_note(u, "ball %zu added at (%.4g, %.4g): m %.4g r %.4g", u->f.cue + 1, x, y, m, r);
    app_fix_cue(u);
}

/* x, Delete: the selected ball goes (',' brings it back). */
void edit_delete(struct ui *u, int key)
{
    (void)key;
    if (!app_have_ball(u))
        return;
    size_t b = u->f.cue;
    if (b == app_pusher_ball(u)) {
        app_note(u, "h takes the pusher away");
        return;
    }
    app_edited(u, session_remove_ball(&u->ss, b), "ball %zu removed (',' brings it back)", b + 1);
}

/* h: the pusher, a ball of infinite mass at the pointer (or moved by the
 * arrows) that pushes the others through the contact law. */
void edit_pusher(struct ui *u, int key)
{
    (void)key;
    size_t p = app_pusher_ball(u);
    if (p != (size_t)-1) {
        app_edited(u, session_remove_ball(&u->ss, p), "pusher off");
        return;
    }
    if ((session_caps(&u->ss) & SESSION_CAP_EXACT)) {
        /* moved without a velocity, it would pass through the balls it
         * lands on: an overlap that does not approach is left to separate */
        app_note(u, "the pusher needs the spring engine (m)");
        return;
    }
    const struct sim *s = session_state(&u->ss);
    double x = u->have_ptr ? u->ptr_x : 0.5 * s->p.w, y = u->have_ptr ? u->ptr_y : 0.5 * s->p.h;
    double r = 0.05 * fmin(s->p.w, s->p.h);
    size_t i = session_slot(&u->ss, u->f.cue);
    if (i < s->n)
        r = s->r[i];
    app_edited(u, session_add_ball(&u->ss, x, y, 0, 0, PUSHER_MASS, r, SCREEN_TAG_PUSHER),
               "pusher on: drag it, or move it with the arrows; h again takes it away");
}

/* The arrows move the pusher a cell's width (or two rows' height). */
int edit_pusher_arrow(struct ui *u, int key)
{
    size_t p = app_pusher_ball(u);
    if (p == (size_t)-1)
        return 0;
    size_t i = session_slot(&u->ss, p);
    double step = 1 / u->scr.v.map.sx;
    if (!(step > 0) || !isfinite(step))
        step = session_state(&u->ss)->r[i];
    double x = session_state(&u->ss)->x[i], y = session_state(&u->ss)->y[i];
    x += key == APP_KEY_RIGHT ? step : key == APP_KEY_LEFT ? -step : 0;
    y += key == APP_KEY_UP ? step * u->scr.v.map.aspect : key == APP_KEY_DOWN ? -step * u->scr.v.map.aspect : 0;
    session_gesture(&u->ss, !u->f.running);
    app_edited(u, session_move(&u->ss, p, x, y, 1), NULL);
    return 1;
}

/* The colour a saved ball keeps: its scene colour by its tag. */
static uint32_t tag_scene_color(void *arg, uint32_t tag)
{
    const struct ui *u = arg;
    if (tag & SCREEN_TAG_ADDED)
        return tag & ~SCREEN_TAG_ADDED;
    return tag < u->sc->n ? u->sc->balls[tag].color : SCENE_COLOR_NONE;
}

/* Opens a new file for w: --save-to's name, else springball-N.scene; a
 * name taken gets the next number (never an overwrite), the numbers on from
 * the last save's (files.h). */
static FILE *save_open(struct ui *u, char *name, size_t size)
{
    char stem[SAVE_TO_MAX + 1];
    const char *ext[1] = {".scene"};
    if (u->o.save_to) {
        const char *s = u->o.save_to, *dot = strrchr(s, '.'), *slash = strrchr(s, '/');
        if (!dot || (slash && dot < slash) || dot == s)
            dot = s + strlen(s);
        snprintf(stem, sizeof stem, "%.*s", (int)(dot - s), s);
        ext[0] = dot;
    }
    FILE *f;
    char *const names[1] = {name};
    int failed;
    if (files_create(u->o.save_to ? stem : "springball", ext, 1, u->o.save_to != NULL,
                     &u->save_next, &f, names, size, &failed))
        return NULL;
    return f;
}

/* w: the state as a scene file that reloads to it bit for bit (the
 * session's scene, session_scene.h: at t = 0 the set-up). */
void edit_save(struct ui *u, int key)
{
    (void)key;
    struct sim s = {0};
    struct scene out;
    size_t p = app_pusher_ball(u); /* the pusher is not part of the scene */
    if (session_scene(&u->ss, SESSION_SCENE_NOW, p, u->f.open ? (size_t)-1 : u->f.cue,
                      tag_scene_color, u, &out)) {
        app_note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    if (scene_to_sim(&out, &s)) {
        free(out.balls);
        app_note_level(u, SCREEN_ERROR, "out of memory");
        return;
    }
    out.title = (char *)(u->title_buf[0] ? u->title_buf : u->sc->title);
    char name[SAVE_TO_MAX + 32];
    FILE *f = sim_finite(&s) ? save_open(u, name, sizeof name) : NULL;
    if (!sim_finite(&s)) {
        /* inf or nan is no scene: it would not read back */
        app_note_level(u, SCREEN_ERROR, "cannot save: the state is not finite "
                                        "(, steps back)");
    } else if (!f) {
        app_note_level(u, SCREEN_ERROR, "cannot save: %s", strerror(errno));
    } else {
        scene_write(f, &out, &s);
        int bad = fflush(f) != 0 || ferror(f);
        int e = errno;
        if (fclose(f) != 0 && !bad)
            bad = 1, e = errno;
        if (bad) {
            remove(name); /* no partial file (a full disk) */
            app_note_level(u, SCREEN_ERROR, "cannot save %s: %s", name, strerror(e));
        } else {
            u->saves++;
            app_note(u, "saved %s (%zu ball%s)", name, s.n, s.n == 1 ? "" : "s");
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
    if (session_caps(&u->ss) & SESSION_CAP_REMOTE)
        return remote_command(u, line);
    if (command_parse(&c, line, session_observed(&u->ss), err, sizeof err)) {
        app_note_level(u, SCREEN_ERROR, "%s", err);
        return -1;
    }
    int rc = 0;
    size_t b = u->f.cue;
    switch (c.kind) {
    case COMMAND_NONE:
        break;
    case COMMAND_PARAMS:
        rc = app_edited(u, session_set_params(&u->ss, &c.p), "%s", line);
        break;
    case COMMAND_BALLS:
        if (c.n > COMMAND_BALLS_MAX) { /* the moves kept for ',' take memory */
            app_note_level(u, SCREEN_ERROR, "at most %d balls a command (a scene file takes more)",
                           COMMAND_BALLS_MAX);
            rc = -1;
            break;
        }
        {
            /* all at once: one copy of the state, not one a ball */
            struct session_ball *nb = malloc((c.n ? c.n : 1) * sizeof *nb);
            if (!nb) {
                app_note_level(u, SCREEN_ERROR, "out of memory");
                rc = -1;
                break;
            }
            for (size_t i = 0; i < c.n; i++)
                nb[i] = (struct session_ball){c.balls[i].x, c.balls[i].y, c.balls[i].vx,
                                              c.balls[i].vy, c.balls[i].m, c.balls[i].r,
                                              SCREEN_TAG_ADDED | c.balls[i].color};
            rc = app_edited(u, session_add_balls(&u->ss, nb, c.n), NULL);
            free(nb);
        }
        if (rc == 0) {
            u->f.cue = session_state(&u->ss)->n - 1;
            if (!app_said(u))
                app_note(u, c.n == 1 ? "ball %zu added" : "%zu balls added", c.n == 1 ? session_state(&u->ss)->n : c.n);
        }
        break;
    case COMMAND_CUE:
        u->f.cue = (size_t)c.a - 1;
        u->f.aiming = 1;
        app_select(u, u->f.cue);
        app_note(u, "cue ball: ball %zu", u->f.cue + 1);
        break;
    case COMMAND_STEP: {
        size_t nstep = u->lesson.ls ? u->lesson.ls->nstep : 0;
        if (!nstep) {
            app_note_level(u, SCREEN_ERROR, "step: no lesson open (springball scenes/lessons/momentum.lesson)");
            rc = -1;
        } else if (c.a != floor(c.a) || c.a > (double)nstep) {
            app_note_level(u, SCREEN_ERROR, "step: the lesson has steps 1 to %zu", nstep);
            rc = -1;
        } else {
            u->goto_step = (size_t)c.a;
        }
        break;
    }
    case COMMAND_TITLE:
        snprintf(u->title_buf, sizeof u->title_buf, "%s", c.title);
        u->f.title = u->title_buf;
        break;
    default:
        if (!app_have_ball(u)) {
            rc = -1;
            break;
        }
        if (b == app_pusher_ball(u) && c.kind != COMMAND_POSITION) {
            app_note(u, "the pusher: h takes it away");
            rc = -1;
            break;
        }
        if (c.kind == COMMAND_MASS)
            rc = app_edited(u, session_set_mass(&u->ss, b, c.a), "ball %zu: m %.6g", b + 1, c.a);
        else if (c.kind == COMMAND_RADIUS)
            rc = app_edited(u, session_set_radius(&u->ss, b, c.a), "ball %zu: r %.6g", b + 1, c.a);
        else if (c.kind == COMMAND_VELOCITY)
            rc = app_edited(u, session_set_velocity(&u->ss, b, c.a, c.b), "ball %zu: v (%.6g, %.6g)",
                            b + 1, c.a, c.b);
        else if (c.kind == COMMAND_POSITION)
            rc = app_edited(u, session_move(&u->ss, b, c.a, c.b, 0), "ball %zu at (%.6g, %.6g)",
                            b + 1, c.a, c.b);
        else
            rc = app_edited(u, session_remove_ball(&u->ss, b), "ball %zu removed (',' brings it back)",
                            b + 1);
        break;
    }
    command_free(&c);
    if (rc && !u->f.note[0])
        app_note_level(u, SCREEN_ERROR, "refused");
    else if (rc)
        u->f.note_level = SCREEN_ERROR;
    return rc;
}

static void prompt_show(struct ui *u)
{
    u->f.prompt = u->prompting ? u->cl.buf : NULL;
    u->f.prompt_cur = u->cl.cur;
    app_fix_cue(u);
}

/* ':' opens the command line (it pauses: edits are made at one moment). */
void edit_prompt(struct ui *u, int key)
{
    (void)key;
    u->prompting = 1;
    if (!(session_caps(&u->ss) & SESSION_CAP_REMOTE)) /* a live run's frames keep coming */
        u->f.running = 0;
    u->f.help = 0;
    command_open(&u->cl);
    prompt_show(u);
}

/* The command line opened on ball @p b's directive for column @p col of
 * the values panel (enum lab_col): ":m M" for the mass, ":x X Y" for x
 * and y, else ":v VX VY"; the numbers in their shortest exact form, so
 * that Enter alone changes nothing; the cursor just after the number of
 * the column. The ball becomes the selected one. */
static void edit_row(struct ui *u, size_t b, int col)
{
    size_t i = session_slot(&u->ss, b);
    const struct sim *s = session_state(&u->ss);
    if (i >= s->n)
        return;
    char line[3 * NUMFMT_MAX + 8], n1[NUMFMT_MAX], n2[NUMFMT_MAX];
    size_t cur;
    if (col == LAB_COL_M) {
        numfmt_double(n1, s->m[i]);
        snprintf(line, sizeof line, "m %s", n1);
        cur = strlen(line);
    } else {
        int pos = col == LAB_COL_X || col == LAB_COL_Y;
        numfmt_double(n1, pos ? s->x[i] : s->vx[i]);
        numfmt_double(n2, pos ? s->y[i] : s->vy[i]);
        snprintf(line, sizeof line, "%s %s %s", pos ? "x" : "v", n1, n2);
        int second = col == LAB_COL_Y || col == LAB_COL_VY || col == LAB_COL_PY;
        cur = second ? strlen(line) : 2 + strlen(n1);
    }
    u->f.cue = b;
    app_select(u, b);
    edit_prompt(u, ':');
    command_fill(&u->cl, line, cur);
    prompt_show(u);
}

int edit_values_enter(struct ui *u)
{
    const struct panel_state *ps = &u->lab.ps;
    if (!ps->values || ps->ov.selected >= session_state(&u->ss)->n || ps->focus < 0 ||
        ps->focus >= panel_count || panel_table[ps->focus] != &panel_values_class)
        return 0;
    edit_row(u, ps->ov.selected, LAB_COL_VX);
    return 1;
}

/* A key while the command line is open. */
void edit_prompt_key(struct ui *u, int key)
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
        app_note_level(u, SCREEN_ERROR, "the line is longer than %d characters: "
                                        "not run (C-u clears it)", COMMAND_MAX);
    } else if (r > 0) {
        if (run_command(u, u->cl.buf) == 0)
            u->prompting = 0;
        /* refused: the line stays to be mended, the message above it */
    }
    prompt_show(u);
}
