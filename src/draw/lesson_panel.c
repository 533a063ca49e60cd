/*
 * lesson_panel.c - the lesson's state in the front end and its panel (see
 * lesson_panel.h).
 */
#include "lesson_panel.h"

#include "sim.h"
#include "view.h"

#include <stdio.h>
#include <string.h>

/* ===== The lesson's state ===== */

int lesson_view_next(const struct lesson_view *lv)
{
    if (lv->ls->step[lv->step].ask && !lv->revealed)
        return LESSON_NEXT_REVEAL;
    return lv->step + 1 < lv->ls->nstep ? LESSON_NEXT_STEP : LESSON_NEXT_END;
}

void lesson_view_goto(struct lesson_view *lv, size_t step)
{
    lv->step = step < lv->ls->nstep ? step : lv->ls->nstep - 1;
    lv->revealed = 0;
    lv->fail = LESSON_OK;
    lv->value = 0;
}

int lesson_view_reveal(struct lesson_view *lv, const struct sim *now, const struct sim *start)
{
    const struct lesson_step *st = &lv->ls->step[lv->step];
    if (!st->ask)
        return 0;
    lv->value = 0;
    lv->fail = lesson_measure(&st->q, now, start, &lv->value);
    lv->revealed = 1;
    return 1;
}

const char *lesson_view_answer(const struct lesson_view *lv, char *buf, size_t size,
                               int utf8)
{
    const struct lesson_step *st = &lv->ls->step[lv->step];
    char name[96], v[48];
    lesson_quantity_name(&st->q, name, sizeof name, utf8);
    switch (lv->fail) {
    case LESSON_OK:
        snprintf(buf, size, "%s = %s", name, lesson_value_text(lv->value, v, sizeof v));
        break;
    case LESSON_NO_BALL:
        snprintf(buf, size, "%s: no such ball now", name);
        break;
    case LESSON_AT_REST:
        snprintf(buf, size, "%s: a ball is at rest (no direction)", name);
        break;
    default:
        snprintf(buf, size, "%s: no value (the state is not finite)", name);
    }
    return buf;
}

/* ===== The panel ===== */

/* Colours: the step's title, the question, the answer. */
#define TITLE_FG (SCREEN_RGB | 0x5fd7ff)
#define ASK_FG SCREEN_WARN
#define ANSWER_FG (SCREEN_RGB | 0x87ff5f)

enum { MAX_ROWS = 64, ROW_BYTES = 256 };

/* A row of the panel: its text and how it is drawn. kind: what may go
 * when the rows do not fit (blank rows first, then the keys' row, then
 * text from its end, then the step's title: the question and its answer
 * stay longest). */
enum row_kind { ROW_KEEP, ROW_BLANK, ROW_KEYS, ROW_TEXT, ROW_TITLE };

struct rows {
    int n;
    char text[MAX_ROWS][ROW_BYTES];
    uint32_t fg[MAX_ROWS];
    int attr[MAX_ROWS];
    int kind[MAX_ROWS];
};

static void add_row(struct rows *r, const char *s, size_t len, uint32_t fg, int attr,
                    int kind)
{
    if (r->n == MAX_ROWS)
        return;
    if (len >= ROW_BYTES)
        len = ROW_BYTES - 1;
    memcpy(r->text[r->n], s, len);
    r->text[r->n][len] = 0;
    r->fg[r->n] = fg;
    r->attr[r->n] = attr;
    r->kind[r->n] = kind;
    r->n++;
}

/* Adds @p s, its lines ('\n') each wrapped at words to @p width columns
 * (a code point a column; a word longer than a row is cut), the first row
 * after @p lead and the others indented as far. */
static void add_wrapped(struct rows *r, const char *lead, const char *s, int width,
                        uint32_t fg, int attr, int kind)
{
    size_t ll = strlen(lead);
    int lw = 0;
    for (size_t i = 0; i < ll; i++)
        lw += ((unsigned char)lead[i] & 0xc0) != 0x80;
    int w = width - lw;
    if (w < 8)
        w = 8;
    int first = 1;
    for (const char *p = s;;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        do {
            /* the longest run of whole words within w columns */
            const char *cut = p, *q = p;
            int cols = 0;
            while (q < end) {
                if (((unsigned char)*q & 0xc0) != 0x80) {
                    if (cols == w)
                        break;
                    cols++;
                }
                q++;
                if (q == end || *q == ' ')
                    cut = q;
            }
            if (q == end)
                cut = end;
            else if (cut == p)
                cut = q; /* one word longer than the row */
            char row[ROW_BYTES];
            int n = snprintf(row, sizeof row, "%*s%.*s", first ? 0 : lw, first ? lead : "",
                             (int)(cut - p), p);
            add_row(r, row, n < 0 ? 0 : (size_t)n, fg, attr, kind);
            first = 0;
            p = cut;
            while (p < end && *p == ' ')
                p++;
        } while (p < end);
        if (!nl)
            break;
        p = nl + 1;
        first = 1; /* each line of text starts flush again */
        lead = "";
        ll = 0;
        lw = 0;
        w = width;
    }
}

/* The rows of the panel at @p width columns of text. */
static void panel_rows(const struct lesson_view *lv, int width, int utf8, struct rows *r)
{
    const struct lesson_step *st = &lv->ls->step[lv->step];
    r->n = 0;
    add_wrapped(r, "", st->title, width, TITLE_FG, SCREEN_BOLD, ROW_TITLE);
    if (st->text) {
        add_row(r, "", 0, 0, 0, ROW_BLANK);
        add_wrapped(r, "", st->text, width, 0, 0, ROW_TEXT);
    }
    if (st->ask) {
        add_row(r, "", 0, 0, 0, ROW_BLANK);
        add_wrapped(r, "? ", st->ask, width, ASK_FG, SCREEN_BOLD, ROW_KEEP);
        if (lv->revealed) {
            char a[160];
            lesson_view_answer(lv, a, sizeof a, utf8);
            add_wrapped(r, utf8 ? "\xe2\x86\x92 " : "-> ", a, width, ANSWER_FG, SCREEN_BOLD,
                        ROW_KEEP);
        } else {
            const char *hint = "  (PgDn or A shows the answer)";
            add_row(r, hint, strlen(hint), 0, SCREEN_DIM, ROW_KEYS);
        }
    }
    add_row(r, "", 0, 0, 0, ROW_BLANK);
    /* the keys, closer together when they do not fit (beside a plot at 80
     * columns the row read "A: answe") */
    static const char *const more[] = {"PgDn l: next   PgUp L: back   A: answer",
                                       "PgDn l: next  PgUp L: back  A: answer",
                                       "PgDn: next  PgUp: back  A: answer",
                                       "PgDn next  PgUp back  A"};
    static const char *const last[] = {"the last step   PgUp L: back   A: answer",
                                       "the last step  PgUp L: back  A: answer",
                                       "last step  PgUp: back  A: answer",
                                       "last  PgUp back  A"};
    const char *const *keys = lv->step + 1 < lv->ls->nstep ? more : last;
    int k = 0;
    while (k < 3 && (int)strlen(keys[k]) > width)
        k++;
    add_row(r, keys[k], strlen(keys[k]), 0, SCREEN_DIM, ROW_KEYS);
}

/* A lesson's text is what the class reads: its band keeps up to half the
 * rows (the table the other half), as before the third of issue 42.9. */
static void lesson_least(void *self, int rows, int *w, int *h)
{
    (void)self;
    *w = 24;
    *h = rows / 2;
}

static int lesson_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct lesson_view *lv = self;
    (void)sh;
    *w = *h = 0;
    if (!lv->ls)
        return 0;
    /* The tallest step's height, its answer shown or not, so that the
     * table keeps its size from step to step (with each step's own height
     * a band under the table changed it at every PgDn: 8 to 12 rows of
     * the momentum lesson at 200x60). */
    struct rows r;
    struct lesson_view k = *lv;
    int most = 0;
    for (k.step = 0; k.step < lv->ls->nstep; k.step++)
        for (k.revealed = 0; k.revealed < 2; k.revealed++) {
            panel_rows(&k, LESSON_PANEL_W - 4, 1, &r);
            most = r.n > most ? r.n : most;
        }
    *w = LESSON_PANEL_W;
    *h = most + 2;
    return 1;
}

/* Drops rows of @p kind, from the end, until @p r has at most @p max. */
static void drop(struct rows *r, int kind, int max)
{
    for (int i = r->n - 1; i >= 0 && r->n > max; i--)
        if (r->kind[i] == kind) {
            memmove(&r->text[i], &r->text[i + 1], (size_t)(r->n - i - 1) * sizeof r->text[0]);
            memmove(&r->fg[i], &r->fg[i + 1], (size_t)(r->n - i - 1) * sizeof r->fg[0]);
            memmove(&r->attr[i], &r->attr[i + 1], (size_t)(r->n - i - 1) * sizeof r->attr[0]);
            memmove(&r->kind[i], &r->kind[i + 1], (size_t)(r->n - i - 1) * sizeof r->kind[0]);
            r->n--;
        }
}

/* Columns of UTF-8 text @p s: a code point a column. */
static int text_cols(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Cuts @p s (ROW_BYTES at least) to @p cols columns, the last of them
 * "…" ("." in ASCII) when anything went. */
static void cut_row(char *s, int cols, int utf8)
{
    if (text_cols(s) <= cols || cols < 1)
        return;
    int n = 0;
    char *p = s;
    for (; *p; p++)
        if (((unsigned char)*p & 0xc0) != 0x80 && n++ == cols - 1)
            break;
    while (p > s && p[-1] == ' ')
        p--;
    memcpy(p, utf8 ? "\xe2\x80\xa6" : ".", utf8 ? 4 : 2);
}

/* The frame's title within @p cols columns: the step's number stays, the
 * lesson's name gives way ("lesson: Momentum in…  step 1/10"). */
static void frame_title(char *buf, size_t size, const struct lesson_view *lv, int cols, int utf8)
{
    char step[48], name[ROW_BYTES];
    snprintf(step, sizeof step, "step %zu/%zu", lv->step + 1, lv->ls->nstep);
    snprintf(buf, size, "lesson: %s  %s", lv->ls->title, step);
    if (text_cols(buf) <= cols)
        return;
    int room = cols - text_cols(step) - 2 - 8; /* "lesson: " */
    if (room >= 6) {
        snprintf(name, sizeof name, "%s", lv->ls->title);
        cut_row(name, room, utf8);
        snprintf(buf, size, "lesson: %s  %s", name, step);
    } else {
        snprintf(buf, size, "%s", step);
    }
}

static void lesson_draw(void *self, const struct panel_area *a)
{
    const struct lesson_view *lv = self;
    struct screen_rect b = a->r;
    if (!lv->ls || b.w < 12 || b.h < 3)
        return;
    int utf8 = a->f->glyphs != VIEW_ASCII;
    char title[ROW_BYTES + 64];
    frame_title(title, sizeof title, lv, b.w - 6, utf8);
    screen_box(a->scr, b, title, a->f->glyphs);
    int width = b.w - 4, max = b.h - 2;
    struct rows r;
    panel_rows(lv, width, utf8, &r);
    drop(&r, ROW_BLANK, max);
    drop(&r, ROW_KEYS, max);
    if (r.n > max) {
        /* text from its end, its last row shown as cut */
        int last = -1;
        while (r.n > max) {
            last = -1;
            for (int i = r.n - 1; i >= 0 && last < 0; i--)
                if (r.kind[i] == ROW_TEXT)
                    last = i;
            if (last < 0)
                break;
            drop(&r, ROW_TEXT, r.n - 1);
        }
        if (last > 0 && r.kind[last - 1] == ROW_TEXT) {
            size_t n = strlen(r.text[last - 1]);
            if (n + 4 < ROW_BYTES)
                memcpy(r.text[last - 1] + n, utf8 ? " \xe2\x80\xa6" : " ...", utf8 ? 5 : 5);
            cut_row(r.text[last - 1], width, utf8); /* the mark within the row */
        }
        drop(&r, ROW_TITLE, max);
    }
    /* still more than fit (the question alone, at 40x12): its last row
     * shown ends in "…" */
    if (r.n > max && max > 0)
        cut_row(r.text[max - 1], text_cols(r.text[max - 1]) - 1, utf8);
    for (int i = 0; i < r.n && i < max; i++)
        screen_text(a->scr, b.x + 2, b.y + 1 + i, width, r.fg[i], r.attr[i], r.text[i]);
}

const struct panel_class lesson_panel_class = {
    "lesson", PANEL_BOX, lesson_want, NULL, lesson_draw, NULL, NULL, NULL, lesson_least,
};
