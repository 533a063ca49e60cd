/*
 * event_init.c - the event engine's start-up: the grid or all pairs, the
 * records in cell order, every ball's first events and the checks for
 * overlaps and balls through a wall; what it cannot run; freeing.
 */
#include "event_cells.h"
#include "event_impl.h"
#include "event_queue.h"
#include "event_time.h"
#include "mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* n elements of @p size for the engine's arrays (64-byte aligned, on huge
 * pages where the program asked, see mem.h), or NULL. */
void *ev_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return mem_alloc(n * size);
}

/* As ev_array, for a use @p how (MEM_ZERO, MEM_FLAT: see mem.h). */
void *ev_array_as(size_t n, size_t size, unsigned how)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return mem_alloc_as(n * size, how);
}

const char *event_unsupported(const struct sim_params *p)
{
    if (p->shape == SIM_OPEN)
        return "open space";
    if (p->gravity != 0)
        return "gravity";
    if (p->contact == SIM_CONTACT_EXP)
        return "contact exp";
    if (p->friction == SIM_FRICTION_DRAG)
        return "friction drag (quadratic drag has no closed-form meeting time)";
    if (p->friction && (p->gx != 0 || p->gy != 0))
        return "friction with a field";
    if (p->restitution == 0)
        return "sticky collisions (restitution 0)";
    if (p->line)
        return "1-D mode";
    return NULL;
}

struct event_config event_default_config(void)
{
    struct event_config c = {0};
    c.grid = 1;
    c.allow_overlap = 0;
    c.tc = -1;
    return c;
}

static int overlap(const struct event_in *ev, size_t k, size_t j)
{
    const struct event_ball *a = &ev->b[k], *q = &ev->b[j];
    double dx = q->x - a->x, dy = q->y - a->y;
    double sig = (a->r + q->r) * (1 - EVENT_TOUCH_TOL);
    return dx * dx + dy * dy < sig * sig;
}

/* Pair (k, j) as a candidate for record k's earliest collision. */
static void offer(struct event_in *ev, size_t k, size_t j, double t)
{
    const struct event_ball *a = &ev->b[k], *q = &ev->b[j];
    if (t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)j, q->cnt};
        if (ev_less(ev, (int32_t)k, &e, (int32_t)k, &ev->q[k].pair))
            ev->q[k].pair = e;
    }
}

struct first_pair {
    int check;       /* look for overlaps */
    size_t bi, bj;   /* the first overlapping pair in ball order so far */
};

/* Pair (k, j) at init: its collision for both, and the overlap check. */
static void init_pair(struct event_in *ev, size_t k, size_t j, struct first_pair *fp)
{
    if (fp->check && overlap(ev, k, j)) {
        size_t i1 = (size_t)ev->q[k].id, i2 = (size_t)ev->q[j].id;
        size_t lo = i1 < i2 ? i1 : i2, hi = i1 < i2 ? i2 : i1;
        if (lo < fp->bi || (lo == fp->bi && hi < fp->bj)) {
            fp->bi = lo;
            fp->bj = hi;
        }
    }
    double t = pair_time(ev, &ev->b[k], &ev->b[j], ev->general, INFINITY);
    offer(ev, k, j, t);
    offer(ev, j, k, t);
}

/*
 * Every record's earliest collision, each pair tried once (the times are
 * the same from either side), and with @p fp->check the first overlapping
 * pair in ball order: small balls meet the small ones in their cells, a
 * big ball meets those within its reach and the other big ones. Linear in
 * n for balls of similar sizes (all pairs without the grid).
 */
static void init_pairs(struct event_in *ev, struct first_pair *fp)
{
    size_t n = ev->n; /* (every pair set to none by event_init) */
    for (size_t k = 0; k < n; k++) {
        if (!ev->grid) {
            for (size_t j = k + 1; j < n; j++)
                init_pair(ev, k, j, fp);
            continue;
        }
        if (ev->nl && ev->nbr[k].n >= 0) {
            /* a pair not in the lists cannot touch before a new list */
            const struct event_nlist *l = &ev->nbr[k];
            for (int32_t c = 0; c < l->n; c++)
                if ((size_t)l->j[c] > k)
                    init_pair(ev, k, (size_t)l->j[c], fp);
            continue;
        }
        int big = ev->q[k].reach > 1;
        long x0, x1, y0, y1;
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    if (big || (size_t)j > k)
                        init_pair(ev, k, (size_t)j, fp);
        if (big)
            for (size_t c = 0; c < ev->nbig; c++)
                if ((size_t)ev->big[c] > k)
                    init_pair(ev, k, (size_t)ev->big[c], fp);
    }
}

static int find_wall(const struct sim *s, struct event_fault *f)
{
    unsigned op = s->p.open;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = s->y[i], r = s->r[i], tol = sim_wall_slack(&s->p, r);
        int out;
        if (s->p.shape == SIM_CIRCLE) {
            double R = 0.5 * s->p.w, dx = x - R, dy = y - R;
            out = sqrt(dx * dx + dy * dy) > R - r + tol;
        } else { /* past an open side is fine */
            out = (!(op & SIM_SIDE_LEFT) && x - r < -tol) ||
                  (!(op & SIM_SIDE_BOTTOM) && y - r < -tol) ||
                  (!(op & SIM_SIDE_RIGHT) && x + r > s->p.w + tol) ||
                  (!(op & SIM_SIDE_TOP) && y + r > s->p.h + tol);
        }
        if (out) {
            if (f)
                f->i = f->j = i;
            return EVENT_EWALL;
        }
    }
    return EVENT_OK;
}

/* Whether the field of @p s is beyond the engine's arithmetic: the energy
 * it can give the balls while they cross the table, sum m (|gx| w + |gy| h),
 * overflows. Positions, speeds and energies then overflow too (a field of
 * 1e308 let a ball fall through the floor unseen, status 0). */
static int field_overflows(const struct sim *s)
{
    double gw = fabs(s->p.gx) * s->p.w + fabs(s->p.gy) * s->p.h, sum = 0;
    if (gw == 0)
        return 0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->m[i] * gw;
    return !(sum < INFINITY);
}

/* tc and umin from the fastest ball seen at init or in a kick. */
void ev_set_scales(struct event_in *ev, double vmax)
{
    if (vmax > ev->vref) {
        ev->vref = vmax;
        if (ev->tc_auto)
            ev->tc = 1e-6 * ev->rmin / vmax;
    }
    ev->umin = EVENT_SLOW * ev->vref;
    /* In a field, an inelastic pile settles into ever faster collisions at
     * ever smaller gaps (its balls can never rest on each other: a hard
     * contact would need infinitely many). So there, as on a floor
     * (bounce_field), a slow impact is a resting contact: the two leave
     * each other at urest, the speed that lifts a ball hrest, and the pile
     * hops at that scale (invisible: 1e-3 of a radius) in bounded work. */
    ev->urest = ev->field ? sqrt(2 * hypot(ev->gx, ev->gy) * ev->hrest) : 0;
    if (ev->p.restitution < 1 && ev->urest > ev->umin)
        ev->umin = ev->urest;
    /* And a deep pile still compacts, its gaps and so the times between
     * its collisions shrinking without end. The TC model's contact time
     * then becomes the hop's, sqrt(2 hrest / g): a ball's collisions closer
     * together than that are elastic, so a pile stops losing energy once
     * its balls collide that often, and stays at that rate. */
    if (ev->tc_auto && ev->field && ev->p.restitution < 1) {
        double hop = sqrt(2 * ev->hrest / hypot(ev->gx, ev->gy));
        if (hop > ev->tc)
            ev->tc = hop;
    }
}

int event_init(struct event *pub, const struct sim *s,
               const struct event_config *cfg, struct event_fault *fault)
{
    struct event_config dc = event_default_config();
    if (!cfg)
        cfg = &dc;
    memset(pub, 0, sizeof *pub);
    if (s->n > (size_t)INT32_MAX)
        return EVENT_ENOMEM;
    if (!cfg->allow_overlap) {
        int rc = find_wall(s, fault);
        if (rc)
            return rc;
    }
    if (field_overflows(s))
        return EVENT_EFIELD;
    struct event_in *ev = ev_array(1, sizeof *ev);
    if (!ev)
        return EVENT_ENOMEM;
    memset(ev, 0, sizeof *ev);
    pub->in = ev;
    size_t n = s->n, cnt = n ? n : 1;
    pub->n = n;
    pub->p = s->p;
    ev->n = n;
    ev->p = s->p;
    ev->t = ev->t0 = s->t;
    /* A few balls: all pairs beat the grid's crossings (see README). */
    double phi = 0;
    for (size_t i = 0; i < n; i++) /* sum of pi r^2 / (w h), without overflow */
        phi += SIM_PI * (s->r[i] / s->p.w) * (s->r[i] / s->p.h);
    double few = phi > 0 ? EVENT_GRID_MIN * pow(0.3 / phi, 0.25) : EVENT_GRID_MAX;
    if (!(few >= EVENT_GRID_MIN))
        few = EVENT_GRID_MIN;
    if (few > EVENT_GRID_MAX)
        few = EVENT_GRID_MAX;
    ev->grid = cfg->grid >= 2 || (cfg->grid != 0 && (double)n > few);
    /* Neighbour lists in a dense gas of balls of similar sizes on straight
     * paths between closed walls (in a field a path bends, and leaving the
     * skin is a quartic; friction and open sides stay with the grid). */
    double rlo = INFINITY, rhi = 0;
    for (size_t i = 0; i < n; i++) {
        rlo = s->r[i] < rlo ? s->r[i] : rlo;
        rhi = s->r[i] > rhi ? s->r[i] : rhi;
    }
    ev->skin = NL_SKIN * 2 * rhi;
    /* (and a skin well above the rounding of positions on the table, or a
     * ball could leave it again at the very time it built its list) */
    ev->nl = ev->grid && cfg->grid != 2 && (cfg->grid == 3 || phi >= EVENT_NL_PHI) &&
             rlo > 0 && rhi <= EVENT_NL_RATIO * rlo && ev->skin > 1e-9 * (s->p.w + s->p.h) &&
             s->p.gx == 0 && s->p.gy == 0 && s->p.friction == SIM_FRICTION_NONE && !s->p.open;
    ev->cen_h = 0.5 * ev->skin * (1 - 1e-6);
    /* the records (each within a cache line) and the arrays by ball number;
     * the cold records and the counts given zeroed, written only where
     * not zero (see struct event_cold); what is read in order, or rarely
     * (the arrays by ball number, the cold records, the heap's few
     * hundred, the calendar's list heads, walked in turn), on small pages
     * (MEM_FLAT, see bigmem.h) */
    int fail = !(ev->b = ev_array_as(cnt, sizeof *ev->b, MEM_LATE));
    fail |= !(ev->q = ev_array_as(cnt, sizeof *ev->q, MEM_LATE));
    fail |= !(ev->c = ev_array_as(cnt, sizeof *ev->c, MEM_ZERO | MEM_FLAT));
    if (ev->nl)
        fail |= !(ev->nbr = ev_array_as(cnt, sizeof *ev->nbr, MEM_LATE));
    fail |= !(pub->vx = ev_array_as(cnt, sizeof *pub->vx, MEM_FLAT));
    fail |= !(pub->vy = ev_array_as(cnt, sizeof *pub->vy, MEM_FLAT));
    fail |= !(pub->ncoll = ev_array_as(cnt, sizeof *pub->ncoll, MEM_ZERO | MEM_FLAT)); /* 0 now */
    ev->capl = cnt + 16;
    fail |= !(ev->lhead = ev_array_as(ev->capl + 1, sizeof *ev->lhead, MEM_FLAT)); /* in order */
    fail |= !(ev->at = ev_array_as(cnt, sizeof *ev->at, MEM_FLAT));
    fail |= !(ev->near = ev_array_as(cnt, sizeof *ev->near, MEM_FLAT));
    if (fail || (ev->grid && ev_grid_size(ev, s, ev->at))) {
        event_free(pub);
        return EVENT_ENOMEM;
    }
    if (!ev->grid)
        for (size_t k = 0; k < n; k++)
            ev->at[k] = (int32_t)k;
    ev->mono = 1;
    ev->mass = n ? s->m[0] : 1;
    for (size_t i = 0; i < n; i++)
        ev->mono &= memcmp(&s->m[i], &ev->mass, sizeof ev->mass) == 0; /* the same bits */
    int cold = !ev->mono || s->p.restitution < 1;
    ev->gx = s->p.gx;
    ev->gy = s->p.gy;
    ev->field = ev->gx != 0 || ev->gy != 0;
    ev->fric = s->p.friction == SIM_FRICTION_LINEAR || s->p.friction == SIM_FRICTION_ROLLING
                   ? s->p.friction : SIM_FRICTION_NONE;
    ev->fc = s->p.friction_c;
    ev->general = ev->field || ev->fric;
    /* balls in number order, records written whole where they go: the
     * arrays are read in order, only the writes land at random (balls
     * placed at random are numbered in no spatial order). On the way, what
     * a pass over the records in number order would give: the energy at
     * start-up (as ev_kinetic sums it) and what callers read (as
     * ev_publish writes it; the counts are 0). */
    double rmin = INFINITY, vmax = 0, ke0 = 0, pf0 = 0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)ev->at[i];
        if (i + EV_AHEAD < n) {
            EV_FETCH_W(&ev->b[ev->at[i + EV_AHEAD]]);
            EV_FETCH_W(&ev->q[ev->at[i + EV_AHEAD]]);
        }
        ev->q[k].id = (int32_t)i;
        struct event_ball *a = &ev->b[k];
        *a = (struct event_ball){.x = s->x[i], .y = s->y[i], .vx = s->vx[i], .vy = s->vy[i],
                                 .tb = s->t, .r = s->r[i], .tlim = INFINITY, .cnt = EV_CNT0,
                                 .next = -1};
        if (cold)
            ev->c[k] = (struct event_cold){.m = s->m[i], .tlast = -INFINITY};
        double v = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        if (v > vmax)
            vmax = v;
        if (s->r[i] < rmin)
            rmin = s->r[i];
        double x, y;
        ball_now(ev, a, &x, &y, &pub->vx[i], &pub->vy[i]);
        ev_energy_add(ev, s->m[i], x, y, pub->vx[i], pub->vy[i], &ke0, &pf0);
        bad |= (x - x) + (y - y) + (pub->vx[i] - pub->vx[i]) + (pub->vy[i] - pub->vy[i]) != 0;
    }
    if (ev->grid)
        ev_grid_link(ev);
    if (ev->nl)
        ev_nl_init(ev);
    ev->rmin = rmin;
    ev->hrest = 1e-3 * (rmin > 0 && rmin < INFINITY ? rmin : 1e-6 * (s->p.w < s->p.h ? s->p.w : s->p.h));
    ev->tc_auto = !(cfg->tc >= 0);
    ev->tc = ev->tc_auto ? 0 : cfg->tc;
    ev_set_scales(ev, vmax);
    ev->ke0 = ke0;
    ev->e0 = ke0 + pf0;
    ev->diss0 = s->dissipated;
    /* Own events first, so that every pair sees both limits; then each
     * ball's earliest collision, and the overlap check on the way. */
    for (size_t k = 0; k < n; k++) {
        ev_predict_own(ev, k, &ev->q[k].slot);
        ev->q[k].pair = (struct event_item){INFINITY, -1, 0};
    }
    struct first_pair fp = {!cfg->allow_overlap, n, n};
    init_pairs(ev, &fp);
    if (fp.bi < n) {
        if (fault) {
            fault->i = fp.bi;
            fault->j = fp.bj;
        }
        event_free(pub);
        return EVENT_EOVERLAP;
    }
    struct ev_q_stats st = {0, 0, INFINITY};
    for (size_t k = 0; k < n; k++) {
        if (ev_less(ev, (int32_t)k, &ev->q[k].pair, (int32_t)k, &ev->q[k].slot))
            ev->q[k].slot = ev->q[k].pair;
        ev_q_count(ev, ev->q[k].slot.t, &st);
    }
    ev_q_build(ev, &st);
    ev->settling = 1;
    if (bad) /* a ball not finite: ev_publish names the first record */
        ev_publish(pub);
    pub->t = ev->t;
    return EVENT_OK;
}

void event_free(struct event *pub)
{
    struct event_in *ev = pub->in;
    if (ev) {
        void *p[] = {ev->b, ev->q, ev->c, ev->lhead, ev->near, ev->at, ev->cell,
                     ev->more, ev->big, ev->nbr};
        for (size_t a = 0; a < sizeof p / sizeof *p; a++)
            mem_free(p[a]);
        mem_free(ev);
    }
    mem_free(pub->vx);
    mem_free(pub->vy);
    mem_free(pub->ncoll);
    memset(pub, 0, sizeof *pub);
}
