/*
 * universe.c - parse and write the NBody universe format.
 *
 * Line-based: the count, the radius and each body stand on lines of their
 * own (as in every published universe), so that an error names its line.
 */
#include "universe.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ROW_FIELDS = 6, MAX_TOKENS = 8 };


struct uparser {
    struct scene *sc;
    struct scene_error *err;
    int line;
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}


static int tokenize(const char *s, size_t len, struct text_token *tok, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(s[i]))
            i++;
        if (i == len)
            break;
        size_t j = i;
        while (j < len && !is_space(s[j]))
            j++;
        if (n < max) {
            tok[n].s = s + i;
            tok[n].len = j - i;
        }
        n++;
        i = j;
    }
    return n;
}


int universe_detect(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (is_space(text[i]) || text[i] == '\n'))
        i++;
    size_t j = i;
    while (j < len && !is_space(text[j]) && text[j] != '\n')
        j++;
    struct text_token t = {text + i, j - i};
    return text_digits(t);
}

static int parse_number(struct uparser *ps, struct text_token t, const char *what,
                        double *out)
{
    if (text_number(t, what, out, ps->err->msg, sizeof ps->err->msg)) {
        ps->err->line = ps->line;
        return -1;
    }
    return 0;
}

static int parse_n(struct uparser *ps, const struct text_token *tok, int ntok,
                   unsigned long long *n)
{
    char buf[64];
    if (ntok != 1)
        return TEXT_FAIL(ps, "expected the body count N alone on its line, found %d "
                             "fields", ntok);
    if (!text_digits(tok[0]))
        return TEXT_FAIL(ps, "body count: '%s' is not a whole number",
                         text_shown(tok[0], buf, sizeof buf));
    errno = 0;
    unsigned long long v = strtoull(text_str(tok[0], buf, sizeof buf), NULL, 10);
    if (tok[0].len >= sizeof buf || errno == ERANGE || v < 1 || v > UNIVERSE_MAX_N)
        return TEXT_FAIL(ps, "body count must be between 1 and %llu", UNIVERSE_MAX_N);
    *n = v;
    return 0;
}

static int parse_radius(struct uparser *ps, const struct text_token *tok, int ntok,
                        double *R)
{
    if (ntok != 1)
        return TEXT_FAIL(ps, "expected the radius R alone on its line, found %d "
                             "fields", ntok);
    if (parse_number(ps, tok[0], "radius", R))
        return -1;
    if (!(*R > 0))
        return TEXT_FAIL(ps, "radius must be > 0");
    if (*R > UNIVERSE_MAX_R)
        return TEXT_FAIL(ps, "radius must be <= %g", UNIVERSE_MAX_R);
    return 0;
}

static int parse_row(struct uparser *ps, const struct text_token *tok, int ntok,
                     size_t i)
{
    static const char *const what[5] = {"x", "y", "vx", "vy", "mass"};
    struct scene *sc = ps->sc;
    if (ntok != ROW_FIELDS)
        return TEXT_FAIL(ps, "body %zu: expected 6 fields (x y vx vy mass name), "
                             "found %d", i + 1, ntok);
    if (sc->n == sc->cap) {
        size_t cap = sc->cap ? 2 * sc->cap : 64;
        struct scene_ball *nb = realloc(sc->balls, cap * sizeof *nb);
        if (!nb)
            return TEXT_FAIL(ps, "out of memory");
        sc->balls = nb;
        sc->cap = cap;
    }
    double v[5];
    for (int f = 0; f < 5; f++) {
        char label[64];
        snprintf(label, sizeof label, "body %zu: %s", i + 1, what[f]);
        if (parse_number(ps, tok[f], label, &v[f]))
            return -1;
    }
    if (v[4] == 0)
        return TEXT_FAIL(ps, "body %zu: mass must not be 0", i + 1);
    if (tok[5].len > UNIVERSE_MAX_NAME)
        return TEXT_FAIL(ps, "body %zu: name longer than %d bytes", i + 1,
                         UNIVERSE_MAX_NAME);
    char name[UNIVERSE_MAX_NAME + 1];
    text_str(tok[5], name, sizeof name);
    struct scene_ball *b = &sc->balls[i];
    memset(b, 0, sizeof *b);
    b->x = v[0];
    b->y = v[1];
    b->vx = v[2];
    b->vy = v[3];
    b->m = v[4];
    if (scene_add_name(sc, name, tok[5].len, &b->name))
        return TEXT_FAIL(ps, "out of memory");
    sc->n = i + 1;
    return 0;
}

int universe_parse(struct scene *sc, const char *text, size_t len,
                   struct scene_error *err)
{
    memset(sc, 0, sizeof *sc);
    memset(err, 0, sizeof *err);
    struct uparser ps = {.sc = sc, .err = err};
    unsigned long long n = 0;
    double R = 0;
    int have_n = 0, have_r = 0, rc = 0;
    size_t i = 0;
    while (i < len && rc == 0 && !(have_r && sc->n == n)) {
        ps.line++;
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        const char *s = text + i;
        size_t l = j - i;
        i = j + 1;
        if (memchr(s, 0, l)) {
            rc = TEXT_FAIL(&ps, "NUL byte in the universe");
            break;
        }
        struct text_token tok[MAX_TOKENS];
        int ntok = tokenize(s, l, tok, MAX_TOKENS);
        if (ntok == 0)
            continue;
        if (!have_n) {
            rc = parse_n(&ps, tok, ntok, &n);
            have_n = rc == 0;
        } else if (!have_r) {
            rc = parse_radius(&ps, tok, ntok, &R);
            have_r = rc == 0;
        } else {
            rc = parse_row(&ps, tok, ntok, sc->n);
        }
    }
    if (rc == 0 && !have_n)
        rc = TEXT_FAIL(&ps, "missing the body count N");
    else if (rc == 0 && !have_r)
        rc = TEXT_FAIL(&ps, "missing the radius R");
    else if (rc == 0 && sc->n < n)
        rc = TEXT_FAIL(&ps, "missing rows: %llu bodies announced, %zu found", n, sc->n);
    if (rc) {
        if (err->line == 0)
            err->line = 1;
        scene_free(sc);
        return -1;
    }
    sc->p = sim_default_params();
    sc->p.shape = SIM_OPEN;
    sc->p.w = sc->p.h = 2 * R;
    sc->p.contact = SIM_CONTACT_NONE;
    sc->p.gravity = UNIVERSE_G;
    sc->p.softening = 0;
    sc->p.dt = UNIVERSE_DT;
    sc->format = SCENE_FORMAT_UNIVERSE;
    sc->radius = R;
    sc->view.x0 = -R;
    sc->view.y0 = -R;
    sc->view.x1 = R;
    sc->view.y1 = R;
    return 0;
}

/* A value as universe_write prints it: beyond UNIVERSE_MAX_ABS it is cut to
 * it, so that the 5 digits never round up past DBL_MAX. */
static double printable(double v)
{
    return v > UNIVERSE_MAX_ABS ? UNIVERSE_MAX_ABS
           : v < -UNIVERSE_MAX_ABS ? -UNIVERSE_MAX_ABS : v;
}

void universe_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    fprintf(f, "%zu\n", s->n);
    fprintf(f, "%.2e\n", sc->radius);
    for (size_t b = 0; b < s->n; b++) { /* in scene order */
        size_t i = sim_slot(s, b);
        fprintf(f, "%11.4e %11.4e %11.4e %11.4e %11.4e %12s\n", printable(s->x[i]),
                printable(s->y[i]), printable(s->vx[i]), printable(s->vy[i]),
                printable(s->m[i]), scene_ball_name(sc, b));
    }
}
