/*
 * labscreen.h - the classroom lab on the screen: its state in the front
 * end, its panels (panel.h) added to the screen, and the split view's
 * engines started, stopped and kept at the session's time.
 *
 * Pure C11 and libm, no curses. The terminal front end owns one struct
 * lab_front and changes it with keys (panel_key); the screen reaches the
 * panels through their classes alone.
 */
#ifndef LABSCREEN_H
#define LABSCREEN_H

#include "panel.h"
#include "screen.h"
#include "twin.h"

struct session;

/// The lab's state in the front end.
struct lab_front {
    struct panel_state ps; ///< what is shown (keys change it), forces, the split view
    /* the split view's engines: the panel is lent tw.hard while on */
    struct twin tw;        ///< both engines, time-locked
    int twin_on;           ///< tw is valid
    double tw_actions;     ///< a checksum of the session's actions when tw started
};

/// Starts the lab's state and adds its panels (panel_table) to @p scr,
/// all hidden until their keys show them. @return 0, or -1 (full).
int labscreen_init(struct lab_front *lf, struct screen *scr);

/// Frees it. Safe on a zeroed struct.
void labscreen_free(struct lab_front *lf);

/// Starts or stops the split view: both engines from the session's state
/// now (springs only). @return 0, or -1 with a reason in *why.
int labscreen_split(struct lab_front *lf, struct session *ss, int on, const char **why);

/// Keeps the split view's event engine at the session's time (rebuilding
/// it when the session went back before its start). @p max_events bounds
/// the work (<= 0: none). @return 1 locked, 0 not yet, -1 failed.
int labscreen_sync_twin(struct lab_front *lf, struct session *ss, long long max_events);

#endif
