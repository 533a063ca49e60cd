/*
 * traj.c - recorded runs read back (see traj.h): opening, frames out; its
 * files by concept in traj_impl.h.
 *
 * Indexing reads the file in blocks of TRAJ_BLOCK bytes. Header lines
 * (a count, a comment, LAMMPS's ITEM lines) are looked at whole; a
 * frame's rows are only counted, newline by newline, at memory speed.
 * Reading a frame preads its rows block by block and parses the columns
 * the front end needs (text_double: exact, strtod only for long digits).
  */
#define _POSIX_C_SOURCE 200809L

#include "traj_impl.h"

#include "text.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(struct traj *tr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(struct traj *tr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(struct traj *tr, const char *fmt, ...)
{
    size_t at = strlen(tr->notes);
    if (at + 4 >= sizeof tr->notes)
        return;
    if (at) {
        memcpy(tr->notes + at, "; ", 3);
        at += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tr->notes + at, sizeof tr->notes - at, fmt, ap);
    va_end(ap);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* === Opening === */

/* The distance of points i and j: in 3-D when @p z is not NULL. */
static double dist(const double *x, const double *y, const double *z, size_t i, size_t j)
{
    double d = hypot(x[j] - x[i], y[j] - y[i]);
    return z ? hypot(d, z[j] - z[i]) : d;
}

/* The 1st percentile of the positive nearest-neighbour distances of n
 * points, over a grid of about one point a cell (a neighbour closer than
 * a cell's side is in the 3 x 3 cells around); INFINITY when there are
 * none (one point, all at one place), -1 when memory is short. */
static double nn_p1(const double *x, const double *y, const double *z, size_t n)
{
    if (n < 2)
        return INFINITY;
    if (n <= 2000) { /* few: every pair */
        double *d = malloc(n * sizeof *d);
        if (!d)
            return -1;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            double best = INFINITY;
            for (size_t j = 0; j < n; j++) {
                double dd = dist(x, y, z, i, j);
                if (j != i && dd > 0 && dd < best)
                    best = dd;
            }
            if (best < INFINITY)
                d[m++] = best;
        }
        double p1 = INFINITY;
        if (m > 0) {
            qsort(d, m, sizeof *d, util_cmp_double);
            p1 = d[(size_t)(0.01 * (double)(m - 1))];
        }
        free(d);
        return p1;
    }
    double x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
    for (size_t i = 1; i < n; i++) {
        x0 = fmin(x0, x[i]), x1 = fmax(x1, x[i]);
        y0 = fmin(y0, y[i]), y1 = fmax(y1, y[i]);
    }
    double wx = x1 - x0, wy = y1 - y0;
    double side = sqrt(fmax(wx * wy, fmax(wx, wy) * fmax(wx, wy) / (double)n) / (double)n);
    if (!(side > 0) || !isfinite(side))
        return INFINITY;
    size_t nx = (size_t)fmin(wx / side, 4.0 * (double)n) + 1;
    size_t ny = (size_t)fmin(wy / side, 4.0 * (double)n / (double)nx) + 1;
    size_t *start = calloc(nx * ny + 1, sizeof *start);
    size_t *order = malloc(n * sizeof *order);
    double *d = malloc(n * sizeof *d);
    size_t *cell = malloc(n * sizeof *cell);
    if (!start || !order || !d || !cell) {
        free(start), free(order), free(d), free(cell);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t cx = (size_t)fmin((x[i] - x0) / side, (double)(nx - 1));
        size_t cy = (size_t)fmin((y[i] - y0) / side, (double)(ny - 1));
        cell[i] = cy * nx + cx;
        start[cell[i] + 1]++;
    }
    for (size_t c = 0; c < nx * ny; c++)
        start[c + 1] += start[c];
    for (size_t i = 0; i < n; i++)
        order[start[cell[i]]++] = i;
    for (size_t c = nx * ny; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t cx = cell[i] % nx, cy = cell[i] / nx;
        double best = INFINITY;
        for (size_t yy = cy > 0 ? cy - 1 : 0; yy <= cy + 1 && yy < ny; yy++)
            for (size_t xx = cx > 0 ? cx - 1 : 0; xx <= cx + 1 && xx < nx; xx++) {
                size_t c = yy * nx + xx;
                for (size_t j = start[c]; j < start[c + 1]; j++) {
                    size_t o = order[j];
                    double dd = dist(x, y, z, i, o);
                    if (o != i && dd > 0 && dd < best)
                        best = dd;
                }
            }
        if (best < INFINITY)
            d[m++] = best;
    }
    double p1 = INFINITY;
    if (m > 0) {
        qsort(d, m, sizeof *d, util_cmp_double);
        p1 = d[(size_t)(0.01 * (double)(m - 1))];
    }
    free(start), free(order), free(d), free(cell);
    return p1;
}

void traj_close(struct traj *tr)
{
    if (tr->fd > 0)
        close(tr->fd);
    for (int i = 0; i < TRAJ_KEEP; i++)
        tj_slot_free(&tr->slot[i]);
    free(tr->path);
    free(tr->fr);
    free(tr->species);
    free(tr->ids);
    free(tr->seen);
    free(tr->buf);
    memset(tr, 0, sizeof *tr);
}

/* The first frame's ids, when they are not 1..n: sorted, for id_ball. */
static int first_ids(struct traj *tr, struct traj_error *err)
{
    tr->seen = calloc(tr->n ? tr->n : 1, 1);
    if (!tr->seen)
        return tj_nomem(err);
    /* Read frame 0 as though its ids were 1..n; when one is not, read the
     * ids alone and rank them. */
    struct traj_error e0;
    memset(&e0, 0, sizeof e0);
    if (tj_decode(tr, 0, &tr->slot[0], &e0) == 0)
        return 0;
    if (e0.nomem) {
        *err = e0;
        return -1;
    }
    tr->slot[0].used = 0;
    tr->ids = malloc(tr->n * sizeof *tr->ids);
    if (!tr->ids)
        return tj_nomem(err);
    struct traj_cols keep = tr->c;
    double sx = tr->shift_x, sy = tr->shift_y;
    tr->shift_x = tr->shift_y = 0;
    /* the ids through the x column's parser: only id is wanted */
    struct traj_slot *sl = &tr->slot[0];
    tr->c.id = -1;
    tj_cols_none(&tr->c);
    tr->c.ncols = keep.ncols;
    tr->c.x = keep.id;
    tr->c.y = keep.id;
    int rc = tj_decode(tr, 0, sl, err);
    tr->c = keep;
    tr->shift_x = sx;
    tr->shift_y = sy;
    if (rc)
        return -1;
    for (size_t i = 0; i < tr->n; i++) {
        if (sl->x[i] != floor(sl->x[i]) || fabs(sl->x[i]) > 9e18)
            return tj_fail(err, tr->fr[0].line + (long long)i, "id: '%.17g' is not a whole number",
                        sl->x[i]);
        tr->ids[i] = (long long)sl->x[i];
    }
    qsort(tr->ids, tr->n, sizeof *tr->ids, cmp_ll);
    for (size_t i = 1; i < tr->n; i++)
        if (tr->ids[i] == tr->ids[i - 1])
            return tj_fail(err, tr->fr[0].line, "id %lld twice in the first frame", tr->ids[i]);
    sl->used = 0;
    return 0;
}

int traj_open(struct traj *tr, const char *path, int format,
              void (*progress)(void *arg, double done), void *arg,
              struct traj_error *err)
{
    memset(tr, 0, sizeof *tr);
    memset(err, 0, sizeof *err);
    tr->fd = -1;
    tr->p = sim_default_params();
    tr->path = strdup(path);
    if (!tr->path)
        return tj_nomem(err);
    tr->fd = open(path, O_RDONLY);
    struct stat st;
    if (tr->fd < 0 || fstat(tr->fd, &st)) {
        tj_fail(err, 0, "cannot read: %s", strerror(errno));
        traj_close(tr);
        return -1;
    }
    /* Frames are read again by their offsets: a pipe cannot go back. */
    if (!S_ISREG(st.st_mode)) {
        tj_fail(err, 0, "a recorded run is read from a regular file, not a pipe or a device");
        traj_close(tr);
        return -1;
    }
    tr->size = (long long)st.st_size;
    struct scan sc = {.fd = tr->fd, .cap = TRAJ_BLOCK, .size = tr->size,
                      .progress = tr->size > (long long)TRAJ_PROGRESS_MIN ? progress : NULL,
                      .arg = arg};
    sc.buf = malloc(sc.cap);
    if (!sc.buf) {
        traj_close(tr);
        return tj_nomem(err);
    }
    if (tj_fill(&sc)) {
        tj_fail(err, 0, "cannot read: %s", strerror(errno));
        free(sc.buf);
        traj_close(tr);
        return -1;
    }
    /* A byte order mark goes. */
    if (sc.len >= 3 && !memcmp(sc.buf, "\xef\xbb\xbf", 3))
        sc.pos = 3;
    tr->format = format ? format : traj_detect(sc.buf, sc.len);
    if (!tr->format)
        tr->format = TRAJ_XYZ;
    int rc = tr->format == TRAJ_LAMMPS ? tj_index_lammps(tr, &sc, err) : tj_index_xyz(tr, &sc, err);
    free(sc.buf);
    if (rc == 0 && tr->nframes == 0)
        rc = tj_fail(err, sc.line ? sc.line : 1, tr->cut ? "the file ends inside the first frame"
                                                       : "no frame");
    if (rc) {
        traj_close(tr);
        return -1;
    }
    if (progress && sc.progress)
        progress(arg, 1);
    char in_name[4096];
    const char *in_why = NULL;
    int have_in = tr->format == TRAJ_LAMMPS && tj_lammps_in(tr, in_name, sizeof in_name, &in_why);
    if (in_why) {
        const char *slash = strrchr(in_name, '/');
        note(tr, "%s skipped: %s", slash ? slash + 1 : in_name, in_why);
    }
    if (have_in) {
        const char *slash = strrchr(in_name, '/');
        note(tr, "k %g, dt %g%s from %s", tr->p.k, tr->p.dt,
             tr->p.walls == SIM_WALLS_HARD ? ", hard walls" : "", slash ? slash + 1 : in_name);
    }
    /* The times: Time=, ITEM: TIME, the step times dt, or the step. */
    int steps_only = 0;
    for (size_t k = 0; k < tr->nframes; k++) {
        struct traj_frame *f = &tr->fr[k];
        if (isnan(f->t)) {
            if (tr->format == TRAJ_LAMMPS || tr->have_params == 1)
                f->t = (double)f->step * ((tr->have_dt || tr->have_params == 1) ? tr->p.dt : 1);
            else
                f->t = (double)f->step;
            steps_only |= tr->format == TRAJ_LAMMPS && !tr->have_dt;
        }
    }
    if (steps_only)
        note(tr, "no %s.in with a timestep: time in steps", "PREFIX");
    /* The table: the box (or PREFIX.in's), else where the balls are. */
    const struct traj_frame *f0 = &tr->fr[0];
    if (tr->have_params & 4) {
        /* springball's export: its table, no shift */
    } else if (f0->has_box) {
        if (tr->p.shape != SIM_CIRCLE) {
            tr->p.w = f0->box[2] - f0->box[0];
            tr->p.h = f0->box[3] - f0->box[1];
        }
        if (tr->p.shape != SIM_OPEN && (f0->box[0] != 0 || f0->box[1] != 0)) {
            tr->shift_x = -f0->box[0];
            tr->shift_y = -f0->box[1];
            note(tr, "positions shifted by (%g, %g) to put the box's corner at 0 0",
                 tr->shift_x, tr->shift_y);
        }
    }
    tr->v_diff = tr->c.vx < 0 && tr->c.vy < 0 && tr->c.px < 0;
    if (tr->c.id >= 0 && first_ids(tr, err)) {
        traj_close(tr);
        return -1;
    }
    /* The radius rule, over the first, middle and last frames. */
    if (tr->c.r < 0 && tr->c.diameter < 0) {
        size_t pick[3] = {0, tr->nframes / 2, tr->nframes - 1};
        double best = INFINITY;
        for (int i = 0; i < 3; i++) {
            if (i && pick[i] == pick[i - 1])
                continue;
            struct traj_error e;
            memset(&e, 0, sizeof e);
            struct traj_slot *sl = tj_get(tr, pick[i], 0, 0, &e);
            if (!sl) {
                if (i == 0 || e.nomem) {
                    *err = e;
                    traj_close(tr);
                    return -1;
                }
                continue; /* a bad later frame says so when it is shown */
            }
            double p1 = nn_p1(sl->x, sl->y, tr->has_z ? sl->z : NULL, tr->n);
            if (p1 < 0) {
                traj_close(tr);
                return tj_nomem(err);
            }
            best = fmin(best, p1);
        }
        tr->r_rule = best < INFINITY ? 0.5 * best : 1;
        for (int i = 0; i < TRAJ_KEEP; i++)
            if (tr->slot[i].used)
                for (size_t b = 0; b < tr->n; b++)
                    tr->slot[i].r[b] = tr->r_rule;
        note(tr, "radius %.3g (half the 1st percentile of nearest-neighbour distances)",
             tr->r_rule);
    }
    if (tr->v_diff)
        note(tr, "velocities from positions");
    /* The first frame: status 2 when it is bad. */
    memset(err, 0, sizeof *err);
    if (!tj_get(tr, 0, 0, 0, err)) {
        traj_close(tr);
        return -1;
    }
    if (tr->has_z) {
        /* balls that overlap seen from above need not touch: no springs
         * between them (the PE and E shown are the motion's alone) */
        tr->p.contact = SIM_CONTACT_NONE;
        note(tr, "a 3-D run: z was dropped (seen from above; no contacts in the plane)");
    }
    if (!f0->has_box && !(tr->have_params & 4) && tr->p.shape == SIM_RECT) {
        /* No box: the balls' extent and a margin of a diameter. */
        const struct traj_slot *sl = tj_get(tr, 0, 0, 0, err);
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, rmax = 0;
        for (size_t b = 0; b < tr->n; b++) {
            x0 = fmin(x0, sl->x[b]), x1 = fmax(x1, sl->x[b]);
            y0 = fmin(y0, sl->y[b]), y1 = fmax(y1, sl->y[b]);
            rmax = fmax(rmax, sl->r[b]);
        }
        tr->shift_x = 2 * rmax - x0;
        tr->shift_y = 2 * rmax - y0;
        tr->p.w = x1 - x0 + 4 * rmax;
        tr->p.h = y1 - y0 + 4 * rmax;
        if (!(tr->p.w > 0) || !isfinite(tr->p.w) || !(tr->p.h > 0) || !isfinite(tr->p.h)) {
            tj_fail(err, tr->fr[0].line, "the first frame's balls span no table");
            traj_close(tr);
            return -1;
        }
        note(tr, "no box: the table is where the balls are, shifted by (%g, %g)",
             tr->shift_x, tr->shift_y);
        for (int i = 0; i < TRAJ_KEEP; i++)
            tr->slot[i].used = 0; /* read again with the shift */
    }
    return 0;
}

/* === Frames out === */

size_t traj_at_time(const struct traj *tr, double t)
{
    size_t lo = 0, hi = tr->nframes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tr->fr[mid].t <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 ? lo - 1 : 0;
}

int traj_scene(struct traj *tr, size_t k, struct scene *sc, struct traj_error *err)
{
    memset(sc, 0, sizeof *sc);
    const struct traj_slot *sl = tj_frame(tr, k, err);
    if (!sl)
        return -1;
    sc->balls = malloc(tr->n * sizeof *sc->balls);
    if (!sc->balls)
        return tj_nomem(err);
    sc->n = sc->cap = tr->n;
    sc->p = tr->p;
    sc->format = SCENE_FORMAT_NATIVE;
    for (size_t b = 0; b < tr->n; b++)
        sc->balls[b] = (struct scene_ball){sl->x[b], sl->y[b], sl->vx[b], sl->vy[b],
                                           sl->m[b], sl->r[b], sl->color[b], 0};
    /* The file's velocities are observed ones (every writer's: --traj, R,
     * ASE, LAMMPS); a scene holds the spring engine's stored ones, from
     * which a run goes on (sim.h): rebuilt, so that the frame printed runs
     * on as the recorded run did (they differ by dt/2 F/m wherever a
     * contact, a wall or a field acts). */
    struct sim s;
    if (scene_to_sim(sc, &s)) {
        scene_free(sc);
        return tj_nomem(err);
    }
    int rc = sim_unobserve(&s, s.vx, s.vy);
    for (size_t b = 0; rc == SIM_OK && b < tr->n; b++) {
        size_t i = sim_slot(&s, b);
        sc->balls[b].vx = s.vx[i];
        sc->balls[b].vy = s.vy[i];
    }
    sim_free(&s);
    if (rc != SIM_OK) {
        scene_free(sc);
        return tj_nomem(err);
    }
    if (tr->p.shape == SIM_OPEN && tr->fr[0].has_box) {
        const double *bx = tr->fr[0].box;
        sc->view = (struct scene_view){bx[0], bx[1], bx[2], bx[3]};
        sc->radius = 0.5 * (bx[2] - bx[0]);
    } else {
        sc->view = (struct scene_view){0, 0, tr->p.w, tr->p.h};
    }
    return 0;
}

int traj_depth(struct traj *tr, size_t k, double *z, double *vz, struct traj_error *err)
{
    const struct traj_slot *sl = tj_frame(tr, k, err);
    if (!sl)
        return -1;
    memcpy(z, sl->z, tr->n * sizeof *z);
    memcpy(vz, sl->vz, tr->n * sizeof *vz);
    return 0;
}

int traj_sim(struct traj *tr, size_t k, struct sim *s, struct traj_error *err)
{
    const struct traj_slot *sl = tj_frame(tr, k, err);
    if (!sl)
        return -1;
    for (size_t b = 0; b < tr->n; b++) {
        size_t i = sim_slot(s, b);
        s->x[i] = sl->x[b];
        s->y[i] = sl->y[b];
        s->vx[i] = sl->vx[b];
        s->vy[i] = sl->vy[b];
        s->m[i] = sl->m[b];
        s->r[i] = sl->r[b];
    }
    s->t = tr->fr[k].t;
    s->steps = tr->fr[k].step;
    return 0;
}
