/*
 * types.h - the parameters of a run and their enums, shared by the
 * simulation (sim.h) and the contact laws (contact.h).
 *
 * Its own header so that contact.h need not include sim.h: sim uses
 * contact, contact uses only these types, and no module includes a module
 * that includes it back.
 */
#ifndef TYPES_H
#define TYPES_H

/// pi, since strict C11 has no M_PI.
#define SIM_PI 3.14159265358979323846

/// Table shapes.
enum sim_shape {
    SIM_RECT = 0,   ///< the rectangle [0,w] x [0,h]
    SIM_CIRCLE = 1, ///< the disc of radius w/2 centred at (w/2, h/2); w == h
    SIM_OPEN = 2,   ///< no walls at all (universes); w = h = 2R, the view -R..R
};

/// Wall laws (sim_params.walls).
enum sim_walls {
    SIM_WALLS_SPRING = 0, ///< push back with the contact law (k times the penetration)
    SIM_WALLS_HARD = 1,   ///< reflect exactly at the wall (see contact.h)
};

/// Ball-ball (and spring wall) contact laws (sim_params.contact).
enum sim_contact {
    SIM_CONTACT_HOOKE = 0, ///< spring k*s on the overlap s (plus a dashpot when e < 1)
    SIM_CONTACT_EXP = 1,   ///< mu*kappa*exp(-g/eps)/g at gap g > 0 (see contact.h)
    SIM_CONTACT_NONE = 2,  ///< no contacts (point masses of a universe)
};

/// Friction laws (sim_params.friction): a deceleration opposite the velocity.
enum sim_friction {
    SIM_FRICTION_NONE = 0,
    SIM_FRICTION_DRAG = 1,    ///< quadratic drag: dv/dt = -c |v| v (force -c m |v| v)
    SIM_FRICTION_LINEAR = 2,  ///< linear drag: dv/dt = -c v
    SIM_FRICTION_ROLLING = 3, ///< rolling: |v| falls at the constant rate A, stops at 0
};

/// Sides of a rectangle (sim_params.open: the ones without a wall).
enum sim_side {
    SIM_SIDE_LEFT = 1,   ///< x = 0
    SIM_SIDE_RIGHT = 2,  ///< x = w
    SIM_SIDE_BOTTOM = 4, ///< y = 0
    SIM_SIDE_TOP = 8,    ///< y = h
};

/// Parameters of a run. Every field is finite; the ones marked > 0 are.
struct sim_params {
    int shape;   ///< enum sim_shape, default SIM_RECT
    double w, h; ///< table size, > 0, default 800 x 400
    double k;    ///< spring stiffness (force per unit overlap), > 0, default 5
    double dt;   ///< time step, > 0, default 0.05
    double restitution; ///< coefficient of restitution, 0 <= e <= 1, default 1 (0: sticky)
    int walls;          ///< enum sim_walls, default SIM_WALLS_SPRING
    int contact;        ///< enum sim_contact, default SIM_CONTACT_HOOKE
    double exp_eps;     ///< decay length EPS of the exponential contact, > 0 when used
    double exp_kappa;   ///< strength KAPPA (a squared speed) of the exponential contact
    double gravity;     ///< G of mutual gravity, >= 0, default 0 (off)
    double softening;   ///< Plummer softening length of gravity, >= 0, default 0
    double theta;       ///< Barnes-Hut opening angle of gravity: 0 = the exact sum,
                        ///< > 0 the tree; < 0 (default) = automatic: exact up to
                        ///< SIM_BH_MIN bodies, SIM_BH_THETA above
    double reach; ///< gap beyond touching at which pairs still interact, >= 0,
                  ///< default 0 (the broad phase finds pairs up to it)
    int friction;      ///< enum sim_friction, default SIM_FRICTION_NONE
    double friction_c; ///< its constant (drag c, linear c, rolling A), > 0 when used
    double gx, gy;     ///< uniform field: every ball feels the force m (gx, gy);
                       ///< default 0 0 (off)
    unsigned open;     ///< sides of a rectangle without a wall (enum sim_side
                       ///< bits), default 0; a ball that leaves keeps flying
    int line;          ///< 1-D mode (the lab's key 1): every force's y part is
                       ///< dropped, so balls set off with vy = 0 keep their
                       ///< rows; default 0
};

/// How far a ball of radius @p r may reach past a hard wall and still lie on
/// the table: by rounding, up to 1e-9 of its radius or 2^-40 of the table's
/// size, whichever is more. The event engine computes where a ball meets a
/// wall and does not clamp it there (a clamp would change every later
/// collision), so a printed state has balls an ulp or so on either side of
/// the wall: the scene reader takes them (a printed state reads back) and
/// so does the event engine at start-up, by this one rule.
static inline double sim_wall_slack(const struct sim_params *p, double r)
{
    double a = 1e-9 * r, b = 0x1p-40 * (p->w + p->h);
    return a > b ? a : b;
}

#endif
