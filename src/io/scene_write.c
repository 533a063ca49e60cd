/*
 * scene_write.c - the scene as text: colour names, the run's parameters as
 * directives (scene_params_text), and scene_write, which writes back only
 * what differs from the defaults. The reader is scene.c. See scene.h.
 */
#include "scene_impl.h"
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The palette behind the colour names: the classic terminal colours. */
static const uint32_t color_rgb[SCENE_COLOR_NAMED + 1] = {
    0xffffff, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
};

const char *scene_color_name(uint32_t color, char *buf)
{
    if (color >= 1 && color <= SCENE_COLOR_NAMED)
        return scene_color_names[color];
    if (color & SCENE_COLOR_RGB) {
        snprintf(buf, 8, "#%06x", (unsigned)(color & 0xffffff));
        return buf;
    }
    return NULL;
}

uint32_t scene_color_rgb(uint32_t color)
{
    if (color <= SCENE_COLOR_NAMED)
        return color_rgb[color];
    return color & 0xffffff;
}

/* The shortest form of v that reads back the same (numfmt.h). */
static const char *short_num(char *buf, double v)
{
    numfmt_double(buf, v);
    return buf;
}

int scene_params_text(char *buf, size_t size, const struct sim_params *p)
{
    static const char *const friction_names[] = {NULL, "drag", "linear", "rolling"};
    char one[160], a[NUMFMT_MAX], b[NUMFMT_MAX];
    size_t at = 0;
    for (int d = 0; d < 10; d++) {
        int len = 0;
        if (d == 0 && p->shape == SIM_CIRCLE)
            len = snprintf(one, sizeof one, "table circle %s", short_num(a, 0.5 * p->w));
        else if (d == 1)
            len = snprintf(one, sizeof one, "k %s", short_num(a, p->k));
        else if (d == 2)
            len = snprintf(one, sizeof one, "dt %s", short_num(a, p->dt));
        else if (d == 3 && p->restitution != 1)
            len = snprintf(one, sizeof one, "restitution %s", short_num(a, p->restitution));
        else if (d == 4 && p->walls == SIM_WALLS_HARD)
            len = snprintf(one, sizeof one, "walls hard");
        else if (d == 5 && p->contact == SIM_CONTACT_EXP)
            len = snprintf(one, sizeof one, "contact exp %s %s", short_num(a, p->exp_eps),
                           short_num(b, p->exp_kappa));
        else if (d == 6 && p->gravity != 0)
            len = snprintf(one, sizeof one, "gravity %s %s", short_num(a, p->gravity),
                           short_num(b, p->softening));
        else if (d == 7 && p->friction > SIM_FRICTION_NONE && p->friction <= SIM_FRICTION_ROLLING)
            len = snprintf(one, sizeof one, "friction %s %s", friction_names[p->friction],
                           short_num(a, p->friction_c));
        else if (d == 8 && (p->gx != 0 || p->gy != 0))
            len = snprintf(one, sizeof one, "field %s %s", short_num(a, p->gx),
                           short_num(b, p->gy));
        else if (d == 9 && p->open && p->shape == SIM_RECT) {
            len = snprintf(one, sizeof one, "open");
            for (unsigned i = 0; i < 4; i++)
                if (p->open & 1u << i)
                    len += snprintf(one + len, sizeof one - (size_t)len, " %s", scene_side_names[i]);
        }
        if (len <= 0)
            continue;
        at += (size_t)snprintf(at < size ? buf + at : NULL, at < size ? size - at : 0,
                               "%s%s", at ? "; " : "", one);
    }
    if (size && at >= size)
        buf[size - 1] = 0;
    return (int)at;
}

/* Appends " v" (the shortest digits that read back as v, see numfmt.h)
 * for each of @p n values to @p p; @return the end. */
static char *put_nums(char *p, const double *v, int n)
{
    for (int k = 0; k < n; k++) {
        *p++ = ' ';
        p += numfmt_double(p, v[k]);
    }
    return p;
}

/* Writes the line "@p head v..." for @p n values. */
static void write_nums(FILE *f, const char *head, const double *v, int n)
{
    char line[64 + 8 * NUMFMT_MAX];
    size_t h = strlen(head);
    memcpy(line, head, h);
    char *e = put_nums(line + h, v, n);
    *e++ = '\n';
    fwrite(line, 1, (size_t)(e - line), f);
}

/* The line "ball X Y VX VY M R [COLOR]\n" of ball @p b at @p p, whose
 * numbers are @p v; @return its end. */
static char *put_ball(char *p, const struct scene *sc, size_t b, const double v[6])
{
    char cbuf[8];
    const char *c = scene_color_name(sc->balls[b].color, cbuf);
    memcpy(p, "ball", 4);
    p = put_nums(p + 4, v, 6);
    if (c) {
        size_t cl = strlen(c);
        *p++ = ' ';
        memcpy(p, c, cl);
        p += cl;
    }
    *p++ = '\n';
    return p;
}

void scene_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    const struct sim_params *p = &s->p;
    if (sc->title)
        fprintf(f, "title %s\n", sc->title);
    if (p->shape == SIM_CIRCLE)
        write_nums(f, "table circle", (double[]){0.5 * p->w}, 1);
    else
        write_nums(f, "table", (double[]){p->w, p->h}, 2);
    write_nums(f, "k", &p->k, 1);
    write_nums(f, "dt", &p->dt, 1);
    /* Directives at their default are left out. */
    if (p->restitution != 1)
        write_nums(f, "restitution", &p->restitution, 1);
    if (p->walls == SIM_WALLS_HARD)
        fputs("walls hard\n", f);
    if (p->contact == SIM_CONTACT_EXP)
        write_nums(f, "contact exp", (double[]){p->exp_eps, p->exp_kappa}, 2);
    if (p->gravity != 0)
        write_nums(f, "gravity", (double[]){p->gravity, p->softening},
                   p->softening != 0 ? 2 : 1);
    static const char *const friction_names[] = {NULL, "drag", "linear", "rolling"};
    if (p->friction > SIM_FRICTION_NONE && p->friction <= SIM_FRICTION_ROLLING) {
        char head[32];
        snprintf(head, sizeof head, "friction %s", friction_names[p->friction]);
        write_nums(f, head, &p->friction_c, 1);
    }
    if (p->gx != 0 || p->gy != 0)
        write_nums(f, "field", (double[]){p->gx, p->gy}, 2);
    if (p->open && p->shape == SIM_RECT) {
        fputs("open", f);
        for (unsigned i = 0; i < 4; i++)
            if (p->open & 1u << i)
                fprintf(f, " %s", scene_side_names[i]);
        fputc('\n', f);
    }
    /* In scene order, whatever slots the core keeps the balls in; the
     * lines gathered into blocks, one fwrite each. */
    enum { BLOCK = 1 << 16, LINE = 16 + 6 * NUMFMT_MAX + 16 };
    const size_t n = s->n;
    char *buf = malloc(BLOCK);
    char small[LINE];
    char *const base = buf ? buf : small;
    const size_t room = buf ? BLOCK - LINE : 0;
    char *o = base;
    for (size_t b = 0; b < n; b++) {
        size_t i = sim_slot(s, b);
        o = put_ball(o, sc, b, (double[]){s->x[i], s->y[i], s->vx[i], s->vy[i],
                                          s->m[i], s->r[i]});
        if ((size_t)(o - base) > room) {
            fwrite(base, 1, (size_t)(o - base), f);
            o = base;
        }
    }
    fwrite(base, 1, (size_t)(o - base), f);
    free(buf);
    if (sc->cue > 0 && sc->cue <= n)
        fprintf(f, "cue %zu\n", sc->cue);
}
