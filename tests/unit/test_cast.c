/*
 * test_cast.c - --cast's parts (issue 45): ansi.c's bytes played into a
 * small terminal of this file's own (ECMA-48 as xterm does it, wide
 * characters too) leave the cells of each frame, over random frames and
 * sizes; cast.c's JSON escaping of every byte; the file's whole lines
 * under a size cap and on a file that cannot grow (RLIMIT_FSIZE).
 */
/* setrlimit, ftruncate */
#define _POSIX_C_SOURCE 200809L
#include "ansi.h"
#include "cast.h"
#include "palette.h"
#include "screen.h"
#include "test.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* === A terminal === */

struct tcell {
    uint32_t ch; /* ' ', a glyph, or SCREEN_WIDE for a wide glyph's second cell */
    int fg;      /* -1 default, else 0..255 */
    int bold, dim, rev;
};

struct term {
    int cols, rows, x, y, wrap; /* wrap: the cursor past the last column */
    struct tcell pen;
    struct tcell *c;
    int bad; /* a byte sequence it does not know, or a write past the edge */
};

static void term_init(struct term *t, int cols, int rows)
{
    t->cols = cols;
    t->rows = rows;
    t->c = malloc((size_t)cols * (size_t)rows * sizeof *t->c);
    for (int i = 0; i < cols * rows; i++)
        t->c[i] = (struct tcell){' ', -1, 0, 0, 0};
    t->x = t->y = t->wrap = t->bad = 0;
    t->pen = (struct tcell){' ', -1, 0, 0, 0};
}

/* Blanks cell x of the row and the other half of a wide glyph it is part of
 * (as xterm does when half of one is written over). */
static void term_unwide(struct term *t, int x)
{
    struct tcell *row = &t->c[t->y * t->cols];
    if (row[x].ch == SCREEN_WIDE && x > 0)
        row[x - 1].ch = ' ';
    else if (x + 1 < t->cols && row[x + 1].ch == SCREEN_WIDE)
        row[x + 1].ch = ' ';
}

static void term_print(struct term *t, uint32_t ch)
{
    int w = screen_cp_width(ch);
    if (t->wrap || w == 0 || t->x + w > t->cols) {
        t->bad = 1; /* ansi.c never wraps, nor writes what takes no cell */
        return;
    }
    for (int i = 0; i < w; i++)
        term_unwide(t, t->x + i);
    struct tcell *c = &t->c[t->y * t->cols + t->x];
    *c = t->pen;
    c->ch = ch;
    if (w == 2) {
        c[1] = t->pen;
        c[1].ch = SCREEN_WIDE;
    }
    t->x += w;
    if (t->x >= t->cols) {
        t->x = t->cols - 1;
        t->wrap = 1;
    }
}

static void term_sgr(struct term *t, const int *p, int np)
{
    if (np == 0)
        np = 1; /* ESC [ m is ESC [ 0 m */
    for (int i = 0; i < np; i++) {
        int v = p[i];
        if (v == 0)
            t->pen = (struct tcell){' ', -1, 0, 0, 0};
        else if (v == 1)
            t->pen.bold = 1;
        else if (v == 2)
            t->pen.dim = 1;
        else if (v == 7)
            t->pen.rev = 1;
        else if (v >= 30 && v <= 37)
            t->pen.fg = v - 30;
        else if (v >= 90 && v <= 97)
            t->pen.fg = v - 90 + 8;
        else if (v == 38 && i + 2 < np && p[i + 1] == 5) {
            t->pen.fg = p[i + 2];
            i += 2;
        } else
            t->bad = 1;
    }
}

static void term_feed(struct term *t, const char *buf, size_t n)
{
    const unsigned char *s = (const unsigned char *)buf;
    for (size_t i = 0; i < n;) {
        if (s[i] == 0x1b) {
            if (i + 1 >= n || s[i + 1] != '[') {
                t->bad = 1;
                return;
            }
            i += 2;
            int priv = 0, p[16], np = 0, cur = -1;
            if (i < n && s[i] == '?')
                priv = 1, i++;
            while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';')) {
                if (s[i] == ';') {
                    if (np < 16)
                        p[np++] = cur < 0 ? 0 : cur;
                    cur = -1;
                } else
                    cur = (cur < 0 ? 0 : cur * 10) + (s[i] - '0');
                i++;
            }
            if (cur >= 0 && np < 16)
                p[np++] = cur;
            if (i >= n) {
                t->bad = 1;
                return;
            }
            char f = (char)s[i++];
            if (priv) {
                if (!(np == 1 && p[0] == 25 && (f == 'l' || f == 'h')))
                    t->bad = 1;
            } else if (f == 'H') {
                t->y = (np > 0 && p[0] > 0 ? p[0] : 1) - 1;
                t->x = (np > 1 && p[1] > 0 ? p[1] : 1) - 1;
                if (t->y >= t->rows || t->x >= t->cols)
                    t->bad = 1;
                t->wrap = 0;
            } else if (f == 'C') {
                t->x += np > 0 && p[0] > 0 ? p[0] : 1;
                if (t->x >= t->cols)
                    t->x = t->cols - 1;
                t->wrap = 0;
            } else if (f == 'K' && np == 0) {
                term_unwide(t, t->x);
                for (int x = t->x; x < t->cols; x++)
                    t->c[t->y * t->cols + x] = (struct tcell){' ', -1, 0, 0, t->pen.rev};
                t->wrap = 0;
            } else if (f == 'J' && np == 1 && p[0] == 2) {
                for (int k = 0; k < t->cols * t->rows; k++)
                    t->c[k] = (struct tcell){' ', -1, 0, 0, 0};
            } else if (f == 'm') {
                term_sgr(t, p, np);
            } else
                t->bad = 1;
            continue;
        }
        if (s[i] < 0x20 || s[i] == 0x7f) {
            t->bad = 1; /* no control character: no CR, LF, BS */
            return;
        }
        /* UTF-8 (ansi.c writes it valid: a bad byte is a fault) */
        int k = s[i] < 0x80 ? 1 : s[i] >= 0xf0 ? 4 : s[i] >= 0xe0 ? 3 : s[i] >= 0xc2 ? 2 : 0;
        if (k == 0 || i + (size_t)k > n) {
            t->bad = 1;
            return;
        }
        uint32_t cp = k == 1 ? s[i] : (uint32_t)(s[i] & (0xff >> (k + 1)));
        for (int j = 1; j < k; j++) {
            if ((s[i + (size_t)j] & 0xc0) != 0x80)
                t->bad = 1;
            cp = cp << 6 | (s[i + (size_t)j] & 0x3fu);
        }
        i += (size_t)k;
        term_print(t, cp);
    }
}

/* === Frames === */

/* The cell as a terminal should show it (ansi.h's rules, said again). */
static struct tcell want(const struct screen *scr, int x, int y, int ncolors)
{
    const struct screen_cell *row = &scr->cell[y * scr->cols];
    struct screen_cell c = row[x];
    uint32_t ch = c.ch;
    int w = ch == SCREEN_WIDE || (ch >= 0xd800 && ch <= 0xdfff) || ch > 0x10ffff
                ? 0 : screen_cp_width(ch);
    if (ch == SCREEN_WIDE)
        ch = x > 0 && row[x - 1].ch != SCREEN_WIDE && screen_cp_width(row[x - 1].ch) == 2 &&
                     !(row[x - 1].ch >= 0xd800 && row[x - 1].ch <= 0xdfff)
                 ? SCREEN_WIDE : ' ';
    else if (w == 0 || (w == 2 && (x + 1 >= scr->cols || row[x + 1].ch != SCREEN_WIDE)))
        ch = ' ';
    if (ch == SCREEN_WIDE) /* a wide glyph's second cell shows as its first */
        c = row[x - 1];
    struct tcell t = {ch, -1, c.attr & SCREEN_BOLD ? 1 : 0, c.attr & SCREEN_DIM ? 1 : 0,
                      c.attr & SCREEN_REVERSE ? 1 : 0};
    if (c.fg && ncolors) {
        struct palette_ink k = palette_ink_of(c.fg & 0xffffff, ncolors);
        t.fg = k.fg;
        if (k.bold)
            t.bold = 1;
    }
    return t;
}

/* The terminal shows the frame: the same glyphs; the same colour and
 * attributes where they show (a blank's show only reversed). */
static int shows(const struct term *t, const struct screen *scr, int ncolors)
{
    for (int y = 0; y < scr->rows; y++)
        for (int x = 0; x < scr->cols; x++) {
            struct tcell w = want(scr, x, y, ncolors), g = t->c[y * t->cols + x];
            if (g.ch != w.ch || g.rev != w.rev ||
                (!(w.ch == ' ' && !w.rev) &&
                 (g.bold != w.bold || g.dim != w.dim || (ncolors && g.fg != w.fg)))) {
                printf("cell %d,%d of %dx%d (%d colours): shows %#x fg %d b%d d%d r%d, "
                       "want %#x fg %d b%d d%d r%d\n", x, y, scr->cols, scr->rows, ncolors,
                       g.ch, g.fg, g.bold, g.dim, g.rev, w.ch, w.fg, w.bold, w.dim, w.rev);
                return 0;
            }
        }
    return 1;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

/* A random cell: blanks mostly, braille, text, wide glyphs with or without
 * their second cell, what a terminal keeps in no cell. */
static void random_cell(struct screen *scr, int x, int y)
{
    static const uint32_t glyphs[] = {' ', ' ', ' ', 'a', 'Z', 0x2800 + 0x5b, 0x28ff,
                                      0x2500, 0x00b7, 0x03a3, 0x6f22, 0x5b57, 0x1f600,
                                      SCREEN_WIDE, 0x0301, 0xd800, 0x110000, 0};
    static const uint32_t fgs[] = {0, 0, SCREEN_RGB | 0xff5f5f, SCREEN_RGB | 0x5fd787,
                                   SCREEN_RGB | 0xd7af00, SCREEN_RGB | 0x0000ff};
    struct screen_cell *c = &scr->cell[y * scr->cols + x];
    c->ch = glyphs[rnd(sizeof glyphs / sizeof *glyphs)];
    c->fg = fgs[rnd(sizeof fgs / sizeof *fgs)];
    c->attr = (uint8_t)(rnd(4) == 0 ? rnd(8) : 0);
    /* a wide glyph usually comes with its second cell */
    if (screen_cp_width(c->ch) == 2 && c->ch != SCREEN_WIDE && x + 1 < scr->cols && rnd(4))
        c[1] = (struct screen_cell){SCREEN_WIDE, c->fg, c->attr};
}

static void test_ansi_frames(void)
{
    static const int ncs[] = {256, 16, 8, 0};
    for (int round = 0; round < 200; round++) {
        int nc = ncs[round % 4];
        struct ansi a = {0};
        struct term t = {0};
        struct screen scr = {0};
        int frames_ok = 1, bad = 0, grew = 0;
        for (int f = 0; f < 30; f++) {
            if (f == 0 || rnd(8) == 0) { /* a new size */
                free(scr.cell);
                int was_cols = scr.cols, was_rows = scr.rows;
                scr.cols = 1 + (int)rnd(40);
                scr.rows = 1 + (int)rnd(12);
                scr.cell = malloc((size_t)scr.cols * (size_t)scr.rows * sizeof *scr.cell);
                for (int y = 0; y < scr.rows; y++)
                    for (int x = 0; x < scr.cols; x++)
                        random_cell(&scr, x, y);
                if (scr.cols != was_cols || scr.rows != was_rows) {
                    /* a terminal of the new size (the same size keeps
                     * what it shows) */
                    free(t.c);
                    term_init(&t, scr.cols, scr.rows);
                    grew++;
                }
            } else { /* a few cells, or a row blanked */
                int n = (int)rnd(12);
                for (int i = 0; i < n; i++)
                    random_cell(&scr, (int)rnd((uint32_t)scr.cols), (int)rnd((uint32_t)scr.rows));
                if (rnd(3) == 0) {
                    int y = (int)rnd((uint32_t)scr.rows);
                    for (int x = (int)rnd((uint32_t)scr.cols); x < scr.cols; x++)
                        scr.cell[y * scr.cols + x] = (struct screen_cell){' ', 0, 0};
                }
            }
            if (ansi_frame(&a, &scr, nc, f == 15)) {
                bad = 1;
                break;
            }
            term_feed(&t, a.buf, a.len);
            if (t.bad)
                bad = 1;
            if (!shows(&t, &scr, nc))
                frames_ok = 0;
        }
        CHECK(!bad);
        CHECK(frames_ok);
        CHECK(grew > 0);
        ansi_free(&a);
        free(t.c);
        free(scr.cell);
    }
}

/* An unchanged frame writes nothing; one changed cell, a few bytes. */
static void test_ansi_diff(void)
{
    struct screen scr = {0};
    scr.cols = 80;
    scr.rows = 24;
    scr.cell = malloc(80 * 24 * sizeof *scr.cell);
    for (int i = 0; i < 80 * 24; i++)
        scr.cell[i] = (struct screen_cell){(uint32_t)(i % 3 ? ' ' : 0x2800 + i % 256), 0, 0};
    struct ansi a = {0};
    CHECK(ansi_frame(&a, &scr, 256, 0) == 0);
    CHECK(a.len > 0 && memcmp(a.buf, "\033[?25l", 6) == 0);
    CHECK(ansi_frame(&a, &scr, 256, 0) == 0);
    CHECK(a.len == 0);
    scr.cell[5 * 80 + 7].ch = 'x';
    CHECK(ansi_frame(&a, &scr, 256, 0) == 0);
    CHECK(a.len == 7 && memcmp(a.buf, "\033[6;8Hx", 7) == 0);
    CHECK(ansi_frame(&a, &scr, 256, 1) == 0); /* redraw: all again */
    CHECK(a.len > 1000);
    CHECK(ansi_end(&a) == 0);
    CHECK(a.len == strlen("\033[0m\033[24;1H\033[?25h") &&
          memcmp(a.buf, "\033[0m\033[24;1H\033[?25h", a.len) == 0);
    ansi_free(&a);
    free(scr.cell);
}

/* === JSON === */

static int json_is(const char *in, size_t n, const char *want)
{
    char out[256];
    size_t len = cast_json(NULL, in, n);
    if (len >= sizeof out || cast_json(out, in, n) != len)
        return 0;
    out[len] = 0;
    if (strcmp(out, want))
        printf("json: got '%s', want '%s'\n", out, want);
    return strcmp(out, want) == 0;
}

static void test_json(void)
{
    CHECK(json_is("plain", 5, "plain"));
    CHECK(json_is("\"\\/", 3, "\\\"\\\\/"));
    CHECK(json_is("\n\r\t\b\f", 5, "\\n\\r\\t\\u0008\\u000c"));
    CHECK(json_is("\0\001\033\037\177", 5, "\\u0000\\u0001\\u001b\\u001f\\u007f"));
    CHECK(json_is("\033[0;38;5;84m\xe2\xa3\xbf", 15, "\\u001b[0;38;5;84m\xe2\xa3\xbf"));
    CHECK(json_is("\xc3\xa9\xf0\x9f\x98\x80", 6, "\xc3\xa9\xf0\x9f\x98\x80"));
    /* not UTF-8: a lone continuation, an overlong, a surrogate, past
     * U+10FFFF, cut short, 0xff */
    CHECK(json_is("\x80", 1, "\\ufffd"));
    CHECK(json_is("\xc0\xaf", 2, "\\ufffd\\ufffd"));
    CHECK(json_is("\xed\xa0\x80", 3, "\\ufffd\\ufffd\\ufffd"));
    CHECK(json_is("\xf4\x90\x80\x80", 4, "\\ufffd\\ufffd\\ufffd\\ufffd"));
    CHECK(json_is("\xe2\xa3", 2, "\\ufffd\\ufffd"));
    CHECK(json_is("a\xff" "b", 3, "a\\ufffdb"));
    /* every byte alone: no raw control character or quote comes out, and
     * what comes out is ASCII but for valid UTF-8 */
    int clean = 1;
    for (int b = 0; b < 256; b++) {
        char in = (char)b, out[16];
        size_t len = cast_json(out, &in, 1);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] >= 0x7f)
                clean = 0;
        if (b == '"' && !(len == 2 && out[0] == '\\'))
            clean = 0;
    }
    CHECK(clean);
    CHECK(cast_max_from(NULL) == CAST_MAX_DEFAULT);
    CHECK(cast_max_from("") == CAST_MAX_DEFAULT);
    CHECK(cast_max_from("1000") == 1000);
    CHECK(cast_max_from(" 5") == CAST_MAX_DEFAULT);
    CHECK(cast_max_from("-5") == CAST_MAX_DEFAULT);
    CHECK(cast_max_from("0") == CAST_MAX_DEFAULT);
    CHECK(cast_max_from("99999999999999999999999") == CAST_MAX_DEFAULT);
}

/* === The file === */

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *n = fread(buf, 1, (1 << 16) - 1, f);
    buf[*n] = 0;
    fclose(f);
    return buf;
}

static void test_file(void)
{
    char path[] = "/tmp/springball-cast-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    struct cast c;
    CHECK(cast_open(&c, path, 1000) == 0);
    CHECK(cast_header(&c, 80, 24, 1700000000, "t \"q\"", "xterm") == 0);
    CHECK(cast_event(&c, 0.5, "o", "ab", 2) == 0);
    CHECK(cast_event(&c, 0.25, "o", "c", 1) == 0); /* back in time: the last's */
    CHECK(cast_event(&c, 1.0, "r", "100x30", 6) == 0);
    CHECK(cast_close(&c) == 0);
    size_t n;
    char *text = slurp(path, &n);
    const char *want =
        "{\"version\": 2, \"width\": 80, \"height\": 24, \"timestamp\": 1700000000, "
        "\"title\": \"t \\\"q\\\"\", \"env\": {\"TERM\": \"xterm\"}}\n"
        "[0.500000, \"o\", \"ab\"]\n"
        "[0.500000, \"o\", \"c\"]\n"
        "[1.000000, \"r\", \"100x30\"]\n";
    CHECK(text && strcmp(text, want) == 0);
    free(text);

    /* the size cap: the line that would pass it is not written */
    CHECK(cast_open(&c, path, 150) == 0);
    CHECK(cast_header(&c, 80, 24, 0, NULL, NULL) == 0);
    int events = 0;
    while (cast_event(&c, events, "o", "0123456789", 10) == 0)
        events++;
    CHECK(c.full == 1 && c.err == 0);
    CHECK(cast_event(&c, 99, "o", "x", 1) == -1); /* stopped */
    CHECK(cast_close(&c) == -1);
    text = slurp(path, &n);
    CHECK(text && n <= 150 && n == c.size && text[n - 1] == '\n');
    CHECK(events >= 1);
    free(text);

    /* a file that cannot grow past 200 bytes (as a full disk): the line
     * cut short is cut off again, the file ends on a whole line */
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {200, old.rlim_max};
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 200)
        lim.rlim_cur = old.rlim_max;
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    CHECK(cast_open(&c, path, CAST_MAX_DEFAULT) == 0);
    CHECK(cast_header(&c, 80, 24, 0, NULL, NULL) == 0);
    events = 0;
    while (events < 100 && cast_event(&c, events, "o", "0123456789abcdefghij", 20) == 0)
        events++;
    CHECK(c.err == EFBIG);
    CHECK(cast_close(&c) == -1);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    text = slurp(path, &n);
    CHECK(text && n < 200 && n == c.size && text[n - 1] == '\n');
    free(text);

    /* a device that is always full */
    if (access("/dev/full", W_OK) == 0) {
        CHECK(cast_open(&c, "/dev/full", CAST_MAX_DEFAULT) == 0);
        CHECK(cast_header(&c, 80, 24, 0, NULL, NULL) == -1);
        CHECK(c.err == ENOSPC);
        CHECK(cast_close(&c) == -1);
    }
    /* a directory is not opened */
    CHECK(cast_open(&c, "/tmp", CAST_MAX_DEFAULT) == -1 && errno == EISDIR);
    unlink(path);
}

void test_cast(void)
{
    test_ansi_frames();
    test_ansi_diff();
    test_json();
    test_file();
}
