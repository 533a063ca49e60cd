/*
 * main.c - the command line: options, loading a scene (or a lesson, or a
 * recorded run to replay), then a headless run or an export (headless.h),
 * the terminal front end or --snapshot, and exit codes (0 fine, 1 failure
 * at run time, 2 bad input or usage).
 */
/* fileno, stat */
#define _POSIX_C_SOURCE 200809L
#include "bigmem.h"
#include "cli.h"
#include "connect.h"
#include "live.h"
#include "imd.h"
#include "lammps.h"
#include "formats.h"
#include "gravity.h"
#include "headless.h"
#include "lesson.h"
#include "replay.h"
#include "scene.h"
#include "split.h"
#include "text.h"
#include "front.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VERSION "0.1.0"

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
"      --engine=ENGINE    spring (default: Hooke springs, fixed dt), event\n"
"                         (exact hard balls, event-driven; -n counts events)\n"
"                         or lammps[:RANKS] (with -H: the scene run by lmp, or\n"
"                         by mpirun -np RANKS lmp, as a child watched by IMD)\n"
"      --threads=N        split a spring step of many balls over N threads,\n"
"                         the same bits as one (default: the processors this\n"
"                         process may use)\n"
"      --format=FORMAT    read SCENE as FORMAT:",
        stdout);
    /* One line a format, from the table: "NAME (HELP)," ... " or" ... ";". */
    for (size_t i = 0; i < formats_count; i++)
        printf("%s%s %s%s\n", i ? "                         " : " ",
               formats_table[i].name, formats_table[i].help,
               i + 1 == formats_count ? ";" : i + 2 == formats_count ? " or" : ",");
    /* and the recorded runs' formats, from their table */
    printf("                         or replay a recorded run: %s %s or\n"
           "                         %s %s; default: detected from the text\n",
           formats_runs[0].name, formats_runs[0].help, formats_runs[1].name,
           formats_runs[1].help);
    fputs(
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
"      --imd=PORT         with --export: add fix imd on PORT (nowait on), so\n"
"                         that --connect can watch the run\n"
"\n"
"A running simulation (IMD: LAMMPS fix imd), headless:\n"
"      --connect=HOST:PORT  print the -n N-th frame received (from 1) as a scene,\n"
"                         then leave the run going; SCENE: the run's own scene\n"
"      --trate=N          ask for a frame every N steps (--imd: fix imd's trate)\n"
"      --follow           with -H and a recorded run still being written: wait\n"
"                         for frame -n N (or time -T) to land in it\n"
"      --slice=Z0:Z1      a 3-D run (replayed, followed, connected, LAMMPS):\n"
"                         only the balls with Z0 <= z <= Z1\n"
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
"      --step=N           a lesson opens at step N (1 = the first)\n"
"      --cell-aspect=A    a character cell is A times as tall as wide (default 2)\n"
"      --no-mouse         leave the mouse to the terminal (key M toggles it)\n"
"      --no-thread        step the run and draw in one thread (by default the\n"
"                         run steps on a second one while a frame is drawn)\n"
"      --history=MB       memory for stepping back, in megabytes (default 64)\n"
"      --save-to=FILE     w saves the scene as FILE (or FILE-2, -3 ... when it\n"
"                         exists; default springball-N.scene here)\n"
"      --keys=KEYS        play the key script KEYS, e.g. '. . <t 40> space up*3\n"
"                         enter' (keys, <t T> waits T of simulated time,\n"
"                         <click COL ROW>; see springball(1))\n"
"      --snapshot[=COLSxROWS]  print the screen after --keys as UTF-8 text\n"
"                         (default 80x24; ANSI colours unless --no-color)\n"
"      --cast=FILE        write the frames shown to FILE as an asciicast (v2):\n"
"                         live, or with --snapshot every frame of --keys at the\n"
"                         time a live run would show it (asciinema play FILE)\n"
"\n"
"  -h, --help             show this help and exit\n"
"      --version          show the version and exit\n"
"\n"
"Exit status: 0 on success, 1 on a failure at run time, 2 on bad options or\n"
"a bad scene. See springball(1) for the scene format.\n",
        stdout);
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
        cli_die("option '--%s' takes no value", hit->name);
    if (matches > 1)
        cli_die("option '--%.*s' is ambiguous: %s", (int)len, name, list);
    cli_die("unknown option '--%.*s'", (int)len, name);
}

/* --save-to's FILE: a name w can write, FILE or FILE-N beside it. */
static const char *save_to(const char *arg)
{
    struct stat st;
    if (!*arg)
        cli_die("--save-to: the file name is empty");
    if (strlen(arg) > SAVE_TO_MAX)
        cli_die("--save-to: the name is longer than %d bytes", SAVE_TO_MAX);
    if (stat(arg, &st) == 0 && !S_ISREG(st.st_mode))
        cli_die("--save-to: '%s' is not a regular file (w writes a new file)", arg);
    return arg;
}

enum { OPT_DT = 256, OPT_STATS, OPT_VERSION, OPT_FORMAT, OPT_THETA, OPT_ENGINE,
       OPT_FPS, OPT_SPEED, OPT_DURATION, OPT_ASCII, OPT_NO_COLOR, OPT_NO_THREAD, OPT_THREADS, OPT_HISTORY, OPT_PAUSED, OPT_CELL_ASPECT,
       OPT_SNAPSHOT, OPT_KEYS, OPT_NO_MOUSE, OPT_SAVE_TO, OPT_CAST,
       OPT_CONNECT, OPT_TRATE, OPT_IMD, OPT_FOLLOW, OPT_STEP, OPT_SLICE };

/* --slice=Z0:Z1: two finite numbers, Z0 below Z1. */
static void slice(const char *arg, struct ui_options *ui)
{
    char *end;
    double z0 = strtod(arg, &end), z1 = 0;
    int ok = end != arg && *end == ':';
    if (ok) {
        const char *q = end + 1;
        z1 = strtod(q, &end);
        ok = end != q && !*end;
    }
    if (!ok || !isfinite(z0) || !isfinite(z1))
        cli_die("--slice: '%s' is not Z0:Z1 (two finite numbers)", arg);
    if (!(z0 < z1))
        cli_die("--slice: '%s': Z0 must be below Z1", arg);
    ui->slice = 1;
    ui->slice_z0 = z0;
    ui->slice_z1 = z1;
}

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
        {"no-thread", no_argument, NULL, OPT_NO_THREAD},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"history", required_argument, NULL, OPT_HISTORY},
        {"cell-aspect", required_argument, NULL, OPT_CELL_ASPECT},
        {"snapshot", optional_argument, NULL, OPT_SNAPSHOT},
        {"keys", required_argument, NULL, OPT_KEYS},
        {"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
        {"save-to", required_argument, NULL, OPT_SAVE_TO},
        {"cast", required_argument, NULL, OPT_CAST},
        {"connect", required_argument, NULL, OPT_CONNECT},
        {"trate", required_argument, NULL, OPT_TRATE},
        {"imd", required_argument, NULL, OPT_IMD},
        {"follow", no_argument, NULL, OPT_FOLLOW},
        {"slice", required_argument, NULL, OPT_SLICE},
        {"step", required_argument, NULL, OPT_STEP},
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
            o->time = cli_double("--time", optarg, 0, 0);
            break;
        case 'n':
            o->have_steps = 1;
            o->steps = cli_count("--steps", optarg);
            break;
        case 'k':
            o->have_k = 1;
            o->k = cli_double("--stiffness", optarg, 0, 1);
            break;
        case OPT_DT:
            o->have_dt = 1;
            o->dt = cli_double("--dt", optarg, 0, 1);
            break;
        case OPT_STATS: o->stats = 1; break;
        case OPT_FORMAT:
            o->format = formats_run_named(optarg);
            if (o->format)
                break;
            o->format = formats_named(optarg);
            if (o->format < 0) {
                char names[256];
                cli_die("--format: unknown format '%s' (use %s; %s or %s "
                        "replay a recorded run)", optarg, formats_names(names, sizeof names),
                        formats_runs[0].name, formats_runs[1].name);
            }
            break;
        case OPT_THETA:
            o->have_theta = 1;
            o->theta = cli_double("--theta", optarg, 0, 0);
            if (o->theta > GRAVITY_THETA_MAX)
                cli_die("--theta: '%s' must be <= %g", optarg, GRAVITY_THETA_MAX);
            break;
        case OPT_ENGINE:
            if (strcmp(optarg, "spring") == 0)
                o->engine = ENGINE_SPRING;
            else if (strcmp(optarg, "event") == 0)
                o->engine = ENGINE_EVENT;
            else if (strncmp(optarg, "lammps", 6) == 0 && (!optarg[6] || optarg[6] == ':')) {
                o->engine = ENGINE_LAMMPS;
                o->lammps_ranks = lammps_ranks(optarg[6] ? optarg + 7 : NULL);
            } else
                cli_die("--engine: '%s' is not spring, event or lammps[:RANKS]", optarg);
            break;
        case OPT_FPS:
            o->ui.fps = cli_double("--fps", optarg, 0, 1);
            if (o->ui.fps > 1000)
                cli_die("--fps: '%s' must be <= 1000", optarg);
            /* A frame's wait is an int of milliseconds. */
            if (o->ui.fps < 0.01)
                cli_die("--fps: '%s' must be >= 0.01", optarg);
            break;
        case OPT_SPEED:
            o->ui.speed = cli_double("--speed", optarg, 0, 1);
            break;
        case OPT_DURATION:
            o->ui.duration = cli_double("--duration", optarg, 0, 1);
            /* The wait until then is an int of milliseconds. */
            if (o->ui.duration > 1e6)
                cli_die("--duration: '%s' must be <= 1e6 (seconds)", optarg);
            break;
        case OPT_ASCII: o->ui.ascii = 1; break;
        case OPT_NO_COLOR: o->ui.no_color = 1; break;
        case OPT_PAUSED: o->ui.paused = 1; break;
        case OPT_NO_THREAD: o->ui.no_thread = 1; break;
        case OPT_THREADS: {
            unsigned long long v = cli_count("--threads", optarg);
            if (v < 1 || v > SPLIT_MAX)
                cli_die("--threads: '%s' must be 1 to %d", optarg, SPLIT_MAX);
            o->ui.threads = (int)v;
            break;
        }
        case OPT_HISTORY:
            o->ui.history_mb = cli_double("--history", optarg, 0, 0);
            if (o->ui.history_mb < 0.0625 || o->ui.history_mb > 1048576)
                cli_die("--history: '%s' must be 0.0625 to 1048576 (megabytes)", optarg);
            break;
        case OPT_CELL_ASPECT:
            o->ui.cell_aspect = cli_double("--cell-aspect", optarg, 0, 1);
            if (o->ui.cell_aspect > 10)
                cli_die("--cell-aspect: '%s' must be <= 10", optarg);
            break;
        case OPT_SNAPSHOT:
            o->snapshot = 1;
            if (optarg) {
                const char *q = optarg;
                int cols = dim(&q), rows = *q == 'x' ? (q++, dim(&q)) : 0;
                if (*q || cols < 1 || rows < 1)
                    cli_die("--snapshot: '%s' is not COLSxROWS (1 to 1000 each)", optarg);
                o->ui.snap_cols = cols;
                o->ui.snap_rows = rows;
            }
            break;
        case OPT_KEYS: o->ui.keys = optarg; break;
        case OPT_NO_MOUSE: o->ui.mouse = 0; break;
        case OPT_SAVE_TO: o->ui.save_to = save_to(optarg); break;
        case OPT_CAST:
            if (!*optarg)
                cli_die("--cast: the file name is empty");
            o->ui.cast = optarg;
            break;
        case OPT_CONNECT: {
            char host[128], port[16], msg[256];
            if (imd_split(optarg, host, sizeof host, port, sizeof port, msg, sizeof msg))
                cli_die("--connect: %s", msg);
            o->connect = optarg;
            break;
        }
        case OPT_FOLLOW: o->follow = 1; break;
        case OPT_SLICE: slice(optarg, &o->ui); break;
        case OPT_STEP: {
            unsigned long long v = cli_count("--step", optarg);
            if (v < 1)
                cli_die("--step: '%s' must be 1 or more (a lesson's steps count from 1)", optarg);
            o->ui.step = v > 1000000 ? 1000000 : (size_t)v;
            break;
        }
        case OPT_TRATE:
            o->have_trate = 1;
            o->trate = cli_count("--trate", optarg);
            if (o->trate < 1 || o->trate > 2147483647ull)
                cli_die("--trate: '%s' must be from 1 to 2147483647", optarg);
            break;
        case OPT_IMD: {
            unsigned long long port = cli_count("--imd", optarg);
            if (port < 1024 || port > 65535)
                cli_die("--imd: '%s' is not a port from 1024 to 65535 (fix imd takes no lower)",
                        optarg);
            o->imd_port = (int)port;
            break;
        }
        case OPT_TRAJ: case OPT_SERIES: case OPT_EVERY: case OPT_EVERY_T:
        case OPT_EXPORT:
            headless_option(c, optarg, argc, argv, &o->rec);
            break;
        case 'h': usage(); exit_flushed();
        case OPT_VERSION: puts("springball " VERSION); exit_flushed();
        case ':':
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                cli_die("option '-%c' needs an argument", optopt);
            cli_die("option '%s' needs an argument", argv[optind - 1]);
            break;
        default:
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                cli_die("unknown option '-%c'", optopt);
            die_long_option(argv[optind - 1], longopts);
        }
    }
    if (o->have_time && o->have_steps)
        cli_die("give --time or --steps, not both");
    if (optind < argc)
        o->scene_path = argv[optind++];
    if (o->scene_path && !*o->scene_path)
        cli_die("the scene file name is empty");
    if (optind < argc)
        cli_die("only one scene at a time ('%s' is extra)", argv[optind]);
    headless_check_options(o);
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
    /* A recorded run that was not a regular file (replay_is_run sniffs
     * those alone): sniffed here, from the bytes already read. */
    if (text && o->format == FORMATS_AUTO && formats_trajectory(text, len < 4096 ? len : 4096)) {
        free(text);
        fprintf(stderr, "%s:0: a recorded run is read from a regular file, not a pipe "
                        "or standard input\n", shown_name(*name));
        exit(2);
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

/* A recorded run as SCENE (replay.h): nothing is simulated. */
static int replay(const struct options *o)
{
    if (o->follow && o->snapshot)
        cli_die("--follow shows a file as it grows: in a terminal, or with -H");
    if (o->rec.traj || o->rec.series || o->rec.export_prefix)
        cli_die("a recorded run is replayed, not simulated: drop --traj, --series "
                  "and --export");
    if (!strcmp(o->scene_path, "-"))
        cli_die("a recorded run is read from a file, not standard input");
    if (o->have_k || o->have_dt || o->have_theta || o->engine != ENGINE_SPRING)
        cli_die("-k, --dt, --theta and --engine set a simulation: a recorded run "
                  "is replayed with its own k and dt");
    if (!o->headless && !o->snapshot && !isatty(STDOUT_FILENO)) {
        fputs("springball: standard output is not a terminal "
              "(use -H for a headless run)\n", stderr);
        return 2;
    }
    struct replay_options ro = {o->headless, o->stats, o->snapshot, o->have_steps,
                                o->steps, o->have_time, o->time, o->follow,
                                o->ui.slice, o->ui.slice_z0, o->ui.slice_z1};
    return replay_main(o->scene_path, o->format, &ro, &o->ui);
}

/* --connect=HOST:PORT (connect.h), with the scene it was made from. */
static int connect_run(const struct options *o)
{
    if (o->snapshot)
        cli_die("--connect shows a run as it goes: in a terminal, or with -H");
    if (!o->headless && (o->have_steps || o->stats || o->rec.traj || o->rec.series))
        cli_die("-n, --stats, --traj and --series of --connect are headless: add -H "
                "(in the terminal, R records the frames shown)");
    if (!o->headless && !isatty(STDOUT_FILENO)) {
        fputs("springball: standard output is not a terminal "
              "(use -H for a headless run)\n", stderr);
        return 2;
    }
    if (o->have_steps && o->steps == 0)
        cli_die("--connect: -n counts frames from 1");
    if (o->headless && o->ui.slice)
        cli_die("--slice keeps a layer of what the terminal draws: not with -H --connect");
    if (o->have_time || o->rec.export_prefix || o->engine != ENGINE_SPRING || o->have_k ||
        o->have_dt || o->have_theta || o->rec.every || o->rec.every_t > 0)
        cli_die("--connect watches a run elsewhere: -T, -k, --dt, --theta, --engine, "
                "--export and --every set a simulation here");
    struct scene sc;
    struct lesson lesson = {0};
    const char *name;
    if (o->scene_path) {
        if (replay_is_run(o->scene_path, o->format))
            cli_die("--connect takes a scene, not a recorded run");
        load_scene(o, &sc, &name, &lesson);
        if (lesson.nstep) {
            lesson_free(&lesson);
            scene_free(&sc);
            cli_die("--connect takes a scene, not a lesson");
        }
    }
    int rc = o->headless ? connect_headless(o, o->scene_path ? &sc : NULL)
                         : live_connect(o, o->scene_path ? &sc : NULL);
    if (o->scene_path)
        scene_free(&sc);
    return rc;
}

int main(int argc, char **argv)
{
    struct options o;
    bigmem_install(); /* the engines' large arrays on huge pages */
    parse_options(argc, argv, &o);
    if (o.headless && o.snapshot)
        cli_die("give -H or --snapshot, not both");
    if (o.headless && o.ui.keys)
        cli_die("--keys is for the terminal or --snapshot, not -H");
    if ((o.headless || o.rec.export_prefix) && o.ui.cast)
        cli_die("--cast records the terminal or --snapshot, not %s",
                o.headless ? "-H" : "--export");
    headless_check_outputs(&o);
    /* A closed pipe is a write error, reported, not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    /* So is a file over its size limit (ulimit -f): EFBIG, not SIGXFSZ. */
    signal(SIGXFSZ, SIG_IGN);
    if (o.connect)
        return connect_run(&o);
    if (o.have_trate && !o.imd_port && o.engine != ENGINE_LAMMPS)
        cli_die("--trate sets the frame rate of --connect or of --imd's fix imd");
    if (o.imd_port && !o.rec.export_prefix)
        cli_die("--imd=PORT adds fix imd to --export=lammps");
    if (formats_run_name(o.format) && !o.scene_path)
        cli_die("--format=%s replays a recorded run: give its FILE",
                formats_run_name(o.format));
    if (o.follow && !o.scene_path)
        cli_die("--follow follows a recorded run: give its FILE");
    if (o.scene_path && (o.follow || replay_is_run(o.scene_path, o.format)))
        return replay(&o);
    if (o.ui.slice && (o.engine != ENGINE_LAMMPS || o.headless))
        cli_die("--slice keeps a layer of a 3-D run: a recorded run (-H prints the layer), "
                "--follow, --connect, or --engine=lammps in the terminal");
    /* (a replay's -n is a frame) */
    if (o.have_steps && !o.headless && !o.rec.export_prefix)
        cli_die("-n counts the steps of a headless run or an export: add -H "
                  "(in the terminal, -T pauses at a time)");
    struct scene sc;
    struct lesson lesson = {0};
    const char *name;
    load_scene(&o, &sc, &name, &lesson);
    if (o.engine == ENGINE_LAMMPS && (o.rec.export_prefix || lesson.nstep || o.snapshot)) {
        scene_free(&sc);
        lesson_free(&lesson);
        cli_die("--engine=lammps runs a scene, headless or in the terminal (not with --export, "
                "--snapshot or a lesson)");
    }
    if (o.ui.step && (!lesson.nstep || o.ui.step > lesson.nstep)) {
        size_t nstep = lesson.nstep;
        scene_free(&sc);
        lesson_free(&lesson);
        if (!nstep)
            cli_die("--step opens a lesson at a step: give a lesson (scenes/lessons/*.lesson)");
        cli_die("--step: the lesson has steps 1 to %zu", nstep);
    }
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
    if (o.engine == ENGINE_LAMMPS) {
        rc = o.headless ? lammps_headless(&o, &sc) : lammps_live(&o, &sc, name);
    } else if (o.rec.export_prefix) {
        rc = headless_export(&o, &sc);
    } else if (o.headless) {
        rc = headless_run(&o, &sc);
    } else if (o.snapshot) {
        o.ui.engine = o.engine == ENGINE_EVENT;
        o.ui.pause_at = o.have_time ? o.time : -1;
        o.ui.lesson = lesson.nstep ? &lesson : NULL;
        rc = ui_snapshot(&sc, name, &o.ui);
    } else {
        o.ui.engine = o.engine == ENGINE_EVENT;
        o.ui.pause_at = o.have_time ? o.time : -1;
        o.ui.lesson = lesson.nstep ? &lesson : NULL;
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
