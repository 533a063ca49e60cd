/*
 * headless.h - the command line's options (main.c parses them) and what a
 * run without a terminal does with them: -H runs an engine and prints the
 * state (headless.c), --traj and --series record it (headless_rec.c),
 * --export=lammps writes it as a LAMMPS run (headless_export.c). Time is
 * the core's exact rule (sim_steps_until): -T T takes the steps that reach
 * T, in the export too.
 */
#ifndef HEADLESS_H
#define HEADLESS_H

#include "scene.h"
#include "app_options.h"

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
    int engine;              /* ENGINE_SPRING, ENGINE_EVENT or ENGINE_LAMMPS */
    int lammps_ranks;        /* --engine=lammps:RANKS; 0: lmp alone */
    int snapshot;            /* --snapshot: print one screen, no terminal */
    struct ui_options ui;    /* the terminal front end */
    struct rec_options rec;  /* recording and export (issue 15) */
    const char *connect;     /* --connect=HOST:PORT (issue 40); NULL: none */
    int have_trate;
    unsigned long long trate; /* --trate=N: frames every N steps */
    int imd_port;            /* --imd=PORT: fix imd in an export; 0: none */
    int follow;              /* --follow: a recorded run still being written */
};

enum { ENGINE_SPRING, ENGINE_EVENT, ENGINE_LAMMPS };

/// One recording option (OPT_TRAJ ...) with its argument; --export=lammps
/// takes the next argument (argv[optind]) as PREFIX. Bad values: usage error.
void headless_option(int c, const char *arg, int argc, char **argv, struct rec_options *r);

/// The recording options together: a usage error (exit 2) for what they
/// cannot do.
void headless_check_options(const struct options *o);

/// Refuses (usage error) an output that is the scene being read or the
/// other output, compared by what the files are, not by their names.
void headless_check_outputs(const struct options *o);

/// -H: runs @p sc in the engine asked, records when asked, prints
/// --stats and the final state. @return the exit status (0, 1 failure at
/// run time, 2 bad input), with a message printed.
int headless_run(const struct options *o, const struct scene *sc);

/// The --stats line of the spring state @p run on standard error: its
/// observed state's diagnostics in the shortest digits, " threads=N" when
/// @p threads > 1, then @p more (NULL: nothing). @return 0, or 1 (memory).
int headless_stats(const struct sim *run, int threads, const char *more);

/// --export=lammps: writes PREFIX.in and PREFIX.data. @return the exit status.
int headless_export(const struct options *o, const struct scene *sc);

#endif
