/*
 * record.c - extended XYZ frames and CSV rows (see record.h).
 *
 * Rows are built straight into a buffer with numfmt_double and handed to
 * fwrite in blocks of at least RECORD_BLOCK bytes: printf's format parsing
 * and exact %.17g rounding cost 5-7 times more (README, "Recording a run").
 * A frame's rows are formatted in blocks of RECORD_ROWS balls; from
 * RECORD_PAR_MIN balls on, up to w->threads blocks at a time by as many
 * POSIX threads (the rows of a ball depend on nothing else), then written
 * in order, so the bytes are those of one thread.
 */
#define _POSIX_C_SOURCE 200809L

#include "record.h"

#include "numfmt.h"
#include "scene.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/// Bytes gathered before a write.
#define RECORD_BLOCK (1 << 20)

/// The most one row can add: 8 numbers of NUMFMT_MAX, separators, the
/// longest header (its springball= parameters at most RECORD_PARAMS).
#define RECORD_ROW 1280
#define RECORD_PARAMS 480

/// Balls formatted as one block, and the most bytes their rows take (four
/// numbers, the " 0 r m " middle of two more, the momenta, the masses'
/// " 0 m" tail, separators).
#define RECORD_ROWS 8192
#define RECORD_ROWS_MAX (9 * NUMFMT_MAX + 24)

/// Frames of fewer balls are formatted by the calling thread alone.
#define RECORD_PAR_MIN 32768

/// At most this many threads format a frame.
#define RECORD_THREADS_MAX 16

int record_attach(struct record *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->cap = RECORD_BLOCK + RECORD_ROW + (size_t)RECORD_ROWS * RECORD_ROWS_MAX;
    w->buf = malloc(w->cap);
    if (!w->buf) {
        errno = ENOMEM;
        return -1;
    }
    w->f = f;
    /* Unbuffered: what fwrite took is what the file has, so that a file is
     * cut back exactly after a write error (the buffer here is large). */
    setvbuf(f, NULL, _IONBF, 0);
    struct stat st;
    w->start = -1;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        off_t at = lseek(fileno(f), 0, SEEK_CUR);
        w->start = at < 0 ? -1 : (long long)at;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    w->threads = cpus < 1 ? 1 : cpus > RECORD_THREADS_MAX ? RECORD_THREADS_MAX : (int)cpus;
    return 0;
}

int record_open(struct record *w, const char *path)
{
    if (strcmp(path, "-") == 0)
        return record_attach(w, stdout);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (record_attach(w, f)) {
        fclose(f);
        errno = ENOMEM;
        return -1;
    }
    w->own = 1;
    return 0;
}

/* A unit (a frame, a row) ends at the bytes handed so far and pending. */
static void unit_end(struct record *w)
{
    if (w->err)
        return;
    if (w->nends == w->ends_cap) {
        size_t cap = w->ends_cap ? 2 * w->ends_cap : 64;
        unsigned long long *e = realloc(w->ends, cap * sizeof *e);
        if (!e) {
            /* No list: the earlier ends stand (a cut would go further back). */
            return;
        }
        w->ends = e;
        w->ends_cap = cap;
    }
    w->ends[w->nends++] = w->bytes + w->len;
}

/* The units that ended within the first @p done bytes are in the file. */
static void units_written(struct record *w, unsigned long long done)
{
    size_t k = 0;
    while (k < w->nends && w->ends[k] <= done)
        w->whole = w->ends[k++];
    if (k == 0)
        return; /* also: no unit recorded yet, ends may be NULL */
    memmove(w->ends, w->ends + k, (w->nends - k) * sizeof *w->ends);
    w->nends -= k;
}

/* Writes @p len bytes, the next of the stream, unless a write failed. By
 * write(2) (the stream is unbuffered): fwrite goes on after a write that
 * a signal cut short and waits again, so that a stop asked (w->stop) could
 * not end a write to a pipe that reads no more. */
static void put_out(struct record *w, const char *p, size_t len)
{
    if (!len || w->err)
        return;
    const int fd = fileno(w->f);
    size_t got = 0;
    if (fd < 0) {
        errno = 0;
        got = fwrite(p, 1, len, w->f);
        if (got != len)
            w->err = errno ? errno : EIO;
    }
    while (fd >= 0 && got < len) {
        ssize_t n = write(fd, p + got, len - got);
        int stop = w->stop && *w->stop;
        if (n > 0) {
            got += (size_t)n;
            if (got < len && stop) /* cut short by the signal that stops */
                w->err = EINTR;
        } else if (n < 0 && errno == EINTR && !stop) {
            continue;
        } else {
            w->err = n < 0 ? errno : EIO;
        }
        if (w->err)
            break;
    }
    units_written(w, w->bytes + got);
}

static void flush_buf(struct record *w)
{
    put_out(w, w->buf, w->len);
    w->bytes += w->len;
    w->len = 0;
}

/* Room for one more row. */
static char *room(struct record *w)
{
    if (w->len >= RECORD_BLOCK)
        flush_buf(w);
    return w->buf + w->len;
}

int record_close(struct record *w)
{
    if (!w->f)
        return 0;
    errno = 0;
    flush_buf(w);
    if (!w->err && (fflush(w->f) || ferror(w->f)))
        w->err = errno ? errno : EIO;
    /* A failed write may have left part of a unit: the file ends at its
     * last whole one (a reader of a cut file would refuse or drop it). */
    if (w->err && w->start >= 0) {
        int e = w->err;
        if (ftruncate(fileno(w->f), (off_t)(w->start + (long long)w->whole)) == 0)
            lseek(fileno(w->f), 0, SEEK_END);
        w->err = e;
    }
    free(w->ends);
    w->ends = NULL;
    if (w->own && fclose(w->f) && !w->err)
        w->err = errno ? errno : EIO;
    free(w->buf);
    w->buf = NULL;
    free(w->par);
    w->par = NULL;
    int err = w->err;
    memset(w, 0, sizeof *w);
    return err;
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static char *put_num(char *p, double v)
{
    return p + numfmt_double(p, v);
}

static char *put_ll(char *p, long long v)
{
    if (v < 0) {
        *p++ = '-';
        return p + numfmt_u64(p, 0 - (unsigned long long)v);
    }
    return p + numfmt_u64(p, (unsigned long long)v);
}

/* The rows of scene balls b0 .. b1 - 1 into p, which has room for
 * (b1 - b0) * RECORD_ROWS_MAX bytes. @return the end. */
static char *xyz_rows(char *p, const struct sim *s, size_t b0, size_t b1)
{
    /* The middle " 0 r m " and the tail " 0 m\n" of a row, kept while the
     * balls in a row share r and m (a rack, a random gas: most scenes),
     * printed again otherwise. */
    char mid[2 * NUMFMT_MAX + 8], tail[NUMFMT_MAX + 8];
    size_t mid_len = 0, tail_len = 0;
    double tail_r = 0, tail_m = 0;
    for (size_t b = b0; b < b1; b++) {
        /* Scene order: the slot that holds ball b (the sim may have sorted
         * its slots by cell). */
        size_t i = sim_slot(s, b);
        if (!mid_len || memcmp(&s->r[i], &tail_r, sizeof tail_r) ||
            memcmp(&s->m[i], &tail_m, sizeof tail_m)) {
            tail_r = s->r[i];
            tail_m = s->m[i];
            char *t = put_str(mid, " 0 ");
            t = put_num(t, tail_r);
            *t++ = ' ';
            t = put_num(t, tail_m);
            *t++ = ' ';
            mid_len = (size_t)(t - mid);
            t = put_str(tail, " 0 ");
            t = put_num(t, tail_m);
            *t++ = '\n';
            tail_len = (size_t)(t - tail);
        }
        /* The velocities are those of the state given: the observed
         * (synchronised) ones when the caller passes sim_observe's state,
         * as every recording does; the momenta are m times them. */
        const double vx = s->vx[i], vy = s->vy[i];
        *p++ = 'X';
        *p++ = ' ';
        p = put_num(p, s->x[i]);
        *p++ = ' ';
        p = put_num(p, s->y[i]);
        p = put_str(p, " 0 ");
        p = put_num(p, vx);
        *p++ = ' ';
        p = put_num(p, vy);
        memcpy(p, mid, mid_len);
        p += mid_len;
        p = put_num(p, s->m[i] * vx);
        *p++ = ' ';
        p = put_num(p, s->m[i] * vy);
        memcpy(p, tail, tail_len);
        p += tail_len;
    }
    return p;
}

/* One block for one thread. */
struct xyz_job {
    const struct sim *s;
    size_t b0, b1;
    char *buf;
    size_t len;
};

static void *xyz_job_run(void *arg)
{
    struct xyz_job *j = arg;
    j->len = (size_t)(xyz_rows(j->buf, j->s, j->b0, j->b1) - j->buf);
    return NULL;
}

/* Writes the rows with up to w->threads threads, block after block in
 * order. @return 0, or -1 when the buffers or a thread cannot be had (then
 * nothing has been written and the caller formats alone). */
static int xyz_rows_parallel(struct record *w, const struct sim *s)
{
    const int t = w->threads;
    const size_t blk = (size_t)RECORD_ROWS * RECORD_ROWS_MAX;
    if (!w->par) {
        /* Block k of a round goes to par + k * blk; k = 0 is w->buf. */
        w->par = malloc((size_t)(t - 1) * blk);
        if (!w->par)
            return -1;
    }
    flush_buf(w);
    struct xyz_job jobs[RECORD_THREADS_MAX];
    pthread_t tid[RECORD_THREADS_MAX];
    for (size_t b = 0; b < s->n;) {
        int k = 0;
        for (; k < t && b < s->n; k++, b += RECORD_ROWS) {
            jobs[k].s = s;
            jobs[k].b0 = b;
            jobs[k].b1 = s->n - b < RECORD_ROWS ? s->n : b + RECORD_ROWS;
            jobs[k].buf = k == 0 ? w->buf : w->par + (size_t)(k - 1) * blk;
        }
        /* Blocks 1..k-1 on threads, block 0 here; a thread that cannot
         * start has its block done here too. */
        int started[RECORD_THREADS_MAX] = {0};
        for (int j = 1; j < k; j++)
            started[j] = pthread_create(&tid[j], NULL, xyz_job_run, &jobs[j]) == 0;
        xyz_job_run(&jobs[0]);
        for (int j = 1; j < k; j++) {
            if (started[j])
                pthread_join(tid[j], NULL);
            else
                xyz_job_run(&jobs[j]);
        }
        for (int j = 0; j < k; j++) {
            put_out(w, jobs[j].buf, jobs[j].len);
            w->bytes += jobs[j].len;
        }
    }
    return 0;
}

void record_xyz(struct record *w, const struct sim *s, long long step)
{
    double z = 0;
    for (size_t i = 0; i < s->n; i++)
        if (2 * s->r[i] > z)
            z = 2 * s->r[i];
    if (!(z > 0))
        z = 1; /* point masses: a box of height 1 */
    char *p = room(w);
    p += numfmt_u64(p, s->n);
    p = put_str(p, "\nLattice=\"");
    p = put_num(p, s->p.w);
    p = put_str(p, " 0 0 0 ");
    p = put_num(p, s->p.h);
    p = put_str(p, " 0 0 0 ");
    p = put_num(p, z);
    p = put_str(p, "\" ");
    if (s->p.shape == SIM_OPEN) {
        p = put_str(p, "Origin=\"");
        p = put_num(p, -0.5 * s->p.w);
        *p++ = ' ';
        p = put_num(p, -0.5 * s->p.h);
        *p++ = ' ';
        p = put_num(p, -0.5 * z);
        p = put_str(p, "\" ");
    }
    p = put_str(p, "Properties=" RECORD_XYZ_PROPERTIES " Time=");
    p = put_num(p, s->t);
    p = put_str(p, " Step=");
    p = put_ll(p, step);
    /* The run's parameters as scene directives, so that a frame replayed
     * (traj.h) has the k, dt and walls it ran with. */
    char params[RECORD_PARAMS];
    if (scene_params_text(params, sizeof params, &s->p) < (int)sizeof params) {
        p = put_str(p, " springball=\"");
        p = put_str(p, params);
        *p++ = '"';
    }
    p = put_str(p, " pbc=\"F F F\"\n");
    w->len = (size_t)(p - w->buf);
    if (s->n >= RECORD_PAR_MIN && w->threads > 1 && xyz_rows_parallel(w, s) == 0) {
        unit_end(w);
        return;
    }
    for (size_t b = 0; b < s->n; b += RECORD_ROWS) {
        size_t b1 = s->n - b < RECORD_ROWS ? s->n : b + RECORD_ROWS;
        p = room(w);
        w->len = (size_t)(xyz_rows(p, s, b, b1) - w->buf);
    }
    unit_end(w);
}

/* The optional columns of a run: pf with a field, out with open sides. */
static int has_field(const struct sim_params *p)
{
    return p->gx != 0 || p->gy != 0;
}

void record_series_header(struct record *w, const struct sim_params *sp, int events)
{
    char *p = room(w);
    p = put_str(p, "t,step,ke,pe,pg,e,px,py,contacts,dissipated");
    if (has_field(sp))
        p = put_str(p, ",pf");
    if (sp->open)
        p = put_str(p, ",out");
    if (events)
        p = put_str(p, ",collisions,walls,crossings,mft");
    *p++ = '\n';
    w->len = (size_t)(p - w->buf);
    unit_end(w);
}

/* The columns every row has, and those of the run's parameters. */
static char *put_common(char *p, const struct sim_params *sp, const struct sim_diag *d,
                        double t, long long step, double ke, double pe, double pg,
                        double e, double px, double py, long contacts, double dissipated)
{
    const double v[] = {t, 0, ke, pe, pg, e, px, py};
    for (int k = 0; k < 8; k++) {
        if (k == 1)
            p = put_ll(p, step);
        else
            p = put_num(p, v[k]);
        *p++ = ',';
    }
    p = put_ll(p, contacts);
    *p++ = ',';
    p = put_num(p, dissipated);
    if (has_field(sp)) {
        *p++ = ',';
        p = put_num(p, d->pf);
    }
    if (sp->open) {
        *p++ = ',';
        p = put_ll(p, d->out);
    }
    return p;
}

void record_series_row(struct record *w, const struct sim *s, long long step)
{
    struct sim_diag d;
    sim_diag(s, &d);
    char *p = room(w);
    p = put_common(p, &s->p, &d, s->t, step, d.ke, d.pe, d.pg, d.e, d.px, d.py,
                   d.contacts, d.dissipated);
    *p++ = '\n';
    w->len = (size_t)(p - w->buf);
    unit_end(w);
}

void record_series_event_row(struct record *w, const struct sim *s,
                             const struct event *ev)
{
    struct sim_diag d;
    struct event_diag ed;
    sim_diag(s, &d);
    event_diag(ev, &ed);
    char *p = room(w);
    p = put_common(p, &s->p, &d, ev->t, ed.events, ed.ke, 0, 0, ed.e, ed.px, ed.py,
                   d.contacts, ed.dissipated);
    *p++ = ',';
    p = put_ll(p, ed.collisions);
    *p++ = ',';
    p = put_ll(p, ed.walls);
    *p++ = ',';
    p = put_ll(p, ed.crossings);
    *p++ = ',';
    p = put_num(p, ed.mft);
    *p++ = '\n';
    w->len = (size_t)(p - w->buf);
    unit_end(w);
}
