/*
 * shown.h - what the drawing reads of the session: a copy of the state
 * (struct shown), taken between advances, with what the title, the status
 * line, the table and the panels show of it: the observed state and the
 * diagnostics (made from the copy, as session_observed and session_diag
 * make them from the session: the same bits), the engine, the balls' tags,
 * the depth of the undo, the contact resolution, the plots' samples and
 * the momentum diagram's memory.
 *
 * The screen (screen.h) and its panels take a const struct shown and
 * never the session, so that the terminal may step the session on a
 * thread of its own while a frame is drawn from the copy (front.c):
 *
 *     shown_take(&sh, &ss);   // the session idle: the copy
 *     ... the session steps meanwhile, elsewhere ...
 *     shown_observe(&sh);     // the observers' work, on the copy
 *     screen_draw(&scr, &sh, &f, help, nhelp);
 *
 * Pure C11 and libm: no threads here, no curses, no I/O.
 */
#ifndef SHOWN_H
#define SHOWN_H

#include "session.h"
#include "sim.h"

#include <stddef.h>
#include <stdint.h>

struct shown {
    struct sim s;              ///< the session's state (ss->s) as taken
    const struct sim *obs;     ///< the observed state: &s or &o (see shown_observe)
    struct sim o;              ///< the observation's own copy (springs)
    struct session_diag d;     ///< the diagnostics (see shown_observe)
    double e_ref;              ///< the session's energy reference, as taken
    int engine;                ///< enum session_engine (to see a switch; draw reads caps)
    unsigned caps;             ///< what the engine can do (enum session_cap)
    const char *engine_name;   ///< the engine's name (session_engine_name)
    int nonfinite;             ///< the state is not finite
    unsigned long version;     ///< the session's version of the state taken
    long long pos;             ///< its position on the timeline
    long long depth;           ///< session_depth
    double contact_steps;      ///< session_contact_steps
    uint32_t *tag;             ///< the tag of each scene ball (s.n)
    size_t captag;
    struct session_pmem pm;    ///< the momentum diagram's memory (ss->pm)
    struct session_col col[SESSION_COLS]; ///< the plots' samples, oldest first
    size_t ncol;
    struct session_depth dp;   ///< a 3-D run's depth and slice (its own arrays, s.n
                               ///< of each; z, vz when dp.on, atom when dp.slice)
    int have;                  ///< a state was taken
    int observed;              ///< obs and d are made for the state taken
    int diag_taken;            ///< d came from the session (event engine)
};

/// Takes what is shown of @p ss into @p sh (zeroed, or an earlier take):
/// the state is copied again only when it changed (its version, engine,
/// position). The session must be idle (no advance running elsewhere).
/// The event engine's diagnostics are the session's own, taken now.
/// @return 0, or -1 when memory is short (sh keeps the last state it took).
int shown_take(struct shown *sh, struct session *ss);

/// Makes the observed state and the diagnostics of the state taken, when
/// not made yet: what session_observed and session_diag give on the
/// session it was taken from, to the bit. The session is not read.
/// Until it is called after a take, obs and d are still those of the
/// state observed before (d.t and d.steps say which): a caller may draw
/// them so, for what reads the sums alone and no ball by its slot.
void shown_observe(struct shown *sh);

/// Frees everything. Safe on a zeroed struct.
void shown_free(struct shown *sh);

/// The slot of scene ball @p ball in sh->s, or sh->s.n (session_slot).
size_t shown_slot(const struct shown *sh, size_t ball);

/// The tag of scene ball @p ball, or UINT32_MAX (session_tag).
uint32_t shown_tag(const struct shown *sh, size_t ball);

#endif
