/*
 * test_edit.c - live edits on the session (issue 14): each edit is a move
 * of the timeline that ',' undoes and '.' or a run redoes bit for bit;
 * tags follow the balls; a drag is one move; hard walls and bad values
 * are refused with nothing changed; edits at the start change what reset
 * returns to; the event engine takes edits too; a saved state reloads bit
 * for bit; the command line is the scene parser's (its messages).
 */
#include "command.h"
#include "scene.h"
#include "session.h"
#include "session_scene.h"
#include "sim.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* The same parameters (field by field: the struct has padding). */
static int same_params(const struct sim_params *a, const struct sim_params *b)
{
    return a->shape == b->shape && a->w == b->w && a->h == b->h && a->k == b->k &&
           a->dt == b->dt && a->restitution == b->restitution && a->walls == b->walls &&
           a->contact == b->contact && a->exp_eps == b->exp_eps &&
           a->exp_kappa == b->exp_kappa && a->gravity == b->gravity &&
           a->softening == b->softening && a->theta == b->theta && a->reach == b->reach;
}

/* The same bits, ball for ball in scene order, and the same parameters. */
static int same_state(const struct sim *a, const struct sim *b)
{
    if (a->n != b->n || !same_params(&a->p, &b->p))
        return 0;
    for (size_t k = 0; k < a->n; k++) {
        size_t i = sim_slot(a, k), j = sim_slot(b, k);
        double va[6] = {a->x[i], a->y[i], a->vx[i], a->vy[i], a->m[i], a->r[i]};
        double vb[6] = {b->x[j], b->y[j], b->vx[j], b->vy[j], b->m[j], b->r[j]};
        if (memcmp(va, vb, sizeof va))
            return 0;
    }
    return 1;
}

/* The PhET worksheet from an empty table: two balls, masses 0.5 and 1.5,
 * one moving at 2 toward the other at an angle; run, step back, change a
 * mass, run again; every edit is one move, undone and redone exactly. */
static void test_worksheet(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\n") == 0);
    CHECK(ss.s.n == 0);
    CHECK(session_add_ball(&ss, 200, 220, 0, 0, 1, 20, 100) == 0);
    CHECK(ss.pos == 1 && ss.s.n == 1 && ss.s.t == 0);
    CHECK(session_add_ball(&ss, 400, 180, 0, 0, 1, 20, 101) == 0);
    CHECK(session_set_mass(&ss, 0, 0.5) == 0);
    CHECK(session_set_mass(&ss, 1, 1.5) == 0);
    CHECK(session_set_velocity(&ss, 0, 1.9696155060244163, -0.34729635533386072) == 0);
    CHECK(ss.pos == 5 && ss.s.n == 2);
    CHECK(session_tag(&ss, 0) == 100 && session_tag(&ss, 1) == 101);
    struct sim built = test_clone(&ss.s);

    /* each ',' undoes one edit, in order */
    CHECK(test_backward(&ss, 1));
    CHECK(ss.s.vx[sim_slot(&ss.s, 0)] == 0);
    CHECK(test_backward(&ss, 2));
    CHECK(ss.s.m[sim_slot(&ss.s, 0)] == 1);
    CHECK(test_backward(&ss, 1));
    CHECK(ss.s.n == 1 && session_tag(&ss, 0) == 100);
    CHECK(test_backward(&ss, 1));
    CHECK(ss.s.n == 0 && ss.pos == 0);
    CHECK(session_back(&ss) == -1);
    /* and '.' redoes them */
    test_forward(&ss, 5);
    CHECK(same_state(&ss.s, &built) && ss.s.t == 0);
    CHECK(session_tag(&ss, 1) == 101);

    /* run; back to the start of the run; the run comes back exactly */
    test_forward(&ss, 300);
    struct sim ran = test_clone(&ss.s);
    CHECK(ss.s.t > 14);
    CHECK(test_backward(&ss, 300));
    CHECK(same_state(&ss.s, &built) && ss.s.t == 0);
    CHECK(session_advance(&ss, ran.t, NULL, NULL) == 1);
    CHECK(same_state(&ss.s, &ran));

    /* back, a new mass: the future is cut, the run differs */
    CHECK(test_backward(&ss, 300));
    CHECK(session_set_mass(&ss, 1, 3) == 0);
    test_forward(&ss, 300);
    CHECK(!same_state(&ss.s, &ran));
    CHECK(ss.s.m[sim_slot(&ss.s, 1)] == 3);

    /* that run is the one a scene of the edited balls gives */
    struct session direct;
    CHECK(test_start(&direct, "table 800 400\n"
                         "ball 200 220 1.9696155060244163 -0.34729635533386072 0.5 20\n"
                         "ball 400 180 0 0 3 20\n") == 0);
    test_forward(&direct, 300);
    CHECK(same_state(&ss.s, &direct.s));
    CHECK(ss.s.t == direct.s.t);
    session_free(&direct);

    /* edits at the starting time are what reset returns to */
    CHECK(session_reset(&ss) == 0);
    CHECK(ss.s.n == 2 && ss.s.m[sim_slot(&ss.s, 1)] == 3 && ss.s.t == 0);
    CHECK(session_tag(&ss, 0) == 100);
    sim_free(&built);
    sim_free(&ran);
    session_free(&ss);
}

/* Removing a ball: the later ones move down, their tags with them; undo
 * brings it back where it was. Moves keep or zero the velocity. */
static void test_remove_move(void)
{
    struct session ss;
    CHECK(test_start(&ss, "ball 100 100 1 0 1 10\nball 200 100 2 0 2 10\nball 300 100 3 0 3 10\n") == 0);
    test_forward(&ss, 10);
    struct sim before = test_clone(&ss.s);
    CHECK(session_remove_ball(&ss, 1) == 0);
    CHECK(ss.s.n == 2 && ss.pos == 11);
    CHECK(session_tag(&ss, 0) == 0 && session_tag(&ss, 1) == 2);
    CHECK(ss.s.m[sim_slot(&ss.s, 1)] == 3);
    test_forward(&ss, 20);
    struct sim after = test_clone(&ss.s);
    CHECK(test_backward(&ss, 21));
    CHECK(same_state(&ss.s, &before) && session_tag(&ss, 1) == 1);
    test_forward(&ss, 21);
    CHECK(same_state(&ss.s, &after) && session_tag(&ss, 1) == 2);
    CHECK(session_remove_ball(&ss, 5) == -1 && ss.msg);

    /* a move keeps the velocity, or zeroes it */
    size_t i = sim_slot(&ss.s, 0);
    double vx = ss.s.vx[i];
    CHECK(session_move(&ss, 0, 50, 60, 0) == 0);
    i = sim_slot(&ss.s, 0);
    CHECK(ss.s.x[i] == 50 && ss.s.y[i] == 60 && ss.s.vx[i] == vx);
    CHECK(session_move(&ss, 0, 55, 60, 1) == 0);
    CHECK(ss.s.vx[sim_slot(&ss.s, 0)] == 0);

    /* a drag is one move: the gesture merges the edits of one ball */
    long long pos = ss.pos;
    session_gesture(&ss, 1);
    for (int k = 0; k < 30; k++)
        CHECK(session_move(&ss, 1, 100 + k, 200, 1) == 0);
    session_gesture(&ss, 0);
    CHECK(ss.pos == pos + 1);
    CHECK(ss.s.x[sim_slot(&ss.s, 1)] == 129);
    CHECK(test_backward(&ss, 1));
    CHECK(ss.s.x[sim_slot(&ss.s, 1)] != 129 && ss.s.x[sim_slot(&ss.s, 0)] == 55);
    sim_free(&before);
    sim_free(&after);
    session_free(&ss);
}

/* Bad edits change nothing. */
static void test_refused(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\nwalls hard\nball 100 100 1 0 1 10\nball 300 100 0 0 1 10\n") == 0);
    struct sim s0 = test_clone(&ss.s);
    CHECK(session_move(&ss, 0, 5, 100, 0) == -1); /* across the left wall */
    CHECK(ss.msg && strstr(ss.msg, "walls hard"));
    CHECK(session_add_ball(&ss, 795, 100, 0, 0, 1, 10, 7) == -1);
    CHECK(session_set_radius(&ss, 0, 150) == -1);
    CHECK(session_set_mass(&ss, 0, 0) == -1);
    CHECK(session_set_mass(&ss, 0, NAN) == -1);
    CHECK(session_set_velocity(&ss, 0, INFINITY, 0) == -1);
    CHECK(session_set_radius(&ss, 9, 1) == -1);
    struct sim_params p = ss.s.p;
    p.w = 900;
    CHECK(session_set_params(&ss, &p) == -1);
    CHECK(!ss.msg && ss.note == SESSION_NOTE_TABLE_FIXED);
    CHECK(same_state(&ss.s, &s0) && ss.pos == 0 && ss.nact == 0);
    /* overlap: allowed, with a note */
    CHECK(session_move(&ss, 1, 110, 100, 0) == 0);
    CHECK(!ss.msg && ss.note == SESSION_NOTE_OVERLAP && ss.note_ball[0] == 2 &&
          ss.note_ball[1] == 1);
    sim_free(&s0);
    session_free(&ss);

    /* walls hard refused while a ball crosses a wall */
    CHECK(test_start(&ss, "ball 5 100 0 0 1 10\n") == 0);
    p = ss.s.p;
    p.walls = SIM_WALLS_HARD;
    CHECK(session_set_params(&ss, &p) == -1 && ss.note == SESSION_NOTE_CROSSES_WALL &&
          ss.note_ball[0] == 1);
    p.walls = SIM_WALLS_SPRING;
    p.k = 20;
    p.restitution = 0.8;
    CHECK(session_set_params(&ss, &p) == 0);
    CHECK(ss.s.p.k == 20 && ss.s.p.restitution == 0.8);
    CHECK(test_backward(&ss, 1) && ss.s.p.k == 5 && ss.s.p.restitution == 1);
    session_free(&ss);
}

/* The event engine: edits rebuild it; back and forward over them. */
static void test_event_edits(void)
{
    struct session ss;
    CHECK(test_start(&ss, "ball 100 200 5 0 1 20\nball 400 200 0 0 1 20\n") == 0);
    CHECK(session_set_engine(&ss, SESSION_EVENT) == 0);
    CHECK(session_advance(&ss, 10, NULL, NULL) == 1);
    struct sim s10 = test_clone(&ss.s);
    CHECK(session_add_ball(&ss, 600, 200, -5, 0, 2, 20, 9) == 0);
    CHECK(ss.s.n == 3);
    CHECK(session_set_velocity(&ss, 1, 0, 3) == 0);
    CHECK(session_advance(&ss, 60, NULL, NULL) == 1);
    struct sim s60 = test_clone(&ss.s);
    long long depth = session_depth(&ss);
    CHECK(depth >= 3);
    CHECK(test_backward(&ss, (int)depth));
    CHECK(ss.s.n == 2 && ss.s.t == 0);
    CHECK(session_advance(&ss, 10, NULL, NULL) == 1);
    /* at t = 10 the edits made there are back (no time between) */
    CHECK(ss.s.t == s10.t && ss.s.n == 3);
    CHECK(ss.s.x[sim_slot(&ss.s, 0)] == s10.x[sim_slot(&s10, 0)]);
    CHECK(session_advance(&ss, 60, NULL, NULL) == 1);
    CHECK(same_state(&ss.s, &s60) && ss.s.n == 3 && session_tag(&ss, 2) == 9);
    /* an overlapping add: the note says they collide at once */
    CHECK(session_add_ball(&ss, ss.s.x[sim_slot(&ss.s, 0)] + 5, ss.s.y[sim_slot(&ss.s, 0)],
                           0, 0, 1, 10, 10) == 0);
    CHECK(!ss.msg && ss.note == SESSION_NOTE_OVERLAP && ss.engine == SESSION_EVENT);
    CHECK(session_forward(&ss) >= 0);
    /* gravity cannot be set for the event engine */
    struct sim_params p = ss.s.p;
    p.gravity = 1;
    CHECK(session_set_params(&ss, &p) == -1 && ss.msg);
    sim_free(&s10);
    sim_free(&s60);
    session_free(&ss);
}

/* What w writes reloads to the same state, bit for bit. */
static void test_save_reload(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\n") == 0);
    CHECK(session_add_ball(&ss, 123.456789, 200.1, 0.1, 0, 0.5, 15, 0) == 0);
    CHECK(session_add_ball(&ss, 500, 210, -2.0 / 3, 1e-17, 1.5, 12.25, 1) == 0);
    struct sim_params p = ss.s.p;
    p.k = 20;
    p.dt = 0.01;
    p.restitution = 0.8;
    p.walls = SIM_WALLS_HARD;
    CHECK(session_set_params(&ss, &p) == 0);
    test_forward(&ss, 777);
    struct scene sc = {0};
    sc.p = ss.s.p;
    sc.n = sc.cap = ss.s.n;
    sc.balls = calloc(sc.n, sizeof *sc.balls);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    scene_write(f, &sc, &ss.s);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    CHECK(fread(text, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    struct scene back_sc;
    struct scene_error err;
    CHECK(scene_parse(&back_sc, text, (size_t)len, &err) == 0);
    struct sim r;
    CHECK(scene_to_sim(&back_sc, &r) == 0);
    CHECK(same_state(&ss.s, &r));
    sim_free(&r);
    scene_free(&back_sc);
    free(text);
    free(sc.balls);
    session_free(&ss);
}

static uint32_t tag_color(void *arg, uint32_t tag)
{
    (void)arg;
    return tag + 2;
}

/* session_scene: the state now or at the start (edits at t = 0 kept), a ball
 * left out, the cue renumbered, colours by tag; it reloads bit for bit. */
static void test_session_scene(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 800 400\n") == 0);
    CHECK(session_add_ball(&ss, 100, 200, 3, 0.1, 1, 10, 0) == 0);
    CHECK(session_add_ball(&ss, 300, 200, 0, 0, 2, 12, 1) == 0);
    CHECK(session_add_ball(&ss, 500, 200, -1, 0, 3, 14, 2) == 0);
    test_forward(&ss, 300);
    struct scene now, start;
    CHECK(session_scene(&ss, SESSION_SCENE_NOW, (size_t)-1, 2, tag_color, NULL, &now) == 0);
    CHECK(now.n == 3 && now.cue == 3 && now.balls[1].color == 3 && same_params(&now.p, &ss.s.p));
    struct sim r = {0};
    CHECK(scene_to_sim(&now, &r) == 0 && same_state(&ss.s, &r));
    sim_free(&r);
    /* the start: the set-up made at t = 0, though the run went on */
    CHECK(session_scene(&ss, SESSION_SCENE_START, 1, 2, NULL, NULL, &start) == 0);
    CHECK(start.n == 2 && start.cue == 2 && start.balls[0].x == 100 &&
          start.balls[0].vx == 3 && start.balls[1].x == 500 && start.balls[1].m == 3 &&
          start.balls[1].color == SCENE_COLOR_NONE);
    free(start.balls);
    /* the cue left out with its ball: no cue */
    CHECK(session_scene(&ss, SESSION_SCENE_NOW, 0, 0, NULL, NULL, &start) == 0);
    CHECK(start.n == 2 && start.cue == 0 && start.balls[0].m == 2);
    free(start.balls);
    free(now.balls);
    session_free(&ss);
}

/* The command line: the scene parser's own messages, and what it asks. */
static void test_command(void)
{
    struct sim s;
    struct sim_params p = sim_default_params();
    CHECK(sim_init(&s, 1, &p) == 0);
    s.x[0] = 100;
    s.y[0] = 100;
    s.m[0] = 1;
    s.r[0] = 10;
    struct command c;
    char err[256];
    CHECK(command_parse(&c, "ball 100 200 5 0 1 15", &s, err, sizeof err) == 0);
    CHECK(c.kind == COMMAND_BALLS && c.n == 1 && c.balls[0].vx == 5 && c.balls[0].r == 15);
    command_free(&c);
    CHECK(command_parse(&c, "ball 100 200 5 0 1 15 red", &s, err, sizeof err) == 0);
    CHECK(c.kind == COMMAND_BALLS && c.balls[0].color != 0);
    command_free(&c);
    CHECK(command_parse(&c, "rack 400 200 3 10 1", &s, err, sizeof err) == 0);
    CHECK(c.kind == COMMAND_BALLS && c.n == 6);
    command_free(&c);
    CHECK(command_parse(&c, "k 20", &s, err, sizeof err) == 0);
    CHECK(c.kind == COMMAND_PARAMS && c.p.k == 20 && c.p.dt == p.dt);
    command_free(&c);
    CHECK(command_parse(&c, "dt 0.01", &s, err, sizeof err) == 0 && c.p.dt == 0.01);
    CHECK(command_parse(&c, "restitution 0.8", &s, err, sizeof err) == 0 && c.p.restitution == 0.8);
    CHECK(command_parse(&c, "walls hard", &s, err, sizeof err) == 0 && c.p.walls == SIM_WALLS_HARD);
    CHECK(command_parse(&c, "   # nothing", &s, err, sizeof err) == 0 && c.kind == COMMAND_NONE);
    CHECK(command_parse(&c, "title Two balls", &s, err, sizeof err) == 0);
    CHECK(c.kind == COMMAND_TITLE && !strcmp(c.title, "Two balls"));
    command_free(&c);
    CHECK(command_parse(&c, "m 1.5", &s, err, sizeof err) == 0 && c.kind == COMMAND_MASS && c.a == 1.5);
    CHECK(command_parse(&c, "r 12", &s, err, sizeof err) == 0 && c.kind == COMMAND_RADIUS && c.a == 12);
    CHECK(command_parse(&c, "v 2 0", &s, err, sizeof err) == 0 && c.kind == COMMAND_VELOCITY && c.a == 2);
    CHECK(command_parse(&c, "x 300 200", &s, err, sizeof err) == 0 && c.kind == COMMAND_POSITION && c.b == 200);
    CHECK(command_parse(&c, "del", &s, err, sizeof err) == 0 && c.kind == COMMAND_DELETE);
    /* errors: the parser's own words */
    static const struct {
        const char *line, *msg;
    } bad[] = {
        {"k -1", "stiffness k must be > 0"},
        {"k", "k K: missing field (expected k K)"},
        {"dt x", "time step dt: 'x' is not a number"},
        {"restitution 2", "restitution must be >= 0 and <= 1"},
        {"walls soft", "walls: unknown kind 'soft' (use hard or spring)"},
        {"ball 1 2 3", "ball X Y VX VY M R [COLOR]: missing field (expected ball X Y VX VY M R [COLOR])"},
        {"ball 100 200 0 0 -1 5", "mass must be > 0"},
        {"bounce 3", "unknown directive 'bounce'"},
        {"table 900 400", "'table' must come before the balls"},
        {"m", "m M: missing field (expected m M)"},
        {"m 0", "mass must be > 0"},
        {"v 1", "v VX VY: missing field (expected v VX VY)"},
        {"x 1 2 3", "x X Y: extra field '3' (expected x X Y)"},
        {"r nan", "radius: 'nan' is not a finite number"},
        {"del 1", "del: extra field '1' (expected del)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = command_parse(&c, bad[i].line, &s, err, sizeof err);
        CHECK(rc == -1);
        if (strcmp(err, bad[i].msg))
            printf("  command '%s': got '%s'\n", bad[i].line, err);
        CHECK(!strcmp(err, bad[i].msg));
    }
    /* walls hard while the ball crosses a wall: the scene check's message */
    s.x[0] = 5;
    CHECK(command_parse(&c, "walls hard", &s, err, sizeof err) == -1 && strstr(err, "crosses a wall"));
    sim_free(&s);

    /* the line editor: typing, editing, history */
    static struct command_line cl;
    command_open(&cl);
    for (const char *k = "k 2"; *k; k++)
        command_key(&cl, *k);
    CHECK(command_key(&cl, '0') == 0 && !strcmp(cl.buf, "k 20"));
    CHECK(command_key(&cl, COMMAND_KEY_ENTER) == 1 && cl.nhist == 1);
    command_open(&cl);
    command_key(&cl, 'd');
    CHECK(command_key(&cl, COMMAND_KEY_UP) == 0 && !strcmp(cl.buf, "k 20"));
    command_key(&cl, COMMAND_KEY_LEFT);
    command_key(&cl, COMMAND_KEY_BACKSPACE);
    CHECK(!strcmp(cl.buf, "k 0"));
    command_key(&cl, COMMAND_KEY_DOWN);
    CHECK(!strcmp(cl.buf, "d"));
    command_key(&cl, COMMAND_KEY_KILL);
    CHECK(cl.len == 0 && command_key(&cl, COMMAND_KEY_BACKSPACE) == -1);
}

/* A table and no balls is a scene; nothing at all is not. */
static void test_empty_table(void)
{
    struct scene sc;
    struct scene_error err;
    CHECK(scene_parse(&sc, "table 800 400\n", 14, &err) == 0 && sc.n == 0);
    struct sim s;
    CHECK(scene_to_sim(&sc, &s) == 0);
    CHECK(sim_step(&s) == SIM_OK && s.t > 0);
    sim_free(&s);
    scene_free(&sc);
    CHECK(scene_parse(&sc, "k 5\n", 4, &err) == -1 && strstr(err.msg, "no balls"));
    /* cue N names one of the balls before it */
    const char *t = "ball 1 1 0 0 1 1\nball 5 5 0 0 1 1\ncue 2\n";
    CHECK(scene_parse(&sc, t, strlen(t), &err) == 0 && sc.cue == 2);
    scene_free(&sc);
    t = "ball 1 1 0 0 1 1\ncue 2\n";
    CHECK(scene_parse(&sc, t, strlen(t), &err) == -1 && err.line == 2 &&
          !strcmp(err.msg, "cue 2: there is 1 ball before this line"));
    t = "ball 1 1 0 0 1 1\ncue 0\n";
    CHECK(scene_parse(&sc, t, strlen(t), &err) == -1 && strstr(err.msg, "cue must be between 1"));
}

/* A group of edits (a rack on the command line) is one move. */
static void test_group(void)
{
    for (int engine = 0; engine < 2; engine++) {
        struct session ss;
        CHECK(test_start(&ss, "ball 100 100 1 0 1 10\n") == 0);
        CHECK(session_set_engine(&ss, engine) == 0);
        test_forward(&ss, 3);
        long long pos = ss.pos;
        session_group(&ss, 1);
        for (int k = 0; k < 3; k++)
            CHECK(session_add_ball(&ss, 300 + 30 * k, 200, 0, 0, 1, 10, 50 + k) == 0);
        session_group(&ss, 0);
        CHECK(ss.pos == pos + 1 && ss.s.n == 4);
        CHECK(test_backward(&ss, 1) && ss.s.n == 1 && ss.pos == pos);
        test_forward(&ss, 1);
        CHECK(ss.s.n == 4 && session_tag(&ss, 3) == 52 && session_tag(&ss, 1) == 50);
        CHECK(session_add_ball(&ss, 500, 300, 0, 0, 1, 10, 60) == 0);
        CHECK(ss.pos == pos + 2);
        session_free(&ss);
    }
}

/* Many balls added to an empty table: the history is sized again (its
 * copies stay within the budget), and ',' stops at that edit. */
static void test_resize(void)
{
    struct session ss;
    CHECK(test_start(&ss, "table 4000 4000\n") == 0);
    session_group(&ss, 1);
    for (int k = 0; k < 3000; k++)
        session_add_ball(&ss, 10 + (k % 60) * 60, 10 + (k / 60) * 60, 0, 0, 1, 5, (uint32_t)k);
    session_group(&ss, 0);
    CHECK(ss.s.n == 3000 && ss.sized_n == 3000);
    CHECK(!ss.msg && ss.note == SESSION_NOTE_STOPS_HERE && ss.note_ball[0] == 3000);
    long long cap = ss.h.cap;
    CHECK((double)cap * 3000 * 8 * sizeof(double) <= 1.1 * SESSION_BUDGET);
    test_forward(&ss, 20);
    CHECK(test_backward(&ss, 20));
    CHECK(session_back(&ss) == -1 && ss.s.n == 3000);
    session_free(&ss);
}

void test_edit(void)
{
    test_resize();
    test_group();
    test_worksheet();
    test_remove_move();
    test_refused();
    test_event_edits();
    test_save_reload();
    test_session_scene();
    test_command();
    test_empty_table();
}
