/*
 * formats.c - the table of formats, and detect, parse and write through it
 * (see formats.h).
 */
#include "formats.h"

#include "lesson.h"
#include "particles.h"
#include "traj.h"
#include "universe.h"

#include <stdlib.h>
#include <string.h>

const struct format formats_table[] = {
    [SCENE_FORMAT_NATIVE] = {"scene", "(the native format)", NULL,
                             scene_parse, scene_write},
    [SCENE_FORMAT_UNIVERSE] = {"universe", "(N, R, then N rows x y vx vy mass name)",
                               universe_detect, universe_parse, universe_write},
    [SCENE_FORMAT_PARTICLES] = {"particles",
                                "(n, then n rows rx ry vx vy radius mass r g b)",
                                particles_detect, particles_parse, particles_write},
    [SCENE_FORMAT_LESSON] = {"lesson", "(lesson TITLE, a scene, then steps)",
                             lesson_detect, lesson_parse_scene, scene_write},
};

const size_t formats_count = sizeof formats_table / sizeof *formats_table;

const struct format *formats_get(int id)
{
    if (id < 0 || (size_t)id >= formats_count)
        id = SCENE_FORMAT_NATIVE;
    return &formats_table[id];
}

int formats_named(const char *name)
{
    for (size_t i = 0; i < formats_count; i++)
        if (strcmp(formats_table[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *formats_names(char *buf, size_t size)
{
    size_t at = 0;
    if (size)
        buf[0] = 0;
    for (size_t i = 0; i < formats_count && at + 1 < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == formats_count ? " or " : ", ";
        int n = snprintf(buf + at, size - at, "%s%s", sep, formats_table[i].name);
        if (n < 0)
            break;
        at += (size_t)n < size - at ? (size_t)n : size - at - 1;
    }
    return buf;
}

const struct format_run formats_runs[] = {
    {FORMATS_XYZ, "xyz", "(extended XYZ)"},
    {FORMATS_LAMMPSTRJ, "lammpstrj", "(LAMMPS dump)"},
};

const size_t formats_runs_count = sizeof formats_runs / sizeof *formats_runs;

int formats_run_named(const char *name)
{
    for (size_t i = 0; i < formats_runs_count; i++)
        if (strcmp(formats_runs[i].name, name) == 0)
            return formats_runs[i].id;
    return 0;
}

const char *formats_run_name(int id)
{
    for (size_t i = 0; i < formats_runs_count; i++)
        if (formats_runs[i].id == id)
            return formats_runs[i].name;
    return NULL;
}

int formats_trajectory(const char *head, size_t len)
{
    int t = traj_detect(head, len);
    return t == TRAJ_XYZ ? FORMATS_XYZ : t == TRAJ_LAMMPS ? FORMATS_LAMMPSTRJ : 0;
}

int formats_detect(const char *text, size_t len)
{
    for (size_t i = formats_count; i-- > 0;)
        if (formats_table[i].detect && formats_table[i].detect(text, len))
            return (int)i;
    return SCENE_FORMAT_NATIVE;
}

/* A copy of @p text with each CR that ends a line alone (classic Mac line
 * ends) made a LF, or NULL when there is none (or no memory: *nomem). */
static char *lf_lines(const char *text, size_t len, int *nomem)
{
    *nomem = 0;
    const char *cr = memchr(text, '\r', len);
    size_t at = cr ? (size_t)(cr - text) : len;
    while (at < len && at + 1 < len && text[at + 1] == '\n') {
        cr = memchr(text + at + 1, '\r', len - at - 1);
        at = cr ? (size_t)(cr - text) : len;
    }
    if (at >= len)
        return NULL;
    char *copy = malloc(len ? len : 1);
    if (!copy) {
        *nomem = 1;
        return NULL;
    }
    memcpy(copy, text, len);
    for (size_t i = 0; i < len; i++)
        if (copy[i] == '\r' && (i + 1 == len || copy[i + 1] != '\n'))
            copy[i] = '\n';
    return copy;
}

int formats_parse(struct scene *sc, const char *text, size_t len, int format,
                  struct scene_error *err)
{
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    /* Lines may end in LF, CR LF, or CR alone (a CR-only file was one long
     * line: "extra field"). */
    int nomem;
    char *lf = lf_lines(text, len, &nomem);
    if (nomem) {
        memset(sc, 0, sizeof *sc);
        memset(err, 0, sizeof *err);
        err->line = 1;
        err->nomem = 1;
        strcpy(err->msg, "out of memory");
        return -1;
    }
    if (lf) {
        int rc = formats_parse(sc, lf, len, format, err);
        free(lf);
        return rc;
    }
    if (format == FORMATS_AUTO)
        format = formats_detect(text, len);
    return formats_get(format)->parse(sc, text, len, err);
}

void formats_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    formats_get(sc->format)->write(f, sc, s);
}
