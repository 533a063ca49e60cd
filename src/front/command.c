/*
 * command.c - the command line: the scene parser on one line, the edit
 * verbs, the line editor. See command.h.
 */
#include "command.h"

#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXTOK = 8 };

static int split(const char *s, struct text_token *tok)
{
    int n = 0;
    size_t i = 0, len = strlen(s);
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == len || s[i] == '#')
            break;
        size_t j = i;
        while (j < len && s[j] != ' ' && s[j] != '\t')
            j++;
        if (n < MAXTOK)
            tok[n] = (struct text_token){s + i, j - i};
        n++;
        i = j;
    }
    return n;
}

static int is(struct text_token t, const char *w)
{
    return t.len == strlen(w) && memcmp(t.s, w, t.len) == 0;
}

/* The edit verbs, in the scene parser's wording. @return 1 when the line
 * was one (rc in *rc), 0 when it is for the scene parser. */
static int verb(struct command *c, const struct text_token *tok, int ntok,
                char *err, size_t errsize, int *rc)
{
    static const struct {
        const char *name, *usage, *what[2];
        int kind, fields, positive;
    } verbs[] = {
        {"m", "m M", {"mass", NULL}, COMMAND_MASS, 1, 1},
        {"r", "r R", {"radius", NULL}, COMMAND_RADIUS, 1, 1},
        {"v", "v VX VY", {"vx", "vy"}, COMMAND_VELOCITY, 2, 0},
        {"x", "x X Y", {"x", "y"}, COMMAND_POSITION, 2, 0},
        {"del", "del", {NULL, NULL}, COMMAND_DELETE, 0, 0},
        {"step", "step N", {"step", NULL}, COMMAND_STEP, 1, 1},
    };
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        if (!is(tok[0], verbs[i].name))
            continue;
        *rc = -1;
        char buf[64];
        if (ntok - 1 < verbs[i].fields) {
            snprintf(err, errsize, "%s: missing field (expected %s)", verbs[i].usage,
                     verbs[i].usage);
            return 1;
        }
        if (ntok - 1 > verbs[i].fields) {
            snprintf(err, errsize, "%s: extra field '%s' (expected %s)", verbs[i].usage,
                     text_str(tok[verbs[i].fields + 1], buf, sizeof buf), verbs[i].usage);
            return 1;
        }
        double v[2] = {0, 0};
        for (int f = 0; f < verbs[i].fields; f++)
            if (text_number(tok[1 + f], verbs[i].what[f], &v[f], err, errsize))
                return 1;
        if (verbs[i].positive && !(v[0] > 0)) {
            snprintf(err, errsize, "%s must be > 0", verbs[i].what[0]);
            return 1;
        }
        c->kind = verbs[i].kind;
        c->a = v[0];
        c->b = v[1];
        *rc = 0;
        return 1;
    }
    return 0;
}

int command_parse(struct command *c, const char *line, const struct sim *s,
                  char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    err[0] = 0;
    struct text_token tok[MAXTOK];
    int ntok = split(line, tok);
    if (ntok == 0)
        return 0;
    int rc;
    if (verb(c, tok, ntok, err, errsize, &rc))
        return rc;
    /* The scene parser on a scene of the current state. */
    struct scene sc;
    memset(&sc, 0, sizeof sc);
    sc.p = s->p;
    sc.cap = s->n ? s->n : 1;
    sc.balls = malloc(sc.cap * sizeof *sc.balls);
    if (!sc.balls) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        sc.balls[b] = (struct scene_ball){s->x[i], s->y[i], s->vx[i], s->vy[i],
                                          s->m[i], s->r[i], 0, 0};
    }
    sc.n = s->n;
    struct scene_error e;
    if (scene_parse_line(&sc, line, strlen(line), &e)) {
        snprintf(err, errsize, "%s", e.msg);
        scene_free(&sc);
        return -1;
    }
    if (is(tok[0], "cue")) {
        c->kind = COMMAND_CUE;
        c->a = (double)sc.cue;
    } else if (is(tok[0], "title")) {
        c->kind = COMMAND_TITLE;
        c->title = sc.title;
        sc.title = NULL;
    } else if (sc.n > s->n) {
        c->kind = COMMAND_BALLS;
        c->n = sc.n - s->n;
        c->balls = malloc(c->n * sizeof *c->balls);
        if (!c->balls) {
            snprintf(err, errsize, "out of memory");
            scene_free(&sc);
            return -1;
        }
        memcpy(c->balls, sc.balls + s->n, c->n * sizeof *c->balls);
    } else {
        c->kind = COMMAND_PARAMS;
        c->p = sc.p;
    }
    scene_free(&sc);
    return 0;
}

void command_free(struct command *c)
{
    free(c->balls);
    free(c->title);
    memset(c, 0, sizeof *c);
}

/* === The line editor === */

void command_open(struct command_line *cl)
{
    cl->buf[0] = 0;
    cl->len = cl->cur = 0;
    cl->browse = cl->nhist;
    cl->over = 0;
}

void command_fill(struct command_line *cl, const char *text, size_t cur)
{
    command_open(cl);
    size_t n = strlen(text);
    if (n > COMMAND_MAX)
        n = COMMAND_MAX;
    memcpy(cl->buf, text, n);
    cl->buf[n] = 0;
    cl->len = n;
    cl->cur = cur < n ? cur : n;
}

static void show(struct command_line *cl, const char *s)
{
    size_t n = strlen(s);
    if (n > COMMAND_MAX)
        n = COMMAND_MAX;
    memmove(cl->buf, s, n);
    cl->buf[n] = 0;
    cl->len = cl->cur = n;
    cl->over = 0;
}

/* A UTF-8 continuation byte. */
static int cont(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

int command_key(struct command_line *cl, int key)
{
    switch (key) {
    case COMMAND_KEY_ENTER:
        if (cl->over)
            return 2; /* keys were lost: the line is not what was typed */
        if (cl->len > 0 && (cl->nhist == 0 || strcmp(cl->hist[cl->nhist - 1], cl->buf))) {
            if (cl->nhist == COMMAND_HISTORY) {
                memmove(cl->hist[0], cl->hist[1], sizeof cl->hist[0] * (COMMAND_HISTORY - 1));
                cl->nhist--;
            }
            memcpy(cl->hist[cl->nhist++], cl->buf, sizeof cl->buf);
        }
        cl->browse = cl->nhist;
        return 1;
    case COMMAND_KEY_CANCEL:
        return -1;
    case COMMAND_KEY_BACKSPACE:
        if (cl->len == 0)
            return -1; /* as in vi and less: backspace on nothing leaves */
        cl->over = 0; /* being mended */
        if (cl->cur > 0) {
            size_t from = cl->cur - 1;
            while (from > 0 && cont(cl->buf[from]))
                from--;
            memmove(cl->buf + from, cl->buf + cl->cur, cl->len - cl->cur + 1);
            cl->len -= cl->cur - from;
            cl->cur = from;
        }
        return 0;
    case COMMAND_KEY_DELETE:
        cl->over = 0;
        if (cl->cur < cl->len) {
            size_t to = cl->cur + 1;
            while (to < cl->len && cont(cl->buf[to]))
                to++;
            memmove(cl->buf + cl->cur, cl->buf + to, cl->len - to + 1);
            cl->len -= to - cl->cur;
        }
        return 0;
    case COMMAND_KEY_LEFT:
        while (cl->cur > 0 && cont(cl->buf[--cl->cur]))
            ;
        return 0;
    case COMMAND_KEY_RIGHT:
        if (cl->cur < cl->len)
            for (cl->cur++; cl->cur < cl->len && cont(cl->buf[cl->cur]); cl->cur++)
                ;
        return 0;
    case COMMAND_KEY_HOME:
        cl->cur = 0;
        return 0;
    case COMMAND_KEY_END:
        cl->cur = cl->len;
        return 0;
    case COMMAND_KEY_KILL:
        cl->buf[0] = 0;
        cl->len = cl->cur = 0;
        cl->over = 0;
        return 0;
    case COMMAND_KEY_UP:
        if (cl->browse > 0) {
            if (cl->browse == cl->nhist)
                memcpy(cl->typed, cl->buf, sizeof cl->buf);
            show(cl, cl->hist[--cl->browse]);
        }
        return 0;
    case COMMAND_KEY_DOWN:
        if (cl->browse < cl->nhist) {
            cl->browse++;
            show(cl, cl->browse == cl->nhist ? cl->typed : cl->hist[cl->browse]);
        }
        return 0;
    default:
        if (key >= 0x20 && key < 0x100 && key != 0x7f) {
            if (cl->len == COMMAND_MAX) {
                cl->over = 1;
                return 0;
            }
            memmove(cl->buf + cl->cur + 1, cl->buf + cl->cur, cl->len - cl->cur + 1);
            cl->buf[cl->cur++] = (char)key;
            cl->len++;
        }
        return 0;
    }
}
