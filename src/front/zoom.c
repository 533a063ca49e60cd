/*
 * zoom.c - the zoom keys (see zoom.h).
 */
#include "zoom.h"

#include "app.h"

/* The selected ball's position in (*x, *y), or the table's centre when
 * there is no ball. @return 1 for a ball. */
static int centre(struct ui *u, double *x, double *y)
{
    size_t c = session_slot(&u->ss, u->f.cue);
    if (c < session_state(&u->ss)->n && !session_nonfinite(&u->ss)) {
        *x = session_state(&u->ss)->x[c];
        *y = session_state(&u->ss)->y[c];
        return 1;
    }
    view_centre(&u->scr.v.whole, x, y);
    return 0;
}

/* The note after a change of zoom. */
static void say_zoom(struct ui *u, int ball)
{
    double z = u->f.zoom > 1 ? u->f.zoom : 1;
    if (z <= 1)
        app_note(u, "zoom: the whole table");
    else if (ball && !u->f.nofollow)
        app_note(u, "zoom x%g, following ball %zu (F: stay put, Z out, 0 whole)", z,
                 u->f.cue + 1);
    else
        app_note(u, "zoom x%g (Z out, 0 whole table)", z);
}

void zoom_key(struct ui *u, int key)
{
    double z = u->f.zoom > 1 ? u->f.zoom : 1;
    double x, y;
    int ball = centre(u, &x, &y);
    switch (key) {
    case 'z':
        if (z >= ZOOM_MAX) {
            app_note(u, "zoom x%d: the most", ZOOM_MAX);
            return;
        }
        u->f.zoom = 2 * z;
        u->f.zoom_x = x; /* around the selected ball, or the centre */
        u->f.zoom_y = y;
        break;
    case 'Z':
        if (z <= 1) {
            app_note(u, "zoom: the whole table already");
            return;
        }
        u->f.zoom = z / 2;
        u->f.zoom_x = u->scr.zoom_cx; /* out around what is shown */
        u->f.zoom_y = u->scr.zoom_cy;
        break;
    case '0':
        u->f.zoom = 1;
        break;
    case 'F':
        u->f.nofollow = !u->f.nofollow;
        if (u->f.nofollow) { /* the view stays where it is */
            u->f.zoom_x = u->scr.zoom_cx;
            u->f.zoom_y = u->scr.zoom_cy;
            app_note(u, "zoom: the view stays where it is (F follows the selected ball)");
        } else if (ball) {
            app_note(u, "zoom: the view follows ball %zu (F stays put)", u->f.cue + 1);
        } else {
            app_note(u, "zoom: the view follows the selected ball (F stays put)");
        }
        return;
    default:
        return;
    }
    say_zoom(u, ball);
}
