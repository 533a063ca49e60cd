/*
 * screen_text.c - cells and text: UTF-8, widths, writing characters, text
 * and frames, and the text dump of --snapshot. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* === Text === */

int screen_cp_width(uint32_t c)
{
    if (c == 0 || (c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||
        (c >= 0xfe00 && c <= 0xfe0f))
        return 0;
    if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
        (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
        (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
        (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
        (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
        (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
        (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
        return 2;
    return 1;
}

/* Decodes one UTF-8 character at s (never past a NUL); a bad byte is
 * U+FFFD. Returns the bytes used. */
int screen_utf8_next(const char *s, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int n = u[0] < 0x80 ? 1 : u[0] >= 0xf0 && u[0] < 0xf8 ? 4 : u[0] >= 0xe0 ? 3
          : u[0] >= 0xc2 ? 2 : 0;
    if (n == 0) {
        *cp = 0xfffd;
        return 1;
    }
    uint32_t c = n == 1 ? u[0] : n == 2 ? u[0] & 0x1fu : n == 3 ? u[0] & 0x0fu : u[0] & 0x07u;
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            *cp = 0xfffd;
            return i;
        }
        c = c << 6 | (u[i] & 0x3fu);
    }
    *cp = c;
    return n;
}

int screen_utf8_put(char *out, uint32_t c)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xc0 | c >> 6);
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xe0 | c >> 12);
        out[1] = (char)(0x80 | (c >> 6 & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | c >> 18);
    out[1] = (char)(0x80 | (c >> 12 & 0x3f));
    out[2] = (char)(0x80 | (c >> 6 & 0x3f));
    out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

int screen_width(const char *s)
{
    int w = 0;
    while (*s) {
        uint32_t c;
        s += screen_utf8_next(s, &c);
        w += screen_cp_width(c);
    }
    return w;
}

const struct screen_cell *screen_at(const struct screen *scr, int x, int y)
{
    if (x < 0 || y < 0 || x >= scr->cols || y >= scr->rows)
        return NULL;
    return &scr->cell[(size_t)y * (size_t)scr->cols + (size_t)x];
}

void screen_put(struct screen *scr, int x, int y, uint32_t ch, uint32_t fg, int attr)
{
    if (x < 0 || y < 0 || x >= scr->cols || y >= scr->rows)
        return;
    struct screen_cell *c = &scr->cell[(size_t)y * (size_t)scr->cols + (size_t)x];
    /* no control character reaches the screen or a snapshot: C0, DEL, C1
     * (U+009B is a CSI of its own) */
    c->ch = ch < 0x20 || (ch >= 0x7f && ch < 0xa0) ? 0xfffd : ch;
    c->fg = scr->color ? fg : 0;
    c->attr = (uint8_t)attr;
}

int screen_text(struct screen *scr, int x, int y, int max, uint32_t fg, int attr,
                const char *s)
{
    int used = 0;
    while (*s) {
        uint32_t c;
        s += screen_utf8_next(s, &c);
        if (c < 0x20 || (c >= 0x7f && c < 0xa0))
            c = 0xfffd; /* no control characters on the screen */
        int w = screen_cp_width(c);
        if (w == 0)
            continue; /* combining marks are left out: one cell, one character */
        if (used + w > max)
            break;
        screen_put(scr, x + used, y, c, fg, attr);
        if (w == 2)
            screen_put(scr, x + used + 1, y, SCREEN_WIDE, fg, attr);
        used += w;
    }
    return used;
}

int screen_textf(struct screen *scr, int x, int y, int max, uint32_t fg, int attr,
                 const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return screen_text(scr, x, y, max, fg, attr, buf);
}

void screen_fill(struct screen *scr, struct screen_rect r)
{
    for (int j = r.y; j < r.y + r.h; j++)
        for (int i = r.x; i < r.x + r.w; i++)
            screen_put(scr, i, j, ' ', 0, 0);
}

void screen_box(struct screen *scr, struct screen_rect r, const char *title, int glyphs)
{
    int ascii = glyphs == VIEW_ASCII;
    uint32_t hz = ascii ? '-' : 0x2500, vt = ascii ? '|' : 0x2502;
    uint32_t tl = ascii ? '+' : 0x250c, tr = ascii ? '+' : 0x2510;
    uint32_t bl = ascii ? '+' : 0x2514, br = ascii ? '+' : 0x2518;
    int l = r.x, t = r.y, rr = r.x + r.w - 1, b = r.y + r.h - 1;
    if (r.w < 2 || r.h < 2)
        return;
    for (int i = l + 1; i < rr; i++) {
        screen_put(scr, i, t, hz, 0, 0);
        screen_put(scr, i, b, hz, 0, 0);
    }
    for (int j = t + 1; j < b; j++) {
        screen_put(scr, l, j, vt, 0, 0);
        screen_put(scr, rr, j, vt, 0, 0);
    }
    screen_put(scr, l, t, tl, 0, 0);
    screen_put(scr, rr, t, tr, 0, 0);
    screen_put(scr, l, b, bl, 0, 0);
    screen_put(scr, rr, b, br, 0, 0);
    if (title && *title && r.w > 6) {
        char buf[128];
        snprintf(buf, sizeof buf, " %s ", title);
        screen_text(scr, l + 2, t, r.w - 4, 0, SCREEN_BOLD, buf);
    }
}

/* === Dump === */

struct out {
    char *buf;
    size_t size, len;
};

static void emit(struct out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

static void emits(struct out *o, const char *s)
{
    emit(o, s, strlen(s));
}

size_t screen_dump(const struct screen *scr, char *buf, size_t size, int ansi)
{
    struct out o = {buf, size ? size - 1 : 0, 0};
    for (int y = 0; y < scr->rows; y++) {
        /* trailing blanks are left out */
        int end = scr->cols;
        while (end > 0) {
            const struct screen_cell *c = screen_at(scr, end - 1, y);
            if (!(c->ch == ' ' && (!ansi || c->attr == 0)))
                break;
            end--;
        }
        uint32_t fg = 0;
        int attr = 0;
        for (int x = 0; x < end; x++) {
            const struct screen_cell *c = screen_at(scr, x, y);
            if (c->ch == SCREEN_WIDE)
                continue;
            /* a plain blank shows in any colour: no switch for it */
            int blank = c->ch == ' ' && c->attr == 0 && attr == 0;
            if (ansi && !blank && (c->fg != fg || c->attr != attr)) {
                char sgr[48];
                int n = snprintf(sgr, sizeof sgr, "\033[0");
                if (c->attr & SCREEN_BOLD)
                    n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";1");
                if (c->attr & SCREEN_DIM)
                    n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";2");
                if (c->attr & SCREEN_REVERSE)
                    n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";7");
                if (c->fg)
                    n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";38;5;%d",
                                  palette_ink_of(c->fg & 0xffffff, 256).fg);
                snprintf(sgr + n, sizeof sgr - (size_t)n, "m");
                emits(&o, sgr);
                fg = c->fg;
                attr = c->attr;
            }
            char u[4];
            emit(&o, u, (size_t)screen_utf8_put(u, c->ch));
        }
        if (ansi && (fg || attr))
            emits(&o, "\033[0m");
        emits(&o, "\n");
    }
    if (size)
        buf[o.len < size - 1 ? o.len : size - 1] = 0;
    return o.len;
}
