/*
 * gravity.h - mutual Newtonian gravity, the exact O(n^2) sum.
 *
 * Pure C11 and libm. The order of the sum is part of the contract: for each
 * body i, the bodies j != i in index order, each term computed as
 *     f = G*m_i*m_j/(r*r),  Fx += f*dx/r,  Fy += f*dy/r   (dx = x_j - x_i)
 * which is the order of the classic COS126 NBody assignment, so that its
 * published outputs are reproduced to the last printed digit.
 */
#ifndef GRAVITY_H
#define GRAVITY_H

#include <stddef.h>

/// Adds to fx[i], fy[i] the gravitational force on every body i. With
/// @p soft = 0 the terms are exactly the order above; with Plummer softening
/// @p soft > 0 the magnitude is f = G*m_i*m_j*r/(r^2 + soft^2)^(3/2), again
/// applied as f*dx/r. Coincident bodies (r = 0) exert no force on each other
/// (the direction is undefined), so nothing divides by zero.
/// @param n   number of bodies
/// @param G   the gravitational constant (any sign, 0 adds nothing)
/// @param soft softening length, >= 0
void gravity_forces(size_t n, const double *x, const double *y, const double *m,
                    double G, double soft, double *fx, double *fy);

/// The potential energy -sum over pairs i < j of G*m_i*m_j/sqrt(r^2 + soft^2)
/// (pairs at r = 0 without softening are left out, as in gravity_forces).
double gravity_potential(size_t n, const double *x, const double *y,
                         const double *m, double G, double soft);

/// The largest opening angle gravity_bh_forces accepts.
#define GRAVITY_THETA_MAX 1.0

/// Barnes-Hut: the same forces approximated in O(n log n). Bodies go into a
/// quadtree whose every cell keeps its total mass and centre of mass; a
/// cell of side s seen from a body at distance d from that centre (and not
/// containing the body) acts as one point mass when d > s/theta + delta,
/// delta the distance of its centre of mass from its centre (Barnes' safer
/// form of s/d < theta), else its children are opened; bodies in the same leaf are summed exactly. A leaf
/// at depth 48 holds all its bodies (coincident points). The tree is built
/// and freed inside the call.
/// @param theta opening angle, 0 < theta <= GRAVITY_THETA_MAX (smaller is
///              more exact; monopole cells give rms force errors of about
///              1e-4 at 0.1, 1% at 0.5, 4% at 1)
/// @return 0; -1 (nothing added) when memory is short or a mass is negative
///         (a cell's centre of mass is then not a useful point), and the
///         caller should take the exact sum.
int gravity_bh_forces(size_t n, const double *x, const double *y, const double *m,
                      double G, double soft, double theta, double *fx, double *fy);

/// The G and softening the front end's `g` key turns on in a scene that has
/// no `gravity` directive: softening = the mean radius r, and G such that
/// two touching balls of the mean radius and mass m (centres 2r apart)
/// attract with a tenth of the force of a contact compressed by r/10:
///     G m^2 2r / (4r^2 + r^2)^(3/2) = k r / 100
///     =>  G = 5^(3/2) / 200 * k r^3 / m^2  (about 0.0559 k r^3 / m^2).
/// @param k the contact stiffness
/// @return 0, or -1 (G = soft = 0) when n is 0 or the result is not finite
///         and > 0.
int gravity_default(size_t n, const double *m, const double *r, double k,
                    double *G, double *soft);

#endif
