/*
 * particles.c - read and write the textbook particle format.
 */
#include "particles.h"
#include "numfmt.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FIELDS = 9, MAX_TOKENS = 12 };

/* The most particles a file may declare (as the scene's random). */
#define PARTICLES_MAX 268435455ull


struct reader {
    const char *text;
    size_t len, pos;
    int line;
    struct scene_error *err;
};


static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line's tokens (whitespace separated, at most max stored); returns
 * their count, or -1 at the end of the text, -2 on a NUL byte. */
static int next_line(struct reader *rd, struct text_token *tok, int max)
{
    if (rd->pos >= rd->len)
        return -1;
    rd->line++;
    size_t i = rd->pos, end = i;
    while (end < rd->len && rd->text[end] != '\n')
        end++;
    rd->pos = end + 1;
    if (memchr(rd->text + i, 0, end - i))
        return -2;
    int n = 0;
    while (i < end) {
        while (i < end && is_space(rd->text[i]))
            i++;
        if (i == end)
            break;
        size_t j = i;
        while (j < end && !is_space(rd->text[j]))
            j++;
        if (n < max)
            tok[n] = (struct text_token){rd->text + i, j - i};
        n++;
        i = j;
    }
    return n;
}

/* The next line that is not blank, or -1 / -2 as next_line. */
static int next_nonblank(struct reader *rd, struct text_token *tok, int max)
{
    int n;
    while ((n = next_line(rd, tok, max)) == 0)
        ;
    return n;
}

int particles_detect(const char *text, size_t len)
{
    struct scene_error err;
    struct reader rd = {text, len, 0, 0, &err};
    struct text_token tok[MAX_TOKENS];
    if (next_nonblank(&rd, tok, MAX_TOKENS) != 1 || !text_digits(tok[0]))
        return 0;
    return next_nonblank(&rd, tok, MAX_TOKENS) == FIELDS;
}

static int get_double(struct reader *rd, struct text_token t, const char *what,
                      double *out)
{
    if (text_number(t, what, out, rd->err->msg, sizeof rd->err->msg)) {
        rd->err->line = rd->line;
        return -1;
    }
    return 0;
}

static int get_channel(struct reader *rd, struct text_token t, const char *what,
                       unsigned *out)
{
    char buf[64];
    text_shown(t, buf, sizeof buf);
    if (!text_digits(t))
        return TEXT_FAIL(rd, "%s: '%s' is not a whole number from 0 to 255", what, buf);
    unsigned long v = strtoul(buf, NULL, 10);
    if (v > 255)
        return TEXT_FAIL(rd, "%s: '%s' is not a whole number from 0 to 255", what, buf);
    *out = (unsigned)v;
    return 0;
}

static int parse_row(struct reader *rd, const struct text_token *tok,
                     struct scene_ball *b)
{
    static const char *const names[FIELDS] = {
        "rx", "ry", "vx", "vy", "radius", "mass", "red", "green", "blue",
    };
    double v[6];
    for (int f = 0; f < 6; f++)
        if (get_double(rd, tok[f], names[f], &v[f]))
            return -1;
    if (!(v[4] > 0))
        return TEXT_FAIL(rd, "radius must be > 0");
    if (!(v[5] > 0))
        return TEXT_FAIL(rd, "mass must be > 0");
    unsigned c[3];
    for (int f = 0; f < 3; f++)
        if (get_channel(rd, tok[6 + f], names[6 + f], &c[f]))
            return -1;
    /* Anywhere, even outside the unit box: its spring walls push a particle
     * back, and the state a violent run prints must read back (as a scene's
     * balls with spring walls). */
    b->x = v[0];
    b->y = v[1];
    b->vx = v[2];
    b->vy = v[3];
    b->r = v[4];
    b->m = v[5];
    b->color = SCENE_COLOR_RGB | (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | c[2];
    return 0;
}

int particles_spring(const struct scene *sc, double *k, double *dt)
{
    double kemax = 0, rmin = INFINITY, m1 = INFINITY, m2 = INFINITY;
    for (size_t i = 0; i < sc->n; i++) {
        const struct scene_ball *b = &sc->balls[i];
        double ke = 0.5 * b->m * (b->vx * b->vx + b->vy * b->vy);
        if (ke > kemax)
            kemax = ke;
        if (b->r < rmin)
            rmin = b->r;
        if (b->m < m1) {
            m2 = m1;
            m1 = b->m;
        } else if (b->m < m2) {
            m2 = b->m;
        }
    }
    if (!(kemax > 0))
        kemax = 0.5;
    double mu = sc->n > 1 ? m1 * m2 / (m1 + m2) : m1;
    double s = PARTICLES_OVERLAP * rmin;
    *k = 4 * kemax / (s * s);
    *dt = SIM_PI * sqrt(mu / *k) / PARTICLES_STEPS;
    return isfinite(*k) && *k > 0 && isfinite(*dt) && *dt > 0 ? 0 : -1;
}

int particles_parse(struct scene *sc, const char *text, size_t len,
                    struct scene_error *err)
{
    memset(sc, 0, sizeof *sc);
    memset(err, 0, sizeof *err);
    sc->p = sim_default_params();
    sc->p.w = sc->p.h = 1;
    sc->format = SCENE_FORMAT_PARTICLES;
    struct reader rd = {text, len, 0, 0, err};
    struct text_token tok[MAX_TOKENS];
    char buf[64];
    int nt = next_nonblank(&rd, tok, MAX_TOKENS);
    if (nt == -2)
        return TEXT_FAIL(&rd, "NUL byte in the file");
    if (nt < 0) {
        rd.line = rd.line ? rd.line : 1;
        return TEXT_FAIL(&rd, "empty file (expected the number of particles)");
    }
    if (nt != 1)
        return TEXT_FAIL(&rd, "expected the number of particles alone on the line");
    if (!text_digits(tok[0]))
        return TEXT_FAIL(&rd, "particle count: '%s' is not a whole number",
                         text_shown(tok[0], buf, sizeof buf));
    unsigned long long n = tok[0].len > 18 ? 0 : strtoull(tok[0].s, NULL, 10);
    if (n < 1 || n > PARTICLES_MAX)
        return TEXT_FAIL(&rd, "particle count must be between 1 and %llu", PARTICLES_MAX);
    int count_line = rd.line;
    /* Grow as rows arrive, so a huge count in a short file costs nothing. */
    for (size_t i = 0; i < n; i++) {
        nt = next_nonblank(&rd, tok, MAX_TOKENS);
        if (nt == -2) {
            scene_free(sc);
            return TEXT_FAIL(&rd, "NUL byte in the file");
        }
        if (nt < 0) {
            scene_free(sc);
            return TEXT_FAIL(&rd, "expected %llu particles (line %d), found %zu",
                             n, count_line, i);
        }
        if (nt != FIELDS) {
            scene_free(sc);
            return TEXT_FAIL(&rd, "expected 9 fields (rx ry vx vy radius mass r g b), "
                                  "found %d", nt);
        }
        if (sc->n == sc->cap) {
            size_t cap = sc->cap ? 2 * sc->cap : 64;
            if (cap > n)
                cap = (size_t)n;
            struct scene_ball *nb = realloc(sc->balls, cap * sizeof *nb);
            if (!nb) {
                scene_free(sc);
                return TEXT_FAIL(&rd, "out of memory");
            }
            sc->balls = nb;
            sc->cap = cap;
        }
        struct scene_ball b = {0};
        if (parse_row(&rd, tok, &b)) {
            scene_free(sc);
            return -1;
        }
        sc->balls[sc->n++] = b;
    }
    nt = next_nonblank(&rd, tok, MAX_TOKENS);
    if (nt != -1) {
        scene_free(sc);
        if (nt == -2)
            return TEXT_FAIL(&rd, "NUL byte in the file");
        return TEXT_FAIL(&rd, "extra data after the %llu particles declared on line %d",
                         n, count_line);
    }
    if (particles_spring(sc, &sc->p.k, &sc->p.dt)) {
        scene_free(sc);
        rd.line = count_line;
        return TEXT_FAIL(&rd, "no finite spring stiffness and time step suit these "
                              "particles");
    }
    return 0;
}

void particles_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    fprintf(f, "%zu\n", s->n);
    for (size_t b = 0; b < s->n; b++) { /* in scene order */
        size_t i = sim_slot(s, b);
        uint32_t rgb = scene_color_rgb(sc->balls[b].color);
        /* the shortest digits that read back as the same doubles */
        char line[6 * NUMFMT_MAX + 16], *p = line;
        const double v[6] = {s->x[i], s->y[i], s->vx[i], s->vy[i], s->r[i], s->m[i]};
        for (int k = 0; k < 6; k++) {
            p += numfmt_double(p, v[k]);
            *p++ = ' ';
        }
        fwrite(line, 1, (size_t)(p - line), f);
        fprintf(f, "%u %u %u\n", (unsigned)(rgb >> 16 & 0xff),
                (unsigned)(rgb >> 8 & 0xff), (unsigned)(rgb & 0xff));
    }
}
