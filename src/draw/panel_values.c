/*
 * panel_values.c - the values panel: a row per ball, the totals, the
 * selected ball's contacts (see panel.h).
 */
#include "panel.h"

#include "shown.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* %.5g without a "-0". */
static const char *num(char *buf, size_t cap, double v)
{
    if (v == 0)
        v = 0;
    snprintf(buf, cap, "%.5g", v);
    return buf;
}

/* ===== The values panel ===== */

static const char *wall_name(size_t w)
{
    static const char *const name[] = {"left wall", "right wall", "bottom wall",
                                       "top wall", "rim"};
    return w < sizeof name / sizeof *name ? name[w] : "wall";
}

enum { MAX_CONTACT_LINES = 6 };

/* The lines under the table of balls (the sums, the selected ball's
 * contacts) start under its # and Sigma column, 3 in, when they fit so
 * (strlen counts a UTF-8 character's bytes: it errs toward column 0). */
#define UNDER_X 3
static int indent(const struct plot *p, const char *line)
{
    return (int)strlen(line) + UNDER_X <= p->w ? UNDER_X : 0;
}

int panel_values(struct plot *p, const struct sim *s, struct panel_values *o)
{
    plot_clear(p);
    if (p->w < 8 || p->h < 2) {
        plot_text(p, 0, 0, "values: too small", PANEL_DIM);
        return 0;
    }
    struct lab_layout lay;
    lab_layout_depth(&lay, p->w, o->z != NULL);
    lab_layout_noise(&lay, s);
    struct lab_totals tot;
    lab_totals(s, &tot);
    size_t sel = o->selected < s->n ? o->selected : PANEL_NONE;
    /* the contacts section */
    struct lab_contact con[MAX_CONTACT_LINES];
    size_t ncon = 0;
    int con_lines = 0;
    if (sel != PANEL_NONE && p->h >= 8 && o->hard) {
        con_lines = 1;
    } else if (sel != PANEL_NONE && p->h >= 8) {
        /* the touching ones (a law with a range acts further) */
        struct lab_contact all[64];
        size_t nall = lab_contacts(s, sel, all, 64);
        for (size_t k = 0; k < nall && k < 64; k++)
            if (all[k].touching) {
                if (ncon < MAX_CONTACT_LINES)
                    con[ncon] = all[k];
                ncon++;
            }
        con_lines = 1 + (int)(ncon < MAX_CONTACT_LINES ? ncon : MAX_CONTACT_LINES);
        if (con_lines > p->h - 5)
            con_lines = p->h - 5;
    }
    int info = p->h >= 5;
    int rows = p->h - 2 - info - con_lines; /* ball rows */
    if (rows < 0)
        rows = 0;
    if ((size_t)rows > s->n)
        rows = (int)s->n;
    /* scroll: keep the selected ball in view, and no blank end */
    if (sel != PANEL_NONE && rows > 0 && !o->free_scroll) {
        if (sel < o->scroll)
            o->scroll = sel;
        else if (sel >= o->scroll + (size_t)rows)
            o->scroll = sel - (size_t)rows + 1;
    }
    if (o->scroll + (size_t)rows > s->n)
        o->scroll = s->n - (size_t)rows;
    char buf[512], a[32], b[32], c[32], d[32], e[32];
    int row = 0;
    plot_text(p, 0, row++, lab_header(buf, sizeof buf, &lay), PANEL_DIM);
    for (int i = 0; i < rows; i++) {
        struct lab_row r;
        size_t ball = o->scroll + (size_t)i;
        lab_row(s, ball, &r);
        if (o->z) {
            r.z = o->z[ball];
            r.vz = o->vz[ball];
        }
        if (o->atom)
            r.ball = o->atom[ball]; /* the run's own number */
        lab_row_line(buf, sizeof buf, &lay, &r);
        if (ball == sel)
            buf[0] = '>';
        plot_text(p, 0, row++, buf, ball == sel ? PANEL_HILITE : PANEL_TEXT);
    }
    lab_total_line(buf, sizeof buf, &lay, &tot);
    int trow = row++;
    plot_text(p, 0, trow, buf, PANEL_TEXT);
    if (!o->ascii)
        plot_text(p, 0, trow, "   Σ", PANEL_TEXT);
    if (info) {
        snprintf(buf, sizeof buf, "PE %s  E %s  M %s  CM (%s, %s)",
                 num(a, sizeof a, tot.pe + tot.pg), num(b, sizeof b, tot.e),
                 num(c, sizeof c, tot.m), num(d, sizeof d, tot.cx),
                 num(e, sizeof e, tot.cy));
        if (tot.dissipated > 0 && (int)strlen(buf) + 16 < p->w) {
            size_t len = strlen(buf);
            snprintf(buf + len, sizeof buf - len, "  lost %s", num(a, sizeof a, tot.dissipated));
        }
        plot_text(p, indent(p, buf), row++, buf, PANEL_TEXT);
    }
    if (con_lines > 0) {
        struct lab_row r;
        lab_row(s, sel, &r);
        if (o->hard)
            snprintf(buf, sizeof buf, "ball %zu: hard balls touch only at an instant", sel + 1);
        else if (ncon == 0)
            snprintf(buf, sizeof buf, "ball %zu: no contact", sel + 1);
        else
            snprintf(buf, sizeof buf, "ball %zu touches:", sel + 1);
        plot_text(p, indent(p, buf), row++, buf, PANEL_HILITE);
        int hooke = s->p.contact == SIM_CONTACT_HOOKE;
        int damped = hooke && s->p.restitution < 1;
        for (int k = 0; k + 1 < con_lines; k++) {
            const struct lab_contact *q = &con[k];
            char who[32];
            if (k + 2 == con_lines && ncon > (size_t)k + 1) {
                snprintf(buf, sizeof buf, "  +%zu more", ncon - (size_t)k);
                plot_text(p, indent(p, buf), row++, buf, PANEL_DIM);
                break;
            }
            if (q->partner >= LAB_WALL)
                snprintf(who, sizeof who, "%s", wall_name(q->partner - LAB_WALL));
            else
                snprintf(who, sizeof who, "ball %zu", q->partner + 1);
            if (q->stuck) { /* sticky: no spring acts */
                snprintf(buf, sizeof buf, "  %-11s s %s  stuck: no spring", who,
                         num(a, sizeof a, q->s));
                plot_text(p, indent(p, buf), row++, buf, PANEL_TEXT);
                continue;
            }
            /* Hooke: the overlap and k s; another law: the gap and its force */
            int len = snprintf(buf, sizeof buf, "  %-11s %s %s  %s %s", who,
                               hooke ? "s" : "gap", num(a, sizeof a, hooke ? q->s : -q->s),
                               hooke ? (o->ascii ? "k*s" : "k·s") : "f",
                               num(b, sizeof b, hooke ? q->fs : q->f));
            if (damped && len > 0 && (size_t)len < sizeof buf)
                snprintf(buf + len, sizeof buf - (size_t)len, "  dashpot %s",
                         num(c, sizeof c, q->fd));
            plot_text(p, indent(p, buf), row++, buf, PANEL_TEXT);
        }
    }
    return rows;
}

/* ===== The panel ===== */

static int values_want(void *self, const struct shown *sh, int *w, int *h)
{
    const struct panel_state *ps = self;
    if (!ps->values)
        return 0;
    size_t n = sh->s.n;
    /* rule, header, rows, totals, info; the selected ball's contacts */
    int rows = (int)(n < 40 ? n : 40);
    *h = 4 + rows + 1 + (ps->ov.selected != PANEL_NONE ? 4 : 0);
    struct lab_layout lay;
    lab_layout_depth(&lay, 200, sh->dp.on);
    *w = lay.total;
    return 1;
}

/* The rule, the header, one ball's row and the totals; with a ball
 * selected, its contacts too (panel_values lists them from 8 rows). */
static void values_least(void *self, int rows, int *w, int *h)
{
    const struct panel_state *ps = self;
    (void)rows;
    *w = 24;
    *h = ps->ov.selected != PANEL_NONE ? 9 : 4;
}

/* The panel's name on its rule, with the rows shown when they are not all
 * ("values 1-11/16 PgDn"), as a scrolling list's frame says where it is
 * and which keys move it (the header row has no room at 80-100 columns). */
const char *panel_values_title(char *buf, size_t size, size_t scroll, int rows, size_t n,
                               int lesson)
{
    if (rows <= 0 || (size_t)rows >= n) {
        snprintf(buf, size, "values");
        return buf;
    }
    size_t last = scroll + (size_t)rows;
    snprintf(buf, size, "values %zu-%zu/%zu %s", scroll + 1, last, n,
             lesson ? "wheel tab" : scroll == 0 ? "PgDn" : last >= n ? "PgUp" : "PgUp PgDn");
    return buf;
}

static void values_draw(void *self, const struct panel_area *a)
{
    struct panel_state *ps = self;
    struct screen_rect r = a->r;
    if (r.h < 2)
        return;
    ps->values_r = r;
    struct plot p = panel_grid(r.w, r.h - 1);
    if (!p.cell) {
        panel_rule(a->scr, r, "values", a->f->glyphs);
        return;
    }
    ps->pv.selected = ps->ov.selected;
    ps->pv.ascii = a->f->glyphs == VIEW_ASCII;
    ps->pv.hard = (a->sh->caps & SESSION_CAP_EXACT) != 0;
    /* the observed state's balls are the state's (a 3-D run is not simulated) */
    int depth = a->sh->dp.on && a->sh->obs->n == a->sh->s.n;
    ps->pv.z = depth ? a->sh->dp.z : NULL;
    ps->pv.vz = depth ? a->sh->dp.vz : NULL;
    ps->pv.atom = a->sh->dp.slice && a->sh->obs->n == a->sh->s.n ? a->sh->dp.atom : NULL;
    ps->rows = panel_values(&p, a->sh->obs, &ps->pv);
    char name[64];
    panel_rule(a->scr, r,
               panel_values_title(name, sizeof name, ps->pv.scroll, ps->rows, a->sh->obs->n,
                                  ps->pv.lesson),
               a->f->glyphs);
    panel_blit(a->scr, r.x, r.y + 1, &p, a->f->glyphs);
    free(p.cell);
}

/* i shows and hides it; Tab and Shift-Tab select a ball (ringed on the
 * table too), PgUp and PgDn page through the rows. */
static const char *values_key(void *self, int key, size_t nballs)
{
    struct panel_state *ps = self;
    static char msg[64];
    size_t *sel = &ps->ov.selected;
    switch (key) {
    case 'i':
        ps->values = !ps->values;
        return ps->values ? "values panel on" : "values panel off";
    case PANEL_KEY_NEXT:
    case PANEL_KEY_PREV:
        if (nballs == 0)
            return "no balls";
        /* the cycle: none, 1, 2, ..., n, none */
        if (key == PANEL_KEY_NEXT)
            *sel = *sel == PANEL_NONE ? 0 : *sel + 1 < nballs ? *sel + 1 : PANEL_NONE;
        else
            *sel = *sel == PANEL_NONE ? nballs - 1 : *sel > 0 ? *sel - 1 : PANEL_NONE;
        ps->pv.selected = *sel;
        ps->pv.free_scroll = 0;
        if (*sel == PANEL_NONE)
            return "no ball selected";
        snprintf(msg, sizeof msg, "ball %zu", *sel + 1);
        return msg;
    case PANEL_KEY_PGUP:
    case PANEL_KEY_PGDN: {
        size_t page = ps->rows > 1 ? (size_t)ps->rows - 1 : 1;
        if (key == PANEL_KEY_PGUP)
            ps->pv.scroll = ps->pv.scroll > page ? ps->pv.scroll - page : 0;
        else
            ps->pv.scroll += page; /* panel_values keeps it within the rows */
        /* paging lets the panel leave the selected ball's row */
        ps->pv.free_scroll = 1;
        return "";
    }
    default:
        return NULL;
    }
}

const struct panel_class panel_values_class = {
    "values", PANEL_BOX, values_want, NULL, values_draw, values_key, NULL, NULL, values_least,
};

/* The rule, the header, then ps->rows rows from pv.scroll; the ball column
 * is 4 wide, the others lay.width + 1 (lab_header). */
size_t panel_values_at(const struct panel_state *ps, int x, int y, int *col)
{
    const struct screen_rect r = ps->values_r;
    int row = y - r.y - 2;
    if (!ps->values || x < r.x || x >= r.x + r.w || row < 0 || row >= ps->rows)
        return PANEL_NONE;
    struct lab_layout lay;
    lab_layout_depth(&lay, r.w, ps->pv.z != NULL);
    int off = x - r.x, at = 0;
    for (int o = 0; o < LAB_NCOL; o++) {
        int c = lab_col_order[o];
        if (!lay.show[c])
            continue;
        at += c == LAB_COL_BALL ? 4 : lay.width + 1;
        if (off < at) {
            *col = c;
            return ps->pv.scroll + (size_t)row;
        }
    }
    return PANEL_NONE;
}
