/*
 * fuzz_view.c - libFuzzer harness: what the terminal front end draws of a
 * parsed scene (any format, detected as main.c does). The input's length
 * chooses the grid size and the glyphs (so seeds are plain files). Each ball
 * is drawn, with its trail and the aiming mark, into the view as the table
 * lies (world_rect of tui.c) and into the scene's view rectangle.
 */
#define _POSIX_C_SOURCE 200809L
#include "formats.h"
#include "scene.h"
#include "view.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void draw(const struct scene *sc, const struct sim *s, int cols, int rows,
                 int glyphs, double x0, double y0, double x1, double y1)
{
    struct view v;
    view_init(&v);
    int rim = s->p.shape == SIM_CIRCLE ? VIEW_RIM_CIRCLE : VIEW_RIM_BOX;
    if (view_layout(&v, cols, rows, x0, y0, x1, y1, 2.0, rim, glyphs) == 0) {
        for (int frame = 0; frame < 2; frame++) {
            view_begin(&v);
            for (size_t i = 0; i < s->n; i++) {
                view_trail(&v, s->x[i], s->y[i]);
                view_ball(&v, s->x[i], s->y[i], s->r[i], sc->balls[i].color);
            }
            if (s->n)
                view_mark(&v, s->x[0], s->y[0], s->r[0], s->vx[0], 1);
            view_end(&v);
        }
    }
    view_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int cols = 3 + (int)(size % 200), rows = 3 + (int)(size / 7 % 64);
    int glyphs = size & 1 ? VIEW_ASCII : VIEW_BRAILLE;
    const char *text = (const char *)data;
    struct scene sc;
    struct scene_error err;
    int rc = formats_parse(&sc, text, size, FORMATS_AUTO, &err);
    if (rc)
        return 0;
    struct sim s;
    if (scene_to_sim(&sc, &s))
        abort();
    draw(&sc, &s, cols, rows, glyphs, 0, 0, s.p.w, s.p.h);
    draw(&sc, &s, cols, rows, glyphs, sc.view.x0, sc.view.y0, sc.view.x1, sc.view.y1);
    sim_free(&s);
    scene_free(&sc);
    return 0;
}
