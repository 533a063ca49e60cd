/*
 * contact.c - contact laws (Hooke with dashpot, exponential), spring and
 * hard walls (rectangle, circle), and the exponential integral.
 */
#include "contact.h"

#include <math.h>
#include <string.h>

/* ===== The exponential integral ===== */

/*
 * E1 below x = 1 from its series
 *     E1(x) = -gamma - ln x - sum_{k>=1} (-x)^k / (k k!),
 * above from the continued fraction
 *     E1(x) = exp(-x) / (x + 1 - 1/(x + 3 - 4/(x + 5 - 9/(x + 7 - ...))))
 * evaluated forward (modified Lentz). e1_log gives ln E1(x) without the
 * underflow of exp(-x) at large x.
 */
static double e1_series(double x)
{
    double sum = 0, term = 1;
    for (int k = 1; k < 100; k++) {
        term *= -x / k;
        double add = term / k;
        sum += add;
        if (fabs(add) < 1e-17 * fabs(sum))
            break;
    }
    return -CONTACT_EULER_GAMMA - log(x) - sum;
}

/* exp(x) E1(x) for x > 1. */
static double e1_cf_scaled(double x)
{
    const double tiny = 1e-300;
    double b = x + 1, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 1000; i++) {
        double an = -(double)i * i;
        b += 2;
        d = 1 / (an * d + b);
        c = b + an / c;
        double del = c * d;
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return h;
}

double contact_e1(double x)
{
    if (!(x > 0))
        return INFINITY;
    return x <= 1 ? e1_series(x) : e1_cf_scaled(x) * exp(-x);
}

static double e1_log(double x)
{
    return x <= 1 ? log(e1_series(x)) : log(e1_cf_scaled(x)) - x;
}

/*
 * Newton's method on h(x) = ln E1(x) - ln y, whose derivative is
 * h'(x) = -exp(-x)/(x E1(x)), kept inside a bracket [lo, hi] (E1 falls
 * monotonically): a step that leaves the bracket bisects it instead.
 */
double contact_e1_inv(double y)
{
    if (!(y > 0))
        return INFINITY;
    if (y > 40) /* x < 1e-18: E1(x) = -gamma - ln x to the last bit */
        return exp(-CONTACT_EULER_GAMMA - y);
    const double ly = log(y);
    double lo = 0, hi = 1;
    while (e1_log(hi) > ly)
        hi *= 2;
    double x = y > 1 ? exp(-CONTACT_EULER_GAMMA - y) : -ly;
    if (!(x > lo && x < hi))
        x = 0.5 * (lo + hi);
    for (int it = 0; it < 200; it++) {
        double le = e1_log(x);
        double h = le - ly;
        if (h > 0)
            lo = x; /* E1(x) too big: x too small */
        else
            hi = x;
        double dh = -exp(-x - le) / x;
        double nx = x - h / dh;
        if (!(nx > lo && nx < hi))
            nx = 0.5 * (lo + hi);
        if (fabs(nx - x) <= 1e-15 * x) {
            x = nx;
            break;
        }
        x = nx;
    }
    return x;
}

/* ===== Contact laws ===== */

double contact_zeta(double e)
{
    if (e >= 1)
        return 0;
    double l = log(e);
    return -l / sqrt(SIM_PI * SIM_PI + l * l);
}

void contact_law_init(struct contact_law *law, const struct sim_params *p)
{
    memset(law, 0, sizeof *law);
    law->kind = p->contact;
    law->k = p->k;
    law->eps = p->exp_eps;
    law->kappa = p->exp_kappa;
    switch (p->contact) {
    case SIM_CONTACT_EXP:
        law->range = CONTACT_EXP_CUTOFF * p->exp_eps;
        law->e1_cut = contact_e1(CONTACT_EXP_CUTOFF);
        break;
    case SIM_CONTACT_NONE:
        law->range = -INFINITY;
        break;
    default:
        law->range = 0;
        /* restitution 0 (sticky, sim.c) has no pair law: walls elastic */
        law->zeta = p->restitution > 0 ? contact_zeta(p->restitution) : 0;
        break;
    }
}

int contact_eval(const struct contact_law *law, double gap, double mu, double vn,
                 struct contact_out *out)
{
    memset(out, 0, sizeof *out);
    if (!(gap < law->range))
        return 0;
    if (law->kind == SIM_CONTACT_EXP) {
        double g = gap, gmin = CONTACT_EXP_GMIN * law->eps;
        if (!(g >= gmin)) {
            g = gmin;
            out->clamped = 1;
        }
        double u = g / law->eps;
        out->f = mu * law->kappa * exp(-u) / g;
        out->pe = mu * law->kappa * (contact_e1(u) - law->e1_cut);
        out->touching = gap < law->eps;
        return 1;
    }
    double s = -gap;
    out->touching = 1;
    out->f = law->k * s;
    out->pe = 0.5 * law->k * s * s;
    if (law->zeta > 0) {
        double c = 2 * law->zeta * sqrt(law->k * mu);
        out->f -= c * vn;
        out->power = c * vn * vn;
    }
    return 1;
}

static void add_out(struct contact_sum *sum, const struct contact_out *o)
{
    sum->pe += o->pe;
    sum->power += o->power;
    sum->clamps += o->clamped;
}

/* ===== Spring walls ===== */

double contact_wall_axis(const struct contact_law *law, double q, double v,
                         double r, double m, double len, unsigned sides,
                         struct contact_sum *sum)
{
    struct contact_out o;
    double f = 0;
    /* the low wall at 0: inward normal +1 */
    if ((sides & 1) && contact_eval(law, q - r, m, v, &o)) {
        f += o.f;
        add_out(sum, &o);
    }
    /* the high wall at len: inward normal -1 */
    /* len - (q + r): minus the Hooke path's penetration, to the bit */
    if ((sides & 2) && contact_eval(law, len - (q + r), m, -v, &o)) {
        f -= o.f;
        add_out(sum, &o);
    }
    return f;
}

unsigned contact_walls_of(unsigned open, int axis)
{
    unsigned lo = axis ? SIM_SIDE_BOTTOM : SIM_SIDE_LEFT;
    unsigned hi = axis ? SIM_SIDE_TOP : SIM_SIDE_RIGHT;
    return (open & lo ? 0u : 1u) | (open & hi ? 0u : 2u);
}

void contact_wall_circle(const struct contact_law *law, double x, double y,
                         double vx, double vy, double r, double m, double cx,
                         double cy, double R, double *fx, double *fy,
                         struct contact_sum *sum)
{
    double dx = x - cx, dy = y - cy;
    double dist = sqrt(dx * dx + dy * dy);
    if (dist == 0)
        return;
    double nx = -dx / dist, ny = -dy / dist; /* inward */
    struct contact_out o;
    if (contact_eval(law, R - dist - r, m, vx * nx + vy * ny, &o)) {
        *fx += o.f * nx;
        *fy += o.f * ny;
        add_out(sum, &o);
    }
}

/* ===== Friction ===== */

void contact_friction_init(struct contact_friction *f, const struct sim_params *p)
{
    memset(f, 0, sizeof *f);
    f->kind = p->friction;
    f->c = p->friction_c;
    f->dt = p->dt;
    f->factor = f->kind == SIM_FRICTION_LINEAR ? exp(-f->c * f->dt) : 1;
    f->dv = f->c * f->dt;
}

double contact_friction_apply(const struct contact_friction *f, double *vx,
                              double *vy)
{
    double u = *vx, v = *vy, v2 = u * u + v * v;
    if (!(v2 > 0)) /* at rest (or not finite): nothing to take out */
        return 0;
    double scale;
    switch (f->kind) {
    case SIM_FRICTION_DRAG:
        scale = 1 / (1 + f->c * sqrt(v2) * f->dt);
        break;
    case SIM_FRICTION_LINEAR:
        scale = f->factor;
        break;
    case SIM_FRICTION_ROLLING: {
        double sp = sqrt(v2), left = sp - f->dv;
        scale = left > 0 ? left / sp : 0;
        break;
    }
    default:
        return 0;
    }
    u *= scale;
    v *= scale;
    *vx = u;
    *vy = v;
    return 0.5 * (v2 - (u * u + v * v));
}

/* ===== Hard walls ===== */

double contact_reflect_axis(double *q, double *v, double lo, double hi, double e)
{
    double lost = 0;
    for (int it = 0; it < 64 && (*q > hi || *q < lo); it++) {
        lost += 0.5 * (1 - e * e) * *v * *v;
        if (*q > hi)
            *q = hi - e * (*q - hi);
        else
            *q = lo + e * (lo - *q);
        *v = -e * *v;
    }
    /* A path longer than 64 table widths: stop at the wall. */
    if (*q > hi)
        *q = hi;
    if (*q < lo)
        *q = lo;
    return lost;
}

double contact_circle_crossing(double px, double py, double qx, double qy,
                               double cx, double cy, double rho)
{
    /* |P + alpha D|^2 = rho^2 with P = p - c, D = q - p:
     * A alpha^2 + 2 B alpha + C = 0, A = D.D, B = P.D, C = P.P - rho^2 <= 0.
     * The root >= 0 is (-B + s)/A with s = sqrt(B^2 - A C); for B > 0 the
     * same root as -C/(B + s), which does not cancel. */
    double Px = px - cx, Py = py - cy, Dx = qx - px, Dy = qy - py;
    double A = Dx * Dx + Dy * Dy, B = Px * Dx + Py * Dy;
    double C = Px * Px + Py * Py - rho * rho;
    if (!(C <= 0) || !(A > 0))
        return 0;
    double s = sqrt(B * B - A * C);
    double alpha = B > 0 ? -C / (B + s) : (s - B) / A;
    if (alpha < 0)
        alpha = 0;
    if (alpha > 1)
        alpha = 1;
    return alpha;
}

/* Whether (x, y) is in the disc, computed as the scene parser does. */
static int in_disc(double x, double y, double cx, double cy, double rho)
{
    double dx = x - cx, dy = y - cy;
    return dx * dx + dy * dy <= rho * rho;
}

double contact_reflect_circle(double px, double py, double *qx, double *qy,
                              double *vx, double *vy, double cx, double cy,
                              double rho, double e)
{
    double lost = 0;
    if (!(rho > 0)) { /* the ball fills the table: it sits at the centre */
        lost = 0.5 * (*vx * *vx + *vy * *vy);
        *qx = cx;
        *qy = cy;
        *vx = *vy = 0;
        return lost;
    }
    for (int it = 0; it < 64 && !in_disc(*qx, *qy, cx, cy, rho); it++) {
        double alpha = contact_circle_crossing(px, py, *qx, *qy, cx, cy, rho);
        double ax = px + alpha * (*qx - px), ay = py + alpha * (*qy - py);
        double rx = ax - cx, ry = ay - cy, ra = sqrt(rx * rx + ry * ry);
        if (ra == 0)
            break;
        double nx = -rx / ra, ny = -ry / ra;
        /* the rest of the path and the velocity, mirrored about the tangent */
        double wx = *qx - ax, wy = *qy - ay;
        double wn = wx * nx + wy * ny;
        if (wn < 0) {
            wx -= (1 + e) * wn * nx;
            wy -= (1 + e) * wn * ny;
        }
        double vn = *vx * nx + *vy * ny;
        if (vn < 0) {
            lost += 0.5 * (1 - e * e) * vn * vn;
            *vx -= (1 + e) * vn * nx;
            *vy -= (1 + e) * vn * ny;
        }
        *qx = ax + wx;
        *qy = ay + wy;
        px = ax;
        py = ay;
        if (alpha == 0 && wn >= 0)
            break; /* p itself was outside, moving in: nothing to mirror */
    }
    /* Rounding (or a start outside) can leave q a hair outside: pull it in
     * along the radius until the parser's own test holds. */
    for (int it = 0; it < 64 && !in_disc(*qx, *qy, cx, cy, rho); it++) {
        double rx = *qx - cx, ry = *qy - cy, rq = sqrt(rx * rx + ry * ry);
        double f = rho / rq * (1 - 1e-15 * (it + 1));
        *qx = cx + rx * f;
        *qy = cy + ry * f;
    }
    return lost;
}
