/*
 * panel.c - the lab's panels: their state, their table, the keys' way to
 * them, and what their files share (see panel.h).
 */
#include "panel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===== State ===== */

void panel_state_init(struct panel_state *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->ov.selected = PANEL_NONE;
    ps->ov.aspect = 2;
    ps->pv.selected = PANEL_NONE;
}

void panel_state_free(struct panel_state *ps)
{
    ps->split_hard = NULL;
    free(ps->fx);
    free(ps->fy);
    ps->fx = ps->fy = NULL;
    ps->nf = 0;
}

/* ===== The table and the keys ===== */

const struct panel_class *const panel_table[] = {
    &panel_values_class, &panel_plot_class, &panel_overlay_class, &panel_status_class,
    &panel_split_class, &panel_bar_class,
};
const int panel_count = (int)(sizeof panel_table / sizeof *panel_table);

const char *panel_key(struct panel_state *ps, int key, size_t nballs)
{
    size_t *sel = &ps->ov.selected;
    if (*sel != PANEL_NONE && *sel >= nballs)
        *sel = PANEL_NONE;
    int first = ps->focus >= 0 && ps->focus < panel_count ? ps->focus : 0;
    for (int k = -1; k < panel_count; k++) {
        int i = k < 0 ? first : k;
        if ((k >= 0 && i == first) || !panel_table[i]->key)
            continue;
        const char *msg = panel_table[i]->key(ps, key, nballs);
        if (msg) {
            ps->focus = i;
            return msg;
        }
    }
    return NULL;
}

/* ===== Drawing ===== */

void panel_color(uint32_t tag, uint32_t *fg, int *attr)
{
    *attr = 0;
    switch (tag) {
    case PANEL_TEXT: *fg = 0; break;
    case PANEL_DIM: *fg = 0; *attr = SCREEN_DIM; break;
    case PANEL_HILITE: *fg = 0; *attr = SCREEN_REVERSE; break;
    case PANEL_KE: *fg = SCREEN_RGB | 0x5fd7ff; break;    /* sky blue */
    case PANEL_PE: *fg = SCREEN_RGB | 0xd787ff; break;    /* violet */
    case PANEL_E: *fg = SCREEN_RGB | 0xffffaf; *attr = SCREEN_BOLD; break;
    case PANEL_PX: *fg = SCREEN_RGB | 0x87d787; break;    /* green */
    case PANEL_PY: *fg = SCREEN_RGB | 0xffaf5f; break;    /* orange */
    case PANEL_BAR: *fg = SCREEN_RGB | 0x5f87d7; break;   /* steel blue */
    case PANEL_CURVE: *fg = SCREEN_RGB | 0xffd75f; *attr = SCREEN_BOLD; break;
    case PANEL_V: *fg = SCREEN_RGB | 0x5fff87; *attr = SCREEN_BOLD; break; /* green */
    case PANEL_P: *fg = SCREEN_RGB | 0xffaf00; *attr = SCREEN_BOLD; break; /* amber */
    case PANEL_F: *fg = SCREEN_RGB | 0xff5faf; *attr = SCREEN_BOLD; break; /* pink */
    case PANEL_CM: *fg = SCREEN_RGB | 0xffff5f; *attr = SCREEN_BOLD; break;
    case PANEL_SELECT: *fg = SCREEN_RGB | 0xffffff; *attr = SCREEN_BOLD; break;
    case PANEL_WARN: *fg = SCREEN_WARN; *attr = SCREEN_BOLD; break;
    default: *fg = tag; break; /* already a screen colour */
    }
}

void panel_blit(struct screen *scr, int x, int y, struct plot *p, int glyphs)
{
    if (glyphs == VIEW_ASCII)
        plot_ascii(p);
    for (int j = 0; j < p->h; j++)
        for (int i = 0; i < p->w; i++) {
            const struct plot_cell *c = &p->cell[j * p->w + i];
            uint32_t fg;
            int attr;
            panel_color(c->color, &fg, &attr);
            screen_put(scr, x + i, y + j, c->ch ? c->ch : ' ', c->ch ? fg : 0,
                       c->ch || c->color == PANEL_HILITE ? attr : 0);
        }
}

struct plot panel_grid(int w, int h)
{
    struct plot p = {w > 0 ? w : 0, h > 0 ? h : 0, NULL};
    if (p.w && p.h)
        p.cell = calloc((size_t)p.w * (size_t)p.h, sizeof *p.cell);
    if (!p.cell)
        p.w = p.h = 0;
    return p;
}

void panel_rule(struct screen *scr, struct screen_rect r, const char *name, int glyphs)
{
    uint32_t hz = glyphs == VIEW_ASCII ? '-' : 0x2500;
    for (int i = 0; i < r.w; i++)
        screen_put(scr, r.x + i, r.y, hz, 0, SCREEN_DIM);
    char buf[96];
    snprintf(buf, sizeof buf, " %s ", name);
    screen_text(scr, r.x + 2, r.y, r.w - 4, 0, SCREEN_BOLD, buf);
}

