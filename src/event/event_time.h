/*
 * event_time.h - times of the event engine's events (see event_time.c):
 * the straight pair time and the straight wall inline (the inner loop's),
 * the rest declared. Private to the engine.
 */
#ifndef EVENT_TIME_H
#define EVENT_TIME_H

#include "event_impl.h"

#include <math.h>

/// The time s >= 0 at which ball @p a's path factor reaches @p k, INFINITY
/// when it stops first (see event_time.c); k itself without friction.
double ev_path_time(const struct event_in *ev, const struct event_ball *a, double k);

/// Ball @p a's position and velocity at time @p t >= its own time.
void ev_ball_at(const struct event_in *ev, const struct event_ball *a, double t, double *x,
                double *y, double *vx, double *vy);

/// The next contact of @p p and @p q in a field or with friction.
double ev_pair_time_general(const struct event_in *ev, const struct event_ball *p,
                            const struct event_ball *q);

/// The round table's wall, straight and in a field, from the ball's own time.
double ev_wall_circle(const struct event_in *ev, const struct event_ball *a);
double ev_wall_circle_field(const struct event_in *ev, const struct event_ball *a);

/// How long after its own time ball @p a leaves the circle of radius cen_h
/// around the centre of its neighbour list @p l.
double ev_nl_leave(const struct event_in *ev, const struct event_ball *a,
                   const struct event_nlist *l);

/* straight_time for a pair whose D.V or |D|^2 leaves the normal numbers
 * (lengths times speeds beyond about 2^500 or below 2^-500: D.V squared
 * would overflow to a contact at once, at a distance, or underflow and
 * lose its relative rounding). D and sigma are scaled by 2^-p and V by
 * 2^-q, exactly (powers of two), so that the largest of each is about 1;
 * the root then scales back by 2^(p - q). */
EV_LOCAL double ev_straight_time_wide(double dx, double dy, double dvx, double dvy, double sig,
                                      double tr, double now)
{
    double m = fmax(fmax(fabs(dx), fabs(dy)), fabs(sig)), w = fmax(fabs(dvx), fabs(dvy));
    int p = 0, q = 0;
    if (m > 0 && m < INFINITY)
        frexp(m, &p);
    if (w > 0 && w < INFINITY)
        frexp(w, &q);
    dx = ldexp(dx, -p);
    dy = ldexp(dy, -p);
    sig = ldexp(sig, -p);
    dvx = ldexp(dvx, -q);
    dvy = ldexp(dvy, -q);
    double b = dx * dvx + dy * dvy;
    if (!(b < 0))
        return INFINITY;
    double dd = dx * dx + dy * dy, vv = dvx * dvx + dvy * dvy;
    if (!(b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double c = dd - sig * sig;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY;
    double s = ldexp(c / (-b + sqrt(disc)), p - q);
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > now ? t : now;
}

/*
 * The time two balls touch, or INFINITY. From the later own time tr of the
 * two, with relative position D and velocity V, |D + sV|^2 = sigma^2 is
 *   vv s^2 + 2 b s + c = 0,  vv = V.V, b = D.V, c = D.D - sigma^2.
 * Only an approach (b < 0) can lead to contact; then the first root is
 *   s = (-b - sqrt(b^2 - vv c)) / vv = c / (-b + sqrt(b^2 - vv c)),
 * the second form without cancellation. c <= 0 (touching or overlapping,
 * by rounding or by allow_overlap) and approaching gives s <= 0: at once.
 * Swapping p and q negates D and V exactly, so either order gives the same
 * bits.
 */
/* The time two balls touch from tr, given their relative position D and
 * velocity V then (see above), not before now; INFINITY when they do not.
 * With tr = 0 and now = -INFINITY: the root s itself (0 when touching or
 * overlapping and approaching). Inlined, so the plain pair_time returns
 * at once for the most pairs, the receding ones. */
static EV_INLINE double straight_time(double dx, double dy, double dvx, double dvy,
                                      double sig, double tr, double now, double lim)
{
    double b = dx * dvx + dy * dvy;
    if (!(b < 0))
        return INFINITY;
    double dd = dx * dx + dy * dy;
    /* below, squares of D.V and of lengths stay normal numbers, whose
     * rounding is relative; beyond, the same in scaled units */
    if (!(b < -0x1p-500 && b > -0x1p500 && dd < 0x1p1000))
        return ev_straight_time_wide(dx, dy, dvx, dvy, sig, tr, now);
    double c = dd - sig * sig;
    /* s >= c / (-2 b) (when c > 0): so past lim, by far more than the
     * rounding, it cannot come first (no square root, no division). Asked
     * for (lim finite) in the grid's windows, where it pays. It needs the
     * bound a normal number, far from the subnormals where the margin
     * would be lost; otherwise the pair is timed in full. */
    if (lim < INFINITY) {
        double span = (lim - tr) * (1 + 0x1p-30) + (fabs(lim) + fabs(tr)) * 0x1p-40;
        double bound = -2 * b * span;
        if (span > 0x1p-900 && bound > 0x1p-1000 && c > bound)
            return INFINITY;
    }
    double vv = dvx * dvx + dvy * dvy;
    /* b < -EVENT_APPROACH |D| |V|, without the square root */
    if (!(b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY; /* they pass each other */
    double s = c / (-b + sqrt(disc));
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > now ? t : now;
}

/* The plain pair time (straight paths), with the bound @p lim (see
 * straight_time). @p now: p's own time is the present (it has just
 * collided or bounced), so it is the later of the two (every own time is
 * at or before the present) and p's position there its own: a constant,
 * which the compiler takes out of a loop over q. */
static EV_INLINE double plain_time(const struct event_in *ev, const struct event_ball *p,
                                   const struct event_ball *q, double lim, int now)
{
    double tr = now ? p->tb : p->tb > q->tb ? p->tb : q->tb;
    double xi = p->x + (tr - p->tb) * p->vx;
    double yi = p->y + (tr - p->tb) * p->vy;
    double xj = q->x + (tr - q->tb) * q->vx;
    double yj = q->y + (tr - q->tb) * q->vy;
    return straight_time(xj - xi, yj - yi, q->vx - p->vx, q->vy - p->vy, p->r + q->r, tr,
                         ev->t, lim);
}

/* The time of the next contact of p and q (see above), or INFINITY.
 * @p general: ev->general, a constant where the callers are expanded
 * twice (predict_pairs), so that the plain loop tests nothing more. */
static EV_INLINE double pair_time(const struct event_in *ev, const struct event_ball *p,
                                  const struct event_ball *q, int general, double lim)
{
    if (general) /* a field or friction */
        return ev_pair_time_general(ev, p, q);
    return plain_time(ev, p, q, lim, 0);
}

/* Time for coordinate q (at own time tb, speed v) to reach the wall at
 * distance r inside [0, len]: q + s v = len - r or q + s v = r; none on an
 * open side. The sign of v tells which. */
static EV_INLINE double wall_axis(double q, double v, double r, double len, int open_lo,
                                  int open_hi)
{
    if (v > 0)
        return open_hi ? INFINITY : (len - r - q) / v;
    if (v < 0)
        return open_lo ? INFINITY : (r - q) / v;
    return INFINITY;
}

/* sqrt(v^2 - 4 a c), -1 when that is negative, NAN from NAN; scaled when
 * the squares overflow (speeds near 1e300: the engine must not then take
 * a far wall for a near one). */
EV_LOCAL double sqrt_disc(double v, double a, double c)
{
    double d = v * v - 4 * a * c;
    if (isnan(d) || isinf(d)) {
        double f = 2 * sqrt(fabs(a)) * sqrt(fabs(c));
        double m = fabs(v) > f ? fabs(v) : f;
        if (isnan(m) || isinf(m) || m == 0)
            return NAN;
        double u = v / m;
        d = u * u - (4 * a / m) * (c / m);
        return d >= 0 ? m * sqrt(d) : d < 0 ? -1 : NAN;
    }
    return d >= 0 ? sqrt(d) : -1;
}

/*
 * In the field a coordinate moves as q + v s + a s^2 (a = g/2). The first
 * s >= 0 at which it reaches a bound above it, given c = q - bound: with
 * v > 0 the first root of a s^2 + v s + c, -2c / (v + sqrt(v^2 - 4ac))
 * without cancellation (none when it turns back first); moving away
 * (v <= 0) but pushed back (a > 0), the later root (-v + sqrt(...)) / 2a,
 * the return. Past the bound already (c > 0: by rounding, just after
 * crossing it, or pressed into a wall from the spring engine): 0 when
 * moving on out, the return when moving back in, and 0 when it cannot get
 * back in. A bound below is the same with q, v and a negated.
 */
EV_LOCAL double rise_time(double c, double v, double a)
{
    if (v > 0) {
        if (!(c < 0))
            return 0;
        double sq = sqrt_disc(v, a, c);
        if (!(sq >= 0))
            return INFINITY; /* turns back first */
        return -2 * c / (v + sq);
    }
    if (!(a > 0))
        return INFINITY;
    double sq = sqrt_disc(v, a, c);
    if (isnan(sq))
        return INFINITY;
    if (sq < 0)
        return 0;
    return (-v + sq) / (2 * a);
}

/* wall_axis in the field g along the axis. */
EV_LOCAL double ev_wall_axis_field(double q, double v, double g, double r, double len,
                                   int open_lo, int open_hi, int *low)
{
    double hi = open_hi ? INFINITY : rise_time(q - (len - r), v, 0.5 * g);
    double lo = open_lo ? INFINITY : rise_time(r - q, -v, -0.5 * g);
    *low = lo < hi;
    return lo < hi ? lo : hi;
}

/* In the field: from coordinate q with speed v now, the time to leave
 * cell c of n (of width size) through a boundary inside the grid; *low
 * tells which. Crossings change no course, so they are timed from now,
 * where the ball is in its cell up to rounding. */
EV_LOCAL double ev_cross_axis_field(double q, double v, double g, long c, double size,
                                    long n, int *low)
{
    double hi = c + 1 < n ? rise_time(q - (double)(c + 1) * size, v, 0.5 * g) : INFINITY;
    double lo = c > 0 ? rise_time((double)c * size - q, -v, -0.5 * g) : INFINITY;
    *low = lo < hi;
    return lo < hi ? lo : hi;
}

/* Ball a's position and velocity at the current time, a left as it is. */
static inline void ball_now(const struct event_in *ev, const struct event_ball *a, double *x,
                            double *y, double *vx, double *vy)
{
    ev_ball_at(ev, a, ev->t, x, y, vx, vy);
}

#endif
