/*
 * palette.c - inks: contrast, OKLab distances, the touching graph of the
 * balls (labels are in palette_label.c).
 */
#include "palette.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* === Colour arithmetic === */

static double srgb_to_linear(int c8)
{
    double c = c8 / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static int linear_to_srgb(double c)
{
    if (!(c > 0))
        return 0;
    if (c >= 1)
        return 255;
    double s = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
    return (int)lround(s * 255);
}

static void to_linear(uint32_t rgb, double l[3])
{
    l[0] = srgb_to_linear((int)(rgb >> 16) & 255);
    l[1] = srgb_to_linear((int)(rgb >> 8) & 255);
    l[2] = srgb_to_linear((int)rgb & 255);
}

static uint32_t from_linear(const double l[3])
{
    return (uint32_t)linear_to_srgb(l[0]) << 16 | (uint32_t)linear_to_srgb(l[1]) << 8 |
           (uint32_t)linear_to_srgb(l[2]);
}

double palette_luminance(uint32_t rgb)
{
    double l[3];
    to_linear(rgb, l);
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

double palette_contrast(uint32_t a, uint32_t b)
{
    double la = palette_luminance(a), lb = palette_luminance(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* OKLab (Ottosson 2020): linear sRGB -> LMS -> cube root -> Lab. */
static void oklab(uint32_t rgb, double lab[3])
{
    double c[3];
    to_linear(rgb, c);
    double l = cbrt(0.4122214708 * c[0] + 0.5363325363 * c[1] + 0.0514459929 * c[2]);
    double m = cbrt(0.2119034982 * c[0] + 0.6806995451 * c[1] + 0.1073969566 * c[2]);
    double s = cbrt(0.0883024619 * c[0] + 0.2817188376 * c[1] + 0.6299787005 * c[2]);
    lab[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
    lab[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
    lab[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

double palette_distance(uint32_t a, uint32_t b)
{
    double p[3], q[3];
    oklab(a, p);
    oklab(b, q);
    return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                (p[2] - q[2]) * (p[2] - q[2]));
}

/* Chroma in OKLab: below this a colour is a grey. */
#define GREY_CHROMA 0.04

static int is_grey(uint32_t rgb)
{
    double lab[3];
    oklab(rgb, lab);
    return hypot(lab[1], lab[2]) < GREY_CHROMA;
}

uint32_t palette_xterm_rgb(int index)
{
    static const uint32_t base[16] = {
        0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
        0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
    };
    static const uint32_t level[6] = {0, 95, 135, 175, 215, 255};
    if (index < 0 || index > 255)
        return 0;
    if (index < 16)
        return base[index];
    if (index < 232) {
        int n = index - 16;
        return level[n / 36] << 16 | level[n / 6 % 6] << 8 | level[n % 6];
    }
    uint32_t g = (uint32_t)(8 + 10 * (index - 232));
    return g << 16 | g << 8 | g;
}

/* === Backgrounds and readable inks === */

int palette_bg_from_colorfgbg(const char *s)
{
    if (!s)
        return PALETTE_BG_UNKNOWN;
    const char *last = strrchr(s, ';');
    if (!last)
        return PALETTE_BG_UNKNOWN;
    last++;
    char *end;
    long v = strtol(last, &end, 10);
    if (end == last || *end || v < 0 || v > 15)
        return PALETTE_BG_UNKNOWN;
    return v == 7 || v >= 9 ? PALETTE_BG_LIGHT : PALETTE_BG_DARK;
}

/* The band of luminance readable on @p bg: [lo, hi]. */
static void band(int bg, double *lo, double *hi)
{
    const double k = PALETTE_MIN_CONTRAST;
    *lo = 0;
    *hi = 1;
    if (bg != PALETTE_BG_LIGHT)
        *lo = k * (palette_luminance(PALETTE_DARK_BG) + 0.05) - 0.05;
    if (bg != PALETTE_BG_DARK)
        *hi = (palette_luminance(PALETTE_LIGHT_BG) + 0.05) / k - 0.05;
}

/* With 8 or 16 colours no ink is readable on both sides for most hues
 * (xterm's green, yellow and cyan have under 2:1 on #eeeeee): an unknown
 * background is taken as dark there, as on the Linux console. */
static int effective_bg(int ncolors, int bg)
{
    return ncolors < 256 && bg == PALETTE_BG_UNKNOWN ? PALETTE_BG_DARK : bg;
}

/* The default foreground as the distance test imagines it. */
static uint32_t default_fg(int bg)
{
    return bg == PALETTE_BG_LIGHT ? 0x000000u : 0xe5e5e5u;
}

uint32_t palette_ink_rgb(struct palette_ink ink, int ncolors, uint32_t fg_rgb)
{
    if (ink.fg < 0)
        return fg_rgb;
    if (ncolors <= 8 && ink.bold && ink.fg < 8)
        return palette_xterm_rgb(ink.fg + 8);
    return palette_xterm_rgb(ink.fg);
}

int palette_readable(struct palette_ink ink, int ncolors, int bg)
{
    if (ink.fg < 0)
        return 1; /* the terminal's own pairing */
    bg = effective_bg(ncolors, bg);
    double lo, hi, l = palette_luminance(palette_ink_rgb(ink, ncolors, 0));
    band(bg, &lo, &hi);
    return l >= lo && l <= hi;
}

/* Candidate inks of a mode: 256 colours: 16..255 (their values are fixed;
 * 0..15 follow the theme); 16: 1..6 and 9..14; 8: 1..6, plain and bold. */
static int candidates(int ncolors, struct palette_ink *out)
{
    int n = 0;
    if (ncolors >= 256) {
        for (int i = 16; i < 256; i++)
            out[n++] = (struct palette_ink){(int16_t)i, 0};
    } else if (ncolors >= 16) {
        for (int i = 1; i <= 6; i++) {
            out[n++] = (struct palette_ink){(int16_t)i, 0};
            out[n++] = (struct palette_ink){(int16_t)(i + 8), 0};
        }
    } else if (ncolors >= 8) {
        for (int i = 1; i <= 6; i++) {
            out[n++] = (struct palette_ink){(int16_t)i, 0};
            out[n++] = (struct palette_ink){(int16_t)i, 1};
        }
    }
    return n;
}

struct palette_ink palette_ink_of(uint32_t rgb, int ncolors)
{
    struct palette_ink best = {-1, 0};
    double bd = INFINITY;
    int lo = ncolors >= 256 ? 16 : 1, hi = ncolors >= 256 ? 255 : ncolors >= 16 ? 15 : 7;
    for (int bold = 0; bold <= (ncolors < 16); bold++)
        for (int i = lo; i <= hi; i++) {
            struct palette_ink k = {(int16_t)i, (uint8_t)bold};
            uint32_t x = palette_ink_rgb(k, ncolors, 0);
            if (x == rgb)
                return k;
            double d = palette_distance(x, rgb);
            if (d < bd) {
                bd = d;
                best = k;
            }
        }
    return best;
}

/* rgb with its luminance moved into [lo, hi]: mixed with white in linear
 * light when too dark, scaled down when too light; the hue stays. Aims a
 * little inside the band, so that the nearest palette colour is in it. */
static uint32_t into_band(uint32_t rgb, double lo, double hi)
{
    double l = palette_luminance(rgb), c[3];
    to_linear(rgb, c);
    double m = 0.1 * (hi - lo);
    if (l < lo) {
        double t = (lo + m - l) / (1 - l);
        for (int i = 0; i < 3; i++)
            c[i] += t * (1 - c[i]);
    } else if (l > hi) {
        double s = (hi - m) / l;
        for (int i = 0; i < 3; i++)
            c[i] *= s;
    }
    return from_linear(c);
}

/* Where the search starts for rgb on bg. */
static uint32_t wanted(uint32_t rgb, int bg)
{
    double lo, hi;
    band(bg, &lo, &hi);
    return into_band(rgb, lo, hi);
}

/* The readable ink nearest to @p want among the candidates, at least
 * PALETTE_MIN_DE from every colour in avoid[0..navoid) (ignored when
 * navoid is 0); fg.fg = -2 when there is none. */
static struct palette_ink nearest(uint32_t want, int ncolors, int bg, const uint32_t *avoid,
                                  size_t navoid)
{
    struct palette_ink c[256], best = {-2, 0};
    int n = candidates(ncolors, c);
    double bd = INFINITY;
    for (int i = 0; i < n; i++) {
        if (!palette_readable(c[i], ncolors, bg))
            continue;
        uint32_t rgb = palette_ink_rgb(c[i], ncolors, 0);
        size_t k = 0;
        while (k < navoid && palette_distance(rgb, avoid[k]) >= PALETTE_MIN_DE)
            k++;
        if (k < navoid)
            continue;
        double d = palette_distance(rgb, want);
        if (d < bd) {
            bd = d;
            best = c[i];
        }
    }
    return best;
}

/* OKLab hue angle. */
static double hue(uint32_t rgb)
{
    double lab[3];
    oklab(rgb, lab);
    return atan2(lab[2], lab[1]);
}

/* With 8 or 16 colours: the terminal's hue nearest to rgb's, in the
 * variant (plain or bright) that is readable and nearest to rgb, or the
 * more readable one when neither is. */
static struct palette_ink small_ink(uint32_t rgb, int ncolors, int bg)
{
    double h = hue(rgb), bd = INFINITY;
    int fam = 1;
    for (int i = 1; i <= 6; i++) {
        double d = fabs(remainder(hue(palette_xterm_rgb(i)) - h, 2 * 3.14159265358979323846));
        if (d < bd) {
            bd = d;
            fam = i;
        }
    }
    struct palette_ink v[2] = {{(int16_t)fam, 0},
                               {(int16_t)(ncolors >= 16 ? fam + 8 : fam), (uint8_t)(ncolors < 16)}};
    int ok0 = palette_readable(v[0], ncolors, bg), ok1 = palette_readable(v[1], ncolors, bg);
    if (ok0 && ok1)
        return palette_distance(palette_ink_rgb(v[0], ncolors, 0), rgb) <=
                       palette_distance(palette_ink_rgb(v[1], ncolors, 0), rgb)
                   ? v[0]
                   : v[1];
    if (ok0 || ok1)
        return ok0 ? v[0] : v[1];
    double c[2];
    for (int k = 0; k < 2; k++) {
        uint32_t x = palette_ink_rgb(v[k], ncolors, 0);
        c[k] = bg == PALETTE_BG_LIGHT ? palette_contrast(x, PALETTE_LIGHT_BG)
                                      : palette_contrast(x, PALETTE_DARK_BG);
    }
    return c[0] >= c[1] ? v[0] : v[1];
}

struct palette_ink palette_ink(uint32_t rgb, int ncolors, int bg)
{
    struct palette_ink def = {-1, 0};
    if (ncolors < 8 || is_grey(rgb))
        return def;
    bg = effective_bg(ncolors, bg);
    if (ncolors < 256)
        return small_ink(rgb, ncolors, bg);
    struct palette_ink k = nearest(wanted(rgb, bg), ncolors, bg, NULL, 0);
    return k.fg == -2 ? def : k;
}

/* === Touching balls === */

static int ink_eq(struct palette_ink a, struct palette_ink b)
{
    return a.fg == b.fg && a.bold == b.bold;
}

/* The index of ink k in p, added when new; 0 (the default) when full. */
static uint16_t ink_index(struct palette *p, struct palette_ink k)
{
    for (size_t i = 0; i < p->n; i++)
        if (ink_eq(p->ink[i], k))
            return (uint16_t)i;
    if (p->n == PALETTE_MAX_INKS)
        return 0;
    p->ink[p->n] = k;
    return (uint16_t)p->n++;
}

/* A ball in the sweep: its left edge and its index. */
struct edge {
    double left;
    size_t i;
};

static int by_left(const void *a, const void *b)
{
    double u = ((const struct edge *)a)->left, v = ((const struct edge *)b)->left;
    return (u > v) - (u < v);
}

static int touch(const struct palette_ball *a, const struct palette_ball *b)
{
    double gap = hypot(a->x - b->x, a->y - b->y) - a->r - b->r;
    return gap <= 0.05 * fmin(a->r, b->r);
}

static int sized(const struct palette_ball *b)
{
    return b->colored && b->r > 0 && isfinite(b->x) && isfinite(b->y) && isfinite(b->r);
}

/* The pairs of touching coloured balls as lists per ball (CSR: the
 * neighbours of i are nb[at[i] .. at[i+1])). Returns 0 or -1. */
static int touching(const struct palette_ball *b, size_t n, size_t **at_out, size_t **nb_out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += sized(&b[i]);
    struct edge *ord = malloc((m ? m : 1) * sizeof *ord);
    size_t *at = calloc(n + 1, sizeof *at);
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    size_t np = 0, cap = 16;
    size_t (*pair)[2] = malloc(cap * sizeof *pair);
    size_t *nb = NULL;
    if (!ord || !at || !fill || !pair)
        goto fail;
    m = 0;
    for (size_t i = 0; i < n; i++)
        if (sized(&b[i]))
            ord[m++] = (struct edge){b[i].x - b[i].r, i};
    qsort(ord, m, sizeof *ord, by_left);
    /* Sweep along x: c can touch a only while its left edge is left of
     * a's right edge plus the slack. */
    for (size_t a = 0; a < m; a++) {
        const struct palette_ball *p = &b[ord[a].i];
        double right = p->x + p->r * 1.05;
        for (size_t c = a + 1; c < m && ord[c].left <= right; c++) {
            if (!touch(p, &b[ord[c].i]))
                continue;
            if (util_grow(&pair, &cap, np + 1, sizeof *pair))
                goto fail;
            pair[np][0] = ord[a].i;
            pair[np][1] = ord[c].i;
            np++;
        }
    }
    nb = malloc((np ? 2 * np : 1) * sizeof *nb);
    if (!nb)
        goto fail;
    for (size_t k = 0; k < np; k++) {
        at[pair[k][0] + 1]++;
        at[pair[k][1] + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        at[i + 1] += at[i];
    memcpy(fill, at, n * sizeof *fill);
    for (size_t k = 0; k < np; k++) {
        nb[fill[pair[k][0]]++] = pair[k][1];
        nb[fill[pair[k][1]]++] = pair[k][0];
    }
    free(ord);
    free(fill);
    free(pair);
    *at_out = at;
    *nb_out = nb;
    return 0;
fail:
    free(ord);
    free(at);
    free(fill);
    free(pair);
    free(nb);
    return -1;
}

int palette_balls(struct palette *p, const struct palette_ball *b, size_t n,
                  int ncolors, int bg, uint16_t *which)
{
    p->n = 1;
    p->ink[0] = (struct palette_ink){-1, 0};
    for (size_t i = 0; i < n; i++)
        which[i] = 0;
    if (ncolors < 8)
        return 0;
    /* The ink each colour asks for, found once per distinct colour. */
    enum { CACHE = 64 };
    uint32_t crgb[CACHE];
    uint16_t cink[CACHE];
    size_t nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!b[i].colored)
            continue;
        size_t k = 0;
        while (k < nc && crgb[k] != b[i].rgb)
            k++;
        if (k < nc) {
            which[i] = cink[k];
            continue;
        }
        which[i] = ink_index(p, palette_ink(b[i].rgb, ncolors, bg));
        if (nc < CACHE) {
            crgb[nc] = b[i].rgb;
            cink[nc++] = which[i];
        }
    }
    size_t *at, *nb;
    if (touching(b, n, &at, &nb))
        return -1;
    /* Greedy in file order: a ball whose ink is too near that of a
     * neighbour of another colour already settled takes the nearest
     * readable ink far enough from all of them. Neighbours of the same
     * colour stay alike (a wall of equal balls is one colour; the view
     * keeps a free dot between them). */
    bg = effective_bg(ncolors, bg);
    uint32_t fg = default_fg(bg);
    uint32_t avoid[64];
    for (size_t i = 0; i < n; i++) {
        size_t na = 0;
        int clash = 0;
        uint32_t mine = palette_ink_rgb(p->ink[which[i]], ncolors, fg);
        for (size_t k = at[i]; k < at[i + 1] && na < 64; k++) {
            size_t j = nb[k];
            if (j > i || b[j].rgb == b[i].rgb)
                continue; /* settled later against this one; or alike by intent */
            avoid[na] = palette_ink_rgb(p->ink[which[j]], ncolors, fg);
            clash |= palette_distance(avoid[na], mine) < PALETTE_MIN_DE;
            na++;
        }
        if (!clash)
            continue;
        struct palette_ink k = nearest(wanted(b[i].rgb, bg), ncolors, bg, avoid, na);
        if (k.fg == -2) {
            /* No chromatic ink is far enough: the foreground, if it is. */
            size_t a = 0;
            while (a < na && palette_distance(avoid[a], fg) >= PALETTE_MIN_DE)
                a++;
            if (a < na)
                continue; /* nothing helps: keep the asked-for ink */
            k = (struct palette_ink){-1, 0};
        }
        which[i] = ink_index(p, k);
    }
    free(at);
    free(nb);
    return 0;
}
