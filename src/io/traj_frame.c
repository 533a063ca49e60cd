/*
 * traj_frame.c - reading a frame: its rows pread block by block into a
 * slot, the columns the front end needs, velocities. See traj_impl.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "traj_impl.h"

#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* === Reading a frame === */

/* The colour a species named as a springball colour is (red, ...,
 * rgbRRGGBB, as the export's PREFIX.in names its atom types), or 0 (also
 * for X: none). */
uint32_t tj_color_named(const char *s, size_t len)
{
    char buf[16];
    for (uint32_t c = 1; c <= SCENE_COLOR_NAMED; c++) {
        const char *nm = scene_color_name(c, buf);
        if (nm && strlen(nm) == len && !strncmp(nm, s, len))
            return c;
    }
    if (len != 9 || strncmp(s, "rgb", 3))
        return 0;
    uint32_t rgb = 0;
    for (size_t i = 3; i < 9; i++) {
        char c = s[i];
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (h < 0)
            return 0;
        rgb = rgb << 4 | (uint32_t)h;
    }
    return SCENE_COLOR_RGB | rgb;
}

/* The colour of a species name: springball's colour names are their
 * colours (the export's atom types); else the first met has none (the
 * terminal's colour), the next the named colours in turn. */
static uint32_t species_color(struct traj *tr, const char *s, size_t len)
{
    uint32_t named = tj_color_named(s, len);
    if (named)
        return named;
    /* a LAMMPS atom type the export's PREFIX.in gives a colour */
    char num[16];
    snprintf(num, sizeof num, "%.*s", (int)(len < 15 ? len : 15), s);
    char *end;
    long t = strtol(num, &end, 10);
    if (len && !*end && t >= 1 && t <= tr->ntype_color)
        return tr->type_color[t - 1];
    if (len > 15)
        len = 15;
    for (size_t i = 0; i < tr->nspecies; i++)
        if (!strncmp(tr->species[i], s, len) && tr->species[i][len] == 0)
            return i == 0 ? SCENE_COLOR_NONE : (uint32_t)((i - 1) % SCENE_COLOR_NAMED + 1);
    if (tr->nspecies == 64)
        return SCENE_COLOR_NONE;
    if (!tr->species) {
        tr->species = malloc(64 * sizeof *tr->species);
        if (!tr->species)
            return SCENE_COLOR_NONE;
    }
    memcpy(tr->species[tr->nspecies], s, len);
    tr->species[tr->nspecies][len] = 0;
    size_t i = tr->nspecies++;
    return i == 0 ? SCENE_COLOR_NONE : (uint32_t)((i - 1) % SCENE_COLOR_NAMED + 1);
}

/* The ball a LAMMPS id stands for: id - 1 when the first frame's ids are
 * 1..n, else its rank among them; n when it is not one of them. */
static size_t id_ball(const struct traj *tr, long long id)
{
    if (!tr->ids)
        return id >= 1 && (unsigned long long)id <= tr->n ? (size_t)(id - 1) : tr->n;
    size_t lo = 0, hi = tr->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tr->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < tr->n && tr->ids[lo] == id ? lo : tr->n;
}

void tj_slot_free(struct traj_slot *sl)
{
    free(sl->x);
    free(sl->color);
    memset(sl, 0, sizeof *sl);
}

static int slot_alloc(struct traj_slot *sl, size_t n)
{
    if (sl->x)
        return 0;
    sl->x = malloc(8 * n * sizeof *sl->x);
    sl->color = malloc(n * sizeof *sl->color);
    if (!sl->x || !sl->color) {
        tj_slot_free(sl);
        return -1;
    }
    sl->y = sl->x + n;
    sl->vx = sl->y + n;
    sl->vy = sl->vx + n;
    sl->m = sl->vy + n;
    sl->r = sl->m + n;
    sl->z = sl->r + n;
    sl->vz = sl->z + n;
    return 0;
}

/* What a row's values are, by column (see colmap). */
enum { X, Y, VX, VY, PX, PY, R, D, M, CR, CG, CB, ID, Z, VZ, PZ, NV };

/// Columns a row is looked at for (the later ones are skipped).
#define TRAJ_MAP 1024

/* The value each column holds (enum above), -1 for none. */
static void colmap(const struct traj_cols *c, signed char map[TRAJ_MAP])
{
    const int want[NV] = {c->x, c->y, c->vx, c->vy, c->px, c->py, c->r,
                          c->diameter, c->m, c->cr, c->cg, c->cb, c->id, c->z,
                          c->vz, c->pz};
    memset(map, -1, TRAJ_MAP);
    for (int w = 0; w < NV; w++)
        if (want[w] >= 0 && want[w] < TRAJ_MAP && map[want[w]] < 0)
            map[want[w]] = (signed char)w;
}

/* One row of frame k into ball b's place (LAMMPS: by its id). */
static int row(struct traj *tr, struct traj_slot *sl, const struct traj_frame *f,
               const signed char *map, const char *s, size_t len, size_t b,
               long long line, struct traj_error *err)
{
    const struct traj_cols *c = &tr->c;
    const char *p = s, *end = s + len, *t;
    size_t tl;
    double v[NV] = {0};
    static const char *const names[NV] = {"x", "y", "vx", "vy", "px", "py", "radius",
                                          "diameter", "mass", "red", "green", "blue", "id",
                                          "z", "vz", "pz"};
    const char *sp = NULL;
    size_t spl = 0;
    int col = 0;
    char buf[64];
    while ((tl = tj_token(&p, end, &t)) > 0) {
        if (c->ncols && col == c->ncols)
            return tj_fail(err, line, "expected %d fields (%s), found more", c->ncols,
                        tr->format == TRAJ_LAMMPS ? "ITEM: ATOMS" : "Properties");
        if (col == c->species) {
            sp = t;
            spl = tl;
        }
        int w = col < TRAJ_MAP ? map[col] : -1;
        if (w >= 0 && text_double(t, tl, &v[w]))
            return tj_fail(err, line, "%s: '%s' is not a number", names[w],
                        tj_shown(t, tl, buf, sizeof buf));
        col++;
    }
    if (col == 0)
        return tj_fail(err, line, "expected a ball, found an empty line");
    if ((c->ncols && col < c->ncols) || (!c->ncols && col < 3)) {
        int need = c->ncols ? c->ncols : 3;
        return tj_fail(err, line, "expected %d fields%s, found %d", need,
                    !c->ncols ? " (species x y)"
                    : tr->format == TRAJ_LAMMPS ? " (ITEM: ATOMS)" : " (Properties)", col);
    }
    if (c->id >= 0) {
        if (v[ID] != floor(v[ID]) || fabs(v[ID]) > 9e18)
            return tj_fail(err, line, "id: '%.17g' is not a whole number", v[ID]);
        b = id_ball(tr, (long long)v[ID]);
        if (b == tr->n)
            return tj_fail(err, line, "id %.17g is not one of the first frame's", v[ID]);
        if (tr->seen[b])
            return tj_fail(err, line, "id %.17g twice in one frame", v[ID]);
        tr->seen[b] = 1;
    }
    double x = v[X], y = v[Y], z = v[Z];
    if (c->scaled & 1)
        x = f->box[0] + x * (f->box[2] - f->box[0]);
    if (c->scaled & 2)
        y = f->box[1] + y * (f->box[3] - f->box[1]);
    if (c->scaled & 4)
        z = f->zbox[0] + z * (f->zbox[1] - f->zbox[0]);
    if (z != 0)
        tr->has_z = 1;
    sl->z[b] = z;
    sl->x[b] = x + tr->shift_x;
    sl->y[b] = y + tr->shift_y;
    double m = c->m >= 0 ? v[M] : 1;
    if (c->m >= 0 && !(m > 0))
        return tj_fail(err, line, "mass: %.17g is not > 0", m);
    sl->m[b] = m;
    if (c->vx >= 0 || c->vy >= 0) {
        sl->vx[b] = c->vx >= 0 ? v[VX] : 0;
        sl->vy[b] = c->vy >= 0 ? v[VY] : 0;
        sl->vz[b] = c->vz >= 0 ? v[VZ] : 0;
    } else if (c->px >= 0) {
        sl->vx[b] = v[PX] / m;
        sl->vy[b] = v[PY] / m;
        sl->vz[b] = c->pz >= 0 ? v[PZ] / m : 0;
    } else {
        sl->vx[b] = sl->vy[b] = sl->vz[b] = 0;
    }
    double r = c->r >= 0 ? v[R] : c->diameter >= 0 ? 0.5 * v[D] : tr->r_rule;
    if ((c->r >= 0 || c->diameter >= 0) && !(r > 0))
        return tj_fail(err, line, "radius: %.17g is not > 0", r);
    sl->r[b] = r;
    uint32_t color = SCENE_COLOR_NONE;
    if (c->cr >= 0) {
        double mx = fmax(v[CR], fmax(v[CG], v[CB])) > 1 ? 255 : 1;
        uint32_t rgb = 0;
        for (int k = CR; k <= CB; k++) {
            double u = fmin(fmax(v[k] / mx, 0), 1);
            rgb = rgb << 8 | (uint32_t)lround(u * 255);
        }
        color = SCENE_COLOR_RGB | rgb;
    } else if (sp) {
        color = species_color(tr, sp, spl);
    }
    sl->color[b] = color;
    return 0;
}

/* Reads and parses frame k's rows into @p sl. */
int tj_decode(struct traj *tr, size_t k, struct traj_slot *sl, struct traj_error *err)
{
    const struct traj_frame *f = &tr->fr[k];
    if (slot_alloc(sl, tr->n))
        return tj_nomem(err);
    sl->used = 0;
    if (!tr->buf) {
        tr->cap = TRAJ_BLOCK;
        tr->buf = malloc(tr->cap);
        if (!tr->buf)
            return tj_nomem(err);
    }
    if (tr->c.id >= 0)
        memset(tr->seen, 0, tr->n);
    signed char map[TRAJ_MAP];
    colmap(&tr->c, map);
    long long off = f->rows, line = f->line;
    size_t have = 0, b = 0;
    while (b < tr->n) {
        size_t want = tr->cap - have;
        if ((long long)want > f->end - off)
            want = (size_t)(f->end - off);
        ssize_t got = 0;
        if (want > 0) {
            do
                got = pread(tr->fd, tr->buf + have, want, (off_t)off);
            while (got < 0 && errno == EINTR);
            if (got < 0)
                return tj_fail(err, line, "cannot read: %s", strerror(errno));
            if (got == 0)
                return tj_fail(err, line, "the file became shorter since it was opened");
        }
        off += got;
        have += (size_t)got;
        int last = off >= f->end;
        const char *p = tr->buf, *e = tr->buf + have;
        while (b < tr->n && p < e) {
            const char *nl = memchr(p, '\n', (size_t)(e - p));
            if (!nl && !last)
                break;
            const char *le = nl ? nl : e;
            if (row(tr, sl, f, map, p, (size_t)(le - p), b, line, err))
                return -1;
            b++;
            line++;
            p = nl ? nl + 1 : e;
        }
        if (b < tr->n && last && p >= e)
            return tj_fail(err, line, "the file changed since it was opened");
        have = (size_t)(e - p);
        memmove(tr->buf, p, have);
        if (have == tr->cap)
            return tj_fail(err, line, "a line longer than 4 MiB");
    }
    sl->frame = k;
    sl->used = 1;
    return 0;
}

/* The slot holding frame k, decoded if need be, sparing the slots of
 * frames in [keep0, keep1]. NULL with @p err on failure. */
struct traj_slot *tj_get(struct traj *tr, size_t k, size_t keep0, size_t keep1,
                             struct traj_error *err)
{
    int victim = -1;
    for (int i = 0; i < TRAJ_KEEP; i++) {
        struct traj_slot *sl = &tr->slot[i];
        if (sl->used && sl->frame == k) {
            tr->used_at[i] = ++tr->use;
            return sl;
        }
        if (sl->used && sl->frame >= keep0 && sl->frame <= keep1)
            continue;
        if (victim < 0 || !sl->used || (tr->slot[victim].used && tr->used_at[i] < tr->used_at[victim]))
            victim = i;
    }
    if (tj_decode(tr, k, &tr->slot[victim], err))
        return NULL;
    tr->used_at[victim] = ++tr->use;
    return &tr->slot[victim];
}

/* Frame k with its velocities (differences when the file has none). */
struct traj_slot *tj_frame(struct traj *tr, size_t k, struct traj_error *err)
{
    memset(err, 0, sizeof *err);
    if (k >= tr->nframes) {
        tj_fail(err, 0, "no frame %zu (the file has %zu)", k, tr->nframes);
        return NULL;
    }
    size_t lo = k > 0 ? k - 1 : k, hi = k + 1 < tr->nframes ? k + 1 : k;
    struct traj_slot *sl = tj_get(tr, k, lo, hi, err);
    if (!sl || !tr->v_diff || lo == hi)
        return sl;
    /* A neighbour that cannot be read leaves a one-sided difference (its
     * own fault is told when it is shown). */
    struct traj_error e2;
    memset(&e2, 0, sizeof e2);
    struct traj_slot *a = lo < k ? tj_get(tr, lo, lo, hi, &e2) : sl;
    if (!a && e2.nomem) {
        *err = e2;
        return NULL;
    }
    if (!a)
        a = sl, lo = k;
    struct traj_slot *c = hi > k ? tj_get(tr, hi, lo, hi, &e2) : sl;
    if (!c && e2.nomem) {
        *err = e2;
        return NULL;
    }
    if (!c)
        c = sl, hi = k;
    double dt = tr->fr[hi].t - tr->fr[lo].t;
    for (size_t i = 0; i < tr->n; i++) {
        sl->vx[i] = dt > 0 ? (c->x[i] - a->x[i]) / dt : 0;
        sl->vy[i] = dt > 0 ? (c->y[i] - a->y[i]) / dt : 0;
        sl->vz[i] = dt > 0 ? (c->z[i] - a->z[i]) / dt : 0;
    }
    return sl;
}
