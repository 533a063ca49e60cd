/*
 * bar.c - the control bar's controller (see bar.h).
 */
#include "bar.h"

#include "app.h"
#include "panel.h"

#include <math.h>

/* The restitution set to @p e, rounded to the fine step, in [0, 1]. */
static void set_e(struct ui *u, double e)
{
    e = floor(e / BAR_E_STEP + 0.5) * BAR_E_STEP;
    e = e < 0 ? 0 : e > 1 ? 1 : e;
    if (e == session_state(&u->ss)->p.restitution)
        return;
    if (session_set_restitution(&u->ss, e)) {
        app_say(u, SCREEN_WARNING);
        return;
    }
    app_note(u, "restitution %.2f%s", e,
             e == 1 ? ": elastic" : e == 0 ? ": sticky, balls that meet move on together" : "");
}

void bar_elastic_key(struct ui *u, int key)
{
    double e = session_state(&u->ss)->p.restitution;
    set_e(u, e + ((key & 0xff) == 'E' ? BAR_E_STEP : -BAR_E_STEP));
}

/* The drag on the elasticity's value: where it began and from what. */
static int drag_x0;
static double drag_e0;

int bar_mouse(struct ui *u, int kind, int x, int y, int *key)
{
    *key = 0;
    if (u->drag == DRAG_ELASTIC) {
        if (kind == APP_MOUSE_MOVE || kind == APP_MOUSE_RELEASE)
            set_e(u, drag_e0 + (x - drag_x0) * BAR_E_STEP);
        if (kind == APP_MOUSE_RELEASE) {
            u->drag = DRAG_NONE;
            session_gesture(&u->ss, 0);
        }
        return 1;
    }
    int at = panel_bar_at(&u->lab.ps, x, y);
    if (!at)
        return 0;
    if (at == PANEL_BAR_ELASTIC) {
        if (u->tr) {
            *key = kind == APP_MOUSE_PRESS ? 'e' : 0; /* a replay says why not */
        } else if (kind == APP_MOUSE_PRESS) {
            u->drag = DRAG_ELASTIC;
            drag_x0 = x;
            drag_e0 = session_state(&u->ss)->p.restitution;
            session_gesture(&u->ss, 1); /* one edit however far it goes */
            app_note(u, "drag left or right: restitution in steps of %.2f", BAR_E_STEP);
        } else if (kind == APP_MOUSE_WHEEL_UP || kind == APP_MOUSE_WHEEL_DOWN) {
            bar_elastic_key(u, kind == APP_MOUSE_WHEEL_UP ? 'E' : 'e');
        }
        return 1;
    }
    if (kind == APP_MOUSE_PRESS)
        *key = at;
    return 1;
}
