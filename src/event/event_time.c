/*
 * event_time.c - when things happen in the event engine: a ball's path
 * (straight, parabolic in a field, slowing with friction), the times two
 * balls touch, a ball meets a wall (the round table's a quartic in a
 * field), crosses into the next cell or leaves its neighbour list. Pure
 * functions of the records; the hot straight ones are inline in
 * event_time.h.
 */
#include "event_time.h"

#include <math.h>

/*
 * Between events a ball moves as its law says, from its state at its own
 * time tb: straight at constant speed; on a parabola in a field; or, with
 * friction, along the straight line of its velocity, slowing: linear drag
 * (dv/dt = -c v) has covered v (1 - e^(-c s)) / c after s and moves at
 * v e^(-c s); rolling friction (|v| falls at the rate A) has covered
 * v (s - A s^2 / 2|v|) and moves at v (1 - A s / |v|) until it stops at
 * s = |v| / A, where it stays. So with friction a position is x + v k(s),
 * k the path factor: every straight-line prediction (walls, the round
 * table, cell crossings) is made in k and turned into time by path_time.
 */
static void path_factors(const struct event_in *ev, const struct event_ball *a, double s,
                         double *k, double *m)
{
    if (ev->fric == SIM_FRICTION_LINEAR) {
        *m = exp(-ev->fc * s);
        *k = -expm1(-ev->fc * s) / ev->fc;
    } else if (ev->fric == SIM_FRICTION_ROLLING) {
        double w = sqrt(a->vx * a->vx + a->vy * a->vy), A = ev->fc;
        if (!(w > 0)) {
            *k = 0;
            *m = 0;
            return;
        }
        double stop = w / A;
        if (s >= stop) { /* at rest, where it stopped */
            *k = 0.5 * stop;
            *m = 0;
        } else {
            *k = s - A * s * s / (2 * w);
            *m = (w - A * s) / w;
        }
    } else {
        *k = s;
        *m = 1;
    }
}

/* The time s >= 0 at which ball a's path factor reaches k (a distance at
 * its speed at tb), INFINITY when it stops first: the inverse of
 * path_factors' k. Without friction, k itself. */
double ev_path_time(const struct event_in *ev, const struct event_ball *a, double k)
{
    if (!ev->fric || !(k > 0) || !(k < INFINITY))
        return k;
    if (ev->fric == SIM_FRICTION_LINEAR) {
        double ck = ev->fc * k;
        return ck < 1 ? -log1p(-ck) / ev->fc : INFINITY;
    }
    /* s - A s^2 / 2w = k: s = 2k / (1 + sqrt(1 - 2Ak/w)), no cancellation */
    double w = sqrt(a->vx * a->vx + a->vy * a->vy);
    double x = 2 * ev->fc * k / w;
    return x <= 1 ? 2 * k / (1 + sqrt(1 - x)) : INFINITY;
}

/* Ball a's position and velocity at time t >= its own time. */
void ev_ball_at(const struct event_in *ev, const struct event_ball *a, double t,
                double *x, double *y, double *vx, double *vy)
{
    double dt = t - a->tb;
    if (ev->field) {
        *x = a->x + dt * (a->vx + 0.5 * ev->gx * dt);
        *y = a->y + dt * (a->vy + 0.5 * ev->gy * dt);
        *vx = a->vx + ev->gx * dt;
        *vy = a->vy + ev->gy * dt;
    } else if (ev->fric) {
        double k, m, ux = a->vx, uy = a->vy;
        path_factors(ev, a, dt, &k, &m);
        *x = a->x + k * ux;
        *y = a->y + k * uy;
        *vx = m * ux;
        *vy = m * uy;
    } else {
        *x = a->x + dt * a->vx;
        *y = a->y + dt * a->vy;
        *vx = a->vx;
        *vy = a->vy;
    }
}

static EV_INLINE double straight_root(double dx, double dy, double dvx, double dvy, double sig)
{
    return straight_time(dx, dy, dvx, dvy, sig, 0, -INFINITY, INFINITY);
}

/*
 * The round table: the centre must stay within R - r of C. With
 * D = p - C, |D + sV|^2 = (R - r)^2 is vv s^2 + 2 b s + c = 0, c <= 0 while
 * inside; the positive root is (-b + sqrt(b^2 - vv c)) / vv, written as
 * -c / (b + sqrt(...)) when b > 0 to avoid cancellation.
 */
double ev_wall_circle(const struct event_in *ev, const struct event_ball *a)
{
    double R = 0.5 * ev->p.w, lim = R - a->r;
    double dx = a->x - R, dy = a->y - R;
    double vx = a->vx, vy = a->vy;
    double vv = vx * vx + vy * vy;
    if (!(vv > 0))
        return INFINITY;
    double b = dx * vx + dy * vy;
    double c = dx * dx + dy * dy - lim * lim;
    double disc = b * b - vv * c;
    if (disc < 0)
        disc = 0; /* outside by rounding and moving past: bounce at once */
    double s = b > 0 ? -c / (b + sqrt(disc)) : (-b + sqrt(disc)) / vv;
    return s > 0 ? s : 0;
}

/* The quartic f(s) = c[4] s^4 + ... + c[0] and its derivative. */
static double quartic(const double c[5], double s)
{
    return (((c[4] * s + c[3]) * s + c[2]) * s + c[1]) * s + c[0];
}

static double quartic_d(const double c[5], double s)
{
    return ((4 * c[4] * s + 3 * c[3]) * s + 2 * c[2]) * s + c[1];
}

/* A root of g in [lo, hi] where g(lo) <= 0 < g(hi) (up) or g(lo) >= 0 >
 * g(hi) (down), by bisection down to neighbouring doubles: the first s
 * with g(s) past 0, so that the ball is at or just past the wall. */
static double bisect(const double c[5], int deriv, double lo, double hi)
{
    int up = (deriv ? quartic_d(c, hi) : quartic(c, hi)) > 0;
    for (int it = 0; it < 2200; it++) {
        double mid = lo + 0.5 * (hi - lo);
        if (!(mid > lo && mid < hi))
            break;
        double v = deriv ? quartic_d(c, mid) : quartic(c, mid);
        if ((v > 0) == up)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* From lo, where g <= 0, on the last piece (g ends positive): an s
 * where g > 0, by doubling the step from @p scale (INFINITY when none is
 * found before overflow). */
static double grow(const double c[5], int deriv, double lo, double scale)
{
    double step = lo > scale ? lo : scale;
    for (int it = 0; it < 2100; it++, step *= 2) {
        double hi = lo + step;
        if (!(hi < INFINITY))
            break;
        if ((deriv ? quartic_d(c, hi) : quartic(c, hi)) > 0)
            return hi;
    }
    return INFINITY;
}

/*
 * The round table in a field: the centre at D + V s + A s^2 from the
 * table's centre (A = g/2) must stay within L = R - r, so the wall comes
 * at the first s >= 0 where f(s) = |D + V s + A s^2|^2 - L^2 rises
 * through 0, a quartic with a positive leading term (the field's |A|^2).
 * f' and f'' cut [0, inf) into pieces on which f is monotone (f'' is a
 * quadratic: its roots split f' into monotone pieces, each holding at most
 * one root of f', found by bisection); the first piece that ends with
 * f > 0 holds the crossing, found by bisection too. So the first bounce
 * is never missed, however near the ball grazes the wall before it. Past
 * the wall already (by rounding, or from the spring engine): 0 when
 * moving out or when it cannot come back in by itself.
 */
/* The roots of f'' = 12 c4 s^2 + 6 c3 s + 2 c2 of the quartic c in
 * (0, S), in order, into cut[] (at most 2); the quadratic's roots without
 * cancellation. */
static int quartic_bends(const double c[5], double S, double cut[2])
{
    int nc = 0;
    double qa = 12 * c[4], qb = 6 * c[3], qc = 2 * c[2];
    if (qa != 0) {
        double disc = qb * qb - 4 * qa * qc;
        if (disc > 0) {
            double q = -0.5 * (qb + (qb >= 0 ? sqrt(disc) : -sqrt(disc)));
            double r1 = q / qa, r2 = q != 0 ? qc / q : r1;
            if (r1 > r2) {
                double x = r1;
                r1 = r2;
                r2 = x;
            }
            if (r1 > 0 && r1 < S)
                cut[nc++] = r1;
            if (r2 > 0 && r2 < S && r2 != r1)
                cut[nc++] = r2;
        }
    } else if (qb != 0) {
        double r = -qc / qb;
        if (r > 0 && r < S)
            cut[nc++] = r;
    }
    return nc;
}

double ev_wall_circle_field(const struct event_in *ev, const struct event_ball *a)
{
    double R = 0.5 * ev->p.w, L = R - a->r;
    double dx = a->x - R, dy = a->y - R, vx = a->vx, vy = a->vy;
    double ax = 0.5 * ev->gx, ay = 0.5 * ev->gy;
    double c[5] = {dx * dx + dy * dy - L * L, 2 * (dx * vx + dy * vy),
                   vx * vx + vy * vy + 2 * (dx * ax + dy * ay), 2 * (vx * ax + vy * ay),
                   ax * ax + ay * ay};
    for (int i = 0; i < 5; i++)
        if (!isfinite(c[i]))
            return INFINITY;
    /* a time scale: to cross the table at the speed or fall across it */
    double sp = sqrt(vx * vx + vy * vy), ga = sqrt(c[4]);
    double scale = 2 * L / (sp + sqrt(ga * 2 * L) + 1e-300);
    if (!(scale > 0 && scale < INFINITY))
        scale = 1;
    /* the roots of f'', then of f' */
    double cut[2];
    int nc = quartic_bends(c, INFINITY, cut);
    /* f' on [0, cut0], [cut0, cut1], ..., [last, inf): one root each at most */
    double crit[4];
    int ncrit = 0;
    double lo = 0;
    for (int p = 0; p <= nc; p++) {
        double hi = p < nc ? cut[p] : INFINITY;
        double flo = quartic_d(c, lo);
        if (hi == INFINITY) {
            /* f' ends positive (c4 > 0): a root only if it is <= 0 here */
            if (flo <= 0) {
                double h = grow(c, 1, lo, scale);
                if (h < INFINITY)
                    crit[ncrit++] = bisect(c, 1, lo, h);
            }
        } else if ((flo > 0) != (quartic_d(c, hi) > 0)) {
            crit[ncrit++] = bisect(c, 1, lo, hi);
        }
        lo = hi;
    }
    /* f on the pieces between its critical points */
    double s0 = 0, f0 = c[0];
    int k = 0;
    if (f0 > 0) {
        if (c[1] >= 0)
            return 0; /* past the wall and moving out */
        /* moving back in: the first piece, decreasing */
        double end = ncrit ? crit[0] : INFINITY;
        if (end == INFINITY || !(quartic(c, end) <= 0))
            return 0; /* it does not get back in by itself */
        s0 = end;
        k = 1;
    }
    for (; k <= ncrit; k++) {
        double end = k < ncrit ? crit[k] : INFINITY;
        if (end == INFINITY) {
            double h = grow(c, 0, s0, scale);
            return h < INFINITY ? bisect(c, 0, s0, h) : INFINITY;
        }
        if (end > s0 && quartic(c, end) > 0)
            return bisect(c, 0, s0, end);
        s0 = end > s0 ? end : s0;
    }
    return INFINITY;
}

/* The critical points of the quartic c in (0, S), in order, into crit[]
 * (at most 3): the roots of f'' (a quadratic, or less) split f' into
 * monotone pieces, each holding at most one root of f', found by
 * bisection. */
static int quartic_crit(const double c[5], double S, double crit[3])
{
    double cut[2];
    int nc = quartic_bends(c, S, cut);
    int n = 0;
    double lo = 0, dlo = quartic_d(c, 0);
    for (int p = 0; p <= nc; p++) {
        double hi = p < nc ? cut[p] : S, dhi = quartic_d(c, hi);
        if ((dlo > 0) != (dhi > 0) && hi > lo)
            crit[n++] = bisect(c, 1, lo, hi);
        lo = hi;
        dlo = dhi;
    }
    return n;
}

/* The first s in [0, S] where the quartic c comes down from > 0 to <= 0
 * (two balls come into contact), INFINITY if none: on the monotone
 * pieces between its critical points, the first that starts above 0 and
 * ends at or below it holds it, found by bisection (the first double at
 * contact). */
static double quartic_first_down(const double c[5], double S)
{
    double crit[3];
    int n = quartic_crit(c, S, crit);
    double lo = 0, flo = c[0];
    for (int k = 0; k <= n; k++) {
        double hi = k < n ? crit[k] : S, fhi = quartic(c, hi);
        if (flo > 0 && fhi <= 0)
            return bisect(c, 0, lo, hi);
        lo = hi;
        flo = fhi;
    }
    return INFINITY;
}

/*
 * Rolling friction: from the later own time tr, ball i at P_i + v_i k_i(s)
 * (k_i = s - A s^2 / 2|v_i| until it stops at S_i = |v_i| / A). While both
 * roll, D(s) = D0 + V s + W s^2 with V = v_j - v_i and W = -(A/2)(u_j - u_i)
 * (u the unit velocities), so |D|^2 - sigma^2 is a quartic, solved on
 * [0, min S] by quartic_first_down; once one has stopped the other rolls
 * along a straight line, |D1 + u phi|^2 = sigma^2 is a quadratic in the
 * distance phi, turned into time as path_time does. Touching and
 * approaching (as pair_time judges it): at once.
 */
static double pair_time_rolling(const struct event_in *ev, const struct event_ball *p,
                                const struct event_ball *q)
{
    double tr = p->tb > q->tb ? p->tb : q->tb, A = ev->fc, sig = p->r + q->r;
    double xi, yi, vxi, vyi, xj, yj, vxj, vyj;
    ev_ball_at(ev, p, tr, &xi, &yi, &vxi, &vyi);
    ev_ball_at(ev, q, tr, &xj, &yj, &vxj, &vyj);
    double wi = sqrt(vxi * vxi + vyi * vyi), wj = sqrt(vxj * vxj + vyj * vyj);
    double dx = xj - xi, dy = yj - yi, dd = dx * dx + dy * dy;
    /* out of reach: the two stopping distances do not close the gap */
    double gap = sqrt(dd) - sig, reach = (wi * wi + wj * wj) / (2 * A);
    if (!(gap <= reach * (1 + 1e-12) + 1e-300))
        return INFINITY;
    /* touching or overlapping, and approaching: at once */
    if (dd - sig * sig <= 0 && straight_root(dx, dy, vxj - vxi, vyj - vyi, sig) <= 0)
        return tr > ev->t ? tr : ev->t;
    double uxi = wi > 0 ? vxi / wi : 0, uyi = wi > 0 ? vyi / wi : 0;
    double uxj = wj > 0 ? vxj / wj : 0, uyj = wj > 0 ? vyj / wj : 0;
    double Si = wi / A, Sj = wj / A, S1 = Si < Sj ? Si : Sj;
    double s = INFINITY;
    if (S1 > 0) {
        double Vx = vxj - vxi, Vy = vyj - vyi;
        double Wx = -0.5 * A * (uxj - uxi), Wy = -0.5 * A * (uyj - uyi);
        double c[5] = {dd - sig * sig, 2 * (dx * Vx + dy * Vy),
                       Vx * Vx + Vy * Vy + 2 * (dx * Wx + dy * Wy), 2 * (Vx * Wx + Vy * Wy),
                       Wx * Wx + Wy * Wy};
        if (c[0] <= 0) /* touching and leaving: only a later contact counts */
            c[0] = 0;
        s = quartic_first_down(c, S1);
    }
    if (s == INFINITY && Si != Sj) {
        /* one has stopped at S1; the other rolls on from there */
        int jm = Sj > Si; /* j moves on */
        double ki = S1 >= Si ? 0.5 * Si : S1 - A * S1 * S1 / (2 * wi);
        double kj = S1 >= Sj ? 0.5 * Sj : S1 - A * S1 * S1 / (2 * wj);
        if (wi == 0)
            ki = 0;
        if (wj == 0)
            kj = 0;
        double Dx = (xj + kj * vxj) - (xi + ki * vxi), Dy = (yj + kj * vyj) - (yi + ki * vyi);
        double ux = jm ? uxj : -uxi, uy = jm ? uyj : -uyi; /* D's direction of change */
        double w1 = (jm ? wj : wi) - A * S1;                /* its speed then */
        double b = Dx * ux + Dy * uy, cc = Dx * Dx + Dy * Dy - sig * sig;
        if (b < 0 && b * b > EVENT_APPROACH * EVENT_APPROACH * (Dx * Dx + Dy * Dy)) {
            double disc = b * b - cc;
            if (disc >= 0) {
                double phi = cc / (-b + sqrt(disc));
                if (phi < 0)
                    phi = 0;
                /* w1 tau - A tau^2 / 2 = phi, without cancellation */
                double x = 2 * A * phi / (w1 * w1);
                if (w1 > 0 && x <= 1)
                    s = S1 + 2 * phi / (w1 * (1 + sqrt(1 - x)));
            }
        }
    }
    double t = tr + s;
    return t > ev->t ? t : ev->t;
}

/* pair_time with a field or friction: both balls to the later own time
 * tr; in a field (both fall alike) and under linear drag (both slow by
 * the same factor) the relative motion from there is straight in time or
 * in the drag's path factor u = (1 - e^(-c s)) / c, so the pair's root is
 * pair_time's, turned into time for drag; rolling friction is
 * pair_time_rolling. */
double ev_pair_time_general(const struct event_in *ev, const struct event_ball *p,
                            const struct event_ball *q)
{
    if (ev->fric == SIM_FRICTION_ROLLING)
        return pair_time_rolling(ev, p, q);
    double tr = p->tb > q->tb ? p->tb : q->tb;
    double xi, yi, vxi, vyi, xj, yj, vxj, vyj;
    ev_ball_at(ev, p, tr, &xi, &yi, &vxi, &vyi);
    ev_ball_at(ev, q, tr, &xj, &yj, &vxj, &vyj);
    double s = straight_root(xj - xi, yj - yi, vxj - vxi, vyj - vyi, p->r + q->r);
    if (s < 0)
        s = 0;
    if (ev->fric == SIM_FRICTION_LINEAR && s > 0) {
        double cu = ev->fc * s;
        s = cu < 1 ? -log1p(-cu) / ev->fc : INFINITY;
    }
    double t = tr + s;
    return t > ev->t ? t : ev->t;
}

/* How long after its own time ball @p a leaves the circle of radius cen_h
 * around the centre of its list @p l: |D + sV| = h with D its offset from
 * the centre at its own time (which may be before the list, outside the
 * circle), the later root of vv s^2 + 2 b s + c = 0, written as
 * c / (-b - sqrt(b^2 - vv c)) when b > 0 to avoid cancellation; 0 when
 * that is past (out by rounding). Straight paths only: lists are not
 * chosen in a field or with friction. */
double ev_nl_leave(const struct event_in *ev, const struct event_ball *a,
                   const struct event_nlist *l)
{
    double dx = a->x - l->cx, dy = a->y - l->cy, vx = a->vx, vy = a->vy;
    double vv = vx * vx + vy * vy;
    if (!(vv > 0))
        return INFINITY;
    double h = ev->cen_h;
    double b = dx * vx + dy * vy, c = dx * dx + dy * dy - h * h;
    double disc = b * b - vv * c;
    if (!(disc > 0))
        disc = 0;
    double s = b > 0 ? c / (-b - sqrt(disc)) : (-b + sqrt(disc)) / vv;
    return s > 0 ? s : 0;
}
