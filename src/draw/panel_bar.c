/*
 * panel_bar.c - the control bar (issue 42): a row above the status line
 * with the toggles a teacher uses most, as htop's bar of function keys:
 * each item its key (reverse video) and its name, the name bright when on,
 * dim when off, a setting's value after it (see panel.h). A click on an
 * item is its key: the front end plays it through the one key table
 * (panel_bar_at says which).
 */
#include "panel.h"

#include "shown.h"

#include <stdio.h>
#include <string.h>

/* One item as drawn: its key's label, its name in three lengths, on/off
 * or a value. */
#define FORMS 3
struct bar_item {
    int key;              /* what a click on it plays */
    const char *cap;      /* the key as shown */
    char name[FORMS][24]; /* long, medium, short */
    int on;               /* 1 bright, 0 dim */
};

/* Item @p k named @p a, @p b, @p c. */
static void item(struct bar_item *it, int key, const char *cap, int on, const char *a,
                 const char *b, const char *c)
{
    it->key = key;
    it->cap = cap;
    it->on = on;
    snprintf(it->name[0], sizeof it->name[0], "%s", a);
    snprintf(it->name[1], sizeof it->name[1], "%s", b);
    snprintf(it->name[2], sizeof it->name[2], "%s", c);
}

/* The items of the state shown, in the bar's order. @return their count. */
static int items(const struct panel_state *ps, const struct panel_area *a, struct bar_item *it)
{
    const struct sim_params *p = &a->sh->s.p;
    static const char *const plot_name[PANEL_PLOT_COUNT][FORMS] = {
        {"plot", "plot", "plot"}, {"energy", "energy", "E(t)"},
        {"momentum", "p(t)", "p(t)"}, {"speeds", "speeds", "v"},
        {"p diagram", "p diag", "Σp"},
    };
    static const char *const border_name[3][FORMS] = {
        {"spring walls", "springs", "spr"}, {"hard walls", "hard", "hard"},
        {"no walls", "open", "open"}};
    int n = 0, pl = ps->plot >= 0 && ps->plot < PANEL_PLOT_COUNT ? ps->plot : 0;
    int run = a->f->running, border = lab_border(p) % 3;
    char e[3][24];
    snprintf(e[0], sizeof e[0], "elastic %.2f", p->restitution);
    snprintf(e[1], sizeof e[1], "e %.2f", p->restitution);
    snprintf(e[2], sizeof e[2], "%.2f", p->restitution);
    item(&it[n++], ' ', "space", run, run ? "running" : "paused", run ? "run" : "pause",
         run ? "run" : "pause");
    item(&it[n++], '.', ".", 1, "step", "step", "step");
    item(&it[n++], 'v', "v", (ps->ov.arrows & PANEL_ARROW_V) != 0, "vectors", "vectors", "v");
    item(&it[n++], 'i', "i", ps->values, "values", "values", "val");
    item(&it[n++], 'c', "c", ps->ov.cm, "centre", "centre", "cm");
    item(&it[n++], 'P', "P", pl != PANEL_PLOT_OFF, plot_name[pl][0], plot_name[pl][1],
         plot_name[pl][2]);
    item(&it[n++], 'e', "e E", 1, e[0], e[1], e[2]);
    if (!a->f->open)
        item(&it[n++], 'b', "b", border != LAB_BORDER_SPRING, border_name[border][0],
             border_name[border][1], border_name[border][2]);
    item(&it[n++], '1', "1", p->line != 0, "1-D", "1-D", "1-D");
    return n;
}

static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

static int bar_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct panel_state *ps = self;
    (void)sh;
    *w = *h = 0;
    if (!ps->bar)
        return 0;
    *w = 1;
    *h = 1;
    return 1;
}

/* The bar on row a->r: the long names when they all fit, else the
 * medium, else the short ones, as many items as fit; the spans of each key into ps->hit. */
static void bar_draw(void *self, const struct panel_area *a)
{
    struct panel_state *ps = self;
    struct bar_item it[PANEL_BAR_MAX];
    int n = items(ps, a, it), ascii = a->f->glyphs == VIEW_ASCII;
    ps->nhit = 0;
    ps->bar_y = a->r.y;
    int form = 0;
    for (; form < FORMS; form++) {
        int w = -1; /* no blank after the last */
        for (int k = 0; k < n; k++)
            w += text_width(it[k].cap) + 1 + text_width(it[k].name[form]) + 1;
        if (w <= a->r.w)
            break;
    }
    if (form == FORMS)
        form = FORMS - 1;
    int x = a->r.x, end = a->r.x + a->r.w;
    for (int k = 0; k < n; k++) {
        const char *name = it[k].name[form];
        char plain[24];
        if (ascii && !strcmp(name, "Σp"))
            name = "sum p";
        snprintf(plain, sizeof plain, "%s", name);
        int wc = text_width(it[k].cap), wn = text_width(plain);
        if (x + wc + 1 + wn > end)
            break;
        int x0 = x;
        /* "e E": two keys, each its own place to click */
        if (it[k].key == 'e') {
            screen_text(a->scr, x, a->r.y, 1, 0, SCREEN_REVERSE | SCREEN_BOLD, "e");
            screen_text(a->scr, x + 2, a->r.y, 1, 0, SCREEN_REVERSE | SCREEN_BOLD, "E");
            if (ps->nhit + 2 <= PANEL_BAR_MAX) {
                ps->hit[ps->nhit++] = (struct panel_bar_hit){x, x + 2, 'e'};
                ps->hit[ps->nhit++] = (struct panel_bar_hit){x + 2, x + 3, 'E'};
            }
            x += 3;
        } else {
            x += screen_text(a->scr, x, a->r.y, wc, 0, SCREEN_REVERSE | SCREEN_BOLD,
                             it[k].cap);
        }
        x++;
        uint32_t fg = it[k].on ? SCREEN_RGB | 0x5fd7ff : 0;
        int attr = it[k].on ? SCREEN_BOLD : SCREEN_DIM;
        int xn = x;
        x += screen_text(a->scr, x, a->r.y, wn, fg, attr, plain);
        if (ps->nhit < PANEL_BAR_MAX) {
            /* the key's cap (but e E's) and its name: one place to click;
             * e E's value: a drag or the wheel sets it in 0.01 */
            if (it[k].key == 'e')
                ps->hit[ps->nhit++] = (struct panel_bar_hit){xn, x, PANEL_BAR_ELASTIC};
            else
                ps->hit[ps->nhit++] = (struct panel_bar_hit){x0, x, it[k].key};
        }
        x++;
    }
}

int panel_bar_at(const struct panel_state *ps, int x, int y)
{
    if (!ps->bar || y != ps->bar_y)
        return 0;
    for (int k = 0; k < ps->nhit; k++)
        if (x >= ps->hit[k].x0 && x < ps->hit[k].x1)
            return ps->hit[k].key;
    return 0;
}

/* C: the bar on / off. */
static const char *bar_key(void *self, int key, size_t nballs)
{
    struct panel_state *ps = self;
    (void)nballs;
    if (key != 'C')
        return NULL;
    ps->bar = !ps->bar;
    ps->nhit = 0;
    return ps->bar ? "control bar on (click an item)" : "control bar off";
}

const struct panel_class panel_bar_class = {
    "bar", PANEL_ROW, bar_want, NULL, bar_draw, bar_key, NULL, NULL, NULL,
};
