/*
 * event.c - the event-driven hard-ball engine: predictions, the heap, the
 * grid and its cell crossings.
 *
 * Prediction is canonical: a pair is always predicted from the later of its
 * two balls' own times, a wall from the ball's own time, so a prediction
 * does not depend on when it is made. Cell crossings change no trajectory
 * and no own time, so the grid and the all-pairs search compute the same
 * collisions with the same rounding.
 */
#include "event.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Balls approach when the cosine between their relative position and
 * relative velocity is below -EVENT_APPROACH, not merely below 0: rounding
 * leaves touching balls (the rack) with cosines near +-1e-16 that would
 * otherwise collide at once, forever. A grazing pair skipped so can
 * overlap by at most sigma * EVENT_APPROACH^2 / 2, 5e-21 of the contact.
 */
#define EVENT_APPROACH 1e-10

/* Codes of single-ball events, stored as j = -1 - code. */
enum { EV_WALL_X, EV_WALL_Y, EV_WALL_CIRCLE, EV_CROSS_X, EV_CROSS_Y };

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

/* === Heap === */

/* The total order of events: time, then lower ball, then partner (single
 * ball events, j < 0, first). */
static int ev_less(const struct event_item *a, const struct event_item *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    if (a->i != b->i)
        return a->i < b->i;
    return a->j < b->j;
}

static void sift_down(struct event_item *h, size_t n, size_t k)
{
    struct event_item e = h[k];
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
            c++;
        if (!ev_less(&h[c], &e))
            break;
        h[k] = h[c];
        k = c;
    }
    h[k] = e;
}

static int stale(const struct event *ev, const struct event_item *e)
{
    return e->ci != ev->cnt[e->i] || (e->j >= 0 && e->cj != ev->cnt[e->j]);
}

/* Drops the stale events and rebuilds the heap: O(size), done when the heap
 * has doubled since the last time, so O(1) amortised per push. */
static void compact(struct event *ev)
{
    size_t k = 0;
    for (size_t a = 0; a < ev->nheap; a++)
        if (!stale(ev, &ev->heap[a]))
            ev->heap[k++] = ev->heap[a];
    ev->nheap = k;
    for (size_t a = k / 2; a-- > 0;)
        sift_down(ev->heap, k, a);
    ev->compact_at = 2 * k + 4 * ev->n + 1024;
}

static void push(struct event *ev, double t, int32_t i, int32_t j)
{
    if (ev->nheap == ev->capheap) {
        if (ev->nheap >= ev->compact_at) {
            compact(ev);
            if (ev->nheap < ev->capheap)
                goto room;
        }
        size_t cap = ev->capheap ? 2 * ev->capheap : 1024;
        struct event_item *nh = cap > (size_t)-1 / sizeof *nh ? NULL
                                : realloc(ev->heap, cap * sizeof *nh);
        if (!nh) {
            ev->nomem = 1;
            return;
        }
        ev->heap = nh;
        ev->capheap = cap;
    }
room:;
    struct event_item e = {t, i, j, ev->cnt[i], j >= 0 ? ev->cnt[j] : 0};
    size_t k = ev->nheap++;
    while (k > 0) {
        size_t up = (k - 1) / 2;
        if (!ev_less(&e, &ev->heap[up]))
            break;
        ev->heap[k] = ev->heap[up];
        k = up;
    }
    ev->heap[k] = e;
}

/* Removes the earliest event. Floyd's variant: the hole at the root goes
 * down to a leaf along the earlier children (one comparison a level), and
 * the last event, usually a late one, rises from there (few levels). */
static struct event_item pop(struct event *ev)
{
    struct event_item *h = ev->heap;
    struct event_item top = h[0];
    size_t n = --ev->nheap, k = 0;
    if (n == 0)
        return top;
    struct event_item last = h[n];
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
            c++;
        h[k] = h[c];
        k = c;
    }
    while (k > 0) {
        size_t up = (k - 1) / 2;
        if (!ev_less(&last, &h[up]))
            break;
        h[k] = h[up];
        k = up;
    }
    h[k] = last;
    return top;
}

/* === Predictions === */

/*
 * The time two balls touch, or INFINITY. From the later own time tr of the
 * two, with relative position D and velocity V, |D + sV|^2 = sigma^2 is
 *   vv s^2 + 2 b s + c = 0,  vv = V.V, b = D.V, c = D.D - sigma^2.
 * Only an approach (b < 0) can lead to contact; then the first root is
 *   s = (-b - sqrt(b^2 - vv c)) / vv = c / (-b + sqrt(b^2 - vv c)),
 * the second form without cancellation. c <= 0 (touching or overlapping,
 * by rounding or by allow_overlap) and approaching gives s <= 0: at once.
 */
static double pair_time(const struct event *ev, size_t i, size_t j)
{
    double tr = ev->tb[i] > ev->tb[j] ? ev->tb[i] : ev->tb[j];
    double xi = ev->x[i] + (tr - ev->tb[i]) * ev->vx[i];
    double yi = ev->y[i] + (tr - ev->tb[i]) * ev->vy[i];
    double xj = ev->x[j] + (tr - ev->tb[j]) * ev->vx[j];
    double yj = ev->y[j] + (tr - ev->tb[j]) * ev->vy[j];
    double dx = xj - xi, dy = yj - yi;
    double dvx = ev->vx[j] - ev->vx[i], dvy = ev->vy[j] - ev->vy[i];
    double b = dx * dvx + dy * dvy;
    double vv = dvx * dvx + dvy * dvy;
    double dd = dx * dx + dy * dy;
    /* b < -EVENT_APPROACH |D| |V|, without the square root */
    if (!(b < 0 && b * b > EVENT_APPROACH * EVENT_APPROACH * dd * vv))
        return INFINITY;
    double sig = ev->r[i] + ev->r[j];
    double c = dd - sig * sig;
    double disc = b * b - vv * c;
    if (!(disc >= 0))
        return INFINITY; /* they pass each other */
    double s = c / (-b + sqrt(disc));
    if (s < 0)
        s = 0;
    double t = tr + s;
    return t > ev->t ? t : ev->t;
}

/* Time for coordinate q (at own time tb, speed v) to reach the wall at
 * distance r inside [0, len]: q + s v = len - r or q + s v = r. */
static double wall_axis(double q, double v, double r, double len)
{
    if (v > 0)
        return (len - r - q) / v;
    if (v < 0)
        return (r - q) / v;
    return INFINITY;
}

/*
 * The round table: the centre must stay within R - r of C. With
 * D = p - C, |D + sV|^2 = (R - r)^2 is vv s^2 + 2 b s + c = 0, c <= 0 while
 * inside; the positive root is (-b + sqrt(b^2 - vv c)) / vv, written as
 * -c / (b + sqrt(...)) when b > 0 to avoid cancellation.
 */
static double wall_circle(const struct event *ev, size_t i)
{
    double R = 0.5 * ev->p.w, lim = R - ev->r[i];
    double dx = ev->x[i] - R, dy = ev->y[i] - R;
    double vx = ev->vx[i], vy = ev->vy[i];
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

/* Ball i's own next event: the first wall, and with the grid the first
 * cell crossing. Sets tlim[i] and queues it. */
static void predict_own(struct event *ev, size_t i)
{
    double best = INFINITY;
    int code = -1;
    double tb = ev->tb[i];
    if (ev->p.shape == SIM_CIRCLE) {
        best = wall_circle(ev, i);
        code = EV_WALL_CIRCLE;
    } else {
        double sx = wall_axis(ev->x[i], ev->vx[i], ev->r[i], ev->p.w);
        double sy = wall_axis(ev->y[i], ev->vy[i], ev->r[i], ev->p.h);
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
    if (ev->grid) {
        double vx = ev->vx[i], vy = ev->vy[i];
        double tx = INFINITY, ty = INFINITY;
        if (vx > 0 && ev->cx[i] + 1 < ev->nx)
            tx = tb + ((double)(ev->cx[i] + 1) * ev->cw - ev->x[i]) / vx;
        else if (vx < 0 && ev->cx[i] > 0)
            tx = tb + ((double)ev->cx[i] * ev->cw - ev->x[i]) / vx;
        if (vy > 0 && ev->cy[i] + 1 < ev->ny)
            ty = tb + ((double)(ev->cy[i] + 1) * ev->ch - ev->y[i]) / vy;
        else if (vy < 0 && ev->cy[i] > 0)
            ty = tb + ((double)ev->cy[i] * ev->ch - ev->y[i]) / vy;
        if (tx < best) {
            best = tx;
            code = EV_CROSS_X;
        }
        if (ty < best) {
            best = ty;
            code = EV_CROSS_Y;
        }
    }
    if (best < ev->t)
        best = ev->t;
    ev->tlim[i] = best;
    if (best < INFINITY)
        push(ev, best, (int32_t)i, -1 - code);
}

/* Queues the collision of i and j if it comes before both balls' own next
 * events: an own event re-predicts its ball, which finds the pair again. */
static void predict_pair(struct event *ev, size_t i, size_t j)
{
    double t = pair_time(ev, i, j);
    if (t < ev->tlim[i] && t < ev->tlim[j]) {
        if (i < j)
            push(ev, t, (int32_t)i, (int32_t)j);
        else
            push(ev, t, (int32_t)j, (int32_t)i);
    }
}

/* The cells ball i must look at: its own and ev->reach[i] on every side,
 * clipped to the grid. */
static void cell_window(const struct event *ev, size_t i, long *x0, long *x1,
                        long *y0, long *y1)
{
    long reach = ev->reach[i];
    *x0 = ev->cx[i] - reach > 0 ? ev->cx[i] - reach : 0;
    *y0 = ev->cy[i] - reach > 0 ? ev->cy[i] - reach : 0;
    *x1 = ev->cx[i] + reach < ev->nx ? ev->cx[i] + reach : ev->nx - 1;
    *y1 = ev->cy[i] + reach < ev->ny ? ev->cy[i] + reach : ev->ny - 1;
}

/* Predicts the pairs of i with every ball near enough (all of them without
 * the grid), except @p skip (its partner just now, receding: two balls
 * flying apart never meet again before one of them changes course). */
static void predict_pairs(struct event *ev, size_t i, size_t skip)
{
    if (!ev->grid) {
        for (size_t j = 0; j < ev->n; j++)
            if (j != i && j != skip)
                predict_pair(ev, i, j);
        return;
    }
    long x0, x1, y0, y1;
    cell_window(ev, i, &x0, &x1, &y0, &y1);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++)
            for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = ev->next[j])
                if ((size_t)j != i && (size_t)j != skip && ev->reach[j] == 1)
                    predict_pair(ev, i, (size_t)j);
    /* Big balls are found from their side by reach, and by every ball here. */
    for (size_t b = 0; b < ev->nbig; b++) {
        size_t j = (size_t)ev->big[b];
        if (j != i && j != skip)
            predict_pair(ev, i, j);
    }
}

static void predict(struct event *ev, size_t i, size_t skip)
{
    predict_own(ev, i);
    predict_pairs(ev, i, skip);
}

/* === Grid === */

static void cell_link(struct event *ev, size_t i)
{
    long c = (long)ev->cy[i] * ev->nx + ev->cx[i];
    ev->prev[i] = -1;
    ev->next[i] = ev->head[c];
    if (ev->head[c] >= 0)
        ev->prev[ev->head[c]] = (int32_t)i;
    ev->head[c] = (int32_t)i;
}

static void cell_unlink(struct event *ev, size_t i)
{
    long c = (long)ev->cy[i] * ev->nx + ev->cx[i];
    if (ev->prev[i] >= 0)
        ev->next[ev->prev[i]] = ev->next[i];
    else
        ev->head[c] = ev->next[i];
    if (ev->next[i] >= 0)
        ev->prev[ev->next[i]] = ev->prev[i];
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
 */
static int grid_build(struct event *ev)
{
    size_t n = ev->n;
    double *rs = malloc((n ? n : 1) * sizeof *rs);
    if (!rs)
        return -1;
    memcpy(rs, ev->r, n * sizeof *rs);
    qsort(rs, n, sizeof *rs, cmp_double);
    double med = n ? rs[n / 2] : 1, rsmall = 0;
    for (size_t a = 0; a < n && rs[a] <= 4 * med; a++)
        rsmall = rs[a];
    free(rs);
    double c = 2 * rsmall * (1 + 1e-6);
    double area = sqrt(ev->p.w * ev->p.h / (double)(n ? n : 1));
    if (area > c)
        c = area;
    double fx = floor(ev->p.w / c), fy = floor(ev->p.h / c);
    ev->nx = fx < 1 ? 1 : fx > 1e6 ? 1000000 : (long)fx;
    ev->ny = fy < 1 ? 1 : fy > 1e6 ? 1000000 : (long)fy;
    ev->cw = ev->p.w / (double)ev->nx;
    ev->ch = ev->p.h / (double)ev->ny;
    size_t cells = (size_t)ev->nx * (size_t)ev->ny;
    ev->head = malloc(cells * sizeof *ev->head);
    ev->big = malloc((n ? n : 1) * sizeof *ev->big);
    if (!ev->head || !ev->big)
        return -1;
    memset(ev->head, 0xff, cells * sizeof *ev->head);
    double cmin = ev->cw < ev->ch ? ev->cw : ev->ch;
    for (size_t i = 0; i < n; i++) {
        ev->cx[i] = (int32_t)clamp_cell(ev->x[i], ev->cw, ev->nx);
        ev->cy[i] = (int32_t)clamp_cell(ev->y[i], ev->ch, ev->ny);
        double reach = floor((ev->r[i] + rsmall) / cmin) + 1;
        ev->reach[i] = reach > 1e6 ? 1000000 : (int32_t)reach;
        if (ev->reach[i] > 1)
            ev->big[ev->nbig++] = (int32_t)i;
        cell_link(ev, i);
    }
    return 0;
}

/* === Init and checks === */

struct span {
    double lo;
    size_t i;
};

static int cmp_span(const void *a, const void *b)
{
    const struct span *p = a, *q = b;
    if (p->lo != q->lo)
        return (p->lo > q->lo) - (p->lo < q->lo);
    return (p->i > q->i) - (p->i < q->i);
}

/* The first overlapping pair in (i, j) order, by a sweep over x. */
static int find_overlap(const struct sim *s, struct event_fault *f)
{
    size_t n = s->n;
    struct span *sp = malloc((n ? n : 1) * sizeof *sp);
    if (!sp)
        return EVENT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        sp[i].lo = s->x[i] - s->r[i];
        sp[i].i = i;
    }
    qsort(sp, n, sizeof *sp, cmp_span);
    size_t bi = (size_t)-1, bj = (size_t)-1;
    for (size_t a = 0; a < n; a++) {
        size_t i = sp[a].i;
        double hi = s->x[i] + s->r[i];
        for (size_t b = a + 1; b < n && sp[b].lo <= hi; b++) {
            size_t j = sp[b].i;
            double dx = s->x[j] - s->x[i], dy = s->y[j] - s->y[i];
            double sig = (s->r[i] + s->r[j]) * (1 - EVENT_TOUCH_TOL);
            if (dx * dx + dy * dy < sig * sig) {
                size_t lo = i < j ? i : j, hj = i < j ? j : i;
                if (lo < bi || (lo == bi && hj < bj)) {
                    bi = lo;
                    bj = hj;
                }
            }
        }
    }
    free(sp);
    if (bi == (size_t)-1)
        return EVENT_OK;
    if (f) {
        f->i = bi;
        f->j = bj;
    }
    return EVENT_EOVERLAP;
}

static int find_wall(const struct sim *s, struct event_fault *f)
{
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = s->y[i], r = s->r[i], tol = EVENT_TOUCH_TOL * r;
        int out;
        if (s->p.shape == SIM_CIRCLE) {
            double R = 0.5 * s->p.w, dx = x - R, dy = y - R;
            out = sqrt(dx * dx + dy * dy) > R - r + tol;
        } else {
            out = x - r < -tol || y - r < -tol || x + r > s->p.w + tol ||
                  y + r > s->p.h + tol;
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
    if (vmax <= ev->vref)
        return;
    ev->vref = vmax;
    ev->umin = EVENT_SLOW * vmax;
    if (ev->tc_auto)
        ev->tc = 1e-6 * ev->rmin / vmax;
}

static double kinetic(const struct event *ev)
{
    double ke = 0;
    for (size_t i = 0; i < ev->n; i++)
        ke += 0.5 * ev->m[i] * (ev->vx[i] * ev->vx[i] + ev->vy[i] * ev->vy[i]);
    return ke;
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
        if (rc == EVENT_OK)
            rc = find_overlap(s, fault);
        if (rc)
            return rc;
    }
    size_t n = s->n, cnt = n ? n : 1;
    ev->n = n;
    ev->p = s->p;
    ev->t = ev->t0 = s->t;
    double **d[] = {&ev->x, &ev->y, &ev->vx, &ev->vy, &ev->tb, &ev->m, &ev->r,
                    &ev->tlim, &ev->tlast};
    int fail = 0;
    for (size_t a = 0; a < sizeof d / sizeof *d; a++)
        fail |= !(*d[a] = malloc(cnt * sizeof(double)));
    fail |= !(ev->cnt = calloc(cnt, sizeof *ev->cnt));
    fail |= !(ev->ncoll = calloc(cnt, sizeof *ev->ncoll));
    ev->grid = cfg->grid != 0;
    if (ev->grid) {
        int32_t **g[] = {&ev->next, &ev->prev, &ev->cx, &ev->cy, &ev->reach};
        for (size_t a = 0; a < sizeof g / sizeof *g; a++)
            fail |= !(*g[a] = malloc(cnt * sizeof(int32_t)));
    }
    if (fail) {
        event_free(ev);
        return EVENT_ENOMEM;
    }
    double rmin = INFINITY, vmax = 0;
    for (size_t i = 0; i < n; i++) {
        ev->x[i] = s->x[i];
        ev->y[i] = s->y[i];
        ev->vx[i] = s->vx[i];
        ev->vy[i] = s->vy[i];
        ev->m[i] = s->m[i];
        ev->r[i] = s->r[i];
        ev->tb[i] = s->t;
        ev->tlast[i] = -INFINITY;
        double v = sqrt(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i]);
        if (v > vmax)
            vmax = v;
        if (s->r[i] < rmin)
            rmin = s->r[i];
    }
    ev->rmin = rmin;
    ev->tc_auto = !(cfg->tc >= 0);
    ev->tc = ev->tc_auto ? 0 : cfg->tc;
    set_scales(ev, vmax);
    if (ev->grid && grid_build(ev)) {
        event_free(ev);
        return EVENT_ENOMEM;
    }
    ev->compact_at = 4 * n + 1024;
    ev->ke0 = kinetic(ev);
    /* Own events first, so that every pair sees both limits. */
    for (size_t i = 0; i < n; i++)
        predict_own(ev, i);
    for (size_t i = 0; i < n; i++) {
        if (!ev->grid) {
            for (size_t j = i + 1; j < n; j++)
                predict_pair(ev, i, j);
            continue;
        }
        /* Each pair once: j > i among the small neighbours, and the big
         * balls against everything from their own side. */
        long reach = ev->reach[i], x0, x1, y0, y1;
        cell_window(ev, i, &x0, &x1, &y0, &y1);
        for (long cy = y0; cy <= y1; cy++)
            for (long cx = x0; cx <= x1; cx++)
                for (int32_t j = ev->head[cy * ev->nx + cx]; j >= 0; j = ev->next[j])
                    if (ev->reach[j] == 1 && ((size_t)j > i || reach > 1))
                        predict_pair(ev, i, (size_t)j);
        if (reach > 1)
            for (size_t b = 0; b < ev->nbig; b++)
                if ((size_t)ev->big[b] > i)
                    predict_pair(ev, i, (size_t)ev->big[b]);
    }
    if (ev->nomem) {
        event_free(ev);
        return EVENT_ENOMEM;
    }
    return EVENT_OK;
}

void event_free(struct event *ev)
{
    void *p[] = {ev->x, ev->y, ev->vx, ev->vy, ev->tb, ev->m, ev->r, ev->tlim,
                 ev->tlast, ev->cnt, ev->ncoll, ev->heap, ev->head, ev->next,
                 ev->prev, ev->cx, ev->cy, ev->reach, ev->big};
    for (size_t a = 0; a < sizeof p / sizeof *p; a++)
        free(p[a]);
    memset(ev, 0, sizeof *ev);
}

/* === Events === */

static void drift(struct event *ev, size_t i)
{
    double dt = ev->t - ev->tb[i];
    ev->x[i] += dt * ev->vx[i];
    ev->y[i] += dt * ev->vy[i];
    ev->tb[i] = ev->t;
}

/* The restitution of a collision now with normal speed |u|: e, but 1
 * within tc of either ball's last collision (TC model) and for |u| < umin
 * (as for real viscoelastic balls, e -> 1 as the impact speed -> 0). Both
 * keep inelastic collapse from stopping time; the second also keeps a
 * cooling gas from slowing down towards underflow. */
static double restitution(const struct event *ev, size_t i, size_t j, double u)
{
    double e = ev->p.restitution;
    if (e < 1 && (fabs(u) < ev->umin || ev->t - ev->tlast[i] < ev->tc ||
                  ev->t - ev->tlast[j] < ev->tc))
        e = 1;
    return e;
}

/*
 * Impulse along the unit normal n from i to j: with the normal relative
 * velocity u = (v_j - v_i).n < 0 and mu = m_i m_j / (m_i + m_j),
 * J = -(1 + e) mu u; v_i -= J/m_i n, v_j += J/m_j n. Momentum is kept, the
 * normal relative velocity becomes -e u, and with e = 1 energy is kept.
 */
static void collide(struct event *ev, size_t i, size_t j)
{
    drift(ev, i);
    drift(ev, j);
    double dx = ev->x[j] - ev->x[i], dy = ev->y[j] - ev->y[i];
    double d = sqrt(dx * dx + dy * dy);
    if (d > 0) {
        double nx = dx / d, ny = dy / d;
        double u = (ev->vx[j] - ev->vx[i]) * nx + (ev->vy[j] - ev->vy[i]) * ny;
        if (u < 0) {
            double mi = ev->m[i], mj = ev->m[j];
            double J = -(1 + restitution(ev, i, j, u)) * u * (mi * mj / (mi + mj));
            ev->vx[i] -= J / mi * nx;
            ev->vy[i] -= J / mi * ny;
            ev->vx[j] += J / mj * nx;
            ev->vy[j] += J / mj * ny;
        }
    }
    ev->tlast[i] = ev->tlast[j] = ev->t;
    ev->cnt[i]++;
    ev->cnt[j]++;
    ev->ncoll[i]++;
    ev->ncoll[j]++;
    ev->collisions++;
    predict(ev, i, j);
    predict(ev, j, i);
}

static void bounce(struct event *ev, size_t i, int code)
{
    drift(ev, i);
    double e = ev->p.restitution;
    if (e < 1 && ev->t - ev->tlast[i] < ev->tc)
        e = 1;
    double m = ev->m[i], vx0 = ev->vx[i], vy0 = ev->vy[i];
    if (code == EV_WALL_X) {
        ev->vx[i] = -(fabs(vx0) < ev->umin ? 1 : e) * vx0;
    } else if (code == EV_WALL_Y) {
        ev->vy[i] = -(fabs(vy0) < ev->umin ? 1 : e) * vy0;
    } else {
        /* Reflect the outward normal component: v -= (1 + e)(v.n) n. */
        double R = 0.5 * ev->p.w, dx = ev->x[i] - R, dy = ev->y[i] - R;
        double d = sqrt(dx * dx + dy * dy);
        if (d > 0) {
            double nx = dx / d, ny = dy / d;
            double u = ev->vx[i] * nx + ev->vy[i] * ny;
            if (u > 0) {
                if (u < ev->umin)
                    e = 1;
                ev->vx[i] -= (1 + e) * u * nx;
                ev->vy[i] -= (1 + e) * u * ny;
            }
        }
    }
    ev->wall_px += m * (ev->vx[i] - vx0);
    ev->wall_py += m * (ev->vy[i] - vy0);
    ev->tlast[i] = ev->t;
    ev->cnt[i]++;
    ev->walls++;
    predict(ev, i, (size_t)-1);
}

static void cross(struct event *ev, size_t i, int code)
{
    cell_unlink(ev, i);
    if (code == EV_CROSS_X)
        ev->cx[i] += ev->vx[i] > 0 ? 1 : -1;
    else
        ev->cy[i] += ev->vy[i] > 0 ? 1 : -1;
    cell_link(ev, i);
    ev->cnt[i]++;
    ev->crossings++;
    predict(ev, i, (size_t)-1);
}

/* The engine's loop: events with t <= T, at most max physical ones (<= 0:
 * no limit). Returns 1 when the queue holds nothing more up to T, 0 when the
 * budget ran out, EVENT_ENOMEM. *done counts the physical events. */
static int run(struct event *ev, double T, long long max, long long *done)
{
    *done = 0;
    while (ev->nheap && !ev->nomem) {
        struct event_item *top = &ev->heap[0];
        if (top->t > T)
            break;
        if (stale(ev, top)) {
            pop(ev);
            continue;
        }
        int code = top->j < 0 ? -1 - top->j : -1;
        int physical = code < EV_CROSS_X;
        struct event_item e = pop(ev);
        ev->t = e.t;
        if (code < 0)
            collide(ev, (size_t)e.i, (size_t)e.j);
        else if (physical)
            bounce(ev, (size_t)e.i, code);
        else
            cross(ev, (size_t)e.i, code);
        *done += physical;
        if (physical && max > 0 && *done >= max)
            return ev->nomem ? EVENT_ENOMEM : 0;
    }
    return ev->nomem ? EVENT_ENOMEM : 1;
}

int event_advance(struct event *ev, double T, long long max_events)
{
    long long done;
    int rc = run(ev, T, max_events, &done);
    if (rc == 1 && T > ev->t)
        ev->t = T;
    return rc;
}

long long event_step(struct event *ev, long long count)
{
    long long done;
    if (count <= 0)
        return 0;
    run(ev, INFINITY, count, &done);
    return done;
}

void event_kick(struct event *ev, size_t i, double vx, double vy)
{
    drift(ev, i);
    /* The reference energy of de moves by the kick's work. */
    double v0 = ev->vx[i] * ev->vx[i] + ev->vy[i] * ev->vy[i];
    ev->ke0 += 0.5 * ev->m[i] * (vx * vx + vy * vy - v0);
    ev->vx[i] = vx;
    ev->vy[i] = vy;
    set_scales(ev, sqrt(vx * vx + vy * vy));
    ev->cnt[i]++;
    predict(ev, i, (size_t)-1);
}

void event_position(const struct event *ev, size_t i, double *x, double *y)
{
    double dt = ev->t - ev->tb[i];
    *x = ev->x[i] + dt * ev->vx[i];
    *y = ev->y[i] + dt * ev->vy[i];
}

void event_to_sim(const struct event *ev, struct sim *s)
{
    for (size_t i = 0; i < ev->n; i++) {
        event_position(ev, i, &s->x[i], &s->y[i]);
        s->vx[i] = ev->vx[i];
        s->vy[i] = ev->vy[i];
    }
    s->t = ev->t;
}

void event_diag(const struct event *ev, struct event_diag *d)
{
    memset(d, 0, sizeof *d);
    d->collisions = ev->collisions;
    d->walls = ev->walls;
    d->crossings = ev->crossings;
    d->events = ev->collisions + ev->walls;
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->ncoll[i] > d->max_ball)
            d->max_ball = ev->ncoll[i];
        d->px += ev->m[i] * ev->vx[i];
        d->py += ev->m[i] * ev->vy[i];
    }
    double n = (double)ev->n;
    d->per_ball = ev->n ? 2.0 * (double)ev->collisions / n : 0;
    d->mft = ev->collisions ? n * (ev->t - ev->t0) / (2.0 * (double)ev->collisions)
                            : INFINITY;
    d->ke = kinetic(ev);
    d->ke0 = ev->ke0;
    d->de = ev->ke0 > 0 ? (d->ke - ev->ke0) / ev->ke0 : 0;
    d->wall_px = ev->wall_px;
    d->wall_py = ev->wall_py;
    d->heap = ev->nheap;
}
