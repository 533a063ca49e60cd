/*
 * lesson.c - the lesson format: parse and build the scene (the answers
 * are measured in lesson_measure.c; see lesson.h).
 */
#include "lesson.h"

#include "scene.h"
#include "script.h"
#include "sim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ===== Quantities ===== */

static const struct {
    const char *name;
    int balls;        /* ball numbers it takes: 0, 1 or 2 */
    int what;         /* with them */
    int total;        /* without them (a name that is both: px, py, KE), or -1 */
} quantities[] = {
    {"x", 1, LESSON_X, -1},         {"y", 1, LESSON_Y, -1},
    {"vx", 1, LESSON_VX, -1},       {"vy", 1, LESSON_VY, -1},
    {"v", 1, LESSON_SPEED, -1},     {"px", 1, LESSON_PX, LESSON_SUM_PX},
    {"py", 1, LESSON_PY, LESSON_SUM_PY}, {"KE", 1, LESSON_KE_BALL, LESSON_KE},
    {"m", 1, LESSON_M, -1},         {"moved", 1, LESSON_MOVED, -1},
    {"angle", 2, LESSON_ANGLE, -1}, {"p", 0, LESSON_SUM_P, -1},
    {"PE", 0, LESSON_PE, -1},       {"E", 0, LESSON_E, -1},
    {"dissipated", 0, LESSON_DISSIPATED, -1}, {"contacts", 0, LESSON_CONTACTS, -1},
    {"t", 0, LESSON_T, -1},         {"kT", 0, LESSON_KT, -1},
    {"cmvx", 0, LESSON_CMVX, -1},   {"cmvy", 0, LESSON_CMVY, -1},
};
#define NQUANTITIES (sizeof quantities / sizeof *quantities)

const char *lesson_quantity_names(void)
{
    return "x, y, vx, vy, v, px, py, KE, m, moved N; angle N M; px, py, p, KE, PE, E, "
           "dissipated, contacts, t, kT, cmvx, cmvy";
}

/* Case-insensitive comparison of the token [s, s+len) with @p name. */
static int same_word(const char *s, size_t len, const char *name)
{
    if (strlen(name) != len)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char a = s[i], b = name[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return 1;
}

/* ===== Lines and tokens ===== */

struct parser {
    struct scene_error *err;
    int line;
};

/* A copy of [s, e) as a string, tabs made spaces, or NULL (no memory). */
static char *copy(const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    char *c = malloc(n + 1);
    if (c) {
        for (size_t i = 0; i < n; i++)
            c[i] = s[i] == '\t' ? ' ' : s[i];
        c[n] = 0;
    }
    return c;
}

/* Appends [s, e) to *str after @p sep (none when *str is NULL). */
static int append(char **str, const char *sep, const char *s, const char *e)
{
    size_t old = *str ? strlen(*str) : 0, ns = *str ? strlen(sep) : 0, n = (size_t)(e - s);
    char *c = realloc(*str, old + ns + n + 1);
    if (!c)
        return -1;
    memcpy(c + old, sep, ns);
    for (size_t i = 0; i < n; i++)
        c[old + ns + i] = s[i] == '\t' ? ' ' : s[i];
    c[old + ns + n] = 0;
    *str = c;
    return 0;
}

/* The text after the directive word: a title, a line, a question. Checks
 * its length and that it holds no control byte. */
static int rest_text(struct parser *ps, const char *what, const char *s, const char *e,
                     int needed)
{
    text_trim(&s, &e);
    if (needed && s == e)
        return TEXT_FAIL(ps, "%s: the text is missing", what);
    if ((size_t)(e - s) > LESSON_LINE_MAX)
        return TEXT_FAIL(ps, "%s: longer than %d bytes", what, LESSON_LINE_MAX);
    for (const char *c = s; c < e; c++)
        if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
            return TEXT_FAIL(ps, "%s: a control character (byte %d)", what,
                             (int)(unsigned char)*c);
    return 0;
}

/* A ball number from 1 into a 0-based index. */
static int ball_number(struct parser *ps, struct text_token t, size_t *ball)
{
    char b[64];
    if (!text_digits(t) || t.len > 9 || (t.s[0] == '0'))
        return TEXT_FAIL(ps, "ask: '%s' is not a ball number (1, 2, ...)",
                         text_shown(t, b, sizeof b));
    size_t v = 0;
    for (size_t i = 0; i < t.len; i++)
        v = v * 10 + (size_t)(t.s[i] - '0');
    *ball = v - 1;
    return 0;
}

/* The quantity after '=' in [s, e). */
static int parse_quantity(struct parser *ps, const char *s, const char *e,
                          struct lesson_quantity *q)
{
    struct text_token t, n[3];
    char b[64];
    if (!text_next(&s, e, &t))
        return TEXT_FAIL(ps, "ask: no quantity after '='");
    size_t k = 0;
    while (k < 3 && text_next(&s, e, &n[k]))
        k++;
    for (size_t i = 0; i < NQUANTITIES; i++) {
        if (!same_word(t.s, t.len, quantities[i].name))
            continue;
        memset(q, 0, sizeof *q);
        int want = quantities[i].balls;
        if (k == 0 && quantities[i].total >= 0) {
            q->what = quantities[i].total;
            return 0;
        }
        if ((int)k < want)
            return TEXT_FAIL(ps, want == 2 ? "ask: %s needs two ball numbers"
                                           : "ask: %s needs a ball number",
                             quantities[i].name);
        if ((int)k > want)
            return TEXT_FAIL(ps, "ask: extra '%s' after the quantity",
                             text_shown(n[want], b, sizeof b));
        q->what = quantities[i].what;
        if (want >= 1 && ball_number(ps, n[0], &q->ball))
            return -1;
        if (want == 2 && ball_number(ps, n[1], &q->ball2))
            return -1;
        return 0;
    }
    return TEXT_FAIL(ps, "ask: unknown quantity '%s' (use %s)", text_shown(t, b, sizeof b),
                     lesson_quantity_names());
}

/* `ask QUESTION = QUANTITY` after the word, [s, e). */
static int parse_ask(struct parser *ps, struct lesson_step *st, const char *s, const char *e)
{
    const char *eq = NULL;
    for (const char *c = s; c < e; c++)
        if (*c == '=')
            eq = c;
    if (!eq)
        return TEXT_FAIL(ps, "ask: no '= QUANTITY' after the question");
    if (rest_text(ps, "ask", s, eq, 1))
        return -1;
    if (parse_quantity(ps, eq + 1, e, &st->q))
        return -1;
    text_trim(&s, &eq);
    st->ask = copy(s, eq);
    st->ask_line = ps->line;
    return st->ask ? 0 : TEXT_FAIL(ps, "out of memory");
}

/* The scene directives a lesson may give before its steps: a hint when one
 * turns up inside a step. */
static int scene_word(struct text_token t)
{
    static const char *const words[] = {"table", "k", "dt", "title", "cue", "walls",
                                        "contact", "restitution", "gravity", "ball", "rack",
                                        "random", "friction", "field", "open", "scene"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == t.len && !memcmp(words[i], t.s, t.len))
            return 1;
    return 0;
}

void lesson_free(struct lesson *ls)
{
    for (size_t i = 0; i < ls->nstep; i++) {
        free(ls->step[i].title);
        free(ls->step[i].text);
        free(ls->step[i].keys);
        free(ls->step[i].ask);
    }
    free(ls->step);
    free(ls->title);
    free(ls->scene_file);
    free(ls->text);
    memset(ls, 0, sizeof *ls);
}

/* The text without a byte order mark, lone CRs made LFs, into a new
 * buffer of *len bytes (CR LF kept: the line splitter drops the CR). */
static char *normalise(const char *text, size_t *len)
{
    if (*len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        *len -= 3;
    }
    char *c = malloc(*len + 1);
    if (!c)
        return NULL;
    memcpy(c, text, *len);
    c[*len] = 0;
    for (size_t i = 0; i < *len; i++)
        if (c[i] == '\r' && (i + 1 == *len || c[i + 1] != '\n'))
            c[i] = '\n';
    return c;
}

int lesson_detect(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    while (p < end) {
        const char *e = p;
        while (e < end && *e != '\n' && *e != '\r')
            e++;
        const char *s = p;
        struct text_token t;
        if (text_next(&s, e, &t) && t.s[0] != '#')
            return t.len == 6 && !memcmp(t.s, "lesson", 6);
        p = e < end ? e + 1 : end;
    }
    return 0;
}

/* One line [s, e) of the lesson. *in_steps: a step has begun. */
static int parse_line(struct parser *ps, struct lesson *ls, char *s, char *e, int *started)
{
    const char *p = s;
    struct text_token w;
    char b[64];
    if (!text_next(&p, e, &w) || w.s[0] == '#')
        return 0;
    const char *rest = p, *rend = e;
#define IS(word) (w.len == sizeof word - 1 && !memcmp(w.s, word, sizeof word - 1))
    if (!ls->title) {
        if (!IS("lesson"))
            return TEXT_FAIL(ps, "a lesson starts with 'lesson TITLE', not '%s'",
                             text_shown(w, b, sizeof b));
        if (rest_text(ps, "lesson", rest, rend, 1))
            return -1;
        text_trim(&rest, &rend);
        ls->title = copy(rest, rend);
        memset(s, ' ', (size_t)(e - s));
        return ls->title ? 0 : TEXT_FAIL(ps, "out of memory");
    }
    if (IS("lesson"))
        return TEXT_FAIL(ps, "a second 'lesson' line");
    if (IS("step")) {
        if (ls->nstep == LESSON_STEPS_MAX)
            return TEXT_FAIL(ps, "more than %d steps", LESSON_STEPS_MAX);
        if (rest_text(ps, "step", rest, rend, 1))
            return -1;
        if (!*started)
            ls->text_len = (size_t)(s - ls->text);
        *started = 1;
        struct lesson_step *ns = realloc(ls->step, (ls->nstep + 1) * sizeof *ns);
        if (!ns)
            return TEXT_FAIL(ps, "out of memory");
        ls->step = ns;
        struct lesson_step *st = &ls->step[ls->nstep++];
        memset(st, 0, sizeof *st);
        st->line = ps->line;
        text_trim(&rest, &rend);
        st->title = copy(rest, rend);
        return st->title ? 0 : TEXT_FAIL(ps, "out of memory");
    }
    if (!*started) {
        if (IS("say") || IS("keys") || IS("ask"))
            return TEXT_FAIL(ps, "'%s' before the first step (a step starts with 'step TITLE')",
                             text_shown(w, b, sizeof b));
        if (IS("scene")) {
            if (ls->scene_file)
                return TEXT_FAIL(ps, "a second 'scene' line");
            text_trim(&rest, &rend);
            if (rest == rend)
                return TEXT_FAIL(ps, "scene: the file name is missing");
            for (const char *c = rest; c < rend; c++)
                if ((unsigned char)*c < 0x20 || *c == 0x7f)
                    return TEXT_FAIL(ps, "scene: a control character in the file name");
            ls->scene_file = copy(rest, rend);
            ls->scene_line = ps->line;
            memset(s, ' ', (size_t)(e - s));
            return ls->scene_file ? 0 : TEXT_FAIL(ps, "out of memory");
        }
        return 0; /* a scene directive: lesson_scene reads it where it stands */
    }
    struct lesson_step *st = &ls->step[ls->nstep - 1];
    if (IS("say")) {
        if (st->nlines == LESSON_SAY_MAX)
            return TEXT_FAIL(ps, "a step says at most %d lines", LESSON_SAY_MAX);
        if (rest_text(ps, "say", rest, rend, 0))
            return -1;
        text_trim(&rest, &rend);
        if (st->nlines == 0 ? !(st->text = copy(rest, rend)) : append(&st->text, "\n", rest, rend))
            return TEXT_FAIL(ps, "out of memory");
        st->nlines++;
        return 0;
    }
    if (IS("keys")) {
        text_trim(&rest, &rend);
        if (rest == rend)
            return TEXT_FAIL(ps, "keys: no keys");
        char *line = copy(rest, rend), msg[200];
        if (!line)
            return TEXT_FAIL(ps, "out of memory");
        struct script_item *items;
        int n = script_parse(line, &items, msg, sizeof msg);
        free(line);
        if (n < 0)
            return TEXT_FAIL(ps, "keys: %s", msg);
        /* Opening a lesson plays its keys: none may write a file (R
         * records, w saves); the reader presses those. */
        for (int i = 0; i < n; i++)
            if (items[i].kind == SCRIPT_KEY && (items[i].key == 'R' || items[i].key == 'w')) {
                int key = items[i].key;
                free(items);
                return TEXT_FAIL(ps, "keys: %c writes files, which a lesson's keys do not "
                                     "(say so, and the reader presses it)", key);
            }
        free(items);
        if (append(&st->keys, " ", rest, rend))
            return TEXT_FAIL(ps, "out of memory");
        return 0;
    }
    if (IS("ask")) {
        if (st->ask)
            return TEXT_FAIL(ps, "a step asks one question (the first is on line %d)",
                             st->ask_line);
        return parse_ask(ps, st, rest, rend);
    }
    if (scene_word(w))
        return TEXT_FAIL(ps, "'%s' inside a step: scene lines come before the first step",
                         text_shown(w, b, sizeof b));
    return TEXT_FAIL(ps, "unknown directive '%s' in a step (use step, say, keys or ask)",
                     text_shown(w, b, sizeof b));
#undef IS
}

int lesson_parse(struct lesson *ls, const char *text, size_t len, struct scene_error *err)
{
    memset(ls, 0, sizeof *ls);
    memset(err, 0, sizeof *err);
    struct parser ps = {err, 0};
    size_t n = len;
    ls->text = normalise(text, &n);
    if (!ls->text)
        return text_fail(err, 1, "out of memory");
    ls->text_len = n;
    int started = 0;
    char *p = ls->text, *end = ls->text + n;
    while (p < end) {
        ps.line++;
        char *e = p;
        while (e < end && *e != '\n')
            e++;
        char *le = e > p && e[-1] == '\r' ? e - 1 : e;
        if (memchr(p, 0, (size_t)(le - p))) {
            lesson_free(ls);
            return text_fail(err, ps.line, "a NUL byte");
        }
        if (parse_line(&ps, ls, p, le, &started)) {
            lesson_free(ls);
            return -1;
        }
        p = e < end ? e + 1 : end;
    }
    if (!ls->title) {
        lesson_free(ls);
        return text_fail(err, ps.line > 0 ? ps.line : 1,
                         "a lesson starts with 'lesson TITLE': the file has none");
    }
    if (ls->nstep == 0) {
        lesson_free(ls);
        return text_fail(err, ps.line, "the lesson has no step ('step TITLE')");
    }
    return 0;
}

char *lesson_file_path(const struct lesson *ls, const char *lesson_path)
{
    const char *f = ls->scene_file ? ls->scene_file : "";
    size_t dir = 0;
    if (f[0] != '/' && lesson_path && strcmp(lesson_path, "-") != 0) {
        const char *slash = strrchr(lesson_path, '/');
        dir = slash ? (size_t)(slash - lesson_path) + 1 : 0;
    }
    size_t fl = strlen(f);
    char *path = malloc(dir + fl + 1);
    if (!path)
        return NULL;
    memcpy(path, lesson_path ? lesson_path : "", dir);
    memcpy(path + dir, f, fl + 1);
    return path;
}

int lesson_scene(const struct lesson *ls, struct scene *sc, struct scene_error *err)
{
    if (!ls->scene_file) {
        if (scene_parse(sc, ls->text, ls->text_len, err))
            return -1;
        sc->format = SCENE_FORMAT_LESSON; /* written back as a native scene */
        return 0;
    }
    /* the lesson's own directives on top, each at its line */
    int line = 0;
    const char *p = ls->text, *end = ls->text + ls->text_len;
    while (p < end) {
        line++;
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        const char *s = p, *le = e > p && e[-1] == '\r' ? e - 1 : e;
        struct text_token t;
        if (text_next(&s, le, &t) && t.s[0] != '#' &&
            scene_parse_line(sc, p, (size_t)(le - p), err)) {
            err->line = line;
            scene_free(sc);
            return -1;
        }
        p = e < end ? e + 1 : end;
    }
    return 0;
}

int lesson_parse_scene(struct scene *sc, const char *text, size_t len,
                       struct scene_error *err)
{
    struct lesson ls;
    memset(sc, 0, sizeof *sc);
    if (lesson_parse(&ls, text, len, err))
        return -1;
    if (ls.scene_file) {
        int line = ls.scene_line;
        lesson_free(&ls);
        return text_fail(err, line, "scene FILE: the lesson must be read from a file");
    }
    int rc = lesson_scene(&ls, sc, err);
    lesson_free(&ls);
    return rc;
}
