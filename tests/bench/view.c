/*
 * view.c - the drawing cost of big scenes, without a terminal.
 *
 *   bench-view N COLS ROWS FRAMES [GLYPHS [STEPS]]
 *
 * A gas of N balls at 10% packing on an 800 x 400 table (speed 8, the
 * spring defaults), advanced at the front end's default pace (20 time
 * units a second at 30 frames a second), drawn into a COLS x ROWS view
 * every frame. A model of a curses flush follows each frame: it keeps the
 * screen as the terminal has it and, row by row, counts the cells that
 * differ and the bytes a terminal would be sent for them (a cursor move
 * "ESC[r;cH" unless the cell follows the last one written, "ESC[38;5;Nm"
 * when the colour changes, the glyph in UTF-8; a gap of up to 3 cells in
 * a row is written over, a longer one skipped with "ESC[nC"; a blank needs
 * no colour). Prints one line:
 *
 *   N draw_ms listed changed bytes step_ms steps
 *
 * draw_ms: view_begin..view_end a frame (median over the frames); listed:
 * the cells the balls cover this frame (the view no longer lists cells to
 * paint: the screen compares every cell); changed: the cells that really
 * changed; bytes: the modelled bytes a frame; step_ms: one sim_step;
 * steps: steps a frame at the default pace (or STEPS). Links the core and the view
 * (any version with view_ball, view_end and view_glyph).
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "scene.h"
#include "sim.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int utf8_len(uint32_t c)
{
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/* What the terminal shows, and the flush model. */
struct term {
    uint32_t *ch, *color;
    int cols, rows;
};

static int digits(int v)
{
    return v >= 100 ? 3 : v >= 10 ? 2 : 1;
}

static long flush(struct term *t, const struct view *v, long *changed)
{
    long bytes = 0;
    *changed = 0;
    int cur_r = -1, cur_c = -1;
    uint32_t cur_color = 0xffffffffu;
    /* In screen order, as curses does: every cell compared with what the
     * terminal has. */
    for (int idx = 0; idx < t->cols * t->rows; idx++) {
        uint32_t ch, color;
        view_glyph(v, idx, &ch, &color);
        int blank = ch == ' ';
        if (t->ch[idx] == ch && (blank || t->color[idx] == color))
            continue;
        t->ch[idx] = ch;
        t->color[idx] = color;
        ++*changed;
        int r = idx / t->cols, c = idx % t->cols;
        /* The cheapest way there: nothing, rewriting a gap of up to 3
         * cells, "ESC[nC" along the row, or "ESC[r;cH". */
        if (r == cur_r && c >= cur_c && c - cur_c <= 3) {
            for (int k = cur_c; k < c; k++)
                bytes += utf8_len(t->ch[r * t->cols + k]);
        } else if (r == cur_r && c > cur_c) {
            bytes += 3 + digits(c - cur_c);
        } else {
            bytes += 4 + digits(r + 1) + digits(c + 1);
        }
        /* A blank shows the same in any colour: no switch for it. */
        if (!blank && color != cur_color) {
            bytes += 10; /* ESC [ 3 8 ; 5 ; N N m, about */
            cur_color = color;
        }
        bytes += utf8_len(ch);
        cur_r = r;
        cur_c = c + 1;
    }
    return bytes;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fputs("usage: bench-view N COLS ROWS FRAMES [0 braille | 1 ascii]\n", stderr);
        return 2;
    }
    long n = atol(argv[1]);
    int cols = atoi(argv[2]), rows = atoi(argv[3]), frames = atoi(argv[4]);
    int glyphs = argc > 5 ? atoi(argv[5]) : VIEW_BRAILLE;
    double r = sqrt(0.1 * 800 * 400 / (3.14159265358979 * (double)n));
    char text[256];
    snprintf(text, sizeof text, "table 800 400\nrandom %ld %.6g 1 8 7\n", n, r);
    struct scene sc;
    struct scene_error err;
    if (scene_parse(&sc, text, strlen(text), &err)) {
        fprintf(stderr, "bench-view: %d: %s\n", err.line, err.msg);
        return 1;
    }
    struct sim s;
    if (scene_to_sim(&sc, &s))
        return 1;
    struct view v;
    view_init(&v);
    if (view_layout(&v, cols, rows, 0, 0, 800, 400, 2, VIEW_RIM_BOX, glyphs))
        return 1;
    struct term t = {calloc((size_t)cols * rows, 4), calloc((size_t)cols * rows, 4), cols, rows};
    for (int i = 0; i < cols * rows; i++)
        t.ch[i] = ' ';
    int steps = argc > 6 ? atoi(argv[6]) : (int)lround(20.0 / 30.0 / s.p.dt);
    double *draw = malloc((size_t)frames * sizeof *draw);
    double step_t = 0;
    long listed = 0, changed = 0, bytes = 0;
    for (int f = 0; f < frames + 1; f++) {
        double a = bench_now();
        for (int k = 0; k < steps; k++)
            sim_step(&s);
        double b = bench_now();
        view_begin(&v);
        for (size_t i = 0; i < s.n; i++)
            view_ball(&v, s.x[i], s.y[i], s.r[i], 1 + (uint32_t)(s.id[i] % 7 == 0));
        view_end(&v);
        double c = bench_now();
        long ch;
        long by = flush(&t, &v, &ch);
        if (f == 0)
            continue; /* the first frame paints everything */
        draw[f - 1] = c - b;
        step_t += (b - a) / steps;
        listed += (long)v.nused;
        changed += ch;
        bytes += by;
    }
    qsort(draw, (size_t)frames, sizeof *draw, cmp);
    printf("%ld %.3f %ld %ld %ld %.3f %d\n", n, 1e3 * draw[frames / 2], listed / frames,
           changed / frames, bytes / frames, 1e3 * step_t / frames, steps);
    free(draw);
    free(t.ch);
    free(t.color);
    view_free(&v);
    sim_free(&s);
    scene_free(&sc);
    return 0;
}
