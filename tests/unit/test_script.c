/*
 * test_script.c - the key script parser: keys, names, control keys, waits,
 * clicks, repeats, and the messages of bad scripts.
 */
#include "script.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static int parse(const char *s, struct script_item **it, char *err)
{
    return script_parse(s, it, err, 160);
}

void test_script(void)
{
    struct script_item *it;
    char err[160];
    int n = parse(". , K space enter esc tab btab up down left right C-l ?", &it, err);
    CHECK(n == 14);
    if (n == 14) {
        CHECK(it[0].kind == SCRIPT_KEY && it[0].key == '.');
        CHECK(it[2].key == 'K');
        CHECK(it[3].key == ' ' && it[4].key == '\r' && it[5].key == 27 && it[6].key == '\t');
        CHECK(it[7].key == SCRIPT_BTAB && it[8].key == SCRIPT_UP && it[11].key == SCRIPT_RIGHT);
        CHECK(it[12].key == 12); /* Control-L */
        CHECK(it[13].key == '?');
        free(it);
    }
    n = parse("  <t 40>\t<t 0.5>\n<click 3 7>  ", &it, err);
    CHECK(n == 3);
    if (n == 3) {
        CHECK(it[0].kind == SCRIPT_WAIT && it[0].t == 40);
        CHECK(it[1].kind == SCRIPT_WAIT && it[1].t == 0.5);
        CHECK(it[2].kind == SCRIPT_CLICK && it[2].x == 3 && it[2].y == 7);
        free(it);
    }
    n = parse("<press 1 2> <drag 3 4> <release 5 6> <wheel up 7 8> <wheel down 9 10 mod>", &it, err);
    CHECK(n == 5);
    if (n == 5) {
        CHECK(it[0].kind == SCRIPT_MOUSE && it[0].mouse == SCRIPT_PRESS && it[0].x == 1 && it[0].y == 2);
        CHECK(it[1].mouse == SCRIPT_DRAG && it[2].mouse == SCRIPT_RELEASE);
        CHECK(it[3].mouse == SCRIPT_WHEEL_UP && it[3].mod == 0);
        CHECK(it[4].mouse == SCRIPT_WHEEL_DOWN && it[4].mod == 1 && it[4].y == 10);
        free(it);
    }
    n = parse("<:k 7> .", &it, err);
    CHECK(n == 6);
    if (n == 6) {
        CHECK(it[0].key == ':' && it[1].key == 'k' && it[2].key == ' ' && it[3].key == '7');
        CHECK(it[4].key == '\r' && it[5].key == '.');
        free(it);
    }
    n = parse("up*5 <t 1>*3 .*2", &it, err);
    CHECK(n == 10);
    if (n == 10) {
        CHECK(it[4].key == SCRIPT_UP && it[5].kind == SCRIPT_WAIT && it[8].key == '.');
        free(it);
    }
    n = parse("", &it, err);
    CHECK(n == 0);
    if (n == 0)
        free(it);
    /* bad scripts: nothing allocated, a message */
    static const struct {
        const char *s, *msg;
    } bad[] = {
        {"foo", "'foo': not a key"},
        {"<t -1>", "<t -1>: the wait must be a finite time >= 0"},
        {"<t nan>", "the wait must be a finite time"},
        {"<t 1", "'<t 1': no closing '>'"},
        {"<x 1>", "<x 1>: not <t TIME>, <click|press|drag|release COL ROW>"},
        {"<click -1 2>", "column and row from 0"},
        {"up*0", "a count from 1 to 100000 after '*'"},
        {"up*100001", "a count from 1 to 100000"},
        {"<t 1>x", "put blanks between keys"},
        {"C-1", "not a key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        CHECK(parse(bad[i].s, &it, err) == -1);
        if (!strstr(err, bad[i].msg))
            printf("script '%s': got '%s'\n", bad[i].s, err);
        CHECK(strstr(err, bad[i].msg) != NULL);
    }
}
