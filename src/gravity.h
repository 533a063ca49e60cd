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

#endif
