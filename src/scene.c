/*
 * scene.c - parse and write the native scene format, and its generators
 * (rack, random).
 *
 * A scene is line-based text. '#' at the start of a token begins a comment
 * (except a ball's #rrggbb colour: '#' and six bytes there); blank lines are ignored; tokens are
 * separated by spaces or tabs. Errors carry the line and stop the parse.
 */
#include "scene.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TOKENS = 16 };

static const char *const color_names[SCENE_COLOR_NAMED + 1] = {
    NULL, "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* The palette behind the names: the classic terminal colours. */
static const uint32_t color_rgb[SCENE_COLOR_NAMED + 1] = {
    0xffffff, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
};

/* Colours a rack hands out, in order, like a set of pool balls. */
static const uint32_t rack_colors[] = {3, 4, 1, 5, 2, 6};


/* Everything the parser carries from line to line. */
struct parser {
    struct scene *sc;
    struct scene_error *err;
    int line;
    int *ball_line;        /* source line of each ball, for late checks;
                              negative for one a rack or random made */
    int generating;        /* add_ball is called by rack or random */
    int seen_table, seen_k, seen_dt, seen_title, seen_restitution;
    int seen_walls, seen_contact, seen_gravity;
    int seen_cue;
    int seen_friction, seen_field, seen_open;
};


static int tok_is(struct text_token t, const char *word)
{
    return t.len == strlen(word) && memcmp(t.s, word, t.len) == 0;
}

static int parse_double(struct parser *ps, struct text_token t, const char *what,
                        double *out)
{
    if (text_number(t, what, out, ps->err->msg, sizeof ps->err->msg)) {
        ps->err->line = ps->line;
        return -1;
    }
    return 0;
}

static int parse_positive(struct parser *ps, struct text_token t, const char *what,
                          double *out)
{
    if (parse_double(ps, t, what, out))
        return -1;
    if (!(*out > 0))
        return TEXT_FAIL(ps, "%s must be > 0", what);
    return 0;
}

/* A whole number in [lo, hi], digits only. */
static int parse_count(struct parser *ps, struct text_token t, const char *what,
                       unsigned long long lo, unsigned long long hi,
                       unsigned long long *out)
{
    char buf[64], shown[96];
    text_str(t, buf, sizeof buf);
    if (t.len == 0 || t.len >= sizeof buf)
        return TEXT_FAIL(ps, "%s: '%s' is not a whole number", what,
                         text_shown(t, shown, sizeof shown));
    for (size_t i = 0; i < t.len; i++)
        if (buf[i] < '0' || buf[i] > '9')
            return TEXT_FAIL(ps, "%s: '%s' is not a whole number", what,
                             text_shown(t, shown, sizeof shown));
    errno = 0;
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return TEXT_FAIL(ps, "%s must be between %llu and %llu", what, lo, hi);
    *out = v;
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "#rrggbb" -> SCENE_COLOR_RGB | rgb, or 0 when it is not one. */
static uint32_t parse_hex_color(struct text_token t)
{
    if (t.len != 7 || t.s[0] != '#')
        return 0;
    uint32_t rgb = 0;
    for (int i = 1; i < 7; i++) {
        int h = hexval(t.s[i]);
        if (h < 0)
            return 0;
        rgb = rgb << 4 | (uint32_t)h;
    }
    return SCENE_COLOR_RGB | rgb;
}

static int parse_color(struct parser *ps, struct text_token t, uint32_t *out)
{
    for (uint32_t c = 1; c <= SCENE_COLOR_NAMED; c++)
        if (tok_is(t, color_names[c])) {
            *out = c;
            return 0;
        }
    if ((*out = parse_hex_color(t)))
        return 0;
    char buf[64];
    if (t.len > 0 && t.s[0] == '#')
        return TEXT_FAIL(ps, "colour '%s' is not #rrggbb (six hex digits)",
                         text_shown(t, buf, sizeof buf));
    return TEXT_FAIL(ps, "unknown colour '%s' (use red, green, yellow, blue, "
                         "magenta, cyan, white or #rrggbb)",
                     text_shown(t, buf, sizeof buf));
}

static int add_ball(struct parser *ps, const struct scene_ball *b)
{
    struct scene *sc = ps->sc;
    if (sc->n >= SCENE_MAX_BALLS)
        return TEXT_FAIL(ps, "too many balls (a scene holds at most %llu)",
                         SCENE_MAX_BALLS);
    if (sc->n == sc->cap) {
        size_t cap = sc->cap ? 2 * sc->cap : 64;
        struct scene_ball *nb = realloc(sc->balls, cap * sizeof *nb);
        int *nl = realloc(ps->ball_line, cap * sizeof *nl);
        if (nl)
            ps->ball_line = nl;
        if (nb)
            sc->balls = nb;
        if (!nb || !nl)
            return TEXT_FAIL(ps, "out of memory");
        sc->cap = cap;
    }
    ps->ball_line[sc->n] = ps->generating ? -ps->line : ps->line;
    sc->balls[sc->n++] = *b;
    return 0;
}

/* Reserves room for @p more balls at once, so that a huge random or rack
 * fails early and cleanly when memory is short. */
static int reserve(struct parser *ps, size_t more)
{
    struct scene *sc = ps->sc;
    if (more > SCENE_MAX_BALLS - sc->n)
        return TEXT_FAIL(ps, "too many balls: %zu before this line and %zu on it "
                             "(a scene holds at most %llu)", sc->n, more,
                         SCENE_MAX_BALLS);
    size_t need = sc->n + more;
    if (need <= sc->cap)
        return 0;
    struct scene_ball *nb = realloc(sc->balls, need * sizeof *nb);
    if (nb)
        sc->balls = nb;
    int *nl = realloc(ps->ball_line, need * sizeof *nl);
    if (nl)
        ps->ball_line = nl;
    if (!nb || !nl)
        return TEXT_FAIL(ps, "out of memory");
    sc->cap = need;
    return 0;
}

static int expect_fields(struct parser *ps, const struct text_token *tok, int ntok,
                         int lo, int hi, const char *usage)
{
    char buf[64];
    if (ntok - 1 < lo)
        return TEXT_FAIL(ps, "%s: missing field (expected %s)", usage, usage);
    if (ntok - 1 > hi)
        return TEXT_FAIL(ps, "%s: extra field '%s' (expected %s)", usage,
                         text_shown(tok[hi + 1], buf, sizeof buf), usage);
    return 0;
}

static int once(struct parser *ps, int *seen, const char *what)
{
    if (*seen)
        return TEXT_FAIL(ps, "'%s' given twice (first on line %d)", what, *seen);
    *seen = ps->line;
    return 0;
}

static int d_table(struct parser *ps, const struct text_token *tok, int ntok)
{
    int circle = ntok > 1 && tok_is(tok[1], "circle");
    if (circle ? expect_fields(ps, tok, ntok, 2, 2, "table circle R")
               : expect_fields(ps, tok, ntok, 2, 2, "table W H"))
        return -1;
    if (once(ps, &ps->seen_table, "table"))
        return -1;
    if (ps->sc->n)
        return TEXT_FAIL(ps, "'table' must come before the balls");
    struct sim_params *p = &ps->sc->p;
    if (circle) {
        double R;
        if (parse_positive(ps, tok[2], "table radius", &R))
            return -1;
        if (!isfinite(2 * R))
            return TEXT_FAIL(ps, "table radius %.17g is too large", R);
        p->shape = SIM_CIRCLE;
        p->w = p->h = 2 * R;
        return 0;
    }
    if (parse_positive(ps, tok[1], "table width", &p->w) ||
        parse_positive(ps, tok[2], "table height", &p->h))
        return -1;
    p->shape = SIM_RECT;
    return 0;
}

static int d_k(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "k K") ||
        once(ps, &ps->seen_k, "k"))
        return -1;
    return parse_positive(ps, tok[1], "stiffness k", &ps->sc->p.k);
}

static int d_dt(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "dt DT") ||
        once(ps, &ps->seen_dt, "dt"))
        return -1;
    return parse_positive(ps, tok[1], "time step dt", &ps->sc->p.dt);
}

static int d_restitution(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "restitution E") ||
        once(ps, &ps->seen_restitution, "restitution"))
        return -1;
    double e;
    if (parse_double(ps, tok[1], "restitution", &e))
        return -1;
    if (!(e > 0 && e <= 1))
        return TEXT_FAIL(ps, "restitution must be > 0 and <= 1");
    ps->sc->p.restitution = e;
    return 0;
}

static int d_walls(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "walls hard|spring") ||
        once(ps, &ps->seen_walls, "walls"))
        return -1;
    if (tok_is(tok[1], "hard"))
        ps->sc->p.walls = SIM_WALLS_HARD;
    else if (tok_is(tok[1], "spring"))
        ps->sc->p.walls = SIM_WALLS_SPRING;
    else {
        char buf[64];
        return TEXT_FAIL(ps, "walls: unknown kind '%s' (use hard or spring)",
                         text_shown(tok[1], buf, sizeof buf));
    }
    return 0;
}

static int d_contact(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (ntok > 1 && tok_is(tok[1], "exp")) {
        if (expect_fields(ps, tok, ntok, 3, 3, "contact exp EPS KAPPA") ||
            once(ps, &ps->seen_contact, "contact"))
            return -1;
        struct sim_params *p = &ps->sc->p;
        if (parse_positive(ps, tok[2], "contact exp EPS", &p->exp_eps) ||
            parse_positive(ps, tok[3], "contact exp KAPPA", &p->exp_kappa))
            return -1;
        p->contact = SIM_CONTACT_EXP;
        return 0;
    }
    if (ntok > 1 && tok_is(tok[1], "hooke")) {
        if (expect_fields(ps, tok, ntok, 1, 1, "contact hooke") ||
            once(ps, &ps->seen_contact, "contact"))
            return -1;
        ps->sc->p.contact = SIM_CONTACT_HOOKE;
        return 0;
    }
    if (ntok < 2)
        return TEXT_FAIL(ps, "contact: missing law (expected contact hooke or "
                             "contact exp EPS KAPPA)");
    char buf[64];
    return TEXT_FAIL(ps, "contact: unknown law '%s' (use hooke or exp EPS KAPPA)",
                     text_shown(tok[1], buf, sizeof buf));
}

static int d_gravity(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 2, "gravity G [SOFTENING]") ||
        once(ps, &ps->seen_gravity, "gravity"))
        return -1;
    struct sim_params *p = &ps->sc->p;
    if (parse_positive(ps, tok[1], "gravity G", &p->gravity))
        return -1;
    p->softening = 0;
    if (ntok == 3) {
        if (parse_double(ps, tok[2], "gravity softening", &p->softening))
            return -1;
        if (!(p->softening >= 0))
            return TEXT_FAIL(ps, "gravity softening must be >= 0");
    }
    return 0;
}

static int d_friction(struct parser *ps, const struct text_token *tok, int ntok)
{
    static const struct { const char *name, *usage, *what; int kind; } law[] = {
        {"drag", "friction drag C", "friction drag C", SIM_FRICTION_DRAG},
        {"linear", "friction linear C", "friction linear C", SIM_FRICTION_LINEAR},
        {"rolling", "friction rolling A", "friction rolling A", SIM_FRICTION_ROLLING},
    };
    char buf[64];
    if (ntok < 2)
        return TEXT_FAIL(ps, "friction: missing law (expected friction drag C, "
                             "friction linear C or friction rolling A)");
    for (size_t i = 0; i < sizeof law / sizeof *law; i++) {
        if (!tok_is(tok[1], law[i].name))
            continue;
        if (expect_fields(ps, tok, ntok, 2, 2, law[i].usage) ||
            once(ps, &ps->seen_friction, "friction"))
            return -1;
        struct sim_params *p = &ps->sc->p;
        if (parse_positive(ps, tok[2], law[i].what, &p->friction_c))
            return -1;
        p->friction = law[i].kind;
        return 0;
    }
    return TEXT_FAIL(ps, "friction: unknown law '%s' (use drag C, linear C or "
                         "rolling A)", text_str(tok[1], buf, sizeof buf));
}

static int d_field(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 2, 2, "field GX GY") ||
        once(ps, &ps->seen_field, "field"))
        return -1;
    struct sim_params *p = &ps->sc->p;
    return parse_double(ps, tok[1], "field GX", &p->gx) ||
           parse_double(ps, tok[2], "field GY", &p->gy) ? -1 : 0;
}

static const char *const side_names[] = {"left", "right", "bottom", "top"};

static int d_open(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 4, "open SIDE... (left right bottom top)") ||
        once(ps, &ps->seen_open, "open"))
        return -1;
    unsigned open = 0;
    for (int t = 1; t < ntok; t++) {
        unsigned bit = 0;
        for (unsigned i = 0; i < 4; i++)
            if (tok_is(tok[t], side_names[i]))
                bit = 1u << i;
        char buf[64];
        if (!bit)
            return TEXT_FAIL(ps, "open: unknown side '%s' (use left, right, bottom "
                                 "or top)", text_str(tok[t], buf, sizeof buf));
        if (open & bit)
            return TEXT_FAIL(ps, "open: side '%s' given twice",
                             text_str(tok[t], buf, sizeof buf));
        open |= bit;
    }
    ps->sc->p.open = open;
    return 0;
}

static int d_ball(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 6, 7, "ball X Y VX VY M R [COLOR]"))
        return -1;
    struct scene_ball b = {0};
    if (parse_double(ps, tok[1], "x", &b.x) ||
        parse_double(ps, tok[2], "y", &b.y) ||
        parse_double(ps, tok[3], "vx", &b.vx) ||
        parse_double(ps, tok[4], "vy", &b.vy) ||
        parse_positive(ps, tok[5], "mass", &b.m) ||
        parse_positive(ps, tok[6], "radius", &b.r))
        return -1;
    if (ntok == 8 && parse_color(ps, tok[7], &b.color))
        return -1;
    return add_ball(ps, &b);
}

static int d_rack(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 5, 5, "rack X Y ROWS R M"))
        return -1;
    double x, y, r, m;
    unsigned long long rows;
    if (parse_double(ps, tok[1], "x", &x) ||
        parse_double(ps, tok[2], "y", &y) ||
        parse_count(ps, tok[3], "rows", 1, 100000, &rows) ||
        parse_positive(ps, tok[4], "radius", &r) ||
        parse_positive(ps, tok[5], "mass", &m))
        return -1;
    if (reserve(ps, (size_t)(rows * (rows + 1) / 2)))
        return -1;
    /* Row i stands sqrt(3)*r behind row i-1; its i+1 balls are 2r apart,
     * centred on the axis y: every neighbour pair touches exactly. */
    const double pitch = sqrt(3.0) * r;
    size_t c = 0;
    for (unsigned long long i = 0; i < rows; i++)
        for (unsigned long long j = 0; j <= i; j++) {
            struct scene_ball b = {0};
            b.x = x + (double)i * pitch;
            b.y = y + ((double)(2 * j) - (double)i) * r;
            b.m = m;
            b.r = r;
            b.color = rack_colors[c++ % (sizeof rack_colors / sizeof *rack_colors)];
            ps->generating = 1;
            int rc = add_ball(ps, &b);
            ps->generating = 0;
            if (rc)
                return -1;
        }
    return 0;
}

/* splitmix64: a tiny generator with a fixed, portable output sequence. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) with 53 random bits. */
static double rng_unit(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * ln x for a finite x > 0 from frexp (exact) and +, -, *, / (correctly
 * rounded in IEEE 754, and -ffp-contract=off keeps them apart), so that
 * the same bits come out on every machine: libm's log is faithful, not
 * correctly rounded, and its last bit differs between libraries. With x =
 * m 2^e, m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) = 2 s (1 + s^2/3 +
 * s^4/5 + ...) with s = (m - 1)/(m + 1), |s| <= 0.1716: 13 terms leave
 * s^26/27 < 1e-21. ln 2 in two parts (fdlibm's split: e ln2_hi is exact
 * for |e| < 2000). Within 2 ulp of the true value (tested against libm).
 */
double scene_log(double x)
{
    static const double ln2_hi = 6.93147180369123816490e-01;
    static const double ln2_lo = 1.90821492927058770002e-10;
    int e;
    double m = frexp(x, &e); /* m in [0.5, 1) */
    if (m < 0.70710678118654752440) {
        m *= 2;
        e--;
    }
    double sq = (m - 1) / (m + 1), s2 = sq * sq, sum = 0;
    for (int k = 13; k >= 1; k--)
        sum = s2 * (1.0 / (2 * k + 1) + sum);
    double lnm = 2 * sq + 2 * sq * sum;
    return e * ln2_hi + (e * ln2_lo + lnm);
}

/* A direction uniform on the circle, without trigonometry (whose last bits
 * differ between libms): a point in the unit disc, scaled to length 1. */
static void rng_direction(uint64_t *st, double *ux, double *uy)
{
    double u, v, q;
    do {
        u = 2 * rng_unit(st) - 1;
        v = 2 * rng_unit(st) - 1;
        q = u * u + v * v;
    } while (q > 1 || q < 1e-12);
    q = sqrt(q);
    *ux = u / q;
    *uy = v / q;
}

/* Two independent standard normal numbers (Marsaglia's polar method: a
 * point uniform in the unit disc, scaled by sqrt(-2 ln q / q)), from the
 * generator's bits, sqrt and scene_log alone: the same on every machine. */
static void rng_normal2(uint64_t *st, double *a, double *b)
{
    double u, v, q;
    do {
        u = 2 * rng_unit(st) - 1;
        v = 2 * rng_unit(st) - 1;
        q = u * u + v * v;
    } while (q >= 1 || q == 0);
    double f = sqrt(-2 * scene_log(q) / q);
    *a = u * f;
    *b = v * f;
}

/*
 * A bucket grid for placing balls without overlap. Cell size c; every ball j
 * is entered in each cell its box [x - (r_j + R), x + (r_j + R)] touches, so
 * a candidate of radius R need only look in the one cell of its centre.
 */
struct place_grid {
    double c;
    long nx, ny;
    int32_t *head;    /* first entry of a cell, -1 if none */
    int32_t *next;    /* next entry in the same cell */
    int32_t *ball;    /* ball of an entry */
    size_t used, cap;
};

/* The cell of coordinate @p v along an axis of @p n cells, clamped to
 * [0, n-1] before the conversion: a ball given before the random line may
 * still lie far off the table (check_inside comes last), and a double out
 * of the range of long must not be converted. */
static long grid_cell(double v, double c, long n)
{
    double q = floor(v / c);
    if (!(q >= 0))
        return 0;
    if (q >= (double)(n - 1))
        return n - 1;
    return (long)q;
}

static int grid_add(struct place_grid *g, const struct scene_ball *b, double R,
                    int32_t idx)
{
    double e = b->r + R;
    long x0 = grid_cell(b->x - e, g->c, g->nx), x1 = grid_cell(b->x + e, g->c, g->nx);
    long y0 = grid_cell(b->y - e, g->c, g->ny), y1 = grid_cell(b->y + e, g->c, g->ny);
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++) {
            if (g->used == g->cap) {
                size_t cap = g->cap ? 2 * g->cap : 1024;
                int32_t *nn = realloc(g->next, cap * sizeof *nn);
                if (nn)
                    g->next = nn;
                int32_t *nb = realloc(g->ball, cap * sizeof *nb);
                if (nb)
                    g->ball = nb;
                if (!nn || !nb)
                    return -1;
                g->cap = cap;
            }
            long cell = cy * g->nx + cx;
            g->ball[g->used] = idx;
            g->next[g->used] = g->head[cell];
            g->head[cell] = (int32_t)g->used++;
        }
    return 0;
}

static int grid_free_spot(const struct place_grid *g, const struct scene *sc,
                          double x, double y, double R)
{
    long cx = grid_cell(x, g->c, g->nx), cy = grid_cell(y, g->c, g->ny);
    for (int32_t e = g->head[cy * g->nx + cx]; e >= 0; e = g->next[e]) {
        const struct scene_ball *b = &sc->balls[g->ball[e]];
        double dx = b->x - x, dy = b->y - y, rr = b->r + R;
        if (dx * dx + dy * dy < rr * rr)
            return 0;
    }
    return 1;
}

/* Whether a disc of radius r at (x, y) lies wholly on the table. */
static int scene_holds(const struct sim_params *p, double x, double y, double r)
{
    if (p->shape == SIM_CIRCLE) {
        double R = 0.5 * p->w, dx = x - R, dy = y - R;
        return dx * dx + dy * dy <= (R - r) * (R - r);
    }
    return x >= r && x <= p->w - r && y >= r && y <= p->h - r;
}

/* scene_holds with no bound past an open side: where hard walls may take
 * a ball (it keeps flying once it has left), so where one may start. */
static int scene_holds_open(const struct sim_params *p, double x, double y,
                            double r)
{
    if (p->shape != SIM_RECT || !p->open)
        return scene_holds(p, x, y, r);
    return (p->open & SIM_SIDE_LEFT || x >= r) &&
           (p->open & SIM_SIDE_RIGHT || x <= p->w - r) &&
           (p->open & SIM_SIDE_BOTTOM || y >= r) &&
           (p->open & SIM_SIDE_TOP || y <= p->h - r);
}

/* The radius field of random: R, or RMIN..RMAX (0 < RMIN <= RMAX). */
static int parse_radii(struct parser *ps, struct text_token t, double *r0,
                       double *r1)
{
    for (size_t i = 0; i + 1 < t.len; i++)
        if (t.s[i] == '.' && t.s[i + 1] == '.') {
            struct text_token a = {t.s, i}, b = {t.s + i + 2, t.len - i - 2};
            if (parse_positive(ps, a, "smallest radius", r0) ||
                parse_positive(ps, b, "largest radius", r1))
                return -1;
            if (*r1 < *r0)
                return TEXT_FAIL(ps, "random: radius range %.17g..%.17g runs "
                                     "backwards", *r0, *r1);
            return 0;
        }
    if (parse_positive(ps, t, "radius", r0))
        return -1;
    *r1 = *r0;
    return 0;
}

/* cue N: the front end's cue (selected) ball, one of the balls before. */
static int d_cue(struct parser *ps, const struct text_token *tok, int ntok)
{
    unsigned long long n;
    if (expect_fields(ps, tok, ntok, 1, 1, "cue N") || once(ps, &ps->seen_cue, "cue") ||
        parse_count(ps, tok[1], "cue", 1, SCENE_MAX_BALLS, &n))
        return -1;
    if (n > ps->sc->n)
        return TEXT_FAIL(ps, "cue %llu: there are %zu balls before this line", n,
                         ps->sc->n);
    ps->sc->cue = (size_t)n;
    return 0;
}

static int d_random(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 5, 6, "random N R[..RMAX] M SPEED SEED [maxwell]"))
        return -1;
    unsigned long long n, seed;
    double R, m, speed, R0;
    if (parse_count(ps, tok[1], "count", 1, SCENE_MAX_BALLS, &n) ||
        parse_radii(ps, tok[2], &R0, &R) ||
        parse_positive(ps, tok[3], "mass", &m) ||
        parse_double(ps, tok[4], "speed", &speed) ||
        parse_count(ps, tok[5], "seed", 0, UINT64_MAX, &seed))
        return -1;
    if (speed < 0)
        return TEXT_FAIL(ps, "speed must be >= 0");
    /* the largest ball's mass, M (RMAX/RMIN)^2, must be a number: a range
     * of 1e-320..8 made masses of inf that no scene file can hold */
    if (!isfinite(m * (R / R0) * (R / R0)))
        return TEXT_FAIL(ps, "random: radius range %.17g..%.17g with mass %.17g "
                             "gives the largest ball an infinite mass", R0, R, m);
    int maxwell = 0;
    const double sigma = speed * sqrt(0.5);
    if (ntok == 7) {
        char buf[64];
        if (!tok_is(tok[6], "maxwell"))
            return TEXT_FAIL(ps, "random: unknown option '%s' (use maxwell)",
                             text_str(tok[6], buf, sizeof buf));
        maxwell = 1;
    }
    struct scene *sc = ps->sc;
    const double w = sc->p.w, h = sc->p.h;
    if (!scene_holds(&sc->p, 0.5 * w, 0.5 * h, R))
        return TEXT_FAIL(ps, "random: radius %.17g does not fit the table", R);
    if (reserve(ps, n))
        return -1;

    struct place_grid g = {0};
    size_t total = sc->n + n;
    g.c = 4 * R;
    double most = 4.0 * (double)total + 64;
    /* Each axis first gets at most `most` cells, so that the count is a
     * finite product: a 1e200 table (or a radius of 1e-200) asked for
     * 1e400 cells, an infinity that made the cell infinite and put every
     * ball in one cell, an O(N^2) placement. */
    if (!(w / g.c <= most))
        g.c = w / most;
    if (!(h / g.c <= most))
        g.c = h / most;
    double cells = (w / g.c + 1) * (h / g.c + 1);
    if (cells > most)
        g.c *= sqrt(cells / most);
    /* A long thin table keeps too many cells along its length: cap each
     * axis, so that nx * ny <= 2 most + 1 (the placement does not depend
     * on the grid, only its speed does; grid_cell clamps to the last cell). */
    double fx = fmin(w / g.c, most), fy = fmin(h / g.c, most / (fx + 1));
    g.nx = (long)fx + 1;
    g.ny = (long)fy + 1;
    g.head = malloc((size_t)g.nx * (size_t)g.ny * sizeof *g.head);
    int rc = -1;
    if (!g.head) {
        TEXT_FAIL(ps, "out of memory");
        goto out;
    }
    memset(g.head, 0xff, (size_t)g.nx * (size_t)g.ny * sizeof *g.head);
    for (size_t j = 0; j < sc->n; j++)
        if (grid_add(&g, &sc->balls[j], R, (int32_t)j)) {
            TEXT_FAIL(ps, "out of memory");
            goto out;
        }

    uint64_t st = seed;
    const long tries = 100000; /* per ball, before we call the table full */
    /* And for all of them: near the jamming limit every ball takes up to
     * `tries`, so that 10^7 balls could take hours (65322 of radius 1 on
     * the default table took 2 s). Tables filled to about half (RSA jams
     * at 0.547) need far fewer than 100 tries a ball on average. */
    unsigned long long budget = 100000 + 100ull * n, used = 0;
    for (unsigned long long i = 0; i < n; i++) {
        struct scene_ball b = {0};
        b.m = m;
        b.r = R;
        if (R0 < R) {
            /* uniform in [R0, R], mass M (r/R0)^2: one density of discs */
            b.r = R0 + rng_unit(&st) * (R - R0);
            b.m = m * ((b.r / R0) * (b.r / R0));
        }
        const double r = b.r;
        long t = 0;
        do {
            if (++t > tries || ++used > budget) {
                TEXT_FAIL(ps, "random: cannot place %llu balls of radius %.17g "
                              "without overlap (placed %llu)", n, R, i);
                goto out;
            }
            b.x = r + rng_unit(&st) * (w - 2 * r);
            b.y = r + rng_unit(&st) * (h - 2 * r);
        } while (!scene_holds(&sc->p, b.x, b.y, r) ||
                 !grid_free_spot(&g, sc, b.x, b.y, r));
        if (maxwell) {
            /* 2-D Maxwell-Boltzmann: Gaussian components of variance
             * SPEED^2/2 each, so that the mean of |v|^2 is SPEED^2. */
            double a, c;
            rng_normal2(&st, &a, &c);
            b.vx = sigma * a;
            b.vy = sigma * c;
        } else {
            double u, v;
            rng_direction(&st, &u, &v);
            b.vx = speed * u;
            b.vy = speed * v;
        }
        ps->generating = 1;
        int added = add_ball(ps, &b);
        ps->generating = 0;
        if (added || grid_add(&g, &b, R, (int32_t)(sc->n - 1))) {
            TEXT_FAIL(ps, "out of memory");
            goto out;
        }
    }
    rc = 0;
out:
    free(g.head);
    free(g.next);
    free(g.ball);
    return rc;
}

static int d_title(struct parser *ps, const char *rest, size_t len)
{
    if (once(ps, &ps->seen_title, "title"))
        return -1;
    /* A '\r' too: the one of a CRLF is gone, but "abc\r" would be written
     * back as "title abc\r\n" and read again as "abc". */
    while (len && (rest[len - 1] == ' ' || rest[len - 1] == '\t' ||
                   rest[len - 1] == '\r'))
        len--;
    if (!len)
        return TEXT_FAIL(ps, "title: missing text");
    free(ps->sc->title);
    ps->sc->title = malloc(len + 1);
    if (!ps->sc->title)
        return TEXT_FAIL(ps, "out of memory");
    memcpy(ps->sc->title, rest, len);
    ps->sc->title[len] = 0;
    return 0;
}

/* Splits one line into tokens, storing the first @p max; returns how many
 * there are. A token opening with '#' ends the line, except a '#' and six
 * bytes (#rrggbb) right where a ball's colour stands. */
static int tokenize(const char *s, size_t len, struct text_token *tok, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == len)
            break;
        size_t j = i;
        while (j < len && s[j] != ' ' && s[j] != '\t')
            j++;
        struct text_token t = {s + i, j - i};
        /* Where a ball's colour stands, '#' and six more bytes is a colour
         * (a bad one is an error: #12345g once became a comment). */
        if (s[i] == '#' && !(n == 7 && tok_is(tok[0], "ball") && t.len == 7))
            break;
        if (n < max)
            tok[n] = t;
        n++;
        i = j;
    }
    return n;
}

static int parse_line(struct parser *ps, const char *s, size_t len)
{
    struct text_token tok[MAX_TOKENS];
    int ntok = tokenize(s, len, tok, MAX_TOKENS);
    if (ntok == 0)
        return 0;
    if (tok_is(tok[0], "table"))
        return d_table(ps, tok, ntok);
    if (tok_is(tok[0], "k"))
        return d_k(ps, tok, ntok);
    if (tok_is(tok[0], "dt"))
        return d_dt(ps, tok, ntok);
    if (tok_is(tok[0], "restitution"))
        return d_restitution(ps, tok, ntok);
    if (tok_is(tok[0], "walls"))
        return d_walls(ps, tok, ntok);
    if (tok_is(tok[0], "contact"))
        return d_contact(ps, tok, ntok);
    if (tok_is(tok[0], "gravity"))
        return d_gravity(ps, tok, ntok);
    if (tok_is(tok[0], "friction"))
        return d_friction(ps, tok, ntok);
    if (tok_is(tok[0], "field"))
        return d_field(ps, tok, ntok);
    if (tok_is(tok[0], "open"))
        return d_open(ps, tok, ntok);
    if (tok_is(tok[0], "ball"))
        return d_ball(ps, tok, ntok);
    if (tok_is(tok[0], "rack"))
        return d_rack(ps, tok, ntok);
    if (tok_is(tok[0], "cue"))
        return d_cue(ps, tok, ntok);
    if (tok_is(tok[0], "random"))
        return d_random(ps, tok, ntok);
    if (tok_is(tok[0], "title")) {
        /* The raw rest of the line, up to a comment, keeps its spacing. */
        const char *rest = tok[0].s + tok[0].len;
        size_t rlen = (size_t)(s + len - rest);
        for (size_t i = 0; i < rlen; i++)
            if (rest[i] == '#' && (i == 0 || rest[i - 1] == ' ' || rest[i - 1] == '\t')) {
                rlen = i;
                break;
            }
        while (rlen && (*rest == ' ' || *rest == '\t')) {
            rest++;
            rlen--;
        }
        return d_title(ps, rest, rlen);
    }
    char buf[64];
    return TEXT_FAIL(ps, "unknown directive '%s'", text_shown(tok[0], buf, sizeof buf));
}

/*
 * Where a ball may lie, so that every state a run prints is itself a valid
 * scene. With spring walls (the default) a `ball` may lie anywhere, even
 * off the table: the walls push it back with k times the penetration, and a
 * violent run leaves balls deep in (or through) a wall. With hard walls every
 * ball lies wholly on the table, as the engine keeps it. The balls a rack or
 * random line makes must have their centres on the table: a rack past a wall
 * is a slip of the pen.
 */
static int check_inside(struct parser *ps)
{
    const struct scene *sc = ps->sc;
    if (sc->p.open && sc->p.shape != SIM_RECT) {
        ps->line = ps->seen_open;
        return TEXT_FAIL(ps, "open: only a rectangular table has sides to open");
    }
    for (size_t i = 0; i < sc->n; i++) {
        const struct scene_ball *b = &sc->balls[i];
        int made = ps->ball_line[i] < 0;
        /* Hard walls keep every ball wholly on the table (or past an open
         * side), so it must start there. */
        if (sc->p.walls == SIM_WALLS_HARD &&
            !scene_holds_open(&sc->p, b->x, b->y, b->r)) {
            ps->line = made ? -ps->ball_line[i] : ps->ball_line[i];
            return TEXT_FAIL(ps, "ball %zu at (%.17g, %.17g) of radius %.17g crosses "
                                 "a wall (with walls hard every ball must lie wholly "
                                 "on the table)", i + 1, b->x, b->y, b->r);
        }
        if (made && !scene_holds(&sc->p, b->x, b->y, 0)) {
            ps->line = -ps->ball_line[i];
            if (sc->p.shape == SIM_CIRCLE)
                return TEXT_FAIL(ps, "ball %zu at (%.17g, %.17g) lies outside the "
                                     "round table of radius %.17g",
                                 i + 1, b->x, b->y, 0.5 * sc->p.w);
            return TEXT_FAIL(ps, "ball %zu at (%.17g, %.17g) lies outside the "
                                 "table %.17g x %.17g",
                             i + 1, b->x, b->y, sc->p.w, sc->p.h);
        }
    }
    return 0;
}

int scene_parse(struct scene *sc, const char *text, size_t len,
                struct scene_error *err)
{
    memset(sc, 0, sizeof *sc);
    memset(err, 0, sizeof *err);
    sc->p = sim_default_params();
    struct parser ps = {.sc = sc, .err = err};
    int rc = 0;
    size_t i = 0;
    while (i < len && rc == 0) {
        ps.line++;
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t l = j - i;
        if (l && text[i + l - 1] == '\r')
            l--;
        if (memchr(text + i, 0, l))
            rc = TEXT_FAIL(&ps, "NUL byte in the scene");
        else
            rc = parse_line(&ps, text + i, l);
        i = j + 1;
    }
    /* A table and no balls is an empty table to fill (the front end's
     * live edits); nothing at all is a mistake. */
    if (rc == 0 && sc->n == 0 && !ps.seen_table) {
        if (ps.line == 0)
            ps.line = 1;
        rc = TEXT_FAIL(&ps, "no balls (a scene needs a ball, rack or random line)");
    }
    if (rc == 0)
        rc = check_inside(&ps);
    sc->format = SCENE_FORMAT_NATIVE;
    sc->view.x0 = 0;
    sc->view.y0 = 0;
    sc->view.x1 = sc->p.w;
    sc->view.y1 = sc->p.h;
    free(ps.ball_line);
    if (rc)
        scene_free(sc);
    return rc;
}

int scene_parse_line(struct scene *sc, const char *line, size_t len,
                     struct scene_error *err)
{
    memset(err, 0, sizeof *err);
    struct parser ps = {.sc = sc, .err = err, .line = 1};
    ps.ball_line = malloc((sc->cap ? sc->cap : 1) * sizeof *ps.ball_line);
    if (!ps.ball_line)
        return TEXT_FAIL(&ps, "out of memory");
    for (size_t i = 0; i < sc->n; i++)
        ps.ball_line[i] = 0; /* given before: checked as given */
    int rc;
    if (memchr(line, 0, len) || memchr(line, '\n', len))
        rc = TEXT_FAIL(&ps, "one line, without NUL bytes");
    else
        rc = parse_line(&ps, line, len);
    if (rc == 0)
        rc = check_inside(&ps);
    free(ps.ball_line);
    return rc;
}

void scene_free(struct scene *sc)
{
    free(sc->balls);
    free(sc->title);
    free(sc->names);
    memset(sc, 0, sizeof *sc);
}

const char *scene_ball_name(const struct scene *sc, size_t i)
{
    if (!sc->names || i >= sc->n)
        return "";
    return sc->names + sc->balls[i].name;
}

int scene_add_name(struct scene *sc, const char *name, size_t len, uint32_t *off)
{
    if (!sc->names) {
        sc->names_cap = 256;
        sc->names = malloc(sc->names_cap);
        if (!sc->names)
            return -1;
        sc->names[0] = 0;
        sc->names_len = 1;
    }
    if (len >= UINT32_MAX - sc->names_len)
        return -1;
    if (sc->names_len + len + 1 > sc->names_cap) {
        size_t cap = sc->names_cap;
        while (cap < sc->names_len + len + 1)
            cap *= 2;
        char *nn = realloc(sc->names, cap);
        if (!nn)
            return -1;
        sc->names = nn;
        sc->names_cap = cap;
    }
    *off = (uint32_t)sc->names_len;
    memcpy(sc->names + sc->names_len, name, len);
    sc->names[sc->names_len + len] = 0;
    sc->names_len += len + 1;
    return 0;
}

int scene_to_sim(const struct scene *sc, struct sim *s)
{
    if (sim_init(s, sc->n, &sc->p))
        return -1;
    for (size_t i = 0; i < sc->n; i++) {
        const struct scene_ball *b = &sc->balls[i];
        s->x[i] = b->x;
        s->y[i] = b->y;
        s->vx[i] = b->vx;
        s->vy[i] = b->vy;
        s->m[i] = b->m;
        s->r[i] = b->r;
    }
    return 0;
}

const char *scene_color_name(uint32_t color, char *buf)
{
    if (color >= 1 && color <= SCENE_COLOR_NAMED)
        return color_names[color];
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

void scene_write(FILE *f, const struct scene *sc, const struct sim *s)
{
    if (sc->title)
        fprintf(f, "title %s\n", sc->title);
    if (s->p.shape == SIM_CIRCLE)
        fprintf(f, "table circle %.17g\n", 0.5 * s->p.w);
    else
        fprintf(f, "table %.17g %.17g\n", s->p.w, s->p.h);
    fprintf(f, "k %.17g\n", s->p.k);
    fprintf(f, "dt %.17g\n", s->p.dt);
    /* Directives at their default are left out. */
    if (s->p.restitution != 1)
        fprintf(f, "restitution %.17g\n", s->p.restitution);
    if (s->p.walls == SIM_WALLS_HARD)
        fputs("walls hard\n", f);
    if (s->p.contact == SIM_CONTACT_EXP)
        fprintf(f, "contact exp %.17g %.17g\n", s->p.exp_eps, s->p.exp_kappa);
    if (s->p.gravity != 0) {
        if (s->p.softening != 0)
            fprintf(f, "gravity %.17g %.17g\n", s->p.gravity, s->p.softening);
        else
            fprintf(f, "gravity %.17g\n", s->p.gravity);
    }
    static const char *const friction_names[] = {NULL, "drag", "linear", "rolling"};
    if (s->p.friction > SIM_FRICTION_NONE && s->p.friction <= SIM_FRICTION_ROLLING)
        fprintf(f, "friction %s %.17g\n", friction_names[s->p.friction],
                s->p.friction_c);
    if (s->p.gx != 0 || s->p.gy != 0)
        fprintf(f, "field %.17g %.17g\n", s->p.gx, s->p.gy);
    if (s->p.open && s->p.shape == SIM_RECT) {
        fputs("open", f);
        for (unsigned i = 0; i < 4; i++)
            if (s->p.open & 1u << i)
                fprintf(f, " %s", side_names[i]);
        fputc('\n', f);
    }
    /* In scene order, whatever slots the core keeps the balls in. */
    for (size_t b = 0; b < s->n; b++) {
        size_t i = sim_slot(s, b);
        char buf[8];
        const char *c = scene_color_name(sc->balls[b].color, buf);
        fprintf(f, "ball %.17g %.17g %.17g %.17g %.17g %.17g%s%s\n", s->x[i],
                s->y[i], s->vx[i], s->vy[i], s->m[i], s->r[i], c ? " " : "",
                c ? c : "");
    }
    if (sc->cue > 0 && sc->cue <= s->n)
        fprintf(f, "cue %zu\n", sc->cue);
}
