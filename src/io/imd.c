/*
 * imd.c - the IMD protocol's wire format and a client over a POSIX TCP
 * socket (see imd.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "imd.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- the wire format (pure) ---------------------------------------- */

static const char *const names[] = {"DISCONNECT", "ENERGIES", "FCOORDS", "GO",    "HANDSHAKE",
                                    "KILL",       "MDCOMM",   "PAUSE",   "TRATE", "IOERROR"};

const char *imd_type_name(int32_t type)
{
    return type >= 0 && type < (int32_t)(sizeof names / sizeof *names) ? names[type] : "unknown";
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t swap32(uint32_t v)
{
    return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

void imd_header_put(unsigned char out[IMD_HEADER_SIZE], int32_t type, int32_t length)
{
    put_be32(out, (uint32_t)type);
    put_be32(out + 4, (uint32_t)length);
}

void imd_header_get(const unsigned char in[IMD_HEADER_SIZE], int32_t *type, int32_t *length)
{
    uint32_t t = get_be32(in), l = get_be32(in + 4);
    memcpy(type, &t, 4);
    memcpy(length, &l, 4);
}

void imd_handshake_put(unsigned char out[IMD_HEADER_SIZE], int swapped)
{
    put_be32(out, IMD_HANDSHAKE);
    uint32_t v = IMD_VERSION;
    if (swapped)
        v = swap32(v);
    memcpy(out + 4, &v, 4); /* this machine's order, not the network's */
}

size_t imd_mdcomm_size(size_t n)
{
    return IMD_HEADER_SIZE + n * 4 + n * 12;
}

void imd_mdcomm_put(unsigned char *out, size_t n, const int32_t *idx, const float *f)
{
    imd_header_put(out, IMD_MDCOMM, (int32_t)n);
    memcpy(out + IMD_HEADER_SIZE, idx, n * 4);
    memcpy(out + IMD_HEADER_SIZE + n * 4, f, n * 12);
}

void imd_reader_init(struct imd_reader *r, size_t natoms)
{
    memset(r, 0, sizeof *r);
    r->max_atoms = IMD_MAX_ATOMS;
    r->natoms = natoms;
}

void imd_reader_free(struct imd_reader *r)
{
    free(r->body);
    r->body = NULL;
    r->cap = 0;
    r->xyz = NULL;
}

static int fail(struct imd_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return IMD_ERR;
}

/* The handshake in r->head: the server's byte order, or an error. */
static int handshake(struct imd_reader *r)
{
    int32_t type, len;
    imd_header_get(r->head, &type, &len);
    if (type != IMD_HANDSHAKE)
        return fail(r, "the server's first message is type %ld (%s), not a handshake "
                       "(type 4): is this an IMD server (LAMMPS fix imd)?",
                    (long)type, imd_type_name(type));
    uint32_t raw;
    memcpy(&raw, r->head + 4, 4);
    if (raw == IMD_VERSION)
        r->swap = 0;
    else if (swap32(raw) == IMD_VERSION)
        r->swap = 1;
    else
        return fail(r, "the server's handshake gives IMD version %lu (or %lu in the other byte "
                       "order), not 2", (unsigned long)raw, (unsigned long)swap32(raw));
    r->stage = 1;
    return IMD_MORE;
}

/* A header in r->head: what body follows, or an error. */
static int header(struct imd_reader *r)
{
    int32_t type, len;
    imd_header_get(r->head, &type, &len);
    r->type = type;
    r->got = 0;
    switch (type) {
    case IMD_FCOORDS:
        if (len == 0)
            return fail(r, "frame %llu has no atoms", r->frames + 1);
        if (len < 0 || (size_t)len > r->max_atoms)
            return fail(r, "frame %llu claims %lu atoms, more than the %zu a frame may hold",
                        r->frames + 1, (unsigned long)(uint32_t)len, r->max_atoms);
        if (r->natoms && (size_t)len != r->natoms)
            return fail(r, "frame %llu has %ld atoms, not %zu%s", r->frames + 1, (long)len,
                        r->natoms, r->frames ? " as the first" : " as the scene's balls");
        r->need = (size_t)len * 12;
        break;
    case IMD_ENERGIES:
        if (len != 1)
            return fail(r, "an ENERGIES message of length %ld, not 1", (long)len);
        r->need = IMD_ENERGIES_SIZE;
        break;
    case IMD_HANDSHAKE:
        return fail(r, "a second handshake from the server, after frame %llu", r->frames);
    case IMD_IOERROR:
        return fail(r, "the server reports an I/O error (IOERROR), after frame %llu", r->frames);
    default:
        if (type < 0 || type > IMD_IOERROR)
            return fail(r, "not an IMD message: type %ld after frame %llu", (long)type,
                        r->frames);
        return fail(r, "the server sent %s (type %ld), which only a client sends, after "
                       "frame %llu", imd_type_name(type), (long)type, r->frames);
    }
    r->stage = 2;
    return IMD_MORE;
}

/* A whole body in r->body. */
static int body(struct imd_reader *r)
{
    r->stage = 1;
    if (r->type != IMD_FCOORDS)
        return IMD_MORE;
    size_t n = r->need / 12;
    float *xyz = (float *)(void *)r->body; /* malloc's alignment */
    for (size_t i = 0; i < 3 * n; i++) {
        uint32_t u;
        memcpy(&u, r->body + 4 * i, 4);
        if (r->swap)
            u = swap32(u);
        float v;
        memcpy(&v, &u, 4);
        if (!isfinite(v))
            return fail(r, "frame %llu: atom %zu's %c is %s", r->frames + 1, i / 3 + 1,
                        "xyz"[i % 3], isnan(v) ? "not a number" : "infinite");
        xyz[i] = v;
    }
    r->natoms = n;
    r->frames++;
    r->xyz = xyz;
    return IMD_FRAME;
}

int imd_reader_feed(struct imd_reader *r, const unsigned char *buf, size_t len, size_t *used)
{
    size_t at = 0;
    int ev = IMD_MORE;
    r->xyz = NULL;
    while (at < len && ev == IMD_MORE) {
        if (r->stage < 2) {
            size_t k = IMD_HEADER_SIZE - r->hgot;
            if (k > len - at)
                k = len - at;
            memcpy(r->head + r->hgot, buf + at, k);
            r->hgot += k;
            at += k;
            if (r->hgot < IMD_HEADER_SIZE)
                break;
            r->hgot = 0;
            ev = r->stage == 0 ? handshake(r) : header(r);
            if (ev == IMD_MORE && r->stage == 2 && r->need == 0)
                ev = body(r);
            continue;
        }
        /* the body: grow with what has come, never past the message; a
         * message skipped (ENERGIES) is counted, not kept, so the buffer
         * never holds more than one frame */
        size_t k = r->need - r->got;
        if (k > len - at)
            k = len - at;
        if (r->type != IMD_FCOORDS) {
            r->got += k;
            at += k;
            if (r->got == r->need)
                ev = body(r);
            continue;
        }
        if (r->got + k > r->cap) {
            size_t cap = r->cap ? r->cap : 1 << 16;
            while (cap < r->got + k)
                cap *= 2;
            if (cap > r->need)
                cap = r->need;
            unsigned char *nb = realloc(r->body, cap);
            if (!nb) {
                ev = fail(r, "out of memory for a frame of %zu bytes", r->need);
                break;
            }
            r->body = nb;
            r->cap = cap;
        }
        memcpy(r->body + r->got, buf + at, k);
        r->got += k;
        at += k;
        if (r->got == r->need)
            ev = body(r);
    }
    if (used)
        *used = at;
    return ev;
}

void imd_reader_where(const struct imd_reader *r, char *out, size_t size)
{
    if (r->stage == 0)
        snprintf(out, size, "before the handshake ended (%zu of 8 bytes)", r->hgot);
    else if (r->hgot)
        snprintf(out, size, "in the middle of a header after frame %llu (%zu of 8 bytes)",
                 r->frames, r->hgot);
    else if (r->stage == 2 && r->type == IMD_FCOORDS)
        snprintf(out, size, "in the middle of frame %llu (%zu of %zu bytes)", r->frames + 1,
                 r->got, r->need);
    else if (r->stage == 2)
        snprintf(out, size, "in the middle of a %s message (%zu of %zu bytes)",
                 imd_type_name(r->type), r->got, r->need);
    else
        out[0] = 0;
}

/* ---- the client (POSIX sockets) ------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Milliseconds left until @p deadline, at least 0. */
static int left_ms(double deadline)
{
    double l = deadline - now();
    return l <= 0 ? 0 : l > 1e6 ? 1000000000 : (int)(l * 1000) + 1;
}

int imd_split(const char *hostport, char *host, size_t hsize, char *port, size_t psize,
              char *msg, size_t msize)
{
    const char *h = hostport, *colon;
    size_t hl;
    if (*h == '[') {
        const char *close = strchr(h, ']');
        if (!close || close[1] != ':') {
            snprintf(msg, msize, "'%s' is not [ADDRESS]:PORT", hostport);
            return -1;
        }
        h++;
        hl = (size_t)(close - h);
        colon = close + 1;
    } else {
        colon = strrchr(h, ':');
        if (!colon) {
            snprintf(msg, msize, "'%s' is not HOST:PORT", hostport);
            return -1;
        }
        hl = (size_t)(colon - h);
    }
    const char *p = colon + 1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (hl == 0 || hl >= hsize || !*p || *end || errno || v < 1 || v > 65535 ||
        strspn(p, "0123456789") != strlen(p)) {
        snprintf(msg, msize, "'%s' is not HOST:PORT (a port from 1 to 65535)", hostport);
        return -1;
    }
    memcpy(host, h, hl);
    host[hl] = 0;
    snprintf(port, psize, "%ld", v);
    return 0;
}

/* A connected socket to one of the addresses, within the deadline. */
static int dial(struct imd_conn *c, const char *host, const char *port, double deadline)
{
    struct addrinfo hints, *res, *ai;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int e = getaddrinfo(host, port, &hints, &res);
    if (e) {
        snprintf(c->msg, sizeof c->msg, "%s: %s", c->where, gai_strerror(e));
        return -1;
    }
    int fd = -1, why = 0;
    for (ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            why = errno;
            continue;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (errno == EINPROGRESS) {
            struct pollfd pf = {fd, POLLOUT, 0};
            int n;
            while ((n = poll(&pf, 1, left_ms(deadline))) < 0 && errno == EINTR &&
                   !(c->stop && *c->stop))
                ;
            int soerr = 0;
            socklen_t sl = sizeof soerr;
            if (n == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && !soerr)
                break;
            why = n == 0 ? ETIMEDOUT : soerr ? soerr : errno;
        } else {
            why = errno;
        }
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        c->refused = why == ECONNREFUSED;
        if (c->stop && *c->stop)
            snprintf(c->msg, sizeof c->msg, "%s: stopped by a signal", c->where);
        else if (why == ETIMEDOUT)
            snprintf(c->msg, sizeof c->msg, "%s: no answer (timed out)", c->where);
        else
            snprintf(c->msg, sizeof c->msg, "%s: cannot connect: %s", c->where,
                     strerror(why ? why : ECONNREFUSED));
        return -1;
    }
    return fd;
}

/* Reads what is there into c->buf (it must be empty). @return bytes, 0 at
 * the end, -1 with errno (EAGAIN: nothing yet). */
static long fill(struct imd_conn *c)
{
    ssize_t n;
    while ((n = read(c->fd, c->buf, sizeof c->buf)) < 0 && errno == EINTR)
        ;
    if (n > 0) {
        c->pos = 0;
        c->len = (size_t)n;
        c->last = now();
    }
    return (long)n;
}

/* Feeds what c->buf holds. */
static int feed(struct imd_conn *c)
{
    size_t used;
    int ev = imd_reader_feed(&c->r, c->buf + c->pos, c->len - c->pos, &used);
    c->pos += used;
    if (ev == IMD_ERR)
        snprintf(c->msg, sizeof c->msg, "%s: %s", c->where, c->r.msg);
    return ev;
}

int imd_next(struct imd_conn *c, int timeout_ms)
{
    double deadline = timeout_ms < 0 ? -1 : now() + timeout_ms / 1000.0;
    for (;;) {
        if (c->pos < c->len) {
            int ev = feed(c);
            if (ev == IMD_ERR)
                return IMD_NEXT_ERR;
            if (ev == IMD_FRAME)
                return IMD_NEXT_FRAME;
            continue;
        }
        char where[128];
        imd_reader_where(&c->r, where, sizeof where);
        /* between messages: the caller's time; inside one: until a stall */
        double stall = c->last + IMD_STALL_S;
        int ms = where[0] ? left_ms(stall) : deadline < 0 ? -1 : left_ms(deadline);
        if (where[0] && deadline >= 0 && left_ms(deadline) < ms)
            ms = left_ms(deadline);
        struct pollfd pf = {c->fd, POLLIN, 0};
        int n = poll(&pf, 1, ms);
        if (n < 0) {
            if (errno == EINTR)
                return IMD_NEXT_WAIT; /* a signal: let the caller look */
            snprintf(c->msg, sizeof c->msg, "%s: poll: %s", c->where, strerror(errno));
            return IMD_NEXT_ERR;
        }
        if (n == 0) {
            if (where[0] && now() >= stall) {
                snprintf(c->msg, sizeof c->msg, "%s: the server stopped sending %s for %d s",
                         c->where, where, IMD_STALL_S);
                return IMD_NEXT_ERR;
            }
            return IMD_NEXT_WAIT;
        }
        long got = fill(c);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got < 0) {
            snprintf(c->msg, sizeof c->msg, "%s: %s", c->where, strerror(errno));
            return IMD_NEXT_ERR;
        }
        if (got == 0) {
            if (where[0]) {
                snprintf(c->msg, sizeof c->msg, "%s: the server closed the link %s",
                         c->where, where);
                return IMD_NEXT_ERR;
            }
            snprintf(c->msg, sizeof c->msg, "%s: the server closed the link after frame %llu",
                     c->where, c->r.frames);
            return IMD_NEXT_END;
        }
    }
}

/* Writes all of @p p within a few seconds. */
static int write_all(struct imd_conn *c, const unsigned char *p, size_t n)
{
    double deadline = now() + IMD_STALL_S;
    while (n) {
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {c->fd, POLLOUT, 0};
            if (poll(&pf, 1, left_ms(deadline)) > 0)
                continue;
            errno = ETIMEDOUT;
        }
        snprintf(c->msg, sizeof c->msg, "%s: cannot send: %s", c->where, strerror(errno));
        return -1;
    }
    return 0;
}

int imd_send(struct imd_conn *c, int32_t type, int32_t length)
{
    unsigned char h[IMD_HEADER_SIZE];
    imd_header_put(h, type, length);
    return write_all(c, h, sizeof h);
}

int imd_send_forces(struct imd_conn *c, size_t n, const int32_t *idx, const float *f)
{
    size_t size = imd_mdcomm_size(n);
    unsigned char *m = malloc(size);
    if (!m) {
        snprintf(c->msg, sizeof c->msg, "out of memory");
        return -1;
    }
    imd_mdcomm_put(m, n, idx, f);
    int rc = write_all(c, m, size);
    free(m);
    return rc;
}

int imd_open(struct imd_conn *c, const char *hostport, double timeout, size_t natoms)
{
    return imd_open_until(c, hostport, timeout, natoms, NULL);
}

int imd_open_until(struct imd_conn *c, const char *hostport, double timeout, size_t natoms,
                   volatile const sig_atomic_t *stop)
{
    char host[128], port[16];
    memset(c, 0, sizeof *c);
    c->fd = -1;
    c->stop = stop;
    snprintf(c->where, sizeof c->where, "%s", hostport);
    if (imd_split(hostport, host, sizeof host, port, sizeof port, c->msg, sizeof c->msg))
        return -1;
    double deadline = now() + timeout;
    c->fd = dial(c, host, port, deadline);
    if (c->fd < 0)
        return -1;
    imd_reader_init(&c->r, natoms);
    /* the handshake, then GO (fix imd waits a second for it) */
    while (c->r.stage == 0) {
        if (c->pos == c->len) {
            struct pollfd pf = {c->fd, POLLIN, 0};
            int n = poll(&pf, 1, left_ms(deadline));
            if (n < 0 && errno == EINTR && stop && *stop) {
                snprintf(c->msg, sizeof c->msg, "%s: stopped by a signal", c->where);
                goto fail;
            }
            if (n < 0 && errno == EINTR)
                continue;
            long got = n > 0 ? fill(c) : -1;
            if (n > 0 && got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                continue;
            if (got <= 0) {
                if (n == 0)
                    snprintf(c->msg, sizeof c->msg, "%s: no IMD handshake within %g s "
                             "(is it an IMD server, such as LAMMPS's fix imd?)",
                             c->where, timeout);
                else
                    snprintf(c->msg, sizeof c->msg, "%s: the server closed the link before "
                             "its handshake", c->where);
                goto fail;
            }
        }
        size_t used;
        /* the handshake alone: a frame behind it is read by imd_next */
        size_t k = c->len - c->pos;
        if (k > IMD_HEADER_SIZE - c->r.hgot)
            k = IMD_HEADER_SIZE - c->r.hgot;
        if (imd_reader_feed(&c->r, c->buf + c->pos, k, &used) == IMD_ERR) {
            snprintf(c->msg, sizeof c->msg, "%s: %s", c->where, c->r.msg);
            goto fail;
        }
        c->pos += used;
    }
    if (imd_send(c, IMD_GO, 0))
        goto fail;
    return 0;
fail:
    close(c->fd);
    c->fd = -1;
    imd_reader_free(&c->r);
    return -1;
}

void imd_close(struct imd_conn *c, int bye)
{
    if (c->fd < 0)
        return;
    if (bye)
        imd_send(c, IMD_DISCONNECT, 0);
    close(c->fd);
    c->fd = -1;
    imd_reader_free(&c->r);
}
