/*
 * labscreen.h - the classroom lab on the screen: its state in the front
 * end, its two panels (values, plot) as screen panels, the table overlay
 * (arrows, numbers, the selected ball's ring, the centre of mass), the
 * split view's second table, and the lab's part of the status line.
 *
 * Pure C11 and libm, no curses: it draws into the screen's cells (screen.h)
 * from the session and the lab's numbers (lab.h, panel.h). The terminal
 * front end owns one struct lab_front, changes it with keys, and hands it
 * to the screen through struct front.
 */
#ifndef LABSCREEN_H
#define LABSCREEN_H

#include "panel.h"
#include "screen.h"
#include "twin.h"

struct session;

/// The lab's state in the front end.
struct lab_front {
    struct panel_state ps;      ///< what is shown (keys change it)
    struct screen_panel values; ///< the values panel (want_h follows the scene)
    struct screen_panel plot;   ///< the plot panel
    int values_idx, plot_idx;   ///< their indices in the screen, -1 when not added
    double *fx, *fy;            ///< net forces in scene order (force arrows)
    size_t nf;                  ///< their length
    unsigned long f_version;    ///< of the state they were computed for
    struct twin tw;             ///< the split view's engines
    int twin_on;                ///< tw is valid
    double tw_actions;          ///< a checksum of the session's actions when tw started
};

/// Starts the lab's state for a session and adds its panels to @p scr
/// (hidden until i or P). @return 0, or -1 (memory).
int labscreen_init(struct lab_front *lf, struct screen *scr);

/// Frees it. Safe on a zeroed struct.
void labscreen_free(struct lab_front *lf);

/// Shows and hides the panels as lf->ps says, with the heights they want
/// for @p ss (call before screen_layout).
void labscreen_panels(struct lab_front *lf, struct screen *scr, const struct session *ss);

/// The colour and attributes of a panel colour tag (enum panel_color) or
/// a ball colour, as the screen draws them.
void labscreen_color(uint32_t tag, uint32_t *fg, int *attr);

/// Copies grid @p p to the screen at (x, y), mapping colours; ASCII
/// look-alikes when @p glyphs is VIEW_ASCII.
void labscreen_blit(struct screen *scr, int x, int y, struct plot *p, int glyphs);

/// Draws the overlay of @p s over the table drawn from view @p v at
/// @p table (braille dots merged with the balls'). @p fx, @p fy the net
/// forces (scene order) or NULL.
void labscreen_overlay(struct screen *scr, const struct view *v, struct screen_rect table,
                       const struct sim *s, struct lab_front *lf, const double *fx,
                       const double *fy, int glyphs);

/// The net forces of the session's state, cached per state (NULL when
/// memory is short).
int labscreen_forces(struct lab_front *lf, struct session *ss, const double **fx,
                     const double **fy);

/// Starts or stops the split view: both engines from the session's state
/// now (springs only). @return 0, or -1 with a reason in *why.
int labscreen_split(struct lab_front *lf, struct session *ss, int on, const char **why);

/// Keeps the split view's event engine at the session's time (rebuilding
/// it when the session went back before its start). @p max_events bounds
/// the work (<= 0: none). @return 1 locked, 0 not yet, -1 failed.
int labscreen_sync_twin(struct lab_front *lf, struct session *ss, long long max_events);

#endif
