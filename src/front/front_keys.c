/*
 * front_keys.c - the one key table of the terminal front end: every key,
 * what it does live and in a replay, its help (made from the table for
 * either), and the dispatch of a key (see front_impl.h).
 */
#include "front_impl.h"

#include "actions.h"
#include "bar.h"
#include "edit.h"
#include "remote.h"
#include "term.h"
#include "tutor.h"
#include "zoom.h"

#define KEY_CTRL_L 12

/* The terminal's size, and the screen laid out again for it. */
void front_relayout(struct ui *u)
{
    if (u->live)
        term_size(&u->cols, &u->rows);
    app_relayout(u);
}

static void resize(struct ui *u, int key)
{
    (void)key;
    front_relayout(u);
}

void front_mouse(struct ui *u, int kind, int x, int y, int mod)
{
    if (u->f.blank) { /* a lesson's blank screen: a click shows it again */
        if (kind == APP_MOUSE_PRESS)
            front_key(u, ' ');
        return;
    }
    int key = 0;
    if (!u->prompting && !u->scr.lay.too_small && bar_mouse(u, kind, x, y, &key)) {
        if (key) /* a click on the control bar: its item's key */
            front_key(u, key);
        return;
    }
    edit_mouse(u, kind, x, y, mod);
}

/* The mouse's row: its reports go to front_mouse, never through the table. */
static void by_mouse(struct ui *u, int key)
{
    (void)u;
    (void)key;
}

/*
 * The key table: every key the program knows and where it works, in the
 * order the help lists them. `live` is what the key does on a simulation,
 * `replay` what it does in a replay (NULL: the key needs a simulation and a
 * replay says so). A row whose label is NULL shares the help entry above
 * (K next to k); a replay lists `rlabel` and `rhelp` where they are given
 * (an empty rlabel: shares the entry above in a replay), else the row's
 * own. Add a key by adding a row; the help of both is made from it.
 */
static const struct binding {
    int key;
    void (*live)(struct ui *, int key);
    void (*replay)(struct ui *, int key);
    const char *label; /* as the help shows it */
    const char *help;
    const char *rlabel, *rhelp; /* a replay's, where they differ */
} bindings[] = {
    {' ', actions_pause, actions_replay_move, "space", "pause / resume",
     NULL, "play / pause (the last frame: from the first)"},
    {'.', actions_step, actions_replay_move, ".", "one step forward (pauses); event mode: one event",
     ". ,", "one frame forward / back (pauses)"},
    {',', actions_back, actions_replay_move, ",", "one step back (pauses); '.' replays kicks and changes",
     "", NULL},
    {'r', actions_reset, actions_replay_move, "r", "reset the balls, settings kept (',' stops there)",
     NULL, "the first frame"},
    {'k', actions_param, NULL, "k K", "stiffness k down / up (x1.25)", NULL, NULL},
    {'K', actions_param, NULL, NULL, NULL, NULL, NULL},
    {'d', actions_param, NULL, "d D", "time step dt down / up (x1.25)", NULL, NULL},
    {'D', actions_param, NULL, NULL, NULL, NULL, NULL},
    {'-', actions_speed, actions_speed, "- +", "speed down / up (x2)",
     NULL, "speed down / up (x2): frames follow the recorded time"},
    {'+', actions_speed, actions_speed, NULL, NULL, NULL, NULL},
    {'=', actions_speed, actions_speed, NULL, NULL, NULL, NULL},
    {APP_KEY_LEFT, actions_aim, NULL, "arrows", "aim the cue ball: the double arrow (5 degrees a press)", NULL, NULL},
    {APP_KEY_RIGHT, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_UP, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_DOWN, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {'\r', actions_kick, NULL, "enter", "kick: the cue ball leaves along the aim at the kick speed", NULL, NULL},
    {'\n', actions_kick, NULL, NULL, NULL, NULL, NULL},
    {'<', actions_kick_speed, NULL, "< >", "kick speed down / up (x1.25)", NULL, NULL},
    {'>', actions_kick_speed, NULL, NULL, NULL, NULL, NULL},
    {'\t', actions_cue, actions_cue, "tab S-tab", "next / previous ball: the cue ball, selected",
     NULL, "next / previous ball, selected"},
    {APP_KEY_BTAB, actions_cue, actions_cue, NULL, NULL, NULL, NULL},
    {APP_KEY_MOUSE, by_mouse, by_mouse, "click M", "select, aim at; drag a ball, its arrow; wheel; M: off",
     NULL, "select a ball; wheel; M: mouse off"},
    {'a', edit_add, NULL, "a x h w :", "add, remove, pusher, save; ':' a scene line or m r v x del", NULL, NULL},
    {'x', edit_delete, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_DELETE, edit_delete, NULL, NULL, NULL, NULL, NULL},
    {'h', edit_pusher, NULL, NULL, NULL, NULL, NULL},
    {'w', edit_save, actions_replay_save, NULL, NULL, "w", "save this frame as a scene that runs on"},
    {':', edit_prompt, NULL, NULL, NULL, NULL, NULL},
    {'M', actions_mouse, actions_mouse, NULL, NULL, NULL, NULL},
    {'t', actions_trails, actions_trails, "t", "trails on / off", NULL, NULL},
    {'m', actions_engine, NULL, "m", "engine: springs / exact events", NULL, NULL},
    {'g', actions_gravity, NULL, "g", "gravity on / off", NULL, NULL},
    {'R', actions_record, actions_record, "R", "record the states shown to springball-N.xyz, .csv / stop",
     NULL, "record the frames shown to springball-N.xyz, .csv / stop"},
    {KEY_CTRL_L, actions_redraw, actions_redraw, "C-l", "redraw the screen", NULL, NULL},
    {'?', actions_help, actions_help, NULL, NULL, NULL, NULL}, /* the title line says "? help" */
    {'q', actions_quit, actions_quit, "q Esc", "quit", NULL, NULL},
    {27, actions_quit, actions_quit, NULL, NULL, NULL, NULL},
    {'v', actions_lab, actions_lab, "v p f", "velocity / momentum / force arrows on / off",
     "v p c", "velocity / momentum arrows, centre of mass"},
    {'p', actions_lab, actions_lab, NULL, NULL, NULL, NULL},
    {'f', actions_lab, NULL, NULL, NULL, NULL, NULL},
    {'c', actions_lab, actions_lab, "c", "centre of mass (its path with the trails)", "", NULL},
    {'n', actions_lab, actions_lab, "n", "ball numbers", NULL, NULL},
    {'i', actions_lab, actions_lab, "i", "values panel: m x y v p KE, totals, the selected ball's contacts (PgUp, PgDn, wheel scroll; enter, a click: edit)",
     NULL, "values panel of the frame (PgUp, PgDn scroll)"},
    {APP_KEY_PGUP, actions_lab, actions_lab, NULL, NULL, NULL, NULL},
    {APP_KEY_PGDN, actions_lab, actions_lab, NULL, NULL, NULL, NULL},
    {'P', actions_lab, actions_lab, "P", "plot: energy, momentum, speeds, momentum diagram, off", NULL, NULL},
    {']', actions_contact, actions_replay_move, "] [", "step to the next / previous contact event (springs)",
     NULL, "ten frames forward / back"},
    {'[', actions_contact, actions_replay_move, NULL, NULL, NULL, NULL},
    {'e', actions_restitution, NULL, "e E", "restitution down / up 0.1 (both engines); M-e M-E: 0.01", NULL, NULL},
    {'E', actions_restitution, NULL, NULL, NULL, NULL, NULL},
    {'b', actions_border, NULL, "b", "border: spring walls, hard walls, no walls", NULL, NULL},
    {'1', actions_line, NULL, "1", "1-D mode on / off: every ball keeps its row (vy 0, contacts along x)", NULL, NULL},
    {'V', actions_reverse, NULL, "V", "reverse time: every velocity turned around, the run retraces its path", NULL, NULL},
    {'s', actions_lab, NULL, "s", "split: the spring and the event engine side by side, time-locked", NULL, NULL},
    {'l', tutor_keys, NULL, "l L A F5", "lesson: next, back, answer, the step again", NULL, NULL},
    {APP_KEY_F5, tutor_keys, NULL, NULL, NULL, NULL, NULL},
    {'L', tutor_keys, NULL, NULL, NULL, NULL, NULL},
    {'A', tutor_keys, NULL, NULL, NULL, NULL, NULL},
    {'C', actions_lab, actions_lab, "C", "control bar: the toggles a class uses most, clickable",
     NULL, NULL},
    {APP_KEY_ALT | 'e', bar_elastic_key, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_ALT | 'E', bar_elastic_key, NULL, NULL, NULL, NULL, NULL},
    {'z', zoom_key, zoom_key, "z Z 0 F", "zoom in / out, the whole table; F: follow the selected ball",
     NULL, "zoom in x2 on the selected ball / out / whole table; F: follow it on / off"},
    {'Z', zoom_key, zoom_key, NULL, NULL, NULL, NULL},
    {'0', zoom_key, zoom_key, NULL, NULL, NULL, NULL},
    {'F', zoom_key, zoom_key, NULL, NULL, NULL, NULL},
    {APP_KEY_RESIZE, resize, resize, NULL, NULL, NULL, NULL},
    /* no key: the replay's help line for the keys it refuses */
    {0, NULL, NULL, NULL, NULL, "k d e b g m s f", "a: x h : enter arrows: " ACTIONS_REPLAY_NO_SIM},
};

#define NBINDINGS (sizeof bindings / sizeof *bindings)

/*
 * A run going on elsewhere (SESSION_CAP_REMOTE): these rows first, then a
 * replay's (what looks works as in a replay; what needs a simulation
 * says so). A row without a label is listed with the one above.
 */
static const struct binding remote_bindings[] = {
    {' ', remote_key, NULL, "space", "pause / resume the run itself (IMD PAUSE)", NULL, NULL},
    {'.', remote_key, NULL, ".", "paused: one frame through (resume, pause again at the next)", NULL, NULL},
    {'-', remote_key, NULL, "- +", "fewer / more frames: the run's trate x2 / /2 (IMD TRATE)", NULL, NULL},
    {'+', remote_key, NULL, NULL, NULL, NULL, NULL},
    {'=', remote_key, NULL, NULL, NULL, NULL, NULL},
    {'\r', remote_key, NULL, "enter", "push the cue ball along the aim toward the kick speed (a force pulse, IMD MDCOMM)", NULL, NULL},
    {'\n', remote_key, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_LEFT, actions_aim, NULL, "arrows < >", "aim the push; its speed down / up", NULL, NULL},
    {APP_KEY_RIGHT, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_UP, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_DOWN, actions_aim, NULL, NULL, NULL, NULL, NULL},
    {'<', actions_kick_speed, NULL, NULL, NULL, NULL, NULL},
    {'>', actions_kick_speed, NULL, NULL, NULL, NULL, NULL},
    {APP_KEY_MOUSE, by_mouse, NULL, "click", "select a ball; drag from a ball: push it by the velocity drawn", NULL, NULL},
    {'r', remote_key, NULL, "r", "reconnect after the link dropped", NULL, NULL},
    {':', edit_prompt, NULL, ":", "':kill' ends the run itself (asks once)", NULL, NULL},
    {'q', actions_quit, NULL, "q Esc", "quit: disconnect, the run goes on", NULL, NULL},
    {27, actions_quit, NULL, NULL, NULL, NULL, NULL},
    {'w', edit_save, NULL, "w", "save this frame as a scene that runs on", NULL, NULL},
    {',', remote_key, NULL, NULL, NULL, NULL, NULL},
    {']', remote_key, NULL, NULL, NULL, NULL, NULL},
    {'[', remote_key, NULL, NULL, NULL, NULL, NULL},
};

#define NREMOTE (sizeof remote_bindings / sizeof *remote_bindings)

/* The live run's row of @p key, or NULL. */
static const struct binding *remote_of(int key)
{
    for (size_t i = 0; i < NREMOTE; i++)
        if (remote_bindings[i].key == key)
            return &remote_bindings[i];
    return NULL;
}

struct screen_help front_helps[NBINDINGS + NREMOTE + 32];
size_t front_nhelp;

/* The row of @p key, or NULL. */
static const struct binding *binding_of(int key)
{
    for (size_t i = 0; i < NBINDINGS; i++)
        if (bindings[i].key == key && key != 0)
            return &bindings[i];
    return NULL;
}

static void replay_key(struct ui *u, int key)
{
    const struct binding *b = binding_of(key);
    if (b && b->replay)
        b->replay(u, key);
    else if (b && b->live) /* a key of the live program that needs a simulation */
        actions_replay_refuse(u, key);
}

void front_help(int mode)
{
    front_nhelp = 0;
    int replay = mode != FRONT_HELP_LIVE;
    if (mode == FRONT_HELP_REMOTE)
        for (size_t i = 0; i < NREMOTE; i++)
            if (remote_bindings[i].label)
                front_helps[front_nhelp++] =
                    (struct screen_help){remote_bindings[i].label, remote_bindings[i].help};
    for (size_t i = 0; i < NBINDINGS; i++) {
        const struct binding *b = &bindings[i];
        const char *label = b->label, *text = b->help;
        if (mode == FRONT_HELP_REMOTE && b->key != 0 && remote_of(b->key))
            continue; /* listed above */
        if (mode == FRONT_HELP_REMOTE && b->key == 0) {
            front_helps[front_nhelp++] = (struct screen_help){b->rlabel, ACTIONS_REMOTE_NO_SIM};
            continue;
        }
        if (replay) {
            if (b->rlabel && !*b->rlabel)
                continue; /* listed with the row above */
            if (b->rlabel)
                label = b->rlabel;
            if (b->rhelp)
                text = b->rhelp;
            if (!b->replay && b->key != 0)
                continue;
        } else if (!b->live) {
            continue;
        }
        if (label && text)
            front_helps[front_nhelp++] = (struct screen_help){label, text};
    }
}

void front_key(struct ui *u, int key)
{
    if (u->prompting && key != APP_KEY_RESIZE && key != APP_KEY_MOUSE) {
        edit_prompt_key(u, key);
        if (u->goto_step) { /* ':step N' */
            size_t to = u->goto_step - 1;
            u->goto_step = 0;
            tutor_goto(u, to, front_play_now);
        }
        return;
    }
    if (tutor_presenter(u, key, front_play_now)) /* in a lesson: Esc q asks, F5, b */
        return;
    if (key != APP_KEY_MOUSE && u->drag == DRAG_NONE)
        session_gesture(&u->ss, 0);
    if (u->f.help && key != APP_KEY_RESIZE && key != APP_KEY_MOUSE) {
        /* The help is open: space turns the page, any other key closes. */
        if (key == ' ' && u->f.help < u->scr.help_pages) {
            u->f.help++;
        } else {
            u->f.help = 0;
            app_resume_clock(u);
        }
        return;
    }
    if (session_caps(&u->ss) & SESSION_CAP_REMOTE) {
        const struct binding *r = remote_of(key);
        if (u->kill_armed) /* ':kill' asked: this key answers */
            remote_key(u, key);
        else if (r)
            r->live(u, key);
        else
            replay_key(u, key);
        return;
    }
    if (u->tr) {
        replay_key(u, key);
        return;
    }
    if (tutor_key(u, key, front_play_now)) /* PgDn PgUp l L A, in a lesson */
        return;
    const struct binding *b = binding_of(key);
    if (b && b->live)
        b->live(u, key);
    /* Unknown keys do nothing. */
}
