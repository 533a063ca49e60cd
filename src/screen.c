/*
 * screen.c - the screen's cells: layout, title, table, panels, status,
 * notes, help, and the text dump of --snapshot. See screen.h.
 */
#include "screen.h"

#include "scene.h"
#include "session.h"
#include "sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sim *second_table(const struct screen *scr, struct session *ss,
                                      char *title, size_t size, int glyphs);

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
static uint32_t tag_fg(const struct screen *scr, uint32_t tag)
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
    return tag_fg(scr, tag) & 0xffffff;
}

uint32_t screen_ball_color(const struct screen *scr, size_t k)
{
    return k < scr->sc->n ? scr->ball_fg[k] & 0xffffff : 0;
}

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
static int utf8_next(const char *s, uint32_t *cp)
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

static int utf8_put(char *out, uint32_t c)
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
        s += utf8_next(s, &c);
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
        s += utf8_next(s, &c);
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

int screen_layout(struct screen *scr, int cols, int rows, struct session *ss, int glyphs)
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
    L->note = (struct screen_rect){0, rows - 2, cols, 1};
    /* What each panel wants; those in rectangles go on the right when the
     * table keeps 60 columns, else in a band under it. */
    int side = 0, band = 0, on = 0, hmax = 0;
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *p = &scr->panel[i];
        int w = 0, h = 0;
        if (p->cls->place != PANEL_BOX || !p->cls->want(p->self, ss, &w, &h) || w <= 0 ||
            h <= 0)
            w = h = 0;
        scr->want[i] = (struct screen_rect){0, 0, w, h};
        if (w > 0) {
            side = w > side ? w : side;
            band += h;
            on++;
            hmax = h > hmax ? h : hmax;
        }
    }
    if (side > 0 && cols - side < 60) {
        side = 0;
        if (on > 1 && cols / on >= 40)
            band = hmax; /* side by side */
        int most = (rows - 2) / 2;
        if (rows - 2 - most < 6)
            most = rows - 2 - 6;
        band = band < most ? band : most;
        if (band < 3)
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
        world_rect(scr, &ss->s, &x0, &y0, &x1, &y1, &rim);
        char title[96];
        scr->split = second_table(scr, ss, title, sizeof title, glyphs) != NULL;
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

void screen_clear_trails(struct screen *scr)
{
    if (scr->v.cell)
        view_clear_trails(&scr->v);
}

/* === Pieces of a line, fitted by priority === */

struct piece {
    char text[160];
    char brief[64];  /* shown instead when text does not fit, or "" */
    int prio;        /* 0 most important */
    uint32_t fg;
    int attr;
    int state;       /* 0 full, 1 brief, 2 left out */
};

struct screen_line {
    struct piece p[16];
    int n;
};

static struct piece *add(struct screen_line *l, int prio, uint32_t fg, int attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static struct piece *add(struct screen_line *l, int prio, uint32_t fg, int attr, const char *fmt, ...)
{
    if (l->n == (int)(sizeof l->p / sizeof *l->p))
        return &l->p[l->n - 1];
    struct piece *p = &l->p[l->n++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    p->brief[0] = 0;
    p->prio = prio;
    p->fg = fg;
    p->attr = attr;
    p->state = 0;
    return p;
}

void screen_status_add(struct screen_line *l, int rank, int attr, const char *fmt, ...)
{
    char text[sizeof l->p[0].text];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    add(l, rank, 0, attr, "%s", text);
}

static int piece_width(const struct piece *p, int sep)
{
    if (p->state == 2)
        return 0;
    return sep + screen_width(p->state == 1 ? p->brief : p->text);
}

/* Chooses what shows in @p width columns: the least important pieces
 * take their brief form first, then go; nothing is cut. Pieces are
 * separated by @p sep blanks. Returns the width used. */
static int fit(struct screen_line *l, int width, int sep)
{
    for (;;) {
        int w = 0, shown = 0;
        for (int i = 0; i < l->n; i++)
            if (l->p[i].state != 2)
                w += piece_width(&l->p[i], shown++ ? sep : 0);
        if (w <= width)
            return w;
        int worst = -1;
        for (int i = 0; i < l->n; i++)
            if (l->p[i].state != 2 && (worst < 0 || l->p[i].prio >= l->p[worst].prio))
                worst = i;
        if (worst < 0)
            return 0;
        struct piece *p = &l->p[worst];
        p->state = p->state == 0 && p->brief[0] ? 1 : 2;
    }
}

static int draw_line(struct screen *scr, const struct screen_line *l, int x, int y, int sep,
                     const char *sepstr)
{
    int col = x, shown = 0;
    for (int i = 0; i < l->n; i++) {
        const struct piece *p = &l->p[i];
        if (p->state == 2)
            continue;
        if (shown++)
            col += screen_text(scr, col, y, sep, 0, 0, sepstr);
        col += screen_text(scr, col, y, scr->cols - col, p->fg, p->attr,
                           p->state == 1 ? p->brief : p->text);
    }
    return col - x;
}

/* === Title === */

/* Copies the UTF-8 text s into buf cut to @p max columns, ending in an
 * ellipsis when cut (never inside a character). */
static void ellipsize(char *buf, size_t size, const char *s, int max, int ascii)
{
    int w = screen_width(s);
    if (w <= max) {
        snprintf(buf, size, "%s", s);
        return;
    }
    const char *ell = ascii ? "~" : "\xe2\x80\xa6";
    int room = max - 1, used = 0;
    size_t len = 0;
    const char *p = s;
    while (*p) {
        uint32_t c;
        int nb = utf8_next(p, &c);
        int cw = screen_cp_width(c);
        if (used + cw > room)
            break;
        if (len + (size_t)nb + 4 >= size)
            break;
        memcpy(buf + len, p, (size_t)nb);
        len += (size_t)nb;
        used += cw;
        p += nb;
    }
    if (room >= 0)
        snprintf(buf + len, size - len, "%s", ell);
    else
        buf[0] = 0;
}

/* "20", "1.5e+06": the speed with three digits. */
static void fmt_speed(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.3g", v);
}

static void draw_title(struct screen *scr, struct session *ss, const struct front *f)
{
    int ascii = f->glyphs == VIEW_ASCII;
    const char *dot = ascii ? " - " : " \xc2\xb7 ";
    char sp[32];
    fmt_speed(sp, sizeof sp, f->speed);
    struct screen_line r = {0};
    add(&r, 2, 0, 0, "%s", f->replay ? "replay" : ss->engine == SESSION_EVENT ? "event"
                                                                            : "spring");
    const char *state = ss->nonfinite || f->stopped ? "stopped" : f->running ? "running" : "paused";
    add(&r, 0, 0, f->running ? 0 : SCREEN_BOLD, "%s", state);
    struct piece *p = add(&r, 2, 0, 0, "speed %s t/s", sp);
    snprintf(p->brief, sizeof p->brief, "%st/s", sp);
    p = add(&r, 3, 0, 0, "? help");
    snprintf(p->brief, sizeof p->brief, "?");
    int cols = scr->cols;
    const char *name = f->title ? f->title : "";
    char full[420], brief[420], cut[400];
    snprintf(full, sizeof full, " springball%s%s", dot, name);
    snprintf(brief, sizeof brief, " %s", name);
    /* The state and the speed first, then the name, then the rest. */
    const char *left = NULL;
    int rw = 0;
    const char *tries[2] = {full, brief};
    for (int i = 0; i < 2 && !left; i++) {
        for (int j = 0; j < r.n; j++)
            r.p[j].state = 0;
        rw = fit(&r, cols - screen_width(tries[i]) - 2, 3);
        int ok = 1;
        for (int j = 0; j < r.n; j++)
            if (r.p[j].prio <= 2 && r.p[j].state == 2)
                ok = 0;
        if (ok)
            left = tries[i];
    }
    if (!left) {
        for (int j = 0; j < r.n; j++)
            r.p[j].state = 0;
        rw = fit(&r, cols / 2, 3);
        ellipsize(cut, sizeof cut, name, cols - rw - 4, ascii);
        snprintf(full, sizeof full, " %s", cut);
        left = full;
    }
    screen_text(scr, 0, 0, cols - rw - 1, 0, SCREEN_BOLD, left);
    draw_line(scr, &r, cols - rw - 1, 0, 3, dot);
}

/* === Status === */

void screen_drift(char *buf, size_t size, double e, double ref)
{
    if (!isfinite(e) || !isfinite(ref)) {
        snprintf(buf, size, "?");
        return;
    }
    if (ref == 0) {
        if (fabs(e) < 5e-13)
            snprintf(buf, size, "0");
        else
            snprintf(buf, size, "%+.3g", e);
        return;
    }
    double pct = 100 * (e - ref) / fabs(ref);
    if (fabs(pct) < 0.0005)
        snprintf(buf, size, "0.000%%");
    else if (fabs(pct) < 1000)
        snprintf(buf, size, "%+.3f%%", pct);
    else
        snprintf(buf, size, "%+.2e%%", pct);
}

static void draw_status(struct screen *scr, struct session *ss, const struct front *f)
{
    const struct session_diag *d = session_diag(ss);
    const struct sim *s = &ss->s;
    struct screen_line l = {0};
    char drift[48];
    screen_drift(drift, sizeof drift, d->e, d->e_ref);
    struct piece *p;
    if (f->replay) {
        p = add(&l, 1, 0, SCREEN_BOLD, "frame %zu/%zu", f->frame, f->frames);
        snprintf(p->brief, sizeof p->brief, "%zu/%zu", f->frame, f->frames);
    }
    add(&l, 1, 0, 0, "t %.2f", d->t);
    if (f->replay) {
        add(&l, 1, 0, 0, "step %lld", d->steps);
        if (f->v_diff)
            add(&l, 3, SCREEN_WARN, 0, "v from positions");
    } else if (ss->engine == SESSION_EVENT) {
        add(&l, 4, 0, 0, "events %lld", d->events);
        add(&l, 5, 0, 0, "collisions %lld", d->collisions);
        if (d->mft >= 0)
            add(&l, 7, 0, 0, "mft %.3g", d->mft);
        else
            add(&l, 7, 0, 0, "mft -");
    } else {
        add(&l, 4, 0, 0, "step %lld", d->steps);
        add(&l, 5, 0, 0, "dt %.4g", s->p.dt);
        if (s->p.contact != SIM_CONTACT_NONE)
            add(&l, 5, 0, 0, "k %.4g", s->p.k);
    }
    /* The energies apart (kinetic, and the springs' when there are
     * springs), their sum with its drift, the total momentum. */
    if (isfinite(d->e)) {
        p = add(&l, 2, 0, 0, "E %.6g (%s)", d->e, drift);
        snprintf(p->brief, sizeof p->brief, "E %.4g", d->e);
    } else {
        add(&l, 2, 0, 0, "E ?");
    }
    if (ss->engine == SESSION_SPRING && s->p.gravity != 0 && s->p.shape != SIM_OPEN)
        add(&l, 6, 0, 0, "G %.3g", s->p.gravity);
    /* The panels' fields */
    struct panel_area a = {scr, ss, f, {0, 0, 0, 0}, NULL, NULL, 0, &l};
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        int w, h;
        if (q->cls->place == PANEL_STATUS && q->cls->draw && q->cls->want(q->self, ss, &w, &h))
            q->cls->draw(q->self, &a);
    }
    /* issue 17: the field, the friction law, the balls gone past an open side
     * (the event engine runs all but friction) */
    {
        static const char *const law[] = {"", "drag", "linear", "rolling"};
        if (s->p.gx != 0 || s->p.gy != 0)
            add(&l, 6, 0, 0, "g %.3g,%.3g", s->p.gx, s->p.gy);
        if (s->p.friction > 0 && s->p.friction < 4)
            add(&l, 6, 0, 0, "%s %.3g", law[s->p.friction], s->p.friction_c);
        if (d->out > 0)
            add(&l, 6, 0, 0, "out %ld", d->out);
    }
    /* Warnings, in their colours: never cut, brief when short of room. */
    double cs = session_contact_steps(ss);
    if (ss->nonfinite) {
        p = add(&l, 0, SCREEN_ALERT, SCREEN_BOLD, "not finite: paused (',' back, r reset)");
        snprintf(p->brief, sizeof p->brief, "not finite");
    } else if (ss->engine != SESSION_SPRING || s->p.contact == SIM_CONTACT_NONE) {
        /* no contact to resolve with dt (or nothing simulated: a replay) */
    } else if (cs < SIM_PI / 2) {
        p = add(&l, 0, SCREEN_ALERT, SCREEN_BOLD, "unstable: %.2g steps/contact", cs);
        snprintf(p->brief, sizeof p->brief, "unstable");
    } else if (cs < 10) {
        p = add(&l, 3, SCREEN_WARN, SCREEN_BOLD, "dt too coarse: %.2g steps/contact", cs);
        snprintf(p->brief, sizeof p->brief, "coarse dt");
    }
    if (f->behind && f->running) {
        char sp[32];
        fmt_speed(sp, sizeof sp, f->speed);
        p = add(&l, 3, SCREEN_WARN, SCREEN_BOLD, "behind: cannot keep %s t/s", sp);
        snprintf(p->brief, sizeof p->brief, "behind");
    }
    if (f->running && f->fps > 0)
        add(&l, f->behind ? 3 : 8, f->behind ? SCREEN_WARN : 0, 0, "%.0f fps", f->fps);
    if (f->aiming && !f->open) {
        char sp[32];
        fmt_speed(sp, sizeof sp, f->kick_speed);
        double deg = f->aim * 180 / SIM_PI;
        if (deg < 0)
            deg += 360;
        p = add(&l, 3, 0, SCREEN_BOLD, "aim %.0f\xc2\xb0 v %s", deg, sp);
        if (f->glyphs == VIEW_ASCII)
            snprintf(p->text, sizeof p->text, "aim %.0f deg v %s", deg, sp);
    }
    if (f->recording) {
        p = add(&l, 1, SCREEN_ALERT, SCREEN_BOLD, "REC %s %lld", f->recording, f->rec_frames);
        snprintf(p->brief, sizeof p->brief, "REC");
    }
    add(&l, 9, 0, 0, "%zu balls", s->n);
    if (!f->replay)
        add(&l, 10, 0, SCREEN_DIM, "back %lld", session_depth(ss));
    int w = scr->cols - 1;
    fit(&l, w, 2);
    draw_line(scr, &l, 1, scr->rows - 1, 2, "  ");
}

/* The note: right-aligned above the status line, over the table's frame,
 * in reverse video; word-wrapped into at most two rows, never cut inside
 * a word that fits. */
static void draw_note(struct screen *scr, const struct front *f)
{
    if (!f->note[0])
        return;
    uint32_t fg = f->note_level == SCREEN_ERROR ? SCREEN_ALERT
                : f->note_level == SCREEN_WARNING ? SCREEN_WARN : 0;
    int width = scr->cols - 2;
    char lines[2][160];
    int nl = 0;
    const char *p = f->note;
    while (*p && nl < 2) {
        /* the longest run of whole words that fits */
        const char *end = p, *q = p;
        int w = 0;
        while (*q) {
            const char *word = q;
            while (*q == ' ')
                q++;
            while (*q && *q != ' ')
                q++;
            char tmp[160];
            size_t len = (size_t)(q - p) < sizeof tmp - 1 ? (size_t)(q - p) : sizeof tmp - 1;
            memcpy(tmp, p, len);
            tmp[len] = 0;
            int tw = screen_width(tmp);
            if (tw > width) {
                q = word;
                break;
            }
            end = q;
            w = tw;
        }
        if (end == p) { /* one word longer than the line: it has to be cut */
            end = p + strlen(p);
            w = width;
        }
        size_t len = (size_t)(end - p) < sizeof lines[0] - 1 ? (size_t)(end - p) : sizeof lines[0] - 1;
        memcpy(lines[nl], p, len);
        lines[nl][len] = 0;
        (void)w;
        nl++;
        p = end;
        while (*p == ' ')
            p++;
    }
    for (int i = 0; i < nl; i++) {
        char buf[400];
        snprintf(buf, sizeof buf, " %s ", lines[i]);
        int bw = screen_width(buf);
        if (bw > scr->cols)
            bw = scr->cols;
        int y = scr->rows - 1 - nl + i;
        screen_text(scr, scr->cols - bw, y, bw, fg, SCREEN_REVERSE | SCREEN_BOLD, buf);
    }
}

/* === Table === */

/* Draws the balls of @p s into view @p v and the view into rectangle
 * @p t: the trails, the aim mark when @p aim, the panels over it, the box
 * with @p title on its top edge (NULL: none); @p second: the split view's
 * event table. */
static void draw_table_of(struct screen *scr, struct view *v, struct screen_rect t,
                          const struct sim *s, struct session *ss, const struct front *f,
                          int aim, const char *title, int second)
{
    /* A state that is not finite is not drawn: the last frame stays. */
    if (!ss->nonfinite || s != &ss->s) {
        view_begin(v);
        if (f->trails) {
            for (size_t i = 0; i < s->n; i++)
                view_trail(v, s->x[i], s->y[i]);
            for (int i = 0; i < scr->npanels; i++) { /* the centre of mass' path */
                const struct screen_panel *q = &scr->panel[i];
                double cx, cy;
                if (q->cls->place == PANEL_TABLE && q->cls->trail &&
                    q->cls->trail(q->self, s, &cx, &cy))
                    view_trail(v, cx, cy);
            }
        }
        for (size_t i = 0; i < s->n; i++) {
            uint32_t tag = session_tag(ss, sim_ball(s, i));
            const char *label = tag < scr->sc->n ? scr->ball_label[tag] : "";
            if (f->open && label[0])
                view_text(v, s->x[i], s->y[i], label, tag_fg(scr, tag));
            else if (f->open)
                view_ball(v, s->x[i], s->y[i], 0, tag_fg(scr, tag)); /* past 64 bodies: dots */
            else
                view_ball(v, s->x[i], s->y[i], s->r[i], tag_fg(scr, tag));
        }
        /* The cue ball is told apart by its arrow while aiming or paused. */
        if (aim && (f->aiming || !f->running) && !f->open) {
            size_t c = session_slot(ss, f->cue);
            if (c < s->n)
                view_mark(v, s->x[c], s->y[c], s->r[c], f->aim,
                          tag_fg(scr, session_tag(ss, f->cue)));
        }
        view_end(v);
    }
    const struct view_map *m = &v->map;
    for (int j = 0; j < m->rows; j++)
        for (int i = 0; i < m->cols; i++) {
            uint32_t ch, color;
            int layer = view_glyph(v, j * m->cols + i, &ch, &color);
            if (layer == VIEW_EMPTY) {
                /* A blank keeps the colour of the last ball there: it looks
                 * the same, and the terminal is spared colour switches. */
                screen_put(scr, t.x + i, t.y + j, ' ', color, 0);
                continue;
            }
            int attr = layer == VIEW_TRAIL ? SCREEN_DIM : layer == VIEW_MARK ? SCREEN_BOLD : 0;
            screen_put(scr, t.x + i, t.y + j, ch, layer == VIEW_RIM ? 0 : color, attr);
        }
    if (v->rim == VIEW_RIM_BOX) {
        int l = t.x + m->left - 1, tp = t.y + m->top - 1;
        int r = l + m->w + 1, b = tp + m->h + 1;
        screen_box(scr, (struct screen_rect){l, tp, m->w + 2, m->h + 2}, title, v->glyphs);
        /* issue 17: an open side is a gap between the corners (y up: the
         * top side is the top row) */
        unsigned op = s->p.shape == SIM_RECT ? s->p.open : 0;
        for (int i = l + 1; i < r && (op & (SIM_SIDE_TOP | SIM_SIDE_BOTTOM)); i++) {
            if (op & SIM_SIDE_TOP)
                screen_put(scr, i, tp, ' ', 0, 0);
            if (op & SIM_SIDE_BOTTOM)
                screen_put(scr, i, b, ' ', 0, 0);
        }
        for (int j = tp + 1; j < b && (op & (SIM_SIDE_LEFT | SIM_SIDE_RIGHT)); j++) {
            if (op & SIM_SIDE_LEFT)
                screen_put(scr, l, j, ' ', 0, 0);
            if (op & SIM_SIDE_RIGHT)
                screen_put(scr, r, j, ' ', 0, 0);
        }
    } else if (title) {
        screen_text(scr, t.x + 2, t.y, t.w - 4, 0, SCREEN_BOLD, title);
    }
    if (ss->nonfinite && s == &ss->s)
        return;
    struct panel_area a = {scr, ss, f, t, v, s, second, NULL};
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        int w, h;
        if (q->cls->place != PANEL_TABLE || !q->cls->draw || !q->cls->want(q->self, ss, &w, &h))
            continue;
        if (q->cls->update)
            q->cls->update(q->self, ss);
        q->cls->draw(q->self, &a);
    }
}

/* The second table a panel shows (the split view), with its title in
 * @p title; NULL when none does. */
static const struct sim *second_table(const struct screen *scr, struct session *ss,
                                      char *title, size_t size, int glyphs)
{
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        const struct sim *s = q->cls->second ? q->cls->second(q->self, ss, title, size, glyphs)
                                             : NULL;
        if (s)
            return s;
    }
    return NULL;
}

static void draw_table(struct screen *scr, struct session *ss, const struct front *f)
{
    char a[96], b[96];
    const struct sim *hard = scr->lay.table2.w > 0 ? second_table(scr, ss, b, sizeof b, f->glyphs)
                                                   : NULL;
    if (hard) {
        int ascii = f->glyphs == VIEW_ASCII;
        const struct session_diag *d = session_diag(ss);
        const char *dot = ascii ? " - " : " \xc2\xb7 ";
        snprintf(a, sizeof a, "springs%sE %.6g%sstep %lld", dot, d->e, dot, d->steps);
        draw_table_of(scr, &scr->v, scr->lay.table, &ss->s, ss, f, 1, a, 0);
        draw_table_of(scr, &scr->v2, scr->lay.table2, hard, ss, f, 0, b, 1);
        return;
    }
    draw_table_of(scr, &scr->v, scr->lay.table, &ss->s, ss, f, 1, NULL, 0);
}

/* === The selected ball's velocity arrow (live edits) === */

/* Grid coordinates of the arrow's tip: where the ball is after arrow_t at
 * its velocity, at least a cell and a half beyond its rim (a handle that
 * a zero velocity still shows). */
static int arrow_geom(const struct screen *scr, struct session *ss,
                      const struct front *f, double *c0, double *r0, double *c1, double *r1)
{
    const struct sim *s = session_observed(ss); /* the velocity shown */
    size_t i = session_slot(ss, f->cue);
    if (!f->arrow || f->open || i >= s->n || scr->lay.too_small || ss->nonfinite)
        return -1;
    const struct view_map *m = &scr->v.map;
    view_to_grid(m, s->x[i], s->y[i], c0, r0);
    double vx = s->vx[i], vy = s->vy[i];
    view_to_grid(m, s->x[i] + vx * f->arrow_t, s->y[i] + vy * f->arrow_t, c1, r1);
    double dc = *c1 - *c0, dr = (*r1 - *r0) * m->aspect; /* in cell widths */
    /* beyond the aim mark (3 cells off the rim) */
    double len = hypot(dc, dr), least = s->r[i] * m->sx + 4.5;
    if (!(len >= least)) {
        double ux = len > 0 ? dc / len : cos(f->aim), uy = len > 0 ? dr / len : -sin(f->aim);
        *c1 = *c0 + ux * least;
        *r1 = *r0 + uy * least / m->aspect;
    }
    if (!isfinite(*c1) || !isfinite(*r1) || fabs(*c1) > 1e6 || fabs(*r1) > 1e6)
        return -1;
    return 0;
}

int screen_arrow_tip(const struct screen *scr, struct session *ss,
                     const struct front *f, int *x, int *y)
{
    double c0, r0, c1, r1;
    if (arrow_geom(scr, ss, f, &c0, &r0, &c1, &r1))
        return -1;
    *x = scr->lay.table.x + (int)floor(c1);
    *y = scr->lay.table.y + (int)floor(r1);
    return 0;
}

/* A dotted shaft from the rim and a handle at the tip, over the table. */
static void draw_arrow(struct screen *scr, struct session *ss, const struct front *f)
{
    double c0, r0, c1, r1;
    if (arrow_geom(scr, ss, f, &c0, &r0, &c1, &r1))
        return;
    struct screen_rect t = scr->lay.table;
    uint32_t fg = tag_fg(scr, session_tag(ss, f->cue));
    int ascii = f->glyphs == VIEW_ASCII;
    double len = hypot(c1 - c0, (r1 - r0) * scr->v.map.aspect);
    int steps = (int)fmin(len, 400);
    size_t i = session_slot(ss, f->cue);
    double rim = ss->s.r[i] * scr->v.map.sx;
    for (int k = 1; k < steps; k++) {
        double q = (double)k / steps;
        if (q * len <= rim + 0.5)
            continue;
        int x = t.x + (int)floor(c0 + q * (c1 - c0)), y = t.y + (int)floor(r0 + q * (r1 - r0));
        if (x > t.x && x < t.x + t.w - 1 && y > t.y && y < t.y + t.h - 1) {
            const struct screen_cell *c = screen_at(scr, x, y);
            if (c && c->ch == ' ')
                screen_put(scr, x, y, ascii ? '.' : 0x00b7, fg, SCREEN_BOLD);
        }
    }
    int x = t.x + (int)floor(c1), y = t.y + (int)floor(r1);
    if (x > t.x && x < t.x + t.w - 1 && y > t.y && y < t.y + t.h - 1)
        screen_put(scr, x, y, ascii ? '+' : 0x25c6, fg, SCREEN_BOLD); /* the handle */
}

/* The ':' command line on the status row, its cursor in reverse video. */
static void draw_prompt(struct screen *scr, const struct front *f)
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

static void draw_help(struct screen *scr, const struct front *f,
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

/* === The frame === */

void screen_draw(struct screen *scr, struct session *ss, const struct front *f,
                 const struct screen_help *help, size_t nhelp)
{
    size_t n = (size_t)scr->cols * (size_t)scr->rows;
    for (size_t i = 0; i < n; i++)
        scr->cell[i] = (struct screen_cell){' ', 0, 0};
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
    draw_table(scr, ss, f);
    draw_arrow(scr, ss, f);
    struct screen_rect side = scr->lay.side;
    struct panel_area a = {scr, ss, f, {0, 0, 0, 0}, NULL, NULL, 0, NULL};
    if (side.w > 0) {
        int y = side.y;
        for (int i = 0; i < scr->npanels; i++) {
            const struct screen_panel *p = &scr->panel[i];
            if (scr->want[i].w <= 0)
                continue;
            int h = scr->want[i].h;
            if (y + h > side.y + side.h)
                h = side.y + side.h - y;
            if (h <= 0)
                break;
            a.r = (struct screen_rect){side.x, y, side.w, h};
            if (p->cls->update)
                p->cls->update(p->self, ss);
            p->cls->draw(p->self, &a);
            y += h;
        }
    }
    struct screen_rect bot = scr->lay.bottom;
    if (bot.h > 0) {
        /* side by side when each gets 40 columns, else stacked (the last
         * takes what is left) */
        int on = 0, sumw = 0;
        for (int i = 0; i < scr->npanels; i++)
            if (scr->want[i].w > 0) {
                on++;
                sumw += scr->want[i].w;
            }
        int beside = on > 1 && bot.w / on >= 40;
        int x = bot.x, y = bot.y, k = 0;
        for (int i = 0; i < scr->npanels; i++) {
            const struct screen_panel *p = &scr->panel[i];
            if (scr->want[i].w <= 0)
                continue;
            if (beside) { /* widths in proportion to what they want */
                int w = k + 1 == on ? bot.x + bot.w - x
                                    : (int)((long)bot.w * scr->want[i].w / (sumw > 0 ? sumw : 1));
                a.r = (struct screen_rect){x, bot.y, w - (k + 1 < on), bot.h};
                x += w;
            } else {
                int h = k + 1 == on ? bot.y + bot.h - y : scr->want[i].h;
                if (y + h > bot.y + bot.h)
                    h = bot.y + bot.h - y;
                if (h <= 0)
                    break;
                a.r = (struct screen_rect){bot.x, y, bot.w, h};
                y += h;
            }
            if (p->cls->update)
                p->cls->update(p->self, ss);
            p->cls->draw(p->self, &a);
            k++;
        }
    }
    draw_title(scr, ss, f);
    if (f->prompt)
        draw_prompt(scr, f);
    else
        draw_status(scr, ss, f);
    draw_note(scr, f);
    if (f->help)
        draw_help(scr, f, help, nhelp);
}

/* === Picking === */

void screen_to_world(const struct screen *scr, int x, int y, double *wx, double *wy)
{
    view_to_world(&scr->v.map, x - scr->lay.table.x + 0.5, y - scr->lay.table.y + 0.5, wx, wy);
}

size_t screen_ball_at(const struct screen *scr, const struct session *ss, int x, int y)
{
    if (scr->lay.too_small)
        return (size_t)-1;
    double wx, wy;
    screen_to_world(scr, x, y, &wx, &wy);
    /* half a cell across, in world units: a small ball is hit by its cell */
    double half = 0.5 / scr->v.map.sx, halfy = 0.5 / scr->v.map.sy;
    double slack = half > halfy ? half : halfy;
    const struct sim *s = &ss->s;
    size_t best = (size_t)-1;
    double bd = 0;
    for (size_t i = 0; i < s->n; i++) {
        double d = hypot(s->x[i] - wx, s->y[i] - wy);
        if (d <= s->r[i] + slack && (best == (size_t)-1 || d < bd)) {
            best = sim_ball(s, i);
            bd = d;
        }
    }
    return best;
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
            emit(&o, u, (size_t)utf8_put(u, c->ch));
        }
        if (ansi && (fg || attr))
            emits(&o, "\033[0m");
        emits(&o, "\n");
    }
    if (size)
        buf[o.len < size - 1 ? o.len : size - 1] = 0;
    return o.len;
}
