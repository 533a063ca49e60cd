/*
 * headless_export.c - --export=lammps PREFIX: the scene as a LAMMPS input
 * script and data file (export.c writes them), the run's length by the
 * core's rule, and the files. See headless.h.
 */
#include "headless_impl.h"

#include "cli.h"
#include "export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            cli_warn("--export=lammps: a run of %llu steps is more than LAMMPS takes "
                 "in one run (%llu)", *steps, max);
        else
            cli_warn("--export=lammps: -T %g at dt %g is more than the %llu steps "
                 "LAMMPS takes in one run", o->time, s->p.dt, max);
        return 2;
    }
    double e = o->rec.every_t > 0 ? fmax(1, round(o->rec.every_t / s->p.dt)) : 0;
    if (o->rec.every > max || !(e <= (double)max)) {
        if (o->rec.every)
            cli_warn("--export=lammps: a dump every %llu steps is more than LAMMPS "
                 "takes (%llu)", o->rec.every, max);
        else
            cli_warn("--export=lammps: --every-t %g at dt %g is more than the %llu "
                 "steps LAMMPS takes between dumps", o->rec.every_t, s->p.dt, max);
        return 2;
    }
    *every = o->rec.every ? o->rec.every : (unsigned long long)e;
    return 0;
}

/* Writes PREFIX.in and PREFIX.data; returns the exit status. */
int headless_export(const struct options *o, const struct scene *sc)
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
    uint32_t *color = malloc((sc->n ? sc->n : 1) * sizeof *color);
    for (size_t b = 0; color && b < sc->n; b++)
        color[b] = sc->balls[b].color;
    int rc = 0;
    if (!in_name || !data_name || !color) {
        fputs("springball: out of memory\n", stderr);
        rc = 1;
    }
    struct export_run run = {
        .data_name = data_name,
        .dump_prefix = prefix,
        .steps = steps,
        .every = every,
        .title = sc->title,
        .imd_port = o->imd_port,
        .imd_trate = o->have_trate ? o->trate : every ? every : 10,
        .color = color,
    };
    struct file_id scene_id, id;
    int have_in = o->scene_path && file_id(o->scene_path, 0, &scene_id, 0) == 0 &&
                  scene_id.reg;
    for (int k = 0; k < 2 && rc == 0; k++) {
        char *name = k ? in_name : data_name;
        snprintf(name, len, "%s.%s", prefix, k ? "in" : "data");
        if (have_in && file_id(name, 1, &id, 0) == 0 && same_file(&id, &scene_id)) {
            cli_warn("--export: '%s' is the scene file being read", name);
            rc = 2;
            break;
        }
        FILE *f = fopen(name, "w");
        if (!f) {
            cli_warn("%s: cannot write: %s", name, strerror(errno));
            rc = 1;
            break;
        }
        if (k)
            export_lammps_in(f, &s, &run);
        else
            export_lammps_data(f, &s, sc->title, color);
        if (fflush(f) || ferror(f)) {
            cli_warn("%s: write error: %s", name, strerror(errno));
            rc = 1;
        }
        if (fclose(f) && rc == 0) {
            cli_warn("%s: write error: %s", name, strerror(errno));
            rc = 1;
        }
        if (rc) /* no partial file (a full disk) */
            remove(name);
    }
    free(in_name);
    free(data_name);
    free(color);
    sim_free(&s);
    return rc;
}
