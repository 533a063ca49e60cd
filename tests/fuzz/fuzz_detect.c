/*
 * fuzz_detect.c - libFuzzer harness: the format detection of main.c
 * (lesson_detect, particles_detect, then universe_detect), then the parser it picks. A
 * detector must read only the len bytes it is given: the input is copied to
 * a buffer of exactly that size, without a final NUL.
 */
#define _POSIX_C_SOURCE 200809L
#include "formats.h"
#include "lesson.h"
#include "particles.h"
#include "scene.h"
#include "universe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    int p = particles_detect(text, size);
    int u = universe_detect(text, size);
    if ((p != 0 && p != 1) || (u != 0 && u != 1))
        abort();
    /* A particle file starts with a count, so it always looks like a
     * universe too; formats_detect asks particles_detect first for that reason. */
    if (p && !u)
        abort();
    struct scene sc;
    struct scene_error err;
    int l = lesson_detect(text, size);
    if (l != 0 && l != 1)
        abort();
    int f = formats_detect(text, size);
    if (f != (l ? SCENE_FORMAT_LESSON : p ? SCENE_FORMAT_PARTICLES
              : u ? SCENE_FORMAT_UNIVERSE : SCENE_FORMAT_NATIVE))
        abort();
    int rc = formats_parse(&sc, text, size, f, &err);
    if (rc == 0)
        scene_free(&sc);
    else if (err.line < 1 || !err.msg[0])
        abort();
    free(text);
    return 0;
}
