/*
 * main.c - the command line: options, loading a scene, a headless run or the
 * terminal front end, and exit codes (0 fine, 1 failure at run time, 2 bad
 * input or usage).
 */
/* lstat, readlink, fileno, statvfs (the curses flags brought these in when
 * main.c was compiled with them) */
#define _POSIX_C_SOURCE 200809L
#include "contact.h"
#include "event.h"
#include "export.h"
#include "bigmem.h"
#include "formats.h"
#include "gravity.h"
#include "lesson.h"
#include "numfmt.h"
#include "record.h"
#include "replay.h"
#include "scene.h"
#include "sim.h"
#include "text.h"
#include "front.h"
#include "words.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define VERSION "0.1.0"

/* === Recording and export (issue 15): the options ===================== */

/* --traj, --series, --every, --every-t and --export=lammps PREFIX. */
struct rec_options {
    const char *traj;           /* --traj=FILE, "-" for stdout; NULL: none */
    const char *series;         /* --series=FILE */
    unsigned long long every;   /* --every=N steps (events); 0: not given */
    double every_t;             /* --every-t=T simulated time; 0: not given */
    const char *export_prefix;  /* --export=lammps PREFIX; NULL: none */
};

enum { OPT_TRAJ = 512, OPT_SERIES, OPT_EVERY, OPT_EVERY_T, OPT_EXPORT };

#define REC_LONGOPTS                                                       \
    {"traj", required_argument, NULL, OPT_TRAJ},                           \
    {"series", required_argument, NULL, OPT_SERIES},                       \
    {"every", required_argument, NULL, OPT_EVERY},                         \
    {"every-t", required_argument, NULL, OPT_EVERY_T},                     \
    {"export", required_argument, NULL, OPT_EXPORT},

/* === end of the recording options ===================================== */

struct options {
    int headless;
    int stats;
    int have_time, have_steps;
    double time;             /* -T: run while t < time */
    unsigned long long steps; /* -n */
    int have_k, have_dt;
    double k, dt;
    const char *scene_path;  /* NULL: the built-in scene */
    int format;              /* FORMATS_AUTO or an enum scene_format */
    int have_theta;
    double theta;            /* --theta: Barnes-Hut opening angle */
    int engine;              /* ENGINE_SPRING or ENGINE_EVENT */
    int snapshot;            /* --snapshot: print one screen, no terminal */
    struct ui_options ui;    /* the terminal front end */
    struct rec_options rec;  /* recording and export (issue 15) */
};

enum { ENGINE_SPRING, ENGINE_EVENT };

/* Prints "springball: " and the message on stderr with its control bytes
 * shown as '?' (an argument echoed there cannot drive the terminal), then
 * a newline. */
static void say(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "springball: %s\n", text_visible(buf));
}

static void warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

_Noreturn static void die_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    fputs("Try 'springball --help' for more information.\n", stderr);
    exit(2);
}

static void usage(void)
{
    fputs(
"Usage: springball [OPTION]... [SCENE]\n"
"Simulate balls on a table with spring collisions and draw them live in the\n"
"terminal. SCENE is a scene file, or - for standard input; without one the\n"
"built-in break scene runs.\n"
"\n"
"  -H, --headless         simulate without the terminal, then print the final\n"
"                         state to standard output as a scene\n"
"  -T, --time=T           simulate until t reaches T (t = steps * dt, exact);\n"
"                         in the terminal, pause there\n"
"  -n, --steps=N          simulate N steps (with -H or --export)\n"
"  -k, --stiffness=K      spring stiffness K > 0 (overrides the scene)\n"
"      --dt=DT            time step DT > 0 (overrides the scene)\n"
"      --stats            print t, steps, energies, momentum and contacts to\n"
"                         standard error at the end\n"
"      --engine=ENGINE    spring (default: Hooke springs, fixed dt) or event\n"
"                         (exact hard balls, event-driven; -n counts events)\n"
"      --format=FORMAT    read SCENE as FORMAT:",
        stdout);
    /* One line a format, from the table: "NAME (HELP)," ... " or" ... ";". */
    for (size_t i = 0; i < formats_count; i++)
        printf("%s%s %s%s\n", i ? "                         " : " ",
               formats_table[i].name, formats_table[i].help,
               i + 1 == formats_count ? ";" : i + 2 == formats_count ? " or" : ",");
    fputs(
"                         or replay a recorded run: xyz (extended XYZ) or\n"
"                         lammpstrj (LAMMPS dump); default: detected from the text\n"
"      --theta=THETA      compute gravity by Barnes-Hut with opening angle\n"
"                         0 < THETA <= 1, or 0 for the exact sum (default:\n"
"                         exact up to 4096 bodies, THETA 0.5 above)\n"
"\n"
"Recording a headless run (FILE - is standard output):\n"
"      --traj=FILE        write the balls every --every steps as extended XYZ\n"
"                         frames (OVITO, ASE), from step 0\n"
"      --series=FILE      write t, step, energies, momentum, contacts as CSV\n"
"      --every=N          a frame every N steps (events with --engine=event);\n"
"                         default 1\n"
"      --every-t=T        a frame every T of simulated time instead\n"
"      --export=lammps PREFIX\n"
"                         write PREFIX.in and PREFIX.data, the scene as a\n"
"                         LAMMPS run of -n/-T steps (lmp -in PREFIX.in),\n"
"                         dumping every --every steps; then exit\n"
"\n"
"Terminal front end (press ? in it for the keys):\n"
"      --fps=N            draw at most N frames a second (default 30)\n"
"      --speed=S          start at S simulated time units per second (default 20;\n"
"                         universe files: 60 dt; particle files: the fastest\n"
"                         ball crosses a quarter of the box a second)\n"
"      --duration=SECS    quit by itself after SECS seconds of wall time\n"
"      --ascii            ASCII glyphs only (also in a non-UTF-8 locale)\n"
"      --no-color         no colour (also when NO_COLOR is set)\n"
"      --paused           start paused, to set the scene up (an empty table does)\n"
"      --cell-aspect=A    a character cell is A times as tall as wide (default 2)\n"
"      --no-mouse         leave the mouse to the terminal (key M toggles it)\n"
"      --save-to=FILE     w saves the scene as FILE (or FILE-2, -3 ... when it\n"
"                         exists; default springball-N.scene here)\n"
"      --keys=KEYS        play the key script KEYS, e.g. '. . <t 40> space up*3\n"
"                         enter' (keys, <t T> waits T of simulated time,\n"
"                         <click COL ROW>; see springball(1))\n"
"      --snapshot[=COLSxROWS]  print the screen after --keys as UTF-8 text\n"
"                         (default 80x24; ANSI colours unless --no-color)\n"
"\n"
"  -h, --help             show this help and exit\n"
"      --version          show the version and exit\n"
"\n"
"Exit status: 0 on success, 1 on a failure at run time, 2 on bad options or\n"
"a bad scene. See springball(1) for the scene format.\n",
        stdout);
}

/* A finite number from an option's argument, or a usage error. */
static double opt_double(const char *opt, const char *arg, double lo, int lo_open)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || !isfinite(v))
        die_usage("%s: '%s' is not a finite number", opt, arg);
    if (lo_open ? !(v > lo) : !(v >= lo))
        die_usage("%s: '%s' must be %s %g", opt, arg, lo_open ? ">" : ">=", lo);
    return v;
}

/* A size of --snapshot at *p, 1 to 1000 in decimal digits alone (no sign,
 * blank or overflow: 4294967297 is no 1), with *p moved past it; 0 when
 * there is none. */
static int dim(const char **p)
{
    int v = 0;
    const char *q = *p;
    for (; *q >= '0' && *q <= '9'; q++)
        if ((v = v * 10 + (*q - '0')) > 1000)
            return 0;
    if (q == *p)
        return 0;
    *p = q;
    return v;
}

static unsigned long long opt_count(const char *opt, const char *arg)
{
    const char *p = arg;
    if (!*p)
        die_usage("%s: '' is not a whole number", opt);
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            die_usage("%s: '%s' is not a whole number", opt, arg);
    errno = 0;
    unsigned long long v = strtoull(arg, NULL, 10);
    if (errno == ERANGE)
        die_usage("%s: '%s' is too large", opt, arg);
    return v;
}

/* Exits 0 once standard output is written, or 1 on a write error
 * (--help > /dev/full). */
_Noreturn static void exit_flushed(void)
{
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        exit(1);
    }
    exit(0);
}

/* Why getopt_long refused the long option @p arg ("--name[=value]"): an
 * ambiguous abbreviation, a value given to an option that takes none, or a
 * name it does not know. */
_Noreturn static void die_long_option(const char *arg, const struct option *longopts)
{
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    const struct option *hit = NULL;
    int matches = 0;
    char list[256] = "";
    for (const struct option *o = longopts; o->name; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len) { /* an exact name wins */
            hit = o;
            matches = 1;
            break;
        }
        hit = o;
        matches++;
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s--%s", at ? ", " : "", o->name);
    }
    if (matches == 1 && name[len] == '=' && hit->has_arg == no_argument)
        die_usage("option '--%s' takes no value", hit->name);
    if (matches > 1)
        die_usage("option '--%.*s' is ambiguous: %s", (int)len, name, list);
    die_usage("unknown option '--%.*s'", (int)len, name);
}

/* --save-to's FILE: a name w can write, FILE or FILE-N beside it. */
static const char *save_to(const char *arg)
{
    struct stat st;
    if (!*arg)
        die_usage("--save-to: the file name is empty");
    if (strlen(arg) > SAVE_TO_MAX)
        die_usage("--save-to: the name is longer than %d bytes", SAVE_TO_MAX);
    if (stat(arg, &st) == 0 && !S_ISREG(st.st_mode))
        die_usage("--save-to: '%s' is not a regular file (w writes a new file)", arg);
    return arg;
}

enum { OPT_DT = 256, OPT_STATS, OPT_VERSION, OPT_FORMAT, OPT_THETA, OPT_ENGINE,
       OPT_FPS, OPT_SPEED, OPT_DURATION, OPT_ASCII, OPT_NO_COLOR, OPT_PAUSED, OPT_CELL_ASPECT,
       OPT_SNAPSHOT, OPT_KEYS, OPT_NO_MOUSE, OPT_SAVE_TO };

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
static void rec_option(int c, const char *arg, int argc, char **argv,
                       struct rec_options *r)
{
    switch (c) {
    case OPT_TRAJ:
    case OPT_SERIES:
        if (!*arg)
            die_usage("%s: the file name is empty", c == OPT_TRAJ ? "--traj" : "--series");
        *(c == OPT_TRAJ ? &r->traj : &r->series) = arg;
        break;
    case OPT_EVERY:
        r->every = opt_count("--every", arg);
        if (r->every == 0)
            die_usage("--every: '%s' must be >= 1", arg);
        break;
    case OPT_EVERY_T:
        r->every_t = opt_double("--every-t", arg, 0, 1);
        break;
    case OPT_EXPORT:
        if (strcmp(arg, "lammps") != 0)
            die_usage("--export: unknown format '%s' (use lammps)", arg);
        if (optind >= argc || !*argv[optind] || argv[optind][0] == '-')
            die_usage("--export=lammps needs a PREFIX for PREFIX.in and PREFIX.data");
        r->export_prefix = argv[optind++];
        if (lammps_unsafe(r->export_prefix))
            die_usage("--export=lammps: PREFIX '%s' has a blank, quote, $, #, &, "
                      "brace, * or %%, which LAMMPS would not read back (* and %% make "
                      "per-step and per-rank files)", r->export_prefix);
        break;
    }
}

static void rec_check_options(const struct options *o)
{
    const struct rec_options *r = &o->rec;
    if (r->every && r->every_t > 0)
        die_usage("give --every or --every-t, not both");
    if ((r->every || r->every_t > 0) && !r->traj && !r->series && !r->export_prefix)
        die_usage("--every and --every-t need --traj, --series or --export");
    if (r->traj && r->series && !strcmp(r->traj, "-") && !strcmp(r->series, "-"))
        die_usage("--traj and --series cannot both write to standard output");
    if (r->traj && r->series && !strcmp(r->traj, r->series))
        die_usage("--traj and --series cannot write to the same file '%s'", r->traj);
    if ((r->traj || r->series) && !o->headless && !r->export_prefix)
        die_usage("--traj and --series record a headless run: add -H "
                  "(in the terminal, R records)");
    if (r->export_prefix && (r->traj || r->series))
        die_usage("--export writes a LAMMPS run and does not simulate: "
                  "drop --traj and --series");
    if (r->export_prefix && !o->have_steps && !o->have_time)
        die_usage("--export=lammps needs the run length: -n STEPS or -T TIME");
    if (r->export_prefix && o->engine == ENGINE_EVENT)
        die_usage("--export=lammps: the event engine has no LAMMPS equivalent "
                  "(gran/hooke is the spring engine)");
}

/* Which file a path names: its device and inode, or, for a file not there
 * yet, its directory's with its last name (d/a and d/./a are one file
 * before either exists); "-" is standard input (@p fd 0) or output (1). A
 * symbolic link is followed, also one to a file not there yet. */
struct file_id {
    dev_t dev;
    ino_t ino;
    int reg;          /* a regular file, there now */
    char name[256];   /* the last name of a file not there yet, else "" */
};

static int file_id(const char *path, int fd, struct file_id *id, int depth)
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

static int same_file(const struct file_id *a, const struct file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && !strcmp(a->name, b->name);
}

/* Refuses (status 2) an output that is the scene being read or the other
 * output: files are compared by what they are, not by their names
 * (--traj=in.scene in.scene, --traj=/dev/stdout --series=-). */
static void check_outputs(const struct options *o)
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
            die_usage("%s: '%s' is the scene file being read", opt[k], outs[k]);
    }
    if (outs[0] && outs[1] && same_file(&id[0], &id[1]))
        die_usage("--traj and --series cannot write to the same file ('%s' is '%s')",
                  outs[0], outs[1]);
}

/* 1 when @p path ("-" too) is the file standard output writes to. */
static int is_stdout(const char *path)
{
    struct file_id a, b;
    return path && (!strcmp(path, "-") ||
                    (file_id(path, 1, &a, 0) == 0 && file_id("-", 1, &b, 0) == 0 &&
                     same_file(&a, &b)));
}

/* The most frames a recording writes: beyond, a cadence like
 * --every-t=1e-300 would write for ever. */
#define REC_FRAMES_MAX 1e9

/* The files of a recorded run and where its cadence stands. The files
 * are opened at the first frame, so that a run refused before it (bad
 * input to the event engine) leaves existing files as they were. */
struct recorder {
    struct record traj, series;
    const char *want_traj, *want_series; /* the paths asked for */
    const char *traj_path, *series_path; /* the files open */
    int opened;               /* the files were opened (or failed to) */
    int events;               /* the event engine's rows */
    unsigned long long every; /* steps or events between frames, 0 with every_t */
    double every_t;           /* simulated time between frames, 0 with every */
    double next_t;            /* every_t: the time of the next frame */
    const char *failed;       /* the path of a failed write, NULL while fine */
    int err;
    struct sim obs;           /* the spring engine's observed state (sim.h) */
};

static int rec_active(const struct recorder *rec)
{
    return rec && (rec->want_traj || rec->want_series);
}

static void rec_init(struct recorder *rec, const struct rec_options *r, int events)
{
    memset(rec, 0, sizeof *rec);
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
            warn("%s: cannot write: %s", paths[k], strerror(errno));
            if (k == 1 && rec->traj_path)
                record_close(&rec->traj);
            rec->traj_path = NULL;
            return 1;
        }
        *(k ? &rec->series_path : &rec->traj_path) = paths[k];
    }
    if (rec->series_path)
        record_series_header(&rec->series, &s->p, rec->events);
    return 0;
}

/* Writes a frame and a row of the state in s (and ev in the event engine).
 * Opens the files at the first frame. Returns nonzero after a write error
 * or when a file cannot be opened (reported then): the run stops. */
static int rec_frame(struct recorder *rec, const struct sim *s, const struct event *ev)
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
    if (rec->traj.err && !rec->failed)
        rec->failed = rec->traj_path, rec->err = rec->traj.err;
    if (rec->series.err && !rec->failed)
        rec->failed = rec->series_path, rec->err = rec->series.err;
    return rec->failed != NULL;
}

/* Closes the files: returns 1 with the reason printed when a write failed. */
static int rec_close(struct recorder *rec)
{
    int e1 = rec->traj_path ? record_close(&rec->traj) : 0;
    int e2 = rec->series_path ? record_close(&rec->series) : 0;
    sim_free(&rec->obs);
    if (!rec->failed && (e1 || e2)) {
        rec->failed = e1 ? rec->traj_path : rec->series_path;
        rec->err = e1 ? e1 : e2;
    }
    if (rec->failed) {
        warn("%s: write error: %s",
             strcmp(rec->failed, "-") ? rec->failed : "standard output",
             strerror(rec->err));
        return 1;
    }
    return 0;
}

/* The spring engine's hook after each step (done steps so far): a frame
 * when due. A non-finite state is not written (run_spring reports it
 * within FINITE_EVERY steps). Returns 1 after a write error. */
static int rec_after_step(struct recorder *rec, const struct sim *s,
                          unsigned long long done)
{
    if (rec->every) {
        if (done % rec->every)
            return 0;
    } else {
        /* t grows by repeated addition of dt: half a step of slack. */
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
static int rec_event_run(const struct options *o, struct event *ev, struct sim *s,
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
                if (rec_frame(rec, s, ev))
                    return 1;
            }
        }
    } else {
        for (long long j = 1;; j++) {
            double tj = j * rec->every_t;
            if (j > REC_FRAMES_MAX) { /* -n with a T far shorter than the events */
                warn("--every-t: more than 10^9 frames: stopped at t = %.17g", s->t);
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
            if (rec_frame(rec, s, ev))
                return 1;
        }
    }
    /* -T ends exactly at T, frame or not. */
    if (o->have_time)
        event_advance(ev, o->time, 0);
    return EVENT_OK;
}

/* The export's run length and dump interval in steps, both at most
 * EXPORT_LAMMPS_MAX (LAMMPS reads them as ints: "Invalid run command N
 * value", "Invalid dump frequency"); -T by the core's rule, --every-t
 * rounded to steps in double (a huge T/dt is refused, not converted).
 * Returns 0, or 2 with a message. */
static int export_length(const struct options *o, const struct sim *s,
                         unsigned long long *steps, unsigned long long *every)
{
    const unsigned long long max = EXPORT_LAMMPS_MAX;
    *steps = o->have_steps ? o->steps : sim_steps_until(s, o->time);
    if (*steps > max) {
        if (o->have_steps)
            warn("--export=lammps: a run of %llu steps is more than LAMMPS takes "
                 "in one run (%llu)", *steps, max);
        else
            warn("--export=lammps: -T %g at dt %g is more than the %llu steps "
                 "LAMMPS takes in one run", o->time, s->p.dt, max);
        return 2;
    }
    double e = o->rec.every_t > 0 ? fmax(1, round(o->rec.every_t / s->p.dt)) : 0;
    if (o->rec.every > max || !(e <= (double)max)) {
        if (o->rec.every)
            warn("--export=lammps: a dump every %llu steps is more than LAMMPS "
                 "takes (%llu)", o->rec.every, max);
        else
            warn("--export=lammps: --every-t %g at dt %g is more than the %llu "
                 "steps LAMMPS takes between dumps", o->rec.every_t, s->p.dt, max);
        return 2;
    }
    *every = o->rec.every ? o->rec.every : (unsigned long long)e;
    return 0;
}

/* Writes PREFIX.in and PREFIX.data; returns the exit status. */
static int run_export(const struct options *o, const struct scene *sc)
{
    struct sim s;
    if (scene_to_sim(sc, &s)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    const char *why = export_lammps_unsupported(&s);
    if (why) {
        fprintf(stderr, "springball: --export=lammps: LAMMPS's gran/hooke mapping "
                        "has no equivalent of %s\n", why);
        sim_free(&s);
        return 2;
    }
    unsigned long long steps, every;
    if (export_length(o, &s, &steps, &every)) {
        sim_free(&s);
        return 2;
    }
    const char *prefix = o->rec.export_prefix;
    size_t len = strlen(prefix) + 8;
    char *in_name = malloc(len), *data_name = malloc(len);
    int rc = 0;
    if (!in_name || !data_name) {
        fputs("springball: out of memory\n", stderr);
        rc = 1;
    }
    struct export_run run = {
        .data_name = data_name,
        .dump_prefix = prefix,
        .steps = steps,
        .every = every,
        .title = sc->title,
    };
    struct file_id scene_id, id;
    int have_in = o->scene_path && file_id(o->scene_path, 0, &scene_id, 0) == 0 &&
                  scene_id.reg;
    for (int k = 0; k < 2 && rc == 0; k++) {
        char *name = k ? in_name : data_name;
        snprintf(name, len, "%s.%s", prefix, k ? "in" : "data");
        if (have_in && file_id(name, 1, &id, 0) == 0 && same_file(&id, &scene_id)) {
            warn("--export: '%s' is the scene file being read", name);
            rc = 2;
            break;
        }
        FILE *f = fopen(name, "w");
        if (!f) {
            warn("%s: cannot write: %s", name, strerror(errno));
            rc = 1;
            break;
        }
        if (k)
            export_lammps_in(f, &s, &run);
        else
            export_lammps_data(f, &s, sc->title);
        if (fflush(f) || ferror(f)) {
            warn("%s: write error: %s", name, strerror(errno));
            rc = 1;
        }
        if (fclose(f) && rc == 0) {
            warn("%s: write error: %s", name, strerror(errno));
            rc = 1;
        }
        if (rc) /* no partial file (a full disk) */
            remove(name);
    }
    free(in_name);
    free(data_name);
    sim_free(&s);
    return rc;
}

/* === end of recording and export ====================================== */

static void parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"headless", no_argument, NULL, 'H'},
        {"time", required_argument, NULL, 'T'},
        {"steps", required_argument, NULL, 'n'},
        {"stiffness", required_argument, NULL, 'k'},
        {"dt", required_argument, NULL, OPT_DT},
        {"stats", no_argument, NULL, OPT_STATS},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"theta", required_argument, NULL, OPT_THETA},
        {"engine", required_argument, NULL, OPT_ENGINE},
        {"fps", required_argument, NULL, OPT_FPS},
        {"speed", required_argument, NULL, OPT_SPEED},
        {"duration", required_argument, NULL, OPT_DURATION},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"no-color", no_argument, NULL, OPT_NO_COLOR},
        {"paused", no_argument, NULL, OPT_PAUSED},
        {"cell-aspect", required_argument, NULL, OPT_CELL_ASPECT},
        {"snapshot", optional_argument, NULL, OPT_SNAPSHOT},
        {"keys", required_argument, NULL, OPT_KEYS},
        {"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
        {"save-to", required_argument, NULL, OPT_SAVE_TO},
        REC_LONGOPTS
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    ui_default_options(&o->ui);
    o->engine = ENGINE_SPRING;
    o->format = FORMATS_AUTO;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":HT:n:k:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'H': o->headless = 1; break;
        case 'T':
            o->have_time = 1;
            o->time = opt_double("--time", optarg, 0, 0);
            break;
        case 'n':
            o->have_steps = 1;
            o->steps = opt_count("--steps", optarg);
            break;
        case 'k':
            o->have_k = 1;
            o->k = opt_double("--stiffness", optarg, 0, 1);
            break;
        case OPT_DT:
            o->have_dt = 1;
            o->dt = opt_double("--dt", optarg, 0, 1);
            break;
        case OPT_STATS: o->stats = 1; break;
        case OPT_FORMAT:
            if (strcmp(optarg, "xyz") == 0) {
                o->format = FORMATS_XYZ;
                break;
            }
            if (strcmp(optarg, "lammpstrj") == 0) {
                o->format = FORMATS_LAMMPSTRJ;
                break;
            }
            o->format = formats_named(optarg);
            if (o->format < 0) {
                char names[256];
                die_usage("--format: unknown format '%s' (use %s; xyz or lammpstrj "
                          "replay a recorded run)", optarg,
                          formats_names(names, sizeof names));
            }
            break;
        case OPT_THETA:
            o->have_theta = 1;
            o->theta = opt_double("--theta", optarg, 0, 0);
            if (o->theta > GRAVITY_THETA_MAX)
                die_usage("--theta: '%s' must be <= %g", optarg, GRAVITY_THETA_MAX);
            break;
        case OPT_ENGINE:
            if (strcmp(optarg, "spring") == 0)
                o->engine = ENGINE_SPRING;
            else if (strcmp(optarg, "event") == 0)
                o->engine = ENGINE_EVENT;
            else
                die_usage("--engine: '%s' is not spring or event", optarg);
            break;
        case OPT_FPS:
            o->ui.fps = opt_double("--fps", optarg, 0, 1);
            if (o->ui.fps > 1000)
                die_usage("--fps: '%s' must be <= 1000", optarg);
            /* A frame's wait is an int of milliseconds. */
            if (o->ui.fps < 0.01)
                die_usage("--fps: '%s' must be >= 0.01", optarg);
            break;
        case OPT_SPEED:
            o->ui.speed = opt_double("--speed", optarg, 0, 1);
            break;
        case OPT_DURATION:
            o->ui.duration = opt_double("--duration", optarg, 0, 1);
            /* The wait until then is an int of milliseconds. */
            if (o->ui.duration > 1e6)
                die_usage("--duration: '%s' must be <= 1e6 (seconds)", optarg);
            break;
        case OPT_ASCII: o->ui.ascii = 1; break;
        case OPT_NO_COLOR: o->ui.no_color = 1; break;
        case OPT_PAUSED: o->ui.paused = 1; break;
        case OPT_CELL_ASPECT:
            o->ui.cell_aspect = opt_double("--cell-aspect", optarg, 0, 1);
            if (o->ui.cell_aspect > 10)
                die_usage("--cell-aspect: '%s' must be <= 10", optarg);
            break;
        case OPT_SNAPSHOT:
            o->snapshot = 1;
            if (optarg) {
                const char *q = optarg;
                int cols = dim(&q), rows = *q == 'x' ? (q++, dim(&q)) : 0;
                if (*q || cols < 1 || rows < 1)
                    die_usage("--snapshot: '%s' is not COLSxROWS (1 to 1000 each)", optarg);
                o->ui.snap_cols = cols;
                o->ui.snap_rows = rows;
            }
            break;
        case OPT_KEYS: o->ui.keys = optarg; break;
        case OPT_NO_MOUSE: o->ui.mouse = 0; break;
        case OPT_SAVE_TO: o->ui.save_to = save_to(optarg); break;
        case OPT_TRAJ: case OPT_SERIES: case OPT_EVERY: case OPT_EVERY_T:
        case OPT_EXPORT:
            rec_option(c, optarg, argc, argv, &o->rec);
            break;
        case 'h': usage(); exit_flushed();
        case OPT_VERSION: puts("springball " VERSION); exit_flushed();
        case ':':
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                die_usage("option '-%c' needs an argument", optopt);
            die_usage("option '%s' needs an argument", argv[optind - 1]);
            break;
        default:
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                die_usage("unknown option '-%c'", optopt);
            die_long_option(argv[optind - 1], longopts);
        }
    }
    if (o->have_time && o->have_steps)
        die_usage("give --time or --steps, not both");
    if (optind < argc)
        o->scene_path = argv[optind++];
    if (o->scene_path && !*o->scene_path)
        die_usage("the scene file name is empty");
    if (optind < argc)
        die_usage("only one scene at a time ('%s' is extra)", argv[optind]);
    rec_check_options(o);
}

/* Reads a whole stream into a NUL-terminated buffer, or up to its first
 * NUL byte, which no text format holds (the parser then names its line):
 * /dev/zero once read 4.2 GB before failing. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    /* A regular file: its size in one read, with no copying as the buffer
     * grows (a 85 MB scene of 10^6 balls took 11 reallocations); the loop
     * below then reads what the file grew by, if anything. */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < ((size_t)-1) / 2 - 2)
        cap = (size_t)st.st_size + 2;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        if (cap - n < 2) {
            char *nb = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        const char *nul = memchr(buf + n, 0, got);
        n += got;
        if (nul) {
            n = (size_t)(nul - buf) + 1;
            break;
        }
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                errno = e ? e : EIO;
                return NULL;
            }
            break;
        }
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The scene's name for a message, its control bytes shown as '?'. */
static const char *shown_name(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s", name);
    return text_visible(buf);
}

/* A lesson (lesson.h) read as @p name from @p path: its steps into @p ls
 * and its scene (its own lines, or `scene FILE` beside it) into @p sc, or
 * "FILE:LINE: what" reported (in the lesson or in its scene file) and exit. */
static void load_lesson(const char *path, const char *name, const char *text, size_t len,
                        struct scene *sc, struct lesson *ls)
{
    struct scene_error err;
    if (lesson_parse(ls, text, len, &err)) {
        fprintf(stderr, "%s:%d: %s\n", shown_name(name), err.line, err.msg);
        exit(err.nomem ? 1 : 2);
    }
    char *file = NULL, *ftext = NULL;
    size_t flen = 0;
    if (ls->scene_file) {
        file = lesson_file_path(ls, path);
        FILE *f = file ? fopen(file, "rb") : NULL;
        ftext = f ? read_all(f, &flen) : NULL;
        int e = file ? errno : ENOMEM;
        if (f)
            fclose(f);
        if (!ftext) {
            char where[1024];
            snprintf(where, sizeof where, "%s", shown_name(name));
            fprintf(stderr, "%s:%d: scene: cannot read %s: %s\n", where, ls->scene_line,
                    file ? shown_name(file) : "", strerror(e));
            exit(e == ENOMEM ? 1 : 2);
        }
    }
    if (ftext && formats_parse(sc, ftext, flen, FORMATS_AUTO, &err)) {
        fprintf(stderr, "%s:%d: %s\n", shown_name(file), err.line, err.msg);
        exit(err.nomem ? 1 : 2);
    }
    free(ftext);
    if (lesson_scene(ls, sc, &err)) {
        fprintf(stderr, "%s:%d: %s\n", shown_name(name), err.line, err.msg);
        exit(err.nomem ? 1 : 2);
    }
    free(file);
}

/* Loads and parses the scene (or the lesson, into @p ls), or reports
 * "FILE:LINE: what" and exits 2. */
static void load_scene(const struct options *o, struct scene *sc, const char **name,
                       struct lesson *ls)
{
    char *text;
    size_t len;
    if (!o->scene_path) {
        *name = "(built-in)";
        text = NULL;
        len = strlen(scene_builtin);
    } else {
        int is_stdin = strcmp(o->scene_path, "-") == 0;
        *name = is_stdin ? "<stdin>" : o->scene_path;
        FILE *f = is_stdin ? stdin : fopen(o->scene_path, "rb");
        text = f ? read_all(f, &len) : NULL;
        int e = errno;
        if (f && !is_stdin)
            fclose(f);
        if (!text) {
            fprintf(stderr, "%s:0: cannot read: %s\n", shown_name(*name), strerror(e));
            exit(e == ENOMEM ? 1 : 2); /* memory, not the input, failed */
        }
    }
    if (text && (o->format == SCENE_FORMAT_LESSON ||
                 (o->format == FORMATS_AUTO && lesson_detect(text, len)))) {
        load_lesson(o->scene_path, *name, text, len, sc, ls);
        free(text);
        return;
    }
    struct scene_error err;
    int rc = formats_parse(sc, text ? text : scene_builtin, len, o->format, &err);
    free(text);
    if (rc) {
        fprintf(stderr, "%s:%d: %s\n", shown_name(*name), err.line, err.msg);
        exit(err.nomem ? 1 : 2); /* out of memory is a failure, not bad input */
    }
}

/* The shortest digits that read back as @p v (numfmt.h), in @p buf. */
static const char *num(char *buf, double v)
{
    numfmt_double(buf, v);
    return buf;
}

static int print_stats(const struct sim *run)
{
    /* the observed state (sim.h): what the screen and --series show */
    struct sim_diag d;
    struct sim obs = {0};
    int rc = sim_observe(run, &obs);
    const struct sim *s = rc == -1 ? run : &obs;
    if (rc == SIM_OK)
        rc = sim_diag(s, &d);
    if (rc) {
        sim_free(&obs);
        fprintf(stderr, "springball: --stats: %s\n", sim_strerror(rc));
        return 1;
    }
    char b[6][NUMFMT_MAX];
    fprintf(stderr, "t=%s steps=%lld ke=%s pe=%s e=%s px=%s py=%s contacts=%ld",
            num(b[0], s->t), s->steps, num(b[1], d.ke), num(b[2], d.pe),
            num(b[3], d.e), num(b[4], d.px), num(b[5], d.py), d.contacts);
    /* The other systems add their fields after the original ones; a plain
     * Hooke scene keeps the line it always had. */
    if (!sim_hooke_rect(&s->p))
        fprintf(stderr, " pg=%s dissipated=%s clamps=%lld", num(b[0], d.pg),
                num(b[1], d.dissipated), d.clamps);
    /* A field adds its potential (in e), open sides the balls gone. */
    if (s->p.gx != 0 || s->p.gy != 0)
        fprintf(stderr, " pf=%s", num(b[0], d.pf));
    if (s->p.open)
        fprintf(stderr, " out=%ld", d.out);
    fputc('\n', stderr);
    sim_free(&obs);
    return 0;
}

/* The diagnostics line of the event engine: the same fields first (steps
 * counts events; hard balls store no energy, so pe is 0 and e = ke + pf),
 * then the event counters, then dissipated= (friction), pf= and out= as on
 * the spring line. */
static void print_event_stats(const struct sim *s, const struct event *ev)
{
    struct sim_diag d;
    struct event_diag ed;
    sim_diag(s, &d);
    event_diag(ev, &ed);
    char b[9][NUMFMT_MAX];
    fprintf(stderr, "t=%s steps=%lld ke=%s pe=%s e=%s px=%s py=%s contacts=%ld "
                    "engine=event collisions=%lld walls=%lld per_ball=%s "
                    "max_ball=%lld mft=%s de=%s",
            num(b[0], s->t), ed.events, num(b[1], ed.ke), num(b[2], 0.0),
            num(b[3], ed.e), num(b[4], ed.px), num(b[5], ed.py), d.contacts,
            ed.collisions, ed.walls, num(b[6], ed.per_ball), ed.max_ball,
            num(b[7], ed.mft), num(b[8], ed.de));
    if (s->p.friction)
        fprintf(stderr, " dissipated=%s", num(b[0], ed.e0 - ed.e));
    if (s->p.gx != 0 || s->p.gy != 0)
        fprintf(stderr, " pf=%s", num(b[0], ed.pf));
    if (s->p.open)
        fprintf(stderr, " out=%ld", ed.out);
    fputc('\n', stderr);
}

/* The event engine stopped on a state that is not finite (issue 27.17):
 * which event, which balls (counted from 1 in scene order), when and why. */
static void say_event_stop(const struct event_stop *st, const struct sim *s)
{
    char w[256];
    size_t i = sim_ball(s, st->i) + 1, j = sim_ball(s, st->j) + 1;
    words_event_stop(w, sizeof w, st->cause, i < j ? i : j, i < j ? j : i, st->t);
    fprintf(stderr, "springball: the state became non-finite (event engine): %s\n", w);
}

/* Runs the event engine on @p s: -T stops exactly at T, -n counts events
 * (collisions and wall bounces); the state is then written back into s.
 * Returns 0 with *ev live, or an exit status with a message printed. */
static int run_event(const struct options *o, struct sim *s, struct event *ev,
                     struct recorder *rec)
{
    /* Say so rather than run something else under the engine's name. */
    const char *why = event_unsupported(&s->p);
    if (why) {
        fprintf(stderr, "springball: event engine: cannot simulate %s "
                        "(use --engine=spring)\n", why);
        return 2;
    }
    struct event_fault f;
    int rc = event_init(ev, s, NULL, &f);
    if (rc == EVENT_EOVERLAP || rc == EVENT_EWALL || rc == EVENT_EFIELD) {
        char msg[160];
        size_t i = rc != EVENT_EFIELD ? sim_ball(s, f.i) + 1 : 0;
        size_t j = rc == EVENT_EOVERLAP ? sim_ball(s, f.j) + 1 : 0;
        fprintf(stderr, "springball: %s\n", words_event_fault(msg, sizeof msg, rc, i, j));
        return 2;
    }
    if (rc == EVENT_OK && rec_active(rec)) {
        rc = rec_event_run(o, ev, s, rec);
        if (rc == 1) { /* a write error, reported by rec_close */
            event_free(ev);
            return 1;
        }
    } else if (rc == EVENT_OK && o->have_time)
        event_advance(ev, o->time, 0);
    else if (rc == EVENT_OK && o->have_steps)
        event_step(ev, o->steps > (unsigned long long)LLONG_MAX
                           ? LLONG_MAX : (long long)o->steps);
    if (rc != EVENT_OK) {
        event_free(ev);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    event_to_sim(ev, s);
    return 0;
}

/*
 * Whether the forces of @p s overflow whatever dt is, so that a state that
 * becomes non-finite is no matter of dt: they do at the start (a radius of
 * 1e308 pressed into a wall, masses of 1e300 under gravity), or the
 * exponential contact's force at the closest gap its clamp allows does
 * (contact exp 1e-300 1e300). Leaves fx, fy set.
 */
static int forces_overflow(struct sim *s)
{
    if (sim_forces(s) != SIM_OK)
        return 0;
    double mmax = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!isfinite(s->fx[i]) || !isfinite(s->fy[i]))
            return 1;
        mmax = fmax(mmax, fabs(s->m[i]));
    }
    return s->p.contact == SIM_CONTACT_EXP &&
           !isfinite(0.5 * mmax * s->p.exp_kappa / (CONTACT_EXP_GMIN * s->p.exp_eps));
}

/* Steps between the finiteness checks of a headless spring run. */
enum { FINITE_EVERY = 64 };

/*
 * The fixed-step loop of a headless run: -n N steps, -T the steps that
 * reach T by the core's rule (sim_steps_until, as the export counts them).
 * Every FINITE_EVERY steps (and at the end) the state is checked; a state
 * that went non-finite is not a scene, so the run stops there: it replays
 * the last FINITE_EVERY steps from a copy one at a time to name the first
 * non-finite step, prints that on stderr and returns 1 (nothing on stdout).
 * (t never stalls in practice: t + dt == t needs some 2^52 steps from 0.)
 * Returns 0, or an exit status with a message printed.
 */
static int run_spring(const struct options *o, struct sim *s, struct recorder *rec)
{
    struct sim good;
    if (rec_active(rec) && rec_after_step(rec, s, 0))
        return 1;
    if (!o->have_time && !o->have_steps)
        return 0;
    const unsigned long long steps = o->have_time ? sim_steps_until(s, o->time) : o->steps;
    /* No step to take (-n 0, a load and print): no copy to replay from and
     * no forces to check, when the state is finite (the parser's always is). */
    if (steps == 0 && sim_finite(s))
        return 0;
    if (sim_init(&good, s->n, &s->p)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    sim_copy(&good, s);
    const int overflow = forces_overflow(s);
    unsigned long long done = 0;
    int rc = 0;
    for (;;) {
        int more = done < steps;
        if (!more || done % FINITE_EVERY == 0) {
            if (!sim_finite(s)) {
                /* The copy is finite: replay to the first bad step (at most
                 * the steps since the copy, should a replay differ). */
                long long bad = s->steps;
                double bad_t = s->t;
                sim_copy(s, &good);
                do {
                    sim_copy(&good, s); /* the state before the step */
                    sim_step(s);
                } while (sim_finite(s) && s->steps < bad);
                if (sim_finite(s)) {
                    s->steps = bad;
                    s->t = bad_t;
                }
                char tb[NUMFMT_MAX];
                if (!overflow)
                    fprintf(stderr, "springball: the state became non-finite at "
                                    "step %lld (t = %s): dt is too large for %s\n",
                            s->steps, num(tb, s->t),
                            s->p.gravity != 0 || s->p.gx != 0 || s->p.gy != 0
                                ? "the forces" : "k");
                else
                    fprintf(stderr, "springball: the forces overflow at step %lld "
                                    "(t = %s): the scene's sizes or strengths are "
                                    "beyond the range of double (no dt helps)\n",
                            s->steps, num(tb, s->t));
                rc = 1;
                break;
            }
            sim_copy(&good, s);
        }
        if (!more)
            break;
        /* No broad phase (memory): say so and stop, rather than crawl
         * through all pairs of a large scene. */
        int src = sim_step(s);
        if (src) {
            fprintf(stderr, "springball: %s at step %lld (the contact grid "
                            "of %zu balls)\n", sim_strerror(src), s->steps, s->n);
            rc = 1;
            break;
        }
        done++;
        if (rec_active(rec) && rec_after_step(rec, s, done)) {
            rc = 1; /* a write error, reported by rec_close */
            break;
        }
    }
    sim_free(&good);
    return rc;
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
static int rec_check_size(const struct options *o, const struct sim *s)
{
    double frames = rec_frames(o, s);
    if (frames > REC_FRAMES_MAX) {
        warn("%s: %.3g frames: at most 10^9 (a larger --every or --every-t)",
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
            warn("%s=%s: about %s (%.0f frames of %zu balls), more than the %s free there",
                 k ? "--series" : "--traj", paths[k], size_text(bytes, b1, sizeof b1), frames,
                 s->n, size_text(room, b2, sizeof b2));
            return 2;
        }
        warn("%s=%s: about %s (%.0f frames of %zu balls)", k ? "--series" : "--traj",
             paths[k], size_text(bytes, b1, sizeof b1), frames, s->n);
    }
    return 0;
}

static int run_headless(const struct options *o, const struct scene *sc)
{
    struct sim s;
    struct event ev;
    struct recorder rec;
    int erc = 0;
    if (scene_to_sim(sc, &s)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    rec_init(&rec, &o->rec, o->engine == ENGINE_EVENT);
    if (rec_active(&rec) && (erc = rec_check_size(o, &s)) != 0) {
        sim_free(&s);
        return erc;
    }
    if (o->engine == ENGINE_EVENT) {
        erc = run_event(o, &s, &ev, &rec);
        if (erc == 0 && !sim_finite(&s)) {
            say_event_stop(&ev.stop, &s);
            event_free(&ev);
            erc = 1;
        }
    } else {
        erc = run_spring(o, &s, &rec);
    }
    /* A write error of the recording is the run's failure (the engine
     * is live when the run itself went well). */
    if (rec_close(&rec) && !erc) {
        if (o->engine == ENGINE_EVENT)
            event_free(&ev);
        erc = 1;
    }
    if (erc) {
        sim_free(&s);
        return erc;
    }
    /* A recording on standard output (by any name) takes the place of the
     * final state. */
    int rec_stdout = is_stdout(o->rec.traj) || is_stdout(o->rec.series);
    /* The statistics before the state: with both on one file (2>&1), the
     * line once went where stdout's buffer happened to fill, inside a
     * ball's line. */
    if (o->stats && o->engine == ENGINE_EVENT)
        print_event_stats(&s, &ev);
    else if (o->stats && print_stats(&s))
        erc = 1;
    if (!rec_stdout)
        formats_write(stdout, sc, &s);
    if (o->engine == ENGINE_EVENT)
        event_free(&ev);
    sim_free(&s);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        return 1;
    }
    return erc;
}

/* A recorded run as SCENE (replay.h): nothing is simulated. */
static int replay(const struct options *o)
{
    if (o->rec.traj || o->rec.series || o->rec.export_prefix)
        die_usage("a recorded run is replayed, not simulated: drop --traj, --series "
                  "and --export");
    if (!strcmp(o->scene_path, "-"))
        die_usage("a recorded run is read from a file, not standard input");
    if (o->have_k || o->have_dt || o->have_theta || o->engine == ENGINE_EVENT)
        die_usage("-k, --dt, --theta and --engine set a simulation: a recorded run "
                  "is replayed with its own k and dt");
    if (!o->headless && !o->snapshot && !isatty(STDOUT_FILENO)) {
        fputs("springball: standard output is not a terminal "
              "(use -H for a headless run)\n", stderr);
        return 2;
    }
    struct replay_options ro = {o->headless, o->stats, o->snapshot, o->have_steps,
                                o->steps, o->have_time, o->time};
    return replay_main(o->scene_path, o->format, &ro, &o->ui);
}

int main(int argc, char **argv)
{
    struct options o;
    bigmem_install(); /* the engines' large arrays on huge pages */
    parse_options(argc, argv, &o);
    if (o.headless && o.snapshot)
        die_usage("give -H or --snapshot, not both");
    if (o.headless && o.ui.keys)
        die_usage("--keys is for the terminal or --snapshot, not -H");
    check_outputs(&o);
    /* A closed pipe is a write error, reported, not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    if ((o.format == FORMATS_XYZ || o.format == FORMATS_LAMMPSTRJ) && !o.scene_path)
        die_usage("--format=%s replays a recorded run: give its FILE",
                  o.format == FORMATS_XYZ ? "xyz" : "lammpstrj");
    if (o.scene_path && replay_is_run(o.scene_path, o.format))
        return replay(&o);
    /* (a replay's -n is a frame) */
    if (o.have_steps && !o.headless && !o.rec.export_prefix)
        die_usage("-n counts the steps of a headless run or an export: add -H "
                  "(in the terminal, -T pauses at a time)");
    struct scene sc;
    struct lesson lesson = {0};
    const char *name;
    load_scene(&o, &sc, &name, &lesson);
    if (!o.headless && !o.snapshot && !o.rec.export_prefix && !isatty(STDOUT_FILENO)) {
        scene_free(&sc);
        lesson_free(&lesson);
        fputs("springball: standard output is not a terminal "
              "(use -H for a headless run)\n", stderr);
        return 2;
    }
    if (o.have_k)
        sc.p.k = o.k;
    if (o.have_dt)
        sc.p.dt = o.dt;
    if (o.have_theta)
        sc.p.theta = o.theta;
    int rc;
    if (o.rec.export_prefix) {
        rc = run_export(&o, &sc);
    } else if (o.headless) {
        rc = run_headless(&o, &sc);
    } else if (o.snapshot) {
        o.ui.engine = o.engine == ENGINE_EVENT;
        o.ui.pause_at = o.have_time ? o.time : -1;
        rc = ui_snapshot(&sc, name, &o.ui);
    } else {
        o.ui.engine = o.engine == ENGINE_EVENT;
        o.ui.pause_at = o.have_time ? o.time : -1;
        rc = ui_run(&sc, name, &o.ui);
    }
    scene_free(&sc);
    lesson_free(&lesson);
    /* Ended by a signal: the terminal is restored; now die of it, so that
     * the shell sees what happened (status 128 + N). */
    if (rc > 128) {
        signal(rc - 128, SIG_DFL);
        raise(rc - 128);
    }
    return rc;
}
