/*
 * test_limits.c - issue 27: what is printed stays printable, what is
 * parsed is all of it, and what is added is not quadratic.
 */
#include "test.h"

#include "command.h"
#include "script.h"
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

void test_limits(void)
{
    test_visible();
    test_command_full();
    test_script_items();
}
