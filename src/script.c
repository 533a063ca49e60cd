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
    {"pgdn", SCRIPT_PGDN},
};

/* <press C R>, <drag C R>, <release C R>, <wheel up|down C R [mod]>: 1
 * when @p body is one, with *it filled in. */
static int mouse_item(const char *body, struct script_item *it)
{
    static const struct {
        const char *fmt, *fmt_mod;
        int kind;
    } forms[] = {
        {" press %d %d %c", NULL, SCRIPT_PRESS},
        {" drag %d %d %c", NULL, SCRIPT_DRAG},
        {" release %d %d %c", NULL, SCRIPT_RELEASE},
        {" wheel up %d %d %c", " wheel up %d %d %7s %c", SCRIPT_WHEEL_UP},
        {" wheel down %d %d %c", " wheel down %d %d %7s %c", SCRIPT_WHEEL_DOWN},
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char extra, word[8];
        int x, y, mod = -1;
        if (sscanf(body, forms[i].fmt, &x, &y, &extra) == 2)
            mod = 0;
        else if (forms[i].fmt_mod && sscanf(body, forms[i].fmt_mod, &x, &y, word, &extra) == 3 &&
                 !strcmp(word, "mod"))
            mod = 1;
        if (mod >= 0) {
            it->kind = SCRIPT_MOUSE;
            it->mouse = forms[i].kind;
            it->x = x;
            it->y = y;
            it->mod = mod;
            return 1;
        }
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
            char body[64];
            size_t len = (size_t)(end - p - 1);
            if (len >= sizeof body)
                len = sizeof body - 1;
            memcpy(body, p + 1, len);
            body[len] = 0;
            double t;
            int x, y;
            char extra;
            if (sscanf(body, " t %lf %c", &t, &extra) == 1) {
                if (!(t >= 0 && t <= 1e300)) {
                    snprintf(err, errsize, "<%s>: the wait must be a finite time >= 0", body);
                    goto fail;
                }
                one.kind = SCRIPT_WAIT;
                one.t = t;
            } else if (sscanf(body, " click %d %d %c", &x, &y, &extra) == 2) {
                if (x < 0 || y < 0 || x > 10000 || y > 10000) {
                    snprintf(err, errsize, "<%s>: column and row from 0", body);
                    goto fail;
                }
                one.kind = SCRIPT_CLICK;
                one.x = x;
                one.y = y;
            } else if (mouse_item(body, &one)) {
                if (one.x < 0 || one.y < 0 || one.x > 10000 || one.y > 10000) {
                    snprintf(err, errsize, "<%s>: column and row from 0", body);
                    goto fail;
                }
            } else {
                snprintf(err, errsize, "<%s>: not <t TIME>, <click|press|drag|release "
                         "COL ROW> or <wheel up|down COL ROW [mod]>", body);
                goto fail;
            }
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
            } else {
                for (size_t i = 0; i < sizeof key_names / sizeof *key_names; i++)
                    if (strlen(key_names[i].name) == len && !strncmp(p, key_names[i].name, len))
                        one.key = key_names[i].key;
            }
            if (one.key < 0) {
                snprintf(err, errsize, "'%.*s': not a key (a character, space, enter, "
                         "esc, tab, btab, up, down, left, right, pgup, pgdn, C-x)", (int)(len < 20 ? len : 20), p);
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
