/*
 * app_options.h - the options of the terminal front end (see springball(1)),
 * as main.c fills them from the command line.
 */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

/// The longest --save-to name (w adds "-N" before its extension).
#include <stddef.h>

#define SAVE_TO_MAX 4000

struct lesson;
struct link;
struct traj;

/// Options of the terminal front end (see springball(1)).
struct ui_options {
    double fps;         ///< frame rate cap, > 0, default 30
    double speed;       ///< initial speed: simulated time per wall second, > 0;
                        ///< 0 (default): by the scene (20 for native scenes)
    double duration;    ///< wall seconds until it quits by itself; 0: never
    int ascii;          ///< 1: ASCII glyphs even in a UTF-8 locale
    int no_color;       ///< 1: no colour (NO_COLOR in the environment also)
    double cell_aspect; ///< cell height / cell width, > 0, default 2
    int engine;         ///< 0: spring engine (default), 1: event engine
    int mouse;          ///< 1 (default): mouse reporting on
    const char *keys;   ///< a key script (--keys), or NULL
    int snap_cols, snap_rows; ///< the --snapshot size, default 80 x 24
    const char *save_to; ///< where w saves (--save-to), or NULL: springball-N.scene
    struct traj *replay; ///< a recorded run (traj.h) to play back instead of
                         ///< simulating the scene (its first frame), or NULL
                         ///< (at most SAVE_TO_MAX bytes)
    struct link *live;  ///< a run going on elsewhere (link.h), its frames shown as
                        ///< they come (session_live), or NULL; the front end
                        ///< owns it (closed on every path)
    long long live_trate; ///< its steps a frame (1 when unknown)
    unsigned long long live_first; ///< its frames the scene was made from (0: none)
    int paused;         ///< 1: start paused (--paused; an empty table always does)
    double pause_at;    ///< -T: the run pauses once on reaching this time (the
                        ///< springs' step by sim_steps_until); < 0: never
    const struct lesson *lesson; ///< a lesson to run (tutor.h), or NULL
    size_t step;        ///< --step: the lesson opens at this step (1-based); 0: the first
    const char *cast;   ///< --cast: the asciicast to write the frames to, or NULL
    double history_mb;  ///< --history: megabytes the timeline may take (',');
                        ///< 0: SESSION_BUDGET
    int no_thread;      ///< 1 (--no-thread): the terminal steps and draws in one
                        ///< thread; 0 (default): the run steps on a second one
    int slice;          ///< --slice: a 3-D run's layer slice_z0 <= z <= slice_z1 alone
    double slice_z0, slice_z1;
    int threads;        ///< --threads: the threads a spring step may split over
                        ///< (split.h), 1 .. SPLIT_MAX; 0 (default): the
                        ///< processors this process may use (split_cpus)
};

/// The defaults above.
void ui_default_options(struct ui_options *o);

#endif
