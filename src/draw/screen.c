/*
 * screen.c - the screen: set-up, the ball colours, layout, and the frame
 * drawn piece by piece (the pieces are in screen_text.c, screen_line.c,
 * screen_table.c and screen_help.c). See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include "scene.h"
#include "shown.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* === Colours and labels: the one place that maps scene balls to what is
 * drawn (the palette). === */

/* Fills scr->ball_fg and ball_label for the scene (palette.h): colours
 * readable on dark and light backgrounds, touching balls told apart,
 * labels unique among the bodies. Again only when the colours, the
 * background or the glyphs changed. A cell keeps a ball's colour as
 * 0xrrggbb: that of its terminal colour, which the front end finds back
 * with palette_ink_of. */
static void palette_fill(struct screen *scr, int glyphs)
{
    const struct scene *sc = scr->sc;
    int nc = scr->color == 1 ? 256 : scr->color;
    int key = 1 + ((nc * 4 + scr->bg) * 2 + (glyphs == VIEW_ASCII));
    if (scr->filled == key)
        return;
    scr->filled = key;
    size_t n = sc->n ? sc->n : 1;
    struct palette_ball *b = calloc(n, sizeof *b);
    uint16_t *w = calloc(n, sizeof *w);
    const char **names = calloc(n, sizeof *names);
    double *m = calloc(n, sizeof *m);
    struct palette p;
    for (size_t i = 0; i < sc->n; i++) {
        scr->ball_fg[i] = 0;
        scr->ball_label[i][0] = 0;
    }
    if (b && w && names && m) {
        for (size_t i = 0; i < sc->n; i++) {
            const struct scene_ball *q = &sc->balls[i];
            b[i] = (struct palette_ball){q->x, q->y, q->r, scene_color_rgb(q->color),
                                         q->color != SCENE_COLOR_NONE};
            names[i] = scene_ball_name(sc, i);
            m[i] = q->m;
        }
        palette_balls(&p, b, sc->n, nc, scr->bg, w);
        for (size_t i = 0; i < sc->n; i++)
            scr->ball_fg[i] = w[i] ? SCREEN_RGB | palette_ink_rgb(p.ink[w[i]], nc, 0) : 0;
        palette_labels(names, m, sc->n, glyphs == VIEW_ASCII, scr->ball_label);
    } else {
        scr->filled = 0; /* short of memory: the foreground and dots, for now */
    }
    free(b);
    free(w);
    free(names);
    free(m);
}

/* The cell colour of a ball by its tag (see SCREEN_TAG_ADDED). */
uint32_t screen_tag_fg(const struct screen *scr, uint32_t tag)
{
    if (!scr->color)
        return 0;
    if (tag == SCREEN_TAG_PUSHER)
        return SCREEN_WARN;
    if (tag & SCREEN_TAG_ADDED) { /* readable as the scene's own (palette.h) */
        uint32_t c = tag & ~SCREEN_TAG_ADDED;
        int nc = scr->color == 1 ? 256 : scr->color;
        struct palette_ink ink = palette_ink(scene_color_rgb(c), nc, scr->bg);
        uint32_t rgb = palette_ink_rgb(ink, nc, 0);
        return c == SCENE_COLOR_NONE || !rgb ? 0 : SCREEN_RGB | rgb;
    }
    return tag < scr->sc->n ? scr->ball_fg[tag] : 0;
}

uint32_t screen_tag_color(const struct screen *scr, uint32_t tag)
{
    return screen_tag_fg(scr, tag) & 0xffffff;
}

/* === Set-up and layout === */

int screen_init(struct screen *scr, const struct scene *sc, double aspect, int color)
{
    memset(scr, 0, sizeof *scr);
    view_init(&scr->v);
    view_init(&scr->v2);
    scr->sc = sc;
    scr->aspect = aspect;
    scr->color = color;
    size_t n = sc->n ? sc->n : 1;
    scr->ball_fg = calloc(n, sizeof *scr->ball_fg);
    scr->ball_label = calloc(n, sizeof *scr->ball_label);
    if (!scr->ball_fg || !scr->ball_label) {
        screen_free(scr);
        return -1;
    }
    palette_fill(scr, VIEW_BRAILLE);
    return 0;
}

void screen_free(struct screen *scr)
{
    view_free(&scr->v);
    view_free(&scr->v2);
    free(scr->cell);
    free(scr->ball_fg);
    free(scr->ball_label);
    free(scr->slot.fg);
    free(scr->slot.id);
    free(scr->slot.tag);
    free(scr->zorder);
    memset(scr, 0, sizeof *scr);
}

int screen_add_panel(struct screen *scr, const struct panel_class *cls, void *self)
{
    if (scr->npanels == SCREEN_MAX_PANELS)
        return -1;
    scr->panel[scr->npanels] = (struct screen_panel){cls, self};
    return scr->npanels++;
}

/* The world rectangle and how it is bounded. */
static void world_rect(const struct screen *scr, const struct sim *s, double *x0,
                       double *y0, double *x1, double *y1, int *rim)
{
    /* The scene's own bounds: a table whose walls were taken away (the b
     * key) is still drawn where it was. */
    if (scr->sc->p.shape == SIM_OPEN) {
        *x0 = scr->sc->view.x0;
        *y0 = scr->sc->view.y0;
        *x1 = scr->sc->view.x1;
        *y1 = scr->sc->view.y1;
        *rim = VIEW_RIM_NONE;
        return;
    }
    *x0 = 0;
    *y0 = 0;
    *x1 = s->p.w;
    *y1 = s->p.h;
    *rim = scr->sc->p.shape == SIM_CIRCLE ? VIEW_RIM_CIRCLE : VIEW_RIM_BOX;
}

/* The least rectangle panel @p p shows anything in. */
static void least_of(const struct screen *scr, const struct screen_panel *p, int *w, int *h)
{
    *w = 8;
    *h = 2;
    if (p->cls->least)
        p->cls->least(p->self, scr->rows - 2 - scr->lay.bar.h, w, h);
}

/* Cells a world unit across that a table rectangle of w x h gives the
 * world (two tables in it, beside or above, the better, with the split
 * view); 0 when nothing fits. */
static double table_scale(const struct screen *scr, const struct shown *sh, int glyphs, int w,
                          int h)
{
    double x0, y0, x1, y1;
    int rim;
    world_rect(scr, &sh->s, &x0, &y0, &x1, &y1, &rim);
    double ww = x1 - x0, wh = y1 - y0, a = scr->aspect;
    if (!(ww > 0) || !(wh > 0) || w < 3 || h < 3)
        return 0;
    char title[96];
    if (!screen_second_table(scr, sh, title, sizeof title, glyphs))
        return fmin((w - 2) / ww, (h - 2) * a / wh);
    double beside = fmin((w / 2 - 2) / ww, (h - 2) * a / wh);
    double above = fmin((w - 2) / ww, (h / 2 - 2) * a / wh);
    return fmax(fmax(beside, above), 0);
}

int screen_layout(struct screen *scr, int cols, int rows, const struct shown *sh, int glyphs)
{
    if (cols < 1)
        cols = 1;
    if (rows < 1)
        rows = 1;
    size_t n = (size_t)cols * (size_t)rows;
    if (n > (size_t)scr->cols * (size_t)scr->rows || !scr->cell) {
        struct screen_cell *c = realloc(scr->cell, n * sizeof *c);
        if (!c)
            return -1;
        scr->cell = c;
    }
    scr->cols = cols;
    scr->rows = rows;
    palette_fill(scr, glyphs);
    struct screen_layout *L = &scr->lay;
    memset(L, 0, sizeof *L);
    L->too_small = cols < SCREEN_MIN_COLS || rows < SCREEN_MIN_ROWS;
    L->title = (struct screen_rect){0, 0, cols, 1};
    L->status = (struct screen_rect){0, rows - 1, cols, 1};
    /* the control bar: a row above the status line, when the table keeps
     * its 6 rows besides (everything else is laid out above it) */
    int barh = 0, barwant = 0;
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *p = &scr->panel[i];
        int w = 0, h = 0;
        if (p->cls->place == PANEL_ROW && p->cls->want(p->self, sh, &w, &h))
            barwant = 1;
    }
    if (barwant && rows - 1 >= SCREEN_MIN_ROWS)
        barh = 1;
    L->bar = (struct screen_rect){0, rows - 1 - barh, barh ? cols : 0, barh};
    L->barwant = barwant;
    rows -= barh;
    L->note = (struct screen_rect){0, rows - 2, cols, 1};
    /* What each panel wants; those in rectangles go on the right when the
     * table keeps 60 columns, else in a band under it. */
    int side = 0, band = 0, on = 0, hmax = 0, least = 0;
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *p = &scr->panel[i];
        int w = 0, h = 0;
        if (p->cls->place != PANEL_BOX || !p->cls->want(p->self, sh, &w, &h) || w <= 0 ||
            h <= 0)
            w = h = 0;
        scr->want[i] = (struct screen_rect){0, 0, w, h};
        if (w > 0) {
            side = w > side ? w : side;
            band += h;
            on++;
            hmax = h > hmax ? h : hmax;
            int lw, lh;
            least_of(scr, p, &lw, &lh);
            lh = lh < h ? lh : h;
            least = lh > least ? lh : least;
        }
    }
    /* the band: side by side when each gets 40 columns, at most a third of
     * the rows or a panel's least (the table keeps the rest, and 6: with
     * half the rows, at 80x24 the balls were 3 or 4 dots across, smaller
     * than the aim mark) */
    if (on > 1 && cols / on >= 40)
        band = hmax;
    int most = (rows - 2) / 3;
    if (most < least)
        most = least;
    if (rows - 2 - most < 6)
        most = rows - 2 - 6;
    band = band < most ? band : most;
    if (band < 3)
        band = 0;
    /* beside or below, whichever leaves the table larger; when both are
     * as large, beside if the table keeps 60 columns there */
    if (side > 0) {
        double beside = table_scale(scr, sh, glyphs, cols - side, rows - 2);
        double below = band > 0 ? table_scale(scr, sh, glyphs, cols, rows - 2 - band) : 0;
        if (below > beside || (below == beside && cols - side < 60))
            side = 0;
        else
            band = 0;
    } else {
        band = 0;
    }
    L->table = (struct screen_rect){0, 1, cols - side, rows - 2 - band};
    L->side = (struct screen_rect){cols - side, 1, side, side ? rows - 2 : 0};
    L->bottom = (struct screen_rect){0, rows - 1 - band, band ? cols : 0, band};
    int rc = 1;
    if (!L->too_small) {
        double x0, y0, x1, y1;
        int rim;
        world_rect(scr, &sh->s, &x0, &y0, &x1, &y1, &rim);
        char title[96];
        scr->split = screen_second_table(scr, sh, title, sizeof title, glyphs) != NULL;
        if (scr->split) {
            /* the two tables side by side or one above the other,
             * whichever shows the world larger */
            struct screen_rect t = L->table;
            double ww = x1 - x0, wh = y1 - y0;
            double beside = fmin((t.w / 2 - 2) / ww, (t.h - 2) * scr->aspect / wh);
            double above = fmin((t.w - 2) / ww, (t.h / 2 - 2) * scr->aspect / wh);
            if (beside > above) {
                L->table = (struct screen_rect){t.x, t.y, t.w / 2, t.h};
                L->table2 = (struct screen_rect){t.x + t.w / 2, t.y, t.w - t.w / 2, t.h};
            } else {
                L->table = (struct screen_rect){t.x, t.y, t.w, t.h / 2};
                L->table2 = (struct screen_rect){t.x, t.y + t.h / 2, t.w, t.h - t.h / 2};
            }
            rc = view_layout(&scr->v2, L->table2.w, L->table2.h, x0, y0, x1, y1,
                             scr->aspect, rim, glyphs);
            if (rc < 0)
                return -1;
            if (rc != 0)
                L->table2.w = 0;
        }
        rc = view_layout(&scr->v, L->table.w, L->table.h, x0, y0, x1, y1, scr->aspect,
                         rim, glyphs);
        if (rc < 0)
            return -1;
        L->too_small = rc != 0;
    }
    for (size_t i = 0; i < n; i++)
        scr->cell[i] = (struct screen_cell){' ', 0, 0};
    return 0;
}

/* Where each panel in a rectangle goes (at[i], w 0: nowhere): down the
 * side column in turn, or in the band under the table, side by side when
 * each gets 40 columns, else stacked (the last takes what is left). */
static void place(const struct screen *scr, struct screen_rect *at)
{
    for (int i = 0; i < scr->npanels; i++)
        at[i] = (struct screen_rect){0, 0, 0, 0};
    struct screen_rect side = scr->lay.side;
    if (side.w > 0) {
        int y = side.y;
        for (int i = 0; i < scr->npanels; i++) {
            if (scr->want[i].w <= 0)
                continue;
            int h = scr->want[i].h;
            if (y + h > side.y + side.h)
                h = side.y + side.h - y;
            if (h <= 0)
                break;
            at[i] = (struct screen_rect){side.x, y, side.w, h};
            y += h;
        }
    }
    struct screen_rect bot = scr->lay.bottom;
    if (bot.h <= 0)
        return;
    int on = 0, sumw = 0;
    for (int i = 0; i < scr->npanels; i++)
        if (scr->want[i].w > 0) {
            on++;
            sumw += scr->want[i].w;
        }
    int beside = on > 1 && bot.w / on >= 40;
    int x = bot.x, y = bot.y, k = 0;
    for (int i = 0; i < scr->npanels; i++) {
        if (scr->want[i].w <= 0)
            continue;
        if (beside) { /* widths in proportion to what they want */
            int w = k + 1 == on ? bot.x + bot.w - x
                                : (int)((long)bot.w * scr->want[i].w / (sumw > 0 ? sumw : 1));
            at[i] = (struct screen_rect){x, bot.y, w - (k + 1 < on), bot.h};
            x += w;
        } else {
            int h = k + 1 == on ? bot.y + bot.h - y : scr->want[i].h;
            if (y + h > bot.y + bot.h)
                h = bot.y + bot.h - y;
            if (h <= 0)
                break;
            at[i] = (struct screen_rect){bot.x, y, bot.w, h};
            y += h;
        }
        k++;
    }
}

int screen_panel_room(const struct screen *scr, const struct panel_class *cls, int *need)
{
    struct screen_rect at[SCREEN_MAX_PANELS];
    *need = 0;
    if (scr->lay.too_small)
        return 0;
    place(scr, at);
    if (cls->place == PANEL_ROW) { /* the control bar: a row of the terminal's */
        *need = SCREEN_MIN_ROWS + 1;
        return scr->lay.bar.h > 0 || !scr->lay.barwant;
    }
    for (int i = 0; i < scr->npanels; i++) {
        if (scr->panel[i].cls != cls || cls->place != PANEL_BOX)
            continue;
        if (scr->want[i].w <= 0)
            return 1; /* hidden, not short of room */
        int lw, lh;
        least_of(scr, &scr->panel[i], &lw, &lh);
        *need = lh;
        return at[i].h >= lh && at[i].w >= lw;
    }
    return 1;
}

/* The control bar's panels on their row. */
static void draw_bar(struct screen *scr, struct panel_area a)
{
    if (scr->lay.bar.h <= 0)
        return;
    a.r = scr->lay.bar;
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *p = &scr->panel[i];
        int w, h;
        if (p->cls->place == PANEL_ROW && p->cls->want(p->self, a.sh, &w, &h))
            p->cls->draw(p->self, &a);
    }
}

void screen_clear_trails(struct screen *scr)
{
    if (scr->v.cell)
        view_clear_trails(&scr->v);
}

/* === The frame === */

void screen_draw(struct screen *scr, const struct shown *sh, const struct front *f,
                 const struct screen_help *help, size_t nhelp)
{
    size_t n = (size_t)scr->cols * (size_t)scr->rows;
    for (size_t i = 0; i < n; i++)
        scr->cell[i] = (struct screen_cell){' ', 0, 0};
    scr->legend = (struct screen_rect){0, 0, 0, 0};
    if (scr->lay.too_small) {
        char l2[64];
        snprintf(l2, sizeof l2, "%dx%d, need %dx%d", scr->cols, scr->rows,
                 SCREEN_MIN_COLS, SCREEN_MIN_ROWS);
        const char *l1 = "terminal too small";
        int row = scr->rows / 2 - 1 > 0 ? scr->rows / 2 - 1 : 0;
        int c1 = (scr->cols - screen_width(l1)) / 2, c2 = (scr->cols - screen_width(l2)) / 2;
        screen_text(scr, c1 > 0 ? c1 : 0, row, scr->cols, 0, SCREEN_BOLD, l1);
        screen_text(scr, c2 > 0 ? c2 : 0, row + 1, scr->cols, 0, 0, l2);
        return;
    }
    if (f->blank) /* a presenter's blank screen: nothing at all */
        return;
    screen_draw_table(scr, sh, f);
    screen_draw_arrow(scr, sh, f);
    screen_draw_zoom(scr, f);
    struct panel_area a = {scr, sh, f, {0, 0, 0, 0}, NULL, NULL, 0, NULL};
    struct screen_rect at[SCREEN_MAX_PANELS];
    place(scr, at);
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *p = &scr->panel[i];
        if (at[i].w <= 0 || at[i].h <= 0)
            continue;
        a.r = at[i];
        if (p->cls->update)
            p->cls->update(p->self, sh);
        p->cls->draw(p->self, &a);
    }
    screen_draw_title(scr, sh, f);
    draw_bar(scr, a);
    if (f->prompt)
        screen_draw_prompt(scr, f);
    else
        screen_draw_status(scr, sh, f);
    screen_draw_note(scr, f);
    if (f->help)
        screen_draw_help(scr, f, help, nhelp);
}
