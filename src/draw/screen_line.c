/*
 * screen_line.c - the title and status lines, fitted piece by piece by
 * priority, and the note above the status line. See screen.h.
 */
#include "screen.h"
#include "screen_impl.h"

#include "shown.h"
#include "sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* === Pieces of a line, fitted by priority === */

struct piece {
    char text[160];
    char brief[64];  /* shown instead when text does not fit, or "" */
    int prio;        /* 0 most important */
    uint32_t fg;
    int attr;
    int state;       /* 0 full, 1 brief, 2 left out */
};

struct screen_line {
    struct piece p[16];
    int n;
};

static struct piece *add(struct screen_line *l, int prio, uint32_t fg, int attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static struct piece *add(struct screen_line *l, int prio, uint32_t fg, int attr, const char *fmt, ...)
{
    if (l->n == (int)(sizeof l->p / sizeof *l->p))
        return &l->p[l->n - 1];
    struct piece *p = &l->p[l->n++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    p->brief[0] = 0;
    p->prio = prio;
    p->fg = fg;
    p->attr = attr;
    p->state = 0;
    return p;
}

void screen_status_add(struct screen_line *l, int rank, int attr, const char *fmt, ...)
{
    char text[sizeof l->p[0].text];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    add(l, rank, 0, attr, "%s", text);
}

static int piece_width(const struct piece *p, int sep)
{
    if (p->state == 2)
        return 0;
    return sep + screen_width(p->state == 1 ? p->brief : p->text);
}

/* Chooses what shows in @p width columns: the least important pieces
 * take their brief form first, then go; nothing is cut. Pieces are
 * separated by @p sep blanks. Returns the width used. */
static int fit(struct screen_line *l, int width, int sep)
{
    for (;;) {
        int w = 0, shown = 0;
        for (int i = 0; i < l->n; i++)
            if (l->p[i].state != 2)
                w += piece_width(&l->p[i], shown++ ? sep : 0);
        if (w <= width)
            return w;
        int worst = -1;
        for (int i = 0; i < l->n; i++)
            if (l->p[i].state != 2 && (worst < 0 || l->p[i].prio >= l->p[worst].prio))
                worst = i;
        if (worst < 0)
            return 0;
        struct piece *p = &l->p[worst];
        p->state = p->state == 0 && p->brief[0] ? 1 : 2;
    }
}

static int draw_line(struct screen *scr, const struct screen_line *l, int x, int y, int sep,
                     const char *sepstr)
{
    int col = x, shown = 0;
    for (int i = 0; i < l->n; i++) {
        const struct piece *p = &l->p[i];
        if (p->state == 2)
            continue;
        if (shown++)
            col += screen_text(scr, col, y, sep, 0, 0, sepstr);
        col += screen_text(scr, col, y, scr->cols - col, p->fg, p->attr,
                           p->state == 1 ? p->brief : p->text);
    }
    return col - x;
}

/* === Title === */

/* Copies the UTF-8 text s into buf cut to @p max columns, ending in an
 * ellipsis when cut (never inside a character). */
static void ellipsize(char *buf, size_t size, const char *s, int max, int ascii)
{
    int w = screen_width(s);
    if (w <= max) {
        snprintf(buf, size, "%s", s);
        return;
    }
    const char *ell = ascii ? "~" : "\xe2\x80\xa6";
    int room = max - 1, used = 0;
    size_t len = 0;
    const char *p = s;
    while (*p) {
        uint32_t c;
        int nb = screen_utf8_next(p, &c);
        int cw = screen_cp_width(c);
        if (used + cw > room)
            break;
        if (len + (size_t)nb + 4 >= size)
            break;
        memcpy(buf + len, p, (size_t)nb);
        len += (size_t)nb;
        used += cw;
        p += nb;
    }
    while (len > 0 && buf[len - 1] == ' ') /* "in…", not "in …" */
        len--;
    if (room >= 0)
        snprintf(buf + len, size - len, "%s", ell);
    else
        buf[0] = 0;
}

/* "20", "1.5e+06": the speed with three digits. */
static void fmt_speed(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.3g", v);
}

void screen_draw_title(struct screen *scr, const struct shown *sh, const struct front *f)
{
    int ascii = f->glyphs == VIEW_ASCII;
    const char *dot = ascii ? " - " : " \xc2\xb7 ";
    char sp[32];
    fmt_speed(sp, sizeof sp, f->speed);
    struct screen_line r = {0};
    add(&r, 2, 0, 0, "%s", f->replay ? "replay" : sh->engine_name ? sh->engine_name : "spring");
    const char *state = f->remote ? f->remote_state
                      : sh->nonfinite || f->stopped ? "stopped" : f->running ? "running" : "paused";
    add(&r, 0, 0, f->running ? 0 : SCREEN_BOLD, "%s", state);
    struct piece *p;
    if (f->remote) { /* the run's pace is its own: its frames' rate (a file's: none) */
        if (f->trate > 0) {
            p = add(&r, 2, 0, 0, "a frame / %lld step%s", f->trate, f->trate == 1 ? "" : "s");
            snprintf(p->brief, sizeof p->brief, "trate %lld", f->trate);
        }
    } else {
        p = add(&r, 2, 0, 0, "speed %s t/s", sp);
        snprintf(p->brief, sizeof p->brief, "%st/s", sp);
    }
    p = add(&r, 3, 0, 0, "? help");
    snprintf(p->brief, sizeof p->brief, "?");
    int cols = scr->cols;
    const char *name = f->title ? f->title : "";
    char full[420], brief[420], cut[400];
    snprintf(full, sizeof full, " springball%s%s", dot, name);
    snprintf(brief, sizeof brief, " %s", name);
    /* The state and the speed first, then the name, then the rest; at
     * least TITLE_GAP blanks between the name and the engine (one read as
     * "Unequal masses in 2-D spring" at 72 columns), one after the last. */
    enum { TITLE_GAP = 3 };
    const char *left = NULL;
    int rw = 0;
    const char *tries[2] = {full, brief};
    for (int i = 0; i < 2 && !left; i++) {
        for (int j = 0; j < r.n; j++)
            r.p[j].state = 0;
        rw = fit(&r, cols - screen_width(tries[i]) - TITLE_GAP - 1, 3);
        int ok = 1;
        for (int j = 0; j < r.n; j++)
            if (r.p[j].prio <= 2 && r.p[j].state == 2)
                ok = 0;
        if (ok)
            left = tries[i];
    }
    if (!left) {
        for (int j = 0; j < r.n; j++)
            r.p[j].state = 0;
        rw = fit(&r, cols / 2, 3);
        ellipsize(cut, sizeof cut, name, cols - rw - TITLE_GAP - 2, ascii);
        snprintf(full, sizeof full, " %s", cut);
        left = full;
    }
    screen_text(scr, 0, 0, cols - rw - 1, 0, SCREEN_BOLD, left);
    draw_line(scr, &r, cols - rw - 1, 0, 3, dot);
}

/* === Status === */

void screen_drift(char *buf, size_t size, double e, double ref)
{
    if (!isfinite(e) || !isfinite(ref)) {
        snprintf(buf, size, "?");
        return;
    }
    if (ref == 0) {
        if (fabs(e) < 5e-13)
            snprintf(buf, size, "0");
        else
            snprintf(buf, size, "%+.3g", e);
        return;
    }
    double pct = 100 * (e - ref) / fabs(ref);
    if (fabs(pct) < 0.0005)
        snprintf(buf, size, "0.000%%");
    else if (fabs(pct) < 1000)
        snprintf(buf, size, "%+.3f%%", pct);
    else
        snprintf(buf, size, "%+.2e%%", pct);
}

void screen_draw_status(struct screen *scr, const struct shown *sh, const struct front *f)
{
    const struct session_diag *d = &sh->d;
    const struct sim *s = &sh->s;
    struct screen_line l = {0};
    char drift[48];
    screen_drift(drift, sizeof drift, d->e, d->e_ref);
    struct piece *p;
    if (f->replay) {
        p = add(&l, 1, 0, SCREEN_BOLD, "frame %zu/%zu", f->frame, f->frames);
        snprintf(p->brief, sizeof p->brief, "%zu/%zu", f->frame, f->frames);
    } else if (f->remote) {
        p = add(&l, 1, 0, SCREEN_BOLD, "frame %zu", f->frame);
        snprintf(p->brief, sizeof p->brief, "%zu", f->frame);
    }
    if (f->remote && f->remote_note[0]) {
        p = add(&l, 0, f->remote_alert ? SCREEN_ALERT : SCREEN_WARN, SCREEN_BOLD, "%s",
                f->remote_note);
        snprintf(p->brief, sizeof p->brief, "%s", f->remote_state);
    }
    /* One moment on the line: while the sums are an older observation's
     * (shown.h: bounded while the run steps on the worker), t and the step
     * are that observation's too, not the table's newer state. */
    const int older = !f->replay && (sh->caps & SESSION_CAP_OBSERVES) && !sh->observed;
    add(&l, 1, 0, 0, "t %.2f", older ? d->t : s->t);
    if (f->replay || f->remote) {
        add(&l, 1, 0, 0, "step %lld", s->steps);
        if (f->v_diff && f->remote)
            add(&l, 3, SCREEN_WARN, 0, "v from differences of frames");
        else if (f->v_diff)
            add(&l, 3, SCREEN_WARN, 0, "v from positions");
    } else if ((sh->caps & SESSION_CAP_EXACT)) {
        add(&l, 4, 0, 0, "events %lld", d->events);
        add(&l, 5, 0, 0, "collisions %lld", d->collisions);
        if (d->mft >= 0)
            add(&l, 7, 0, 0, "mft %.3g", d->mft);
        else
            add(&l, 7, 0, 0, "mft -");
    } else {
        add(&l, 4, 0, 0, "step %lld", older ? d->steps : s->steps);
        add(&l, 5, 0, 0, "dt %.4g", s->p.dt);
        if (s->p.contact != SIM_CONTACT_NONE)
            add(&l, 5, 0, 0, "k %.4g", s->p.k);
    }
    /* The energies apart (kinetic, and the springs' when there are
     * springs), their sum with its drift, the total momentum. */
    /* no reference to drift from: a live run; a 3-D run's plane (its z
     * and the forces along it unseen), or a slice's balls, that come and go */
    if (isfinite(d->e) && (f->remote || sh->dp.on || sh->dp.slice)) {
        add(&l, 2, 0, 0, "E %.6g", d->e);
    } else if (isfinite(d->e)) {
        p = add(&l, 2, 0, 0, "E %.6g (%s)", d->e, drift);
        snprintf(p->brief, sizeof p->brief, "E %.4g", d->e);
    } else {
        add(&l, 2, 0, 0, "E ?");
    }
    if ((sh->caps & SESSION_CAP_FORCES) && s->p.gravity != 0 && s->p.shape != SIM_OPEN)
        add(&l, 6, 0, 0, "G %.3g", s->p.gravity);
    /* The panels' fields */
    struct panel_area a = {scr, sh, f, {0, 0, 0, 0}, NULL, NULL, 0, &l};
    for (int i = 0; i < scr->npanels; i++) {
        const struct screen_panel *q = &scr->panel[i];
        int w, h;
        if (q->cls->place == PANEL_STATUS && q->cls->draw && q->cls->want(q->self, sh, &w, &h))
            q->cls->draw(q->self, &a);
    }
    /* issue 17: the field, the friction law, the balls gone past an open side
     * (the event engine runs all but friction) */
    {
        static const char *const law[] = {"", "drag", "linear", "rolling"};
        if (s->p.gx != 0 || s->p.gy != 0)
            add(&l, 6, 0, 0, "g %.3g,%.3g", s->p.gx, s->p.gy);
        if (s->p.friction > 0 && s->p.friction < 4)
            add(&l, 6, 0, 0, "%s %.3g", law[s->p.friction], s->p.friction_c);
        if (d->out > 0)
            add(&l, 6, 0, 0, "out %ld", d->out);
    }
    /* Warnings, in their colours: never cut, brief when short of room. */
    double cs = sh->contact_steps;
    if (sh->nonfinite) {
        p = add(&l, 0, SCREEN_ALERT, SCREEN_BOLD, "not finite: paused (',' back, r reset)");
        snprintf(p->brief, sizeof p->brief, "not finite");
    } else if (!(sh->caps & SESSION_CAP_STEPS) || s->p.contact == SIM_CONTACT_NONE) {
        /* no contact to resolve with dt (or nothing simulated: a replay) */
    } else if (cs < SIM_PI / 2) {
        p = add(&l, 0, SCREEN_ALERT, SCREEN_BOLD, "unstable: %.2g steps/contact", cs);
        snprintf(p->brief, sizeof p->brief, "unstable");
    } else if (cs < 10) {
        p = add(&l, 3, SCREEN_WARN, SCREEN_BOLD, "dt too coarse: %.2g steps/contact", cs);
        snprintf(p->brief, sizeof p->brief, "coarse dt");
    }
    if (f->behind && f->running) {
        char sp[32];
        fmt_speed(sp, sizeof sp, f->speed);
        p = add(&l, 3, SCREEN_WARN, SCREEN_BOLD, "behind: cannot keep %s t/s", sp);
        snprintf(p->brief, sizeof p->brief, "behind");
    }
    if (f->running && f->fps > 0)
        add(&l, f->behind ? 3 : 8, f->behind ? SCREEN_WARN : 0, 0, "%.0f fps", f->fps);
    if (f->aiming && !f->open) {
        char sp[32];
        fmt_speed(sp, sizeof sp, f->kick_speed);
        double deg = f->aim * 180 / SIM_PI;
        if (deg < 0)
            deg += 360;
        p = add(&l, 3, 0, SCREEN_BOLD, "aim %.0f\xc2\xb0 v %s", deg, sp);
        if (f->glyphs == VIEW_ASCII)
            snprintf(p->text, sizeof p->text, "aim %.0f deg v %s", deg, sp);
    }
    if (f->recording) {
        p = add(&l, 1, SCREEN_ALERT, SCREEN_BOLD, "REC %s %lld", f->recording, f->rec_frames);
        snprintf(p->brief, sizeof p->brief, "REC");
    }
    if (sh->dp.slice) { /* a layer of a 3-D run: the balls in it, of all */
        p = add(&l, 2, 0, 0, "z %g..%g: %zu of %zu balls", sh->dp.z0, sh->dp.z1, s->n,
                sh->dp.nall);
        snprintf(p->brief, sizeof p->brief, "%zu/%zu balls", s->n, sh->dp.nall);
    } else {
        add(&l, 9, 0, 0, "%zu ball%s", s->n, s->n == 1 ? "" : "s");
    }
    if (!f->replay && !f->remote)
        add(&l, 10, 0, SCREEN_DIM, "back %lld", sh->depth);
    int w = scr->cols - 1;
    fit(&l, w, 2);
    draw_line(scr, &l, 1, scr->rows - 1, 2, "  ");
}

/* The note wrapped at @p width cells into at most @p most rows of
 * @p lines, never cut inside a word that fits. @return the rows. */
static int note_wrap(const char *note, int width, char lines[][160], int most)
{
    int nl = 0;
    const char *p = note;
    while (*p && nl < most) {
        /* the longest run of whole words that fits */
        const char *end = p, *q = p;
        while (*q) {
            const char *word = q;
            while (*q == ' ')
                q++;
            while (*q && *q != ' ')
                q++;
            char tmp[160];
            size_t len = (size_t)(q - p) < sizeof tmp - 1 ? (size_t)(q - p) : sizeof tmp - 1;
            memcpy(tmp, p, len);
            tmp[len] = 0;
            if (screen_width(tmp) > width) {
                q = word;
                break;
            }
            end = q;
        }
        if (end == p) /* one word longer than the line: it has to be cut */
            end = p + strlen(p);
        size_t len = (size_t)(end - p) < 159 ? (size_t)(end - p) : 159;
        memcpy(lines[nl], p, len);
        lines[nl][len] = 0;
        nl++;
        p = end;
        while (*p == ' ')
            p++;
    }
    return *p ? most + 1 : nl; /* most + 1: it does not fit */
}

/* The frame of the table drawn from view @p v in rectangle @p t, in
 * *@p box (w 0: none, a round or open table). */
static void frame_of(const struct view *v, struct screen_rect t, struct screen_rect *box)
{
    const struct view_map *m = &v->map;
    *box = (struct screen_rect){0, 0, 0, 0};
    if (v->rim == VIEW_RIM_BOX && t.w > 0 && t.h > 0)
        *box = (struct screen_rect){t.x + m->left - 1, t.y + m->top - 1, m->w + 2, m->h + 2};
}

/* 1 when row @p y from column @p x0 to @p x1 (excluded) crosses a cell of
 * frame @p b. */
static int on_frame(struct screen_rect b, int y, int x0, int x1)
{
    if (b.w <= 0 || y < b.y || y >= b.y + b.h || x1 <= b.x || x0 >= b.x + b.w)
        return 0;
    if (y == b.y || y == b.y + b.h - 1)
        return 1; /* the top or bottom edge */
    return (x0 <= b.x && b.x < x1) || (x0 <= b.x + b.w - 1 && b.x + b.w - 1 < x1);
}

/* The note: right-aligned above the status line, in reverse video;
 * word-wrapped into at most two rows, never cut inside a word that fits;
 * never over a table's frame (issue 42.7: at 80x24 it replaced the
 * bottom edge's right part, at 24x8 "values panel on" took the border):
 * where it would be, it goes inside the table, right-aligned in the last
 * rows of its inside, wrapped to its width (up to 4 rows). */
void screen_draw_note(struct screen *scr, const struct front *f)
{
    if (!f->note[0])
        return;
    uint32_t fg = f->note_level == SCREEN_ERROR ? SCREEN_ALERT
                : f->note_level == SCREEN_WARNING ? SCREEN_WARN : 0;
    char lines[4][160];
    int nl = note_wrap(f->note, scr->cols - 2, lines, 2);
    if (nl > 2)
        nl = 2;
    int right = scr->cols;                /* the column after the note */
    int bottom = scr->lay.note.y + 1;     /* the row under the note: the status line or the bar */
    struct screen_rect fr[2];
    frame_of(&scr->v, scr->lay.table, &fr[0]);
    frame_of(&scr->v2, scr->split ? scr->lay.table2 : (struct screen_rect){0, 0, 0, 0}, &fr[1]);
    int hit = -1, left = 0; /* the note's first column may be */
    for (int k = 1; k >= 0 && hit < 0; k--) /* the split view's right one first */
        for (int i = 0; i < nl; i++) {
            int w = screen_width(lines[i]) + 2;
            if (on_frame(fr[k], bottom - nl + i, right - w, right))
                hit = k;
        }
    if (hit >= 0) {
        /* inside that table: its last rows, up to its right edge */
        struct screen_rect in = {fr[hit].x + 1, fr[hit].y + 1, fr[hit].w - 2, fr[hit].h - 2};
        int most = in.h < 4 ? in.h : 4;
        nl = note_wrap(f->note, in.w - 2, lines, most);
        if (nl > most)
            nl = most; /* cut: the last row shown ends early */
        right = in.x + in.w;
        bottom = in.y + in.h;
        left = in.x;
    }
    for (int i = 0; i < nl; i++) {
        char buf[170];
        snprintf(buf, sizeof buf, " %.159s ", lines[i]);
        int bw = screen_width(buf);
        if (bw > right - left)
            bw = right - left;
        screen_text(scr, right - bw, bottom - nl + i, bw, fg, SCREEN_REVERSE | SCREEN_BOLD, buf);
    }
}
