/*
 * traj.c - recorded runs read back (see traj.h).
 *
 * Indexing reads the file in blocks of TRAJ_BLOCK bytes. Header lines
 * (a count, a comment, LAMMPS's ITEM lines) are looked at whole; a
 * frame's rows are only counted, newline by newline, at memory speed.
 * Reading a frame preads its rows block by block and parses the columns
 * the front end needs (text_double: exact, strtod only for long digits).
 */
#define _POSIX_C_SOURCE 200809L

#include "traj.h"

#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Bytes read at a time, and the longest line.
#define TRAJ_BLOCK (4 << 20)

static int fail(struct traj_error *err, long long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(struct traj_error *err, long long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->line = line;
    return -1;
}

static int nomem(struct traj_error *err)
{
    err->nomem = 1;
    return fail(err, 0, "out of memory");
}

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

/* === Small text helpers === */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The next token of [*p, end): its start and length; 0 at the end. */
static size_t token(const char **p, const char *end, const char **tok)
{
    const char *s = *p;
    while (s < end && blank(*s))
        s++;
    const char *t = s;
    while (s < end && !blank(*s))
        s++;
    *tok = t;
    *p = s;
    return (size_t)(s - t);
}

/* The line as a string for a message, cut and made printable. */
static const char *shown(const char *s, size_t len, char *buf, size_t size)
{
    return text_str((struct text_token){s, len > 40 ? 40 : len}, buf, size);
}

static int is_count(const char *s, size_t len, unsigned long long *out)
{
    const char *p = s, *end = s + len, *t;
    size_t n = token(&p, end, &t);
    const char *t2;
    if (n == 0 || n > 12 || token(&p, end, &t2))
        return 0;
    unsigned long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9')
            return 0;
        v = v * 10 + (unsigned)(t[i] - '0');
    }
    *out = v;
    return 1;
}

static int ieq(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return 0;
    for (size_t i = 0; i < alen; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return 1;
}

/* The first line of [s, end) and where the next starts. */
static size_t line_of(const char *s, const char *end, const char **next)
{
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    *next = nl ? nl + 1 : end;
    size_t len = (size_t)((nl ? nl : end) - s);
    if (len && s[len - 1] == '\r')
        len--;
    return len;
}

static int is_number(const char *s, size_t len)
{
    double v;
    return len > 0 && text_double(s, len, &v) == 0;
}

int traj_detect(const char *head, size_t len)
{
    const char *end = head + len, *next, *p, *t;
    if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        head += 3;
    size_t l1 = line_of(head, end, &next);
    p = head;
    if (token(&p, head + l1, &t) == 5 && !memcmp(t, "ITEM:", 5) &&
        token(&p, head + l1, &t) == 8 && ieq(t, 8, "timestep"))
        return TRAJ_LAMMPS;
    unsigned long long n;
    if (!is_count(head, l1, &n) || next >= end)
        return TRAJ_AUTO;
    const char *l2 = next;
    size_t len2 = line_of(l2, end, &next);
    for (size_t i = 0; i + 8 <= len2; i++)
        if ((i + 11 <= len2 && !memcmp(l2 + i, "Properties=", 11)) ||
            !memcmp(l2 + i, "Lattice=", 8))
            return TRAJ_XYZ;
    if (n == 0 || next >= end)
        return TRAJ_AUTO;
    /* Line 3: a species, then numbers (the rows of particle and universe
     * files start with a number). */
    const char *row = next;
    size_t len3 = line_of(row, end, &next);
    p = row;
    size_t tl = token(&p, row + len3, &t);
    if (tl == 0 || is_number(t, tl))
        return TRAJ_AUTO;
    tl = token(&p, row + len3, &t);
    return tl && is_number(t, tl) ? TRAJ_XYZ : TRAJ_AUTO;
}

/* === Reading blocks === */

/* The file read forward in blocks: buf[pos, len) is unread, buf[0] is at
 * file offset base. */
struct scan {
    int fd;
    char *buf;
    size_t cap, len, pos;
    long long base;
    long long line;      /* lines consumed */
    int eof;
    char last;           /* the last byte consumed */
    long long size;
    void (*progress)(void *, double);
    void *arg;
    long long reported;
};

static ssize_t read_some(int fd, char *buf, size_t n)
{
    for (;;) {
        ssize_t got = read(fd, buf, n);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

/* Reads more after what is unread. @return 0, or -1 on a read error. */
static int fill(struct scan *sc)
{
    if (sc->pos) {
        memmove(sc->buf, sc->buf + sc->pos, sc->len - sc->pos);
        sc->base += (long long)sc->pos;
        sc->len -= sc->pos;
        sc->pos = 0;
    }
    ssize_t got = read_some(sc->fd, sc->buf + sc->len, sc->cap - sc->len);
    if (got < 0)
        return -1;
    if (got == 0)
        sc->eof = 1;
    sc->len += (size_t)got;
    long long at = sc->base + (long long)sc->len;
    if (sc->progress && at - sc->reported >= (64ll << 20)) {
        sc->reported = at;
        sc->progress(sc->arg, sc->size > 0 ? (double)at / (double)sc->size : 0);
    }
    return 0;
}

/* The next line, without its end: 1, 0 at the end of the file, -1 with
 * *why set (a read error, a line too long). *off is its offset. */
static int next_line(struct scan *sc, const char **s, size_t *len, long long *off,
                     const char **why)
{
    for (;;) {
        char *start = sc->buf + sc->pos;
        char *nl = memchr(start, '\n', sc->len - sc->pos);
        if (nl || (sc->eof && sc->pos < sc->len)) {
            size_t l = (size_t)((nl ? nl : sc->buf + sc->len) - start);
            *s = start;
            *off = sc->base + (long long)sc->pos;
            sc->pos += l + (nl != NULL);
            sc->last = nl ? '\n' : start[l - 1];
            sc->line++;
            if (l && start[l - 1] == '\r')
                l--;
            *len = l;
            return 1;
        }
        if (sc->eof)
            return 0;
        if (sc->pos == 0 && sc->len == sc->cap) {
            *why = "a line longer than 4 MiB";
            return -1;
        }
        if (fill(sc)) {
            *why = strerror(errno);
            return -1;
        }
    }
}

static size_t count_nl(const char *p, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += p[i] == '\n';
    return c;
}

/* Skips @p n lines. @return the lines skipped (fewer at the end of the
 * file), or -1 on a read error. */
static long long skip_lines(struct scan *sc, long long n)
{
    long long done = 0;
    while (done < n) {
        if (sc->pos == sc->len) {
            if (sc->eof)
                break;
            if (fill(sc))
                return -1;
            continue;
        }
        const char *p = sc->buf + sc->pos, *e = sc->buf + sc->len;
        while (done < n && p < e) {
            size_t blk = (size_t)(e - p) < 65536 ? (size_t)(e - p) : 65536;
            size_t c = count_nl(p, blk);
            if ((long long)c < n - done) {
                done += (long long)c;
                p += blk;
            } else {
                while (done < n) {
                    p = (const char *)memchr(p, '\n', (size_t)(e - p)) + 1;
                    done++;
                }
            }
        }
        sc->last = p[-1];
        sc->pos = (size_t)(p - sc->buf);
    }
    /* The file's last line may lack its newline. */
    if (done < n && sc->eof && sc->last != '\n' && sc->last != 0) {
        done++;
        sc->last = '\n';
    }
    sc->line += done;
    return done;
}

/* === The header of a frame === */

static int add_frame(struct traj *tr, const struct traj_frame *f, struct traj_error *err)
{
    if (tr->nframes == tr->capframes) {
        size_t c = tr->capframes ? 2 * tr->capframes : 64;
        struct traj_frame *nf = realloc(tr->fr, c * sizeof *nf);
        if (!nf)
            return nomem(err);
        tr->fr = nf;
        tr->capframes = c;
    }
    tr->fr[tr->nframes++] = *f;
    return 0;
}

/* A frame's N rows start here: skip them and index the frame. 1: indexed,
 * 0: the file ends inside them (tr->cut), -1: an error in err. */
static int frame_rows(struct traj *tr, struct scan *sc, struct traj_frame *f, long long n,
                      struct traj_error *err)
{
    f->rows = sc->base + (long long)sc->pos;
    f->line = sc->line + 1;
    long long got = skip_lines(sc, n);
    if (got < 0)
        return fail(err, sc->line, "%s", strerror(errno));
    if (got < n) {
        tr->cut = 1;
        return 0;
    }
    f->end = sc->base + (long long)sc->pos;
    return add_frame(tr, f, err) ? -1 : 1;
}

/* The next key=value of an extended XYZ comment line: 1, or 0 at its end.
 * A value may be quoted ("...") or braced ({...}); a key alone has an
 * empty value. */
static int kv_next(const char **p, const char *end, const char **k, size_t *kl,
                   const char **v, size_t *vl)
{
    const char *s = *p;
    while (s < end && blank(*s))
        s++;
    if (s == end)
        return 0;
    *k = s;
    while (s < end && !blank(*s) && *s != '=')
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
            while (s < end && !blank(*s))
                s++;
            *vl = (size_t)(s - *v);
        }
    }
    *p = s;
    return 1;
}

/* Numbers of a value ("W 0 0 0 H 0 0 0 Z"): how many, at most @p max. */
static int numbers(const char *s, size_t len, double *out, int max)
{
    const char *p = s, *end = s + len, *t;
    int n = 0;
    size_t tl;
    while ((tl = token(&p, end, &t)) > 0) {
        if (n == max || text_double(t, tl, &out[n]))
            return -1;
        n++;
    }
    return n;
}

/* Sets a column from a name (extended XYZ Properties, LAMMPS ATOMS). */
static void column(struct traj_cols *c, const char *name, size_t len, int col, int count)
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
    } else if (count >= 2 && (!strcmp(lc, "velo") || !strcmp(lc, "vel") ||
                              !strcmp(lc, "velocities") || !strcmp(lc, "velocity"))) {
        c->vx = col;
        c->vy = col + 1;
    } else if (count >= 2 && (!strcmp(lc, "momenta") || !strcmp(lc, "momentum"))) {
        c->px = col;
        c->py = col + 1;
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
        else if (!strcmp(lc, "vx"))
            c->vx = col;
        else if (!strcmp(lc, "vy"))
            c->vy = col;
    }
}

static void cols_none(struct traj_cols *c)
{
    *c = (struct traj_cols){0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0};
}

/* Properties=name:T:n:name:T:n... */
static int properties(struct traj *tr, const char *v, size_t vl, long long line,
                      struct traj_error *err)
{
    struct traj_cols *c = &tr->c;
    cols_none(c);
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
                return fail(err, line, "Properties: '%.*s' is not name:type:count",
                            (int)(vl > 60 ? 60 : vl), v);
            if (p < end)
                p++;
        }
        unsigned long long count;
        if (fl[1] != 1 || !strchr("SRIL", f[1][0]) || !is_count(f[2], fl[2], &count) ||
            count == 0 || count > 64)
            return fail(err, line, "Properties: '%.*s' is not name:type:count",
                        (int)(vl > 60 ? 60 : vl), v);
        if (f[1][0] == 'R' || (f[1][0] == 'S' && count == 1) || f[1][0] == 'I')
            column(c, f[0], fl[0], col, (int)count);
        col += (int)count;
        if (col > 1000)
            return fail(err, line, "Properties: more than 1000 columns");
    }
    c->ncols = col;
    if (c->x < 0)
        return fail(err, line, "Properties has no pos column");
    return 0;
}

/* Lattice="ax ay az bx by bz cx cy cz": the table is a x b, which must be
 * a rectangle in the plane. */
static int lattice(const char *v, size_t vl, double box[4], long long line,
                   struct traj_error *err)
{
    double a[9];
    if (numbers(v, vl, a, 9) != 9)
        return fail(err, line, "Lattice: expected 9 numbers");
    if (a[1] != 0 || a[3] != 0 || !(a[0] > 0) || !(a[4] > 0))
        return fail(err, line, "Lattice: a slanted box (only a rectangle "
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
    char *text = malloc(vl + 80);
    if (!text)
        return nomem(err);
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
            return nomem(err);
        return fail(err, line, "springball=: %s", se.msg);
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
        if (ieq(k, kl, "time")) {
            if (text_double(v, vl, &f->t))
                return fail(err, line, "Time: '%.*s' is not a number", (int)(vl > 40 ? 40 : vl), v);
            have_t = 1;
        } else if (ieq(k, kl, "step")) {
            double st;
            if (text_double(v, vl, &st) || st != floor(st) || fabs(st) > 9e18)
                return fail(err, line, "Step: '%.*s' is not a whole number", (int)(vl > 40 ? 40 : vl), v);
            f->step = (long long)st;
        } else if (ieq(k, kl, "lattice")) {
            if (lattice(v, vl, lat_box, line, err))
                return -1;
            have_lat = 1;
        } else if (ieq(k, kl, "origin")) {
            if (numbers(v, vl, origin, 3) != 3)
                return fail(err, line, "Origin: expected 3 numbers");
            have_origin = 1;
        } else if (ieq(k, kl, "properties")) {
            if (first) {
                if (vl >= sizeof tr->props)
                    return fail(err, line, "Properties: too long");
                memcpy(tr->props, v, vl);
                tr->props[vl] = 0;
                if (properties(tr, v, vl, line, err))
                    return -1;
            } else if (vl != strlen(tr->props) || memcmp(v, tr->props, vl)) {
                return fail(err, line, "frame %zu has other Properties than the first",
                            tr->nframes);
            }
            have_props = 1;
        } else if (ieq(k, kl, "springball")) {
            params = v;
            params_len = vl;
        }
    }
    if (first && !have_props) {
        cols_none(&tr->c); /* plain XYZ: species x y [z ...] */
        tr->c.species = 0;
        tr->c.x = 1;
        tr->c.y = 2;
    } else if (!first && !have_props && tr->props[0]) {
        return fail(err, line, "frame %zu has no Properties, the first has", tr->nframes);
    }
    if (have_lat) {
        f->box[0] = origin[0];
        f->box[1] = origin[1];
        f->box[2] = origin[0] + lat_box[2];
        f->box[3] = origin[1] + lat_box[3];
        f->has_box = 1;
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
static int index_xyz(struct traj *tr, struct scan *sc, struct traj_error *err)
{
    const char *s, *why = NULL;
    size_t len;
    long long off;
    for (;;) {
        int rc = next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return fail(err, sc->line, "%s", why);
        if (rc == 0)
            return 0;
        const char *p = s, *t;
        if (token(&p, s + len, &t) == 0)
            continue; /* blank lines between frames */
        unsigned long long n;
        char buf[64];
        if (!is_count(s, len, &n))
            return fail(err, sc->line, "expected the ball count of frame %zu, found '%s'",
                        tr->nframes, shown(s, len, buf, sizeof buf));
        if (n == 0 || n > SCENE_MAX_BALLS)
            return fail(err, sc->line, "frame %zu: %llu balls (1 to %llu)", tr->nframes,
                        n, (unsigned long long)SCENE_MAX_BALLS);
        if (tr->nframes && n != tr->n)
            return fail(err, sc->line, "frame %zu has %llu balls, the first %zu",
                        tr->nframes, n, tr->n);
        tr->n = (size_t)n;
        struct traj_frame f = {.off = off, .step = (long long)tr->nframes};
        rc = next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return fail(err, sc->line, "%s", why);
        if (rc == 0) {
            tr->cut = 1;
            return 0;
        }
        if (xyz_comment(tr, s, len, &f, sc->line, err))
            return -1;
        int rc_rows = frame_rows(tr, sc, &f, (long long)n, err);
        if (rc_rows <= 0)
            return rc_rows;
    }
}

/* Indexes a LAMMPS dump: ITEM: TIMESTEP, NUMBER OF ATOMS, BOX BOUNDS and
 * ATOMS (TIME and UNITS too), then the rows. */
static int index_lammps(struct traj *tr, struct scan *sc, struct traj_error *err)
{
    const char *s, *why = NULL;
    size_t len;
    long long off;
    struct traj_frame f = {0};
    int have_step = 0, have_n = 0;
    unsigned long long n = 0;
    char buf[64];
    for (;;) {
        int rc = next_line(sc, &s, &len, &off, &why);
        if (rc < 0)
            return fail(err, sc->line, "%s", why);
        if (rc == 0) {
            tr->cut = have_step;
            return 0;
        }
        const char *p = s, *end = s + len, *t;
        size_t tl = token(&p, end, &t);
        if (tl == 0)
            continue;
        if (tl != 5 || memcmp(t, "ITEM:", 5))
            return fail(err, sc->line, "expected an ITEM: line, found '%s'",
                        shown(s, len, buf, sizeof buf));
        while (p < end && blank(*p))
            p++;
        const char *item = p;
        size_t il = (size_t)(end - p);
        const char *value;
        size_t vl;
        long long line;
        if (il >= 8 && !memcmp(item, "TIMESTEP", 8)) {
            if (have_step)
                return fail(err, sc->line, "frame %zu has no ATOMS", tr->nframes);
            f = (struct traj_frame){.off = off, .t = NAN};
            have_step = 1;
            have_n = 0;
            rc = next_line(sc, &value, &vl, &off, &why);
            line = sc->line;
            unsigned long long st;
            if (rc <= 0 || !is_count(value, vl, &st)) {
                if (rc == 0) {
                    tr->cut = 1;
                    return 0;
                }
                return fail(err, line, "TIMESTEP: expected a step number");
            }
            f.step = (long long)st;
        } else if (!have_step) {
            return fail(err, sc->line, "expected ITEM: TIMESTEP, found '%s'",
                        shown(s, len, buf, sizeof buf));
        } else if ((il >= 4 && !memcmp(item, "TIME", 4) && il == 4) ||
                   (il >= 5 && !memcmp(item, "UNITS", 5))) {
            rc = next_line(sc, &value, &vl, &off, &why);
            if (rc == 0) {
                tr->cut = 1;
                return 0;
            }
            if (rc < 0 || (item[1] == 'I' && text_double(value, vl, &f.t)))
                return fail(err, sc->line, "TIME: expected a number");
        } else if (il >= 15 && !memcmp(item, "NUMBER OF ATOMS", 15)) {
            rc = next_line(sc, &value, &vl, &off, &why);
            if (rc == 0) {
                tr->cut = 1;
                return 0;
            }
            if (rc < 0 || !is_count(value, vl, &n) || n == 0 || n > SCENE_MAX_BALLS)
                return fail(err, sc->line, "NUMBER OF ATOMS: expected 1 to %llu",
                            (unsigned long long)SCENE_MAX_BALLS);
            if (tr->nframes && n != tr->n)
                return fail(err, sc->line, "frame %zu has %llu balls, the first %zu",
                            tr->nframes, n, tr->n);
            have_n = 1;
        } else if (il >= 10 && !memcmp(item, "BOX BOUNDS", 10)) {
            int tri = 0;
            for (size_t i = 10; i + 2 <= il; i++)
                tri |= !memcmp(item + i, "xy", 2);
            double b[3][3];
            for (int a = 0; a < 3; a++) {
                rc = next_line(sc, &value, &vl, &off, &why);
                if (rc == 0) {
                    tr->cut = 1;
                    return 0;
                }
                if (rc < 0 || numbers(value, vl, b[a], 3) != 2 + tri)
                    return fail(err, sc->line, "BOX BOUNDS: expected %d numbers", 2 + tri);
            }
            if (tri && (b[0][2] != 0 || b[1][2] != 0 || b[2][2] != 0))
                return fail(err, sc->line, "a triclinic box (tilt xy xz yz not 0) "
                                           "is not a table");
            f.box[0] = b[0][0];
            f.box[1] = b[1][0];
            f.box[2] = b[0][1];
            f.box[3] = b[1][1];
            if (!(f.box[2] > f.box[0]) || !(f.box[3] > f.box[1]))
                return fail(err, sc->line, "BOX BOUNDS: an empty box");
            f.has_box = 1;
        } else if (il >= 5 && !memcmp(item, "ATOMS", 5)) {
            line = sc->line;
            if (!have_n)
                return fail(err, line, "ATOMS before NUMBER OF ATOMS");
            const char *cols = item + 5;
            size_t cl = il - 5;
            while (cl && blank(*cols))
                cols++, cl--;
            if (tr->nframes == 0) {
                if (cl >= sizeof tr->props)
                    return fail(err, line, "ATOMS: too many columns");
                memcpy(tr->props, cols, cl);
                tr->props[cl] = 0;
                cols_none(&tr->c);
                const char *q = cols, *ce = cols + cl, *ct;
                size_t ctl;
                int col = 0;
                while ((ctl = token(&q, ce, &ct)) > 0)
                    column(&tr->c, ct, ctl, col++, 1);
                tr->c.ncols = col;
                if (tr->c.x < 0 || tr->c.y < 0)
                    return fail(err, line, "ATOMS: no x y (or xs ys) columns");
                if (tr->c.scaled && !f.has_box)
                    return fail(err, line, "ATOMS: scaled positions need BOX BOUNDS");
            } else if (cl != strlen(tr->props) || memcmp(cols, tr->props, cl)) {
                return fail(err, line, "frame %zu has other ATOMS columns than the first",
                            tr->nframes);
            }
            tr->n = (size_t)n;
            int rc_rows = frame_rows(tr, sc, &f, (long long)n, err);
            if (rc_rows <= 0)
                return rc_rows;
            have_step = 0;
        } else {
            return fail(err, sc->line, "unknown item '%s'", shown(s, len, buf, sizeof buf));
        }
    }
}

/* PREFIX.in beside a LAMMPS dump PREFIX.*: dt, k, walls, field, and the
 * table of springball's export. @return 1 when found and read. */
static int lammps_in(struct traj *tr, char *name, size_t size)
{
    const char *slash = strrchr(tr->path, '/');
    const char *dot = strrchr(slash ? slash + 1 : tr->path, '.');
    size_t base = dot ? (size_t)(dot - tr->path) : strlen(tr->path);
    if (base + 4 > size)
        return 0;
    memcpy(name, tr->path, base);
    memcpy(name + base, ".in", 4);
    FILE *f = fopen(name, "r");
    if (!f)
        return 0;
    struct sim_params p = tr->p;
    char line[1024];
    int any = 0;
    while (fgets(line, sizeof line, f)) {
        double a, b, c, d;
        char w[16];
        const char *tab = strstr(line, "table ");
        if (line[0] == '#' && tab && sscanf(tab, "table %lf x %lf", &a, &b) == 2 &&
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
    fclose(f);
    if (!any)
        return 0;
    tr->p = p;
    tr->have_params = 2 | (any & 4 ? 4 : 0);
    tr->have_dt = (any & 1) != 0;
    return 1;
}

/* === Reading a frame === */

/* The colour of a species name: the first met has none (the terminal's
 * colour), the next the named colours in turn. */
static uint32_t species_color(struct traj *tr, const char *s, size_t len)
{
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

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
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

static void slot_free(struct traj_slot *sl)
{
    free(sl->x);
    free(sl->color);
    memset(sl, 0, sizeof *sl);
}

static int slot_alloc(struct traj_slot *sl, size_t n)
{
    if (sl->x)
        return 0;
    sl->x = malloc(6 * n * sizeof *sl->x);
    sl->color = malloc(n * sizeof *sl->color);
    if (!sl->x || !sl->color) {
        slot_free(sl);
        return -1;
    }
    sl->y = sl->x + n;
    sl->vx = sl->y + n;
    sl->vy = sl->vx + n;
    sl->m = sl->vy + n;
    sl->r = sl->m + n;
    return 0;
}

/* What a row's values are, by column (see colmap). */
enum { X, Y, VX, VY, PX, PY, R, D, M, CR, CG, CB, ID, NV };

/// Columns a row is looked at for (the later ones are skipped).
#define TRAJ_MAP 1024

/* The value each column holds (enum above), -1 for none. */
static void colmap(const struct traj_cols *c, signed char map[TRAJ_MAP])
{
    const int want[NV] = {c->x, c->y, c->vx, c->vy, c->px, c->py, c->r,
                          c->diameter, c->m, c->cr, c->cg, c->cb, c->id};
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
                                          "diameter", "mass", "red", "green", "blue", "id"};
    const char *sp = NULL;
    size_t spl = 0;
    int col = 0;
    char buf[64];
    while ((tl = token(&p, end, &t)) > 0) {
        if (c->ncols && col == c->ncols)
            return fail(err, line, "expected %d fields (%s), found more", c->ncols,
                        tr->format == TRAJ_LAMMPS ? "ITEM: ATOMS" : "Properties");
        if (col == c->species) {
            sp = t;
            spl = tl;
        }
        int w = col < TRAJ_MAP ? map[col] : -1;
        if (w >= 0 && text_double(t, tl, &v[w]))
            return fail(err, line, "%s: '%s' is not a number", names[w],
                        shown(t, tl, buf, sizeof buf));
        col++;
    }
    if (col == 0)
        return fail(err, line, "expected a ball, found an empty line");
    if ((c->ncols && col < c->ncols) || (!c->ncols && col < 3)) {
        int need = c->ncols ? c->ncols : 3;
        return fail(err, line, "expected %d fields%s, found %d", need,
                    !c->ncols ? " (species x y)"
                    : tr->format == TRAJ_LAMMPS ? " (ITEM: ATOMS)" : " (Properties)", col);
    }
    if (c->id >= 0) {
        if (v[ID] != floor(v[ID]) || fabs(v[ID]) > 9e18)
            return fail(err, line, "id: '%.17g' is not a whole number", v[ID]);
        b = id_ball(tr, (long long)v[ID]);
        if (b == tr->n)
            return fail(err, line, "id %.17g is not one of the first frame's", v[ID]);
        if (tr->seen[b])
            return fail(err, line, "id %.17g twice in one frame", v[ID]);
        tr->seen[b] = 1;
    }
    double x = v[X], y = v[Y];
    if (c->scaled & 1)
        x = f->box[0] + x * (f->box[2] - f->box[0]);
    if (c->scaled & 2)
        y = f->box[1] + y * (f->box[3] - f->box[1]);
    sl->x[b] = x + tr->shift_x;
    sl->y[b] = y + tr->shift_y;
    double m = c->m >= 0 ? v[M] : 1;
    if (c->m >= 0 && !(m > 0))
        return fail(err, line, "mass: %.17g is not > 0", m);
    sl->m[b] = m;
    if (c->vx >= 0 || c->vy >= 0) {
        sl->vx[b] = c->vx >= 0 ? v[VX] : 0;
        sl->vy[b] = c->vy >= 0 ? v[VY] : 0;
    } else if (c->px >= 0) {
        sl->vx[b] = v[PX] / m;
        sl->vy[b] = v[PY] / m;
    } else {
        sl->vx[b] = sl->vy[b] = 0;
    }
    double r = c->r >= 0 ? v[R] : c->diameter >= 0 ? 0.5 * v[D] : tr->r_rule;
    if ((c->r >= 0 || c->diameter >= 0) && !(r > 0))
        return fail(err, line, "radius: %.17g is not > 0", r);
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
static int decode(struct traj *tr, size_t k, struct traj_slot *sl, struct traj_error *err)
{
    const struct traj_frame *f = &tr->fr[k];
    if (slot_alloc(sl, tr->n))
        return nomem(err);
    sl->used = 0;
    if (!tr->buf) {
        tr->cap = TRAJ_BLOCK;
        tr->buf = malloc(tr->cap);
        if (!tr->buf)
            return nomem(err);
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
                return fail(err, line, "cannot read: %s", strerror(errno));
            if (got == 0)
                return fail(err, line, "the file became shorter since it was opened");
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
            return fail(err, line, "the file changed since it was opened");
        have = (size_t)(e - p);
        memmove(tr->buf, p, have);
        if (have == tr->cap)
            return fail(err, line, "a line longer than 4 MiB");
    }
    sl->frame = k;
    sl->used = 1;
    return 0;
}

/* The slot holding frame k, decoded if need be, sparing the slots of
 * frames in [keep0, keep1]. NULL with @p err on failure. */
static struct traj_slot *get(struct traj *tr, size_t k, size_t keep0, size_t keep1,
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
    if (decode(tr, k, &tr->slot[victim], err))
        return NULL;
    tr->used_at[victim] = ++tr->use;
    return &tr->slot[victim];
}

/* Frame k with its velocities (differences when the file has none). */
static struct traj_slot *frame(struct traj *tr, size_t k, struct traj_error *err)
{
    memset(err, 0, sizeof *err);
    if (k >= tr->nframes) {
        fail(err, 0, "no frame %zu (the file has %zu)", k, tr->nframes);
        return NULL;
    }
    size_t lo = k > 0 ? k - 1 : k, hi = k + 1 < tr->nframes ? k + 1 : k;
    struct traj_slot *sl = get(tr, k, lo, hi, err);
    if (!sl || !tr->v_diff || lo == hi)
        return sl;
    /* A neighbour that cannot be read leaves a one-sided difference (its
     * own fault is told when it is shown). */
    struct traj_error e2;
    memset(&e2, 0, sizeof e2);
    struct traj_slot *a = lo < k ? get(tr, lo, lo, hi, &e2) : sl;
    if (!a && e2.nomem) {
        *err = e2;
        return NULL;
    }
    if (!a)
        a = sl, lo = k;
    struct traj_slot *c = hi > k ? get(tr, hi, lo, hi, &e2) : sl;
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
    }
    return sl;
}

/* === Opening === */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 1st percentile of the positive nearest-neighbour distances of n
 * points, over a grid of about one point a cell (a neighbour closer than
 * a cell's side is in the 3 x 3 cells around); INFINITY when there are
 * none (one point, all at one place), -1 when memory is short. */
static double nn_p1(const double *x, const double *y, size_t n)
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
                double dd = hypot(x[j] - x[i], y[j] - y[i]);
                if (j != i && dd > 0 && dd < best)
                    best = dd;
            }
            if (best < INFINITY)
                d[m++] = best;
        }
        double p1 = INFINITY;
        if (m > 0) {
            qsort(d, m, sizeof *d, cmp_double);
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
                    double dd = hypot(x[o] - x[i], y[o] - y[i]);
                    if (o != i && dd > 0 && dd < best)
                        best = dd;
                }
            }
        if (best < INFINITY)
            d[m++] = best;
    }
    double p1 = INFINITY;
    if (m > 0) {
        qsort(d, m, sizeof *d, cmp_double);
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
        slot_free(&tr->slot[i]);
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
        return nomem(err);
    /* Read frame 0 as though its ids were 1..n; when one is not, read the
     * ids alone and rank them. */
    struct traj_error e0;
    memset(&e0, 0, sizeof e0);
    if (decode(tr, 0, &tr->slot[0], &e0) == 0)
        return 0;
    if (e0.nomem) {
        *err = e0;
        return -1;
    }
    tr->slot[0].used = 0;
    tr->ids = malloc(tr->n * sizeof *tr->ids);
    if (!tr->ids)
        return nomem(err);
    struct traj_cols keep = tr->c;
    double sx = tr->shift_x, sy = tr->shift_y;
    tr->shift_x = tr->shift_y = 0;
    /* the ids through the x column's parser: only id is wanted */
    struct traj_slot *sl = &tr->slot[0];
    tr->c.id = -1;
    cols_none(&tr->c);
    tr->c.ncols = keep.ncols;
    tr->c.x = keep.id;
    tr->c.y = keep.id;
    int rc = decode(tr, 0, sl, err);
    tr->c = keep;
    tr->shift_x = sx;
    tr->shift_y = sy;
    if (rc)
        return -1;
    for (size_t i = 0; i < tr->n; i++) {
        if (sl->x[i] != floor(sl->x[i]) || fabs(sl->x[i]) > 9e18)
            return fail(err, tr->fr[0].line + (long long)i, "id: '%.17g' is not a whole number",
                        sl->x[i]);
        tr->ids[i] = (long long)sl->x[i];
    }
    qsort(tr->ids, tr->n, sizeof *tr->ids, cmp_ll);
    for (size_t i = 1; i < tr->n; i++)
        if (tr->ids[i] == tr->ids[i - 1])
            return fail(err, tr->fr[0].line, "id %lld twice in the first frame", tr->ids[i]);
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
        return nomem(err);
    tr->fd = open(path, O_RDONLY);
    struct stat st;
    if (tr->fd < 0 || fstat(tr->fd, &st)) {
        fail(err, 0, "cannot read: %s", strerror(errno));
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
        return nomem(err);
    }
    if (fill(&sc)) {
        fail(err, 0, "cannot read: %s", strerror(errno));
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
    int rc = tr->format == TRAJ_LAMMPS ? index_lammps(tr, &sc, err) : index_xyz(tr, &sc, err);
    free(sc.buf);
    if (rc == 0 && tr->nframes == 0)
        rc = fail(err, sc.line ? sc.line : 1, tr->cut ? "the file ends inside the first frame"
                                                       : "no frame");
    if (rc) {
        traj_close(tr);
        return -1;
    }
    if (progress && sc.progress)
        progress(arg, 1);
    char in_name[4096];
    int have_in = tr->format == TRAJ_LAMMPS && lammps_in(tr, in_name, sizeof in_name);
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
            struct traj_slot *sl = get(tr, pick[i], 0, 0, &e);
            if (!sl) {
                if (i == 0 || e.nomem) {
                    *err = e;
                    traj_close(tr);
                    return -1;
                }
                continue; /* a bad later frame says so when it is shown */
            }
            double p1 = nn_p1(sl->x, sl->y, tr->n);
            if (p1 < 0) {
                traj_close(tr);
                return nomem(err);
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
    if (!get(tr, 0, 0, 0, err)) {
        traj_close(tr);
        return -1;
    }
    if (!f0->has_box && !(tr->have_params & 4) && tr->p.shape == SIM_RECT) {
        /* No box: the balls' extent and a margin of a diameter. */
        const struct traj_slot *sl = get(tr, 0, 0, 0, err);
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
            fail(err, tr->fr[0].line, "the first frame's balls span no table");
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
    const struct traj_slot *sl = frame(tr, k, err);
    if (!sl)
        return -1;
    sc->balls = malloc(tr->n * sizeof *sc->balls);
    if (!sc->balls)
        return nomem(err);
    sc->n = sc->cap = tr->n;
    sc->p = tr->p;
    sc->format = SCENE_FORMAT_NATIVE;
    for (size_t b = 0; b < tr->n; b++)
        sc->balls[b] = (struct scene_ball){sl->x[b], sl->y[b], sl->vx[b], sl->vy[b],
                                           sl->m[b], sl->r[b], sl->color[b], 0};
    if (tr->p.shape == SIM_OPEN && tr->fr[0].has_box) {
        const double *bx = tr->fr[0].box;
        sc->view = (struct scene_view){bx[0], bx[1], bx[2], bx[3]};
        sc->radius = 0.5 * (bx[2] - bx[0]);
    } else {
        sc->view = (struct scene_view){0, 0, tr->p.w, tr->p.h};
    }
    return 0;
}

int traj_sim(struct traj *tr, size_t k, struct sim *s, struct traj_error *err)
{
    const struct traj_slot *sl = frame(tr, k, err);
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
