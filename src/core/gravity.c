/*
 * gravity.c - mutual gravity: the exact sum, in the published order.
 */
#include "gravity.h"

#include <math.h>
#include <stdlib.h>

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

/* ===== Barnes-Hut ===== */

enum { BH_MAX_DEPTH = 48 };

/* A square cell: its centre and half side, the mass and mass moment of the
 * bodies in it, its four children (-1: none) or, for a leaf, the list of
 * its bodies through next[] (-1 ends it). */
struct bh_node {
    double cx, cy, half;
    double m, mx, my;
    long child[4];
    long head;  /* first body of a leaf; -1 for an internal cell */
    long count; /* bodies in the cell */
};

struct bh_tree {
    struct bh_node *node;
    size_t used, cap;
    long *next;
};

static long bh_new(struct bh_tree *t, double cx, double cy, double half)
{
    if (t->used == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        struct bh_node *nn = realloc(t->node, cap * sizeof *nn);
        if (!nn)
            return -1;
        t->node = nn;
        t->cap = cap;
    }
    struct bh_node *c = &t->node[t->used];
    c->cx = cx;
    c->cy = cy;
    c->half = half;
    c->m = c->mx = c->my = 0;
    c->child[0] = c->child[1] = c->child[2] = c->child[3] = -1;
    c->head = -1;
    c->count = 0;
    return (long)t->used++;
}

static int bh_quadrant(const struct bh_node *c, double x, double y)
{
    return (x >= c->cx) + 2 * (y >= c->cy);
}

/* The child of cell @p at in quadrant q, made when missing. */
static long bh_child(struct bh_tree *t, long at, int q)
{
    long c = t->node[at].child[q];
    if (c >= 0)
        return c;
    double h = 0.5 * t->node[at].half;
    double cx = t->node[at].cx + (q & 1 ? h : -h);
    double cy = t->node[at].cy + (q & 2 ? h : -h);
    c = bh_new(t, cx, cy, h);
    if (c >= 0)
        t->node[at].child[q] = c;
    return c;
}

static void bh_add_mass(struct bh_node *c, double x, double y, double m)
{
    c->m += m;
    c->mx += m * x;
    c->my += m * y;
    c->count++;
}

static int bh_insert(struct bh_tree *t, long b, const double *x, const double *y,
                     const double *m)
{
    long at = 0;
    for (int depth = 0;; depth++) {
        bh_add_mass(&t->node[at], x[b], y[b], m[b]);
        struct bh_node *c = &t->node[at];
        int leaf = c->child[0] < 0 && c->child[1] < 0 && c->child[2] < 0 &&
                   c->child[3] < 0;
        if (leaf && (c->count == 1 || depth == BH_MAX_DEPTH)) {
            t->next[b] = c->head;
            c->head = b;
            return 0;
        }
        if (leaf) {
            /* Split: the one body already here moves to its child. */
            long e = c->head;
            c->head = -1;
            long ch = bh_child(t, at, bh_quadrant(&t->node[at], x[e], y[e]));
            if (ch < 0)
                return -1;
            bh_add_mass(&t->node[ch], x[e], y[e], m[e]);
            t->next[e] = -1;
            t->node[ch].head = e;
        }
        long ch = bh_child(t, at, bh_quadrant(&t->node[at], x[b], y[b]));
        if (ch < 0)
            return -1;
        at = ch;
    }
}

/* The force of a point mass M at (px, py) on body i, in the order and form
 * of gravity_forces. */
static void bh_term(double xi, double yi, double mi, double px, double py,
                    double M, double G, double s2, double *fxi, double *fyi)
{
    double dx = px - xi, dy = py - yi;
    double r = sqrt(dx * dx + dy * dy);
    if (r == 0)
        return;
    double f;
    if (s2 == 0) {
        f = G * mi * M / (r * r);
    } else {
        double q2 = r * r + s2;
        f = G * mi * M * r / (q2 * sqrt(q2));
    }
    *fxi += f * dx / r;
    *fyi += f * dy / r;
}

int gravity_bh_forces(size_t n, const double *x, const double *y, const double *m,
                      double G, double soft, double theta, double *fx, double *fy)
{
    if (G == 0 || n == 0)
        return 0;
    if (!(theta > 0 && theta <= GRAVITY_THETA_MAX))
        return -1;
    double x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
    for (size_t i = 0; i < n; i++) {
        if (m[i] < 0)
            return -1;
        x0 = fmin(x0, x[i]);
        x1 = fmax(x1, x[i]);
        y0 = fmin(y0, y[i]);
        y1 = fmax(y1, y[i]);
    }
    struct bh_tree t = {0};
    long *stack = NULL;
    int rc = -1;
    t.next = malloc(n * sizeof *t.next);
    /* the stack of cells to visit: at most 3 per level plus one */
    stack = malloc((4 * BH_MAX_DEPTH + 8) * sizeof *stack);
    double half = 0.5 * fmax(x1 - x0, y1 - y0);
    half = half > 0 ? half * (1 + 1e-12) : 1;
    if (!t.next || !stack || bh_new(&t, 0.5 * (x0 + x1), 0.5 * (y0 + y1), half) < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (bh_insert(&t, (long)i, x, y, m))
            goto out;
    const double s2 = soft * soft;
    for (size_t i = 0; i < n; i++) {
        double xi = x[i], yi = y[i], mi = m[i], fxi = 0, fyi = 0;
        long sp = 0;
        stack[sp++] = 0;
        while (sp > 0) {
            const struct bh_node *c = &t.node[stack[--sp]];
            if (c->count == 0)
                continue;
            if (c->head >= 0 || (c->child[0] < 0 && c->child[1] < 0 &&
                                 c->child[2] < 0 && c->child[3] < 0)) {
                for (long j = c->head; j >= 0; j = t.next[j])
                    if (j != (long)i)
                        bh_term(xi, yi, mi, x[j], y[j], m[j], G, s2, &fxi, &fyi);
                continue;
            }
            int inside = fabs(xi - c->cx) <= c->half && fabs(yi - c->cy) <= c->half;
            if (!inside && c->m > 0) {
                /* Accept when d > side/theta + delta, delta the offset of
                 * the centre of mass from the cell's centre: the plain
                 * side < theta d errs badly for a body just outside a cell
                 * whose mass sits on its far side. */
                double px = c->mx / c->m, py = c->my / c->m;
                double dx = px - xi, dy = py - yi, side = 2 * c->half;
                double ox = px - c->cx, oy = py - c->cy;
                double lim = side / theta + sqrt(ox * ox + oy * oy);
                if (lim * lim < dx * dx + dy * dy) {
                    bh_term(xi, yi, mi, px, py, c->m, G, s2, &fxi, &fyi);
                    continue;
                }
            }
            for (int q = 0; q < 4; q++)
                if (c->child[q] >= 0)
                    stack[sp++] = c->child[q];
        }
        fx[i] += fxi;
        fy[i] += fyi;
    }
    rc = 0;
out:
    free(t.node);
    free(t.next);
    free(stack);
    return rc;
}

int gravity_default(size_t n, const double *m, const double *r, double k,
                    double *G, double *soft)
{
    *G = 0;
    *soft = 0;
    if (n == 0)
        return -1;
    double sm = 0, sr = 0;
    for (size_t i = 0; i < n; i++) {
        sm += m[i];
        sr += r[i];
    }
    double mm = sm / (double)n, rr = sr / (double)n;
    /* 5^(3/2) / 200: (4 + 1)^(3/2) r^3 from the softened distance over
     * 2 r from the numerator, times 1/100 (a tenth of k r / 10). */
    double g = sqrt(125.0) / 200 * k * rr * rr * rr / (mm * mm);
    if (!isfinite(g) || !(g > 0))
        return -1;
    *G = g;
    *soft = rr;
    return 0;
}
