/*
 * event_run.c - the event engine's loop: the earliest event from the
 * queue, and what it does (a collision, a bounce, a cell crossing, a new
 * neighbour list), with the records it will touch prefetched in a large
 * gas; the public calls that run, kick and read the engine.
 */
#include "event_cells.h"
#include "event_impl.h"
#include "event_queue.h"
#include "event_time.h"

#include "mem.h"

#include <math.h>
#include <string.h>

static void drift_general(struct event_in *ev, struct event_ball *a)
{
    ev_ball_at(ev, a, ev->t, &a->x, &a->y, &a->vx, &a->vy);
    a->tb = ev->t;
}

/* Ball a to the current time (its own time becomes now). */
static EV_INLINE void drift(struct event_in *ev, struct event_ball *a)
{
    if (ev->general) {
        drift_general(ev, a);
        return;
    }
    double dt = ev->t - a->tb;
    a->x += dt * a->vx;
    a->y += dt * a->vy;
    a->tb = ev->t;
}

/* The restitution of a collision now with normal speed |u|: e, but 1
 * within tc of either ball's last collision (TC model) and for |u| < umin
 * (as for real viscoelastic balls, e -> 1 as the impact speed -> 0). Both
 * keep inelastic collapse from stopping time; the second also keeps a
 * cooling gas from slowing down towards underflow. */
static double restitution(const struct event_in *ev, size_t i, size_t j, double u)
{
    double e = ev->p.restitution;
    if (e < 1 && (fabs(u) < ev->umin || ev->t - ev->c[i].tlast < ev->tc ||
                  ev->t - ev->c[j].tlast < ev->tc))
        e = 1;
    return e;
}

/*
 * Impulse along the unit normal n from i to j (records of balls numbered
 * in that order): with the normal relative velocity u = (v_j - v_i).n < 0
 * and mu = m_i m_j / (m_i + m_j), J = -(1 + e) mu u; v_i -= J/m_i n,
 * v_j += J/m_j n. Momentum is kept, the normal relative velocity becomes
 * -e u, and with e = 1 energy is kept.
 */
/* Whether ball a's velocity is finite: v - v is 0 for a finite v, NaN for
 * an infinite or NaN one. (Its position was finite before the event, or
 * its velocity was not; a position that overflows in flight is found when
 * the state is written.) */
static EV_INLINE int finite_ball(const struct event_ball *a)
{
    return (a->vx - a->vx) + (a->vy - a->vy) == 0;
}

static EV_INLINE int finite_place(const struct event_ball *a)
{
    return (a->x - a->x) + (a->y - a->y) == 0;
}

/* The engine stops at the event of records k and j (k == j: one ball) for
 * @p cause: the first result that is not finite (see struct event_stop). */
EV_COLD static void halt(struct event_in *ev, int cause, size_t k, size_t j)
{
    size_t a = (size_t)ev->q[k].id, b = (size_t)ev->q[j].id;
    ev->stop = (struct event_stop){cause, a < b ? a : b, a < b ? b : a, ev->t};
}

/* Why the collision of records i and j left them not finite. */
EV_COLD static void halt_collision(struct event_in *ev, size_t i, size_t j)
{
    double mi = ev_mass(ev, i), mj = ev_mass(ev, j);
    if (!finite_place(&ev->b[i]) || !finite_place(&ev->b[j]))
        halt(ev, EVENT_SFLIGHT, finite_place(&ev->b[i]) ? j : i,
             finite_place(&ev->b[i]) ? j : i);
    else if (!(mi * mj / (mi + mj) < INFINITY))
        halt(ev, EVENT_SMASS, i, j);
    else
        halt(ev, EVENT_SIMPULSE, i, j);
}

static void collide(struct event_in *ev, size_t i, size_t j)
{
    struct event_ball *p = &ev->b[i], *q = &ev->b[j];
    drift(ev, p);
    drift(ev, q);
    double dx = q->x - p->x, dy = q->y - p->y;
    double d = sqrt(dx * dx + dy * dy);
    if (d > 0) {
        double nx = dx / d, ny = dy / d;
        double u = (q->vx - p->vx) * nx + (q->vy - p->vy) * ny;
        if (u < 0) {
            double mi = ev_mass(ev, i);
            double mj = ev_mass(ev, j);
            double J = -(1 + restitution(ev, i, j, u)) * u * (mi * mj / (mi + mj));
            /* in a field, inelastic: apart at least at urest (see set_scales) */
            if (ev->field && ev->p.restitution < 1 && J < (ev->urest - u) * (mi * mj / (mi + mj)))
                J = (ev->urest - u) * (mi * mj / (mi + mj));
            p->vx -= J / mi * nx;
            p->vy -= J / mi * ny;
            q->vx += J / mj * nx;
            q->vy += J / mj * ny;
        }
    }
    if (!(finite_ball(p) && finite_ball(q))) {
        halt_collision(ev, i, j);
        return;
    }
    if (ev->p.restitution < 1) /* tlast is read only then */
        ev->c[i].tlast = ev->c[j].tlast = ev->t;
    count(ev, i);
    count(ev, j);
    ev->collisions++;
    ev_predict(ev, i, j);
    ev_predict(ev, j, i);
}

/*
 * A bounce in the field off the wall at coordinate `wall` with outward
 * normal `out` (+1: the high wall, -1: the low one). An impact (normal
 * speed u towards the wall) leaves at -e u, elastic below umin. A wall the
 * field presses a ball onto (a floor) then sends it back fast enough to
 * come back inside from wherever it is (past the wall by rounding, or
 * pressed in by the spring engine), sqrt(2 g depth), and to rise hrest
 * above the wall when it came slower than that (inelastic) or at rest
 * (elastic): sqrt(2 g (hrest + depth)). That is the resting-contact rule:
 * a ball at rest on a floor, or an inelastic one settling, hops hrest high
 * (1e-3 of the smallest radius) instead of bouncing infinitely often in
 * finite time, or sitting at zero time. Elastic bounces are otherwise
 * exact.
 */
static double rest_normal(const struct event_in *ev, double u, double un, double gn,
                          double depth)
{
    /* u: the normal speed it came with (> 0 towards the wall), un: the
     * outward normal velocity after the bounce, gn: the field towards the
     * wall, depth: how far past it the ball is */
    if (gn > 0) {
        double h = depth > 0 ? depth : 0;
        if (ev->p.restitution < 1 ? u * u < 2 * gn * ev->hrest : u <= EVENT_SLOW * ev->vref)
            h += ev->hrest;
        double need = sqrt(2 * gn * h);
        if (-un < need)
            un = -need;
    }
    return un;
}

static void bounce_field(const struct event_in *ev, double *v, double q, double g,
                         double wall, double out, double e)
{
    double u = out * *v;
    if (u > 0)
        *v = -(u < ev->umin ? 1 : e) * *v;
    *v = out * rest_normal(ev, u, out * *v, out * g, out * (q - wall));
}

static void bounce(struct event_in *ev, size_t k, int code)
{
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    double e = ev->p.restitution;
    if (e < 1 && ev->t - ev->c[k].tlast < ev->tc)
        e = 1;
    double m = ev_mass(ev, k), vx0 = a->vx, vy0 = a->vy;
    if (ev->field && code != EV_WALL_CIRCLE) {
        int y = code == EV_WALL_Y || code == EV_WALL_YL;
        int low = code == EV_WALL_XL || code == EV_WALL_YL;
        double len = y ? ev->p.h : ev->p.w;
        bounce_field(ev, y ? &a->vy : &a->vx, y ? a->y : a->x, y ? ev->gy : ev->gx,
                     low ? a->r : len - a->r, low ? -1 : 1, e);
    } else if (code == EV_WALL_X || code == EV_WALL_XL) {
        a->vx = -(fabs(vx0) < ev->umin ? 1 : e) * vx0;
    } else if (code == EV_WALL_Y || code == EV_WALL_YL) {
        a->vy = -(fabs(vy0) < ev->umin ? 1 : e) * vy0;
    } else {
        /* Reflect the outward normal component: v -= (1 + e)(v.n) n. */
        double R = 0.5 * ev->p.w, dx = a->x - R, dy = a->y - R;
        double d = sqrt(dx * dx + dy * dy);
        if (d > 0) {
            double nx = dx / d, ny = dy / d;
            double u = a->vx * nx + a->vy * ny;
            if (u > 0) {
                if (u < ev->umin)
                    e = 1;
                a->vx -= (1 + e) * u * nx;
                a->vy -= (1 + e) * u * ny;
            }
            if (ev->field || ev->p.restitution < 1) {
                /* The resting-contact rule, as on a floor: a ball sliding
                 * along the round wall is pressed onto it by the field and
                 * by its own turning, w^2 / L (w its speed along the wall);
                 * with e < 1 it would make ever shorter chords, infinitely
                 * many in finite time, and at best (slow impacts elastic)
                 * tens of thousands a unit of time. So it leaves fast
                 * enough for chords of sagitta hrest: sqrt(2 hrest / L) w
                 * in a plain round table. */
                double un = a->vx * nx + a->vy * ny;
                double w2 = a->vx * a->vx + a->vy * a->vy - un * un;
                double L = R - a->r;
                double gn = (ev->field ? ev->gx * nx + ev->gy * ny : 0) +
                            (L > 0 && w2 > 0 ? w2 / L : 0);
                double want = rest_normal(ev, u, un, gn, d - L);
                a->vx += (want - un) * nx;
                a->vy += (want - un) * ny;
            }
        }
    }
    ev->wall_px += m * (a->vx - vx0);
    ev->wall_py += m * (a->vy - vy0);
    if (ev->p.restitution < 1) /* tlast is read only then */
        ev->c[k].tlast = ev->t;
    count_other(ev, k);
    ev->walls++;
    if (!finite_ball(a)) {
        halt(ev, finite_place(a) ? EVENT_SBOUNCE : EVENT_SFLIGHT, k, k);
        return;
    }
    ev_predict(ev, k, (size_t)-1);
}

static void cross(struct event_in *ev, size_t k, int code)
{
    ev_cell_unlink(ev, k);
    long dx = 0, dy = 0;
    /* the direction: the velocity's on a straight path (slowing or not, it
     * never turns), the code's in a field (a parabola turns) */
    if (code == EV_CROSS_X)
        dx = ev->b[k].vx > 0 ? 1 : -1;
    else if (code == EV_CROSS_Y)
        dy = ev->b[k].vy > 0 ? 1 : -1;
    else if (code == EV_CROSS_XP || code == EV_CROSS_XL)
        dx = code == EV_CROSS_XP ? 1 : -1;
    else
        dy = code == EV_CROSS_YP ? 1 : -1;
    ev->q[k].cx += (int32_t)dx;
    ev->q[k].cy += (int32_t)dy;
    ev_cell_link(ev, k);
    /* No trajectory changes: the collisions others predicted with k stay
     * valid, and so do k's own. */
    ev->crossings++;
    ev_predict_crossed(ev, k, dx, dy);
}

/* The 3x3 cells around record k, into the cache. */
static EV_INLINE void prefetch_window(const struct event_in *ev, int32_t k)
{
#if defined(__GNUC__)
    /* each row of three cells is 48 bytes: its two ends (the border
     * makes them all there) */
    long cx = ev->q[k].cx, cy = ev->q[k].cy;
    for (long y = cy - 1; y <= cy + 1; y++) {
        __builtin_prefetch(&ev->cell[cell_at(ev, cx - 1, y)]);
        __builtin_prefetch(&ev->cell[cell_at(ev, cx + 1, y)]);
    }
#else
    (void)ev;
    (void)k;
#endif
}

/* The next event is most likely one of the two below the heap's top:
 * the cells around their balls into the cache (with a million balls each
 * row of cells is otherwise a miss). */
static EV_INLINE void prefetch_cells(const struct event_in *ev)
{
    if (!ev->grid || ev->nl || ev->n < EV_PREFETCH_MIN)
        return;
    for (size_t h = 1; h <= 2 && h < ev->nnear; h++) {
        int32_t k = ev->near[h], j = ev->q[k].slot.j;
        prefetch_window(ev, k);
        if (j >= 0)
            prefetch_window(ev, j);
    }
}

/* The balls in place in each of the 3x3 cells around record k into the cache
 * at once, rather than one after the other as the walk reaches them. */
static EV_INLINE void prefetch_records(const struct event_in *ev, int32_t k)
{
#if defined(__GNUC__)
    long x0, x1, y0, y1;
    cell_window(ev, (size_t)k, &x0, &x1, &y0, &y1);
    for (long y = y0; y <= y1; y++)
        for (long x = x0; x <= x1; x++) {
            const struct event_cell *cl = &ev->cell[cell_at(ev, x, y)];
            for (int32_t i = 0; i < cl->n && i < EV_CELL_CAP; i++)
                __builtin_prefetch(&ev->b[cl->j[i]]);
        }
#else
    (void)ev;
    (void)k;
#endif
}

/* The balls in record k's neighbour list into the cache at once. */
static EV_INLINE void prefetch_list(const struct event_in *ev, int32_t k)
{
#if defined(__GNUC__)
    const struct event_nlist *l = &ev->nbr[k];
    for (int32_t c = 0; c < l->n; c++)
        __builtin_prefetch(&ev->b[l->j[c]]);
#else
    (void)ev;
    (void)k;
#endif
}

/* The neighbours of the event's balls, before its work begins. */
static EV_INLINE void prefetch_balls(const struct event_in *ev, int32_t k,
                                     const struct event_item *e)
{
    if (!ev->grid || ev->n < EV_PREFETCH_MIN)
        return;
    if (ev->nl) {
        prefetch_list(ev, k);
        if (e->j >= 0)
            prefetch_list(ev, e->j);
        return;
    }
    prefetch_records(ev, k);
    if (e->j >= 0)
        prefetch_records(ev, e->j);
}

/* The engine's loop: events with t <= T, at most max physical ones (<= 0:
 * no limit). Returns 1 when the queue holds nothing more up to T, 0 when the
 * budget ran out. *done counts the physical events. */
static int run(struct event_in *ev, double T, long long max, long long *done)
{
    *done = 0;
    if (ev->stop.cause)
        return 0;
    for (;;) {
        int32_t k = ev_q_top(ev);
        if (k < 0 || !(ev->q[k].slot.t <= T))
            break;
        struct event_item e = ev->q[k].slot;
        prefetch_cells(ev);
        prefetch_balls(ev, k, &e);
        if (stale(ev, &e)) {
            ev_predict(ev, (size_t)k, (size_t)-1);
            continue;
        }
        int code = e.j < 0 ? -1 - e.j : -1;
        int physical = code < EV_CROSS_X;
        ev->t = e.t;
        if (code < 0) {
            size_t i = (size_t)k, j = (size_t)e.j;
            if (ev->q[j].id < ev->q[i].id)
                collide(ev, j, i);
            else
                collide(ev, i, j);
        } else if (physical) {
            bounce(ev, (size_t)k, code);
        } else if (code == EV_NLIST) {
            ev_renew(ev, (size_t)k);
        } else {
            cross(ev, (size_t)k, code);
        }
        *done += physical;
        if (physical && ((max > 0 && *done >= max) || ev->stop.cause))
            return 0;
    }
    return 1;
}

/*
 * The records, lists and cells, made on small pages (quick to hand out on
 * fresh memory, see mem.h's MEM_LATE), moved to huge pages once the engine
 * runs: asked at its first run, moved by a poll between runs of
 * EV_SETTLE_EVERY physical events (this thread's: nothing else uses them
 * then). The same bytes at the same addresses: no result changes.
 */
static void ev_settle(struct event_in *ev)
{
    size_t nc = ev->grid ? (size_t)(ev->nx + 2) * (size_t)(ev->ny + 2) : 0;
    if (ev->settling == 1) {
        mem_settle(ev->q, ev->n * sizeof *ev->q);
        mem_settle(ev->b, ev->n * sizeof *ev->b);
        if (ev->nl)
            mem_settle(ev->nbr, ev->n * sizeof *ev->nbr);
        if (nc)
            mem_settle(ev->cell, nc * sizeof *ev->cell);
        ev->settling = 2;
        return;
    }
    int left = mem_settle_poll(ev->q) == 0;
    left |= mem_settle_poll(ev->b) == 0;
    if (ev->nl)
        left |= mem_settle_poll(ev->nbr) == 0;
    if (nc)
        left |= mem_settle_poll(ev->cell) == 0;
    ev->settling = left ? 2 : 0;
}

/* run() in runs of EV_SETTLE_EVERY physical events while the records move
 * to huge pages (ev_settle), as one run otherwise: the loop resumes where
 * it stopped, so the events are the same. */
static int run_settling(struct event_in *ev, double T, long long max, long long *done)
{
    *done = 0;
    while (ev->settling) {
        long long chunk = EV_SETTLE_EVERY, d;
        if (max > 0 && max - *done < chunk)
            chunk = max - *done;
        int rc = run(ev, T, chunk, &d);
        *done += d;
        ev_settle(ev);
        if (rc == 1 || ev->stop.cause || (max > 0 && *done >= max))
            return rc;
    }
    long long d;
    int rc = run(ev, T, max > 0 ? max - *done : 0, &d);
    *done += d;
    return rc;
}

int event_advance(struct event *pub, double T, long long max_events)
{
    struct event_in *ev = pub->in;
    if (!ev) /* no engine: nothing happens */
        return 1;
    long long done;
    int rc = run_settling(ev, T, max_events, &done);
    if (rc == 1 && T > ev->t)
        ev->t = T;
    ev_publish(pub);
    return rc;
}

long long event_step(struct event *pub, long long count)
{
    long long done;
    if (count <= 0 || !pub->in)
        return 0;
    run_settling(pub->in, INFINITY, count, &done);
    ev_publish(pub);
    return done;
}

void event_kick(struct event *pub, size_t i, double vx, double vy)
{
    struct event_in *ev = pub->in;
    size_t k = (size_t)ev->at[i];
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    /* The reference energy of de moves by the kick's work. */
    double v0 = a->vx * a->vx + a->vy * a->vy;
    ev->ke0 += 0.5 * ev_mass(ev, k) * (vx * vx + vy * vy - v0);
    ev->e0 += 0.5 * ev_mass(ev, k) * (vx * vx + vy * vy - v0);
    a->vx = vx;
    a->vy = vy;
    ev_set_scales(ev, sqrt(vx * vx + vy * vy));
    count_other(ev, k);
    ev_predict(ev, k, (size_t)-1);
    ev_publish(pub);
}

void event_position(const struct event *pub, size_t i, double *x, double *y)
{
    const struct event_in *ev = pub->in;
    double vx, vy;
    ball_now(ev, &ev->b[ev->at[i]], x, y, &vx, &vy);
}

/* What event_diag says of dissipated (event.h), e = ke + pf now. */
static double dissipated(const struct event_in *ev, double e)
{
    return ev->p.restitution < 1 || ev->fric ? ev->diss0 + (ev->e0 - e) : ev->diss0;
}

void event_to_sim(const struct event *pub, struct sim *s)
{
    const struct event_in *ev = pub->in;
    if (!ev)
        return;
    for (size_t i = 0; i < ev->n; i++) {
        if (i + EV_AHEAD < ev->n)
            EV_FETCH(&ev->b[ev->at[i + EV_AHEAD]]);
        ball_now(ev, &ev->b[ev->at[i]], &s->x[i], &s->y[i], &s->vx[i], &s->vy[i]);
    }
    s->t = ev->t;
    double pf = 0, ke = ev->p.restitution < 1 || ev->fric ? ev_kinetic(ev, &pf, NULL) : 0;
    s->dissipated = dissipated(ev, ke + pf);
}

/* Kinetic energy now, summed in ball number order; with *pf the field's
 * potential -sum m g.x and with *out the balls wholly past an open side. */
double ev_kinetic(const struct event_in *ev, double *pf, long *out)
{
    double ke = 0, f = 0;
    long o = 0;
    unsigned op = ev->p.open;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        double x, y, vx, vy, r = ev->b[k].r;
        ball_now(ev, &ev->b[k], &x, &y, &vx, &vy);
        ev_energy_add(ev, ev_mass(ev, k), x, y, vx, vy, &ke, &f);
        if (((op & SIM_SIDE_LEFT) && x + r < 0) || ((op & SIM_SIDE_RIGHT) && x - r > ev->p.w) ||
            ((op & SIM_SIDE_BOTTOM) && y + r < 0) || ((op & SIM_SIDE_TOP) && y - r > ev->p.h))
            o++;
    }
    if (pf)
        *pf = f;
    if (out)
        *out = o;
    return ke;
}

/* Brings what callers read (struct event) up to date. */
void ev_publish(struct event *pub)
{
    struct event_in *ev = pub->in;
    for (size_t k = 0; k < ev->n; k++) {
        size_t i = (size_t)ev->q[k].id;
        double x, y;
        ball_now(ev, &ev->b[k], &x, &y, &pub->vx[i], &pub->vy[i]);
        pub->ncoll[i] = kcoll(ev, k);
        /* flown past the largest double between events */
        if ((x - x) + (y - y) + (pub->vx[i] - pub->vx[i]) + (pub->vy[i] - pub->vy[i]) != 0 &&
            !ev->stop.cause)
            halt(ev, EVENT_SFLIGHT, k, k);
    }
    pub->stop = ev->stop;
    pub->t = ev->t;
    pub->collisions = ev->collisions;
    pub->walls = ev->walls;
}

void event_diag(const struct event *pub, struct event_diag *d)
{
    const struct event_in *ev = pub->in;
    memset(d, 0, sizeof *d);
    if (!ev) {
        d->mft = INFINITY;
        return;
    }
    d->collisions = ev->collisions;
    d->walls = ev->walls;
    d->crossings = ev->crossings;
    d->rebuilds = ev->rebuilds;
    d->events = ev->collisions + ev->walls;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        long long kc = kcoll(ev, k);
        if (kc > d->max_ball)
            d->max_ball = kc;
        double x, y, vx, vy;
        ball_now(ev, &ev->b[k], &x, &y, &vx, &vy);
        d->px += ev_mass(ev, k) * vx;
        d->py += ev_mass(ev, k) * vy;
    }
    double n = (double)ev->n;
    d->per_ball = ev->n ? 2.0 * (double)ev->collisions / n : 0;
    d->mft = ev->collisions ? n * (ev->t - ev->t0) / (2.0 * (double)ev->collisions)
                            : INFINITY;
    d->ke = ev_kinetic(ev, &d->pf, &d->out);
    d->ke0 = ev->ke0;
    d->e = d->ke + d->pf;
    d->e0 = ev->e0;
    d->de = ev->e0 != 0 ? (d->e - ev->e0) / fabs(ev->e0) : 0;
    d->dissipated = dissipated(ev, d->e);
    d->wall_px = ev->wall_px;
    d->wall_py = ev->wall_py;
    d->heap = ev->nnear + ev->nring + ev->nover;
}
