/*
 * contact.h - contact laws and wall laws, as pure functions of one pair's
 * geometry, masses and relative velocity.
 *
 * Pure C11 and libm. A law looks at one pair (or a ball and a wall) through
 *     gap g   the distance between the surfaces: d - r_i - r_j for a pair,
 *             the distance from the ball's surface to the wall for a wall;
 *             g < 0 is an overlap s = -g
 *     mu      the reduced mass m_i m_j/(m_i + m_j); for a wall, the ball's m
 *     vn      the normal relative velocity (v_j - v_i).n with n the unit
 *             vector from i to j (from the wall into the table): < 0 closing
 * and returns the force magnitude f along n on j (f > 0 pushes apart; i gets
 * -f), the potential energy and the power a dashpot takes out.
 *
 *  Hooke  (g < 0):  f = k s - c vn,  pe = k s^2 / 2,  power = c vn^2, where the
 *         dashpot c = 2 zeta sqrt(k mu), zeta = -ln e / sqrt(pi^2 + ln^2 e),
 *         makes a head-on collision end at e times the closing speed (the
 *         damped half-oscillation lasts pi/(omega sqrt(1 - zeta^2)) and
 *         shrinks the speed by exp(-zeta pi / sqrt(1 - zeta^2)) = e).
 *  exp    (0 < g < CONTACT_EXP_CUTOFF eps):  f = mu kappa exp(-g/eps)/g,
 *         pe = mu kappa (E1(g/eps) - E1(CONTACT_EXP_CUTOFF)), since
 *         integral_g^inf exp(-u/eps)/u du = E1(g/eps). Energy conservation
 *         then gives the turning gap of a head-on approach at speed v0:
 *         E1(g* / eps) = v0^2/(2 kappa), whatever the masses.
 *         Gaps below CONTACT_EXP_GMIN eps (an overlap included: dt too large
 *         for the speed) are clamped to that value and counted.
 */
#ifndef CONTACT_H
#define CONTACT_H

#include "types.h"

/// The exponential law is cut off at gaps of 40 eps, where the force has
/// fallen by exp(-40) = 4.2e-18 from its value near contact: below the
/// rounding of any sum it joins. The potential is shifted to 0 there.
#define CONTACT_EXP_CUTOFF 40.0

/// Gaps below this fraction of eps are clamped (and counted): a head-on
/// approach turns there only at v0^2/(2 kappa) > E1(1e-3) = 6.33.
#define CONTACT_EXP_GMIN 1e-3

/// Euler's constant gamma.
#define CONTACT_EULER_GAMMA 0.57721566490153286061

/// A contact law with its constants worked out once per evaluation sweep.
struct contact_law {
    int kind;       ///< enum sim_contact
    double k;       ///< Hooke stiffness
    double zeta;    ///< dashpot damping ratio, 0 without one
    double eps;     ///< exp: decay length
    double kappa;   ///< exp: strength (a squared speed)
    double range;   ///< the law acts when gap < range (Hooke 0, exp 40 eps, none -inf)
    double e1_cut;  ///< exp: E1(CONTACT_EXP_CUTOFF), the potential's shift
};

/// What one evaluation gives.
struct contact_out {
    double f;      ///< force along n on the second body, > 0 repulsive
    double pe;     ///< potential energy of the contact
    double power;  ///< power taken out by the dashpot, >= 0
    int clamped;   ///< 1 when the gap was clamped to CONTACT_EXP_GMIN eps
    int touching;  ///< counts as a contact: Hooke overlap; exp gap below eps
};

/// Sums of pe, power and clamps over many evaluations (walls, pairs).
struct contact_sum {
    double pe, power;
    long clamps;
};

/// Builds the law of a run's parameters (contact, k, restitution, eps, kappa).
void contact_law_init(struct contact_law *law, const struct sim_params *p);

/// The damping ratio zeta = -ln e / sqrt(pi^2 + ln^2 e) of restitution e
/// (0 < e <= 1; e = 1 gives 0).
double contact_zeta(double e);

/// Evaluates the law for one pair. @return 1 when the pair interacts (gap <
/// range; *out filled in), 0 when not (*out zeroed).
int contact_eval(const struct contact_law *law, double gap, double mu, double vn,
                 struct contact_out *out);

/// Spring wall of a rectangle along one axis: a ball at coordinate @p q with
/// velocity @p v, radius @p r and mass @p m between walls at 0 and @p len,
/// of which @p sides are there (bit 1 the wall at 0, bit 2 the one at len;
/// an open side has none). @return the force component on the ball; adds
/// pe, power and clamps to @p sum.
double contact_wall_axis(const struct contact_law *law, double q, double v,
                         double r, double m, double len, unsigned sides,
                         struct contact_sum *sum);

/// The walls of axis x (@p axis 0: left and right) or y (1: bottom and top)
/// that a rectangle with open sides @p open has, as contact_wall_axis takes
/// them.
unsigned contact_walls_of(unsigned open, int axis);

/// Spring wall of the round table of radius @p R centred at (cx, cy): with
/// Hooke, force k p along the radius when the penetration p = |x - c| + r - R
/// is positive (the gap is -p). Adds the force to *fx, *fy and pe, power,
/// clamps to @p sum. A ball exactly at the centre gets no wall force.
void contact_wall_circle(const struct contact_law *law, double x, double y,
                         double vx, double vy, double r, double m, double cx,
                         double cy, double R, double *fx, double *fy,
                         struct contact_sum *sum);

/// Hard wall along one axis: a coordinate moved to *q that left [lo, hi] is
/// reflected at the wall it crossed (the overshoot mirrored, shrunk by e) and
/// the velocity component becomes -e v; repeated while the mirrored path
/// leaves the other side. With e = 1 the speed is kept bit for bit.
/// @return the kinetic energy lost per unit mass, (1 - e^2) v^2 / 2.
double contact_reflect_axis(double *q, double *v, double lo, double hi, double e);

/// Hard round wall: a centre that moved from p to q outside the disc |x - c|
/// <= rho is reflected at the crossing point a = p + alpha (q - p), alpha the
/// root in [0, 1] of |p + alpha (q - p) - c| = rho; with the inward normal
/// n = -(a - c)/|a - c| the rest of the path and the velocity are mirrored,
/// v' = v - (1 + e)(v.n) n. Repeated while the path leaves again; the result
/// satisfies (qx - cx)^2 + (qy - cy)^2 <= rho^2 exactly as computed.
/// @return the kinetic energy lost per unit mass, (1 - e^2)(v.n)^2 / 2.
double contact_reflect_circle(double px, double py, double *qx, double *qy,
                              double *vx, double *vy, double cx, double cy,
                              double rho, double e);

/// The crossing parameter alpha in [0, 1] of the path p -> q with the circle
/// |x - c| = rho, for p inside and q outside (0 when p is not inside).
double contact_circle_crossing(double px, double py, double qx, double qy,
                               double cx, double cy, double rho);

/*
 * Friction: a deceleration a(|v|) opposite the velocity, the same for every
 * mass (the force is m times it), applied after the kick of the other
 * forces as the exact solution of dv/dt = -a(|v|) v/|v| over the step dt:
 *
 *  drag     a = c |v|^2:  v <- v / (1 + c |v| dt)   (1/|v| grows by c dt)
 *  linear   a = c |v|:    v <- v exp(-c dt)
 *  rolling  a = A:        |v| <- max(|v| - A dt, 0), the direction kept
 *
 * So a free ball's speed follows the closed forms v0/(1 + c v0 t), v0
 * exp(-c t) and v0 - A t to rounding, whatever dt; no law can reverse a
 * velocity, however large c dt; a rolling ball stops in finite time and a
 * ball at rest stays at rest (the force vanishes at v = 0). After a kick
 * dv from other forces, rolling friction holds the ball while |dv| <= A
 * dt: static friction with the same coefficient, as Coulomb's law has it.
 */
struct contact_friction {
    int kind;      ///< enum sim_friction
    double c;      ///< drag or linear c, rolling A
    double dt;     ///< the step
    double factor; ///< linear: exp(-c dt)
    double dv;     ///< rolling: A dt
};

/// The friction of a run's parameters over one step of p->dt.
void contact_friction_init(struct contact_friction *f, const struct sim_params *p);

/// Applies one step of friction to the velocity (*vx, *vy). @return the
/// kinetic energy taken out per unit mass, (|v|^2 - |v'|^2)/2 >= 0.
double contact_friction_apply(const struct contact_friction *f, double *vx,
                              double *vy);

/// The exponential integral E1(x) = integral_x^inf exp(-t)/t dt, x > 0
/// (series below 1, continued fraction above; relative error ~1e-15).
double contact_e1(double x);

/// The inverse of E1: the x > 0 with E1(x) = y, for y > 0.
double contact_e1_inv(double y);

#endif
