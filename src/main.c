/*
 * main.c - the command line: options, loading a scene, a headless run or the
 * terminal front end, and exit codes (0 fine, 1 failure at run time, 2 bad
 * input or usage).
 */
#include "event.h"
#include "formats.h"
#include "gravity.h"
#include "scene.h"
#include "sim.h"
#include "tui.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERSION "0.1.0"

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
};

enum { ENGINE_SPRING, ENGINE_EVENT };

static void die_usage(const char *fmt, ...)
{
    va_list ap;
    fputs("springball: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'springball --help' for more information.\n", stderr);
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
"  -T, --time=T           simulate while t < T (t starts at 0, each step adds dt)\n"
"  -n, --steps=N          simulate N steps\n"
"  -k, --stiffness=K      spring stiffness K > 0 (overrides the scene)\n"
"      --dt=DT            time step DT > 0 (overrides the scene)\n"
"      --stats            print t, steps, energies, momentum and contacts to\n"
"                         standard error at the end\n"
"      --engine=ENGINE    spring (default: Hooke springs, fixed dt) or event\n"
"                         (exact hard balls, event-driven; -n counts events)\n"
"      --format=FORMAT    read SCENE as FORMAT: scene (the native format),\n"
"                         universe (N, R, then N rows x y vx vy mass name) or\n"
"                         particles (n, then n rows rx ry vx vy radius mass r g b);\n"
"                         default: detected from the text\n"
"      --theta=THETA      compute gravity by Barnes-Hut with opening angle\n"
"                         0 < THETA <= 1, or 0 for the exact sum (default:\n"
"                         exact up to 4096 bodies, THETA 0.5 above)\n"
"\n"
"Terminal front end (press ? in it for the keys):\n"
"      --fps=N            draw at most N frames a second (default 30)\n"
"      --speed=S          start at S simulated time units per second (default 20;\n"
"                         universe files: 60 dt; particle files: the fastest\n"
"                         ball crosses a quarter of the box a second)\n"
"      --duration=SECS    quit by itself after SECS seconds of wall time\n"
"      --ascii            ASCII glyphs only (also in a non-UTF-8 locale)\n"
"      --no-color         no colour (also when NO_COLOR is set)\n"
"      --cell-aspect=A    a character cell is A times as tall as wide (default 2)\n"
"      --no-mouse         leave the mouse to the terminal (key M toggles it)\n"
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

enum { OPT_DT = 256, OPT_STATS, OPT_VERSION, OPT_FORMAT, OPT_THETA, OPT_ENGINE,
       OPT_FPS, OPT_SPEED, OPT_DURATION, OPT_ASCII, OPT_NO_COLOR, OPT_CELL_ASPECT,
       OPT_SNAPSHOT, OPT_KEYS, OPT_NO_MOUSE };

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
        {"cell-aspect", required_argument, NULL, OPT_CELL_ASPECT},
        {"snapshot", optional_argument, NULL, OPT_SNAPSHOT},
        {"keys", required_argument, NULL, OPT_KEYS},
        {"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
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
            if (strcmp(optarg, "scene") == 0)
                o->format = SCENE_FORMAT_NATIVE;
            else if (strcmp(optarg, "universe") == 0)
                o->format = SCENE_FORMAT_UNIVERSE;
            else if (strcmp(optarg, "particles") == 0)
                o->format = SCENE_FORMAT_PARTICLES;
            else
                die_usage("--format: unknown format '%s' (use scene, universe or particles)", optarg);
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
        case OPT_CELL_ASPECT:
            o->ui.cell_aspect = opt_double("--cell-aspect", optarg, 0, 1);
            if (o->ui.cell_aspect > 10)
                die_usage("--cell-aspect: '%s' must be <= 10", optarg);
            break;
        case OPT_SNAPSHOT:
            o->snapshot = 1;
            if (optarg) {
                int cols, rows, used = 0;
                if (sscanf(optarg, "%dx%d%n", &cols, &rows, &used) != 2 ||
                    optarg[used] || cols < 1 || rows < 1 || cols > 1000 || rows > 1000)
                    die_usage("--snapshot: '%s' is not COLSxROWS (1 to 1000 each)", optarg);
                o->ui.snap_cols = cols;
                o->ui.snap_rows = rows;
            }
            break;
        case OPT_KEYS: o->ui.keys = optarg; break;
        case OPT_NO_MOUSE: o->ui.mouse = 0; break;
        case 'h': usage(); exit(0);
        case OPT_VERSION: puts("springball " VERSION); exit(0);
        case ':':
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                die_usage("option '-%c' needs an argument", optopt);
            die_usage("option '%s' needs an argument", argv[optind - 1]);
            break;
        default:
            if (strncmp(argv[optind - 1], "--", 2) != 0)
                die_usage("unknown option '-%c'", optopt);
            die_usage("unknown option '%s'", argv[optind - 1]);
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
}

/* Reads a whole stream into a NUL-terminated buffer. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
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
        n += got;
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

/* Loads and parses the scene, or reports "FILE:LINE: what" and exits 2. */
static void load_scene(const struct options *o, struct scene *sc, const char **name)
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
            fprintf(stderr, "%s:0: cannot read: %s\n", *name, strerror(e));
            exit(2);
        }
    }
    struct scene_error err;
    int rc = formats_parse(sc, text ? text : scene_builtin, len, o->format, &err);
    free(text);
    if (rc) {
        fprintf(stderr, "%s:%d: %s\n", *name, err.line, err.msg);
        exit(2);
    }
}

static int print_stats(const struct sim *s)
{
    struct sim_diag d;
    int rc = sim_diag(s, &d);
    if (rc) {
        fprintf(stderr, "springball: --stats: %s\n", sim_strerror(rc));
        return 1;
    }
    fprintf(stderr, "t=%.17g steps=%lld ke=%.17g pe=%.17g e=%.17g px=%.17g "
                    "py=%.17g contacts=%ld",
            s->t, s->steps, d.ke, d.pe, d.e, d.px, d.py, d.contacts);
    /* The other systems add their fields after the original ones; a plain
     * Hooke scene keeps the line it always had. */
    if (!sim_hooke_rect(&s->p))
        fprintf(stderr, " pg=%.17g dissipated=%.17g clamps=%lld", d.pg,
                d.dissipated, d.clamps);
    fputc('\n', stderr);
    return 0;
}

/* The diagnostics line of the event engine: the same fields first (steps
 * counts events; hard balls store no energy, so pe is 0 and e = ke), then
 * the event counters. */
static void print_event_stats(const struct sim *s, const struct event *ev)
{
    struct sim_diag d;
    struct event_diag ed;
    sim_diag(s, &d);
    event_diag(ev, &ed);
    fprintf(stderr, "t=%.17g steps=%lld ke=%.17g pe=%.17g e=%.17g px=%.17g "
                    "py=%.17g contacts=%ld engine=event collisions=%lld "
                    "walls=%lld per_ball=%.17g max_ball=%lld mft=%.17g "
                    "de=%.17g\n",
            s->t, ed.events, ed.ke, 0.0, ed.ke, ed.px, ed.py, d.contacts,
            ed.collisions, ed.walls, ed.per_ball, ed.max_ball, ed.mft, ed.de);
}

/* Runs the event engine on @p s: -T stops exactly at T, -n counts events
 * (collisions and wall bounces); the state is then written back into s.
 * Returns 0 with *ev live, or an exit status with a message printed. */
static int run_event(const struct options *o, struct sim *s, struct event *ev)
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
    if (rc == EVENT_EOVERLAP || rc == EVENT_EWALL) {
        char msg[128];
        fprintf(stderr, "springball: %s\n", event_fault_text(msg, sizeof msg, rc, &f, s));
        return 2;
    }
    if (rc == EVENT_OK && o->have_time)
        event_advance(ev, o->time, 0);
    else if (rc == EVENT_OK && o->have_steps)
        event_step(ev, o->steps > (unsigned long long)LLONG_MAX
                           ? LLONG_MAX : (long long)o->steps);
    if (rc != EVENT_OK || ev->nomem) {
        event_free(ev);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    event_to_sim(ev, s);
    return 0;
}

/* Steps between the finiteness checks of a headless spring run. */
enum { FINITE_EVERY = 64 };

/*
 * The fixed-step loop of a headless run: -T runs while t < T, -n N steps.
 * Every FINITE_EVERY steps (and at the end) the state is checked; a state
 * that went non-finite is not a scene, so the run stops there: it replays
 * the last FINITE_EVERY steps from a copy one at a time to name the first
 * non-finite step, prints that on stderr and returns 1 (nothing on stdout).
 * (t never stalls in practice: t + dt == t needs some 2^52 steps from 0.)
 * Returns 0, or an exit status with a message printed.
 */
static int run_spring(const struct options *o, struct sim *s)
{
    struct sim good;
    if (!o->have_time && !o->have_steps)
        return 0;
    if (sim_init(&good, s->n, &s->p)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    sim_copy(&good, s);
    unsigned long long done = 0;
    int rc = 0;
    for (;;) {
        int more = o->have_time ? s->t < o->time : done < o->steps;
        if (!more || done % FINITE_EVERY == 0) {
            if (!sim_finite(s)) {
                /* The copy is finite: replay to the first bad step (at most
                 * the steps since the copy, should a replay differ). */
                long long bad = s->steps;
                double bad_t = s->t;
                sim_copy(s, &good);
                do
                    sim_step(s);
                while (sim_finite(s) && s->steps < bad);
                if (sim_finite(s)) {
                    s->steps = bad;
                    s->t = bad_t;
                }
                fprintf(stderr, "springball: the state became non-finite at "
                                "step %lld (t = %.17g): dt is too large for %s\n",
                        s->steps, s->t, s->p.gravity != 0 ? "the forces" : "k");
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
    }
    sim_free(&good);
    return rc;
}

static int run_headless(const struct options *o, const struct scene *sc)
{
    struct sim s;
    struct event ev;
    int erc = 0;
    if (scene_to_sim(sc, &s)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    if (o->engine == ENGINE_EVENT) {
        erc = run_event(o, &s, &ev);
        if (erc == 0 && !sim_finite(&s)) {
            event_free(&ev);
            fputs("springball: the state became non-finite (event engine)\n",
                  stderr);
            erc = 1;
        }
    } else {
        erc = run_spring(o, &s);
    }
    if (erc) {
        sim_free(&s);
        return erc;
    }
    formats_write(stdout, sc, &s);
    if (o->stats && o->engine == ENGINE_EVENT)
        print_event_stats(&s, &ev);
    else if (o->stats && print_stats(&s))
        erc = 1;
    if (o->engine == ENGINE_EVENT)
        event_free(&ev);
    sim_free(&s);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        return 1;
    }
    return erc;
}

int main(int argc, char **argv)
{
    struct options o;
    parse_options(argc, argv, &o);
    if (o.headless && o.snapshot)
        die_usage("give -H or --snapshot, not both");
    if (o.headless && o.ui.keys)
        die_usage("--keys is for the terminal or --snapshot, not -H");
    struct scene sc;
    const char *name;
    load_scene(&o, &sc, &name);
    if (!o.headless && !o.snapshot && !isatty(STDOUT_FILENO)) {
        scene_free(&sc);
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
    if (o.headless) {
        rc = run_headless(&o, &sc);
    } else if (o.snapshot) {
        o.ui.engine = o.engine == ENGINE_EVENT;
        rc = ui_snapshot(&sc, name, &o.ui);
    } else {
        o.ui.engine = o.engine == ENGINE_EVENT;
        rc = ui_run(&sc, name, &o.ui);
    }
    scene_free(&sc);
    /* Ended by a signal: the terminal is restored; now die of it, so that
     * the shell sees what happened (status 128 + N). */
    if (rc > 128) {
        signal(rc - 128, SIG_DFL);
        raise(rc - 128);
    }
    return rc;
}
