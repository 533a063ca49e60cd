/*
 * ansi.c - a screen of cells as a terminal's bytes, diffed (see ansi.h).
 */
#include "ansi.h"

#include "palette.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(struct ansi *a, const char *s, size_t n)
{
    if (a->nomem)
        return;
    if (a->cap - a->len < n) {
        size_t cap = a->cap ? a->cap : 4096;
        while (cap - a->len < n)
            cap *= 2;
        char *nb = realloc(a->buf, cap);
        if (!nb) {
            a->nomem = 1;
            return;
        }
        a->buf = nb;
        a->cap = cap;
    }
    memcpy(a->buf + a->len, s, n);
    a->len += n;
}

static void puts_(struct ansi *a, const char *s)
{
    put(a, s, strlen(s));
}

static const struct screen_cell blank = {' ', 0, 0};

static int same(const struct screen_cell *p, const struct screen_cell *q)
{
    return p->ch == q->ch && p->fg == q->fg && p->attr == q->attr;
}

/* A code point UTF-8 can carry (no surrogate, at most U+10FFFF). */
static int scalar(uint32_t c)
{
    return c <= 0x10ffff && !(c >= 0xd800 && c <= 0xdfff);
}

/* The width a terminal gives the cell's character: 0 (nothing it keeps in
 * a cell of its own), 1 or 2. */
static int width(uint32_t c)
{
    if (c == SCREEN_WIDE || !scalar(c) || c < 0x20 || (c >= 0x7f && c < 0xa0))
        return 0;
    return screen_cp_width(c);
}

/* Cell (x, y) of @p scr as a terminal can show it (see ansi.h): a blank
 * whatever its colour unless reversed; a glyph the terminal would not keep
 * in its cell, a blank. */
static struct screen_cell norm(const struct screen *scr, int x, int y)
{
    const struct screen_cell *row = &scr->cell[(size_t)y * (size_t)scr->cols];
    struct screen_cell c = row[x];
    if (c.ch == SCREEN_WIDE) {
        if (!(x > 0 && width(row[x - 1].ch) == 2))
            c.ch = ' ';
    } else {
        int w = width(c.ch);
        if (w == 0 || (w == 2 && (x + 1 >= scr->cols || row[x + 1].ch != SCREEN_WIDE)))
            c.ch = ' ';
    }
    if (c.ch == ' ' && !(c.attr & SCREEN_REVERSE))
        return blank;
    c.attr &= SCREEN_BOLD | SCREEN_DIM | SCREEN_REVERSE;
    return c;
}

/* The cell's glyph (a scalar value: norm blanks any other) as UTF-8. */
static void utf8(struct ansi *a, uint32_t c)
{
    char b[4];
    put(a, b, (size_t)screen_utf8_put(b, c));
}

/* The cursor to (x, y): nothing when it is there, along its row over at
 * most two blanks by writing them again (shorter than CUF, and invisible
 * without reverse), CUF further along its row, else CUP. */
static void move(struct ansi *a, int x, int y)
{
    char s[32];
    if (a->cx >= 0 && a->cy == y && a->cx == x)
        return;
    if (a->cx >= 0 && a->cy == y && x > a->cx && x - a->cx <= 2 && a->pen_attr >= 0 &&
        !(a->pen_attr & SCREEN_REVERSE)) {
        const struct screen_cell *row = &a->shown[(size_t)y * (size_t)a->cols];
        int i = a->cx;
        while (i < x && same(&row[i], &blank))
            i++;
        if (i == x) {
            put(a, "  ", (size_t)(x - a->cx));
            a->cx = x;
            return;
        }
    }
    if (a->cx >= 0 && a->cy == y && x > a->cx) {
        if (x - a->cx == 1)
            puts_(a, "\033[C");
        else {
            snprintf(s, sizeof s, "\033[%dC", x - a->cx);
            puts_(a, s);
        }
    } else {
        snprintf(s, sizeof s, "\033[%d;%dH", y + 1, x + 1);
        puts_(a, s);
    }
    a->cx = x;
    a->cy = y;
}

/* The SGR state for a cell @p c (a blank takes any without reverse). */
static void pen(struct ansi *a, const struct screen_cell *c, int ncolors)
{
    if (c->ch == ' ' && !(c->attr & SCREEN_REVERSE) && a->pen_attr >= 0 &&
        !(a->pen_attr & SCREEN_REVERSE))
        return;
    if (a->pen_attr == c->attr && a->pen_fg == c->fg)
        return;
    char s[48];
    int n = snprintf(s, sizeof s, "\033[0");
    int bold = c->attr & SCREEN_BOLD;
    char col[24] = "";
    if (c->fg && ncolors) {
        struct palette_ink k = palette_ink_of(c->fg & 0xffffff, ncolors);
        if (k.fg >= 0 && ncolors >= 256)
            snprintf(col, sizeof col, ";38;5;%d", k.fg);
        else if (k.fg >= 8)
            snprintf(col, sizeof col, ";%d", 90 + (k.fg - 8));
        else if (k.fg >= 0)
            snprintf(col, sizeof col, ";%d", 30 + k.fg);
        if (k.bold)
            bold = 1;
    }
    if (bold)
        n += snprintf(s + n, sizeof s - (size_t)n, ";1");
    if (c->attr & SCREEN_DIM)
        n += snprintf(s + n, sizeof s - (size_t)n, ";2");
    if (c->attr & SCREEN_REVERSE)
        n += snprintf(s + n, sizeof s - (size_t)n, ";7");
    snprintf(s + n, sizeof s - (size_t)n, "%sm", col);
    puts_(a, s);
    a->pen_attr = c->attr;
    a->pen_fg = c->fg;
}

/* 1 when the cells of row @p y from @p x on are all blanks. */
static int rest_blank(const struct screen *scr, int x, int y)
{
    for (; x < scr->cols; x++) {
        struct screen_cell c = norm(scr, x, y);
        if (!same(&c, &blank))
            return 0;
    }
    return 1;
}

int ansi_frame(struct ansi *a, const struct screen *scr, int ncolors, int redraw)
{
    a->len = 0;
    a->nomem = 0;
    int cols = scr->cols, rows = scr->rows;
    size_t n = (size_t)cols * (size_t)rows;
    if (cols != a->cols || rows != a->rows || !a->shown) {
        free(a->shown);
        a->shown = n ? malloc(n * sizeof *a->shown) : NULL;
        a->cols = a->shown ? cols : 0;
        a->rows = a->shown ? rows : 0;
        if (!a->shown)
            return n ? -1 : 0;
        redraw = 1;
    }
    if (redraw) {
        /* the cursor hidden, attributes off, the screen cleared */
        puts_(a, "\033[?25l\033[0m\033[H\033[2J");
        for (size_t i = 0; i < n; i++)
            a->shown[i] = blank;
        a->cx = a->cy = 0;
        a->pen_attr = 0;
        a->pen_fg = 0;
    }
    for (int y = 0; y < rows; y++) {
        struct screen_cell *shown = &a->shown[(size_t)y * (size_t)cols];
        for (int x = 0; x < cols;) {
            struct screen_cell c = norm(scr, x, y);
            if (c.ch == SCREEN_WIDE) { /* written with its first cell */
                x++;
                continue;
            }
            int w = width(c.ch) == 2 ? 2 : 1;
            struct screen_cell c2 = w == 2 ? norm(scr, x + 1, y) : blank;
            if (same(&c, &shown[x]) && (w == 1 || same(&c2, &shown[x + 1]))) {
                x += w;
                continue;
            }
            if (same(&c, &blank) && rest_blank(scr, x, y)) {
                /* the rest of the row blank: erased, with the default
                 * background */
                move(a, x, y);
                if (a->pen_attr != 0 || a->pen_fg != 0) {
                    puts_(a, "\033[0m");
                    a->pen_attr = 0;
                    a->pen_fg = 0;
                }
                puts_(a, "\033[K");
                for (int i = x; i < cols; i++)
                    shown[i] = blank;
                break;
            }
            move(a, x, y);
            pen(a, &c, ncolors);
            utf8(a, c.ch);
            shown[x] = c;
            if (w == 2)
                shown[x + 1] = c2;
            x += w;
            /* in the last column a terminal holds the cursor there, its
             * wrap pending: not known */
            a->cx = x < cols ? x : -1;
        }
    }
    return a->nomem ? -1 : 0;
}

int ansi_end(struct ansi *a)
{
    a->len = 0;
    a->nomem = 0;
    char s[32];
    snprintf(s, sizeof s, "\033[0m\033[%d;1H\033[?25h", a->rows > 0 ? a->rows : 1);
    puts_(a, s);
    a->pen_attr = 0;
    a->pen_fg = 0;
    a->cx = 0;
    a->cy = a->rows > 0 ? a->rows - 1 : 0;
    return a->nomem ? -1 : 0;
}

void ansi_free(struct ansi *a)
{
    free(a->shown);
    free(a->buf);
    memset(a, 0, sizeof *a);
}
