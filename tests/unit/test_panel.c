/*
 * test_panel.c - the lab's panels drawn from a state: the values panel's
 * rows are the values of the state, the totals row their sum, the
 * selected ball's row is marked and scrolled into view, its contacts are
 * listed with lab_contacts' numbers; the plots over time and the speeds
 * panel; the overlay's arrows start past the ball's rim with the length
 * their scale gives (a stub with the value when shorter than the radius),
 * keep the scale while stepping, v and p told apart by their heads and
 * shafts and drawn side by side, and carry a legend;
 * numbers, the centre of mass, the ASCII fallback.
 */
#include "panel.h"
#include "shown.h"
#include "session.h"
#include "scene.h"
#include "test.h"
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PW = 100, PH = 40 };
static struct plot_cell cells[PW * PH];

static struct plot grid(int w, int h)
{
    struct plot p = {w, h, cells};
    plot_clear(&p);
    return p;
}

/* Row @p row as UTF-8 (blanks as spaces, trailing blanks cut). */
static const char *row_text(const struct plot *p, int row)
{
    static char buf[4 * PW + 1];
    size_t n = 0;
    for (int c = 0; c < p->w; c++) {
        uint32_t ch = p->cell[row * p->w + c].ch;
        if (ch == 0)
            ch = ' ';
        if (ch < 0x80) {
            buf[n++] = (char)ch;
        } else if (ch < 0x800) {
            buf[n++] = (char)(0xc0 | ch >> 6);
            buf[n++] = (char)(0x80 | (ch & 63));
        } else {
            buf[n++] = (char)(0xe0 | ch >> 12);
            buf[n++] = (char)(0x80 | ((ch >> 6) & 63));
            buf[n++] = (char)(0x80 | (ch & 63));
        }
    }
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    buf[n] = 0;
    return buf;
}

static int dot_at(const struct plot *p, int dx, int dy)
{
    static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
                                      {0x08, 0x10, 0x20, 0x80}};
    if (dx < 0 || dy < 0 || dx >= 2 * p->w || dy >= 4 * p->h)
        return 0;
    uint32_t ch = p->cell[(dy / 4) * p->w + dx / 2].ch;
    if (ch < PLOT_BRAILLE || ch > PLOT_BRAILLE + 0xff)
        return 0;
    return ((ch - PLOT_BRAILLE) & bit[dx % 2][dy % 4]) != 0;
}

static const char *headon =
    "table 800 400\nk 5\ndt 0.05\n"
    "ball 250 200 10 0 1 20 red\nball 550 200 -10 0 2 20 blue\n";

static void test_values(void)
{
    struct sim s;
    CHECK(test_load(&s, headon) == 0);
    struct plot p = grid(80, 12);
    struct panel_values o = {PANEL_NONE, 0, 0, 0, 0};
    CHECK(panel_values(&p, &s, &o) == 2);
    struct lab_layout lay;
    lab_layout(&lay, 80);
    char buf[256];
    CHECK(strcmp(row_text(&p, 0), lab_header(buf, sizeof buf, &lay)) == 0);
    /* a row per ball: the values of the state */
    for (size_t b = 0; b < 2; b++) {
        struct lab_row r;
        lab_row(&s, b, &r);
        CHECK(strcmp(row_text(&p, 1 + (int)b), lab_row_line(buf, sizeof buf, &lay, &r)) == 0);
    }
    CHECK(strstr(row_text(&p, 1), "   1   1.0000   250.00   200.00   10.000        0   10.000") ==
          row_text(&p, 1));
    /* totals: sum px = 10 - 20, sum KE = 50 + 100 */
    CHECK(strncmp(row_text(&p, 3), "   Σ ", 6) == 0);
    CHECK(strstr(row_text(&p, 3), "-10.000") && strstr(row_text(&p, 3), "150.00"));
    CHECK(strcmp(row_text(&p, 4), "   PE 0  E 150  M 3  CM (450, 200)") == 0);
    CHECK(p.cell[1 * 80 + 5].color == PANEL_TEXT && p.cell[0].color != PANEL_HILITE);

    /* in contact, ball 2 selected: its row marked, its contact listed */
    for (int i = 0; i < 266; i++)
        sim_step(&s);
    o.selected = 1;
    panel_values(&p, &s, &o);
    CHECK(row_text(&p, 2)[0] == '>' && p.cell[2 * 80 + 5].color == PANEL_HILITE);
    struct lab_contact c[2];
    CHECK(lab_contacts(&s, 1, c, 2) == 1);
    CHECK(strcmp(row_text(&p, 5), "   ball 2 touches:") == 0);
    char want[128], a[32], b[32];
    snprintf(a, sizeof a, "%.5g", c[0].s);
    snprintf(b, sizeof b, "%.5g", c[0].fs);
    snprintf(want, sizeof want, "     ball 1      s %s  k·s %s", a, b);
    CHECK(strcmp(row_text(&p, 6), want) == 0);
    CHECK(c[0].s > 0);
    /* ASCII: "k*s", "sum" */
    o.ascii = 1;
    panel_values(&p, &s, &o);
    CHECK(strstr(row_text(&p, 6), "k*s") != NULL);
    CHECK(strncmp(row_text(&p, 3), " sum", 4) == 0);
    sim_free(&s);

    /* with restitution the dashpot force is listed too */
    CHECK(test_load(&s, "table 800 400\nrestitution 0.5\n"
                   "ball 390 200 1 0 1 12\nball 410 200 -1 0 2 12\n") == 0);
    o.selected = 0;
    o.ascii = 0;
    panel_values(&p, &s, &o);
    CHECK(lab_contacts(&s, 0, c, 2) == 1);
    snprintf(a, sizeof a, "dashpot %.5g", c[0].fd);
    CHECK(strstr(row_text(&p, 6), a) != NULL);
    CHECK(strstr(row_text(&p, 4), "lost") == NULL);
    sim_free(&s);

    /* the exponential law acts across a gap: "gap" and its force */
    CHECK(test_load(&s, "table 800 400\ndt 0.01\ncontact exp 5 200\n"
                   "ball 390 200 1 0 1 12\nball 416 200 -1 0 1 12\n") == 0);
    panel_values(&p, &s, &o);
    /* the law reaches the bottom and top walls 188 away (its range is 40
     * eps = 200): listed, but not touching, and not in the panel */
    struct lab_contact cc[8];
    CHECK(lab_contacts(&s, 0, cc, 8) == 3);
    CHECK(cc[0].partner == LAB_WALL + LAB_WALL_BOTTOM && !cc[0].touching);
    CHECK(cc[2].partner == 1 && cc[2].touching);
    snprintf(want, sizeof want, "     ball 2      gap %.5g  f %.5g", -cc[2].s, cc[2].f);
    CHECK(strcmp(row_text(&p, 6), want) == 0);
    CHECK_NEAR(-cc[2].s, 2, 1e-5);
    CHECK(strcmp(row_text(&p, 7), "") == 0);
    sim_free(&s);
}

static void test_values_scroll(void)
{
    struct sim s;
    CHECK(test_load(&s, scene_builtin) == 0); /* 16 balls */
    struct plot p = grid(80, 8);
    /* 8 rows: header, totals, info, and with a selection the contacts line:
     * 4 ball rows */
    struct panel_values o = {15, 0, 0, 0, 0};
    CHECK(panel_values(&p, &s, &o) == 4);
    CHECK(o.scroll == 12);
    CHECK(strncmp(row_text(&p, 4), "> 16", 4) == 0);
    CHECK(strncmp(row_text(&p, 1), "  13", 4) == 0);
    /* which rows show: on the panel's rule (the header has no room) */
    char name[64];
    CHECK(strcmp(panel_values_title(name, sizeof name, o.scroll, 4, 16, 0),
                 "values 13-16/16 PgUp") == 0);
    CHECK(strcmp(panel_values_title(name, sizeof name, 0, 11, 16, 0), "values 1-11/16 PgDn") == 0);
    CHECK(strcmp(panel_values_title(name, sizeof name, 2, 11, 16, 0),
                 "values 3-13/16 PgUp PgDn") == 0);
    CHECK(strcmp(panel_values_title(name, sizeof name, 0, 16, 16, 0), "values") == 0);
    /* in a lesson PgDn turns the page: the rule names what scrolls there */
    CHECK(strcmp(panel_values_title(name, sizeof name, 2, 11, 16, 1),
                 "values 3-13/16 wheel tab") == 0);
    CHECK(strcmp(row_text(&p, 7), "   ball 16: no contact") == 0);
    /* back up to the first ball */
    o.selected = 0;
    panel_values(&p, &s, &o);
    CHECK(o.scroll == 0 && strncmp(row_text(&p, 1), ">  1", 4) == 0);
    /* no selection: the caller's scroll, kept within the rows */
    o.selected = PANEL_NONE;
    o.scroll = 100;
    CHECK(panel_values(&p, &s, &o) == 5);
    CHECK(o.scroll == 11);
    /* 40 columns: the narrow layout */
    p = grid(40, 8);
    panel_values(&p, &s, &o);
    CHECK(strcmp(row_text(&p, 0), "   #        m       vx       vy       KE") == 0);
    /* too small: a message */
    p = grid(6, 1);
    CHECK(panel_values(&p, &s, &o) == 0);
    sim_free(&s);
}

/* The envelope drawn: the legend, the head-on contact stepped over in one
 * advance (its dip and hump in the middle rows), and the momentum plot's
 * flat line (sum px = 0 throughout). */
static void test_time_plots(void)
{
    struct session ss;
    CHECK(test_start(&ss, headon) == 0);
    struct plot p = grid(60, 12);
    CHECK(panel_envelope(&p, NULL, 0, 0, 0) == -1);
    CHECK(strcmp(row_text(&p, 0), "no data yet") == 0);
    session_sampling(&ss, 1);
    CHECK(session_advance(&ss, 20, NULL, NULL) == 1);
    size_t n = session_columns(&ss);
    CHECK(panel_envelope(&p, session_column(&ss, 0), n, 0, 0) == 0);
    CHECK(strcmp(row_text(&p, 0), "━ KE  ━ PE  ━ E") == 0);
    CHECK(p.cell[0].color == PANEL_KE && p.cell[6].color == PANEL_PE);
    /* the rows between the top and bottom of the range hold the contact */
    int mid = 0;
    for (int j = 3; j < 9; j++)
        for (int i = 8; i < 60; i++)
            mid += p.cell[j * 60 + i].ch > PLOT_BRAILLE;
    CHECK(mid >= 6);
    CHECK(panel_envelope(&p, session_column(&ss, 0), n, 1, 1) == 0);
    CHECK(strcmp(row_text(&p, 0), "━ sum px  ━ sum py") == 0);
    int px_cells = 0;
    for (int i = 0; i < 60 * 12; i++)
        px_cells += p.cell[i].color == PANEL_PX && p.cell[i].ch >= PLOT_BRAILLE;
    CHECK(px_cells >= 52 && px_cells <= 53);
    session_free(&ss);
}

static void test_speeds(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nrandom 300 6 1 8 1\n") == 0);
    for (int i = 0; i < 100; i++)
        sim_step(&s);
    struct plot p = grid(80, 16);
    CHECK(panel_speeds(&p, &s, 0) == 0);
    CHECK(strstr(row_text(&p, 0), "balls") && strstr(row_text(&p, 0), "Maxwell-Boltzmann"));
    int bars = 0, curve = 0;
    for (int i = 0; i < 80 * 16; i++) {
        bars += p.cell[i].color == PANEL_BAR;
        curve += p.cell[i].color == PANEL_CURVE;
    }
    CHECK(bars > 20 && curve > 20);
    sim_free(&s);
    CHECK(test_load(&s, "table 800 400\nball 100 100 0 0 1 5\n") == 0);
    CHECK(panel_speeds(&p, &s, 0) == -1);
    CHECK(strcmp(row_text(&p, 0), "speeds: all at rest") == 0);
    sim_free(&s);
}

static void test_overlay(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nball 400 200 10 0 1 20\nball 100 100 0 0 1 20\n") == 0);
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 80, 24, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    struct plot p = grid(80, 24);
    struct panel_overlay o = {0};
    o.arrows = PANEL_ARROW_V;
    o.aspect = 2;
    o.selected = PANEL_NONE;
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    /* the table is 78 x 22 cells inside: the largest arrow at most
     * min(78, 44) / 4 = 11 cells, 10 per 11 cells -> 1 per cell */
    CHECK(o.scale[0].per_cell == 1);
    double c, r;
    view_to_grid(&v.map, 400, 200, &c, &r);
    /* the ball is R = 20 * 78 / 800 = 1.95 cells wide a side: the arrow
     * starts half a cell past its rim and is 10 cells long, its head '→'
     * in the tip's cell; no dot inside the ball */
    double R = 20 * v.map.sx, from = c + R + 0.5;
    int y = (int)floor(4 * r), xs = (int)ceil(2 * from), hc = (int)floor(from + 10);
    int ok = 1;
    for (int x = xs; x < 2 * hc; x++)
        ok &= dot_at(&p, x, y);
    CHECK(ok);
    for (int x = (int)floor(2 * (c - R)); x <= (int)floor(2 * (c + R)); x++)
        CHECK(!dot_at(&p, x, y));
    CHECK(p.cell[(int)r * 80 + hc].ch == 0x2192 && p.cell[(int)r * 80 + hc].color == PANEL_V);
    CHECK(p.cell[(int)r * 80 + hc + 1].ch == 0);
    /* the ball at rest has no arrow */
    view_to_grid(&v.map, 100, 100, &c, &r);
    CHECK(p.cell[(int)r * 80 + (int)c].ch == 0);
    /* the legend on the frame's bottom line: the head, the name, the scale */
    CHECK(strcmp(row_text(&p, v.map.top + v.map.h), "   \u2192 v 1/cell") == 0);
    /* the scale is kept while the speed falls: half the length */
    s.vx[sim_slot(&s, 0)] = 5;
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    view_to_grid(&v.map, 400, 200, &c, &r);
    CHECK(o.scale[0].per_cell == 1);
    CHECK(p.cell[(int)r * 80 + (int)floor(from + 5)].ch == 0x2192);
    /* and changed when it no longer fits: 30 at 5 a cell, 6 cells */
    s.vx[sim_slot(&s, 0)] = 30;
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    CHECK(o.scale[0].per_cell == 5);
    CHECK(p.cell[(int)r * 80 + (int)floor(from + 6)].ch == 0x2192);
    /* shorter than its radius: a stub of two cells and the value */
    s.vx[sim_slot(&s, 0)] = 10;
    s.vy[sim_slot(&s, 1)] = -0.5;
    lab_scale_reset(&o.scale[0]);
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    CHECK(o.scale[0].per_cell == 1);
    s.vx[sim_slot(&s, 0)] = 5;
    view_to_grid(&v.map, 100, 100, &c, &r);
    int hr = (int)floor(r + (R + 0.5 + 2) / 2);
    CHECK(p.cell[hr * 80 + (int)floor(c)].ch == 0x2193);
    CHECK(strstr(row_text(&p, hr), "\u2193" "0.5") != NULL);
    s.vy[sim_slot(&s, 1)] = 0;

    /* force arrows need the forces; momentum arrows m v: dashed, their
     * head a hollow triangle */
    o.arrows = PANEL_ARROW_F | PANEL_ARROW_P;
    lab_scale_reset(&o.scale[1]); /* as the key does */
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    CHECK(o.scale[2].per_cell == 0 && o.scale[1].per_cell > 0);
    /* p = 5 fits 11 cells at 0.5 a cell: 10 cells */
    CHECK(strcmp(row_text(&p, v.map.top + v.map.h), "   \u25b7 p 0.5/cell") == 0);
    view_to_grid(&v.map, 400, 200, &c, &r);
    y = (int)floor(4 * r);
    CHECK(p.cell[(int)r * 80 + hc].ch == 0x25b7);
    int on = 0, off = 0;
    for (int x = xs; x < 2 * hc; x++)
        dot_at(&p, x, y) ? on++ : off++;
    CHECK(on >= 7 && off >= 7);
    /* v and p together, equal (m = 1): side by side, both heads seen */
    o.arrows = PANEL_ARROW_V | PANEL_ARROW_P;
    lab_scale_reset(&o.scale[0]);
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    int heads = 0, tris = 0;
    for (int i = 0; i < 80 * 24; i++) {
        heads += p.cell[i].ch == 0x2192 && p.cell[i].color == PANEL_V;
        tris += p.cell[i].ch == 0x25b7 && p.cell[i].color == PANEL_P;
    }
    CHECK(heads == 2 && tris == 2); /* one on the table, one in the legend */
    CHECK(strcmp(row_text(&p, v.map.top + v.map.h), "   \u2192 v 0.5/cell  \u25b7 p 0.5/cell") == 0);
    o.ascii = 1;
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    CHECK(strcmp(row_text(&p, v.map.top + v.map.h), "   > v 0.5/cell  * p 0.5/cell") == 0);
    o.ascii = 0;

    /* numbers, the ring, the centre of mass at (250, 150) */
    o.arrows = 0;
    o.numbers = 1;
    o.cm = 1;
    o.selected = 1;
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    view_to_grid(&v.map, 250, 150, &c, &r);
    CHECK(p.cell[(int)r * 80 + (int)c].ch == 0x2295 && p.cell[(int)r * 80 + (int)c].color == PANEL_CM);
    view_to_grid(&v.map, 400, 200, &c, &r);
    /* a ball 20 wide is 3.9 cells: its number on it */
    CHECK(p.cell[(int)r * 80 + (int)floor(c - 0.5 + 0.5)].ch == '1');
    int ring = 0;
    for (int i = 0; i < 80 * 24; i++)
        ring += p.cell[i].color == PANEL_SELECT;
    CHECK(ring >= 6);
    o.ascii = 1;
    p = grid(80, 24);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    view_to_grid(&v.map, 250, 150, &c, &r);
    CHECK(p.cell[(int)r * 80 + (int)c].ch == '+');
    view_free(&v);
    sim_free(&s);
}

/* A ball edited far off and huge (:x -1e308, :r 1e9), selected with
 * numbers, arrows and the centre of mass: nothing converted out of an
 * int's range (make check found panel.c's ring doing it), and no ring of
 * 10^10 steps. */
static void test_overlay_far(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 800 400\nball 400 200 10 0 1 20\nball 100 100 0 0 1 20\n") == 0);
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 80, 24, 0, 0, 800, 400, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    struct plot p = grid(80, 24);
    struct panel_overlay o = {0};
    o.arrows = PANEL_ARROW_V | PANEL_ARROW_P;
    o.aspect = 2;
    o.numbers = 1;
    o.cm = 1;
    o.selected = 0;
    size_t k = sim_slot(&s, 0);
    double far[][2] = {{-1e308, 1e9}, {3.2e9, 20}, {400, 1e9}, {-1.5e307, 1e300}};
    for (size_t i = 0; i < sizeof far / sizeof *far; i++) {
        s.x[k] = far[i][0];
        s.r[k] = far[i][1];
        p = grid(80, 24);
        panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
        int ring = 0; /* off the table or wider than the screen: no ring */
        for (int c = 0; c < 80 * 24; c++)
            ring += p.cell[c].color == PANEL_SELECT;
        CHECK(ring == 0);
    }
    view_free(&v);
    sim_free(&s);
}

/* Past PANEL_MANY balls only the selected ball gets arrows and a number. */
static void test_overlay_many(void)
{
    struct sim s;
    CHECK(test_load(&s, "table 4000 2000\nrandom 1200 5 1 3 9\n") == 0);
    struct view v;
    view_init(&v);
    CHECK(view_layout(&v, 100, 32, 0, 0, 4000, 2000, 2, VIEW_RIM_BOX, VIEW_BRAILLE) == 0);
    struct plot p = grid(100, 32);
    struct panel_overlay o = {0};
    o.arrows = PANEL_ARROW_V;
    o.numbers = 1;
    o.aspect = 2;
    o.selected = PANEL_NONE;
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    int drawn = 0;
    for (int i = 0; i < 100 * 32; i++)
        drawn += p.cell[i].ch >= PLOT_BRAILLE && p.cell[i].ch <= PLOT_BRAILLE + 0xff;
    CHECK(drawn == 0);
    CHECK(strstr(row_text(&p, v.map.top + v.map.h), "select a ball (Tab)") != NULL);
    o.selected = 7;
    p = grid(100, 32);
    panel_overlay(&p, &v.map, &s, &o, NULL, NULL);
    drawn = 0;
    for (int i = 0; i < 100 * 32; i++)
        drawn += p.cell[i].color == PANEL_V && p.cell[i].ch >= PLOT_BRAILLE;
    CHECK(drawn >= 1 && drawn <= 26);
    CHECK(strstr(row_text(&p, v.map.top + v.map.h), "ball 8 only") != NULL);
    view_free(&v);
    sim_free(&s);
}

static void test_merge_ascii(void)
{
    CHECK(panel_merge(0x2801, 0x2880) == 0x2881);
    CHECK(panel_merge('o', 0x2880) == 0x2880);
    CHECK(panel_merge(0x2801, 0) == 0x2801);
    CHECK(panel_merge(0x2801, '7') == '7');

    /* the ASCII fallback */
    struct plot_cell pc[6] = {{0x28ff, 1}, {0x2809, 1}, {0x28c0, 1}, {0x2502, 1},
                              {0x2295, 1}, {'a', 1}};
    struct plot q = {6, 1, pc};
    plot_ascii(&q);
    CHECK(pc[0].ch == '#' && pc[1].ch == '\'' && pc[2].ch == '.' && pc[3].ch == '|' &&
          pc[4].ch == '*' && pc[5].ch == 'a');
}

static void test_keys(void)
{
    struct panel_state ps;
    panel_state_init(&ps);
    CHECK(ps.ov.selected == PANEL_NONE && ps.ov.arrows == 0 && ps.plot == PANEL_PLOT_OFF);
    ps.ov.scale[0].per_cell = 7;
    CHECK(strcmp(panel_key(&ps, 'v', 3), "velocity arrows on") == 0);
    CHECK(ps.ov.arrows == PANEL_ARROW_V && ps.ov.scale[0].per_cell == 0);
    CHECK(strcmp(panel_key(&ps, 'p', 3), "momentum arrows on") == 0);
    CHECK(strcmp(panel_key(&ps, 'f', 3), "force arrows on") == 0);
    CHECK(ps.ov.arrows == 7);
    CHECK(strcmp(panel_key(&ps, 'v', 3), "velocity arrows off") == 0);
    CHECK(ps.ov.arrows == 6);
    CHECK(strcmp(panel_key(&ps, 'c', 3), "centre of mass on") == 0 && ps.ov.cm);
    CHECK(strcmp(panel_key(&ps, 'n', 3), "ball numbers on") == 0 && ps.ov.numbers);
    CHECK(strcmp(panel_key(&ps, 'i', 3), "values panel on") == 0 && ps.values);
    CHECK(strcmp(panel_key(&ps, 's', 3), "split: spring and event engines") == 0 && ps.split);
    /* P cycles off -> energy -> momentum -> speeds -> momentum diagram -> off */
    CHECK(strcmp(panel_key(&ps, 'P', 3), "plot: energy") == 0);
    CHECK(strcmp(panel_key(&ps, 'P', 3), "plot: momentum") == 0);
    CHECK(strcmp(panel_key(&ps, 'P', 3), "plot: speeds") == 0);
    CHECK(strcmp(panel_key(&ps, 'P', 3), "plot: momentum diagram") == 0);
    CHECK(ps.plot == PANEL_PLOT_PDIAG);
    CHECK(strcmp(panel_key(&ps, 'P', 3), "plot off") == 0 && ps.plot == PANEL_PLOT_OFF);
    /* Tab: none -> 1 -> 2 -> 3 -> none; Shift-Tab back */
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_NEXT, 3), "ball 1") == 0 && ps.ov.selected == 0);
    panel_key(&ps, PANEL_KEY_NEXT, 3);
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_NEXT, 3), "ball 3") == 0 && ps.pv.selected == 2);
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_NEXT, 3), "no ball selected") == 0);
    CHECK(ps.ov.selected == PANEL_NONE);
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_PREV, 3), "ball 3") == 0);
    panel_key(&ps, PANEL_KEY_PREV, 3);
    panel_key(&ps, PANEL_KEY_PREV, 3);
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_PREV, 3), "no ball selected") == 0);
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_NEXT, 0), "no balls") == 0);
    /* a selection past the balls (a smaller scene) is dropped */
    ps.ov.selected = 10;
    CHECK(strcmp(panel_key(&ps, PANEL_KEY_NEXT, 3), "ball 1") == 0);
    /* pages */
    ps.rows = 5;
    ps.pv.scroll = 0;
    CHECK(panel_key(&ps, PANEL_KEY_PGDN, 30) != NULL);
    CHECK(ps.pv.scroll == 4 && ps.pv.free_scroll);
    panel_key(&ps, PANEL_KEY_PGUP, 30);
    panel_key(&ps, PANEL_KEY_PGUP, 30);
    CHECK(ps.pv.scroll == 0);
    /* the simulation's keys are not the panels' */
    CHECK(panel_key(&ps, 'e', 3) == NULL && panel_key(&ps, ']', 3) == NULL);
    CHECK(panel_key(&ps, 'b', 3) == NULL && panel_key(&ps, 'x', 3) == NULL);
}

/* The momentum diagram: "before" is the last move before the momenta
 * began to change, kept by the session from every move (drawn or not: a
 * burst of '.' between two frames left "no contact yet"); drawn tip to
 * tail in each ball's colour with the sum beside, on one scale; a step
 * back keeps "before" while it is not later, reset forgets. */
static void test_pdiag(void)
{
    struct session ss;
    CHECK(test_start(&ss, headon) == 0);
    const struct session_pmem *pm = &ss.pm;
    session_momenta(&ss, 1);
    CHECK(pm->have_last && !pm->have_before && pm->n == 2 && pm->quiet);
    for (int i = 0; i < 200; i++) /* t 10: quiet moves */
        session_forward(&ss);
    CHECK(pm->quiet && !pm->have_before && pm->t_last == ss.s.t);
    /* into the contact in one advance, no frame between: the gap of 260
     * closes at 20 a unit of time, the last quiet step is t = 13 */
    CHECK(session_advance(&ss, 14, NULL, NULL) == 1);
    CHECK(pm->have_before && pm->t_before == 13 && pm->bx[0] == 10 && pm->bx[1] == -20);
    CHECK(!pm->quiet && pm->lx[0] != 10);
    /* back within the contact: "before" holds, and the next step, still in
     * it, is no new contact */
    for (int i = 0; i < 5; i++)
        session_back(&ss);
    CHECK(pm->have_before && pm->t_before == 13 && !pm->quiet);
    session_forward(&ss);
    CHECK(pm->have_before && pm->t_before == 13 && pm->bx[1] == -20);
    /* back before it: forgotten; forward again: found again */
    while (ss.s.t > 12.5 && session_back(&ss) == 0)
        ;
    CHECK(!pm->have_before && pm->quiet);
    CHECK(session_advance(&ss, 14, NULL, NULL) == 1);
    CHECK(pm->have_before && pm->t_before == 13);
    /* off forgets; reset forgets */
    session_momenta(&ss, 0);
    CHECK(!pm->have_last && !pm->have_before);
    session_momenta(&ss, 1);
    /* on again in the contact (t 14): from a first move, the next change
     * makes it "before" (as when the diagram is turned on, then ']') */
    CHECK(session_advance(&ss, 16, NULL, NULL) == 1 && pm->have_before && pm->t_before == 14);
    CHECK(session_reset(&ss) == 0 && !pm->have_before && pm->have_last && pm->t_last == 0);
    /* the event engine: each collision an instant, "before" at its time,
     * from within one advance */
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_advance(&ss, 14, NULL, NULL) == 1);
    CHECK(pm->have_before && fabs(pm->t_before - 13) < 1e-9 && pm->bx[0] == 10 &&
          pm->bx[1] == -20);
    /* the shown copy carries it */
    struct shown sh;
    memset(&sh, 0, sizeof sh);
    CHECK(shown_take(&sh, &ss) == 0 && sh.pm.have_before && sh.pm.t_before == pm->t_before);
    shown_free(&sh);
    /* more balls than it keeps: nothing */
    struct session big;
    CHECK(test_start(&big, "table 800 400\nrandom 65 1 10 1 7\n") == 0);
    session_momenta(&big, 1);
    CHECK(!big.pm.have_last);
    session_free(&big);
    session_free(&ss);
    /* drawn: both halves, the sums, the colours; "before" at t 1 */
    static const double bx[2] = {10, -20}, by[2] = {0, 0};
    struct plot p = grid(80, 12);
    double nx[2] = {-10, 10}, ny[2] = {0, 0};
    uint32_t color[2] = {PANEL_KE, PANEL_PE};
    CHECK(panel_pdiag(&p, 2, bx, by, 1, nx, ny, 3, color, 2, 0) == 0);
    /* each sum after its caption on the top row (ball 2 is 2 kg: before,
     * 10 - 20), the caption shortened to fit; the bottom row is left to
     * the note (P's note covered the right half's sum at 64 columns) */
    CHECK(strcmp(row_text(&p, 0), "before the contact (t 1)  \u03a3p (-10, 0)   "
                                  "now (t 3)  \u03a3p (0, 0)") == 0);
    CHECK(strcmp(row_text(&p, 11), "") == 0);
    int left[2] = {0, 0}, right[2] = {0, 0}, sum = 0;
    for (int j = 1; j < 11; j++)
        for (int i = 0; i < 80; i++) {
            const struct plot_cell *c = &p.cell[j * 80 + i];
            if (c->ch < PLOT_BRAILLE || c->ch > PLOT_BRAILLE + 0xff)
                continue;
            for (int k = 0; k < 2; k++)
                (i < 39 ? left : right)[k] += c->color == color[k];
            sum += c->color == PANEL_E;
        }
    CHECK(left[0] > 10 && left[1] > 10 && right[0] > 10 && right[1] > 10);
    CHECK(sum >= 2); /* the sums: -10 before, 0 (a dot) now */
    /* along x, each arrow on rows of its own: ball 1's before on a row
     * above ball 2's */
    int row1 = -1, row2 = -1;
    for (int j = 1; j < 11; j++)
        for (int i = 0; i < 39; i++) {
            uint32_t c = p.cell[j * 80 + i].color;
            if (c == PANEL_KE && row1 < 0)
                row1 = j;
            if (c == PANEL_PE && row2 < 0)
                row2 = j;
        }
    CHECK(row1 >= 1 && row2 > row1);
    struct plot wide = grid(100, 12); /* room for the whole caption */
    CHECK(panel_pdiag(&wide, 2, bx, by, 1, nx, ny, 3, color, 2, 0) == 0);
    CHECK(strstr(row_text(&wide, 0), "before the last contact (t 1)  \u03a3p (-10, 0)") != NULL);
    struct plot narrow = grid(64, 12); /* "before" alone */
    CHECK(panel_pdiag(&narrow, 2, bx, by, 1, nx, ny, 3, color, 2, 0) == 0);
    CHECK(strstr(row_text(&narrow, 0), "before (t 1)  \u03a3p (-10, 0)") != NULL);
    CHECK(strstr(row_text(&narrow, 0), "now (t 3)  \u03a3p (0, 0)") != NULL);
    /* no room on the top row: the sums on the bottom row, as before */
    double fx[2] = {-12345.6, 0}, fy[2] = {0.000123, 0};
    CHECK(panel_pdiag(&narrow, 2, bx, by, 123.456, fx, fy, 3, color, 2, 0) == 0);
    CHECK(strncmp(row_text(&narrow, 0), "before the contact (t 123.5) ", 29) == 0);
    CHECK(strstr(row_text(&narrow, 0), "\u03a3p") == NULL);
    CHECK(strncmp(row_text(&narrow, 11), "\u03a3p (-10, 0) ", 13) == 0);
    CHECK(strstr(row_text(&narrow, 11), "\u03a3p (-1.235e+04, 0.000123)") != NULL);
    /* 2-D: (3, 4) and (0, -4) tip to tail, their sum (3, 0) beside */
    double qx[2] = {3, 0}, qy[2] = {4, -4};
    CHECK(panel_pdiag(&p, 2, NULL, NULL, 0, qx, qy, 3, color, 2, 1) == 0);
    CHECK(strstr(row_text(&p, 0), "before: no contact yet") != NULL);
    CHECK(strstr(row_text(&p, 0), "now (t 3)  sum p (3, 0)") != NULL);
    /* too many balls, none */
    CHECK(panel_pdiag(&p, 0, NULL, NULL, 0, qx, qy, 3, color, 2, 0) == -1);
}

void test_labpanel(void)
{
    test_pdiag();
    test_keys();
    test_values();
    test_values_scroll();
    test_time_plots();
    test_speeds();
    test_overlay();
    test_overlay_many();
    test_overlay_far();
    test_merge_ascii();
}
