/*
 * headless_rec.c - recording a headless run: --traj, --series, --every,
 * --every-t (the options, the cadence, the files and their sizes) and
 * which file a path names, so that no output overwrites the scene or the
 * other output. The writers are record.c. See headless.h.
 */
/* lstat, readlink, fileno, statvfs */
#define _POSIX_C_SOURCE 200809L
#include "headless_impl.h"

#include "cli.h"
#include "numfmt.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* === Recording and export (issue 15) ==================================
 *
 * --traj and --series write frames and rows at step 0 and then every
 * --every steps (events in the event engine) or every --every-t of
 * simulated time; --export=lammps PREFIX writes the scene as a LAMMPS run
 * and exits. The writers are record.c and export.c; here are the options,
 * the cadence and the files.
 */

/* A PREFIX that LAMMPS's input parser would split or expand. */
static int lammps_unsafe(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || strchr("\"'$#&{}*%", *s))
            return 1;
    return 0;
}

/* One recording option; --export=lammps takes the next argument as PREFIX. */
void headless_option(int c, const char *arg, int argc, char **argv,
                       struct rec_options *r)
{
    switch (c) {
    case OPT_TRAJ:
    case OPT_SERIES:
        if (!*arg)
            cli_die("%s: the file name is empty", c == OPT_TRAJ ? "--traj" : "--series");
        *(c == OPT_TRAJ ? &r->traj : &r->series) = arg;
        break;
    case OPT_EVERY:
        r->every = cli_count("--every", arg);
        if (r->every == 0)
            cli_die("--every: '%s' must be >= 1", arg);
        break;
    case OPT_EVERY_T:
        r->every_t = cli_double("--every-t", arg, 0, 1);
        break;
    case OPT_EXPORT:
        if (strcmp(arg, "lammps") != 0)
            cli_die("--export: unknown format '%s' (use lammps)", arg);
        if (optind >= argc || !*argv[optind] || argv[optind][0] == '-')
            cli_die("--export=lammps needs a PREFIX for PREFIX.in and PREFIX.data");
        r->export_prefix = argv[optind++];
        if (lammps_unsafe(r->export_prefix))
            cli_die("--export=lammps: PREFIX '%s' has a blank, quote, $, #, &, "
                      "brace, * or %%, which LAMMPS would not read back (* and %% make "
                      "per-step and per-rank files)", r->export_prefix);
        break;
    }
}

void headless_check_options(const struct options *o)
{
    const struct rec_options *r = &o->rec;
    if (r->every && r->every_t > 0)
        cli_die("give --every or --every-t, not both");
    if ((r->every || r->every_t > 0) && !r->traj && !r->series && !r->export_prefix)
        cli_die("--every and --every-t need --traj, --series or --export");
    if (r->traj && r->series && !strcmp(r->traj, "-") && !strcmp(r->series, "-"))
        cli_die("--traj and --series cannot both write to standard output");
    if (r->traj && r->series && !strcmp(r->traj, r->series))
        cli_die("--traj and --series cannot write to the same file '%s'", r->traj);
    if ((r->traj || r->series) && !o->headless && !r->export_prefix)
        cli_die("--traj and --series record a headless run: add -H "
                  "(in the terminal, R records)");
    if (r->export_prefix && (r->traj || r->series))
        cli_die("--export writes a LAMMPS run and does not simulate: "
                  "drop --traj and --series");
    if (r->export_prefix && !o->have_steps && !o->have_time)
        cli_die("--export=lammps needs the run length: -n STEPS or -T TIME");
    if (r->export_prefix && o->engine == ENGINE_EVENT)
        cli_die("--export=lammps: the event engine has no LAMMPS equivalent "
                  "(gran/hooke is the spring engine)");
}

int file_id(const char *path, int fd, struct file_id *id, int depth)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (!strcmp(path, "-") ? fstat(fd, &st) == 0 : stat(path, &st) == 0) {
        id->dev = st.st_dev;
        id->ino = st.st_ino;
        id->reg = S_ISREG(st.st_mode);
        return 0;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096], target[4096];
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    if (dlen >= sizeof dir)
        return -1;
    memcpy(dir, path, dlen);
    dir[dlen] = 0;
    ssize_t n = depth < 8 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)
                    ? readlink(path, target, sizeof target - 1) : -1;
    if (n > 0) { /* a dangling link: where it points, from its directory */
        target[n] = 0;
        char joined[8192];
        snprintf(joined, sizeof joined, "%s%s", target[0] == '/' ? "" : dir, target);
        return file_id(joined, fd, id, depth + 1);
    }
    const char *base = slash ? slash + 1 : path;
    if (strlen(base) >= sizeof id->name || stat(dlen ? dir : ".", &st) != 0)
        return -1;
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    snprintf(id->name, sizeof id->name, "%s", base);
    return 0;
}

int same_file(const struct file_id *a, const struct file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && !strcmp(a->name, b->name);
}

/* Refuses (status 2) an output that is the scene being read or the other
 * output: files are compared by what they are, not by their names
 * (--traj=in.scene in.scene, --traj=/dev/stdout --series=-). */
void headless_check_outputs(const struct options *o)
{
    const char *outs[2] = {o->rec.traj, o->rec.series};
    const char *opt[2] = {"--traj", "--series"};
    struct file_id in, id[2];
    int have_in = file_id(o->scene_path ? o->scene_path : "", 0, &in, 0) == 0 &&
                  o->scene_path && in.reg;
    for (int k = 0; k < 2; k++) {
        if (!outs[k] || file_id(outs[k], 1, &id[k], 0) != 0) {
            outs[k] = NULL;
            continue;
        }
        if (have_in && same_file(&id[k], &in))
            cli_die("%s: '%s' is the scene file being read", opt[k], outs[k]);
    }
    if (outs[0] && outs[1] && same_file(&id[0], &id[1]))
        cli_die("--traj and --series cannot write to the same file ('%s' is '%s')",
                  outs[0], outs[1]);
    /* --cast (the terminal's or --snapshot's): not over the scene, nor
     * where the screen or the snapshot goes */
    const char *cast = o->ui.cast;
    struct file_id cid;
    if (cast && file_id(cast, 1, &cid, 0) == 0 && have_in && same_file(&cid, &in))
        cli_die("--cast: '%s' is the scene file being read", cast);
    if (cast && is_stdout(cast))
        cli_die("--cast: '%s' is standard output, where the %s goes", cast,
                o->snapshot ? "snapshot" : "screen");
}

/* 1 when @p path ("-" too) is the file standard output writes to. */
int is_stdout(const char *path)
{
    struct file_id a, b;
    return path && (!strcmp(path, "-") ||
                    (file_id(path, 1, &a, 0) == 0 && file_id("-", 1, &b, 0) == 0 &&
                     same_file(&a, &b)));
}

int rec_active(const struct recorder *rec)
{
    return rec && (rec->want_traj || rec->want_series);
}

/* === Stopped by a signal ==============================================
 *
 * SIGHUP (an SSH session dropped), SIGINT and SIGTERM during a recording
 * stop the run between two frames: the files are closed at their last
 * whole frame and row (as R's are in the terminal), and the program then
 * dies of the signal. A signal ignored when the run began (nohup) stays
 * ignored. The spring engine looks after every step, the event engine
 * after every frame. No SA_RESTART: a write blocked on a pipe or terminal
 * that reads no more (a stalled reader) returns EINTR, which the signal
 * noted makes a stop, not a write error (with SA_RESTART the write went
 * on waiting and SIGTERM could not stop the run).
 */
/* 1 when a signal asks the run to stop (noted in rec). */
static int rec_stop(struct recorder *rec)
{
    if (!cli_stop)
        return 0;
    rec->stopped = cli_stop;
    return 1;
}

/* A writer's error @p err, unless it is a write interrupted by a signal
 * that stops the run (then noted in rec: a stop, not a failure). */
static int write_failed(struct recorder *rec, int err)
{
    if (err == EINTR && rec_stop(rec))
        return 0;
    return err;
}

void rec_signal_exit(const struct recorder *rec, const struct sim *s)
{
    if (!rec->stopped)
        return;
    int sig = rec->stopped;
    const char *name = sig == SIGHUP ? "SIGHUP" : sig == SIGINT ? "SIGINT" : "SIGTERM";
    char t[NUMFMT_MAX];
    t[numfmt_double(t, s->t)] = 0;
    fprintf(stderr, "springball: %s: stopped at t = %s; the recording ends at its "
                    "last whole frame\n", name, t);
    signal(sig, SIG_DFL);
    raise(sig);
    exit(128 + sig); /* (not reached) */
}

void rec_init(struct recorder *rec, const struct rec_options *r, int events)
{
    memset(rec, 0, sizeof *rec);
    if (r->traj || r->series)
        cli_catch_stops();
    rec->want_traj = r->traj;
    rec->want_series = r->series;
    rec->events = events;
    rec->every_t = r->every_t;
    rec->every = r->every_t > 0 ? 0 : r->every ? r->every : 1;
    rec->next_t = 0; /* every_t: frame 0 first */
}

/* Opens the files; prints the reason and returns 1 when one cannot be. */
static int rec_open(struct recorder *rec, const struct sim *s)
{
    rec->opened = 1;
    const char *paths[2] = {rec->want_traj, rec->want_series};
    struct record *ws[2] = {&rec->traj, &rec->series};
    for (int k = 0; k < 2; k++) {
        if (!paths[k])
            continue;
        if (record_open(ws[k], paths[k])) {
            cli_warn("%s: cannot write: %s", paths[k], strerror(errno));
            if (k == 1 && rec->traj_path)
                record_close(&rec->traj);
            rec->traj_path = NULL;
            return 1;
        }
        ws[k]->stop = &cli_stop;
        *(k ? &rec->series_path : &rec->traj_path) = paths[k];
    }
    if (rec->series_path)
        record_series_header(&rec->series, &s->p, rec->events);
    return 0;
}

/* Writes a frame and a row of the state in s (and ev in the event engine).
 * Opens the files at the first frame. Returns nonzero after a write error
 * or when a file cannot be opened (reported then): the run stops. */
int rec_frame(struct recorder *rec, const struct sim *s, const struct event *ev)
{
    if (!rec->opened && rec_open(rec, s))
        return 2; /* reported */
    long long step = s->steps;
    if (ev) {
        struct event_diag d;
        event_diag(ev, &d);
        step = d.events;
    }
    /* The springs write their observed state, as the screen shows it
     * (the event engine's velocities are of its time already). */
    const struct sim *o = ev || sim_observe(s, &rec->obs) == -1 ? s : &rec->obs;
    if (rec->traj_path)
        record_xyz(&rec->traj, o, step);
    if (rec->series_path) {
        if (ev)
            record_series_event_row(&rec->series, s, ev);
        else
            record_series_row(&rec->series, o, s->steps);
    }
    if (write_failed(rec, rec->traj.err) && !rec->failed)
        rec->failed = rec->traj_path, rec->err = rec->traj.err;
    if (write_failed(rec, rec->series.err) && !rec->failed)
        rec->failed = rec->series_path, rec->err = rec->series.err;
    return rec->failed != NULL || rec->stopped;
}

/* Closes the files: returns 1 with the reason printed when a write failed. */
int rec_close(struct recorder *rec)
{
    int e1 = rec->traj_path ? write_failed(rec, record_close(&rec->traj)) : 0;
    int e2 = rec->series_path ? write_failed(rec, record_close(&rec->series)) : 0;
    sim_free(&rec->obs);
    if (!rec->failed && (e1 || e2)) {
        rec->failed = e1 ? rec->traj_path : rec->series_path;
        rec->err = e1 ? e1 : e2;
    }
    if (rec->failed) {
        cli_warn("%s: write error: %s",
             strcmp(rec->failed, "-") ? rec->failed : "standard output",
             strerror(rec->err));
        return 1;
    }
    return 0;
}

/* The spring engine's hook after each step (done steps so far): a frame
 * when due. A non-finite state is not written (run_spring reports it
 * within FINITE_EVERY steps). Returns 1 after a write error. */
int rec_after_step(struct recorder *rec, const struct sim *s,
                          unsigned long long done)
{
    if (rec_stop(rec))
        return 1;
    if (rec->every) {
        if (done % rec->every)
            return 0;
    } else {
        /* The step nearest each j T: t is exact by the core's rule (sim.h),
         * but j T and t_base + k dt round apart (3 x 0.1 is not 0.3 in
         * binary), so a frame is due from half a step before j T. */
        if (s->t < rec->next_t - 0.5 * s->p.dt)
            return 0;
        double next = (floor((s->t + 0.5 * s->p.dt) / rec->every_t) + 1) * rec->every_t;
        /* a T so small that the count overflows (1e-320): every step */
        rec->next_t = isfinite(next) ? next : s->t;
    }
    return sim_finite(s) ? rec_frame(rec, s, NULL) : 0;
}

/* The event engine's run with frames: every N events exactly, or at the
 * exact times j T; -T stops at T, -n after that many events. Returns
 * EVENT_OK, or 1 after a write error. */
int rec_event_run(const struct options *o, struct event *ev, struct sim *s,
                         struct recorder *rec)
{
    event_to_sim(ev, s);
    if (rec_frame(rec, s, ev))
        return 1;
    long long left = !o->have_steps ? LLONG_MAX
                     : o->steps > (unsigned long long)LLONG_MAX ? LLONG_MAX
                     : (long long)o->steps;
    if (!o->have_time && !o->have_steps)
        return EVENT_OK;
    if (rec->every) {
        long long n = rec->every > (unsigned long long)LLONG_MAX
                          ? LLONG_MAX : (long long)rec->every;
        for (;;) {
            long long want = n < left ? n : left, got;
            if (want <= 0)
                break;
            if (o->have_time) {
                struct event_diag d0, d1;
                event_diag(ev, &d0);
                int rc = event_advance(ev, o->time, want);
                event_diag(ev, &d1);
                got = d1.events - d0.events;
                if (rc == 1 && got < want)
                    break; /* reached T between frames */
            } else {
                got = event_step(ev, want);
            }
            left -= got;
            if (got < want)
                break; /* no more events */
            if (got == n) {
                event_to_sim(ev, s);
                if (rec_frame(rec, s, ev) || rec_stop(rec))
                    return 1;
            }
        }
    } else {
        for (long long j = 1;; j++) {
            double tj = j * rec->every_t;
            if (j > REC_FRAMES_MAX) { /* -n with a T far shorter than the events */
                cli_warn("--every-t: more than 10^9 frames: stopped at t = %.17g", s->t);
                return 1;
            }
            if (o->have_time && tj > o->time)
                break;
            struct event_diag d0, d1;
            event_diag(ev, &d0);
            int rc = event_advance(ev, tj, left == LLONG_MAX ? 0 : left);
            event_diag(ev, &d1);
            left -= d1.events - d0.events;
            if (rc == 0)
                break; /* the -n budget ran out before tj */
            event_to_sim(ev, s);
            if (rec_frame(rec, s, ev) || rec_stop(rec))
                return 1;
        }
    }
    /* -T ends exactly at T, frame or not. */
    if (o->have_time)
        event_advance(ev, o->time, 0);
    return EVENT_OK;
}

/* Bytes a frame takes, about: a ball of --traj (86 measured on 10^5 balls
 * in motion), a row of --series (the event engine's longest). */
#define REC_BALL_BYTES 86.0
#define REC_ROW_BYTES 300.0

/* The frames a headless recording writes (at most: the spring engine's
 * --every-t writes at most one a step), or -1 when not known ahead (the
 * event engine's events over -T). */
static double rec_frames(const struct options *o, const struct sim *s)
{
    const struct rec_options *r = &o->rec;
    if (!o->have_steps && !o->have_time)
        return 1;
    double steps = o->have_steps ? (double)o->steps
                   : o->engine == ENGINE_EVENT ? -1
                   : (double)sim_steps_until(s, o->time);
    if (r->every_t > 0) {
        double by_t = o->have_time ? floor(o->time / r->every_t) : -1;
        if (o->engine == ENGINE_EVENT)
            return by_t < 0 ? -1 : by_t + 1;
        return (by_t < 0 || steps < by_t ? steps : by_t) + 1;
    }
    return steps < 0 ? -1 : floor(steps / (double)(r->every ? r->every : 1)) + 1;
}

/* Bytes free where @p path would be written, or -1 when not known (a pipe,
 * a terminal). */
static double free_bytes(const char *path)
{
    struct statvfs v;
    struct stat st;
    int ok;
    if (!strcmp(path, "-")) {
        ok = fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) &&
             fstatvfs(STDOUT_FILENO, &v) == 0;
    } else if (stat(path, &st) == 0) {
        ok = S_ISREG(st.st_mode) && statvfs(path, &v) == 0;
    } else {
        char dir[4096];
        const char *slash = strrchr(path, '/');
        size_t n = slash ? (size_t)(slash - path) + 1 : 0;
        if (n >= sizeof dir)
            return -1;
        memcpy(dir, path, n);
        strcpy(dir + n, ".");
        ok = statvfs(dir, &v) == 0;
    }
    return ok ? (double)v.f_bavail * (double)v.f_frsize : -1;
}

/* @p bytes as "1.73 GB" or "8.6 TB" (in @p buf). */
static const char *size_text(double bytes, char *buf, size_t size)
{
    int tb = bytes >= 1e12;
    snprintf(buf, size, "%.3g %s", bytes / (tb ? 1e12 : 1e9), tb ? "TB" : "GB");
    return buf;
}

/* Before a recording: refuses (status 2) more than REC_FRAMES_MAX frames
 * or more bytes than the disk has free, and says how large it will be
 * when that is over a gigabyte. Returns 0 or 2. */
int rec_check_size(const struct options *o, const struct sim *s)
{
    double frames = rec_frames(o, s);
    if (frames > REC_FRAMES_MAX) {
        cli_warn("%s: %.3g frames: at most 10^9 (a larger --every or --every-t)",
             o->rec.every_t > 0 ? "--every-t" : "--every", frames);
        return 2;
    }
    const char *paths[2] = {o->rec.traj, o->rec.series};
    for (int k = 0; k < 2 && frames > 0; k++) {
        if (!paths[k])
            continue;
        double bytes = frames * (k ? REC_ROW_BYTES : REC_BALL_BYTES * (double)(s->n + 1)),
               room = free_bytes(paths[k]);
        if (bytes < 1e9)
            continue;
        char b1[32], b2[32];
        if (room >= 0 && bytes > room) {
            cli_warn("%s=%s: about %s (%.0f frames of %zu balls), more than the %s free there",
                 k ? "--series" : "--traj", paths[k], size_text(bytes, b1, sizeof b1), frames,
                 s->n, size_text(room, b2, sizeof b2));
            return 2;
        }
        cli_warn("%s=%s: about %s (%.0f frames of %zu balls)", k ? "--series" : "--traj",
             paths[k], size_text(bytes, b1, sizeof b1), frames, s->n);
    }
    return 0;
}
