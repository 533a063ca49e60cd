/*
 * script.c - key scripts: see script.h.
 */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"space", ' '}, {"enter", '\r'}, {"esc", 27}, {"tab", '\t'},
    {"up", SCRIPT_UP}, {"down", SCRIPT_DOWN}, {"left", SCRIPT_LEFT}, {"right", SCRIPT_RIGHT},
    {"backspace", SCRIPT_BACKSPACE}, {"btab", SCRIPT_BTAB}, {"pgup", SCRIPT_PGUP},
    {"pgdn", SCRIPT_PGDN}, {"f5", SCRIPT_F5},
};

/* The longest <...> item, without its brackets. */
#define ITEM_MAX 63

/* Splits @p body at blanks into at most 6 words in @p w. @return the count,
 * 7 when there are more. */
static int split_words(char *body, char *w[6])
{
    int n = 0;
    for (char *p = body;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            *p++ = 0;
        if (!*p)
            return n;
        if (n == 6)
            return 7;
        w[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
    }
}

/* A column or row: decimal digits alone, at most 10000 (no sign, and no
 * wrap: 4294967296 is no 0). @return it, or -1. */
static int cell(const char *w)
{
    int v = 0;
    if (!*w)
        return -1;
    for (; *w; w++)
        if (*w < '0' || *w > '9' || (v = v * 10 + (*w - '0')) > 10000)
            return -1;
    return v;
}

/* The item <body> into *it. @return 0, or -1 with the message in err. */
static int bracket_item(const char *item, struct script_item *it, char *err, size_t errsize)
{
    static const struct {
        const char *name;
        int kind, mouse;
    } clicks[] = {
        {"click", SCRIPT_CLICK, 0},
        {"press", SCRIPT_MOUSE, SCRIPT_PRESS},
        {"drag", SCRIPT_MOUSE, SCRIPT_DRAG},
        {"release", SCRIPT_MOUSE, SCRIPT_RELEASE},
    };
    char body[ITEM_MAX + 1], *w[6];
    snprintf(body, sizeof body, "%s", item);
    int n = split_words(body, w);
    if (n == 2 && !strcmp(w[0], "t")) {
        char *end;
        double t = strtod(w[1], &end);
        if (end == w[1] || *end || !(t >= 0 && t <= 1e300)) {
            snprintf(err, errsize, "<%s>: the wait must be a finite time >= 0", item);
            return -1;
        }
        it->kind = SCRIPT_WAIT;
        it->t = t;
        return 0;
    }
    if (n == 1 && !strcmp(w[0], "lt")) {
        it->kind = SCRIPT_KEY;
        it->key = '<';
        return 0;
    }
    int wheel = n >= 4 && !strcmp(w[0], "wheel") &&
                (!strcmp(w[1], "up") || !strcmp(w[1], "down")) &&
                (n == 4 || (n == 5 && !strcmp(w[4], "mod")));
    for (size_t i = 0; i < sizeof clicks / sizeof *clicks && !wheel; i++)
        if (n == 3 && !strcmp(w[0], clicks[i].name)) {
            it->kind = clicks[i].kind;
            it->mouse = clicks[i].mouse;
        }
    if (wheel) {
        it->kind = SCRIPT_MOUSE;
        it->mouse = w[1][0] == 'u' ? SCRIPT_WHEEL_UP : SCRIPT_WHEEL_DOWN;
        it->mod = n == 5;
    } else if (it->kind != SCRIPT_CLICK && it->kind != SCRIPT_MOUSE) {
        snprintf(err, errsize, "<%s>: not <t TIME>, <click|press|drag|release "
                 "COL ROW>, <wheel up|down COL ROW [mod]> or <lt>", item);
        return -1;
    }
    it->x = cell(w[n == 3 ? 1 : 2]);
    it->y = cell(w[n == 3 ? 2 : 3]);
    if (it->x < 0 || it->y < 0) {
        snprintf(err, errsize, "<%s>: column and row from 0 to 10000", item);
        return -1;
    }
    return 0;
}

int script_parse(const char *s, struct script_item **items, char *err, size_t errsize)
{
    size_t cap = 16, n = 0;
    struct script_item *it = malloc(cap * sizeof *it);
    if (!it) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        const char *tok = p;
        struct script_item one = {0};
        if (p[0] == '<' && p[1] == ':') {
            /* <:LINE>: ':', the line typed, Enter */
            const char *end = strchr(p, '>');
            if (!end) {
                snprintf(err, errsize, "'%.20s': no closing '>'", tok);
                goto fail;
            }
            for (const char *c = p + 1; c <= end; c++) {
                if (n + 1 >= cap) {
                    struct script_item *ni = cap > 1000000 ? NULL : realloc(it, 2 * cap * sizeof *it);
                    if (!ni) {
                        snprintf(err, errsize, "the script is too long");
                        goto fail;
                    }
                    it = ni;
                    cap *= 2;
                }
                struct script_item k = {0};
                k.kind = SCRIPT_KEY;
                k.key = c == end ? '\r' : (unsigned char)*c;
                it[n++] = k;
            }
            p = end + 1;
            continue;
        }
        if (*p == '<') {
            const char *end = strchr(p, '>');
            if (!end) {
                snprintf(err, errsize, "'%.20s': no closing '>'", tok);
                goto fail;
            }
            size_t len = (size_t)(end - p - 1);
            if (len > ITEM_MAX) {
                snprintf(err, errsize, "'%.20s...': an item <...> is at most %d "
                         "characters", tok, ITEM_MAX);
                goto fail;
            }
            char body[ITEM_MAX + 1];
            memcpy(body, p + 1, len);
            body[len] = 0;
            if (bracket_item(body, &one, err, errsize))
                goto fail;
            p = end + 1;
        } else {
            const char *end = p;
            while (*end && *end != ' ' && *end != '\t' && *end != '\n' &&
                   !(*end == '*' && end > p))
                end++;
            size_t len = (size_t)(end - p);
            one.kind = SCRIPT_KEY;
            one.key = -1;
            if (len == 1 && (unsigned char)*p > ' ' && (unsigned char)*p < 127) {
                one.key = (unsigned char)*p;
            } else if (len == 3 && p[0] == 'C' && p[1] == '-' &&
                       ((p[2] >= 'a' && p[2] <= 'z') || (p[2] >= 'A' && p[2] <= 'Z'))) {
                one.key = (p[2] | 0x20) - 'a' + 1;
            } else if (len == 3 && p[0] == 'M' && p[1] == '-' && (unsigned char)p[2] > ' ' &&
                       (unsigned char)p[2] < 127) {
                one.key = SCRIPT_ALT | (unsigned char)p[2];
            } else {
                for (size_t i = 0; i < sizeof key_names / sizeof *key_names; i++)
                    if (strlen(key_names[i].name) == len && !strncmp(p, key_names[i].name, len))
                        one.key = key_names[i].key;
            }
            if (one.key < 0) {
                snprintf(err, errsize, "'%.*s': not a key (a character, space, enter, "
                         "esc, tab, btab, up, down, left, right, pgup, pgdn, f5, C-x, M-x)", (int)(len < 20 ? len : 20), p);
                goto fail;
            }
            p = end;
        }
        long times = 1;
        if (*p == '*') {
            char *e;
            times = strtol(p + 1, &e, 10);
            if (e == p + 1 || times < 1 || times > 100000) {
                snprintf(err, errsize, "'%.20s': a count from 1 to 100000 after '*'", tok);
                goto fail;
            }
            p = e;
        }
        if (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            snprintf(err, errsize, "'%.20s': put blanks between keys", tok);
            goto fail;
        }
        for (long i = 0; i < times; i++) {
            if (n == cap) {
                struct script_item *ni = cap > 1000000 ? NULL : realloc(it, 2 * cap * sizeof *it);
                if (!ni) {
                    snprintf(err, errsize, "the script is too long");
                    goto fail;
                }
                it = ni;
                cap *= 2;
            }
            it[n++] = one;
        }
    }
    *items = it;
    return (int)n;
fail:
    free(it);
    return -1;
}
