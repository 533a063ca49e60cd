/*
 * link_imd.c - a link (link.h) to a running simulation over IMD (imd.h):
 * frames polled without waiting, PAUSE, TRATE, MDCOMM, KILL, and a
 * reconnect after the link dropped.
 */
#define _POSIX_C_SOURCE 200809L

#include "link.h"

#include "imd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frames taken in one poll at most: the newest of them is shown (a
 * burst after a stall does not hold the terminal). */
#define POLL_FRAMES 64

struct link_imd {
    struct link l;
    struct imd_conn c;
    int open;          /* c is connected */
    int gone;          /* closed: LINK_ERROR or LINK_ENDED, said in l.msg */
    char hostport[160];
    size_t natoms;     /* every frame's, once one came */
    double *xyz;       /* the newest frame, as doubles */
    unsigned long long k; /* frames over every connection */
};

/* Up to @p most frames that have come whole, the last handed over. */
static int imd_take(struct link *l, struct link_frame *fr, int most)
{
    struct link_imd *m = (struct link_imd *)l;
    if (!m->open)
        return m->gone ? m->gone : LINK_ERROR;
    int got = 0;
    for (int i = 0; i < most; i++) {
        int r = imd_next(&m->c, 0);
        if (r == IMD_NEXT_WAIT)
            break;
        if (r == IMD_NEXT_ERR || r == IMD_NEXT_END) {
            snprintf(l->msg, sizeof l->msg, "%s", m->c.msg);
            imd_close(&m->c, 0);
            m->open = 0;
            m->gone = r == IMD_NEXT_END ? LINK_ENDED : LINK_ERROR;
            if (got)
                break; /* the frame first; the end at the next poll */
            return r == IMD_NEXT_END ? LINK_ENDED : LINK_ERROR;
        }
        size_t n = m->c.r.natoms;
        if (!m->xyz) {
            m->xyz = malloc(n * 3 * sizeof *m->xyz);
            if (!m->xyz) {
                snprintf(l->msg, sizeof l->msg, "%s: out of memory for a frame of %zu atoms",
                         l->where, n);
                return LINK_ERROR;
            }
            m->natoms = n;
        }
        for (size_t j = 0; j < 3 * n; j++)
            m->xyz[j] = m->c.r.xyz[j];
        m->k++;
        got = 1;
    }
    if (!got)
        return LINK_NONE;
    fr->n = m->natoms;
    fr->xyz = m->xyz;
    fr->v = NULL;
    fr->step = -1;
    fr->t = NAN;
    fr->k = m->k;
    return LINK_FRAME;
}

static int imd_poll(struct link *l, struct link_frame *fr)
{
    return imd_take(l, fr, POLL_FRAMES);
}

static int imd_one(struct link *l, struct link_frame *fr)
{
    return imd_take(l, fr, 1);
}

/* The link's own message of a failed send. */
static int sent(struct link_imd *m, int rc)
{
    if (rc) {
        snprintf(m->l.msg, sizeof m->l.msg, "%s", m->c.msg);
        imd_close(&m->c, 0);
        m->open = 0;
        m->gone = LINK_ERROR;
    }
    return rc;
}

static int ready(struct link_imd *m)
{
    if (m->open)
        return 0;
    snprintf(m->l.msg, sizeof m->l.msg, "%s: not connected (r reconnects)", m->l.where);
    return -1;
}

static int imd_pause(struct link *l)
{
    struct link_imd *m = (struct link_imd *)l;
    return ready(m) ? -1 : sent(m, imd_send(&m->c, IMD_PAUSE, 0));
}

static int imd_trate(struct link *l, int rate)
{
    struct link_imd *m = (struct link_imd *)l;
    return ready(m) ? -1 : sent(m, imd_send(&m->c, IMD_TRATE, rate));
}

static int imd_force(struct link *l, size_t n, const int32_t *idx, const float *f)
{
    struct link_imd *m = (struct link_imd *)l;
    return ready(m) ? -1 : sent(m, imd_send_forces(&m->c, n, idx, f));
}

static int imd_kill(struct link *l)
{
    struct link_imd *m = (struct link_imd *)l;
    if (ready(m))
        return -1;
    int rc = sent(m, imd_send(&m->c, IMD_KILL, 0));
    if (!rc) {
        imd_close(&m->c, 0);
        m->open = 0;
        m->gone = LINK_ENDED;
        snprintf(l->msg, sizeof l->msg, "%s: the run was ended (KILL)", l->where);
    }
    return rc;
}

static int imd_reconnect(struct link *l)
{
    struct link_imd *m = (struct link_imd *)l;
    if (m->open)
        imd_close(&m->c, 1);
    m->open = 0;
    if (imd_open(&m->c, m->hostport, LINK_IMD_RECONNECT, m->natoms)) {
        snprintf(l->msg, sizeof l->msg, "%s", m->c.msg);
        return -1;
    }
    m->open = 1;
    m->gone = 0;
    return 0;
}

static void imd_link_close(struct link *l, int bye)
{
    struct link_imd *m = (struct link_imd *)l;
    if (m->open)
        imd_close(&m->c, bye);
    free(m->xyz);
    free(m);
}

static const struct link_ops imd_ops = {
    .name = "imd",
    .poll = imd_poll,
    .next = imd_one,
    .pause = imd_pause,
    .trate = imd_trate,
    .force = imd_force,
    .kill = imd_kill,
    .reconnect = imd_reconnect,
    .close = imd_link_close,
};

struct link *link_imd_open(const char *hostport, double timeout, size_t natoms, char *msg,
                           size_t msize)
{
    struct link_imd *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(msg, msize, "out of memory");
        return NULL;
    }
    m->l.ops = &imd_ops;
    snprintf(m->hostport, sizeof m->hostport, "%s", hostport);
    snprintf(m->l.where, sizeof m->l.where, "%s", hostport);
    if (imd_open(&m->c, hostport, timeout, natoms)) {
        snprintf(msg, msize, "%s", m->c.msg);
        free(m);
        return NULL;
    }
    m->open = 1;
    m->natoms = natoms;
    return &m->l;
}

struct link *link_imd_adopt(struct imd_conn *c, const char *hostport, size_t natoms)
{
    struct link_imd *m = calloc(1, sizeof *m);
    if (!m) {
        imd_close(c, 0);
        return NULL;
    }
    m->l.ops = &imd_ops;
    snprintf(m->hostport, sizeof m->hostport, "%s", hostport);
    snprintf(m->l.where, sizeof m->l.where, "%s", hostport);
    m->c = *c; /* the socket and the reader's buffer are the link's now */
    m->open = 1;
    m->natoms = natoms;
    return &m->l;
}
