/*
 * recording.c - the states a session shows, as frames and rows (see
 * recording.h).
 */
#include "recording.h"

#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int recording_start(struct recording *r, const char *prefix, struct session *ss,
                    char *msg, size_t msgsize)
{
    /* the numbers go on from the last recording's */
    int from = r->next > 1 ? r->next : 1;
    memset(r, 0, sizeof *r);
    r->next = from;
    static const char *const ext[2] = {".xyz", ".csv"};
    char *const names[2] = {r->traj_name, r->series_name};
    FILE *fp[2];
    int failed;
    if (files_create(prefix, ext, 2, 0, &r->next, fp, names, sizeof r->traj_name, &failed)) {
        if (errno == EEXIST)
            snprintf(msg, msgsize, "cannot record: %s-%d to -%d are all taken", prefix,
                     from, from + FILES_TRIES - 1);
        else
            snprintf(msg, msgsize, "cannot record: %s: %s", names[failed], strerror(errno));
        return -1;
    }
    FILE *ft = fp[0], *fs = fp[1];
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
    record_series_header(&r->series, &session_state(ss)->p, 0);
    r->version = session_version(ss) - 1; /* the state now is the first frame */
    snprintf(msg, msgsize, "recording to %s and %s (R stops)", r->traj_name,
             r->series_name);
    return recording_frame(r, ss);
}

int recording_frame(struct recording *r, struct session *ss)
{
    if (!r->on || session_version(ss) == r->version)
        return 0;
    r->version = session_version(ss);
    const struct session_diag *d = session_diag(ss);
    long long step = (session_caps(ss) & SESSION_CAP_EXACT) ? d->events : d->steps;
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
