/*
 * test_palette.c - inks readable on dark and light backgrounds (pure blue
 * was 2.4:1 on black), touching balls told apart, unique body labels
 * (Mercury and Mars were both M; one of figure8's three equal stars was a
 * star glyph and two were S).
 */
#include "palette.h"
#include "scene.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void test_contrast(void)
{
    /* WCAG: white on black is 21:1, a colour on itself 1:1; pure blue on
     * black is the 2.4:1 of the issue. */
    CHECK_NEAR(palette_contrast(0xffffff, 0x000000), 21, 1e-9);
    CHECK_NEAR(palette_contrast(0x123456, 0x123456), 1, 1e-12);
    CHECK_NEAR(palette_contrast(0x0000ff, 0x000000), 2.44, 0.01);
    CHECK_NEAR(palette_luminance(0xff0000), 0.2126, 1e-9);
    CHECK(palette_distance(0x000000, 0xffffff) > 0.99 && palette_distance(0x000000, 0xffffff) < 1.01);
    CHECK(palette_xterm_rgb(21) == 0x0000ff && palette_xterm_rgb(196) == 0xff0000);
    CHECK(palette_xterm_rgb(232) == 0x080808 && palette_xterm_rgb(4) == 0x0000ee);
    CHECK(palette_bg_from_colorfgbg("15;0") == PALETTE_BG_DARK);
    CHECK(palette_bg_from_colorfgbg("0;default;15") == PALETTE_BG_LIGHT);
    CHECK(palette_bg_from_colorfgbg("0;7") == PALETTE_BG_LIGHT);
    CHECK(palette_bg_from_colorfgbg("default") == PALETTE_BG_UNKNOWN);
    CHECK(palette_bg_from_colorfgbg("0;99") == PALETTE_BG_UNKNOWN);
    CHECK(palette_bg_from_colorfgbg(NULL) == PALETTE_BG_UNKNOWN);
}

/* Every colour a scene can name, and the hex ones the issue names, give
 * 256-colour inks with 3:1 on both reference backgrounds, of the same hue
 * family; greys give the default foreground. */
static void test_inks(void)
{
    const uint32_t rgb[] = {0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd,
                            0x0000ff, 0xffff00, 0x10a0ff, 0xff8000};
    for (size_t i = 0; i < sizeof rgb / sizeof *rgb; i++)
        for (int bg = 0; bg <= 2; bg++) {
            struct palette_ink k = palette_ink(rgb[i], 256, bg);
            CHECK(k.fg >= 16 && k.fg <= 255 && !k.bold);
            uint32_t x = palette_ink_rgb(k, 256, 0);
            if (bg != PALETTE_BG_LIGHT)
                CHECK(palette_contrast(x, PALETTE_DARK_BG) >= PALETTE_MIN_CONTRAST);
            if (bg != PALETTE_BG_DARK)
                CHECK(palette_contrast(x, PALETTE_LIGHT_BG) >= PALETTE_MIN_CONTRAST);
            CHECK(palette_readable(k, 256, bg));
        }
    /* Pure blue stays blue: more blue than red or green. */
    uint32_t b = palette_ink_rgb(palette_ink(0x0000ff, 256, PALETTE_BG_UNKNOWN), 256, 0);
    CHECK((b & 255) > (b >> 16 & 255) && (b & 255) > (b >> 8 & 255));
    CHECK(palette_contrast(b, 0x000000) >= 4.5);
    /* Greys: the terminal's own foreground, in every mode. */
    for (int nc = 0; nc <= 256; nc += 8) {
        CHECK(palette_ink(0xe5e5e5, nc, 0).fg == -1);
        CHECK(palette_ink(0x000000, nc, 0).fg == -1);
        CHECK(palette_ink(0x808080, nc, 0).fg == -1);
    }
    /* No colours: the foreground. */
    CHECK(palette_ink(0xcd0000, 0, 0).fg == -1);
    /* 8 colours: the same hue, bold (bright) where plain is too dark on a
     * dark background: blue is bold blue, red bold red, green plain. */
    struct palette_ink k = palette_ink(0x0000ee, 8, PALETTE_BG_UNKNOWN);
    CHECK(k.fg == 4 && k.bold == 1);
    k = palette_ink(0xcd0000, 8, PALETTE_BG_UNKNOWN);
    CHECK(k.fg == 1 && k.bold == 1);
    k = palette_ink(0x00cd00, 8, PALETTE_BG_DARK);
    CHECK(k.fg == 2 && k.bold == 0);
    /* 16 colours: bright is a colour of its own. */
    k = palette_ink(0x0000ee, 16, PALETTE_BG_UNKNOWN);
    CHECK(k.fg == 12 && k.bold == 0);
    /* On a light background plain blue is the readable one. */
    k = palette_ink(0x0000ee, 8, PALETTE_BG_LIGHT);
    CHECK(k.fg == 4 && k.bold == 0);
}

/* Colours kept as 0xrrggbb come back as the same ink. */
static void test_ink_of(void)
{
    const int modes[] = {8, 16, 256};
    int bad = 0;
    for (int mi = 0; mi < 3; mi++)
        for (uint32_t rgb = 0; rgb < 0x1000000u; rgb += 0x010305) {
            for (int bg = 0; bg <= 2; bg++) {
                struct palette_ink k = palette_ink(rgb, modes[mi], bg);
                if (k.fg < 0)
                    continue;
                struct palette_ink b = palette_ink_of(palette_ink_rgb(k, modes[mi], 0), modes[mi]);
                bad += b.fg != k.fg || b.bold != k.bold;
            }
        }
    CHECK(bad == 0);
    /* Any colour: the nearest the terminal has. */
    struct palette_ink k = palette_ink_of(0xd7af00, 256);
    CHECK(k.fg == 178 && !k.bold);
    k = palette_ink_of(0x5c5cff, 8);
    CHECK(k.fg == 4 && k.bold);
    k = palette_ink_of(0xcd0000, 16);
    CHECK(k.fg == 1 && !k.bold);
}

/* The break's rack: every pair of touching balls gets inks at least
 * PALETTE_MIN_DE apart, in every mode with colours; and two touching balls
 * of the same scene colour are told apart. */
static void test_touching(void)
{
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, scene_builtin, strlen(scene_builtin), &err) == 0);
    size_t n = sc.n;
    struct palette_ball *b = calloc(n + 2, sizeof *b);
    uint16_t *w = calloc(n + 32, sizeof *w); /* room for the wall of 20 below */
    static struct palette p;
    for (size_t i = 0; i < n; i++) {
        b[i].x = sc.balls[i].x;
        b[i].y = sc.balls[i].y;
        b[i].r = sc.balls[i].r;
        b[i].rgb = scene_color_rgb(sc.balls[i].color);
        b[i].colored = sc.balls[i].color != SCENE_COLOR_NONE;
    }
    const int modes[] = {8, 16, 256};
    for (int mi = 0; mi < 3; mi++)
        for (int bg = 0; bg <= 2; bg++) {
            CHECK(palette_balls(&p, b, n, modes[mi], bg, w) == 0);
            CHECK(p.ink[0].fg == -1);
            int pairs = 0, close = 0;
            uint32_t fg = bg == PALETTE_BG_LIGHT ? 0 : 0xe5e5e5;
            for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++) {
                    double d = hypot(b[i].x - b[j].x, b[i].y - b[j].y);
                    if (d > b[i].r + b[j].r + 1e-6)
                        continue;
                    pairs++;
                    close += palette_distance(palette_ink_rgb(p.ink[w[i]], modes[mi], fg),
                                              palette_ink_rgb(p.ink[w[j]], modes[mi], fg)) <
                             PALETTE_MIN_DE;
                }
            CHECK(pairs == 30); /* 3 * 10 neighbour pairs in 5 rows */
            CHECK(close == 0);
        }
    /* Two reds that the terminal shows alike, side by side, a third ball
     * apart: the touching pair differs, the lone ball keeps the asked-for
     * red. */
    struct palette_ball two[3] = {
        {0, 0, 1, 0xcd0000, 1}, {2, 0, 1, 0xd00000, 1}, {10, 0, 1, 0xd00000, 1}};
    CHECK(palette_balls(&p, two, 3, 256, PALETTE_BG_UNKNOWN, w) == 0);
    CHECK(w[1] != w[0] && w[2] == w[0]);
    CHECK(palette_distance(palette_ink_rgb(p.ink[w[0]], 256, 0), palette_ink_rgb(p.ink[w[1]], 256, 0)) >=
          PALETTE_MIN_DE);
    /* The same in 8 colours, and on a light background. */
    CHECK(palette_balls(&p, two, 3, 8, PALETTE_BG_UNKNOWN, w) == 0);
    CHECK(w[1] != w[0]);
    CHECK(palette_balls(&p, two, 3, 256, PALETTE_BG_LIGHT, w) == 0);
    CHECK(w[1] != w[0]);
    /* Equal colours stay alike: a wall of touching black balls (the
     * membrane of diffusion.txt) is one colour, as is a row of reds. */
    struct palette_ball wall[20];
    for (int i = 0; i < 20; i++)
        wall[i] = (struct palette_ball){0.5, 0.02 + 0.041 * i, 0.02, i < 10 ? 0x000000u : 0xcd0000u, 1};
    CHECK(palette_balls(&p, wall, 20, 256, PALETTE_BG_UNKNOWN, w) == 0);
    int same = 1;
    for (int i = 1; i < 20; i++)
        same &= i == 10 || w[i] == w[i - 1];
    CHECK(same && w[0] == 0 && w[10] != 0);
    /* Balls without a colour are never changed: a gas stays one colour. */
    two[0].colored = two[1].colored = 0;
    CHECK(palette_balls(&p, two, 3, 256, PALETTE_BG_UNKNOWN, w) == 0);
    CHECK(w[0] == 0 && w[1] == 0 && w[2] != 0);
    /* No colours: everything is the foreground. */
    CHECK(palette_balls(&p, b, n, 0, 0, w) == 0);
    for (size_t i = 0; i < n; i++)
        CHECK(w[i] == 0);
    free(b);
    free(w);
    scene_free(&sc);
}

static int all_unique(char (*l)[PALETTE_LABEL_MAX], size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(l[i], l[j]) == 0)
                return 0;
    return 1;
}

static void test_labels(void)
{
    char l[80][PALETTE_LABEL_MAX];
    /* planets.txt: the sun outweighs all ten times: the star; Mercury and
     * Mars are told apart. */
    const char *pl[] = {"earth.gif", "mars.gif", "mercury.gif", "sun.gif", "venus.gif"};
    const double pm[] = {5.974e24, 6.419e23, 3.302e23, 1.989e30, 4.869e24};
    CHECK(palette_labels(pl, pm, 5, 0, l) == 2);
    CHECK(strcmp(l[0], "E") == 0 && strcmp(l[1], "Ma") == 0 && strcmp(l[2], "Me") == 0);
    CHECK(strcmp(l[3], "\xe2\x9c\xb6") == 0 && strcmp(l[4], "V") == 0);
    palette_labels(pl, pm, 5, 1, l);
    CHECK(strcmp(l[3], "*") == 0);
    /* figure8.txt: three equal stars, drawn alike: three letters from the
     * part of their names that differs, no star glyph. */
    const char *f8[] = {"star-a", "star-b", "star-c"};
    const double fm[] = {1.4992503748e29, 1.4992503748e29, 1.4992503748e29};
    CHECK(palette_labels(f8, fm, 3, 0, l) == 0);
    CHECK(strcmp(l[0], "A") == 0 && strcmp(l[1], "B") == 0 && strcmp(l[2], "C") == 0);
    /* Names a prefix shares without a separator are not cut: mars and
     * moon keep their M. */
    const char *mm[] = {"mars", "moon", "io"};
    const double m3[] = {1, 1, 1};
    palette_labels(mm, m3, 3, 0, l);
    CHECK(strcmp(l[0], "Ma") == 0 && strcmp(l[1], "Mo") == 0 && strcmp(l[2], "I") == 0);
    /* Repeated names (kaleidoscope.txt: eight mars.gif) are numbered, an
     * unnamed body is its place in the file, and all are unique. */
    const char *k[] = {"sun.gif", "mars.gif", "mars.gif", "mars.gif", "mercury.gif", NULL, "", "m1"};
    const double km[] = {1e30, 1, 1, 1, 2, 3, 4, 5};
    palette_labels(k, km, 8, 1, l);
    CHECK(strcmp(l[0], "*") == 0);
    CHECK(strcmp(l[1], "M1") == 0 && strcmp(l[2], "M2") == 0 && strcmp(l[3], "M3") == 0);
    CHECK(strcmp(l[5], "6") == 0 && strcmp(l[6], "7") == 0);
    CHECK(all_unique(l, 8));
    for (size_t i = 0; i < 8; i++)
        CHECK(l[i][0] != 0);
    /* Paths and extensions are not part of a name. */
    const char *p2[] = {"img/earth.gif", "./venus.png"};
    const double p2m[] = {1, 2};
    palette_labels(p2, p2m, 2, 1, l);
    CHECK(strcmp(l[0], "E") == 0 && strcmp(l[1], "V") == 0);
    /* 64 bodies of one name: unique labels. Past 64: none but the star. */
    const char *same[80];
    double sm[80];
    for (int i = 0; i < 80; i++) {
        same[i] = "rock.gif";
        sm[i] = 1;
    }
    palette_labels(same, sm, 64, 1, l);
    CHECK(all_unique(l, 64));
    CHECK(strcmp(l[63], "R64") == 0);
    sm[5] = 1e6;
    palette_labels(same, sm, 80, 1, l);
    CHECK(strcmp(l[5], "*") == 0 && l[0][0] == 0 && l[79][0] == 0);
}

/* Any names and masses (bytes 1..255, NaN, infinities, negatives, zero):
 * labels stay unique, short and non-empty; palette_balls takes NaN and
 * infinite positions and radii. */
static void test_garbage(void)
{
    unsigned long st = 99;
#define RND() (st = st * 6364136223846793005ul + 1442695040888963407ul, (unsigned)(st >> 33))
    static char buf[70][12];
    const char *names[70];
    double m[70];
    char l[70][PALETTE_LABEL_MAX];
    const double odd[] = {NAN, INFINITY, -INFINITY, -1, 0, 1e308, 5e-324};
    int bad = 0;
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + RND() % 70;
        for (size_t i = 0; i < n; i++) {
            size_t len = RND() % 11;
            for (size_t k = 0; k < len; k++)
                buf[i][k] = (char)(RND() % 4 ? 'a' + RND() % 3 : 1 + RND() % 255);
            buf[i][len] = 0;
            names[i] = RND() % 9 ? buf[i] : NULL;
            m[i] = RND() % 5 ? 1 + RND() % 3 : odd[RND() % 7];
        }
        palette_labels(names, m, n, (int)(round & 1), l);
        if (n <= PALETTE_MAX_LABELS) {
            for (size_t i = 0; i < n; i++) {
                size_t len = strlen(l[i]);
                bad += len == 0 || len >= PALETTE_LABEL_MAX;
                for (size_t j = i + 1; j < n; j++)
                    bad += strcmp(l[i], l[j]) == 0;
            }
        }
    }
    CHECK(bad == 0);
    struct palette_ball b[6] = {
        {NAN, 0, 1, 0xff0000, 1}, {0, INFINITY, 1, 0xff0000, 1}, {0, 0, NAN, 0xff0000, 1},
        {0, 0, 0, 0xff0000, 1},   {0, 0, 1e308, 0xff0000, 1},   {1, 0, 1e308, 0xfe0000, 1}};
    uint16_t w[6];
    static struct palette p;
    CHECK(palette_balls(&p, b, 6, 256, 0, w) == 0);
    CHECK(w[4] != w[5]); /* two huge balls of near colours overlap: told apart */
#undef RND
}

void test_palette(void)
{
    test_garbage();
    test_contrast();
    test_inks();
    test_ink_of();
    test_touching();
    test_labels();
}
