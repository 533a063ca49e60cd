/*
 * event.c - the event-driven hard-ball engine: predictions, the grid and
 * its cell crossings, the loop (times in event_time.c, the queue in
 * event_queue.c).
 *
 * Prediction is canonical: a pair is always predicted from the later of its
 * two balls' own times, a wall from the ball's own time, so a prediction
 * does not depend on when it is made. Cell crossings change no trajectory
 * and no own time, so the grid and the all-pairs search compute the same
 * collisions with the same rounding.
 *
 * The balls live in records of one cache line each, sorted by cell at init
 * (a ball's neighbours are then mostly near it in memory); `id` and `at` map
 * records to ball numbers and back. Ball numbers decide the order of events
 * at equal times and the order of every sum, so the renumbering changes no
 * result.
 */
#include "event_impl.h"
#include "event_queue.h"
#include "event_time.h"
#include "mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* n elements of @p size for the engine's arrays (64-byte aligned, on huge
 * pages where the program asked, see mem.h), or NULL. */
static void *array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    return mem_alloc(n * size);
}

/* Appends @p str, then the decimal @p v when with_num, at buf[*at]. */
static void put(char *buf, size_t len, size_t *at, const char *str, int with_num,
                size_t v)
{
    char num[24];
    size_t k = sizeof num;
    num[--k] = 0;
    do
        num[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k > 0);
    for (const char *c = str; *c && *at + 1 < len; c++)
        buf[(*at)++] = *c;
    for (const char *c = num + k; with_num && *c && *at + 1 < len; c++)
        buf[(*at)++] = *c;
    if (len)
        buf[*at] = 0;
}

const char *event_fault_text(char *buf, size_t len, int rc,
                             const struct event_fault *f, const struct sim *s)
{
    size_t at = 0;
    if (rc == EVENT_EOVERLAP) {
        put(buf, len, &at, "event engine: balls ", 1, sim_ball(s, f->i) + 1);
        put(buf, len, &at, " and ", 1, sim_ball(s, f->j) + 1);
        put(buf, len, &at, " overlap", 0, 0);
    } else if (rc == EVENT_EWALL) {
        put(buf, len, &at, "event engine: ball ", 1, sim_ball(s, f->i) + 1);
        put(buf, len, &at, " reaches through the wall", 0, 0);
    } else {
        put(buf, len, &at, "event engine: out of memory", 0, 0);
    }
    return buf;
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

static void predict_own_general(struct event *ev, size_t k, struct event_item *e);

/* Record k's own next event: the first wall, and with the grid the first
 * cell crossing. Sets its tlim (the wall's time: a crossing changes no
 * course, so it bounds no prediction, and the grid and all pairs then see
 * the same collisions in the same order) and writes the event to *e.
 * Plain hard balls between closed walls here, in as few instructions as
 * measured (a tenth of an event's); a field, friction or open sides in
 * predict_own_general. */
/* A record's own event @p code at time @p t (not before now) into *e. */
static EV_INLINE void own_event(const struct event *ev, double t, int code,
                                struct event_item *e)
{
    *e = (struct event_item){t < ev->t ? ev->t : t, -1 - code, 0};
}

static void predict_own(struct event *ev, size_t k, struct event_item *e)
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
static void predict_own_general(struct event *ev, size_t k, struct event_item *e)
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
static EV_INLINE void offer_pair(const struct event *ev, const struct event_ball *a,
                                 size_t k, size_t j, double t, struct event_item *best)
{
    const struct event_ball *q = &ev->b[j];
    if (t <= best->t && t < a->tlim && t < q->tlim) {
        struct event_item e = {t, (int32_t)j, q->cnt};
        if (t < best->t || ev_tie(ev, (int32_t)k, &e, (int32_t)k, best))
            *best = e;
    }
}

static EV_INLINE void predict_pair(const struct event *ev, const struct event_ball *a,
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
static EV_INLINE void predict_plain(const struct event *ev, const struct event_ball *a,
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

/* The cells record k must look at: its own and reach[k] on every side,
 * clipped to the grid. */
static void cell_window(const struct event *ev, size_t k, long *x0, long *x1,
                        long *y0, long *y1)
{
    long reach = ev->q[k].reach;
    *x0 = ev->q[k].cx - reach > 0 ? ev->q[k].cx - reach : 0;
    *y0 = ev->q[k].cy - reach > 0 ? ev->q[k].cy - reach : 0;
    *x1 = ev->q[k].cx + reach < ev->nx ? ev->q[k].cx + reach : ev->nx - 1;
    *y1 = ev->q[k].cy + reach < ev->ny ? ev->q[k].cy + reach : ev->ny - 1;
}

/* Predicts ball @p a (record k) against the small balls in the w x h
 * cells from (cx, cy) (at most 3x3) but k and skip: the cells' first
 * balls gathered at once, without a branch per ball, then predicted (k
 * itself drops out as receding: D = V = 0); the more of crowded cells
 * after them. */
static EV_INLINE void predict_window(const struct event *ev, const struct event_ball *a,
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
static EV_INLINE void predict_pairs_in(const struct event *ev, size_t k, size_t skip,
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
static void predict_pairs(const struct event *ev, size_t k, size_t skip,
                          struct event_item *out)
{
    if (ev->general)
        predict_pairs_in(ev, k, skip, out, 1);
    else
        predict_pairs_in(ev, k, skip, out, 0);
}

/* Record k's earliest collision is @p pair and its own next event @p own:
 * its slot becomes the earlier. */
static EV_INLINE void settle(struct event *ev, size_t k, struct event_item pair,
                             struct event_item own)
{
    ev->q[k].pair = pair;
    ev_set_slot(ev, (int32_t)k, ev_less(ev, (int32_t)k, &pair, (int32_t)k, &own) ? pair : own);
}

/* Predicts record k again: its slot becomes its earliest event. */
static void predict(struct event *ev, size_t k, size_t skip)
{
    struct event_item own, pair = {INFINITY, -1, 0};
    predict_own(ev, k, &own);
    predict_pairs(ev, k, skip, &pair);
    settle(ev, k, pair, own);
}

/* Record k has crossed into the next cell along x (dx = +-1) or y: the
 * collisions it predicted stay right, the earliest of them is in pair[k],
 * so only the row or column of cells that has come into reach is new (and
 * the big balls). A stale earliest hides the next one: then all again. */
static EV_INLINE void predict_crossed_in(struct event *ev, size_t k, long dx, long dy,
                                         int general)
{
    struct event_item pair = ev->q[k].pair;
    if (ev->q[k].reach > 1 || (pair.j >= 0 && stale(ev, &pair))) {
        predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    predict_own(ev, k, &own);
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
static void predict_crossed(struct event *ev, size_t k, long dx, long dy)
{
    if (ev->general)
        predict_crossed_in(ev, k, dx, dy, 1);
    else
        predict_crossed_in(ev, k, dx, dy, 0);
}

/* === Grid === */

static void cell_link(struct event *ev, size_t k)
{
    if (ev->q[k].reach > 1)
        return;
    long c = cell_at(ev, ev->q[k].cx, ev->q[k].cy);
    struct event_cell *cl = &ev->cell[c];
    if (cl->n < EV_CELL_CAP) {
        cl->j[cl->n++] = (int32_t)k;
        return;
    }
    /* more[c] means something only while the cell holds more than
     * EV_CELL_CAP (it is never set up otherwise: at start-up that is a
     * page of memory untouched for every 1024 cells) */
    int32_t head = cl->n > EV_CELL_CAP ? ev->more[c] : -1;
    cl->n++;
    ev->c[k].prev = -1;
    ev->b[k].next = head;
    if (head >= 0)
        ev->c[head].prev = (int32_t)k;
    ev->more[c] = (int32_t)k;
}

/* Takes record k out of the list of more balls of cell c. */
static void more_unlink(struct event *ev, long c, size_t k)
{
    if (ev->c[k].prev >= 0)
        ev->b[ev->c[k].prev].next = ev->b[k].next;
    else
        ev->more[c] = ev->b[k].next;
    if (ev->b[k].next >= 0)
        ev->c[ev->b[k].next].prev = ev->c[k].prev;
}

static void cell_unlink(struct event *ev, size_t k)
{
    if (ev->q[k].reach > 1)
        return;
    long c = cell_at(ev, ev->q[k].cx, ev->q[k].cy);
    struct event_cell *cl = &ev->cell[c];
    int32_t m = cl->n < EV_CELL_CAP ? cl->n : EV_CELL_CAP;
    for (int32_t i = 0; i < m; i++)
        if (cl->j[i] == (int32_t)k) {
            if (cl->n > EV_CELL_CAP) { /* one of the more takes its place */
                int32_t o = ev->more[c];
                more_unlink(ev, c, (size_t)o);
                cl->j[i] = o;
            } else {
                cl->j[i] = cl->j[m - 1];
            }
            cl->n--;
            return;
        }
    more_unlink(ev, c, k);
    cl->n--;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long clamp_cell(double q, double size, long n)
{
    double c = floor(q / size);
    if (!(c >= 0))
        return 0;
    if (c >= (double)n)
        return n - 1;
    return (long)c;
}

/*
 * The cell size: at least the diameter of the largest "small" ball (one no
 * more than 4 times the median radius), so that two small balls in contact
 * are in neighbouring cells, and at least sqrt(area / n), so that there are
 * no more cells than balls. A bigger ball looks `reach` cells each side.
 * Balls numbered i are then stored in cell order: *order gets, for each
 * record k, the ball number (a counting sort, stable in ball numbers).
 */
static int grid_size(struct event *ev, const struct sim *s, int32_t *order)
{
    size_t n = ev->n;
    double rlo = INFINITY, rhi = 0;
    for (size_t i = 0; i < n; i++) {
        rlo = s->r[i] < rlo ? s->r[i] : rlo;
        rhi = s->r[i] > rhi ? s->r[i] : rhi;
    }
    double rsmall = n ? rhi : 0;
    if (rlo < rhi) { /* the median and the largest radius within 4 times it */
        double *rs = malloc(n * sizeof *rs);
        if (!rs)
            return -1;
        memcpy(rs, s->r, n * sizeof *rs);
        qsort(rs, n, sizeof *rs, cmp_double);
        double med = rs[n / 2];
        rsmall = 0;
        for (size_t a = 0; a < n && rs[a] <= 4 * med; a++)
            rsmall = rs[a];
        free(rs);
    }
    /* The spacing of the balls, sqrt(w) sqrt(h / n), not sqrt(w h / n): no
     * overflow to infinity (one cell, all pairs) on a 1e200 table, no
     * underflow to 0 (a cell per ball diameter, 1e12 of them) on a 1e-200
     * one. Cells of 3/4 of it in a dilute gas (fewer crossings against
     * fewer neighbours, measured from packing 0.01 to 0.05), of one
     * diameter from packing about 0.2 up (then the cells hold fewer than a
     * ball each); at most about 4 n cells either way. */
    double nb = (double)(n ? n : 1);
    double d = 2 * rsmall * (1 + 2e-6); /* small in grid_link, despite rounding */
    double c = 0.75 * sqrt(ev->p.w) * sqrt(ev->p.h / nb);
    if (!(c >= 1.5 * d))
        c = d;
    if (ev->nl) /* lists: neighbours' centres in the next cells */
        c = (2 * rhi + ev->skin) * (1 + 2e-6);
    double fx = floor(ev->p.w / c), fy = floor(ev->p.h / c);
    double cap = 2 * nb < 1e6 ? 2 * nb : 1e6;
    ev->nx = fx < 1 ? 1 : fx > cap ? (long)cap : (long)fx;
    ev->ny = fy < 1 ? 1 : fy > cap ? (long)cap : (long)fy;
    ev->cw = ev->p.w / (double)ev->nx;
    ev->ch = ev->p.h / (double)ev->ny;
    size_t padded = (size_t)(ev->nx + 2) * (size_t)(ev->ny + 2);
    ev->cell = array(padded, sizeof *ev->cell);
    ev->more = array(padded, sizeof *ev->more);
    ev->big = array(n ? n : 1, sizeof *ev->big);
    /* the balls' cells, then the balls by row */
    size_t nn = n ? n : 1, nx = (size_t)ev->nx, ny = (size_t)ev->ny;
    int32_t *key = array(2 * nn, sizeof *key);
    size_t *rows = malloc((ny + 1 + nx + 1) * sizeof *rows), *cols = rows + ny + 1;
    if (!ev->cell || !ev->more || !ev->big || !key || !rows) {
        mem_free(key);
        free(rows);
        return -1;
    }
    int32_t *byrow = key + nn;
    /* A counting sort by row, then one by column within each row (both
     * stable: balls of a cell stay in number order). Each counts in a
     * table of one row's size, which stays in the first-level cache; one
     * count for each cell of the grid (10 MB at 10^6 balls) cost two cache
     * misses a ball. */
    memset(rows, 0, (ny + 1) * sizeof *rows);
    for (size_t i = 0; i < n; i++) {
        long cx = clamp_cell(s->x[i], ev->cw, ev->nx);
        long cy = clamp_cell(s->y[i], ev->ch, ev->ny);
        key[i] = (int32_t)(cy * ev->nx + cx);
        rows[cy + 1]++;
    }
    for (size_t y = 0; y < ny; y++)
        rows[y + 1] += rows[y];
    for (size_t i = 0; i < n; i++)
        byrow[rows[(size_t)key[i] / nx]++] = (int32_t)i;
    /* rows[y] is now the end of row y */
    for (size_t y = 0, lo = 0; y < ny; lo = rows[y++]) {
        size_t hi = rows[y], base = y * nx;
        if (hi - lo < 2) { /* mostly so in a thin gas */
            if (hi > lo)
                order[lo] = byrow[lo];
            continue;
        }
        memset(cols, 0, (nx + 1) * sizeof *cols);
        for (size_t a = lo; a < hi; a++)
            cols[(size_t)key[byrow[a]] - base + 1]++;
        cols[0] = lo;
        for (size_t x = 0; x < nx; x++)
            cols[x + 1] += cols[x];
        for (size_t a = lo; a < hi; a++)
            order[cols[(size_t)key[byrow[a]] - base]++] = byrow[a];
    }
    mem_free(key);
    free(rows);
    return 0;
}

/* Links the records into their cells (grid_size has sized the grid). A
 * ball is small, in the cells, when two such balls in contact are in
 * neighbouring cells (2 r (1 + 1e-6) <= the cell); a bigger one is looked
 * at by every ball and looks `reach` cells each side for the small ones. */
static void grid_link(struct event *ev)
{
    size_t cells = (size_t)(ev->nx + 2) * (size_t)(ev->ny + 2);
    static const struct event_cell empty = {0, {-1, -1, -1}};
    for (size_t c = 0; c < cells; c++)
        ev->cell[c] = empty;
    double cmin = ev->cw < ev->ch ? ev->cw : ev->ch, rsmall = 0;
    for (size_t k = 0; k < ev->n; k++)
        if (2 * ev->b[k].r * (1 + 1e-6) <= cmin && ev->b[k].r > rsmall)
            rsmall = ev->b[k].r;
    ev->rsmall = rsmall;
    ev->nbig = 0;
    for (size_t k = 0; k < ev->n; k++) { /* cells in record order */
        double r = ev->b[k].r;
        ev->q[k].cx = (int32_t)clamp_cell(ev->b[k].x, ev->cw, ev->nx);
        ev->q[k].cy = (int32_t)clamp_cell(ev->b[k].y, ev->ch, ev->ny);
        ev->q[k].reach = 1;
        if (!(2 * r * (1 + 1e-6) <= cmin)) {
            double reach = floor((r + rsmall) * (1 + 1e-6) / cmin) + 1;
            ev->q[k].reach = reach > 1e6 ? 1000000 : reach < 2 ? 2 : (int32_t)reach;
        }
        cell_link(ev, k);
    }
    for (size_t k = 0; k < ev->n; k++)
        if (ev->q[k].reach > 1)
            ev->big[ev->nbig++] = (int32_t)k;
}

/* === Neighbour lists === */

/*
 * In a dense gas a ball's neighbours change slowly (Smallenburg's
 * approach): each record keeps a list of the balls within r_i + r_j + skin
 * of it, measured between the centres where the two lists were built, and
 * an event (EV_NLIST) when it has moved cen_h, just under skin / 2, from
 * its centre. Two balls not in each other's lists are more than r_i + r_j
 * apart while both stay within skin / 2 of their centres, so they cannot
 * touch before one of them builds its list again; predictions then go over
 * the few balls of a list instead of those in 3x3 cells, and there are no
 * cell crossings. The lists are symmetric: a ball building its list takes
 * itself out of its old neighbours' lists and puts itself into its new
 * ones'. The cells (at least 2 r_max + skin wide) hold the balls by their
 * centres, so a list is built from the 3x3 cells around its centre. A list
 * that would hold more than NL_CAP balls (balls crowding, as in a state
 * taken over from the spring engine) is wide: its ball looks at those
 * cells instead, and it stays in the lists of the others.
 *
 * Like a crossing, a new list changes no course and no own time (the
 * centre is computed, the record is not drifted), so the lists give the
 * same collisions as the grid and all pairs, bit for bit.
 */

static void nl_add(struct event *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    if (l->n >= NL_CAP)
        l->n = -1;
    else if (l->n >= 0)
        l->j[l->n++] = j;
}

static void nl_drop(struct event *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    for (int32_t c = 0; c < l->n; c++)
        if (l->j[c] == j) {
            l->j[c] = l->j[--l->n];
            return;
        }
}

/* Whether records k and j, with centres in their lists, are neighbours. */
static EV_INLINE int nl_near(const struct event *ev, size_t k, size_t j)
{
    const struct event_nlist *a = &ev->nbr[k], *q = &ev->nbr[j];
    double dx = q->cx - a->cx, dy = q->cy - a->cy;
    double reach = ev->b[k].r + ev->b[j].r + ev->skin;
    return dx * dx + dy * dy < reach * reach;
}

/* Record k's list built anew around where it is now: out of its old
 * neighbours' lists, into the cell of its new centre, then every ball near
 * enough in the 3x3 cells around it into its list and it into theirs. */
static void nl_build(struct event *ev, size_t k)
{
    struct event_nlist *l = &ev->nbr[k];
    long x0, x1, y0, y1;
    const struct event_ball *b = ev->b;
    if (l->n >= 0) {
        for (int32_t c = 0; c < l->n; c++)
            nl_drop(ev, (size_t)l->j[c], (int32_t)k);
    } else {
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    nl_drop(ev, (size_t)j, (int32_t)k);
    }
    cell_unlink(ev, k);
    const struct event_ball *a = &b[k];
    double dt = ev->t - a->tb;
    l->cx = a->x + dt * a->vx;
    l->cy = a->y + dt * a->vy;
    l->n = 0;
    ev->q[k].cx = (int32_t)clamp_cell(l->cx, ev->cw, ev->nx);
    ev->q[k].cy = (int32_t)clamp_cell(l->cy, ev->ch, ev->ny);
    cell_link(ev, k);
    cell_window(ev, k, &x0, &x1, &y0, &y1);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++)
            for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                if ((size_t)j != k && nl_near(ev, k, (size_t)j)) {
                    nl_add(ev, k, j);
                    nl_add(ev, (size_t)j, (int32_t)k);
                }
    ev->rebuilds++;
}

/* Every record's list at init, centred where it is (grid_link has put the
 * records into the cells by position). */
static void nl_init(struct event *ev)
{
    const struct event_ball *b = ev->b;
    for (size_t k = 0; k < ev->n; k++) {
        ev->nbr[k].cx = b[k].x;
        ev->nbr[k].cy = b[k].y;
        ev->nbr[k].n = 0;
    }
    for (size_t k = 0; k < ev->n; k++) {
        long x0, x1, y0, y1;
        cell_window(ev, k, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t it = 0, j; (j = cell_step(ev, cell_at(ev, cx, cy), &it)) >= 0;)
                    if ((size_t)j > k && nl_near(ev, k, (size_t)j)) {
                        nl_add(ev, k, j);
                        nl_add(ev, (size_t)j, (int32_t)k);
                    }
    }
}

/* === Init and checks === */

static int overlap(const struct event *ev, size_t k, size_t j)
{
    const struct event_ball *a = &ev->b[k], *q = &ev->b[j];
    double dx = q->x - a->x, dy = q->y - a->y;
    double sig = (a->r + q->r) * (1 - EVENT_TOUCH_TOL);
    return dx * dx + dy * dy < sig * sig;
}

/* Pair (k, j) as a candidate for record k's earliest collision. */
static void offer(struct event *ev, size_t k, size_t j, double t)
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
static void init_pair(struct event *ev, size_t k, size_t j, struct first_pair *fp)
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
static void init_pairs(struct event *ev, struct first_pair *fp)
{
    size_t n = ev->n;
    for (size_t k = 0; k < n; k++)
        ev->q[k].pair = (struct event_item){INFINITY, -1, 0};
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
        double x = s->x[i], y = s->y[i], r = s->r[i], tol = EVENT_TOUCH_TOL * r;
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

/* tc and umin from the fastest ball seen at init or in a kick. */
static void set_scales(struct event *ev, double vmax)
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

/* Kinetic energy now, summed in ball number order; with *pf the field's
 * potential -sum m g.x and with *out the balls wholly past an open side. */
static double kinetic(const struct event *ev, double *pf, long *out)
{
    double ke = 0, f = 0;
    long o = 0;
    unsigned op = ev->p.open;
    for (size_t i = 0; i < ev->n; i++) {
        size_t k = (size_t)ev->at[i];
        double x, y, vx, vy, r = ev->b[k].r;
        ball_now(ev, &ev->b[k], &x, &y, &vx, &vy);
        ke += 0.5 * ev->c[k].m * (vx * vx + vy * vy);
        if (ev->field)
            f -= ev->c[k].m * (ev->gx * x + ev->gy * y);
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

/* Brings the arrays by ball number up to date. */
static void publish(struct event *ev)
{
    for (size_t k = 0; k < ev->n; k++) {
        size_t i = (size_t)ev->q[k].id;
        double x, y;
        ball_now(ev, &ev->b[k], &x, &y, &ev->vx[i], &ev->vy[i]);
        ev->ncoll[i] = kcoll(ev, k);
    }
}

int event_init(struct event *ev, const struct sim *s,
               const struct event_config *cfg, struct event_fault *fault)
{
    struct event_config dc = event_default_config();
    if (!cfg)
        cfg = &dc;
    memset(ev, 0, sizeof *ev);
    if (s->n > (size_t)INT32_MAX)
        return EVENT_ENOMEM;
    if (!cfg->allow_overlap) {
        int rc = find_wall(s, fault);
        if (rc)
            return rc;
    }
    size_t n = s->n, cnt = n ? n : 1;
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
    /* the records (each within a cache line) and the arrays by ball number */
    int fail = !(ev->b = array(cnt, sizeof *ev->b));
    fail |= !(ev->q = array(cnt, sizeof *ev->q));
    fail |= !(ev->c = array(cnt, sizeof *ev->c));
    if (ev->nl)
        fail |= !(ev->nbr = array(cnt, sizeof *ev->nbr));
    fail |= !(ev->vx = array(cnt, sizeof *ev->vx));
    fail |= !(ev->vy = array(cnt, sizeof *ev->vy));
    fail |= !(ev->ncoll = array(cnt, sizeof *ev->ncoll)); /* set by publish */
    ev->capl = cnt + 16;
    fail |= !(ev->lhead = array(ev->capl + 1, sizeof *ev->lhead));
    fail |= !(ev->at = array(cnt, sizeof *ev->at));
    fail |= !(ev->near = array(cnt, sizeof *ev->near));
    int32_t *order = malloc(cnt * sizeof *order);
    if (fail || !order || (ev->grid && grid_size(ev, s, order))) {
        free(order);
        event_free(ev);
        return EVENT_ENOMEM;
    }
    double rmin = INFINITY, vmax = 0;
    ev->mono = 1;
    ev->mass = n ? s->m[0] : 1;
    for (size_t k = 0; k < n; k++)
        ev->at[ev->grid ? (size_t)order[k] : k] = (int32_t)k;
    free(order);
    /* balls in number order, records written whole where they go: the
     * six arrays are read in order, only the writes land at random (balls
     * placed at random are numbered in no spatial order) */
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)ev->at[i];
        ev->q[k].id = (int32_t)i;
        ev->mono &= memcmp(&s->m[i], &ev->mass, sizeof ev->mass) == 0; /* the same bits */
        ev->b[k] = (struct event_ball){.x = s->x[i], .y = s->y[i], .vx = s->vx[i],
                                       .vy = s->vy[i], .tb = s->t, .r = s->r[i],
                                       .tlim = INFINITY, .cnt = EV_CNT0, .next = -1};
        ev->c[k] = (struct event_cold){.m = s->m[i], .tlast = -INFINITY, .other = EV_CNT0};
        double v = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        if (v > vmax)
            vmax = v;
        if (s->r[i] < rmin)
            rmin = s->r[i];
    }
    if (ev->grid)
        grid_link(ev);
    if (ev->nl)
        nl_init(ev);
    ev->rmin = rmin;
    ev->gx = s->p.gx;
    ev->gy = s->p.gy;
    ev->field = ev->gx != 0 || ev->gy != 0;
    ev->fric = s->p.friction == SIM_FRICTION_LINEAR || s->p.friction == SIM_FRICTION_ROLLING
                   ? s->p.friction : SIM_FRICTION_NONE;
    ev->fc = s->p.friction_c;
    ev->general = ev->field || ev->fric;
    ev->hrest = 1e-3 * (rmin > 0 && rmin < INFINITY ? rmin : 1e-6 * (s->p.w < s->p.h ? s->p.w : s->p.h));
    ev->tc_auto = !(cfg->tc >= 0);
    ev->tc = ev->tc_auto ? 0 : cfg->tc;
    set_scales(ev, vmax);
    double pf0;
    ev->ke0 = kinetic(ev, &pf0, NULL);
    ev->e0 = ev->ke0 + pf0;
    /* Own events first, so that every pair sees both limits; then each
     * ball's earliest collision, and the overlap check on the way. */
    for (size_t k = 0; k < n; k++)
        predict_own(ev, k, &ev->q[k].slot);
    struct first_pair fp = {!cfg->allow_overlap, n, n};
    init_pairs(ev, &fp);
    if (fp.bi < n) {
        if (fault) {
            fault->i = fp.bi;
            fault->j = fp.bj;
        }
        event_free(ev);
        return EVENT_EOVERLAP;
    }
    for (size_t k = 0; k < n; k++)
        if (ev_less(ev, (int32_t)k, &ev->q[k].pair, (int32_t)k, &ev->q[k].slot))
            ev->q[k].slot = ev->q[k].pair;
    ev_q_rebuild(ev);
    publish(ev);
    return EVENT_OK;
}

void event_free(struct event *ev)
{
    void *p[] = {ev->b, ev->q, ev->c, ev->vx, ev->vy, ev->ncoll, ev->lhead,
                 ev->near, ev->at, ev->cell, ev->more, ev->big, ev->nbr};
    for (size_t a = 0; a < sizeof p / sizeof *p; a++)
        mem_free(p[a]);
    memset(ev, 0, sizeof *ev);
}

/* === Events === */

static void drift_general(struct event *ev, struct event_ball *a)
{
    ev_ball_at(ev, a, ev->t, &a->x, &a->y, &a->vx, &a->vy);
    a->tb = ev->t;
}

/* Ball a to the current time (its own time becomes now). */
static EV_INLINE void drift(struct event *ev, struct event_ball *a)
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
static double restitution(const struct event *ev, size_t i, size_t j, double u)
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
static void collide(struct event *ev, size_t i, size_t j)
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
            double mi = ev->mono ? ev->mass : ev->c[i].m;
            double mj = ev->mono ? ev->mass : ev->c[j].m;
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
    if (ev->p.restitution < 1) /* tlast is read only then */
        ev->c[i].tlast = ev->c[j].tlast = ev->t;
    count(ev, i);
    count(ev, j);
    ev->collisions++;
    predict(ev, i, j);
    predict(ev, j, i);
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
static double rest_normal(const struct event *ev, double u, double un, double gn,
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

static void bounce_field(const struct event *ev, double *v, double q, double g,
                         double wall, double out, double e)
{
    double u = out * *v;
    if (u > 0)
        *v = -(u < ev->umin ? 1 : e) * *v;
    *v = out * rest_normal(ev, u, out * *v, out * g, out * (q - wall));
}

static void bounce(struct event *ev, size_t k, int code)
{
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    double e = ev->p.restitution;
    if (e < 1 && ev->t - ev->c[k].tlast < ev->tc)
        e = 1;
    double m = ev->c[k].m, vx0 = a->vx, vy0 = a->vy;
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
    ev->c[k].tlast = ev->t;
    count_other(ev, k);
    ev->walls++;
    predict(ev, k, (size_t)-1);
}

static void cross(struct event *ev, size_t k, int code)
{
    cell_unlink(ev, k);
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
    cell_link(ev, k);
    /* No trajectory changes: the collisions others predicted with k stay
     * valid, and so do k's own. */
    ev->crossings++;
    predict_crossed(ev, k, dx, dy);
}

/* The engine's loop: events with t <= T, at most max physical ones (<= 0:
 * no limit). Returns 1 when the queue holds nothing more up to T, 0 when the
 * budget ran out. *done counts the physical events. */
/* Record k has moved cen_h from the centre of its list: a new list, and
 * its predictions over the balls new to it (no course changes). */
static void renew(struct event *ev, size_t k)
{
    struct event_nlist old = ev->nbr[k];
    nl_build(ev, k);
    /* As after a crossing: the earliest collision over the old list is in
     * pair[k] (unless stale), so only the new neighbours are predicted. */
    struct event_item pair = ev->q[k].pair;
    const struct event_nlist *l = &ev->nbr[k];
    if (old.n < 0 || l->n < 0 || (pair.j >= 0 && stale(ev, &pair))) {
        predict(ev, k, (size_t)-1);
        return;
    }
    struct event_item own;
    predict_own(ev, k, &own);
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

/* The 3x3 cells around record k, into the cache. */
static EV_INLINE void prefetch_window(const struct event *ev, int32_t k)
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
static EV_INLINE void prefetch_cells(const struct event *ev)
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
static EV_INLINE void prefetch_records(const struct event *ev, int32_t k)
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
static EV_INLINE void prefetch_list(const struct event *ev, int32_t k)
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
static EV_INLINE void prefetch_balls(const struct event *ev, int32_t k,
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

static int run(struct event *ev, double T, long long max, long long *done)
{
    *done = 0;
    for (;;) {
        int32_t k = ev_q_top(ev);
        if (k < 0 || !(ev->q[k].slot.t <= T))
            break;
        struct event_item e = ev->q[k].slot;
        prefetch_cells(ev);
        prefetch_balls(ev, k, &e);
        if (stale(ev, &e)) {
            predict(ev, (size_t)k, (size_t)-1);
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
            renew(ev, (size_t)k);
        } else {
            cross(ev, (size_t)k, code);
        }
        *done += physical;
        if (physical && max > 0 && *done >= max)
            return 0;
    }
    return 1;
}

int event_advance(struct event *ev, double T, long long max_events)
{
    long long done;
    int rc = run(ev, T, max_events, &done);
    if (rc == 1 && T > ev->t)
        ev->t = T;
    publish(ev);
    return rc;
}

long long event_step(struct event *ev, long long count)
{
    long long done;
    if (count <= 0)
        return 0;
    run(ev, INFINITY, count, &done);
    publish(ev);
    return done;
}

void event_kick(struct event *ev, size_t i, double vx, double vy)
{
    size_t k = (size_t)ev->at[i];
    struct event_ball *a = &ev->b[k];
    drift(ev, a);
    /* The reference energy of de moves by the kick's work. */
    double v0 = a->vx * a->vx + a->vy * a->vy;
    ev->ke0 += 0.5 * ev->c[k].m * (vx * vx + vy * vy - v0);
    ev->e0 += 0.5 * ev->c[k].m * (vx * vx + vy * vy - v0);
    a->vx = vx;
    a->vy = vy;
    set_scales(ev, sqrt(vx * vx + vy * vy));
    count_other(ev, k);
    predict(ev, k, (size_t)-1);
    publish(ev);
}

void event_position(const struct event *ev, size_t i, double *x, double *y)
{
    double vx, vy;
    ball_now(ev, &ev->b[ev->at[i]], x, y, &vx, &vy);
}

void event_to_sim(const struct event *ev, struct sim *s)
{
    for (size_t i = 0; i < ev->n; i++)
        ball_now(ev, &ev->b[ev->at[i]], &s->x[i], &s->y[i], &s->vx[i], &s->vy[i]);
    s->t = ev->t;
}

void event_diag(const struct event *ev, struct event_diag *d)
{
    memset(d, 0, sizeof *d);
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
        d->px += ev->c[k].m * vx;
        d->py += ev->c[k].m * vy;
    }
    double n = (double)ev->n;
    d->per_ball = ev->n ? 2.0 * (double)ev->collisions / n : 0;
    d->mft = ev->collisions ? n * (ev->t - ev->t0) / (2.0 * (double)ev->collisions)
                            : INFINITY;
    d->ke = kinetic(ev, &d->pf, &d->out);
    d->ke0 = ev->ke0;
    d->e = d->ke + d->pf;
    d->e0 = ev->e0;
    d->de = ev->e0 != 0 ? (d->e - ev->e0) / fabs(ev->e0) : 0;
    d->wall_px = ev->wall_px;
    d->wall_py = ev->wall_py;
    d->heap = ev->nnear + ev->nring + ev->nover;
}
