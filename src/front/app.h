/*
 * app.h - the terminal front end's state (struct ui) and what every part
 * of the controller shares: notes and the wording of the session's codes,
 * the selection, the clock of a run, set-up and the per-frame
 * bookkeeping. No curses: the terminal is term.c's; the keys are
 * actions.c's (the run) and edit.c's (the mouse, the table's contents,
 * ':' and w); the key table is front_keys.c's, the script player front.c's.
 */
#ifndef APP_H
#define APP_H

#include "ansi.h"
#include "app_keys.h"
#include "app_options.h"
#include "cast.h"
#include "command.h"
#include "labscreen.h"
#include "lesson_panel.h"
#include "recording.h"
#include "screen.h"
#include "session.h"
#include "shown.h"
#include "sim.h"

#include <stddef.h>

struct scene;
struct script_item;
struct traj;

/// What the held mouse button does.
enum drag { DRAG_NONE, DRAG_EMPTY, DRAG_BALL, DRAG_VELOCITY, DRAG_PUSHER, DRAG_PUSH, DRAG_ELASTIC };

/// The front end's state.
struct ui {
    const struct scene *sc;
    struct ui_options o;
    struct session ss;
    struct shown sh;       ///< what is drawn of ss (shown.h): the screen reads only this
    double obs_next;       ///< live, running: the wall time the sums are observed again
    struct screen scr;
    struct front f;
    struct lab_front lab;  ///< the classroom lab: panels, vectors, split view
    int live;              ///< 1: a terminal; 0: --snapshot
    int cols, rows;        ///< the screen's size: the terminal's, or --snapshot's
    int ncolors;           ///< 0, 8, 16 or 256
    int quit;
    double wall;           ///< the clock: app_now() live, the script's in a snapshot
    double target;         ///< simulated time the run aims at
    double note_until;     ///< wall time the note goes
    double speed0;         ///< the initial speed: what - and + are bounded by
    int redraw;            ///< Ctrl-L, a new layout: write every cell again
    /* live edits */
    struct command_line cl;///< the ':' line and its history
    int prompting;         ///< the ':' line is open
    char title_buf[128];   ///< a title given by ':title'
    int drag;              ///< enum drag: what the held button does
    double grab_dx, grab_dy; ///< the ball's centre from the pointer
    double ptr_x, ptr_y;   ///< the pointer's last world point
    double add_x, add_y;   ///< the last click's: where 'a' adds
    int have_ptr;          ///< a click has been made
    unsigned added;        ///< balls added by 'a': their colours go round
    int saves;             ///< files written by w
    double arrow_t0;       ///< the velocity arrow's time without the lab's arrows
    /* the script */
    struct script_item *items;
    int nitems, next_item;
    double due;            ///< wall time the current wait ends (live, paused)
    int save_next;         ///< the number w tries first
    long snap_calls;       ///< --snapshot: chunks of work the wait has left
    int wait_sim;          ///< a wait runs until the simulated time wait_end
    double wait_end;
    /* fps */
    int frames;
    double fps_since, last_frame;
    struct recording rec;  ///< R: the states shown, to files (recording.h)
    char said[160];        ///< a session note in words (app_said)
    int pause_armed;       ///< -T: the pause at o.pause_at is still to come
    double run_stop;       ///< the advance's -T stop (app_run_begin), or INFINITY
    /* replay (issue 30): a recorded run played back, nothing simulated */
    struct traj *tr;       ///< the run, or NULL
    struct sim fsim;       ///< the frame read, then shown
    double *fz;            ///< its z and vz (2 n), a 3-D run's, or NULL
    /* a live run (remote.h) */
    int kill_armed;        ///< ':kill' asked: the next key answers
    unsigned long long live_frames; ///< frames seen
    unsigned long long live_step;   ///< the frame the last '.' resumed the run for (0: none)
    double live_seen;      ///< the wall time the last frame was seen
    struct lesson_view lesson; ///< a lesson (tutor.h): its step, its answer
    int step_key;          ///< the key handled is one of a lesson step's own keys
                           ///< (played from the lesson, not pressed)
    int asking;            ///< a lesson: "quit?" is asked, the next key answers
    size_t goto_step;      ///< ':step N' asked for step N (1-based); 0: none
    /* --cast (issue 45): the frames shown, as an asciicast */
    int casting;           ///< 1: a cast is open (front.c's cast_*)
    int cast_snap;         ///< 1: --snapshot's cast, its frames drawn by the script's player
    int cast_headed;       ///< the header is written
    int cast_said;         ///< live: its stop is noted
    double cast_t0;        ///< the wall time (u->wall) of the cast's 0
    struct cast cast;
    struct ansi ansi;      ///< the terminal's bytes of the frames
};

/// A snapshot's wait does at most 10^6 steps or events in all, however
/// many frames it draws (trails, a plot): a wait too long for that ends
/// behind, the same way on every run.
#define APP_SNAP_CALLS(u) ((session_caps(&(u)->ss) & SESSION_CAP_EXACT) ? 1000 : 125000)

/// The monotonic clock, in seconds.
double app_now(void);

/// A note on the status line for a while, at @p level (enum screen_level).
void app_note_level(struct ui *u, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/// A note at SCREEN_INFO.
#define app_note(u, ...) app_note_level(u, SCREEN_INFO, __VA_ARGS__)

/// What the session said, or NULL: its own text, or its note (enum
/// session_note) in words that name the keys that answer it.
const char *app_said(struct ui *u);

/// Shows what the session said, when it said something, at @p level.
void app_say(struct ui *u, int level);

/// Why the event engine was refused, without the engine's own prefix.
const char *app_no_event_reason(struct ui *u);

/// The run's clock starts again from the session's time (after a pause).
void app_resume_clock(struct ui *u);

/// Open space has no cue ball: 1 (and a note) there, else 0.
int app_no_cue(struct ui *u);

/// The scene ball of the pusher, or (size_t)-1.
size_t app_pusher_ball(const struct ui *u);

/// The selection stays a ball after edits, ',' and '.'; the velocity
/// arrow's scale and whether it shows.
void app_fix_cue(struct ui *u);

/// After an edit whose session call returned @p rc: the session's note (an
/// overlap) or ours (@p fmt, may be NULL); a refusal warns.
/// @return 0, or -1 when the edit was refused.
int app_edited(struct ui *u, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/// 1 when there is a ball to edit, else 0 and a note that there is none.
int app_have_ball(struct ui *u);

/// Selects @p ball in the lab (marked, its row and contacts shown).
void app_select(struct ui *u, size_t ball);

/// What is shown of the session now: taken (the session idle) and
/// observed. A copy made again only when the state changed.
const struct shown *app_shown(struct ui *u);

/// Lays the screen out again in u->cols x u->rows (a panel shown or
/// hidden, the split view, a new size).
void app_relayout(struct ui *u);

/// Replay: shows frame @p k. @return 0, or -1 with a note.
int app_replay_show(struct ui *u, size_t k);

/// Advances the run toward u->target; @p live bounds it by most of a
/// frame of wall time, else by u->snap_calls.
void app_run_to_target(struct ui *u, int live);

/// app_run_to_target in halves, for an advance run elsewhere (worker.h):
/// begin bounds u->target (-T); then session_advance toward u->target;
/// end takes its result @p rc (behind, the -T pause, a stop, the note);
/// @p live as app_run_to_target's. Not for a replay.
void app_run_begin(struct ui *u);
void app_run_end(struct ui *u, int rc, int live);

/// Sets up @p u for @p sc (named @p name) with the glyphs and colours
/// given. @return 0, -1 when memory is short, -2 after a bad key script
/// (the message printed).
int app_init(struct ui *u, const struct scene *sc, const char *name,
             const struct ui_options *o, int glyphs, int color);

void app_free(struct ui *u);

/// The per-frame bookkeeping: the note expires, the split view follows, a
/// recording writes the state shown when it changed.
void app_frame(struct ui *u);

#endif
