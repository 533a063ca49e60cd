/*
 * traj_scan.c - the trajectory file in blocks, lines and tokens; the frame
 * index; errors. See traj_impl.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "traj_impl.h"

#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tj_fail(struct traj_error *err, long long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->line = line;
    return -1;
}

int tj_nomem(struct traj_error *err)
{
    err->nomem = 1;
    return tj_fail(err, 0, "out of memory");
}

/* === Small text helpers === */

int tj_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The next token of [*p, end): its start and length; 0 at the end. */
size_t tj_token(const char **p, const char *end, const char **tok)
{
    const char *s = *p;
    while (s < end && tj_blank(*s))
        s++;
    const char *t = s;
    while (s < end && !tj_blank(*s))
        s++;
    *tok = t;
    *p = s;
    return (size_t)(s - t);
}

/* The line as a string for a message, cut and made printable. */
const char *tj_shown(const char *s, size_t len, char *buf, size_t size)
{
    return text_str((struct text_token){s, len > 40 ? 40 : len}, buf, size);
}

int tj_is_count(const char *s, size_t len, unsigned long long *out)
{
    const char *p = s, *end = s + len, *t;
    size_t n = tj_token(&p, end, &t);
    const char *t2;
    if (n == 0 || n > 12 || tj_token(&p, end, &t2))
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

int tj_ieq(const char *a, size_t alen, const char *b)
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

/* What strtod reads whole, nan and inf too: a universe's or a particle
 * file's row may start with one (no species is named so). */
static int reads_as_double(const char *s, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    strtod(buf, &end);
    return end == buf + len;
}

int traj_detect(const char *head, size_t len)
{
    const char *end = head + len, *next, *p, *t;
    if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
        head += 3;
    size_t l1 = line_of(head, end, &next);
    p = head;
    if (tj_token(&p, head + l1, &t) == 5 && !memcmp(t, "ITEM:", 5) &&
        tj_token(&p, head + l1, &t) == 8 && tj_ieq(t, 8, "timestep"))
        return TRAJ_LAMMPS;
    unsigned long long n;
    if (!tj_is_count(head, l1, &n) || next >= end)
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
    size_t tl = tj_token(&p, row + len3, &t);
    if (tl == 0 || is_number(t, tl) || reads_as_double(t, tl))
        return TRAJ_AUTO;
    tl = tj_token(&p, row + len3, &t);
    return tl && is_number(t, tl) ? TRAJ_XYZ : TRAJ_AUTO;
}

static ssize_t read_some(int fd, char *buf, size_t n)
{
    for (;;) {
        ssize_t got = read(fd, buf, n);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

/* Reads more after what is unread. @return 0, or -1 on a read error. */
int tj_fill(struct scan *sc)
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
int tj_next_line(struct scan *sc, const char **s, size_t *len, long long *off,
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
        if (tj_fill(sc)) {
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
            if (tj_fill(sc))
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
        sc->unended = 1;
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
            return tj_nomem(err);
        tr->fr = nf;
        tr->capframes = c;
    }
    tr->fr[tr->nframes++] = *f;
    return 0;
}

int tj_at_cut(const struct scan *sc)
{
    return sc->eof && sc->pos == sc->len && sc->last != '\n';
}

/* The file's last line, a frame's last row, lacks its end: 1 when it was
 * cut (what a killed writer leaves) rather than written so. springball's
 * recordings end every line; another's last row is cut when its fields
 * are not the rows' (a plain XYZ row has at least 3). */
static int last_row_cut(const struct traj *tr, const struct scan *sc)
{
    if (tr->have_params == 1)
        return 1;
    long long size = sc->base + (long long)sc->len;
    char tail[4096];
    long long from = size > (long long)sizeof tail ? size - (long long)sizeof tail : 0;
    ssize_t got = pread(sc->fd, tail, (size_t)(size - from), (off_t)from);
    if (got != (ssize_t)(size - from))
        return 1;
    const char *e = tail + got, *p = e;
    while (p > tail && p[-1] != '\n')
        p--;
    if (p == tail && from > 0)
        return 1; /* a row over 4 KiB, unended */
    const char *t;
    int fields = 0;
    while (tj_token(&p, e, &t) > 0)
        fields++;
    return tr->c.ncols > 0 ? fields != tr->c.ncols : fields < 3;
}

/* A frame's N rows start here: skip them and index the frame. 1: indexed,
 * 0: the file ends inside them (tr->cut), -1: an error in err. */
int tj_frame_rows(struct traj *tr, struct scan *sc, struct traj_frame *f, long long n,
                      struct traj_error *err)
{
    f->rows = sc->base + (long long)sc->pos;
    f->line = sc->line + 1;
    sc->unended = 0;
    long long got = skip_lines(sc, n);
    if (got < 0)
        return tj_fail(err, sc->line, "%s", strerror(errno));
    if (got < n || (sc->unended && last_row_cut(tr, sc))) {
        tr->cut = 1;
        return 0;
    }
    f->end = sc->base + (long long)sc->pos;
    return add_frame(tr, f, err) ? -1 : 1;
}

/* The next key=value of an extended XYZ comment line: 1, or 0 at its end.
 * A value may be quoted ("...") or braced ({...}); a key alone has an
 * empty value. */
