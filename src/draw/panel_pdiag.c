/*
 * panel_pdiag.c - the momentum diagram (issue 26.9): each ball's momentum
 * drawn tip to tail and their sum beside them, before the last contact and
 * now, on one scale (see panel.h).
 */
#include "panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Above this many balls the diagram is a blur: it says so instead. */
enum { PDIAG_MAX = 40 };

/* The points of one diagram in momentum units, y up: the tips P_1..P_n
 * of the chain from P_0 = 0, and the sum. */
struct chain {
    double x[PDIAG_MAX + 1], y[PDIAG_MAX + 1];
    double sx, sy;
};

static void chain(struct chain *c, size_t n, const double *px, const double *py)
{
    c->x[0] = c->y[0] = 0;
    for (size_t i = 0; i < n; i++) {
        c->x[i + 1] = c->x[i] + px[i];
        c->y[i + 1] = c->y[i] + py[i];
    }
    c->sx = c->x[n];
    c->sy = c->y[n];
}

/* The extent of a chain (with its origin) in momentum units. */
static void extent(const struct chain *c, size_t n, double *x0, double *x1, double *y0,
                   double *y1)
{
    for (size_t i = 0; i <= n; i++) {
        *x0 = fmin(*x0, c->x[i]);
        *x1 = fmax(*x1, c->x[i]);
        *y0 = fmin(*y0, c->y[i]);
        *y1 = fmax(*y1, c->y[i]);
    }
}

/* Draws chain @p c in columns [col0, col0 + w) and rows [1, 1 + h) at
 * @p scale cells (widths) per unit, the extent (x0..x1, y0..y1) centred;
 * @p line: every momentum along x, each arrow a row below the last and
 * the sum on a row of its own. */
static void draw_chain(struct plot *p, const struct chain *c, size_t n, int col0, int w, int h,
                       double scale, double x0, double x1, double y0, double y1, int line,
                       const uint32_t *color, double aspect)
{
    /* along a line: two rows an arrow when they fit (a head's barbs take a
     * row's height), else one */
    int gap = line && 2 * ((int)n + 1) <= h ? 2 : 1;
    double rows_used = line ? (double)gap * (double)n + 1 : (y1 - y0) * scale / aspect;
    double oc = col0 + 0.5 + (w - 1 - (x1 - x0) * scale) / 2 - x0 * scale;
    double orow = line ? 1 + floor((h - rows_used) / 2) + 0.5
                       : 1 + (h - 2 - rows_used) / 2 + y1 * scale / aspect + 0.5;
    for (size_t i = 0; i < n; i++) {
        double dr = line ? (double)gap * (double)i : 0;
        double c0 = oc + c->x[i] * scale, r0 = orow + dr - c->y[i] * scale / aspect;
        double c1 = oc + c->x[i + 1] * scale, r1 = orow + dr - c->y[i + 1] * scale / aspect;
        plot_arrow(p, c0, r0, c1, r1, aspect, color[i] ? color[i] : PANEL_TEXT);
    }
    /* the sum beside the chain: a row below the closing side, or on rows
     * of its own along a line */
    double dr = line ? (double)gap * (double)n : 1;
    plot_arrow(p, oc, orow + dr, oc + c->sx * scale, orow + dr - c->sy * scale / aspect, aspect,
               PANEL_E);
}

/* The sums of chain @p c as written: 0 within their rounding
 * (lab_round_total over @p px, @p py), never "-0"; 0 without momenta. */
static void sums_shown(const struct chain *c, const double *px, const double *py, size_t n,
                       double out[2])
{
    double ax = 0, ay = 0;
    for (size_t i = 0; px && py && i < n; i++) {
        ax += fabs(px[i]);
        ay += fabs(py[i]);
    }
    out[0] = px ? lab_round_total(c->sx, ax, n) : 0;
    out[1] = py ? lab_round_total(c->sy, ay, n) : 0;
    for (int k = 0; k < 2; k++)
        if (out[k] == 0)
            out[k] = 0;
}

/* Cells the UTF-8 text @p s takes in a plot: one a code point. */
static int width(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int panel_pdiag(struct plot *p, size_t n, const double *bx, const double *by, double t_before,
                const double *nx, const double *ny, double t_now, const uint32_t *color,
                double aspect, int ascii)
{
    plot_clear(p);
    if (!(aspect > 0))
        aspect = 2;
    if (p->w < PANEL_PDIAG_MIN_W || p->h < PANEL_PDIAG_MIN_H) {
        plot_text(p, 0, 0, "momentum diagram: too small", PANEL_DIM);
        return -1;
    }
    if (n == 0 || n > PDIAG_MAX) {
        char msg[80];
        snprintf(msg, sizeof msg, n ? "momentum diagram: up to %d balls" : "no balls",
                 PDIAG_MAX);
        plot_text(p, 0, 0, msg, PANEL_DIM);
        return -1;
    }
    static struct chain a, b; /* large for a stack frame; one diagram at a time */
    chain(&b, n, nx, ny);
    int before = bx && by;
    if (before)
        chain(&a, n, bx, by);
    /* one scale for both halves: the larger extent fits */
    double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    extent(&b, n, &x0, &x1, &y0, &y1);
    if (before)
        extent(&a, n, &x0, &x1, &y0, &y1);
    int line = y0 == 0 && y1 == 0; /* every momentum along x */
    for (size_t i = 0; line && i < n; i++)
        line = ny[i] == 0 && (!before || by[i] == 0);
    int hw = (p->w - 1) / 2, h = p->h - 2; /* a half's columns, the drawing's rows */
    double sw = x1 > x0 ? (hw - 2) / (x1 - x0) : INFINITY;
    double sh = !line && y1 > y0 ? (h - 2) * aspect / (y1 - y0) : INFINITY;
    double scale = fmin(sw, sh);
    if (!isfinite(scale) || !(scale > 0))
        scale = 1; /* all at rest: the arrows are dots */
    if (line && (double)n + 1 > h)
        line = 0; /* no room for a row each: along one line */
    /* Each half's caption on the top row with its sum after it, the
     * caption shortened until both halves fit; the bottom row is the
     * note's (a key's note, such as P's, covers its right side), so the
     * sums go there only when the top row has no room for them. */
    const char *sum = ascii ? "sum p" : "\xce\xa3p";
    char cap[2][64], sums[2][64];
    int rw = p->w - hw - 1; /* the right half's columns */
    /* a total within its rounding is 0, as on the status line (the
     * break's read "Σp (10, 4.441e-16)" beside the status line's (10, 0)) */
    double s0[2], s1[2];
    sums_shown(&a, before ? bx : NULL, before ? by : NULL, n, s0);
    sums_shown(&b, nx, ny, n, s1);
    snprintf(sums[0], sizeof sums[0], "%s (%.4g, %.4g)", sum, s0[0], s0[1]);
    snprintf(sums[1], sizeof sums[1], "%s (%.4g, %.4g)", sum, s1[0], s1[1]);
    snprintf(cap[1], sizeof cap[1], "now (t %.4g)", t_now);
    static const char *const befores[] = {"before the last contact", "before the contact",
                                          "before"};
    int top = 0; /* the sums on the top row */
    for (int k = 0; k < 3; k++) {
        snprintf(cap[0], sizeof cap[0], "%s (t %.4g)", befores[k], t_before);
        top = (!before || (int)(strlen(cap[0]) + 2 + width(sums[0])) <= hw) &&
              (int)(strlen(cap[1]) + 2 + width(sums[1])) <= rw;
        if (top)
            break;
    }
    if (!top) /* the longest caption that fits alone */
        for (int k = 0; k < 3; k++) {
            snprintf(cap[0], sizeof cap[0], "%s (t %.4g)", befores[k], t_before);
            if ((int)strlen(cap[0]) <= hw)
                break;
        }
    if (before) {
        draw_chain(p, &a, n, 0, hw, h, scale, x0, x1, y0, y1, line, color, aspect);
        int c = plot_text(p, 0, 0, cap[0], PANEL_DIM);
        if (top)
            plot_text(p, c + 2, 0, sums[0], PANEL_E);
        else
            plot_text(p, 0, p->h - 1, sums[0], PANEL_E);
    } else {
        plot_text(p, 0, 0, hw >= 22 ? "before: no contact yet" : "no contact yet", PANEL_DIM);
    }
    draw_chain(p, &b, n, hw + 1, rw, h, scale, x0, x1, y0, y1, line, color, aspect);
    int c = plot_text(p, hw + 1, 0, cap[1], PANEL_DIM);
    if (top)
        plot_text(p, c + 2, 0, sums[1], PANEL_E);
    else
        plot_text(p, hw + 1, p->h - 1, sums[1], PANEL_E);
    for (int j = 1; j < p->h - 1; j++) /* the halves' border */
        if (!plot_at(p, hw, j)->ch)
            plot_text(p, hw, j, ascii ? "|" : "\xe2\x94\x82", PANEL_DIM);
    return 0;
}
