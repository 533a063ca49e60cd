/*
 * lab.c - the classroom lab's numbers: values, arrow scales, speeds, the
 * keys' parameters (see lab.h; contacts and contact events are in
 * lab_contact.c).
 */
#include "lab.h"

#include "plot.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ===== Values ===== */

void lab_row(const struct sim *s, size_t ball, struct lab_row *row)
{
    size_t i = sim_slot(s, ball);
    double m = s->m[i], vx = s->vx[i], vy = s->vy[i];
    row->ball = ball;
    row->m = m;
    row->r = s->r[i];
    row->x = s->x[i];
    row->y = s->y[i];
    row->vx = vx;
    row->vy = vy;
    row->px = m * vx;
    row->py = m * vy;
    /* as sim_diag writes it */
    row->ke = 0.5 * m * (vx * vx + vy * vy);
    row->speed = sqrt(vx * vx + vy * vy);
    row->z = row->vz = 0;
}

void lab_sums(const struct sim *s, struct lab_totals *t)
{
    memset(t, 0, sizeof *t);
    t->n = s->n;
    double mx = 0, my = 0;
    for (size_t b = 0; b < s->n; b++) {
        struct lab_row r;
        lab_row(s, b, &r);
        t->m += r.m;
        t->px += r.px;
        t->py += r.py;
        t->apx += fabs(r.px);
        t->apy += fabs(r.py);
        t->ke += r.ke;
        mx += r.m * r.x;
        my += r.m * r.y;
    }
    t->e = t->ke;
    if (t->m != 0) {
        t->cx = mx / t->m;
        t->cy = my / t->m;
        t->cvx = t->px / t->m;
        t->cvy = t->py / t->m;
    } else {
        t->cx = t->cy = t->cvx = t->cvy = NAN;
    }
}

void lab_totals(const struct sim *s, struct lab_totals *t)
{
    lab_sums(s, t);
    struct sim_diag d;
    sim_diag(s, &d);
    t->pe = d.pe;
    t->pg = d.pg;
    t->e = t->ke + t->pe + t->pg;
    t->dissipated = d.dissipated;
    t->contacts = d.contacts;
}

double lab_round_total(double total, double abs_sum, size_t n)
{
    double tol = fmax(4 * DBL_EPSILON * (double)(n ? n : 1), 1e-10);
    return fabs(total) <= tol * abs_sum ? 0 : total;
}

static const char *const col_name[LAB_NCOL] = {
    "#", "m", "x", "y", "vx", "vy", "px", "py", "KE", "z", "vz",
};

const int lab_col_order[LAB_NCOL] = {
    LAB_COL_BALL, LAB_COL_M, LAB_COL_X, LAB_COL_Y, LAB_COL_Z, LAB_COL_VX, LAB_COL_VY,
    LAB_COL_VZ, LAB_COL_PX, LAB_COL_PY, LAB_COL_KE,
};

enum { BALL_W = 4 };

static int layout_total(const struct lab_layout *lay)
{
    int t = 0;
    for (int c = 0; c < LAB_NCOL; c++)
        if (lay->show[c])
            t += c == LAB_COL_BALL ? BALL_W : lay->width + 1;
    return t;
}

void lab_layout(struct lab_layout *lay, int width)
{
    lab_layout_depth(lay, width, 0);
}

void lab_layout_depth(struct lab_layout *lay, int width, int depth)
{
    memset(lay->zero, 0, sizeof lay->zero);
    /* Drop order: x y first, then px py (z vz: a 3-D run's alone). */
    static const int drop[][LAB_NCOL] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
        {1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1},
        {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1},
    };
    for (size_t k = 0; k < sizeof drop / sizeof *drop; k++) {
        for (int w = 9; w >= 7; w--) {
            memcpy(lay->show, drop[k], sizeof lay->show);
            lay->show[LAB_COL_Z] = lay->show[LAB_COL_VZ] = depth != 0;
            lay->width = w;
            lay->total = layout_total(lay);
            if (lay->total <= width)
                return;
        }
    }
    /* The narrowest: the last set at width 5 (and 4). */
    memcpy(lay->show, drop[2], sizeof lay->show);
    lay->show[LAB_COL_Z] = lay->show[LAB_COL_VZ] = depth != 0;
    lay->width = width >= BALL_W + 4 * 6 ? 5 : 4;
    lay->total = layout_total(lay);
}

void lab_layout_noise(struct lab_layout *lay, const struct sim *s)
{
    double v = 0, p = 0, ke = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct lab_row r;
        lab_row(s, i, &r);
        double sv = hypot(r.vx, r.vy), sp = hypot(r.px, r.py);
        v = isfinite(sv) && sv > v ? sv : v;
        p = isfinite(sp) && sp > p ? sp : p;
        ke = isfinite(r.ke) && r.ke > ke ? r.ke : ke;
    }
    for (int c = 0; c < LAB_NCOL; c++)
        lay->zero[c] = 0;
    lay->zero[LAB_COL_VX] = lay->zero[LAB_COL_VY] = lay->zero[LAB_COL_VZ] = 1e-12 * v;
    lay->zero[LAB_COL_PX] = lay->zero[LAB_COL_PY] = 1e-12 * p;
    lay->zero[LAB_COL_KE] = 1e-24 * ke;
}

/* Appends @p s right-aligned in @p w characters at *pos. */
static void put(char *buf, size_t cap, size_t *pos, const char *s, int w)
{
    int len = snprintf(buf + *pos, cap - *pos, "%*s", w, s);
    if (len > 0)
        *pos += (size_t)len < cap - *pos ? (size_t)len : cap - *pos - 1;
}

char *lab_header(char *buf, size_t cap, const struct lab_layout *lay)
{
    size_t pos = 0;
    if (cap == 0)
        return buf;
    buf[0] = 0;
    for (int o = 0; o < LAB_NCOL; o++) {
        int c = lab_col_order[o];
        if (lay->show[c])
            put(buf, cap, &pos, col_name[c], c == LAB_COL_BALL ? BALL_W : lay->width + 1);
    }
    return buf;
}

static char *line(char *buf, size_t cap, const struct lab_layout *lay,
                  const char *first, const double *val, const int *blank)
{
    size_t pos = 0;
    if (cap == 0)
        return buf;
    buf[0] = 0;
    char num[64];
    for (int o = 0; o < LAB_NCOL; o++) {
        int c = lab_col_order[o];
        if (!lay->show[c])
            continue;
        if (c == LAB_COL_BALL) {
            put(buf, cap, &pos, first, BALL_W);
            continue;
        }
        put(buf, cap, &pos, " ", 1);
        if (blank[c])
            put(buf, cap, &pos, "", lay->width);
        else
            /* a character short of the column: with the blank before
             * it, two at least between numbers ("0  -0.0887", not
             * "0 -0.08867") */
            put(buf, cap, &pos, plot_fmt(num, sizeof num, val[c], lay->width - 1), lay->width);
    }
    return buf;
}

char *lab_row_line(char *buf, size_t cap, const struct lab_layout *lay,
                   const struct lab_row *row)
{
    double val[LAB_NCOL] = {0, row->m, row->x, row->y, row->vx, row->vy,
                            row->px, row->py, row->ke, row->z, row->vz};
    int blank[LAB_NCOL] = {0};
    for (int c = 0; c < LAB_NCOL; c++)
        if (fabs(val[c]) <= lay->zero[c])
            val[c] = 0; /* rounding noise (lab_layout_noise) */
    char first[32];
    snprintf(first, sizeof first, "%zu", row->ball + 1);
    return line(buf, cap, lay, first, val, blank);
}

char *lab_total_line(char *buf, size_t cap, const struct lab_layout *lay,
                     const struct lab_totals *t)
{
    double px = lab_round_total(t->px, t->apx, t->n);
    double py = lab_round_total(t->py, t->apy, t->n);
    double val[LAB_NCOL] = {0, 0, 0, 0, 0, 0, px, py, t->ke, 0, 0};
    int blank[LAB_NCOL] = {0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1};
    return line(buf, cap, lay, "sum", val, blank);
}

/* ===== Arrow scales ===== */

double lab_nice_up(double q)
{
    if (!(q > 0) || !isfinite(q))
        return 1;
    double e = floor(log10(q));
    double p = pow(10, e);
    /* log10 may be off by one ulp near powers of ten */
    if (p > q)
        p /= 10;
    else if (p * 10 <= q)
        p *= 10;
    static const double step[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (step[i] * p >= q)
            return step[i] * p;
    return 10 * p;
}

int lab_scale_fit(struct lab_scale *sc, double vmax, double max_cells)
{
    if (!(vmax > 0) || !isfinite(vmax) || !(max_cells > 0))
        return 0;
    if (sc->per_cell > 0 && vmax / sc->per_cell <= max_cells)
        return 0;
    double old = sc->per_cell;
    sc->per_cell = lab_nice_up(vmax / max_cells);
    return sc->per_cell != old;
}

void lab_scale_reset(struct lab_scale *sc)
{
    sc->per_cell = 0;
}

/* ===== Speeds ===== */

double lab_rayleigh(double v, double a2)
{
    if (!(v >= 0) || !(a2 > 0))
        return 0;
    return v / a2 * exp(-v * v / (2 * a2));
}

void lab_speed_hist(const struct sim *s, int nbins, struct lab_hist *h)
{
    memset(h, 0, sizeof *h);
    if (nbins < 1)
        nbins = 1;
    if (nbins > LAB_HIST_MAX)
        nbins = LAB_HIST_MAX;
    h->nbins = nbins;
    double v2sum = 0, vtop = 0;
    for (size_t i = 0; i < s->n; i++) {
        double v2 = s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i];
        if (!isfinite(v2))
            continue;
        h->n++;
        v2sum += v2;
        vtop = v2 > vtop ? v2 : vtop;
    }
    if (h->n == 0)
        return;
    h->a2 = v2sum / (double)h->n / 2;
    vtop = sqrt(vtop);
    double four_a = 4 * sqrt(h->a2);
    h->vmax = vtop > four_a ? vtop : four_a;
    if (!(h->vmax > 0)) {
        h->count[0] = (long)h->n; /* all at rest */
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        double v2 = s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i];
        if (!isfinite(v2))
            continue;
        double u = sqrt(v2) / h->vmax * nbins;
        int b = (int)u;
        if (b >= nbins)
            b = nbins - 1;
        h->count[b]++;
    }
    double N = (double)h->n, lo = 0;
    for (int b = 0; b < nbins; b++) {
        double hi = h->vmax * (b + 1) / nbins;
        /* N (F(hi) - F(lo)) = N (exp(-lo^2/2a^2) - exp(-hi^2/2a^2)) */
        h->expect[b] = N * (exp(-lo * lo / (2 * h->a2)) - exp(-hi * hi / (2 * h->a2)));
        lo = hi;
    }
}

/* ===== Keys' parameters ===== */

double lab_restitution_step(double e, int dir)
{
    if (!(e >= 0))
        e = 0.1;
    /* the tenth nearest to e, then one along */
    double tenth = floor(e * 10 + 0.5);
    double next = tenth + (dir > 0 ? 1 : dir < 0 ? -1 : 0);
    /* from a value between tenths, go to the neighbouring tenth first */
    if (dir > 0 && tenth / 10 > e + 1e-12)
        next = tenth;
    if (dir < 0 && tenth / 10 < e - 1e-12)
        next = tenth;
    if (next < 0) /* 0: sticky */
        next = 0;
    if (next > 10)
        next = 10;
    return next / 10;
}

#define ALL_SIDES (SIM_SIDE_LEFT | SIM_SIDE_RIGHT | SIM_SIDE_BOTTOM | SIM_SIDE_TOP)

int lab_border(const struct sim_params *p)
{
    if (p->shape == SIM_OPEN || (p->shape == SIM_RECT && (p->open & ALL_SIDES) == ALL_SIDES))
        return LAB_BORDER_NONE;
    return p->walls == SIM_WALLS_HARD ? LAB_BORDER_HARD : LAB_BORDER_SPRING;
}

void lab_border_set(struct sim_params *p, int b, int shape, unsigned open)
{
    p->shape = shape;
    p->open = shape == SIM_RECT ? open : 0;
    switch (b) {
    case LAB_BORDER_NONE:
        if (shape == SIM_RECT)
            p->open = ALL_SIDES;
        else
            p->shape = SIM_OPEN;
        p->walls = SIM_WALLS_SPRING;
        break;
    case LAB_BORDER_HARD:
        p->walls = SIM_WALLS_HARD;
        break;
    default:
        p->walls = SIM_WALLS_SPRING;
        break;
    }
}

int lab_border_next(int b)
{
    return b == LAB_BORDER_SPRING ? LAB_BORDER_HARD
           : b == LAB_BORDER_HARD ? LAB_BORDER_NONE : LAB_BORDER_SPRING;
}

const char *lab_border_name(int b)
{
    return b == LAB_BORDER_HARD ? "hard walls" : b == LAB_BORDER_NONE ? "no walls"
                                                                        : "spring walls";
}
