/*
 * test_limits.c - issue 27: what is printed stays printable, what is
 * parsed is all of it, and what is added is not quadratic.
 */
#include "test.h"

#include "command.h"
#include "script.h"
#include "session.h"
#include "sim.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* text_visible: C0, DEL and UTF-8 C1 controls become '?', the rest stays. */
static void test_visible(void)
{
    char a[] = "a\x1b[31mb\x7f" "c\t";
    CHECK(strcmp(text_visible(a), "a?[31mb?c?") == 0);
    char b[] = "x\xc2\x9b" "2J\xc2\x80y";          /* U+009B, U+0080 */
    CHECK(strcmp(text_visible(b), "x?2J?y") == 0);
    char c[] = "\xc3\xa9\xe2\x82\xac\xc2\xa0\xc2"; /* é € no-break space, a cut C2 */
    CHECK(strcmp(text_visible(c), "\xc3\xa9\xe2\x82\xac\xc2\xa0\xc2") == 0);
    char d[] = "";
    CHECK(strcmp(text_visible(d), "") == 0);
}

/* text_next, the one tokenizer of the scene and lesson formats: runs of
 * bytes between spaces and tabs, nothing else a blank (a no-break space,
 * a CR and a NUL are inside tokens); text_trim takes the same blanks off
 * the ends. */
static void test_tokens(void)
{
    static const char line[] = " \tball\t12  x\xc2\xa0y\r\t";
    const char *p = line, *end = line + sizeof line - 1;
    struct text_token t;
    CHECK(text_next(&p, end, &t) && t.len == 4 && memcmp(t.s, "ball", 4) == 0);
    CHECK(text_next(&p, end, &t) && t.len == 2 && memcmp(t.s, "12", 2) == 0);
    CHECK(text_next(&p, end, &t) && t.len == 5 && memcmp(t.s, "x\xc2\xa0y\r", 5) == 0);
    const char *at = p;
    CHECK(!text_next(&p, end, &t) && p == at);
    static const char nul[] = {'a', 0, 'b', ' ', 'c'};
    p = nul;
    CHECK(text_next(&p, nul + 5, &t) && t.len == 3 && t.s == nul);
    p = line;
    CHECK(!text_next(&p, line, &t)); /* an empty range */
    const char *s = line, *e = end;
    text_trim(&s, &e);
    CHECK(s == line + 2 && e == end - 1 && e[-1] == '\r');
    s = "\t \t", e = s + 3;
    text_trim(&s, &e);
    CHECK(s == e);
    CHECK(text_blank(' ') && text_blank('\t') && !text_blank('\r') && !text_blank('\n') &&
          !text_blank(0) && !text_blank('\v'));
}

/* The : line: a key dropped at COMMAND_MAX makes Enter refuse the line
 * (2) until a deletion or C-u; a line of exactly COMMAND_MAX runs. */
static void test_command_full(void)
{
    struct command_line cl;
    memset(&cl, 0, sizeof cl);
    command_open(&cl);
    for (int i = 0; i < COMMAND_MAX; i++)
        CHECK(command_key(&cl, 'a') == 0);
    CHECK(cl.len == COMMAND_MAX && !cl.over);
    CHECK(command_key(&cl, COMMAND_KEY_ENTER) == 1);
    command_open(&cl);
    for (int i = 0; i < COMMAND_MAX + 50; i++)
        command_key(&cl, '0');
    CHECK(cl.len == COMMAND_MAX && cl.over);
    CHECK(command_key(&cl, COMMAND_KEY_ENTER) == 2);
    CHECK(cl.nhist == 1); /* not in the history */
    CHECK(command_key(&cl, COMMAND_KEY_BACKSPACE) == 0);
    CHECK(command_key(&cl, COMMAND_KEY_ENTER) == 1);
    command_open(&cl);
    CHECK(!cl.over);
}

/* Key scripts: <lt>, numbers of digits alone, items of 63 characters. */
static void test_script_items(void)
{
    struct script_item *it;
    char err[160];
    int n = script_parse("<lt> <lt>*2 <click 10000 0> <t 1e300> <wheel up 1 2 mod>", &it, err,
                         sizeof err);
    CHECK(n == 6);
    if (n == 6) {
        CHECK(it[0].kind == SCRIPT_KEY && it[0].key == '<' && it[2].key == '<');
        CHECK(it[3].kind == SCRIPT_CLICK && it[3].x == 10000 && it[3].y == 0);
        CHECK(it[4].kind == SCRIPT_WAIT && it[4].t == 1e300);
        CHECK(it[5].kind == SCRIPT_MOUSE && it[5].mouse == SCRIPT_WHEEL_UP && it[5].mod == 1);
        free(it);
    }
    static const char *bad[] = {
        "<click 4294967296 0>", "<click 10001 0>", "<click +1 0>", "<press 1 2 3>",
        "<t 1 junk>", "<t 0x>", "<t inf>", "<lt x>", "<wheel up 1 2 ctrl>",
        "<t 1                                                                 >",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        CHECK(script_parse(bad[i], &it, err, sizeof err) == -1 && err[0]);
    }
    /* 63 characters inside the brackets are one item */
    char ok[80];
    snprintf(ok, sizeof ok, "<t 1%60s>", "");
    n = script_parse(ok, &it, err, sizeof err);
    CHECK(n == 1);
    if (n == 1)
        free(it);
}

/* Two sessions hold the same state, to the bit (velocities by value: a
 * zero velocity added one ball at a time may lose its sign on the way
 * through the observed velocities), and show the same. */
static int same_state(struct session *a, struct session *b)
{
    const struct sim *x = &a->s, *y = &b->s;
    if (x->n != y->n || x->t != y->t || a->pos != b->pos)
        return 0;
    for (size_t k = 0; k < x->n; k++) {
        size_t i = sim_slot(x, k), j = sim_slot(y, k);
        if (memcmp(&x->x[i], &y->x[j], sizeof(double)) || memcmp(&x->y[i], &y->y[j], sizeof(double)) ||
            x->vx[i] != y->vx[j] || x->vy[i] != y->vy[j] || x->m[i] != y->m[j] ||
            x->r[i] != y->r[j] || session_tag(a, k) != session_tag(b, k))
            return 0;
    }
    return session_diag(a)->e == session_diag(b)->e;
}

/* session_add_balls is session_add_ball n times in one group: the same
 * state, the same move (one ',' undoes it, '.' replays it), in both
 * engines, after steps (velocities observed at the half step). */
static void test_add_balls(void)
{
    for (int engine = 0; engine < 2; engine++) {
        struct session one, many;
        const char *scene = "table 400 200\nball 100 100 3 1 1 5\nball 300 100 -2 0 2 7\n";
        CHECK(test_start(&one, scene) == 0 && test_start(&many, scene) == 0);
        if (engine) {
            CHECK(session_set_engine(&one, SESSION_EVENT) == 0);
            CHECK(session_set_engine(&many, SESSION_EVENT) == 0);
        }
        for (int k = 0; k < 7; k++) {
            session_forward(&one);
            session_forward(&many);
        }
        struct session_ball b[40];
        for (int k = 0; k < 40; k++)
            b[k] = (struct session_ball){20 + 9 * k, 30 + (k % 5) * 30, 0.5 * k, -0.25 * k,
                                         1 + k % 3, 3, 1000u + (unsigned)k};
        session_group(&one, 1);
        for (int k = 0; k < 40; k++)
            CHECK(session_add_ball(&one, b[k].x, b[k].y, b[k].vx, b[k].vy, b[k].m, b[k].r,
                                   b[k].tag) == 0);
        session_group(&one, 0);
        CHECK(session_add_balls(&many, b, 40) == 0);
        CHECK(many.s.n == 42 && same_state(&one, &many));
        for (int k = 0; k < 5; k++) {
            session_forward(&one);
            session_forward(&many);
        }
        CHECK(same_state(&one, &many));
        for (int k = 0; k < 6; k++) {
            session_back(&one);
            session_back(&many);
        }
        CHECK(many.s.n == 2 && same_state(&one, &many));
        for (int k = 0; k < 6; k++) {
            session_forward(&one);
            session_forward(&many);
        }
        CHECK(many.s.n == 42 && same_state(&one, &many));
        /* a refused ball refuses them all, saying which */
        b[3].m = -1;
        CHECK(session_add_balls(&many, b, 40) == -1 && many.s.n == 42);
        CHECK(many.msg && strcmp(many.msg, "mass must be > 0") == 0);
        session_free(&one);
        session_free(&many);
    }
}

void test_limits(void)
{
    test_add_balls();
    test_visible();
    test_tokens();
    test_command_full();
    test_script_items();
}
