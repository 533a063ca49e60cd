/*
 * headless.c - a run without a terminal (-H): the spring engine's fixed
 * steps (-n, or -T by the core's exact rule) with its check for a state
 * that is no longer finite, the event engine's run, --stats, and the
 * final state printed. See headless.h.
 */
#include "headless_impl.h"

#include "contact.h"
#include "formats.h"
#include "grid.h"
#include "mem.h"
#include "numfmt.h"
#include "split.h"
#include "words.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The shortest digits that read back as @p v (numfmt.h), in @p buf. */
static const char *num(char *buf, double v)
{
    numfmt_double(buf, v);
    return buf;
}

int headless_stats(const struct sim *run, int threads, const char *more)
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
    /* Steps split over threads (split.h): the most threads a step ran on. */
    if (threads > 1)
        fprintf(stderr, " threads=%d", threads);
    fprintf(stderr, "%s\n", more ? more : "");
    sim_free(&obs);
    return 0;
}

/* The diagnostics line of the event engine: the same fields first (steps
 * counts events; hard balls store no energy, so pe is 0 and e = ke + pf),
 * then the event counters, then dissipated= (friction, restitution < 1),
 * pf= and out= as on the spring line. */
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
    if (s->p.friction || s->p.restitution < 1)
        fprintf(stderr, " dissipated=%s", num(b[0], ed.dissipated));
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

/* From this many balls on a headless run splits its spring steps over
 * the threads of --threads (measured: tests/bench/README.md, "Every
 * core"). SPRINGBALL_SPLIT overrides it. */
#ifndef HEADLESS_SPLIT_MIN
#define HEADLESS_SPLIT_MIN 20000
#endif

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
static int run_steps(const struct options *o, struct sim *s, struct recorder *rec);

/* The threads a run's steps may use (--threads, else the processors;
 * --no-thread: one, as in the terminal). */
static int run_threads(const struct options *o)
{
    if (o->ui.no_thread)
        return 1;
    return o->ui.threads > 0 ? o->ui.threads : split_cpus();
}

/*
 * run_steps, each step split over the threads of --threads when it pays
 * (HEADLESS_SPLIT_MIN balls on, or SPRINGBALL_SPLIT's count; the Hooke
 * rectangle's step alone splits, sim.h): the helpers made once for the
 * run. *threads is then the most threads a step ran on (1: none split).
 */
static int run_spring(const struct options *o, struct sim *s, struct recorder *rec, int *threads)
{
    const int nth = run_threads(o);
    const size_t min = split_min_env(HEADLESS_SPLIT_MIN);
    struct split sp;
    *threads = 1;
    const int split = nth >= 2 && s->n >= min && s->n > GRID_BLOCK && sim_hooke_rect(&s->p) &&
                      (o->have_time || o->have_steps) && split_start(&sp, nth, min) == 0;
    if (split)
        s->threads = &sp.th;
    int rc = run_steps(o, s, rec);
    if (split) {
        *threads = sp.th.most > 1 ? sp.th.most : 1;
        s->threads = NULL;
        split_stop(&sp);
    }
    return rc;
}

static int run_steps(const struct options *o, struct sim *s, struct recorder *rec)
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

int headless_run(const struct options *o, const struct scene *sc)
{
    struct sim s;
    struct event ev;
    struct recorder rec;
    int erc = 0, threads = 1;
    /* The event engine reads and writes the arrays in order (start-up,
     * write-back): small pages, quicker to hand out on fresh memory. */
    if (scene_to_sim_as(sc, &s, o->engine == ENGINE_EVENT ? MEM_FLAT : 0)) {
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
        erc = run_spring(o, &s, &rec, &threads);
    }
    /* A write error of the recording is the run's failure (the engine
     * is live when the run itself went well). */
    if (rec_close(&rec) && !erc) {
        if (o->engine == ENGINE_EVENT)
            event_free(&ev);
        erc = 1;
    }
    rec_signal_exit(&rec, &s);
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
    else if (o->stats && headless_stats(&s, threads, NULL))
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
