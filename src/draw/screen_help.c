/*
 * screen_help.c - the help overlay (paged, entries never split) and the
 * ':' prompt. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include <stdio.h>
#include <string.h>
void screen_draw_prompt(struct screen *scr, const struct front *f)
{
    int y = scr->rows - 1;
    for (int x = 0; x < scr->cols; x++)
        screen_put(scr, x, y, ' ', 0, 0);
    screen_put(scr, 0, y, ':', 0, SCREEN_BOLD);
    /* scrolled so that the cursor shows */
    const char *p = f->prompt;
    size_t cur = f->prompt_cur, len = strlen(p);
    int room = scr->cols - 2;
    char before[256];
    size_t from = 0;
    for (;;) {
        size_t n = cur - from < sizeof before - 1 ? cur - from : sizeof before - 1;
        memcpy(before, p + from, n);
        before[n] = 0;
        if (screen_width(before) < room || from >= cur)
            break;
        from++;
        while (from < cur && ((unsigned char)p[from] & 0xc0) == 0x80)
            from++;
    }
    int w = screen_text(scr, 1, y, room, 0, 0, p + from);
    (void)w;
    int cx = 1 + screen_width(before);
    const struct screen_cell *c = screen_at(scr, cx, y);
    uint32_t ch = cur < len && c ? c->ch : ' ';
    screen_put(scr, cx, y, ch, 0, SCREEN_REVERSE);
}

/* === Help === */

/* Wraps @p text into lines of at most @p w columns at blanks; returns the
 * number of lines, filling @p out (each NUL-terminated) up to @p max. */
static int wrap(const char *text, int w, char out[][128], int max)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *end = p, *q = p;
        for (;;) {
            while (*q == ' ')
                q++;
            const char *ws = q;
            while (*q && *q != ' ')
                q++;
            if (ws == q)
                break;
            char tmp[256];
            size_t len = (size_t)(q - p) < sizeof tmp - 1 ? (size_t)(q - p) : sizeof tmp - 1;
            memcpy(tmp, p, len);
            tmp[len] = 0;
            if (screen_width(tmp) > w && end != p)
                break;
            end = q;
            if (screen_width(tmp) > w)
                break; /* one word wider than the column: alone on its line */
        }
        if (n < max) {
            size_t len = (size_t)(end - p) < 127 ? (size_t)(end - p) : 127;
            memcpy(out[n], p, len);
            out[n][len] = 0;
        }
        n++;
        p = end;
    }
    return n;
}

void screen_draw_help(struct screen *scr, const struct front *f,
                      const struct screen_help *help, size_t nhelp)
{
    int kw = 0;
    for (size_t i = 0; i < nhelp; i++)
        if (screen_width(help[i].keys) > kw)
            kw = screen_width(help[i].keys);
    /* Between the title and the status line, which stay in sight. */
    int top = scr->rows >= 8 ? 1 : 0, avail = scr->rows >= 8 ? scr->rows - 2 : scr->rows;
    int bw = scr->cols - 2 < 76 ? scr->cols - 2 : 76;
    int tw = bw - 4 - kw - 2; /* frame and margins, keys, gap */
    if (tw < 10) {
        kw = bw - 16 > 4 ? bw - 16 : 4;
        tw = bw - 4 - kw - 2;
    }
    int body = avail - 3; /* frame, footer */
    if (body < 1)
        body = 1;
    /* Pages: entries are never split. */
    int page = 0, used = 0, pages = 1;
    int want = f->help - 1;
    int first = -1, last = -1, rows_on_page = 0, maxrows = 0;
    char lines[8][128];
    for (size_t i = 0; i < nhelp; i++) {
        int nl = wrap(help[i].text, tw, lines, 8);
        if (used > 0 && used + nl > body) {
            page++;
            pages++;
            used = 0;
        }
        used += nl;
        if (used > maxrows)
            maxrows = used;
        if (page == want) {
            if (first < 0)
                first = (int)i;
            last = (int)i;
            rows_on_page = used;
        }
    }
    scr->help_pages = pages;
    if (want >= pages || first < 0) {
        want = pages - 1;
        first = last = -1;
        page = used = 0;
        for (size_t i = 0; i < nhelp; i++) {
            int nl = wrap(help[i].text, tw, lines, 8);
            if (used > 0 && used + nl > body) {
                page++;
                used = 0;
            }
            used += nl;
            if (page == want) {
                if (first < 0)
                    first = (int)i;
                last = (int)i;
                rows_on_page = used;
            }
        }
    }
    (void)rows_on_page;
    int bh = maxrows + 3;
    if (bh > avail)
        bh = avail;
    struct screen_rect r = {(scr->cols - bw) / 2, top + (avail - bh) / 2, bw, bh};
    screen_fill(scr, r);
    char title[32];
    if (pages > 1)
        snprintf(title, sizeof title, "keys %d/%d", want + 1, pages);
    else
        snprintf(title, sizeof title, "keys");
    screen_box(scr, r, title, f->glyphs);
    int y = r.y + 1;
    for (int i = first; i >= 0 && i <= last; i++) {
        int nl = wrap(help[i].text, tw, lines, 8);
        screen_text(scr, r.x + 2, y, kw, 0, SCREEN_BOLD, help[i].keys);
        for (int j = 0; j < nl && j < 8; j++)
            screen_text(scr, r.x + 2 + kw + 2, y + j, tw, 0, 0, lines[j]);
        y += nl;
    }
    const char *foot = pages > 1 && want + 1 < pages ? "space: next page, other keys close"
                                                    : "any key closes";
    if (screen_width(foot) > bw - 4)
        foot = pages > 1 && want + 1 < pages ? "space: more" : "any key";
    screen_text(scr, r.x + 2, r.y + bh - 2, bw - 4, 0, SCREEN_DIM, foot);
}
