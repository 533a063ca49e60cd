/*
 * fuzz_sim.c - libFuzzer harness: a few steps of every engine on a parsed
 * file (any format, detected as main.c does): 8 spring steps (the grid from
 * SIM_GRID_MIN balls on, gravity, contact laws, walls as the file says),
 * then, unless it is a universe, the event engine for 16 events. A state
 * may become non-finite (main.c reports that); it must not crash, hang or
 * trip a sanitizer.
 */
#define _POSIX_C_SOURCE 200809L
#include "event.h"
#include "formats.h"
#include "scene.h"
#include "sim.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct scene sc;
    struct scene_error err;
    int rc = formats_parse(&sc, text, size, FORMATS_AUTO, &err);
    if (rc)
        return 0;
    struct sim s;
    if (scene_to_sim(&sc, &s))
        abort();
    for (int i = 0; i < 8 && sim_finite(&s); i++)
        sim_step(&s);
    struct sim_diag d;
    sim_diag(&s, &d);
    sim_free(&s);
    if (sc.format != SCENE_FORMAT_UNIVERSE) {
        if (scene_to_sim(&sc, &s))
            abort();
        struct event ev;
        struct event_fault f;
        if (event_init(&ev, &s, NULL, &f) == EVENT_OK) {
            event_step(&ev, 16);
            event_to_sim(&ev, &s);
            event_free(&ev);
        }
        sim_free(&s);
    }
    scene_free(&sc);
    return 0;
}
