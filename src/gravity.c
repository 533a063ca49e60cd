/*
 * gravity.c - mutual gravity: the exact sum, in the published order.
 */
#include "gravity.h"

#include <math.h>

void gravity_forces(size_t n, const double *x, const double *y, const double *m,
                    double G, double soft, double *fx, double *fy)
{
    if (G == 0)
        return;
    const double s2 = soft * soft;
    for (size_t i = 0; i < n; i++) {
        double xi = x[i], yi = y[i], mi = m[i];
        double fxi = 0, fyi = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            double dx = x[j] - xi, dy = y[j] - yi;
            double r = sqrt(dx * dx + dy * dy);
            if (r == 0)
                continue;
            double f;
            if (s2 == 0) {
                f = G * mi * m[j] / (r * r);
            } else {
                /* Plummer: the force of a point at distance sqrt(r^2+s^2),
                 * projected on the line of centres: G mi mj r / q^3. */
                double q2 = r * r + s2;
                f = G * mi * m[j] * r / (q2 * sqrt(q2));
            }
            fxi += f * dx / r;
            fyi += f * dy / r;
        }
        fx[i] += fxi;
        fy[i] += fyi;
    }
}

double gravity_potential(size_t n, const double *x, const double *y,
                         const double *m, double G, double soft)
{
    if (G == 0)
        return 0;
    const double s2 = soft * soft;
    double pe = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double dx = x[j] - x[i], dy = y[j] - y[i];
            double q = sqrt(dx * dx + dy * dy + s2);
            if (q > 0)
                pe -= G * m[i] * m[j] / q;
        }
    return pe;
}
