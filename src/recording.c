/*
 * recording.c - the states a session shows, as frames and rows (see
 * recording.h).
 */
#include "recording.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The most numbers tried before giving up on finding free names. */
#define RECORDING_TRIES 10000

int recording_start(struct recording *r, const char *prefix, struct session *ss,
                    char *msg, size_t msgsize)
{
    /* the numbers go on from the last recording's: R a thousand times
     * does not search from 1 each time */
    int from = r->next > 1 ? r->next : 1;
    memset(r, 0, sizeof *r);
    r->next = from;
    for (int n = from; n < from + RECORDING_TRIES; n++) {
        snprintf(r->traj_name, sizeof r->traj_name, "%s-%d.xyz", prefix, n);
        snprintf(r->series_name, sizeof r->series_name, "%s-%d.csv", prefix, n);
        /* "x": create, never overwrite (C11); a name taken goes on to n+1. */
        FILE *ft = fopen(r->traj_name, "wx");
        if (!ft) {
            if (errno == EEXIST)
                continue;
            snprintf(msg, msgsize, "cannot record: %s: %s", r->traj_name, strerror(errno));
            return -1;
        }
        FILE *fs = fopen(r->series_name, "wx");
        if (!fs) {
            int e = errno;
            fclose(ft);
            remove(r->traj_name);
            if (e == EEXIST)
                continue;
            snprintf(msg, msgsize, "cannot record: %s: %s", r->series_name, strerror(e));
            return -1;
        }
        if (record_attach(&r->traj, ft) || record_attach(&r->series, fs)) {
            record_close(&r->traj);
            fclose(ft);
            fclose(fs);
            remove(r->traj_name);
            remove(r->series_name);
            snprintf(msg, msgsize, "cannot record: out of memory");
            return -1;
        }
        /* The streams are ours: record_close leaves them open, and
         * recording_stop closes them. */
        r->on = 1;
        r->next = n + 1;
        record_series_header(&r->series, &ss->s.p, 0);
        r->version = ss->version - 1; /* the state now is the first frame */
        snprintf(msg, msgsize, "recording to %s and %s (R stops)", r->traj_name,
                 r->series_name);
        return recording_frame(r, ss);
    }
    snprintf(msg, msgsize, "cannot record: %s-%d to -%d are all taken", prefix,
             from, from + RECORDING_TRIES - 1);
    return -1;
}

int recording_frame(struct recording *r, struct session *ss)
{
    if (!r->on || ss->version == r->version)
        return 0;
    r->version = ss->version;
    const struct session_diag *d = session_diag(ss);
    long long step = ss->engine == SESSION_EVENT ? d->events : d->steps;
    const struct sim *o = session_observed(ss); /* what the screen shows */
    record_xyz(&r->traj, o, step);
    record_series_row(&r->series, o, step);
    r->frames++;
    if (r->traj.err || r->series.err) {
        r->err = r->traj.err ? r->traj.err : r->series.err;
        r->failed = r->traj.err ? r->traj_name : r->series_name;
        return -1;
    }
    return 0;
}

int recording_stop(struct recording *r, char *msg, size_t msgsize)
{
    if (!r->on)
        return 0;
    FILE *ft = r->traj.f, *fs = r->series.f;
    int e1 = record_close(&r->traj), e2 = record_close(&r->series);
    int e3 = fclose(ft) ? errno : 0, e4 = fclose(fs) ? errno : 0;
    int e = r->err ? r->err : e1 ? e1 : e2 ? e2 : e3 ? e3 : e4;
    const char *failed = r->failed ? r->failed
                         : e1 || (!e2 && e3) ? r->traj_name : r->series_name;
    r->on = 0;
    if (e) {
        /* a file that got nothing (a full disk) is not left behind */
        struct stat st;
        if (stat(r->traj_name, &st) == 0 && st.st_size == 0)
            remove(r->traj_name);
        if (stat(r->series_name, &st) == 0 && st.st_size == 0)
            remove(r->series_name);
    }
    if (msg && e)
        snprintf(msg, msgsize, "recording stopped: %s: write error: %s", failed,
                 strerror(e));
    else if (msg)
        snprintf(msg, msgsize, "recorded %lld frame%s to %s and %s", r->frames,
                 r->frames == 1 ? "" : "s", r->traj_name, r->series_name);
    return e ? -1 : 0;
}
