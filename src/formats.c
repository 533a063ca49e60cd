/*
 * formats.c - detect, parse and write whichever format (see formats.h).
 */
#include "formats.h"

#include "particles.h"
#include "universe.h"

#include <stdlib.h>
#include <string.h>

int formats_detect(const char *text, size_t len)
{
    if (particles_detect(text, len))
        return SCENE_FORMAT_PARTICLES;
    if (universe_detect(text, len))
        return SCENE_FORMAT_UNIVERSE;
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
    if (format == SCENE_FORMAT_PARTICLES)
        return particles_parse(sc, text, len, err);
    if (format == SCENE_FORMAT_UNIVERSE)
        return universe_parse(sc, text, len, err);
    return scene_parse(sc, text, len, err);
}

void formats_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    if (sc->format == SCENE_FORMAT_PARTICLES)
        particles_write(f, sc, s);
    else if (sc->format == SCENE_FORMAT_UNIVERSE)
        universe_write(f, sc, s);
    else
        scene_write(f, sc, s);
}
