/*
 * test_screen.c - the screen without a terminal: layout rectangles, the
 * title and status lines by priority (nothing cut), wide characters, the
 * drift format, the help's pages, a panel drawn in its rectangle, picking
 * a ball, and the text dump.
 */
#include "scene.h"
#include "screen.h"
#include "session.h"
#include "shown.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

struct rig {
    struct scene sc;
    struct session ss;
    struct shown sh;
    struct screen scr;
    struct front f;
};

/* What the screen draws of the session now (shown.h). */
static const struct shown *shw(struct rig *g)
{
    if (shown_take(&g->sh, &g->ss) == 0)
        shown_observe(&g->sh);
    return &g->sh;
}

static int rig_start(struct rig *g, const char *text, int cols, int rows)
{
    struct scene_error err;
    struct sim s;
    memset(g, 0, sizeof *g);
    if (scene_parse(&g->sc, text, strlen(text), &err))
        return -1;
    if (scene_to_sim(&g->sc, &s))
        return -1;
    int rc = session_init(&g->ss, &s);
    sim_free(&s);
    if (rc || screen_init(&g->scr, &g->sc, 2, 1))
        return -1;
    g->f.title = g->sc.title ? g->sc.title : "x";
    g->f.running = 1;
    g->f.speed = 20;
    g->f.kick_speed = 10;
    return screen_layout(&g->scr, cols, rows, shw(g), VIEW_BRAILLE);
}

static void rig_free(struct rig *g)
{
    screen_free(&g->scr);
    shown_free(&g->sh);
    session_free(&g->ss);
    scene_free(&g->sc);
}

/* Row y of the screen as UTF-8, trailing blanks dropped. */
static void row(const struct screen *scr, int y, char *buf, size_t size)
{
    size_t need = screen_dump(scr, NULL, 0, 0);
    char *all = malloc(need + 1);
    screen_dump(scr, all, need + 1, 0);
    const char *p = all;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    size_t len = p ? strcspn(p, "\n") : 0;
    if (len >= size)
        len = size - 1;
    memcpy(buf, p ? p : "", len);
    buf[len] = 0;
    free(all);
}

static void test_layout(void)
{
    struct rig g;
    CHECK(rig_start(&g, scene_builtin, 80, 24) == 0);
    const struct screen_layout *L = &g.scr.lay;
    CHECK(!L->too_small);
    CHECK(L->title.y == 0 && L->title.w == 80);
    CHECK(L->status.y == 23);
    CHECK(L->table.y == 1 && L->table.h == 22 && L->table.w == 80);
    CHECK(L->side.w == 0);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    char buf[1024];
    row(&g.scr, 0, buf, sizeof buf);
    CHECK(strstr(buf, "springball · The break") != NULL);
    CHECK(strstr(buf, "spring · running · speed 20 t/s · ? help") != NULL);
    row(&g.scr, 23, buf, sizeof buf);
    CHECK(strncmp(buf, " t 0.00  step 0  dt 0.05  k 5  E 50 (0.000%)", 44) == 0);
    row(&g.scr, 1, buf, sizeof buf);
    CHECK(strncmp(buf, "┌─", strlen("┌─")) == 0);
    /* too small */
    CHECK(screen_layout(&g.scr, 20, 6, shw(&g), VIEW_BRAILLE) == 0);
    CHECK(g.scr.lay.too_small);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    row(&g.scr, 2, buf, sizeof buf);
    CHECK(strstr(buf, "terminal too small") != NULL);
    rig_free(&g);
}

/* 40 columns: the state and E stay, nothing is cut mid-word. */
static void test_priorities(void)
{
    struct rig g;
    CHECK(rig_start(&g, scene_builtin, 40, 12) == 0);
    g.f.behind = 1;
    g.f.fps = 12;
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    char buf[512];
    row(&g.scr, 0, buf, sizeof buf);
    CHECK(strstr(buf, "running") != NULL);
    CHECK(screen_width(buf) <= 40);
    row(&g.scr, 11, buf, sizeof buf);
    CHECK(strstr(buf, "E 50") != NULL);
    CHECK(strstr(buf, "behind") != NULL);
    CHECK(screen_width(buf) <= 40);
    /* a note wraps, whole; where the row above the status line is the
     * table's frame, inside the table (issue 42.7: it took the frame) */
    snprintf(g.f.note, sizeof g.f.note, "open space: no cue ball to aim or kick, and more words here");
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    char a[512], b[512], c[512];
    row(&g.scr, 8, a, sizeof a);
    row(&g.scr, 9, b, sizeof b);
    row(&g.scr, 10, c, sizeof c);
    CHECK(strstr(a, "│ open space: no cue ball to aim │") != NULL);
    CHECK(strstr(b, "│   or kick, and more words here │") != NULL);
    CHECK(strstr(c, "└──") && strstr(c, "──┘") && !strstr(c, "words"));
    rig_free(&g);
}

static void test_text(void)
{
    CHECK(screen_width("abc") == 3);
    CHECK(screen_width("弹簧") == 4);
    CHECK(screen_width("·×") == 2);
    CHECK(screen_cp_width(0x301) == 0);
    struct rig g;
    CHECK(rig_start(&g, "title 弹簧球弹簧球弹簧球弹簧球弹簧球弹簧球\nball 10 10 0 0 1 1\n", 24, 8) == 0);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    char buf[512];
    row(&g.scr, 0, buf, sizeof buf);
    CHECK(screen_width(buf) <= 24);
    CHECK(strstr(buf, "…") != NULL);
    /* a wide character that does not fit is left out, not halved */
    CHECK(screen_text(&g.scr, 0, 3, 3, 0, 0, "弹簧") == 2);
    CHECK(screen_at(&g.scr, 1, 3)->ch == SCREEN_WIDE);
    char d[32];
    screen_drift(d, sizeof d, 50 - 1e-12, 50);
    CHECK(strcmp(d, "0.000%") == 0);
    screen_drift(d, sizeof d, 50.5, 50);
    CHECK(strcmp(d, "+1.000%") == 0);
    screen_drift(d, sizeof d, 5e12, 50);
    CHECK(strcmp(d, "+1.00e+13%") == 0);
    screen_drift(d, sizeof d, 0.0 / 0.0, 50);
    CHECK(strcmp(d, "?") == 0);
    rig_free(&g);
}

static void test_help(void)
{
    static const struct screen_help h[] = {
        {"space", "pause / resume"},
        {"a", "one two three four five six seven eight nine ten eleven twelve"},
        {"b", "alpha beta gamma delta"},
        {"c", "the last entry of the list"},
    };
    struct rig g;
    CHECK(rig_start(&g, scene_builtin, 30, 8) == 0);
    g.f.help = 1;
    screen_draw(&g.scr, shw(&g), &g.f, h, 4);
    CHECK(g.scr.help_pages > 1);
    /* every word of every entry on some page, whole */
    char all[8192] = "";
    for (int p = 1; p <= g.scr.help_pages; p++) {
        g.f.help = p;
        screen_draw(&g.scr, shw(&g), &g.f, h, 4);
        size_t len = strlen(all);
        screen_dump(&g.scr, all + len, sizeof all - len, 0);
    }
    CHECK(strstr(all, "twelve") != NULL);
    CHECK(strstr(all, "delta") != NULL);
    CHECK(strstr(all, "the last entry") != NULL);
    CHECK(strstr(all, "twel\n") == NULL);
    rig_free(&g);
}

static int drawn;
static int panel_want(void *self, const struct shown *sh, int *w, int *h)
{
    (void)sh;
    *w = 20;
    *h = 4;
    return *(const int *)self;
}

static void panel_draw(void *self, const struct panel_area *a)
{
    (void)self;
    drawn++;
    screen_box(a->scr, a->r, "E", VIEW_BRAILLE);
    screen_textf(a->scr, a->r.x + 1, a->r.y + 1, a->r.w - 2, 0, 0, "%.1f",
                 a->sh->d.e);
}

static void test_panel(void)
{
    static const struct panel_class p = {"energy", PANEL_BOX, panel_want, NULL, panel_draw,
                                         NULL, NULL, NULL, NULL};
    static int shown = 1;
    struct rig g;
    CHECK(rig_start(&g, scene_builtin, 100, 30) == 0);
    CHECK(screen_add_panel(&g.scr, &p, &shown) == 0);
    /* beside or below, whichever leaves the table (800 x 400) larger: at
     * 100 x 26 beside (78 columns for 800: 0.0975 a unit, against 18 rows
     * for 400 under a band of 4: 0.09), at 100 x 30 below (22 rows: 0.11) */
    CHECK(screen_layout(&g.scr, 100, 26, shw(&g), VIEW_BRAILLE) == 0);
    CHECK(g.scr.lay.side.w == 20 && g.scr.lay.side.x == 80);
    CHECK(g.scr.lay.table.w == 80);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    CHECK(drawn == 1);
    char buf[512];
    row(&g.scr, 2, buf, sizeof buf);
    CHECK(strstr(buf, "50.0") != NULL);
    CHECK(screen_layout(&g.scr, 100, 30, shw(&g), VIEW_BRAILLE) == 0);
    CHECK(g.scr.lay.side.w == 0 && g.scr.lay.bottom.h == 4 && g.scr.lay.table.w == 100);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    CHECK(drawn == 2);
    row(&g.scr, g.scr.lay.bottom.y + 1, buf, sizeof buf);
    CHECK(strstr(buf, "50.0") != NULL);
    /* too narrow for both: the table first */
    CHECK(screen_layout(&g.scr, 70, 30, shw(&g), VIEW_BRAILLE) == 0);
    CHECK(g.scr.lay.side.w == 0);
    /* hidden: the table takes the screen, nothing is drawn */
    shown = 0;
    CHECK(screen_layout(&g.scr, 100, 30, shw(&g), VIEW_BRAILLE) == 0);
    CHECK(g.scr.lay.side.w == 0 && g.scr.lay.bottom.h == 0 && g.scr.lay.table.w == 100);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    CHECK(drawn == 2);
    rig_free(&g);
}

static void test_pick(void)
{
    struct rig g;
    CHECK(rig_start(&g, scene_builtin, 80, 24) == 0);
    screen_draw(&g.scr, shw(&g), &g.f, NULL, 0);
    /* the cell under the cue ball's centre */
    double c, r;
    view_to_grid(&g.scr.v.map, 160, 200, &c, &r);
    int x = g.scr.lay.table.x + (int)c, y = g.scr.lay.table.y + (int)r;
    CHECK(screen_ball_at(&g.scr, shw(&g), x, y) == 0);
    CHECK(screen_ball_at(&g.scr, shw(&g), 3, 3) == (size_t)-1);
    double wx, wy;
    screen_to_world(&g.scr, x, y, &wx, &wy);
    CHECK(fabs(wx - 160) < 10 && fabs(wy - 200) < 20);
    rig_free(&g);
}

void test_screen(void)
{
    test_layout();
    test_priorities();
    test_text();
    test_help();
    test_panel();
    test_pick();
}
