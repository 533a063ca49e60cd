/*
 * event_predict.c - a record's next event: its own (the first wall, cell
 * crossing or new list) and its earliest collision with the balls in
 * reach (all, the 3x3 cells, a neighbour list), predicted again after a
 * collision or bounce, and only over what is new after a crossing or a
 * new list. The times come from event_time.h, the slot goes to the queue.
 */
#include "event_cells.h"
#include "event_impl.h"
#include "event_queue.h"
#include "event_time.h"

#include <math.h>
#include <string.h>

static void predict_own_general(struct event_in *ev, size_t k, struct event_item *e);

/* Record k's own next event: the first wall, and with the grid the first
 * cell crossing. Sets its tlim (the wall's time: a crossing changes no
 * course, so it bounds no prediction, and the grid and all pairs then see
 * the same collisions in the same order) and writes the event to *e.
 * Plain hard balls between closed walls here, in as few instructions as
 * measured (a tenth of an event's); a field, friction or open sides in
 * predict_own_general. */
/* A record's own event @p code at time @p t (not before now) into *e. */
static EV_INLINE void own_event(const struct event_in *ev, double t, int code,
                                struct event_item *e)
{
    *e = (struct event_item){t < ev->t ? ev->t : t, -1 - code, 0};
}

void ev_predict_own(struct event_in *ev, size_t k, struct event_item *e)
{
    if (ev->general || ev->p.open) {
        predict_own_general(ev, k, e);
        return;
    }
    struct event_ball *a = &ev->b[k];
    double best;
    int code;
    double tb = a->tb;
    if (ev->p.shape == SIM_CIRCLE) {
        best = ev_wall_circle(ev, a);
        code = EV_WALL_CIRCLE;
    } else {
        double sx = wall_axis(a->x, a->vx, a->r, ev->p.w, 0, 0);
        double sy = wall_axis(a->y, a->vy, a->r, ev->p.h, 0, 0);
        if (sx < 0) sx = 0;
        if (sy < 0) sy = 0;
        best = sx;
        code = EV_WALL_X;
        if (sy < best) {
            best = sy;
            code = EV_WALL_Y;
        }
    }
    best += tb;
    if (best < ev->t)
        best = ev->t;
    a->tlim = best;
    if (ev->grid && !ev->nl) {
        double vx = a->vx, vy = a->vy;
        double tx = INFINITY, ty = INFINITY;
        int32_t cx = ev->q[k].cx, cy = ev->q[k].cy;
        if (vx > 0 && cx + 1 < ev->nx)
            tx = tb + ((double)(cx + 1) * ev->cw - a->x) / vx;
        else if (vx < 0 && cx > 0)
            tx = tb + ((double)cx * ev->cw - a->x) / vx;
        if (vy > 0 && cy + 1 < ev->ny)
            ty = tb + ((double)(cy + 1) * ev->ch - a->y) / vy;
        else if (vy < 0 && cy > 0)
            ty = tb + ((double)cy * ev->ch - a->y) / vy;
        if (tx < best) {
            best = tx;
            code = EV_CROSS_X;
        }
        if (ty < best) {
            best = ty;
            code = EV_CROSS_Y;
        }
    } else if (ev->nl) {
        double sl = tb + ev_nl_leave(ev, a, &ev->nbr[k]);
        if (sl < best) {
            best = sl;
            code = EV_NLIST;
        }
    }
    own_event(ev, best, code, e);
}

/* predict_own in a field (parabolas: walls and crossings the roots of
 * quadratics, or of a quartic on the round table), with friction (straight
 * paths slowing down: times from path factors) or with open sides. */
static void predict_own_general(struct event_in *ev, size_t k, struct event_item *e)
{
    struct event_ball *a = &ev->b[k];
    double best = INFINITY;
    int code = -1;
    double tb = a->tb;
    if (ev->p.shape == SIM_CIRCLE) {
        best = ev->field ? ev_wall_circle_field(ev, a) : ev_wall_circle(ev, a);
        code = EV_WALL_CIRCLE;
    } else {
        unsigned op = ev->p.open;
        int lx = 0, ly = 0; /* which wall: the field's bounces need it */
        double sx, sy;
        if (!ev->field) {
            sx = wall_axis(a->x, a->vx, a->r, ev->p.w, op & SIM_SIDE_LEFT,
                           op & SIM_SIDE_RIGHT);
            sy = wall_axis(a->y, a->vy, a->r, ev->p.h, op & SIM_SIDE_BOTTOM,
                           op & SIM_SIDE_TOP);
        } else {
            sx = ev_wall_axis_field(a->x, a->vx, ev->gx, a->r, ev->p.w,
                                 op & SIM_SIDE_LEFT, op & SIM_SIDE_RIGHT, &lx);
            sy = ev_wall_axis_field(a->y, a->vy, ev->gy, a->r, ev->p.h,
                                 op & SIM_SIDE_BOTTOM, op & SIM_SIDE_TOP, &ly);
        }
        if (sx < 0) sx = 0;
        if (sy < 0) sy = 0;
        best = sx;
        code = lx ? EV_WALL_XL : EV_WALL_X;
        if (sy < best) {
            best = sy;
            code = ly ? EV_WALL_YL : EV_WALL_Y;
        }
    }
    if (ev->fric) /* a straight path slowing down: from its factor to time */
        best = ev_path_time(ev, a, best);
    best += tb;
    if (best < ev->t)
        best = ev->t;
    a->tlim = best;
    if (ev->grid) {
        double vx = a->vx, vy = a->vy;
        double tx = INFINITY, ty = INFINITY;
        int32_t cx = ev->q[k].cx, cy = ev->q[k].cy;
        int xl = 0, yl = 0; /* the field's crossings need the direction */
        if (!ev->field) {
            if (vx > 0 && cx + 1 < ev->nx)
                tx = ((double)(cx + 1) * ev->cw - a->x) / vx;
            else if (vx < 0 && cx > 0)
                tx = ((double)cx * ev->cw - a->x) / vx;
            if (vy > 0 && cy + 1 < ev->ny)
                ty = ((double)(cy + 1) * ev->ch - a->y) / vy;
            else if (vy < 0 && cy > 0)
                ty = ((double)cy * ev->ch - a->y) / vy;
            if (ev->fric) { /* straight and slowing: from the path factor to time */
                tx = ev_path_time(ev, a, tx);
                ty = ev_path_time(ev, a, ty);
            }
            tx += tb;
            ty += tb;
        } else {
            double now = ev->t, s = now - tb, gx = ev->gx, gy = ev->gy;
            tx = now + ev_cross_axis_field(a->x + s * (vx + 0.5 * gx * s), vx + gx * s,
                                        gx, cx, ev->cw, ev->nx, &xl);
            ty = now + ev_cross_axis_field(a->y + s * (vy + 0.5 * gy * s), vy + gy * s,
                                        gy, cy, ev->ch, ev->ny, &yl);
        }
        if (tx < best) {
            best = tx;
            code = !ev->field ? EV_CROSS_X : xl ? EV_CROSS_XL : EV_CROSS_XP;
        }
        if (ty < best) {
            best = ty;
            code = !ev->field ? EV_CROSS_Y : yl ? EV_CROSS_YL : EV_CROSS_YP;
        }
    }
    own_event(ev, best, code, e);
}

/* The collision of ball @p a (record k) and record j becomes the slot
 * *best if it comes before both balls' next walls (a bounce predicts its
 * ball again, which finds the pair again) and before *best. */
static EV_INLINE void offer_pair(const struct event_in *ev, const struct event_ball *a,
                                 size_t k, size_t j, double t, struct event_item *best)
{
    const struct event_ball *q = &ev->b[j];
    if (t <= best->t && t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)j, q->cnt};
        if (t < best->t || ev_tie(ev, (int32_t)k, &e, (int32_t)k, best))
            *best = e;
    }
}

static EV_INLINE void predict_pair(const struct event_in *ev, const struct event_ball *a,
                                   size_t k, size_t j, struct event_item *best, int general)
{
    offer_pair(ev, a, k, j, pair_time(ev, a, &ev->b[j], general, INFINITY), best);
}

/* Plain hard balls: predicts ball @p a (record k) against the nc records
 * in cand but skip, in two passes. The first keeps the approaching pairs
 * (D.V < 0, as straight_time's first test) without a branch per receding
 * one (about half: a branch on them is anyone's guess); the second times
 * those, each bounded by the best so far (see straight_time). @p now: as
 * plain_time's. */
static EV_INLINE void predict_plain(const struct event_in *ev, const struct event_ball *a,
                                    size_t k, size_t skip, int32_t *cand, size_t nc,
                                    struct event_item *best, int now)
{
    size_t na = 0;
    for (size_t c = 0; c < nc; c++) {
        const struct event_ball *q = &ev->b[cand[c]];
        double tr = now ? a->tb : a->tb > q->tb ? a->tb : q->tb;
        double dx = (q->x + (tr - q->tb) * q->vx) - (a->x + (tr - a->tb) * a->vx);
        double dy = (q->y + (tr - q->tb) * q->vy) - (a->y + (tr - a->tb) * a->vy);
        double b = dx * (q->vx - a->vx) + dy * (q->vy - a->vy);
        cand[na] = cand[c];
        na += (b < 0) & ((size_t)cand[c] != skip);
    }
    for (size_t c = 0; c < na; c++)
        offer_pair(ev, a, k, (size_t)cand[c],
                   plain_time(ev, a, &ev->b[cand[c]], best->t, now), best);
}

/* Predicts ball @p a (record k) against the small balls in the w x h
 * cells from (cx, cy) (at most 3x3) but k and skip: the cells' first
 * balls gathered at once, without a branch per ball, then predicted (k
 * itself drops out as receding: D = V = 0); the more of crowded cells
 * after them. */
static EV_INLINE void predict_window(const struct event_in *ev, const struct event_ball *a,
                                     size_t k, size_t skip, long cx, long cy, long w,
                                     long h, struct event_item *best, int general)
{
    int32_t cand[9 * EV_CELL_CAP + EV_CELL_CAP];
    size_t nc = 0;
    int32_t over = 0;
    long stride = ev->nx + 2;
    const struct event_cell *first = &ev->cell[cell_at(ev, cx, cy)];
    for (long r = 0; r < h; r++)
        for (long i = 0; i < w; i++) {
            const struct event_cell *cl = &first[r * stride + i];
            int32_t n = cl->n;
            memcpy(&cand[nc], cl->j, sizeof cl->j);
            nc += (size_t)(n < EV_CELL_CAP ? n : EV_CELL_CAP);
            over |= n; /* at least every n: > EV_CELL_CAP when one is */
        }
    if (!general) {
        if (a->tb == ev->t)
            predict_plain(ev, a, k, skip, cand, nc, best, 1);
        else
            predict_plain(ev, a, k, skip, cand, nc, best, 0);
    } else {
        for (size_t c = 0; c < nc; c++)
            if ((size_t)cand[c] != k && (size_t)cand[c] != skip)
                predict_pair(ev, a, k, (size_t)cand[c], best, general);
    }
    if (over > EV_CELL_CAP)
        for (long r = 0; r < h; r++)
            for (long i = 0; i < w; i++) {
                long c = (first - ev->cell) + r * stride + i;
                if (ev->cell[c].n > EV_CELL_CAP)
                    for (int32_t j = ev->more[c]; j >= 0; j = ev->b[j].next)
                        if ((size_t)j != k && (size_t)j != skip)
                            predict_pair(ev, a, k, (size_t)j, best, general);
            }
}

/* Predicts the pairs of record k with every ball near enough (all of them
 * without the grid), except @p skip (its partner just now, receding: two
 * balls flying apart never meet again before one of them changes course).
 * Only small balls are in the cells; the big ones are looked at by all. */
static EV_INLINE void predict_pairs_in(const struct event_in *ev, size_t k, size_t skip,
                                       struct event_item *out, int general)
{
    /* local copies: the compiler need not reload them after each store */
    struct event_item best = *out;
    const struct event_ball a = ev->b[k];
    if (!ev->grid) {
        for (size_t j = 0; j < ev->n; j++)
            if (j != k && j != skip)
                predict_pair(ev, &a, k, j, &best, general);
        *out = best;
        return;
    }
    if (ev->nl && ev->nbr[k].n >= 0) {
        const struct event_nlist *l = &ev->nbr[k];
        if (!general) { /* lists are chosen for plain hard balls only */
            int32_t cand[NL_CAP];
            memcpy(cand, l->j, sizeof cand);
            if (a.tb == ev->t)
                predict_plain(ev, &a, k, skip, cand, (size_t)l->n, &best, 1);
            else
                predict_plain(ev, &a, k, skip, cand, (size_t)l->n, &best, 0);
        } else {
            for (int32_t c = 0; c < l->n; c++)
                if ((size_t)l->j[c] != skip)
                    predict_pair(ev, &a, k, (size_t)l->j[c], &best, general);
        }
        *out = best;
        return;
    }
    long x0, x1, y0, y1;
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    if (ev->q[k].reach == 1)
        predict_window(ev, &a, k, skip, ev->q[k].cx - 1, ev->q[k].cy - 1, 3, 3, &best,
                       general);
    else
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    if ((size_t)j != k && (size_t)j != skip)
                        predict_pair(ev, &a, k, (size_t)j, &best, general);
    for (size_t c = 0; c < ev->nbig; c++) {
        size_t j = (size_t)ev->big[c];
        if (j != k && j != skip)
            predict_pair(ev, &a, k, j, &best, general);
    }
    *out = best;
}

/* predict_pairs_in, expanded for plain hard balls and for the rest */
static void predict_pairs(const struct event_in *ev, size_t k, size_t skip,
                          struct event_item *out)
{
    if (ev->general)
        predict_pairs_in(ev, k, skip, out, 1);
    else
        predict_pairs_in(ev, k, skip, out, 0);
}

/* Record k's earliest collision is @p pair and its own next event @p own:
 * its slot becomes the earlier. */
static EV_INLINE void settle(struct event_in *ev, size_t k, struct event_item pair,
                             struct event_item own)
{
    ev->q[k].pair = pair;
    ev_set_slot(ev, (int32_t)k, ev_less(ev, (int32_t)k, &pair, (int32_t)k, &own) ? pair : own);
}

/* Predicts record k again: its slot becomes its earliest event. */
void ev_predict(struct event_in *ev, size_t k, size_t skip)
{
    struct event_item own, pair = {INFINITY, -1, 0};
    ev_predict_own(ev, k, &own);
    predict_pairs(ev, k, skip, &pair);
    settle(ev, k, pair, own);
}

/* Record k has crossed into the next cell along x (dx = +-1) or y: the
 * collisions it predicted stay right, the earliest of them is in pair[k],
 * so only the row or column of cells that has come into reach is new (and
 * the big balls). A stale earliest hides the next one: then all again. */
static EV_INLINE void predict_crossed_in(struct event_in *ev, size_t k, long dx, long dy,
                                         int general)
{
    struct event_item pair = ev->q[k].pair;
    if (ev->q[k].reach > 1 || (pair.j >= 0 && stale(ev, &pair))) {
        ev_predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    ev_predict_own(ev, k, &own);
    const struct event_ball a = ev->b[k];
    /* the row or column just come into reach (the border's, when at the
     * edge: empty) */
    long cx = ev->q[k].cx + dx, cy = ev->q[k].cy + dy;
    if (dx)
        predict_window(ev, &a, k, (size_t)-1, cx, cy - 1, 1, 3, &pair, general);
    else
        predict_window(ev, &a, k, (size_t)-1, cx - 1, cy, 3, 1, &pair, general);
    /* a big ball sees small ones only within its reach: each small ball
     * looks at the big ones at every move */
    for (size_t c = 0; c < ev->nbig; c++)
        predict_pair(ev, &a, k, (size_t)ev->big[c], &pair, general);
    settle(ev, k, pair, own);
}

/* predict_crossed_in, expanded as predict_pairs is */
void ev_predict_crossed(struct event_in *ev, size_t k, long dx, long dy)
{
    if (ev->general)
        predict_crossed_in(ev, k, dx, dy, 1);
    else
        predict_crossed_in(ev, k, dx, dy, 0);
}

/* Record k has moved cen_h from the centre of its list: a new list, and
 * its predictions over the balls new to it (no course changes). */
void ev_renew(struct event_in *ev, size_t k)
{
    struct event_nlist old = ev->nbr[k];
    ev_nl_build(ev, k);
    /* As after a crossing: the earliest collision over the old list is in
     * pair[k] (unless stale), so only the new neighbours are predicted. */
    struct event_item pair = ev->q[k].pair;
    const struct event_nlist *l = &ev->nbr[k];
    if (old.n < 0 || l->n < 0 || (pair.j >= 0 && stale(ev, &pair))) {
        ev_predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    ev_predict_own(ev, k, &own);
    const struct event_ball a = ev->b[k];
    for (int32_t c = 0; c < l->n; c++) {
        int32_t j = l->j[c], o = 0;
        while (o < old.n && old.j[o] != j)
            o++;
        if (o == old.n)
            predict_pair(ev, &a, k, (size_t)j, &pair, 0);
    }
    settle(ev, k, pair, own);
}
