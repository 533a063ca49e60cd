/*
 * session_impl.h - the session's insides, shared by its files and by no
 * other module. The session by concept:
 *
 *     session.c           the interface: engines, forward, back, advance,
 *                         reset, the run's settings (k, dt, e, gravity,
 *                         the border, 1-D)
 *     session_timeline.c  undo and redo: the spring engine's actions over
 *                         its checkpoints, the event engine's ring of
 *                         states; applying an action keeping what is
 *                         observed
 *     session_edit.c      live edits: checks, the edit funnel, gestures and
 *                         groups, the balls' tags, the scene reset returns to
 *     session_diag.c      observers: the observed state, the diagnostics,
 *                         the envelope of samples for the plots
 */
#ifndef SESSION_IMPL_H
#define SESSION_IMPL_H

#include "session.h"

/* One engine behind the session (session_engines.c): what differs between
 * the springs, the exact events and a replay, as a table of operations.
 * session.c calls it; nothing outside the session folder sees it (the
 * front end asks session_caps). A new engine is one more table and a row
 * of `engines` in session.c. */
struct ss_engine {
    const char *name; /* as the title line shows it */
    unsigned caps;    /* enum session_cap */
    /* one move forward (1 moved, 0 nothing to do, -1 refused: ss->msg) */
    int (*forward)(struct session *ss);
    /* one move back (0, or -1: ss->msg) and how many moves back there are */
    int (*back)(struct session *ss);
    long long (*depth)(const struct session *ss);
    /* toward time t (finite, the state finite): session_advance's contract */
    int (*advance)(struct session *ss, double t, int (*more)(void *), void *arg);
    /* 1 when an advance toward t has nothing more to do (session_reached) */
    int (*reached)(const struct session *ss, double t);
    /* a new timeline from ss->s after a reset */
    int (*restart)(struct session *ss);
    /* a run's setting (SESSION_SET_K, _SET_DT, _GRAVITY, _SET_E, _BORDER,
     * _LINE in a.kind, bounded and checked): taken as the engine can */
    int (*set)(struct session *ss, struct session_action a);
    /* the observed state (session_observed) and its diagnostics, e_ref aside */
    const struct sim *(*observed)(struct session *ss);
    void (*diag)(struct session *ss, struct session_diag *d);
    /* the energy reference of the diagnostics */
    double (*eref)(const struct session *ss);
};
extern const struct ss_engine ss_spring, ss_event, ss_replay, ss_live;

/* session_live.c: the live engine's link closed (DISCONNECT when up), its state freed. */
void ss_live_free(struct session *ss);

/* session_depth.c: @p frame (nall balls, scene order; may be &ss->s when
 * there is no slice) with its depth @p z, @p vz (NULL: 2-D) as the state:
 * the slice's balls kept. @return 0, or -1 (ss->msg). */
int ss_depth_take(struct session *ss, const struct sim *frame, const double *z,
                  const double *vz);
/* session_depth.c: its arrays freed. */
void ss_depth_free(struct session *ss);

/* The engine running (session.c). */
const struct ss_engine *ss_engine(const struct session *ss);

/* Nothing said yet (each call that may say something starts so). */
static inline void ss_hush(struct session *ss)
{
    ss->msg = NULL;
    ss->note = SESSION_NOTE_NONE;
}

/* Says note @p note (enum session_note), which the front end words; the
 * caller sets the note's balls or what. */
static inline void ss_say(struct session *ss, int note)
{
    ss->msg = NULL;
    ss->note = note;
}

/* The state changed: what is derived from it (observed, diagnostics) is
 * made again when asked. */
static inline void ss_touch(struct session *ss)
{
    ss->version++;
}

/* The energy of the current state (springs: synchronised velocities). */
static inline double ss_energy(struct session *ss)
{
    return session_diag(ss)->e;
}

/* session.c */
/* @p v bounded to SESSION_PARAM_RANGE of @p ref, finite and > 0. */
double ss_bounded(double v, double ref);

/* session_timeline.c: the spring engine's timeline */
int ss_spring_timeline(struct session *ss);
void ss_cut_future(struct session *ss);
double ss_spring_eref(const struct session *ss);
int ss_apply(struct session *ss, const struct session_action *a);
int ss_apply_adds(struct session *ss, const struct session_action *a, size_t n);
int ss_spring_action(struct session *ss, struct session_action a);
size_t ss_first_act(const struct session *ss, long long pos);
int ss_spring_forward(struct session *ss);
/* ... and the event engine's */
struct session_snap *ss_snap_at(struct session *ss, size_t i);
int ss_ev_build(struct session *ss);
int ss_ev_stopped(struct session *ss);
int ss_snap_keep(struct session *ss);
int ss_snap_restore(struct session *ss, size_t i);
void ss_ev_moved(struct session *ss);
int ss_event_timeline(struct session *ss);
int ss_event_forward(struct session *ss);

/* session_edit.c */
int ss_tag_room(uint32_t **a, size_t *cap, size_t n);
int ss_tags_mark(struct session *ss);
void ss_tags_sync(struct session *ss);
int ss_apply_edit(struct session *ss, const struct session_action *a);
void ss_start_follow(struct session *ss);

/* session_diag.c */
void ss_col_clear(struct session *ss);
void ss_rewind_samples(struct session *ss);
void ss_sample_now(struct session *ss);
void ss_sample_event(struct session *ss);
int ss_sampled(const struct session *ss);
void ss_pm_forget(struct session *ss);
/// The observed state now into the momentum diagram's memory (forgotten
/// above SESSION_PMEM_MAX balls): a replay's frame shown.
void ss_pm_sample(struct session *ss);

#endif
