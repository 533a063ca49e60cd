/*
 * screen_zoom.c - the zoom (issue 26.5): z, Z, 0 and F, the view following
 * the cue ball, and the inset mark of where the view is. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include "session.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>

/* The most the view zooms in. */
enum { ZOOM_MAX = 64 };

const char *screen_zoom(struct screen *scr, const struct session *ss, size_t cue, int key,
                        int glyphs)
{
    static char msg[96];
    const char *times = glyphs == VIEW_ASCII ? "x" : "\xc3\x97";
    size_t i = session_slot(ss, cue);
    int have = i < ss->s.n && isfinite(ss->s.x[i]) && isfinite(ss->s.y[i]);
    switch (key) {
    case 'z':
        if (scr->zoom >= ZOOM_MAX)
            return "zoomed in as far as it goes";
        if (have) {
            scr->zx = ss->s.x[i];
            scr->zy = ss->s.y[i];
        } else if (scr->zoom == 1) {
            double x0, y0, x1, y1;
            int rim;
            screen_world_rect(scr, &ss->s, &x0, &y0, &x1, &y1, &rim);
            scr->zx = (x0 + x1) / 2;
            scr->zy = (y0 + y1) / 2;
        }
        scr->zoom *= 2;
        break;
    case 'Z':
        if (scr->zoom <= 1)
            return "the whole table";
        scr->zoom /= 2;
        break;
    case '0':
        scr->zoom = 1;
        return "the whole table";
    case 'F':
        scr->follow = !scr->follow;
        if (!scr->follow)
            return "follow off: the view stays";
        break;
    default:
        return NULL;
    }
    if (scr->zoom == 1)
        return key == 'F' ? "follow on (when zoomed)" : "the whole table";
    if (scr->follow && have)
        snprintf(msg, sizeof msg, "zoom %s%d, following ball %zu", times, scr->zoom, cue + 1);
    else
        snprintf(msg, sizeof msg, "zoom %s%d", times, scr->zoom);
    return msg;
}

void screen_zoom_follow(struct screen *scr, struct session *ss, const struct front *f)
{
    if (scr->zoom <= 1 || !scr->follow || f->open)
        return;
    const struct sim *s = &ss->s;
    size_t i = session_slot(ss, f->cue);
    if (i >= s->n || !isfinite(s->x[i]) || !isfinite(s->y[i]))
        return;
    const struct view_map *m = &scr->v.map;
    double qw = (m->x1 - m->x0) / 4, qh = (m->y1 - m->y0) / 4;
    if (s->x[i] >= m->x0 + qw && s->x[i] <= m->x1 - qw && s->y[i] >= m->y0 + qh &&
        s->y[i] <= m->y1 - qh)
        return;
    scr->zx = s->x[i];
    scr->zy = s->y[i];
    screen_views(scr, ss); /* short of memory: the view stays where it was */
}

void screen_zoom_inset(struct screen *scr, struct screen_rect t, const struct sim *s,
                       int glyphs)
{
    enum { IW = 12, IH = 3 }; /* the table in 12 x 3 cells */
    const struct view_map *m = &scr->v.map;
    if (scr->zoom <= 1 || m->w < 3 * (IW + 2) || m->h < 3 * (IH + 2))
        return;
    double x0, y0, x1, y1;
    int rim;
    screen_world_rect(scr, s, &x0, &y0, &x1, &y1, &rim);
    int ascii = glyphs == VIEW_ASCII;
    struct screen_rect box = {t.x + m->left + m->w - (IW + 2), t.y + m->top, IW + 2, IH + 2};
    screen_fill(scr, box);
    screen_box(scr, box, NULL, glyphs);
    double cw = (x1 - x0) / IW, ch = (y1 - y0) / IH;
    for (int j = 0; j < IH; j++)
        for (int i = 0; i < IW; i++) {
            /* the world rectangle of this cell of the inset, y up */
            double a0 = x0 + i * cw, a1 = a0 + cw, b1 = y1 - j * ch, b0 = b1 - ch;
            int in = a1 > m->x0 && a0 < m->x1 && b1 > m->y0 && b0 < m->y1;
            screen_put(scr, box.x + 1 + i, box.y + 1 + j,
                       in ? (ascii ? '#' : 0x2588) : (ascii ? '.' : 0x00b7), 0,
                       in ? SCREEN_BOLD : SCREEN_DIM);
        }
}
