/*
 * panel_split.c - the split view's second table: the event engine's state,
 * time-locked with the spring engine's (labscreen.h starts and syncs the
 * engines; see panel.h). The screen draws the table (struct panel_class's
 * second): the panel draws nothing itself.
 */
#include "panel.h"

#include <stdio.h>

static int split_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct panel_state *ps = self;
    (void)sh;
    *w = *h = 0;
    return ps->split && ps->split_hard;
}

static const struct sim *split_second(void *self, const struct shown *sh, char *title,
                                      size_t size, int glyphs)
{
    const struct panel_state *ps = self;
    (void)sh;
    if (!ps->split || !ps->split_hard)
        return NULL;
    struct lab_totals tot;
    lab_sums(ps->split_hard, &tot); /* its ke alone */
    const char *dot = glyphs == VIEW_ASCII ? " - " : " \xc2\xb7 ";
    snprintf(title, size, "events%sKE %.6g%s%lld collision%s", dot, tot.ke, dot,
             ps->split_collisions, ps->split_collisions == 1 ? "" : "s");
    return ps->split_hard;
}

/* s: the flag alone; the front end starts the engines (labscreen_split). */
static const char *split_key(void *self, int key, size_t nballs)
{
    struct panel_state *ps = self;
    (void)nballs;
    if (key != 's')
        return NULL;
    ps->split = !ps->split;
    return ps->split ? "split: spring and event engines" : "split off";
}

const struct panel_class panel_split_class = {
    "split", PANEL_TABLE, split_want, NULL, NULL, split_key, NULL, split_second, NULL,
};
