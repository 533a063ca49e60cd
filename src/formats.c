/*
 * formats.c - detect, parse and write whichever format (see formats.h).
 */
#include "formats.h"

#include "particles.h"
#include "universe.h"

#include <string.h>

int formats_detect(const char *text, size_t len)
{
    if (particles_detect(text, len))
        return SCENE_FORMAT_PARTICLES;
    if (universe_detect(text, len))
        return SCENE_FORMAT_UNIVERSE;
    return SCENE_FORMAT_NATIVE;
}

int formats_parse(struct scene *sc, const char *text, size_t len, int format,
                  struct scene_error *err)
{
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
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
