/*
 * fuzz_lesson.c - libFuzzer harness: lesson_detect, lesson_parse and what
 * follows a lesson that parses: its scene (lesson_scene, on a small scene
 * of its own standing in for `scene FILE`), the simulation built from it,
 * and each question's quantity measured, named and written as the answer
 * line does. A parse error names a line and says something; a lesson that
 * parses keeps the limits lesson.h gives.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "lesson.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char stand_in[] = "table 800 400\nball 200 200 10 0 1 20\nball 400 200 0 0 1 20\n";

static void check_step(const struct lesson_step *st)
{
    if (!st->title || strlen(st->title) > LESSON_LINE_MAX || st->nlines < 0 ||
        st->nlines > LESSON_SAY_MAX || (st->nlines > 0) != (st->text != NULL) ||
        (st->ask && strlen(st->ask) > LESSON_LINE_MAX) || st->line < 1 ||
        (st->ask && st->ask_line <= st->line) || (unsigned)st->q.what >= LESSON_NWHAT)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    (void)lesson_detect(text, size);
    struct lesson ls;
    struct scene_error err;
    if (lesson_parse(&ls, text, size, &err)) {
        if (err.line < 1 || !err.msg[0])
            abort();
        return 0;
    }
    if (!ls.title || strlen(ls.title) > LESSON_LINE_MAX || ls.nstep < 1 ||
        ls.nstep > LESSON_STEPS_MAX)
        abort();
    for (size_t i = 0; i < ls.nstep; i++)
        check_step(&ls.step[i]);
    struct scene sc;
    int rc;
    if (ls.scene_file) {
        if (scene_parse(&sc, stand_in, sizeof stand_in - 1, &err))
            abort();
        char *path = lesson_file_path(&ls, "dir/a.lesson");
        if (!path)
            abort();
        free(path);
    }
    rc = lesson_scene(&ls, &sc, &err);
    if (rc) {
        if (err.line < 1 || !err.msg[0])
            abort();
        lesson_free(&ls);
        return 0;
    }
    struct sim s;
    if (scene_to_sim(&sc, &s))
        abort();
    for (size_t i = 0; i < ls.nstep; i++) {
        const struct lesson_step *st = &ls.step[i];
        if (!st->ask)
            continue;
        char name[128], value[64];
        double v;
        lesson_quantity_name(&st->q, name, sizeof name, 1);
        lesson_quantity_name(&st->q, name, sizeof name, 0);
        if (lesson_measure(&st->q, &s, &s, &v) == LESSON_OK)
            lesson_value_text(v, value, sizeof value);
    }
    sim_free(&s);
    scene_free(&sc);
    lesson_free(&ls);
    return 0;
}
