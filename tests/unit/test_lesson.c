/*
 * test_lesson.c - the lesson format: steps, text, keys and questions; the
 * scene from the lesson's own lines or from a scene file under its lines;
 * detection through the formats table; the malformed lessons and their
 * lines; the quantities a question measures, against values worked out by
 * hand.
 */
#include "formats.h"
#include "lesson.h"
#include "lesson_panel.h"
#include "screen.h"
#include "session.h"
#include "shown.h"
#include "scene.h"
#include "sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct lesson *ls, const char *text, struct scene_error *err)
{
    return lesson_parse(ls, text, strlen(text), err);
}

static void good_lesson(void)
{
    const char *text =
        "# a comment before the lesson line\n"
        "lesson  Momentum in one dimension  \n"
        "table 800 400\n"
        "dt 0.01\n"
        "ball 200 200 10 0 1 20 yellow\n"
        "\n"
        "ball 500 200 0 0 3 20 # a comment\n"
        "step Equal masses\n"
        "say Ball 1 at 10 meets ball 2.\n"
        "say\n"
        "say   Predict: #2 moves?\n"
        "keys space <t 20>\n"
        "keys space\n"
        "ask What is ball 2's vx? = vx 2\n"
        "step Totals\n"
        "ask Is a = b? = px\n"
        "step Angle\n"
        "  ask between = ANGLE 1 2\n"
        "step Plain\n";
    struct lesson ls;
    struct scene_error err;
    int rc = parse(&ls, text, &err);
    CHECK(rc == 0);
    if (rc) {
        printf("lesson error %d: %s\n", err.line, err.msg);
        return;
    }
    CHECK(strcmp(ls.title, "Momentum in one dimension") == 0);
    CHECK(ls.nstep == 4);
    CHECK(ls.scene_file == NULL);
    const struct lesson_step *s = &ls.step[0];
    CHECK(strcmp(s->title, "Equal masses") == 0 && s->line == 8);
    CHECK(s->nlines == 3);
    CHECK(strcmp(s->text, "Ball 1 at 10 meets ball 2.\n\nPredict: #2 moves?") == 0);
    CHECK(strcmp(s->keys, "space <t 20> space") == 0);
    CHECK(strcmp(s->ask, "What is ball 2's vx?") == 0 && s->ask_line == 14);
    CHECK(s->q.what == LESSON_VX && s->q.ball == 1);
    /* the question is cut at the last '=' */
    CHECK(strcmp(ls.step[1].ask, "Is a = b?") == 0 && ls.step[1].q.what == LESSON_SUM_PX);
    CHECK(ls.step[1].text == NULL && ls.step[1].keys == NULL);
    CHECK(ls.step[2].q.what == LESSON_ANGLE && ls.step[2].q.ball == 0 && ls.step[2].q.ball2 == 1);
    CHECK(ls.step[3].ask == NULL);
    /* the scene: its directives where they stand (an error names the lesson's line) */
    struct scene sc;
    rc = lesson_scene(&ls, &sc, &err);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(sc.n == 2 && sc.p.dt == 0.01 && sc.balls[1].m == 3);
        CHECK(sc.format == SCENE_FORMAT_LESSON);
        scene_free(&sc);
    }
    lesson_free(&ls);

    /* a bad scene line: the lesson's line number */
    rc = parse(&ls, "lesson L\n\ntable 800 400\nball 1 2 3 4 5 -1\nstep s\n", &err);
    CHECK(rc == 0);
    if (rc == 0) {
        rc = lesson_scene(&ls, &sc, &err);
        CHECK(rc == -1 && err.line == 4);
        CHECK(strstr(err.msg, "radius") != NULL);
        lesson_free(&ls);
    }

    /* CR LF and lone CR lines, a byte order mark */
    rc = parse(&ls, "\xef\xbb\xbflesson L\r\nball 1 2 0 0 1 1\rstep a\r\nsay x\r", &err);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(strcmp(ls.title, "L") == 0 && ls.nstep == 1 && strcmp(ls.step[0].text, "x") == 0);
        CHECK(lesson_scene(&ls, &sc, &err) == 0 && sc.n == 1);
        scene_free(&sc);
        lesson_free(&ls);
    }
}

static void scene_file(void)
{
    const char *text = "lesson L\nscene ../headon.scene\n\nrestitution 0.5\nstep s\n";
    struct lesson ls;
    struct scene_error err;
    struct scene sc;
    CHECK(parse(&ls, text, &err) == 0);
    CHECK(ls.scene_file && strcmp(ls.scene_file, "../headon.scene") == 0 && ls.scene_line == 2);
    char *p = lesson_file_path(&ls, "scenes/lessons/a.lesson");
    CHECK(p && strcmp(p, "scenes/lessons/../headon.scene") == 0);
    free(p);
    p = lesson_file_path(&ls, "a.lesson");
    CHECK(p && strcmp(p, "../headon.scene") == 0);
    free(p);
    p = lesson_file_path(&ls, "-");
    CHECK(p && strcmp(p, "../headon.scene") == 0);
    free(p);
    /* the file's scene, then the lesson's lines on top */
    const char *file = "table 800 400\nball 250 200 10 0 1 20\nball 550 200 -10 0 1 20\n";
    CHECK(scene_parse(&sc, file, strlen(file), &err) == 0);
    CHECK(lesson_scene(&ls, &sc, &err) == 0);
    CHECK(sc.n == 2 && sc.p.restitution == 0.5 && sc.balls[1].vx == -10);
    CHECK(sc.format == SCENE_FORMAT_NATIVE);
    scene_free(&sc);
    lesson_free(&ls);
    /* an error in the lesson's line on top of it: the lesson's line */
    CHECK(parse(&ls, "lesson L\nscene x.scene\nk -1\nstep s\n", &err) == 0);
    CHECK(scene_parse(&sc, file, strlen(file), &err) == 0);
    CHECK(lesson_scene(&ls, &sc, &err) == -1);
    CHECK(err.line == 3 && sc.balls == NULL);
    char *q = lesson_file_path(&ls, "/a/b/c.lesson");
    CHECK(q && strcmp(q, "/a/b/x.scene") == 0);
    free(q);
    lesson_free(&ls);
    CHECK(parse(&ls, "lesson L\nscene /abs/x.scene\nstep s\n", &err) == 0);
    q = lesson_file_path(&ls, "/a/b/c.lesson");
    CHECK(q && strcmp(q, "/abs/x.scene") == 0);
    free(q);
    lesson_free(&ls);
}

static void formats_row(void)
{
    const char *text = "# c\n\n  lesson L\nball 100 100 0 0 1 10\nstep s\n";
    CHECK(lesson_detect(text, strlen(text)) == 1);
    CHECK(formats_detect(text, strlen(text)) == SCENE_FORMAT_LESSON);
    CHECK(lesson_detect("lessons x\n", 10) == 0);
    CHECK(lesson_detect("ball 1 2 3 4 5 6\nlesson x\n", 25) == 0);
    CHECK(formats_named("lesson") == SCENE_FORMAT_LESSON);
    struct scene sc;
    struct scene_error err;
    CHECK(formats_parse(&sc, text, strlen(text), FORMATS_AUTO, &err) == 0);
    CHECK(sc.n == 1);
    scene_free(&sc);
    const char *f = "lesson L\nscene a.scene\nstep s\n";
    CHECK(formats_parse(&sc, f, strlen(f), FORMATS_AUTO, &err) == -1 && err.line == 2);
}

static void malformed(void)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } cases[] = {
        {"", 1, "a lesson starts with 'lesson TITLE': the file has none"},
        {"# only\n", 1, "a lesson starts with 'lesson TITLE': the file has none"},
        {"ball 1 2 3 4 5 6\n", 1, "a lesson starts with 'lesson TITLE', not 'ball'"},
        {"lesson\n", 1, "lesson: the text is missing"},
        {"lesson L\nball 1 1 0 0 1 1\n", 2, "the lesson has no step ('step TITLE')"},
        {"lesson L\nlesson M\n", 2, "a second 'lesson' line"},
        {"lesson L\nsay hi\n", 2, "'say' before the first step (a step starts with 'step TITLE')"},
        {"lesson L\nstep\n", 2, "step: the text is missing"},
        {"lesson L\nstep s\nfoo bar\n", 3,
         "unknown directive 'foo' in a step (use step, say, keys or ask)"},
        {"lesson L\nstep s\nball 1 2 3 4 5 6\n", 3,
         "'ball' inside a step: scene lines come before the first step"},
        {"lesson L\nstep s\nkeys\n", 3, "keys: no keys"},
        {"lesson L\nstep s\nkeys <t x>\n", 3, "keys: <t x>: the wait must be a finite time >= 0"},
        {"lesson L\nstep s\nask what\n", 3, "ask: no '= QUANTITY' after the question"},
        {"lesson L\nstep s\nask = vx 1\n", 3, "ask: the text is missing"},
        {"lesson L\nstep s\nask q =\n", 3, "ask: no quantity after '='"},
        {"lesson L\nstep s\nask q = speed 1\n", 3, "ask: unknown quantity 'speed'"},
        {"lesson L\nstep s\nask q = vx\n", 3, "ask: vx needs a ball number"},
        {"lesson L\nstep s\nask q = angle 1\n", 3, "ask: angle needs two ball numbers"},
        {"lesson L\nstep s\nask q = vx 0\n", 3, "ask: '0' is not a ball number (1, 2, ...)"},
        {"lesson L\nstep s\nask q = vx -1\n", 3, "ask: '-1' is not a ball number (1, 2, ...)"},
        {"lesson L\nstep s\nask q = vx 1 2\n", 3, "ask: extra '2' after the quantity"},
        {"lesson L\nstep s\nask q = KE 1 2\n", 3, "ask: extra '2' after the quantity"},
        {"lesson L\nstep s\nask q = E 1\n", 3, "ask: extra '1' after the quantity"},
        {"lesson L\nstep s\nask a = px\nask b = py\n", 4,
         "a step asks one question (the first is on line 3)"},
        {"lesson L\nscene a\nscene b\n", 3, "a second 'scene' line"},
        {"lesson L\nscene\n", 2, "scene: the file name is missing"},
        {"lesson L\nstep s\nsay a\tb\x01\n", 3, "say: a control character (byte 1)"},
        {"lesson L\nstep s\nsay a\0b\n", 3, "a NUL byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct lesson ls;
        struct scene_error err;
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].msg, "NUL"))
            len = 24; /* the text runs on after its NUL */
        int rc = lesson_parse(&ls, cases[i].text, len, &err);
        CHECK(rc == -1);
        if (rc == 0) {
            lesson_free(&ls);
            continue;
        }
        int exact = strcmp(cases[i].msg, "ask: unknown quantity 'speed'") != 0;
        if (err.line == cases[i].line &&
            (exact ? !strcmp(err.msg, cases[i].msg) : strstr(err.msg, cases[i].msg) != NULL)) {
            test_passed++;
        } else {
            test_failed++;
            printf("FAIL lesson case %zu: got line %d '%s', want line %d '%s'\n", i, err.line,
                   err.msg, cases[i].line, cases[i].msg);
        }
    }
    /* too many steps, too many lines */
    size_t cap = 64 * (LESSON_STEPS_MAX + 2);
    char *big = malloc(cap);
    if (!big)
        return;
    size_t at = (size_t)snprintf(big, cap, "lesson L\n");
    for (int i = 0; i <= LESSON_STEPS_MAX; i++)
        at += (size_t)snprintf(big + at, cap - at, "step %d\n", i + 1);
    struct lesson ls;
    struct scene_error err;
    CHECK(lesson_parse(&ls, big, at, &err) == -1 && err.line == LESSON_STEPS_MAX + 2);
    at = (size_t)snprintf(big, cap, "lesson L\nstep s\n");
    for (int i = 0; i <= LESSON_SAY_MAX; i++)
        at += (size_t)snprintf(big + at, cap - at, "say %d\n", i + 1);
    CHECK(lesson_parse(&ls, big, at, &err) == -1 && err.line == LESSON_SAY_MAX + 3);
    CHECK(strcmp(err.msg, "a step says at most 12 lines") == 0);
    free(big);
}

static double measure(const char *quantity, const struct sim *s, const struct sim *start,
                      int *rc)
{
    char text[200];
    snprintf(text, sizeof text, "lesson L\nstep s\nask q = %s\n", quantity);
    struct lesson ls;
    struct scene_error err;
    double v = NAN;
    *rc = -1;
    if (parse(&ls, text, &err)) {
        printf("lesson error %d: %s\n", err.line, err.msg);
        return v;
    }
    *rc = lesson_measure(&ls.step[0].q, s, start, &v);
    lesson_free(&ls);
    return v;
}

static void measuring(void)
{
    struct sim s, s0;
    /* two balls apart (no contact), ball 1 at (3, 4) and ball 2 at (0, -2) */
    if (test_load(&s, "table 800 400\nball 100 100 3 4 2 10\nball 300 300 0 -2 4 10\n") ||
        test_load(&s0, "table 800 400\nball 94 92 3 4 2 10\nball 300 300 0 -2 4 10\n")) {
        CHECK(0);
        return;
    }
    int rc;
    CHECK(measure("vx 1", &s, &s0, &rc) == 3 && rc == LESSON_OK);
    CHECK(measure("vy 2", &s, &s0, &rc) == -2);
    CHECK(measure("v 1", &s, &s0, &rc) == 5);
    CHECK(measure("px 1", &s, &s0, &rc) == 6);
    CHECK(measure("py 2", &s, &s0, &rc) == -8);
    CHECK(measure("ke 1", &s, &s0, &rc) == 25);
    CHECK(measure("KE", &s, &s0, &rc) == 25 + 8);
    CHECK(measure("px", &s, &s0, &rc) == 6);
    CHECK(measure("py", &s, &s0, &rc) == 0); /* 8 - 8 */
    CHECK(measure("p", &s, &s0, &rc) == 6);
    CHECK(measure("m 2", &s, &s0, &rc) == 4);
    CHECK(measure("x 2", &s, &s0, &rc) == 300);
    CHECK(measure("moved 1", &s, &s0, &rc) == 10);
    CHECK(measure("moved 2", &s, &s0, &rc) == 0);
    CHECK(measure("kT", &s, &s0, &rc) == 16.5);
    CHECK(measure("cmvx", &s, &s0, &rc) == 1);
    CHECK(measure("cmvy", &s, &s0, &rc) == 0);
    CHECK(measure("PE", &s, &s0, &rc) == 0);
    CHECK(measure("E", &s, &s0, &rc) == 33);
    CHECK(measure("contacts", &s, &s0, &rc) == 0);
    CHECK(measure("t", &s, &s0, &rc) == 0);
    CHECK(measure("dissipated", &s, &s0, &rc) == 0);
    /* (3, 4) against (0, -2): cos = -8 / (5 * 2) */
    CHECK_NEAR(measure("angle 1 2", &s, &s0, &rc), acos(-0.8) * 180 / SIM_PI, 1e-12);
    measure("vx 3", &s, &s0, &rc);
    CHECK(rc == LESSON_NO_BALL);
    measure("angle 1 3", &s, &s0, &rc);
    CHECK(rc == LESSON_NO_BALL);
    s.vx[sim_slot(&s, 1)] = 0;
    s.vy[sim_slot(&s, 1)] = 0;
    measure("angle 1 2", &s, &s0, &rc);
    CHECK(rc == LESSON_AT_REST);
    /* perpendicular velocities: 90 */
    s.vx[sim_slot(&s, 1)] = -4;
    s.vy[sim_slot(&s, 1)] = 3;
    CHECK_NEAR(measure("angle 1 2", &s, &s0, &rc), 90, 1e-12);
    sim_free(&s);
    sim_free(&s0);
    /* a contact: PE = k s^2 / 2 for the one spring, E = KE + PE */
    if (test_load(&s, "table 800 400\nk 5\nball 100 100 1 0 1 10\nball 118 100 0 0 1 10\n")) {
        CHECK(0);
        return;
    }
    CHECK(measure("contacts", &s, NULL, &rc) == 1);
    CHECK_NEAR(measure("PE", &s, NULL, &rc), 0.5 * 5 * 2 * 2, 1e-4); /* d carries SIM_DIST_EPS */
    CHECK_NEAR(measure("E", &s, NULL, &rc), 0.5 + 10, 1e-4);
    measure("moved 1", &s, NULL, &rc);
    CHECK(rc == LESSON_NO_BALL);
    sim_free(&s);

    char b[64];
    CHECK(strcmp(lesson_value_text(-5.00223, b, sizeof b), "-5.0022") == 0);
    CHECK(strcmp(lesson_value_text(-1e-9, b, sizeof b), "0.0000") == 0);
    CHECK(strcmp(lesson_value_text(90, b, sizeof b), "90.0000") == 0);
    CHECK(strcmp(lesson_value_text(1234567, b, sizeof b), "1.23457e+06") == 0);
    struct lesson_quantity q = {LESSON_VX, 1, 0};
    CHECK(strcmp(lesson_quantity_name(&q, b, sizeof b, 0), "ball 2 vx") == 0);
    q.what = LESSON_SUM_PX;
    CHECK(strcmp(lesson_quantity_name(&q, b, sizeof b, 0), "sum px") == 0);
    CHECK(strcmp(lesson_quantity_name(&q, b, sizeof b, 1), "\xce\xa3px") == 0);
}

/* The screen as text, without colours (free it). */
static char *dump(const struct screen *scr)
{
    size_t need = screen_dump(scr, NULL, 0, 0);
    char *all = malloc(need + 1);
    if (all)
        screen_dump(scr, all, need + 1, 0);
    return all;
}

/* The lesson panel on a screen of cols x rows: the frame's title with the
 * step, the text, the question; the answer after reveal, measured; the
 * rows that do not fit dropped in order (blanks, keys, then text, cut). */
/* What the screen draws of @p ss now (shown.h). */
static const struct shown *shw(struct shown *sh, struct session *ss)
{
    if (shown_take(sh, ss) == 0)
        shown_observe(sh);
    return sh;
}

static void panel(void)
{
    const char *text =
        "lesson Momentum in one dimension\n"
        "table 800 400\n"
        "ball 200 200 10 0 1 20\n"
        "ball 500 200 0 0 3 20\n"
        "step Unequal masses\n"
        "say Ball 2 now has three times the mass of ball 1, and it is at rest.\n"
        "say Predict: does ball 1 stop, go on, or bounce back?\n"
        "say A third line.\n"
        "say A fourth line.\n"
        "say The fifth and last line of the text.\n"
        "ask What is the total momentum? = px\n"
        "step Two\n"
        "say no question here\n";
    struct lesson ls;
    struct scene_error err;
    struct scene sc;
    if (parse(&ls, text, &err) || lesson_scene(&ls, &sc, &err)) {
        CHECK(0);
        return;
    }
    struct sim s;
    struct session ss;
    struct shown sh;
    memset(&sh, 0, sizeof sh);
    struct screen scr;
    struct front f;
    memset(&f, 0, sizeof f);
    f.title = "x";
    f.speed = 20;
    f.glyphs = VIEW_BRAILLE;
    CHECK(scene_to_sim(&sc, &s) == 0);
    CHECK(session_init(&ss, &s) == 0);
    sim_free(&s);
    CHECK(screen_init(&scr, &sc, 2, 0) == 0);
    struct lesson_view lv = {&ls, 0, 0, 0, 0, NULL, 0, 0};
    CHECK(screen_add_panel(&scr, &lesson_panel_class, &lv) >= 0);
    CHECK(lesson_view_next(&lv) == LESSON_NEXT_REVEAL);
    /* 200 x 40: a column beside the table (which leaves it larger than a
     * band would), everything shown */
    CHECK(screen_layout(&scr, 200, 40, shw(&sh, &ss), VIEW_BRAILLE) == 0);
    CHECK(scr.lay.side.w == LESSON_PANEL_W);
    screen_draw(&scr, shw(&sh, &ss), &f, NULL, 0);
    char *all = dump(&scr);
    CHECK(all && strstr(all, "lesson: Momentum in one dimension  step 1/2"));
    CHECK(all && strstr(all, "Ball 2 now has three times the mass of ball 1, and it is at"));
    CHECK(all && strstr(all, "The fifth and last line of the text."));
    CHECK(all && strstr(all, "? What is the total momentum?"));
    CHECK(all && strstr(all, "(PgDn or A shows the answer)"));
    CHECK(all && strstr(all, "PgDn l: next"));
    CHECK(all && !strstr(all, "= 10"));
    free(all);
    CHECK(lesson_view_reveal(&lv, session_observed(&ss), &ss.start) == 1 && lv.fail == LESSON_OK && lv.value == 10);
    CHECK(lesson_view_next(&lv) == LESSON_NEXT_STEP);
    screen_draw(&scr, shw(&sh, &ss), &f, NULL, 0);
    all = dump(&scr);
    CHECK(all && strstr(all, "\xe2\x86\x92 \xce\xa3px = 10.0000"));
    free(all);
    /* 80 x 24: a band under the table; what does not fit goes, the
     * question and its answer stay */
    CHECK(screen_layout(&scr, 80, 24, shw(&sh, &ss), VIEW_BRAILLE) == 0);
    CHECK(scr.lay.side.w == 0 && scr.lay.bottom.h == 11);
    screen_draw(&scr, shw(&sh, &ss), &f, NULL, 0);
    all = dump(&scr);
    CHECK(all && strstr(all, "lesson: Momentum in one dimension  step 1/2"));
    CHECK(all && strstr(all, "Unequal masses"));
    CHECK(all && strstr(all, "\xce\xa3px = 10.0000"));
    CHECK(all && strstr(all, "Predict: does ball 1 stop"));
    CHECK(all && strstr(all, "PgDn l: next"));
    free(all);
    /* 80 x 16: a band of 7 rows; the text is cut, marked */
    CHECK(screen_layout(&scr, 80, 16, shw(&sh, &ss), VIEW_BRAILLE) == 0);
    CHECK(scr.lay.bottom.h == 7);
    screen_draw(&scr, shw(&sh, &ss), &f, NULL, 0);
    all = dump(&scr);
    CHECK(all && strstr(all, "Unequal masses"));
    CHECK(all && strstr(all, "Predict: does ball 1 stop, go on, or bounce back? \xe2\x80\xa6"));
    CHECK(all && !strstr(all, "A third line"));
    CHECK(all && strstr(all, "\xce\xa3px = 10.0000"));
    free(all);
    /* ASCII */
    f.glyphs = VIEW_ASCII;
    CHECK(screen_layout(&scr, 80, 24, shw(&sh, &ss), VIEW_ASCII) == 0);
    screen_draw(&scr, shw(&sh, &ss), &f, NULL, 0);
    all = dump(&scr);
    CHECK(all && strstr(all, "-> sum px = 10.0000"));
    if (all && !strstr(all, "-> sum px = 10.0000"))
        printf("%s", all);
    free(all);
    /* the last step, which asks nothing */
    lesson_view_goto(&lv, 1);
    CHECK(lv.step == 1 && !lv.revealed && lesson_view_next(&lv) == LESSON_NEXT_END);
    CHECK(lesson_view_reveal(&lv, session_observed(&ss), &ss.start) == 0);
    lesson_view_goto(&lv, 7);
    CHECK(lv.step == 1);
    screen_free(&scr);
    shown_free(&sh);
    session_free(&ss);
    scene_free(&sc);
    lesson_free(&ls);
}

void test_lesson(void)
{
    panel();
    good_lesson();
    scene_file();
    formats_row();
    malformed();
    measuring();
}
