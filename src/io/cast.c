/*
 * cast.c - an asciicast v2 file (see cast.h).
 */
/* ftruncate, fstat, O_CLOEXEC */
#define _POSIX_C_SOURCE 200809L
#include "cast.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of the valid UTF-8 sequence at @p s (at most @p n bytes): 2
 * to 4, or 0 when it is not one (overlong, a surrogate, past U+10FFFF,
 * cut short). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char b = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (b >= 0xc2 && b <= 0xdf)
        len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        if (b == 0xe0)
            lo = 0xa0; /* not overlong */
        if (b == 0xed)
            hi = 0x9f; /* no surrogates */
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        if (b == 0xf0)
            lo = 0x90;
        if (b == 0xf4)
            hi = 0x8f; /* at most U+10FFFF */
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

size_t cast_json(char *out, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = 0;
    for (size_t i = 0; i < n;) {
        char esc[8];
        const char *rep = NULL;
        size_t rn = 0, take = 1;
        unsigned char b = u[i];
        if (b == '"')
            rep = "\\\"", rn = 2;
        else if (b == '\\')
            rep = "\\\\", rn = 2;
        else if (b == '\n')
            rep = "\\n", rn = 2;
        else if (b == '\r')
            rep = "\\r", rn = 2;
        else if (b == '\t')
            rep = "\\t", rn = 2;
        else if (b < 0x20 || b == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", b);
            rep = esc, rn = 6;
        } else if (b < 0x80) {
            rep = (const char *)u + i, rn = 1;
        } else if ((take = utf8_seq(u + i, n - i)) > 0) {
            rep = (const char *)u + i, rn = take;
        } else {
            rep = "\\ufffd", rn = 6, take = 1;
        }
        if (out)
            memcpy(out + len, rep, rn);
        len += rn;
        i += take;
    }
    return len;
}

unsigned long long cast_max_from(const char *s)
{
    unsigned long long v = 0;
    if (!s || !*s)
        return CAST_MAX_DEFAULT;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (~0ull - 9) / 10)
            return CAST_MAX_DEFAULT;
        v = v * 10 + (unsigned)(*p - '0');
    }
    return v ? v : CAST_MAX_DEFAULT;
}

int cast_open(struct cast *c, const char *path, unsigned long long max)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0)
        return -1;
    struct stat st;
    c->reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    c->fd = fd;
    c->max = max;
    return 0;
}

/* Room for @p n more bytes in the line. */
static int room(struct cast *c, size_t n)
{
    if (n <= c->cap)
        return 0;
    size_t cap = c->cap ? c->cap : 256;
    while (cap < n) {
        if (cap > (size_t)-1 / 2)
            return -1;
        cap *= 2;
    }
    char *nl = realloc(c->line, cap);
    if (!nl)
        return -1;
    c->line = nl;
    c->cap = cap;
    return 0;
}

/* Writes the @p n bytes of the line whole, or cuts the file back to the
 * last whole line and stops the cast. */
static int put_line(struct cast *c, size_t n)
{
    if (c->size + n > c->max) {
        c->full = 1;
        return -1;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(c->fd, c->line + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            c->err = w < 0 ? errno : ENOSPC;
            if (c->reg && done > 0 && ftruncate(c->fd, (off_t)c->size) == 0)
                lseek(c->fd, (off_t)c->size, SEEK_SET);
            return -1;
        }
        done += (size_t)w;
    }
    c->size += n;
    return 0;
}

static int stopped(const struct cast *c)
{
    return c->fd < 0 || c->err || c->full;
}

int cast_header(struct cast *c, int cols, int rows, long long timestamp,
                const char *title, const char *term)
{
    if (stopped(c))
        return -1;
    size_t tl = title ? cast_json(NULL, title, strlen(title)) : 0;
    size_t el = term ? cast_json(NULL, term, strlen(term)) : 0;
    if (room(c, tl + el + 160)) {
        c->err = ENOMEM;
        return -1;
    }
    int k = snprintf(c->line, c->cap, "{\"version\": 2, \"width\": %d, \"height\": %d, "
                     "\"timestamp\": %lld", cols, rows, timestamp);
    size_t n = (size_t)k;
    if (title) {
        memcpy(c->line + n, ", \"title\": \"", 12);
        n += 12;
        n += cast_json(c->line + n, title, strlen(title));
        c->line[n++] = '"';
    }
    if (term) {
        memcpy(c->line + n, ", \"env\": {\"TERM\": \"", 19);
        n += 19;
        n += cast_json(c->line + n, term, strlen(term));
        memcpy(c->line + n, "\"}", 2);
        n += 2;
    }
    memcpy(c->line + n, "}\n", 2);
    n += 2;
    return put_line(c, n);
}

int cast_event(struct cast *c, double t, const char *kind, const char *data, size_t n)
{
    if (stopped(c))
        return -1;
    if (!(t >= c->last) || !isfinite(t)) /* also NaN */
        t = c->last;
    size_t kl = strlen(kind);
    size_t dl = cast_json(NULL, data, n);
    if (dl > (size_t)-1 - kl - 400 || room(c, dl + kl + 400)) {
        c->err = ENOMEM;
        return -1;
    }
    /* microseconds, as asciinema writes them; %f of a time past 10^300
     * is long, and room above keeps 400 bytes for it */
    int k = snprintf(c->line, c->cap, "[%.6f, \"%s\", \"", t, kind);
    size_t len = (size_t)k;
    len += cast_json(c->line + len, data, n);
    memcpy(c->line + len, "\"]\n", 3);
    len += 3;
    if (put_line(c, len))
        return -1;
    c->last = t;
    return 0;
}

int cast_close(struct cast *c)
{
    int rc = c->err || c->full ? -1 : 0;
    if (c->fd >= 0 && close(c->fd) && !c->err && !c->full) {
        c->err = errno;
        rc = -1;
    }
    c->fd = -1;
    free(c->line);
    c->line = NULL;
    c->cap = 0;
    return rc;
}
