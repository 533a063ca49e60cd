/*
 * tutor.c - a lesson in the terminal front end (see tutor.h).
 */
#include "tutor.h"

#include "app.h"
#include "lesson_panel.h"
#include "script.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tutor_open(struct ui *u)
{
    struct lesson_view *lv = &u->lesson;
    if (!u->o.lesson)
        return 0;
    lv->ls = u->o.lesson;
    u->lab.ps.pv.lesson = 1; /* PgUp PgDn are the lesson's: the values' rule says so */
    /* the title row names the lesson, not the file it came from (nor the
     * scene it runs on: the lesson's text says what that is) */
    if (lv->ls->title && lv->ls->title[0])
        u->f.title = lv->ls->title;
    return screen_add_panel(&u->scr, &lesson_panel_class, lv) < 0 ? -1 : 0;
}

/* The keys of step @p k as script items (*items, freed by the caller).
 * @return their count (0: none), or -1 when memory ran short. */
static int step_items(const struct lesson *ls, size_t k, struct script_item **items)
{
    *items = NULL;
    if (!ls->step[k].keys)
        return 0;
    char err[160];
    /* checked when the lesson was read: only memory can fail here */
    return script_parse(ls->step[k].keys, items, err, sizeof err);
}

/* The front end as the program began, on the same screen: app_init again
 * (the scene, the panels, the speed), with what belongs to the terminal
 * and to a script in progress kept. @return 0, or -1 (memory). */
static int restart(struct ui *u)
{
    struct ui *keep = malloc(sizeof *keep);
    if (!keep)
        return -1;
    *keep = *u;
    if (u->lesson.demo) { /* a step's demo is over: the new step has its own */
        free(u->items);
        keep->items = NULL;
        keep->nitems = keep->next_item = 0;
        keep->wait_sim = 0;
        keep->lesson.demo = 0;
    }
    u->items = NULL; /* the script in progress goes on */
    app_free(u);
    struct ui_options o = keep->o;
    o.keys = NULL;
    o.paused = 1;
    o.pause_at = -1;
    int rc = app_init(u, keep->sc, keep->lesson.name, &o, keep->f.glyphs, keep->scr.color);
    if (rc == 0) {
        u->o = keep->o;
        u->live = keep->live;
        u->cols = keep->cols;
        u->rows = keep->rows;
        u->ncolors = keep->ncolors;
        u->scr.bg = keep->scr.bg;
        u->wall = keep->wall;
        u->target = session_state(&u->ss)->t;
        u->redraw = 1;
        u->items = keep->items;
        u->nitems = keep->nitems;
        u->next_item = keep->next_item;
        u->due = keep->due;
        u->snap_calls = keep->snap_calls;
        u->wait_sim = keep->wait_sim;
        u->wait_end = keep->wait_end;
        u->save_next = keep->save_next;
        u->saves = keep->saves;
        u->lesson = keep->lesson;
        rc = tutor_open(u);
    } else {
        free(keep->items);
    }
    free(keep);
    return rc;
}

/* Plays step @p k's keys at once, from a paused run. */
static int play_now(struct ui *u, size_t k, tutor_player play)
{
    struct script_item *items;
    int n = step_items(u->lesson.ls, k, &items);
    if (n < 0)
        return -1;
    u->f.running = 0;
    u->lesson.playing = 1;
    play(u, items, n);
    u->lesson.playing = 0;
    free(items);
    return 0;
}

int tutor_goto(struct ui *u, size_t step, tutor_player play)
{
    struct lesson_view *lv = &u->lesson;
    if (!u->o.lesson)
        return 0;
    if (!lv->ls) { /* the first time: the name the front end began with */
        lv->ls = u->o.lesson;
        lv->name = u->f.title;
    }
    if (step >= lv->ls->nstep)
        step = lv->ls->nstep - 1;
    int rc = restart(u);
    for (size_t k = 0; rc == 0 && k < step && !u->quit; k++)
        rc = play_now(u, k, play);
    u->f.note[0] = 0; /* what the earlier steps' keys said is not this step's */
    lesson_view_goto(&u->lesson, step);
    if (u->cols > 0) /* the panel's height is the new step's */
        app_relayout(u);
    u->f.running = 0;
    if (rc == 0 && !u->quit) {
        if (u->live && u->next_item >= u->nitems) {
            /* a terminal, no script going on: the step's keys as a demo */
            struct script_item *items;
            int n = step_items(lv->ls, step, &items);
            if (n < 0) {
                rc = -1;
            } else {
                free(u->items);
                u->items = items;
                u->nitems = n;
                u->next_item = 0;
                u->due = u->wall;
                u->wait_sim = 0;
                u->lesson.demo = n > 0;
            }
        } else {
            rc = play_now(u, step, play);
        }
    }
    if (rc)
        app_note_level(u, SCREEN_ERROR, "out of memory");
    app_resume_clock(u);
    return rc;
}

int tutor_key(struct ui *u, int key, tutor_player play)
{
    struct lesson_view *lv = &u->lesson;
    if (!lv->ls || lv->playing)
        return 0;
    if (key == 'A' || key == APP_KEY_PGDN || key == 'l') {
        int next = key == 'A' ? LESSON_NEXT_REVEAL : lesson_view_next(lv);
        if (next == LESSON_NEXT_REVEAL) {
            if (!lesson_view_reveal(lv, session_observed(&u->ss), session_start(&u->ss)))
                app_note(u, "this step asks nothing");
        } else if (next == LESSON_NEXT_STEP) {
            tutor_goto(u, lv->step + 1, play);
        } else {
            app_note(u, "the last step of the lesson (PgUp or L goes back)");
        }
        return 1;
    }
    if (key == APP_KEY_PGUP || key == 'L') {
        size_t to = lv->step > 0 ? lv->step - 1 : 0;
        tutor_goto(u, to, play);
        if (to == lv->step && lv->step == 0)
            app_note(u, "the first step, again");
        return 1;
    }
    return 0;
}

int tutor_presenter(struct ui *u, int key, tutor_player play)
{
    struct lesson_view *lv = &u->lesson;
    if (!lv->ls || lv->playing || u->step_key || key == APP_KEY_RESIZE)
        return 0;
    if (u->asking) {
        u->asking = 0;
        if (key == 'y' || key == 'Y' || key == 'q') {
            u->quit = 1;
        } else {
            u->f.note[0] = 0;
            app_note(u, "the lesson goes on");
        }
        return 1;
    }
    if (u->f.blank) { /* any key, a click, shows the screen again */
        u->f.blank = 0;
        u->redraw = 1;
        return 1;
    }
    if (key == 27 || key == 'q') {
        u->asking = 1;
        app_note_level(u, SCREEN_WARNING, "quit the lesson? y: quit, any other key: stay");
        u->note_until = INFINITY; /* until it is answered */
        return 1;
    }
    if (key == APP_KEY_F5) {
        tutor_goto(u, lv->step, play);
        app_note(u, "step %zu from its start", lv->step + 1);
        return 1;
    }
    if (key == 'b') {
        u->f.blank = 1;
        u->redraw = 1;
        return 1;
    }
    return 0;
}

void tutor_keys(struct ui *u, int key)
{
    (void)key;
    if (!u->lesson.ls)
        app_note(u, "no lesson: open one (springball scenes/lessons/momentum.lesson)");
}
