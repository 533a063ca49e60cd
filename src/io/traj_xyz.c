/*
 * traj_xyz.c - indexing (extended) XYZ: the count line, the comment
 * line's key=value pairs (Properties, Lattice, springball=). See traj_impl.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "traj_impl.h"

#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kv_next(const char **p, const char *end, const char **k, size_t *kl,
                   const char **v, size_t *vl)
{
    const char *s = *p;
    while (s < end && tj_blank(*s))
        s++;
    if (s == end)
        return 0;
    *k = s;
    while (s < end && !tj_blank(*s) && *s != '=')
        s++;
    *kl = (size_t)(s - *k);
    *v = s;
    *vl = 0;
    if (s < end && *s == '=') {
        s++;
        if (s < end && (*s == '"' || *s == '{')) {
            char close = *s == '"' ? '"' : '}';
            *v = ++s;
            while (s < end && *s != close)
                s++;
            *vl = (size_t)(s - *v);
            if (s < end)
                s++;
        } else {
            *v = s;
            while (s < end && !tj_blank(*s))
                s++;
            *vl = (size_t)(s - *v);
        }
    }
    *p = s;
    return 1;
}

/* Numbers of a value ("W 0 0 0 H 0 0 0 Z"): how many, at most @p max. */
int tj_numbers(const char *s, size_t len, double *out, int max)
{
    const char *p = s, *end = s + len, *t;
    int n = 0;
    size_t tl;
    while ((tl = tj_token(&p, end, &t)) > 0) {
        if (n == max || text_double(t, tl, &out[n]))
            return -1;
        n++;
    }
    return n;
}

/* Sets a column from a name (extended XYZ Properties, LAMMPS ATOMS). */
void tj_column(struct traj_cols *c, const char *name, size_t len, int col, int count)
{
    char lc[32];
    if (len >= sizeof lc)
        return;
    for (size_t i = 0; i < len; i++)
        lc[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] - 'A' + 'a') : name[i];
    lc[len] = 0;
    if (count >= 2 && (!strcmp(lc, "pos") || !strcmp(lc, "positions") ||
                       !strcmp(lc, "position"))) {
        c->x = col;
        c->y = col + 1;
        if (count >= 3)
            c->z = col + 2;
    } else if (count >= 2 && (!strcmp(lc, "velo") || !strcmp(lc, "vel") ||
                              !strcmp(lc, "velocities") || !strcmp(lc, "velocity"))) {
        c->vx = col;
        c->vy = col + 1;
        if (count >= 3)
            c->vz = col + 2;
    } else if (count >= 2 && (!strcmp(lc, "momenta") || !strcmp(lc, "momentum"))) {
        c->px = col;
        c->py = col + 1;
        if (count >= 3)
            c->pz = col + 2;
    } else if (count >= 3 && (!strcmp(lc, "color") || !strcmp(lc, "colors") ||
                              !strcmp(lc, "colour"))) {
        c->cr = col;
        c->cg = col + 1;
        c->cb = col + 2;
    } else if (count == 1) {
        if (!strcmp(lc, "radius") || !strcmp(lc, "radii"))
            c->r = col;
        else if (!strcmp(lc, "diameter"))
            c->diameter = col;
        else if (!strcmp(lc, "mass") || !strcmp(lc, "masses"))
            c->m = col;
        else if (!strcmp(lc, "species") || !strcmp(lc, "element") || !strcmp(lc, "type") ||
                 !strcmp(lc, "particle_type") || !strcmp(lc, "types"))
            c->species = col;
        else if (!strcmp(lc, "id"))
            c->id = col;
        else if (!strcmp(lc, "x") || !strcmp(lc, "xu"))
            c->x = col;
        else if (!strcmp(lc, "y") || !strcmp(lc, "yu"))
            c->y = col;
        else if (!strcmp(lc, "xs") || !strcmp(lc, "xsu"))
            c->x = col, c->scaled |= 1;
        else if (!strcmp(lc, "ys") || !strcmp(lc, "ysu"))
            c->y = col, c->scaled |= 2;
        else if (!strcmp(lc, "z") || !strcmp(lc, "zu"))
            c->z = col;
        else if (!strcmp(lc, "zs") || !strcmp(lc, "zsu"))
            c->z = col, c->scaled |= 4;
        else if (!strcmp(lc, "vz"))
            c->vz = col;
        else if (!strcmp(lc, "vx"))
            c->vx = col;
        else if (!strcmp(lc, "vy"))
            c->vy = col;
    }
}

void tj_cols_none(struct traj_cols *c)
{
    *c = (struct traj_cols){.ncols = 0, .x = -1, .y = -1, .vx = -1, .vy = -1, .px = -1,
                            .py = -1, .r = -1, .diameter = -1, .m = -1, .species = -1,
                            .id = -1, .cr = -1, .cg = -1, .cb = -1, .z = -1, .vz = -1,
                            .pz = -1, .scaled = 0};
}

/* Properties=name:T:n:name:T:n... */
static int properties(struct traj *tr, const char *v, size_t vl, long long line,
                      struct traj_error *err)
{
    struct traj_cols *c = &tr->c;
    tj_cols_none(c);
    const char *p = v, *end = v + vl;
    int col = 0;
    while (p < end) {
        const char *f[3];
        size_t fl[3];
        for (int i = 0; i < 3; i++) {
            f[i] = p;
            while (p < end && *p != ':')
                p++;
            fl[i] = (size_t)(p - f[i]);
            if (i < 2 && p == end)
                return tj_fail(err, line, "Properties: '%.*s' is not name:type:count",
                            (int)(vl > 60 ? 60 : vl), v);
            if (p < end)
                p++;
        }
        unsigned long long count;
        if (fl[1] != 1 || !strchr("SRIL", f[1][0]) || !tj_is_count(f[2], fl[2], &count) ||
            count == 0 || count > 64)
            return tj_fail(err, line, "Properties: '%.*s' is not name:type:count",
                        (int)(vl > 60 ? 60 : vl), v);
        for (const char *q = v; q < f[0];) { /* a name twice */
            const char *n0 = q;
            while (q < f[0] && *q != ':')
                q++;
            if ((size_t)(q - n0) == fl[0] && !memcmp(n0, f[0], fl[0]))
                return tj_fail(err, line, "Properties: '%.*s' twice", (int)(fl[0] > 40 ? 40 : fl[0]),
                               f[0]);
            for (int skip = 0; skip < 2 && q < f[0]; skip++) { /* past :type:count */
                q++;
                while (q < f[0] && *q != ':')
                    q++;
            }
            q += q < f[0]; /* and the ':' before the next name */
        }
        if (f[1][0] == 'R' || (f[1][0] == 'S' && count == 1) || f[1][0] == 'I')
            tj_column(c, f[0], fl[0], col, (int)count);
        col += (int)count;
        if (col > 1000)
            return tj_fail(err, line, "Properties: more than 1000 columns");
    }
    c->ncols = col;
    if (c->x < 0)
        return tj_fail(err, line, "Properties has no pos column");
    return 0;
}

/* Lattice="ax ay az bx by bz cx cy cz": the table is a x b, which must be
 * a rectangle in the plane. */
static int lattice(const char *v, size_t vl, double box[4], long long line,
                   struct traj_error *err)
{
    double a[9];
    if (tj_numbers(v, vl, a, 9) != 9)
        return tj_fail(err, line, "Lattice: expected 9 numbers");
    if (a[1] != 0 || a[3] != 0 || !(a[0] > 0) || !(a[4] > 0))
        return tj_fail(err, line, "Lattice: a slanted box (only a rectangle "
                               "W 0 0 0 H 0 ... is a table)");
    box[2] = box[0] + a[0];
    box[3] = box[1] + a[4];
    return 0;
}

/* springball="k 5; dt 0.05; ..." as scene directives over the table
 * (which they give themselves when it is round). */
static int params_text(struct traj *tr, const char *v, size_t vl, const double box[4],
                       long long line, struct traj_error *err)
{
    /* Only the run's parameters (RECORDING in the man page): a ball or a
     * random directive here would add balls, or cost seconds, from a
     * comment. */
    static const char *const allowed[] = {"table", "k", "dt", "restitution", "walls",
                                          "contact", "gravity", "friction", "field", "open"};
    for (size_t i = 0; i < vl;) {
        if ((unsigned char)v[i] < ' ' && v[i] != '\t')
            return tj_fail(err, line, "springball=: a control byte");
        while (i < vl && (v[i] == ' ' || v[i] == '\t'))
            i++;
        size_t w = i;
        while (w < vl && v[w] != ' ' && v[w] != '\t' && v[w] != ';' && v[w] != '#')
            w++;
        int ok = w == i;
        for (size_t a = 0; !ok && a < sizeof allowed / sizeof *allowed; a++)
            ok = strlen(allowed[a]) == w - i && !memcmp(allowed[a], v + i, w - i);
        if (!ok)
            return tj_fail(err, line, "springball=: '%.*s' is not a run parameter (table, "
                                      "k, dt, restitution, walls, contact, gravity, "
                                      "friction, field, open)",
                           (int)(w - i > 40 ? 40 : w - i), v + i);
        while (i < vl && v[i] != ';') {
            if ((unsigned char)v[i] < ' ' && v[i] != '\t')
                return tj_fail(err, line, "springball=: a control byte");
            i++;
        }
        i += i < vl;
    }
    char *text = malloc(vl + 80);
    if (!text)
        return tj_nomem(err);
    int table = 0;
    for (size_t i = 0; i + 5 <= vl; i++)
        table |= !memcmp(v + i, "table", 5);
    size_t at = 0;
    if (!table)
        at = (size_t)sprintf(text, "table %.17g %.17g\n", box[2] - box[0], box[3] - box[1]);
    for (size_t i = 0; i < vl; i++)
        text[at++] = v[i] == ';' ? '\n' : v[i];
    text[at] = 0;
    struct scene sc;
    struct scene_error se;
    int rc = scene_parse(&sc, text, at, &se);
    free(text);
    if (rc) {
        if (se.nomem)
            return tj_nomem(err);
        return tj_fail(err, line, "springball=: %s", se.msg);
    }
    tr->p = sc.p;
    tr->have_params = 1;
    scene_free(&sc);
    return 0;
}

/* The comment line of an extended XYZ frame: time, step, box; for the
 * first frame also the columns and springball's parameters. */
static int xyz_comment(struct traj *tr, const char *s, size_t len, struct traj_frame *f,
                       long long line, struct traj_error *err)
{
    const char *p = s, *end = s + len, *k, *v;
    size_t kl, vl;
    int first = tr->nframes == 0, have_props = 0, have_t = 0, have_origin = 0;
    const char *params = NULL;
    size_t params_len = 0;
    double origin[3] = {0, 0, 0};
    double lat_box[4] = {0, 0, 0, 0};
    int have_lat = 0;
    while (kv_next(&p, end, &k, &kl, &v, &vl)) {
        if (tj_ieq(k, kl, "time")) {
            if (text_double(v, vl, &f->t))
                return tj_fail(err, line, "Time: '%.*s' is not a number", (int)(vl > 40 ? 40 : vl), v);
            have_t = 1;
        } else if (tj_ieq(k, kl, "step")) {
            double st;
            if (text_double(v, vl, &st) || st != floor(st) || fabs(st) > 9e18)
                return tj_fail(err, line, "Step: '%.*s' is not a whole number", (int)(vl > 40 ? 40 : vl), v);
            f->step = (long long)st;
        } else if (tj_ieq(k, kl, "lattice")) {
            if (lattice(v, vl, lat_box, line, err))
                return -1;
            have_lat = 1;
        } else if (tj_ieq(k, kl, "origin")) {
            if (tj_numbers(v, vl, origin, 3) != 3)
                return tj_fail(err, line, "Origin: expected 3 numbers");
            have_origin = 1;
        } else if (tj_ieq(k, kl, "properties")) {
            if (first) {
                if (vl >= sizeof tr->props)
                    return tj_fail(err, line, "Properties: too long");
                memcpy(tr->props, v, vl);
                tr->props[vl] = 0;
                if (properties(tr, v, vl, line, err))
                    return -1;
            } else if (vl != strlen(tr->props) || memcmp(v, tr->props, vl)) {
                return tj_fail(err, line, "frame %zu has other Properties than the first",
                            tr->nframes);
            }
            have_props = 1;
        } else if (tj_ieq(k, kl, "springball")) {
            params = v;
            params_len = vl;
        }
    }
    if (first && !have_props) {
        tj_cols_none(&tr->c); /* plain XYZ: species x y [z ...] */
        tr->c.species = 0;
        tr->c.x = 1;
        tr->c.y = 2;
        tr->c.z = 3;
    } else if (!first && !have_props && tr->props[0]) {
        return tj_fail(err, line, "frame %zu has no Properties, the first has", tr->nframes);
    }
    if (have_lat) {
        f->box[0] = origin[0];
        f->box[1] = origin[1];
        f->box[2] = origin[0] + lat_box[2];
        f->box[3] = origin[1] + lat_box[3];
        f->has_box = 1;
        for (int i = 0; i < 4; i++)
            if (!isfinite(f->box[i]) || (i >= 2 && !isfinite(f->box[i] - f->box[i - 2])))
                return tj_fail(err, line, "Lattice: the box is beyond the range of double");
    }
    if (!have_t)
        f->t = NAN; /* set from the step or the index later */
    if (first && params) {
        double box[4] = {0, 0, 800, 400};
        if (f->has_box)
            memcpy(box, f->box, sizeof box);
        if (params_text(tr, params, params_len, box, line, err))
            return -1;
        if (have_origin && (origin[0] != 0 || origin[1] != 0))
            tr->p.shape = SIM_OPEN; /* springball's open space: -R..R */
    }
    return 0;
}

/* Indexes an XYZ file. */
int tj_index_xyz(struct traj *tr, struct scan *sc, struct traj_error *err)
{
    const char *s, *why = NULL;
    size_t len;
    long long off;
    for (;;) {
        int rc = tj_next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return tj_fail(err, sc->line, "%s", why);
        if (rc == 0)
            return 0;
        const char *p = s, *t;
        if (tj_token(&p, s + len, &t) == 0)
            continue; /* blank lines between frames */
        if (tj_at_cut(sc)) {
            tr->cut = 1; /* cut inside the count line */
            return 0;
        }
        unsigned long long n;
        char buf[64];
        if (!tj_is_count(s, len, &n))
            return tj_fail(err, sc->line, "expected the ball count of frame %zu, found '%s'",
                        tr->nframes, tj_shown(s, len, buf, sizeof buf));
        if (n == 0 || n > SCENE_MAX_BALLS)
            return tj_fail(err, sc->line, "frame %zu: %llu balls (1 to %llu)", tr->nframes,
                        n, (unsigned long long)SCENE_MAX_BALLS);
        if (tr->nframes && n != tr->n)
            return tj_fail(err, sc->line, "frame %zu has %llu balls, the first %zu",
                        tr->nframes, n, tr->n);
        tr->n = (size_t)n;
        struct traj_frame f = {.off = off, .step = (long long)tr->nframes};
        rc = tj_next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return tj_fail(err, sc->line, "%s", why);
        if (rc == 0 || tj_at_cut(sc)) {
            tr->cut = 1; /* cut before or inside the comment line */
            return 0;
        }
        if (xyz_comment(tr, s, len, &f, sc->line, err))
            return -1;
        int rc_rows = tj_frame_rows(tr, sc, &f, (long long)n, err);
        if (rc_rows <= 0)
            return rc_rows;
    }
}

/* Indexes a LAMMPS dump: ITEM: TIMESTEP, NUMBER OF ATOMS, BOX BOUNDS and
 * ATOMS (TIME and UNITS too), then the rows. */
