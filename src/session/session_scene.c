/*
 * session_scene.c - the session's state as a scene (see session_scene.h).
 */
#include "session_scene.h"

#include <stdlib.h>
#include <string.h>

int session_scene(const struct session *ss, int when, size_t skip, size_t cue,
                  uint32_t (*color)(void *arg, uint32_t tag), void *arg,
                  struct scene *sc)
{
    memset(sc, 0, sizeof *sc);
    const struct sim *s = when == SESSION_SCENE_START ? &ss->start : &ss->s;
    const uint32_t *tag = when == SESSION_SCENE_START ? ss->tag_start : ss->tag;
    size_t n = s->n - (skip < s->n);
    sc->balls = calloc(n ? n : 1, sizeof *sc->balls);
    if (!sc->balls)
        return -1;
    sc->n = sc->cap = n;
    sc->p = s->p;
    sc->format = SCENE_FORMAT_NATIVE;
    sc->view.x1 = s->p.w;
    sc->view.y1 = s->p.h;
    for (size_t b = 0, k = 0; b < s->n; b++) {
        if (b == skip)
            continue;
        size_t i = sim_slot(s, b);
        struct scene_ball *o = &sc->balls[k++];
        o->x = s->x[i];
        o->y = s->y[i];
        o->vx = s->vx[i];
        o->vy = s->vy[i];
        o->m = s->m[i];
        o->r = s->r[i];
        o->color = color && tag ? color(arg, tag[b]) : SCENE_COLOR_NONE;
    }
    /* A replay's frame holds observed velocities; a scene the stored
     * ones it runs on from (sim_unobserve), as -H prints a frame. */
    if (ss->engine == SESSION_REPLAY && when == SESSION_SCENE_NOW) {
        struct sim t = {0};
        if (sim_assign(&t, s) || sim_unobserve(&t, t.vx, t.vy) != SIM_OK) {
            sim_free(&t);
            free(sc->balls);
            sc->balls = NULL;
            return -1;
        }
        for (size_t b = 0, k = 0; b < s->n; b++) {
            if (b == skip)
                continue;
            size_t i = sim_slot(&t, b);
            sc->balls[k].vx = t.vx[i];
            sc->balls[k++].vy = t.vy[i];
        }
        sim_free(&t);
    }
    if (cue < s->n && cue != skip)
        sc->cue = cue + 1 - (skip < cue);
    return 0;
}
