/*
 * traj_lammps.c - indexing LAMMPS dumps (ITEM lines) and reading the
 * PREFIX.in beside them. See traj_impl.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "traj_impl.h"

#include "text.h"

/* The most bytes of PREFIX.in read. */
#define TJ_IN_MAX (1 << 20)

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tj_index_lammps(struct traj *tr, struct scan *sc, struct traj_error *err)
{
    const char *s, *why = NULL;
    size_t len;
    long long off;
    struct traj_frame f = {0};
    int have_step = 0, have_n = 0;
    unsigned long long n = 0;
    char buf[64];
    for (;;) {
        int rc = tj_next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return tj_fail(err, sc->line, "%s", why);
        if (rc == 0) {
            tr->cut = have_step;
            return 0;
        }
        const char *p = s, *end = s + len, *t;
        size_t tl = tj_token(&p, end, &t);
        if (tl == 0)
            continue;
        if (tj_at_cut(sc)) {
            tr->cut = have_step || tr->nframes; /* cut inside an ITEM line */
            return 0;
        }
        if (tl != 5 || memcmp(t, "ITEM:", 5))
            return tj_fail(err, sc->line, "expected an ITEM: line, found '%s'",
                        tj_shown(s, len, buf, sizeof buf));
        while (p < end && tj_blank(*p))
            p++;
        const char *item = p;
        size_t il = (size_t)(end - p);
        const char *value;
        size_t vl;
        long long line;
        if (il >= 8 && !memcmp(item, "TIMESTEP", 8)) {
            if (have_step)
                return tj_fail(err, sc->line, "frame %zu has no ATOMS", tr->nframes);
            f = (struct traj_frame){.off = off, .t = NAN};
            have_step = 1;
            have_n = 0;
            rc = tj_next_line(sc, &value, &vl, &off, &why);
            line = sc->line;
            unsigned long long st;
            if (rc <= 0 || tj_at_cut(sc) || !tj_is_count(value, vl, &st)) {
                if (rc == 0 || (rc > 0 && tj_at_cut(sc))) {
                    tr->cut = 1;
                    return 0;
                }
                return tj_fail(err, line, "TIMESTEP: expected a step number");
            }
            f.step = (long long)st;
        } else if (!have_step) {
            return tj_fail(err, sc->line, "expected ITEM: TIMESTEP, found '%s'",
                        tj_shown(s, len, buf, sizeof buf));
        } else if ((il >= 4 && !memcmp(item, "TIME", 4) && il == 4) ||
                   (il >= 5 && !memcmp(item, "UNITS", 5))) {
            rc = tj_next_line(sc, &value, &vl, &off, &why);
            if (rc == 0 || (rc > 0 && tj_at_cut(sc))) {
                tr->cut = 1;
                return 0;
            }
            if (rc < 0 || (item[1] == 'I' && text_double(value, vl, &f.t)))
                return tj_fail(err, sc->line, "TIME: expected a number");
        } else if (il >= 15 && !memcmp(item, "NUMBER OF ATOMS", 15)) {
            rc = tj_next_line(sc, &value, &vl, &off, &why);
            if (rc == 0 || (rc > 0 && tj_at_cut(sc))) {
                tr->cut = 1;
                return 0;
            }
            if (rc < 0 || !tj_is_count(value, vl, &n) || n == 0 || n > SCENE_MAX_BALLS)
                return tj_fail(err, sc->line, "NUMBER OF ATOMS: expected 1 to %llu",
                            (unsigned long long)SCENE_MAX_BALLS);
            if (tr->nframes && n != tr->n)
                return tj_fail(err, sc->line, "frame %zu has %llu balls, the first %zu",
                            tr->nframes, n, tr->n);
            have_n = 1;
        } else if (il >= 10 && !memcmp(item, "BOX BOUNDS", 10)) {
            int tri = 0;
            for (size_t i = 10; i + 2 <= il; i++)
                tri |= !memcmp(item + i, "xy", 2);
            double b[3][3];
            for (int a = 0; a < 3; a++) {
                rc = tj_next_line(sc, &value, &vl, &off, &why);
                if (rc == 0 || (rc > 0 && tj_at_cut(sc))) {
                    tr->cut = 1;
                    return 0;
                }
                if (rc < 0 || tj_numbers(value, vl, b[a], 3) != 2 + tri)
                    return tj_fail(err, sc->line, "BOX BOUNDS: expected %d numbers", 2 + tri);
                if (a < 2 && !isfinite(b[a][1] - b[a][0]))
                    return tj_fail(err, sc->line, "BOX BOUNDS: the box is beyond the range "
                                                  "of double");
            }
            if (tri && (b[0][2] != 0 || b[1][2] != 0 || b[2][2] != 0))
                return tj_fail(err, sc->line, "a triclinic box (tilt xy xz yz not 0) "
                                           "is not a table");
            f.box[0] = b[0][0];
            f.box[1] = b[1][0];
            f.box[2] = b[0][1];
            f.box[3] = b[1][1];
            f.zbox[0] = b[2][0];
            f.zbox[1] = b[2][1];
            if (!(f.box[2] > f.box[0]) || !(f.box[3] > f.box[1]))
                return tj_fail(err, sc->line, "BOX BOUNDS: an empty box");
            f.has_box = 1;
        } else if (il >= 5 && !memcmp(item, "ATOMS", 5)) {
            line = sc->line;
            if (!have_n)
                return tj_fail(err, line, "ATOMS before NUMBER OF ATOMS");
            const char *cols = item + 5;
            size_t cl = il - 5;
            while (cl && tj_blank(*cols))
                cols++, cl--;
            if (tr->nframes == 0) {
                if (cl >= sizeof tr->props)
                    return tj_fail(err, line, "ATOMS: the column names take more than "
                                              "%zu characters", sizeof tr->props - 1);
                memcpy(tr->props, cols, cl);
                tr->props[cl] = 0;
                tj_cols_none(&tr->c);
                const char *q = cols, *ce = cols + cl, *ct;
                size_t ctl;
                int col = 0;
                while ((ctl = tj_token(&q, ce, &ct)) > 0) {
                    const char *q2 = cols, *ct2;
                    size_t ctl2;
                    while ((ctl2 = tj_token(&q2, ct, &ct2)) > 0)
                        if (ctl2 == ctl && !memcmp(ct2, ct, ctl))
                            return tj_fail(err, line, "ATOMS: column '%.*s' twice",
                                           (int)(ctl > 40 ? 40 : ctl), ct);
                    tj_column(&tr->c, ct, ctl, col++, 1);
                }
                tr->c.ncols = col;
                if (tr->c.x < 0 || tr->c.y < 0)
                    return tj_fail(err, line, "ATOMS: no x y (or xs ys) columns");
                if (tr->c.scaled && !f.has_box)
                    return tj_fail(err, line, "ATOMS: scaled positions need BOX BOUNDS");
            } else if (cl != strlen(tr->props) || memcmp(cols, tr->props, cl)) {
                return tj_fail(err, line, "frame %zu has other ATOMS columns than the first",
                            tr->nframes);
            }
            tr->n = (size_t)n;
            int rc_rows = tj_frame_rows(tr, sc, &f, (long long)n, err);
            if (rc_rows <= 0)
                return rc_rows;
            have_step = 0;
        } else {
            return tj_fail(err, sc->line, "unknown item '%s'", tj_shown(s, len, buf, sizeof buf));
        }
    }
}

/* PREFIX.in beside a LAMMPS dump PREFIX.*: dt, k, walls, field, and the
 * table of springball's export. @return 1 when found and read. */
int tj_lammps_in(struct traj *tr, char *name, size_t size, const char **why)
{
    *why = NULL;
    const char *slash = strrchr(tr->path, '/');
    const char *dot = strrchr(slash ? slash + 1 : tr->path, '.');
    size_t base = dot ? (size_t)(dot - tr->path) : strlen(tr->path);
    if (base + 4 > size)
        return 0;
    memcpy(name, tr->path, base);
    memcpy(name + base, ".in", 4);
    /* Read with bounds, as a scene is: a regular file alone (a FIFO there
     * hung the replay, a link to /dev/zero read for ever), at most
     * TJ_IN_MAX bytes, no NUL byte; else skipped with a note. */
    int fd = open(name, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > TJ_IN_MAX) {
        *why = fstat(fd, &st) || !S_ISREG(st.st_mode) ? "not a regular file"
                                                      : "larger than 1 MB";
        close(fd);
        return 0;
    }
    char *text = malloc((size_t)st.st_size + 1);
    ssize_t got = text ? read(fd, text, (size_t)st.st_size) : -1;
    close(fd);
    if (got < 0 || memchr(text, 0, (size_t)got)) {
        *why = got < 0 ? "cannot be read" : "a NUL byte";
        free(text);
        return 0;
    }
    text[got] = 0;
    struct sim_params p = tr->p;
    char line[1024];
    int any = 0;
    for (const char *at = text; *at;) {
        const char *nl = strchr(at, '\n');
        size_t ll = nl ? (size_t)(nl - at) : strlen(at);
        snprintf(line, sizeof line, "%.*s", (int)(ll < sizeof line ? ll : sizeof line - 1), at);
        at += ll + (nl != NULL);
        double a, b, c, d;
        char w[16];
        /* the export's first line: "... N balls, table W x H, ..." or
         * "table circle R" (the title before it may say "table" too) */
        const char *tab = strstr(line, " balls, table ");
        tab = tab ? tab + 8 : NULL;
        if (line[0] == '#' && tab && sscanf(tab, "table circle %lf", &a) == 1 && a > 0 &&
            isfinite(2 * a)) {
            p.shape = SIM_CIRCLE;
            p.w = p.h = 2 * a;
            any |= 4;
            const char *e = strstr(line, "restitution ");
            if (e && sscanf(e, "restitution %lf", &c) == 1 && c > 0 && c <= 1)
                p.restitution = c;
        } else if (line[0] == '#' && tab && sscanf(tab, "table %lf x %lf", &a, &b) == 2 &&
            a > 0 && b > 0 && isfinite(a) && isfinite(b)) {
            p.w = a;
            p.h = b;
            any |= 4;
            const char *e = strstr(line, "restitution ");
            if (e && sscanf(e, "restitution %lf", &c) == 1 && c > 0 && c <= 1)
                p.restitution = c;
        } else if (sscanf(line, "timestep %lf", &a) == 1 && a > 0 && isfinite(a)) {
            p.dt = a;
            any |= 1;
        } else if (!strncmp(line, "# springball colours by type:", 29)) {
            tr->ntype_color = 0;
            for (const char *q = line + 29; *q && tr->ntype_color < 32;) {
                while (*q == ' ')
                    q++;
                size_t len = strcspn(q, " ");
                if (!len)
                    break;
                tr->type_color[tr->ntype_color++] = tj_color_named(q, len);
                q += len;
            }
        } else if (sscanf(line, "pair_style gran/hooke %lf", &a) == 1 && a > 0 &&
                   isfinite(a)) {
            p.k = a;
            any |= 2;
        } else if (sscanf(line, "fix %*s %*s wall/reflect %15s", w) == 1) {
            p.walls = SIM_WALLS_HARD;
        } else if (sscanf(line, "fix %*s %*s wall/gran hooke %15s", w) == 1) {
            p.walls = SIM_WALLS_SPRING;
        } else if (sscanf(line, "fix %*s %*s gravity %lf vector %lf %lf %lf", &a, &b, &c,
                          &d) == 4 && isfinite(a * b) && isfinite(a * c)) {
            p.gx = a * b;
            p.gy = a * c;
        }
    }
    free(text);
    if (!any)
        return 0;
    tr->p = p;
    tr->have_params = 2 | (any & 4 ? 4 : 0);
    tr->have_dt = (any & 1) != 0;
    return 1;
}
