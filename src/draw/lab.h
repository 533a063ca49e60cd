/*
 * lab.h - the classroom lab's numbers: what the panels of the terminal front
 * end show about a state, computed from a struct sim alone.
 *
 * Pure C11 and libm: no I/O, no globals, no curses. Every function reads a
 * state (the spring engine's, or the event engine's written back with
 * event_to_sim) and reaches balls in scene order through sim_slot, so that a
 * ball keeps its number while the spring engine reorders its slots.
 *
 *  values      one row per ball: m, x, y, vx, vy, px = m vx, py = m vy,
 *              KE = m |v|^2 / 2; totals: sum px, sum py, sum KE (added in
 *              scene order, so the total row is the sum of the rows shown),
 *              the spring PE and the energy from sim_diag, the centre of
 *              mass X = sum m x / M and its velocity sum p / M.
 *  contacts    one ball's contacts: the partner (a ball or a wall), the
 *              overlap s, the spring force k s, the dashpot force -c vn
 *              with restitution, and the force vector they put on the
 *              ball, by the very expressions of sim.c and contact.c, so that
 *              the wall terms and the contacts in ascending slot order add up
 *              to sim_forces' force to the bit (tested).
 *  forces      the net force on every ball: sim_forces run on a copy.
 *  scales      an arrow scale per kind (v, p, F): a 1-2-5 value per cell
 *              width chosen so that the largest arrow fits, and kept while
 *              it still fits, so that lengths compare between steps.
 *  speeds      a histogram of ball speeds against the 2-D Maxwell-Boltzmann
 *              (Rayleigh) law P(v) = (v/a^2) exp(-v^2 / 2a^2), a^2 = <v^2>/2
 *              from the gas itself; the expected count of a bin is exact,
 *              N (exp(-lo^2/2a^2) - exp(-hi^2/2a^2)).
 *  events      the set of touching pairs (ball-ball and ball-spring wall),
 *              and a search that steps until that set changes: the spring
 *              engine's contact events for the ] and [ keys.
 */
#ifndef LAB_H
#define LAB_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/* ===== Values ===== */

/// One ball's values, the row of the values panel.
struct lab_row {
    size_t ball;     ///< scene index (0-based; the panel shows ball + 1)
    double m, r;     ///< mass and radius
    double x, y;     ///< centre
    double vx, vy;   ///< velocity
    double px, py;   ///< momentum m v
    double ke;       ///< kinetic energy m |v|^2 / 2
    double speed;    ///< |v|
    double z, vz;    ///< a 3-D run's depth and its velocity (the caller's; 0)
};

/// Fills @p row with the values of scene ball @p ball (< s->n).
void lab_row(const struct sim *s, size_t ball, struct lab_row *row);

/// The totals row and the centre of mass.
struct lab_totals {
    size_t n;          ///< balls
    double m;          ///< total mass M
    double px, py;     ///< total momentum, rows added in scene order
    double apx, apy;   ///< sums of |px| and |py|: the scale of their rounding
    double ke;         ///< total kinetic energy, rows added in scene order
    double pe;         ///< spring (and contact law) potential, from sim_diag
    double pg;         ///< gravitational potential, from sim_diag
    double e;          ///< ke + pe + pg
    double dissipated; ///< energy taken out so far (restitution < 1)
    long contacts;     ///< touching ball-ball pairs, from sim_diag
    double cx, cy;     ///< centre of mass sum m x / M (NaN when M = 0)
    double cvx, cvy;   ///< its velocity (sum p) / M (NaN when M = 0)
};

/// Fills @p t from the state (calls sim_diag for the potentials).
void lab_totals(const struct sim *s, struct lab_totals *t);

/// Fills what of @p t the balls' own rows give (n, m, px, py, apx, apy,
/// ke, cx, cy, cvx, cvy; e = ke, the potentials and contacts 0), to the
/// bit as lab_totals does, without sim_diag's pass over the pairs: for a
/// drawing that needs only the centre of mass or the kinetic energy.
void lab_sums(const struct sim *s, struct lab_totals *t);

/// Columns of the values table, in the order.
enum lab_col {
    LAB_COL_BALL, LAB_COL_M, LAB_COL_X, LAB_COL_Y, LAB_COL_VX, LAB_COL_VY,
    LAB_COL_PX, LAB_COL_PY, LAB_COL_KE, LAB_COL_Z, LAB_COL_VZ, LAB_NCOL
};

/// The columns in the order a line shows them (z after y, vz after vy).
extern const int lab_col_order[LAB_NCOL];

/// The layout of the values table at a given width.
struct lab_layout {
    int show[LAB_NCOL]; ///< 1 when the column is shown
    int width;          ///< characters of a number column after its blank (the ball
                        ///< column is 4); a number takes width - 1 at most
                        ///< (4 at least), so numbers stand two blanks apart
    int total;          ///< characters of a whole line
    double zero[LAB_NCOL]; ///< a value of that column at or under this magnitude is
                        ///< shown as 0: rounding noise (lab_layout_noise); 0: none
};

/// The rounding noise of each column of @p s's rows into lay->zero: a
/// velocity or momentum component within 1e-12 of the largest such
/// magnitude of any ball, a KE within 1e-24 of the largest KE (the
/// square of the same), shows as 0 (vy 2.21e-26 after a head-on that
/// leaves it 0, KE 2.2e-26 of a ball at rest up to rounding).
void lab_layout_noise(struct lab_layout *lay, const struct sim *s);

/// @p total, or 0 when it lies within the rounding of a sum of @p n terms
/// whose magnitudes add up to @p abs_sum, or of a run's steps, each exact
/// but for its rounding (|total| <= max(4 n eps, 1e-10) abs_sum: the
/// break's Σp read (-3.411e-13, 0) after a while, Σ|p| 20).
double lab_round_total(double total, double abs_sum, size_t n);

/// Picks the columns that fit in @p width characters: all of them when
/// they fit at the widest number width (9), else narrower numbers (down to
/// 7), then dropping x and y, then px and py; # m vx vy KE always stay
/// (they need 4 + 4 * 8 = 36 characters at width 7, fewer at width 5).
void lab_layout(struct lab_layout *lay, int width);

/// lab_layout with z and vz too when @p depth (a 3-D run): they stay as
/// long as vx and vy do.
void lab_layout_depth(struct lab_layout *lay, int width, int depth);

/// The header line ("   #       m       x ... KE") of layout @p lay into
/// @p buf (at least lay->total + 1 bytes). @return buf.
char *lab_header(char *buf, size_t cap, const struct lab_layout *lay);

/// The line of @p row in layout @p lay. @return buf.
char *lab_row_line(char *buf, size_t cap, const struct lab_layout *lay,
                   const struct lab_row *row);

/// The totals line of @p t: "sum" in the ball column (ASCII, one cell a
/// character), blanks under m, x, y, vx, vy, and sum px, sum py, sum KE.
/// A momentum total within the rounding of its sum (|sum| <= 4 n eps
/// sum |p|, eps the double's) shows as 0: the -1e-16 of equal and
/// opposite momenta added up is not a momentum.
char *lab_total_line(char *buf, size_t cap, const struct lab_layout *lay,
                     const struct lab_totals *t);

/* ===== Contacts of one ball ===== */

/// Partners that are walls (lab_contact.partner = LAB_WALL + side).
enum lab_wall {
    LAB_WALL_LEFT = 0,   ///< x = 0
    LAB_WALL_RIGHT = 1,  ///< x = w
    LAB_WALL_BOTTOM = 2, ///< y = 0
    LAB_WALL_TOP = 3,    ///< y = h
    LAB_WALL_RIM = 4,    ///< the round table's rim
};
#define LAB_WALL ((size_t)1 << 30) ///< partner >= LAB_WALL: the wall partner - LAB_WALL

/// One contact of a ball with a partner.
struct lab_contact {
    size_t partner; ///< scene index of the other ball, or LAB_WALL + enum lab_wall
    size_t slot;    ///< the partner's slot (sim order), s->n for a wall
    double s;       ///< overlap r_i + r_j - d (penetration for a wall), > 0 when touching;
                    ///< with the exponential law, minus the gap
    double d;       ///< centre distance (plus SIM_DIST_EPS); 0 for a wall
    double nx, ny;  ///< unit normal from the ball to the partner (into the wall)
    double vn;      ///< normal relative velocity (v_partner - v_ball).n, < 0 closing
    double fs;      ///< the law's elastic force along n (k s for Hooke), > 0 repulsive
    double fd;      ///< the dashpot's force -c vn along n, 0 with restitution 1
    double f;       ///< fs + fd as the law computes it (its bits)
    double pe;      ///< the contact's potential energy (k s^2 / 2 for Hooke)
    double fx, fy;  ///< the force vector this contact puts on the ball, the very
                    ///< term sim_forces adds for it
    int touching;   ///< the law counts it as a contact (Hooke: always; the
                    ///< exponential law: gap below eps, not just within range)
    int stuck;      ///< a sticky pair (restitution 0): no law, no force (fs, fd,
                    ///< f, fx, fy all 0)
};

/// Lists the contacts of scene ball @p ball: the spring walls it presses
/// (left, right, bottom, top or rim, in that order), then the balls it
/// touches in ascending slot order (the order sim_forces adds them in).
/// Hard walls, which reflect rather than push, give no contacts; the
/// exponential law lists the pairs it acts on (gap below its range).
/// @return how many there are; at most @p cap are written to @p out.
size_t lab_contacts(const struct sim *s, size_t ball, struct lab_contact *out,
                    size_t cap);

/// The net force on every ball, in scene order, into fx[n] and fy[n]:
/// sim_forces on a copy of the state (walls, contacts with their dashpots,
/// gravity), so the very numbers the next step uses. Hard-wall reflections
/// are not forces and are not included.
/// @return 0, or -1 when memory is short or the broad phase cannot be
/// made (fx, fy untouched).
int lab_forces(const struct sim *s, double *fx, double *fy);

/* ===== Arrow scales ===== */

/// The scale of one kind of arrow: an arrow of value q is q / per_cell cell
/// widths long. per_cell is a 1-2-5 number (..., 0.5, 1, 2, 5, 10, ...).
struct lab_scale {
    double per_cell; ///< value per cell width; 0 until the first fit
};

/// Keeps @p sc when the largest value @p vmax gives an arrow of at most
/// @p max_cells cell widths, and otherwise (or when sc is unset) picks the
/// smallest 1-2-5 value per cell with which it does. Never shrinks the
/// arrows of a kept scale: lengths compare between steps. Call
/// lab_scale_reset when the user switches the arrows on, or on a reset.
/// @return 1 when the scale changed.
int lab_scale_fit(struct lab_scale *sc, double vmax, double max_cells);

/// Forgets the scale: the next fit picks one afresh.
void lab_scale_reset(struct lab_scale *sc);

/// The smallest 1-2-5 number >= @p q (q > 0 and finite; 1 otherwise).
double lab_nice_up(double q);

/* ===== Speeds against the 2-D Maxwell-Boltzmann law ===== */

/// At most this many bins.
#define LAB_HIST_MAX 64

/// A histogram of ball speeds and the law's expected counts.
struct lab_hist {
    int nbins;                  ///< bins over [0, vmax]
    double vmax;                ///< the range: max(4 a, fastest ball), > 0 when n > 0
    double a2;                  ///< a^2 = <v^2>/2 of the balls
    size_t n;                   ///< balls counted (all with a finite speed)
    long count[LAB_HIST_MAX];   ///< balls per bin (the fastest falls in the last)
    double expect[LAB_HIST_MAX];///< N (F(hi) - F(lo)), F(v) = 1 - exp(-v^2 / 2a^2)
};

/// Counts the speeds of all balls into @p nbins bins (1 ..
/// LAB_HIST_MAX, clamped). With no ball, or all at rest, vmax and a2 are
/// 0 and the counts 0 (all at rest: count[0] = n).
void lab_speed_hist(const struct sim *s, int nbins, struct lab_hist *h);

/// The Rayleigh density P(v) = (v/a^2) exp(-v^2 / 2a^2) (0 for v < 0 or a2 <= 0).
double lab_rayleigh(double v, double a2);

/* ===== Contact events ===== */

/// A touching pair: a < b scene indices, or a ball a and the wall
/// b = LAB_WALL + enum lab_wall.
struct lab_pair {
    uint32_t a;
    uint32_t b;
};

/// A set of pairs, sorted by (a, b). Owned; lab_pairs_free frees.
struct lab_pairs {
    struct lab_pair *p;
    size_t n, cap;
};

/// Frees the pairs. Safe on a zeroed struct.
void lab_pairs_free(struct lab_pairs *ps);

/// The pairs touching now: balls whose overlap is positive (with the
/// exponential law, closer than its eps: as sim_diag counts contacts), and
/// balls pressing a spring wall. The pairs come from a broad phase of its
/// own (grid.h) from SIM_GRID_MIN balls on: O(n), s is not touched.
/// @return 0, or -1 when memory is short (ps then holds nothing).
int lab_touching(const struct sim *s, struct lab_pairs *ps);

/// 1 when the two sets are equal.
int lab_pairs_equal(const struct lab_pairs *a, const struct lab_pairs *b);

/// What a search for a contact event found.
struct lab_event {
    long steps;   ///< steps taken (the state is left after the last one)
    int found;    ///< 1: the set changed at the last step; 0: it did not
                  ///< within the limit, or the stepper could go no further
    size_t began; ///< pairs in the new set that were not in the old one
    size_t ended; ///< pairs of the old set gone from the new one
};

/// Steps with @p step until the set of touching pairs differs from the
/// one at the start, or @p max_steps have been taken. @p step advances
/// (or steps back) one step and returns the new state, or NULL when it
/// cannot (the start of the history, a full timeline). @p now is the
/// state at the start.
/// @return 0, or -1 when memory is short.
int lab_seek_event(const struct sim *now, const struct sim *(*step)(void *ctx),
                   void *ctx, long max_steps, struct lab_event *ev);

/* ===== Keys' parameters ===== */

/// Restitution one tenth down (dir < 0) or up (dir > 0), on the tenths
/// from 0 (sticky) to 1 (elastic).
double lab_restitution_step(double e, int dir);

/// The three borders the b key cycles through.
enum lab_border {
    LAB_BORDER_SPRING = 0, ///< spring walls (the seed's)
    LAB_BORDER_HARD = 1,   ///< hard walls: exact reflection
    LAB_BORDER_NONE = 2,   ///< no walls: balls may leave the table
};

/// The border of @p p: none for open space and for a rectangle open on
/// all four sides (sim_params.open), hard or spring by the wall law.
int lab_border(const struct sim_params *p);

/// Sets border @p b on @p p, for a scene whose own table is @p shape
/// (SIM_RECT or SIM_CIRCLE) with open sides @p open: no walls opens all
/// four sides of a rectangle (a round table becomes open space); spring
/// and hard walls put back the scene's own sides.
void lab_border_set(struct sim_params *p, int b, int shape, unsigned open);

/// The border after @p b in the cycle spring -> hard -> none -> spring.
int lab_border_next(int b);

/// "spring walls", "hard walls", "no walls".
const char *lab_border_name(int b);

#endif
