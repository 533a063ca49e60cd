/*
 * event_cells.c - the event engine's grid: cells holding their first few
 * small balls in place and the rest in a list, the grid's size and the
 * balls' cell order at start-up, and the neighbour lists of a dense gas.
 */
#include "event_cells.h"
#include "mem.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ev_cell_link(struct event_in *ev, size_t k)
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
static void more_unlink(struct event_in *ev, long c, size_t k)
{
    if (ev->c[k].prev >= 0)
        ev->b[ev->c[k].prev].next = ev->b[k].next;
    else
        ev->more[c] = ev->b[k].next;
    if (ev->b[k].next >= 0)
        ev->c[ev->b[k].next].prev = ev->c[k].prev;
}

void ev_cell_unlink(struct event_in *ev, size_t k)
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
 * Balls numbered i are then stored in cell order: at[i] gets ball i's
 * record (a counting sort, stable in ball numbers).
 */
int ev_grid_size(struct event_in *ev, const struct sim *s, int32_t *at)
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
        qsort(rs, n, sizeof *rs, util_cmp_double);
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
    ev->cell = ev_array_as(padded, sizeof *ev->cell, MEM_ZERO | MEM_LATE); /* every cell empty */
    ev->more = ev_array_as(padded, sizeof *ev->more, MEM_FLAT); /* crowded cells only */
    ev->big = ev_array_as(n ? n : 1, sizeof *ev->big, MEM_FLAT); /* read in order */
    /* the balls' cells, then the balls by row */
    size_t nn = n ? n : 1, nx = (size_t)ev->nx, ny = (size_t)ev->ny;
    int32_t *key = ev_array_as(2 * nn, sizeof *key, MEM_FLAT); /* for a moment */
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
                at[byrow[lo]] = (int32_t)lo;
            continue;
        }
        memset(cols, 0, (nx + 1) * sizeof *cols);
        for (size_t a = lo; a < hi; a++)
            cols[(size_t)key[byrow[a]] - base + 1]++;
        cols[0] = lo;
        for (size_t x = 0; x < nx; x++)
            cols[x + 1] += cols[x];
        for (size_t a = lo; a < hi; a++)
            at[byrow[a]] = (int32_t)cols[(size_t)key[byrow[a]] - base]++;
    }
    mem_free(key);
    free(rows);
    return 0;
}

/* Links the records into their cells (grid_size has sized the grid and
 * given it empty: all zero, n = 0). A ball is small, in the cells, when two such balls in contact are in
 * neighbouring cells (2 r (1 + 1e-6) <= the cell); a bigger one is looked
 * at by every ball and looks `reach` cells each side for the small ones. */
void ev_grid_link(struct event_in *ev)
{
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
        ev_cell_link(ev, k);
    }
    for (size_t k = 0; k < ev->n; k++)
        if (ev->q[k].reach > 1)
            ev->big[ev->nbig++] = (int32_t)k;
}

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

static void nl_add(struct event_in *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    if (l->n >= NL_CAP)
        l->n = -1;
    else if (l->n >= 0)
        l->j[l->n++] = j;
}

static void nl_drop(struct event_in *ev, size_t k, int32_t j)
{
    struct event_nlist *l = &ev->nbr[k];
    for (int32_t c = 0; c < l->n; c++)
        if (l->j[c] == j) {
            l->j[c] = l->j[--l->n];
            return;
        }
}

/* Whether records k and j, with centres in their lists, are neighbours. */
static EV_INLINE int nl_near(const struct event_in *ev, size_t k, size_t j)
{
    const struct event_nlist *a = &ev->nbr[k], *q = &ev->nbr[j];
    double dx = q->cx - a->cx, dy = q->cy - a->cy;
    double reach = ev->b[k].r + ev->b[j].r + ev->skin;
    return dx * dx + dy * dy < reach * reach;
}

/* Record k's list built anew around where it is now: out of its old
 * neighbours' lists, into the cell of its new centre, then every ball near
 * enough in the 3x3 cells around it into its list and it into theirs. */
void ev_nl_build(struct event_in *ev, size_t k)
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
    ev_cell_unlink(ev, k);
    const struct event_ball *a = &b[k];
    double dt = ev->t - a->tb;
    l->cx = a->x + dt * a->vx;
    l->cy = a->y + dt * a->vy;
    l->n = 0;
    ev->q[k].cx = (int32_t)clamp_cell(l->cx, ev->cw, ev->nx);
    ev->q[k].cy = (int32_t)clamp_cell(l->cy, ev->ch, ev->ny);
    ev_cell_link(ev, k);
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
void ev_nl_init(struct event_in *ev)
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
