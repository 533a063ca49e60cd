/*
 * lammps.c - -H --engine=lammps[:RANKS]: the scene exported into the
 * child's folder, LAMMPS started on it and watched through IMD, the final
 * state it writes read back and printed as the spring engine prints its
 * own (see lammps.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "lammps.h"

#include "cli.h"
#include "export.h"
#include "formats.h"
#include "imd.h"
#include "link.h"
#include "live.h"
#include "record.h"
#include "traj.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* The names in the child's folder. */
#define IN_NAME "run.in"
#define DATA_NAME "run.data"
#define FINAL_NAME "final.dump"
#define DUMP_NAME "run"

/* The run's length in steps by the spring engine's rule, and the frames'
 * interval: --every (or --every-t in steps), else one frame at the end.
 * @return 0, or 2 with the message. */
static int run_length(const struct options *o, const struct sim *s,
                      unsigned long long *steps, unsigned long long *trate)
{
    const unsigned long long max = EXPORT_LAMMPS_MAX;
    *steps = o->have_steps ? o->steps : o->have_time ? sim_steps_until(s, o->time) : 0;
    if (*steps > max) {
        cli_warn("--engine=lammps: a run of %llu steps is more than LAMMPS takes in one "
                 "run (%llu)", *steps, max);
        return 2;
    }
    double e = o->rec.every_t > 0 ? fmax(1, round(o->rec.every_t / s->p.dt)) : 0;
    if (o->rec.every > max || !(e <= (double)max)) {
        cli_warn("--engine=lammps: frames every %g steps are more than fix imd's trate "
                 "takes (%llu)", o->rec.every ? (double)o->rec.every : e, max);
        return 2;
    }
    if (o->rec.traj || o->rec.series)
        *trate = o->rec.every ? o->rec.every : e > 0 ? (unsigned long long)e : 1;
    else
        *trate = *steps ? *steps : 1;
    return 0;
}

static int write_script(const struct lammps_child *c, const struct sim *s,
                        const struct scene *sc, const struct export_run *run);

/* Writes run.in and run.data into the folder. @return 0, or 1 said. */
static int write_inputs(const struct lammps_child *c, const struct sim *s,
                        const struct scene *sc, unsigned long long steps,
                        unsigned long long trate, unsigned long long every)
{
    struct export_run run = {
        .data_name = DATA_NAME,
        .dump_prefix = DUMP_NAME,
        .steps = steps,
        .every = every,
        .trj_only = 1,
        .title = sc->title,
        .imd_trate = trate,
        .imd_port_var = "sbport",
        .final_dump = FINAL_NAME,
    };
    return write_script(c, s, sc, &run);
}

/* Writes the script of @p run and the data file into the folder.
 * @return 0, or 1 said. */
static int write_script(const struct lammps_child *c, const struct sim *s,
                        const struct scene *sc, const struct export_run *run)
{
    for (int k = 0; k < 2; k++) {
        char path[PATH_MAX];
        if (lammps_child_path(c, k ? IN_NAME : DATA_NAME, path, sizeof path)) {
            cli_warn("--engine=lammps: the temporary folder's name is too long");
            return 1;
        }
        FILE *f = fopen(path, "w");
        if (!f) {
            cli_warn("--engine=lammps: %s: cannot write: %s", path, strerror(errno));
            return 1;
        }
        if (k)
            export_lammps_in(f, s, run);
        else
            export_lammps_data(f, s, sc->title, NULL);
        int bad = fflush(f) || ferror(f);
        if (fclose(f) || bad) {
            cli_warn("--engine=lammps: %s: write error: %s", path, strerror(errno));
            return 1;
        }
    }
    return 0;
}

/* Reads LAMMPS's final dump (id x y vx vy, sorted by id) into @p s's
 * positions and @p vx, @p vy (slot order, as sim_unobserve takes them). @return 0, or -1 with a
 * message. */
static int read_final(const struct lammps_child *c, struct sim *s, double *vx, double *vy,
                      char *msg, size_t size)
{
    char path[PATH_MAX];
    lammps_child_path(c, FINAL_NAME, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, size, "LAMMPS wrote no final state (%s: %s)", FINAL_NAME,
                 strerror(errno));
        return -1;
    }
    char line[512];
    int in_atoms = 0;
    size_t got = 0;
    while (fgets(line, sizeof line, f)) {
        if (!in_atoms) {
            in_atoms = strncmp(line, "ITEM: ATOMS id x y vx vy", 24) == 0;
            continue;
        }
        char *p = line, *q;
        double v[5];
        int k;
        for (k = 0; k < 5; k++, p = q) {
            v[k] = strtod(p, &q);
            if (q == p)
                break;
        }
        if (k < 5 || v[0] != (double)(got + 1) || got >= s->n)
            break;
        size_t i = sim_slot(s, got);
        s->x[i] = v[1], s->y[i] = v[2];
        vx[got] = v[3], vy[got] = v[4];
        got++;
    }
    fclose(f);
    if (got != s->n) {
        snprintf(msg, size, "LAMMPS's final state (%s) has %zu of the %zu balls",
                 FINAL_NAME, got, s->n);
        return -1;
    }
    /* The broad phase may give the balls other slots (its cell order):
     * the velocities go to the slots after it. */
    sim_touch(s);
    double *w = malloc(2 * s->n * sizeof *w);
    if (!w) {
        snprintf(msg, size, "out of memory");
        return -1;
    }
    for (size_t b = 0; b < s->n; b++)
        w[2 * b] = vx[b], w[2 * b + 1] = vy[b];
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        vx[i] = w[2 * b], vy[i] = w[2 * b + 1];
    }
    free(w);
    return 0;
}

/* --traj and --series from LAMMPS's dump of the run (run.lammpstrj,
 * %.17g, its whole frames): positions and velocity Verlet's velocities,
 * synchronised with them, which are the observed ones the spring engine
 * records (sim.h). @return 0, or 1 with the message printed. */
static int record_run(const struct lammps_child *c, const struct options *o,
                      const struct scene *sc)
{
    char path[PATH_MAX];
    struct traj tr;
    struct traj_error err;
    lammps_child_path(c, DUMP_NAME ".lammpstrj", path, sizeof path);
    if (traj_open(&tr, path, TRAJ_LAMMPS, NULL, NULL, &err)) {
        cli_warn("--engine=lammps: LAMMPS's dump of the run: %s", err.msg);
        return 1;
    }
    struct sim s;
    if (scene_to_sim(sc, &s)) {
        traj_close(&tr);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    struct record w[2];
    const char *paths[2] = {o->rec.traj, o->rec.series};
    int open[2] = {0, 0}, rc = 0;
    for (int k = 0; k < 2 && !rc; k++) {
        if (!paths[k])
            continue;
        if (record_open(&w[k], paths[k])) {
            cli_warn("%s: cannot write: %s", paths[k], strerror(errno));
            rc = 1;
        } else {
            open[k] = 1;
        }
    }
    if (open[1])
        record_series_header(&w[1], &s.p, 0);
    for (size_t k = 0; k < tr.nframes && !rc; k++) {
        if (traj_sim(&tr, k, &s, &err)) {
            cli_warn("--engine=lammps: LAMMPS's dump of the run: %s", err.msg);
            rc = 1;
            break;
        }
        if (open[0])
            record_xyz(&w[0], &s, s.steps);
        if (open[1])
            record_series_row(&w[1], &s, s.steps);
    }
    for (int k = 0; k < 2; k++)
        if (open[k] && record_close(&w[k]) && !rc) {
            cli_warn("%s: write error", paths[k]);
            rc = 1;
        }
    sim_free(&s);
    traj_close(&tr);
    return rc;
}

/* The child's end: the log's name when it failed, the status. */
static int fail(struct lammps_child *c, const char *msg)
{
    struct stat st;
    int keep = c->log[0] && stat(c->log, &st) == 0 && st.st_size > 0;
    lammps_child_end(c, keep);
    if (msg)
        cli_warn("--engine=lammps: %s", msg);
    if (keep)
        cli_warn("--engine=lammps: LAMMPS's output: %s", c->log);
    return 1;
}

/* Stopped by signal @p sig: all removed, then the program dies of it. */
_Noreturn static void stopped(struct lammps_child *c, int sig)
{
    lammps_child_end(c, 0);
    cli_warn("--engine=lammps: %s: LAMMPS ended, its files removed",
             sig == SIGHUP ? "SIGHUP" : sig == SIGINT ? "SIGINT" : "SIGTERM");
    signal(sig, SIG_DFL);
    raise(sig);
    exit(128 + sig);
}

int lammps_headless(const struct options *o, const struct scene *sc)
{
    struct sim s;
    if (scene_to_sim(sc, &s)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    const char *why = export_lammps_unsupported(&s);
    if (why) {
        cli_warn("--engine=lammps: LAMMPS's gran/hooke mapping has no equivalent of %s", why);
        sim_free(&s);
        return 2;
    }
    unsigned long long steps, trate;
    if (run_length(o, &s, &steps, &trate)) {
        sim_free(&s);
        return 2;
    }
    struct lammps_child c;
    char msg[PATH_MAX + 256];
    if (lammps_child_dir(&c, o->lammps_ranks, msg, sizeof msg)) {
        cli_warn("--engine=lammps: %s", msg);
        sim_free(&s);
        return 1;
    }
    cli_catch_stops();
    if (write_inputs(&c, &s, sc, steps, trate, o->rec.traj || o->rec.series ? trate : 0)) {
        lammps_child_end(&c, 0);
        sim_free(&s);
        return 1;
    }
    struct imd_conn *link = malloc(sizeof *link);
    if (!link) {
        lammps_child_end(&c, 0);
        sim_free(&s);
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    if (lammps_child_start(&c, IN_NAME, LAMMPS_CHILD_START, link, s.n, &cli_stop, msg,
                           sizeof msg)) {
        free(link);
        sim_free(&s);
        if (cli_stop)
            stopped(&c, cli_stop);
        return fail(&c, msg);
    }
    /* The frames are read and dropped (the run must not block on a full
     * socket); the recording comes from LAMMPS's own dump, below. */
    int rc = 0, ended = 0;
    while (!ended && !cli_stop) {
        int r = imd_next(link, 200);
        if (r == IMD_NEXT_ERR) {
            snprintf(msg, sizeof msg, "%s", link->msg);
            rc = 1;
            break;
        }
        ended = r == IMD_NEXT_END;
    }
    imd_close(link, 0);
    free(link);
    /* The link closed: the run is over, write_dump follows. */
    if (!rc && !cli_stop && !lammps_child_wait(&c, LAMMPS_CHILD_START))
        snprintf(msg, sizeof msg, "LAMMPS did not end after its run"), rc = 1;
    if (cli_stop || rc) {
        /* the recording to its last whole frame, as the spring engine's */
        lammps_child_end_run(&c);
        if (o->rec.traj || o->rec.series)
            record_run(&c, o, sc);
        sim_free(&s);
        if (cli_stop)
            stopped(&c, cli_stop);
        return fail(&c, msg);
    }
    if ((o->rec.traj || o->rec.series) && record_run(&c, o, sc)) {
        sim_free(&s);
        return fail(&c, NULL);
    }
    if (!lammps_child_ok(&c)) {
        sim_free(&s);
        snprintf(msg, sizeof msg, "LAMMPS failed (%s %d)",
                 WIFEXITED(c.status) ? "exit status" : "signal",
                 WIFEXITED(c.status) ? WEXITSTATUS(c.status) : WTERMSIG(c.status));
        return fail(&c, msg);
    }
    double *vx = malloc((s.n ? s.n : 1) * sizeof *vx), *vy = malloc((s.n ? s.n : 1) * sizeof *vy);
    if (!vx || !vy || read_final(&c, &s, vx, vy, msg, sizeof msg)) {
        free(vx), free(vy);
        sim_free(&s);
        return fail(&c, vx && vy ? msg : "out of memory");
    }
    lammps_child_end(&c, 0);
    /* LAMMPS's velocities are synchronised with the positions: the
     * observed ones; the stored ones are half a step behind. */
    s.t += (double)steps * s.p.dt;
    s.steps = (long long)steps;
    rc = sim_unobserve(&s, vx, vy) != SIM_OK;
    free(vx), free(vy);
    if (rc) {
        fputs("springball: out of memory\n", stderr);
        sim_free(&s);
        return 1;
    }
    char more[64];
    snprintf(more, sizeof more, " engine=lammps ranks=%d", o->lammps_ranks ? o->lammps_ranks : 1);
    if (o->stats && headless_stats(&s, 1, more))
        rc = 1;
    if (!(o->rec.traj && !strcmp(o->rec.traj, "-")) && !(o->rec.series && !strcmp(o->rec.series, "-")))
        formats_write(stdout, sc, &s);
    sim_free(&s);
    if (fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "springball: write error: %s\n", strerror(errno));
        return 1;
    }
    return rc;
}

int lammps_live(const struct options *o, const struct scene *sc, const char *name)
{
    struct sim s;
    if (scene_to_sim(sc, &s)) {
        fputs("springball: out of memory\n", stderr);
        return 1;
    }
    const char *why = export_lammps_unsupported(&s);
    if (why) {
        cli_warn("--engine=lammps: LAMMPS's gran/hooke mapping has no equivalent of %s", why);
        sim_free(&s);
        return 2;
    }
    /* The run goes on until q: the longest run LAMMPS takes. */
    unsigned long long trate = o->have_trate ? o->trate : LAMMPS_LIVE_TRATE;
    struct lammps_child c;
    char msg[PATH_MAX + 256];
    if (lammps_child_dir(&c, o->lammps_ranks, msg, sizeof msg)) {
        cli_warn("--engine=lammps: %s", msg);
        sim_free(&s);
        return 1;
    }
    cli_catch_stops();
    struct export_run run = {
        .data_name = DATA_NAME, .dump_prefix = DUMP_NAME, .steps = EXPORT_LAMMPS_MAX,
        .title = sc->title, .imd_trate = trate, .imd_port_var = "sbport",
    };
    int rc = write_script(&c, &s, sc, &run);
    struct imd_conn *conn = rc ? NULL : malloc(sizeof *conn);
    if (!conn) {
        if (!rc)
            fputs("springball: out of memory\n", stderr);
        lammps_child_end(&c, 0);
        sim_free(&s);
        return 1;
    }
    if (lammps_child_start(&c, IN_NAME, LAMMPS_CHILD_START, conn, s.n, &cli_stop, msg,
                           sizeof msg)) {
        free(conn);
        sim_free(&s);
        if (cli_stop)
            stopped(&c, cli_stop);
        return fail(&c, msg);
    }
    char where[64];
    snprintf(where, sizeof where, "lammps%s%d, 127.0.0.1:%d", o->lammps_ranks ? " -np " : "",
             o->lammps_ranks ? o->lammps_ranks : 1, c.port);
    struct link *l = link_imd_adopt(conn, where, s.n);
    free(conn);
    sim_free(&s);
    if (!l)
        return fail(&c, "out of memory");
    rc = live_main(l, sc, (long long)trate, name, &o->ui);
    /* q, a signal or a failure: the child ended, its files removed; its
     * log named when it ended badly by itself */
    int bad = lammps_child_wait(&c, 0) && !lammps_child_ok(&c);
    if (bad)
        return fail(&c, "LAMMPS failed"), rc ? rc : 1;
    lammps_child_end(&c, 0);
    return rc;
}
