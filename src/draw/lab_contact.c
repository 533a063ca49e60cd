/*
 * lab_contact.c - the classroom lab's contacts: one ball's contacts, the
 * net forces, the touching pairs and the search for a contact event (see
 * lab.h).
 */
#include "lab.h"

#include "contact.h"
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ===== Contacts of one ball ===== */

/* One pair as sim.c evaluates it: slots i < j, (dx, dy) = x_j - x_i, d
 * the distance plus SIM_DIST_EPS. Fills the contact as seen from ball
 * slot @p me (one of i, j). @return 1 when the pair acts. */
static int pair_contact(const struct sim *s, const struct contact_law *law,
                        size_t me, size_t other, struct lab_contact *c)
{
    size_t i = me < other ? me : other, j = me < other ? other : me;
    double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
    double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
    /* the normal from me to the other */
    double sg = me == i ? 1 : -1;
    memset(c, 0, sizeof *c);
    c->slot = other;
    c->d = d;
    c->nx = sg * dx / d;
    c->ny = sg * dy / d;
    double f; /* the force along (dx, dy)/d on j, > 0 repulsive */
    if (sim_hooke_rect(&s->p)) {
        /* hooke_forces: ov = r_i + r_j - d, f = ov k / d times (dx, dy) */
        double ov = s->r[i] + s->r[j] - d;
        if (!(0 < ov))
            return 0;
        double fd = ov * s->p.k / d;
        c->s = ov;
        c->fs = s->p.k * ov;
        c->f = c->fs;
        c->pe = 0.5 * s->p.k * ov * ov;
        c->touching = 1;
        c->vn = ((s->vx[j] - s->vx[i]) * dx + (s->vy[j] - s->vy[i]) * dy) / d;
        f = fd;
    } else if (s->p.restitution == 0 && s->p.contact != SIM_CONTACT_NONE) {
        /* sticky: no pair law (sim.c's stick), an impulse when they meet;
         * touching, no force (issue 42.5: it showed k s 2.5) */
        double ov = s->r[i] + s->r[j] - d;
        if (!(0 < ov))
            return 0;
        c->s = ov;
        c->touching = 1;
        c->stuck = 1;
        c->vn = ((s->vx[j] - s->vx[i]) * dx + (s->vy[j] - s->vy[i]) * dy) / d;
        f = 0;
    } else {
        /* general_pair: the law at gap d - (r_i + r_j) */
        double gap = d - (s->r[i] + s->r[j]);
        if (!(gap < law->range))
            return 0;
        double mu = s->m[i] * s->m[j] / (s->m[i] + s->m[j]);
        double vn = ((s->vx[j] - s->vx[i]) * dx + (s->vy[j] - s->vy[i]) * dy) / d;
        struct contact_out o;
        contact_eval(law, gap, mu, vn, &o);
        c->s = -gap;
        c->vn = vn;
        c->f = o.f;
        c->pe = o.pe;
        c->touching = o.touching;
        if (law->kind == SIM_CONTACT_HOOKE) {
            c->fs = law->k * -gap;
            c->fd = o.f - c->fs;
            if (law->zeta > 0)
                c->fd = -2 * law->zeta * sqrt(law->k * mu) * vn;
        } else {
            c->fs = o.f;
        }
        f = o.f / d;
    }
    /* The term sim adds: +f dx on j, -f dx on i. */
    if (me == j) {
        c->fx = f * dx;
        c->fy = f * dy;
    } else {
        c->fx = -(f * dx);
        c->fy = -(f * dy);
    }
    return 1;
}

/* A wall contact of a law: penetration p = -gap, inward normal (nx, ny)
 * into the table; the contact's normal points out, into the wall. */
static void wall_contact(struct lab_contact *c, int side, double gap,
                         double nx, double ny, double v_in,
                         const struct contact_out *o, size_t nslot)
{
    memset(c, 0, sizeof *c);
    c->partner = LAB_WALL + (size_t)side;
    c->slot = nslot;
    c->s = -gap;
    c->nx = -nx;
    c->ny = -ny;
    c->vn = v_in; /* the wall at rest minus the ball's speed outward */
    c->f = o->f;
    c->pe = o->pe;
    c->touching = o->touching;
}

size_t lab_contacts(const struct sim *s, size_t ball, struct lab_contact *out,
                    size_t cap)
{
    size_t me = sim_slot(s, ball), cnt = 0;
    struct lab_contact c;
    struct contact_law law;
    contact_law_init(&law, &s->p);
    const double x = s->x[me], y = s->y[me], r = s->r[me], m = s->m[me];
    const double vx = s->vx[me], vy = s->vy[me], k = s->p.k;
#define EMIT()                                                               \
    do {                                                                     \
        if (cnt < cap)                                                       \
            out[cnt] = c;                                                    \
        cnt++;                                                               \
    } while (0)
    /* Spring walls. */
    if (sim_hooke_rect(&s->p)) {
        /* wall_force: lo = r - q pushes +k lo, hi = q + r - len pushes -k hi */
        const double q[4] = {x, x, y, y}, len[4] = {0, s->p.w, 0, s->p.h};
        const double v[4] = {vx, vx, vy, vy};
        for (int side = 0; side < 4; side++) {
            double pen = side & 1 ? q[side] + r - len[side] : r - q[side];
            if (!(0 < pen))
                continue;
            double sg = side & 1 ? -1 : 1; /* inward normal along the axis */
            struct contact_out o = {0};
            o.f = pen * k;
            o.pe = 0.5 * k * pen * pen;
            o.touching = 1;
            wall_contact(&c, side, -pen, side < 2 ? sg : 0, side < 2 ? 0 : sg,
                         sg * v[side], &o, s->n);
            c.fs = o.f;
            c.fx = side < 2 ? sg * o.f : 0;
            c.fy = side < 2 ? 0 : sg * o.f;
            EMIT();
        }
    } else if (s->p.walls == SIM_WALLS_SPRING && s->p.shape == SIM_RECT) {
        /* contact_wall_axis: gap q - r at the low wall, len - (q + r) at the high */
        const double q[4] = {x, x, y, y}, len[4] = {0, s->p.w, 0, s->p.h};
        const double v[4] = {vx, vx, vy, vy};
        /* the sides that have a wall (contact_walls_of) */
        const unsigned have[4] = {contact_walls_of(s->p.open, 0) & 1,
                                  contact_walls_of(s->p.open, 0) & 2,
                                  contact_walls_of(s->p.open, 1) & 1,
                                  contact_walls_of(s->p.open, 1) & 2};
        for (int side = 0; side < 4; side++) {
            if (!have[side])
                continue;
            double sg = side & 1 ? -1 : 1;
            double gap = side & 1 ? len[side] - (q[side] + r) : q[side] - r;
            struct contact_out o;
            if (!contact_eval(&law, gap, m, sg * v[side], &o))
                continue;
            wall_contact(&c, side, gap, side < 2 ? sg : 0, side < 2 ? 0 : sg,
                         sg * v[side], &o, s->n);
            if (law.kind == SIM_CONTACT_HOOKE) {
                c.fs = k * -gap;
                c.fd = law.zeta > 0 ? -2 * law.zeta * sqrt(k * m) * sg * v[side] : 0;
            } else {
                c.fs = o.f;
            }
            c.fx = side < 2 ? (side & 1 ? -o.f : o.f) : 0;
            c.fy = side < 2 ? 0 : (side & 1 ? -o.f : o.f);
            EMIT();
        }
    } else if (s->p.walls == SIM_WALLS_SPRING && s->p.shape == SIM_CIRCLE) {
        /* contact_wall_circle */
        double R = 0.5 * s->p.w;
        double dx = x - R, dy = y - R, dist = sqrt(dx * dx + dy * dy);
        struct contact_out o;
        if (dist != 0) {
            double nx = -dx / dist, ny = -dy / dist;
            double vin = vx * nx + vy * ny;
            if (contact_eval(&law, R - dist - r, m, vin, &o)) {
                wall_contact(&c, LAB_WALL_RIM, R - dist - r, nx, ny, vin, &o, s->n);
                if (law.kind == SIM_CONTACT_HOOKE) {
                    c.fs = k * -(R - dist - r);
                    c.fd = law.zeta > 0 ? -2 * law.zeta * sqrt(k * m) * vin : 0;
                } else {
                    c.fs = o.f;
                }
                c.fx = o.f * nx;
                c.fy = o.f * ny;
                EMIT();
            }
        }
    }
    /* Balls, collected then put in slot order. */
    size_t first = cnt;
    if (s->p.contact != SIM_CONTACT_NONE || sim_hooke_rect(&s->p)) {
        for (size_t b = 0; b < s->n; b++) {
            if (b == ball)
                continue;
            size_t j = sim_slot(s, b);
            if (!pair_contact(s, &law, me, j, &c))
                continue;
            c.partner = b;
            EMIT();
        }
    }
#undef EMIT
    /* insertion sort by slot of what was written (few contacts) */
    size_t hi = cnt < cap ? cnt : cap;
    for (size_t a = first + 1; a < hi; a++) {
        struct lab_contact t = out[a];
        size_t z = a;
        while (z > first && out[z - 1].slot > t.slot) {
            out[z] = out[z - 1];
            z--;
        }
        out[z] = t;
    }
    return cnt;
}

int lab_forces(const struct sim *s, double *fx, double *fy)
{
    struct sim t;
    if (sim_init(&t, s->n, &s->p))
        return -1;
    sim_copy(&t, s);
    if (sim_forces(&t) != SIM_OK) {
        sim_free(&t);
        return -1;
    }
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(&t, b);
        fx[b] = t.fx[i];
        fy[b] = t.fy[i];
    }
    sim_free(&t);
    return 0;
}

/* ===== Contact events ===== */

void lab_pairs_free(struct lab_pairs *ps)
{
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}

static int pairs_add(struct lab_pairs *ps, uint32_t a, uint32_t b)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 64;
        struct lab_pair *p = realloc(ps->p, cap * sizeof *p);
        if (!p)
            return -1;
        ps->p = p;
        ps->cap = cap;
    }
    ps->p[ps->n].a = a;
    ps->p[ps->n].b = b;
    ps->n++;
    return 0;
}

static int pair_cmp(const void *pa, const void *pb)
{
    const struct lab_pair *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* Whether scene balls with slots i, j touch as sim_diag counts it. */
static int touching(const struct sim *s, const struct contact_law *law,
                    size_t si, size_t sj)
{
    size_t i = si < sj ? si : sj, j = si < sj ? sj : si;
    double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
    double d = sqrt(dx * dx + dy * dy) + SIM_DIST_EPS;
    if (sim_hooke_rect(&s->p))
        return 0 < s->r[i] + s->r[j] - d;
    if (law->kind == SIM_CONTACT_NONE)
        return 0;
    double gap = d - (s->r[i] + s->r[j]);
    if (!(gap < law->range))
        return 0;
    struct contact_out o;
    double mu = s->m[i] * s->m[j] / (s->m[i] + s->m[j]);
    contact_eval(law, gap, mu, 0, &o);
    return o.touching;
}

/* Whether a spring wall at @p gap from a ball touches it (as the law
 * counts a touching pair). */
static int wall_touch(const struct sim *s, const struct contact_law *law,
                      double gap)
{
    if (sim_hooke_rect(&s->p))
        return gap < 0;
    struct contact_out o;
    return contact_eval(law, gap, 1, 0, &o) && o.touching;
}

int lab_touching(const struct sim *s, struct lab_pairs *ps)
{
    ps->n = 0;
    const size_t n = s->n;
    struct contact_law law;
    contact_law_init(&law, &s->p);
    /* how far beyond touching a pair may count: the exp law's eps */
    double reach = !sim_hooke_rect(&s->p) && law.kind == SIM_CONTACT_EXP ? law.eps : 0;
    /* scene index of each slot (the inverse of sim_slot) */
    uint32_t *ball_of = malloc((n ? n : 1) * sizeof *ball_of);
    if (!ball_of) {
        lab_pairs_free(ps);
        return -1;
    }
    int rc = 0;
    int walls = sim_hooke_rect(&s->p) || s->p.walls == SIM_WALLS_SPRING;
    for (size_t b = 0; b < n && rc == 0; b++) {
        size_t i = sim_slot(s, b);
        ball_of[i] = (uint32_t)b;
        if (!walls)
            continue;
        if (s->p.shape == SIM_RECT) {
            double x = s->x[i], y = s->y[i], r = s->r[i];
            /* the gaps of contact_wall_axis (penetrations of wall_force) */
            double gap[4] = {x - r, s->p.w - (x + r), y - r, s->p.h - (y + r)};
            if (sim_hooke_rect(&s->p)) {
                gap[0] = -(r - x);
                gap[1] = -(x + r - s->p.w);
                gap[2] = -(r - y);
                gap[3] = -(y + r - s->p.h);
            }
            static const unsigned bit[4] = {SIM_SIDE_LEFT, SIM_SIDE_RIGHT, SIM_SIDE_BOTTOM,
                                            SIM_SIDE_TOP};
            for (int side = 0; side < 4 && rc == 0; side++)
                if (!(s->p.open & bit[side]) && wall_touch(s, &law, gap[side]))
                    rc = pairs_add(ps, (uint32_t)b, (uint32_t)(LAB_WALL + (size_t)side));
        } else if (s->p.shape == SIM_CIRCLE) {
            double R = 0.5 * s->p.w, dx = s->x[i] - R, dy = s->y[i] - R;
            double dist = sqrt(dx * dx + dy * dy);
            if (dist != 0 && wall_touch(s, &law, R - dist - s->r[i]))
                rc = pairs_add(ps, (uint32_t)b, (uint32_t)(LAB_WALL + LAB_WALL_RIM));
        }
    }
    /* The pairs: all of them for a few balls, else those the broad phase
     * lists within reach (a grid of its own: s is not touched). */
    if (rc == 0 && (sim_hooke_rect(&s->p) || law.kind != SIM_CONTACT_NONE)) {
        if (n < SIM_GRID_MIN) {
            for (size_t i = 0; i < n && rc == 0; i++)
                for (size_t j = i + 1; j < n && rc == 0; j++)
                    if (touching(s, &law, i, j)) {
                        uint32_t p = ball_of[i], q = ball_of[j];
                        rc = pairs_add(ps, p < q ? p : q, p < q ? q : p);
                    }
        } else {
            struct grid *g = grid_new(n, s->r, reach, NULL);
            struct grid_balls gb = {s->x, s->y, s->r, s->p.w, s->p.h};
            if (!g || grid_update(g, &gb)) {
                rc = -1;
            } else {
                struct grid_pairs pl = grid_pairs(g);
                for (size_t i = 0; i < n && rc == 0; i++)
                    for (uint32_t e = pl.start[i]; e < pl.start[i + 1] && rc == 0; e++) {
                        size_t j = pl.nbr[e];
                        if (!touching(s, &law, i, j))
                            continue;
                        uint32_t p = ball_of[i], q = ball_of[j];
                        rc = pairs_add(ps, p < q ? p : q, p < q ? q : p);
                    }
            }
            grid_free(g);
        }
    }
    free(ball_of);
    if (rc) {
        lab_pairs_free(ps);
        return -1;
    }
    if (ps->n > 1)
        qsort(ps->p, ps->n, sizeof *ps->p, pair_cmp);
    return 0;
}

int lab_pairs_equal(const struct lab_pairs *a, const struct lab_pairs *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->p[i].a != b->p[i].a || a->p[i].b != b->p[i].b)
            return 0;
    return 1;
}

/* Pairs of @p a not in @p b (both sorted). */
static size_t pairs_minus(const struct lab_pairs *a, const struct lab_pairs *b)
{
    size_t cnt = 0, j = 0;
    for (size_t i = 0; i < a->n; i++) {
        while (j < b->n && pair_cmp(&b->p[j], &a->p[i]) < 0)
            j++;
        if (j == b->n || pair_cmp(&b->p[j], &a->p[i]) != 0)
            cnt++;
    }
    return cnt;
}

int lab_seek_event(const struct sim *now, const struct sim *(*step)(void *ctx),
                   void *ctx, long max_steps, struct lab_event *ev)
{
    memset(ev, 0, sizeof *ev);
    struct lab_pairs start = {0}, cur = {0};
    if (lab_touching(now, &start))
        return -1;
    int rc = 0;
    while (ev->steps < max_steps) {
        const struct sim *s = step(ctx);
        if (!s)
            break;
        ev->steps++;
        if (lab_touching(s, &cur)) {
            rc = -1;
            break;
        }
        if (!lab_pairs_equal(&start, &cur)) {
            ev->found = 1;
            ev->began = pairs_minus(&cur, &start);
            ev->ended = pairs_minus(&start, &cur);
            break;
        }
    }
    lab_pairs_free(&start);
    lab_pairs_free(&cur);
    return rc;
}
