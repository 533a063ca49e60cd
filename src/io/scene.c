/*
 * scene.c - parse the native scene format (its generators, rack and
 * random, are in scene_gen.c; the writer, scene_write.c).
 *
 * A scene is line-based text. '#' at the start of a token begins a comment
 * (except a ball's #rrggbb colour: '#' and six bytes there); blank lines are ignored; tokens are
 * separated by spaces or tabs. Errors carry the line and stop the parse.
 */
#include "scene_impl.h"
#include "scene_gen.h"
#include "numfmt.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TOKENS = 16 };

const char *const scene_color_names[SCENE_COLOR_NAMED + 1] = {
    NULL, "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

/* The directives, rows of the table `directives` (below, after their
 * functions). */
enum directive_id {
    D_TABLE, D_K, D_DT, D_RESTITUTION, D_WALLS, D_CONTACT, D_GRAVITY,
    D_FRICTION, D_FIELD, D_OPEN, D_BALL, D_RACK, D_CUE, D_RANDOM, D_TITLE,
    D_COUNT
};

/* Everything the parser carries from line to line. */
struct parser {
    struct scene *sc;
    struct scene_error *err;
    int line;
    int *ball_line;        /* source line of each ball, for late checks;
                              negative for one a rack or random made */
    enum directive_id dir; /* the directive of the line being parsed */
    int seen[D_COUNT];     /* line where each once-only directive came; 0: not yet */
    const char *raw;       /* the line being parsed, raw_len bytes (for title) */
    size_t raw_len;
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
        if (tok_is(t, scene_color_names[c])) {
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
    ps->ball_line[sc->n] = ps->line;
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

/* Takes in the @p count balls a generator wrote after the last one (in
 * room that reserve made), as made on this line. */
static void adopt(struct parser *ps, size_t count)
{
    for (size_t i = 0; i < count; i++)
        ps->ball_line[ps->sc->n + i] = -ps->line;
    ps->sc->n += count;
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

/* The scene language, one row a directive: a line starting with NAME is
 * parsed by FN; a row with once may come once a scene. Adding a directive
 * is adding a row, its D_ name and its function (the table itself follows
 * the functions). */
struct directive {
    const char *name;
    int (*fn)(struct parser *ps, const struct text_token *tok, int ntok);
    int once;
};
static const struct directive directives[D_COUNT];

/* Fails when the line's directive is once-only (its row says so) and came
 * before. Each directive's function calls it after counting its fields, so
 * that a line both repeated and malformed names its form first. */
static int once(struct parser *ps)
{
    int *seen = &ps->seen[ps->dir];
    if (!directives[ps->dir].once)
        return 0;
    if (*seen)
        return TEXT_FAIL(ps, "'%s' given twice (first on line %d)",
                         directives[ps->dir].name, *seen);
    *seen = ps->line;
    return 0;
}

static int d_table(struct parser *ps, const struct text_token *tok, int ntok)
{
    int circle = ntok > 1 && tok_is(tok[1], "circle");
    if (circle ? expect_fields(ps, tok, ntok, 2, 2, "table circle R")
               : expect_fields(ps, tok, ntok, 2, 2, "table W H"))
        return -1;
    if (once(ps))
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
        once(ps))
        return -1;
    return parse_positive(ps, tok[1], "stiffness k", &ps->sc->p.k);
}

static int d_dt(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "dt DT") ||
        once(ps))
        return -1;
    return parse_positive(ps, tok[1], "time step dt", &ps->sc->p.dt);
}

static int d_restitution(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "restitution E") ||
        once(ps))
        return -1;
    double e;
    if (parse_double(ps, tok[1], "restitution", &e))
        return -1;
    if (!(e >= 0 && e <= 1))
        return TEXT_FAIL(ps, "restitution must be >= 0 and <= 1");
    ps->sc->p.restitution = e;
    return 0;
}

static int d_walls(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 1, "walls hard|spring") ||
        once(ps))
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
            once(ps))
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
            once(ps))
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
        once(ps))
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
            once(ps))
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
        once(ps))
        return -1;
    struct sim_params *p = &ps->sc->p;
    return parse_double(ps, tok[1], "field GX", &p->gx) ||
           parse_double(ps, tok[2], "field GY", &p->gy) ? -1 : 0;
}

const char *const scene_side_names[4] = {"left", "right", "bottom", "top"};

static int d_open(struct parser *ps, const struct text_token *tok, int ntok)
{
    if (expect_fields(ps, tok, ntok, 1, 4, "open SIDE... (left right bottom top)") ||
        once(ps))
        return -1;
    unsigned open = 0;
    for (int t = 1; t < ntok; t++) {
        unsigned bit = 0;
        for (unsigned i = 0; i < 4; i++)
            if (tok_is(tok[t], scene_side_names[i]))
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
    size_t count = (size_t)SCENE_GEN_RACK_BALLS(rows);
    if (reserve(ps, count))
        return -1;
    scene_gen_rack(ps->sc->balls + ps->sc->n, x, y, rows, r, m);
    adopt(ps, count);
    return 0;
}

/* scene_gen_on_table with no bound past an open side: where hard walls may
 * take a ball (it keeps flying once it has left), so where one may start. */
static int on_table_open(const struct sim_params *p, double x, double y,
                            double r)
{
    r -= sim_wall_slack(p, r); /* a printed state reads back (types.h) */
    if (p->shape != SIM_RECT || !p->open)
        return scene_gen_on_table(p, x, y, r);
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
    if (expect_fields(ps, tok, ntok, 1, 1, "cue N") || once(ps) ||
        parse_count(ps, tok[1], "cue", 1, SCENE_MAX_BALLS, &n))
        return -1;
    if (n > ps->sc->n)
        return TEXT_FAIL(ps, "cue %llu: there %s %zu ball%s before this line", n,
                         ps->sc->n == 1 ? "is" : "are", ps->sc->n,
                         ps->sc->n == 1 ? "" : "s");
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
    if (ntok == 7) {
        char buf[64];
        if (!tok_is(tok[6], "maxwell"))
            return TEXT_FAIL(ps, "random: unknown option '%s' (use maxwell)",
                             text_str(tok[6], buf, sizeof buf));
        maxwell = 1;
    }
    struct scene *sc = ps->sc;
    if (!scene_gen_on_table(&sc->p, 0.5 * sc->p.w, 0.5 * sc->p.h, R))
        return TEXT_FAIL(ps, "random: radius %.17g does not fit the table", R);
    if (reserve(ps, n))
        return -1;
    struct scene_gen_random a = {n, R0, R, m, speed, seed, maxwell};
    unsigned long long placed;
    int rc = scene_gen_random(sc->balls, sc->n, &sc->p, &a, &placed);
    adopt(ps, (size_t)placed);
    if (rc == SCENE_GEN_FULL)
        return TEXT_FAIL(ps, "random: cannot place %llu balls of radius %.17g "
                             "without overlap (placed %llu)", n, R, placed);
    if (rc)
        return TEXT_FAIL(ps, "out of memory");
    return 0;
}

static int d_title(struct parser *ps, const struct text_token *tok, int ntok)
{
    (void)ntok;
    /* The raw rest of the line, up to a comment, keeps its spacing. */
    const char *rest = tok[0].s + tok[0].len;
    size_t len = (size_t)(ps->raw + ps->raw_len - rest);
    for (size_t i = 0; i < len; i++)
        if (rest[i] == '#' && (i == 0 || rest[i - 1] == ' ' || rest[i - 1] == '\t')) {
            len = i;
            break;
        }
    while (len && (*rest == ' ' || *rest == '\t')) {
        rest++;
        len--;
    }
    if (once(ps))
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

static const struct directive directives[D_COUNT] = {
    [D_TABLE] = {"table", d_table, 1},
    [D_K] = {"k", d_k, 1},
    [D_DT] = {"dt", d_dt, 1},
    [D_RESTITUTION] = {"restitution", d_restitution, 1},
    [D_WALLS] = {"walls", d_walls, 1},
    [D_CONTACT] = {"contact", d_contact, 1},
    [D_GRAVITY] = {"gravity", d_gravity, 1},
    [D_FRICTION] = {"friction", d_friction, 1},
    [D_FIELD] = {"field", d_field, 1},
    [D_OPEN] = {"open", d_open, 1},
    [D_BALL] = {"ball", d_ball, 0},
    [D_RACK] = {"rack", d_rack, 0},
    [D_CUE] = {"cue", d_cue, 1},
    [D_RANDOM] = {"random", d_random, 0},
    [D_TITLE] = {"title", d_title, 1},
};

/* Splits one line into tokens, storing the first @p max; returns how many
 * there are. A token opening with '#' ends the line, except a '#' and six
 * bytes (#rrggbb) right where a ball's colour stands. */
static int tokenize(const char *s, size_t len, struct text_token *tok, int max)
{
    int n = 0;
    const char *p = s;
    struct text_token t;
    while (text_next(&p, s + len, &t)) {
        /* Where a ball's colour stands, '#' and six more bytes is a colour
         * (a bad one is an error: #12345g once became a comment). */
        if (t.s[0] == '#' && !(n == 7 && tok_is(tok[0], "ball") && t.len == 7))
            break;
        if (n < max)
            tok[n] = t;
        n++;
    }
    return n;
}

/*
 * A line "ball X Y VX VY M R [COLOR]" as springball prints them: no blank
 * before "ball", six numbers that text_double_prefix reads whole, each
 * ended by a blank or the line's end, M and R > 0, a colour name or
 * #rrggbb, nothing more. Such a line is the ball d_ball makes of it, added
 * here without splitting it into tokens first (a scene of 10^6 balls is
 * 10^6 of them). @return add_ball's result, or 1 for any other line:
 * parse_line's general path then reads it and says what is wrong.
 */
static int ball_line(struct parser *ps, const char *s, size_t len)
{
    if (len < 5 || memcmp(s, "ball", 4) != 0 || !text_blank(s[4]))
        return 1;
    const char *p = s + 4, *end = s + len;
    struct scene_ball b = {0};
    double *const v[6] = {&b.x, &b.y, &b.vx, &b.vy, &b.m, &b.r};
    for (int k = 0; k < 6; k++) {
        while (p < end && text_blank(*p))
            p++;
        size_t n = text_double_prefix(p, (size_t)(end - p), v[k]);
        /* 512 bytes or more: the general path says "number too long",
         * as for every other number (leading zeros make one long) */
        if (n == 0 || n >= TEXT_NUMBER_MAX)
            return 1;
        p += n;
        if (p < end && !text_blank(*p))
            return 1;
    }
    if (!(b.m > 0) || !(b.r > 0))
        return 1;
    while (p < end && text_blank(*p))
        p++;
    if (p < end) {
        struct text_token t = {p, 0};
        while (p < end && !text_blank(*p))
            p++;
        t.len = (size_t)(p - t.s);
        /* a name, or #rrggbb: a '#' token of another length is a comment */
        for (uint32_t c = 1; c <= SCENE_COLOR_NAMED && !b.color; c++)
            if (tok_is(t, scene_color_names[c]))
                b.color = c;
        if (!b.color && !(b.color = parse_hex_color(t)))
            return 1;
        while (p < end && text_blank(*p))
            p++;
        if (p < end)
            return 1;
    }
    ps->dir = D_BALL;
    return add_ball(ps, &b);
}

static int parse_line(struct parser *ps, const char *s, size_t len)
{
    int fast = ball_line(ps, s, len);
    if (fast != 1)
        return fast;
    struct text_token tok[MAX_TOKENS];
    int ntok = tokenize(s, len, tok, MAX_TOKENS);
    if (ntok == 0)
        return 0;
    /* A big scene is nearly all ball lines: that row first. */
    int d = tok_is(tok[0], "ball") ? D_BALL : 0;
    for (; d < D_COUNT; d++)
        if (tok_is(tok[0], directives[d].name)) {
            ps->dir = (enum directive_id)d;
            ps->raw = s;
            ps->raw_len = len;
            return directives[d].fn(ps, tok, ntok);
        }
    char buf[64];
    return TEXT_FAIL(ps, "unknown directive '%s'", text_shown(tok[0], buf, sizeof buf));
}

/*
 * Where a ball may lie, so that every state a run prints is itself a valid
 * scene. With spring walls (the default) a `ball` may lie anywhere, even
 * off the table: the walls push it back with k times the penetration, and a
 * violent run leaves balls deep in (or through) a wall. With hard walls every
 * ball lies wholly on the table, as the engine keeps it, up to rounding
 * (sim_wall_slack). The balls a rack or
 * random line makes must have their centres on the table: a rack past a wall
 * is a slip of the pen.
 */
static int check_inside(struct parser *ps)
{
    const struct scene *sc = ps->sc;
    if (sc->p.open && sc->p.shape != SIM_RECT) {
        ps->line = ps->seen[D_OPEN];
        return TEXT_FAIL(ps, "open: only a rectangular table has sides to open");
    }
    for (size_t i = 0; i < sc->n; i++) {
        const struct scene_ball *b = &sc->balls[i];
        int made = ps->ball_line[i] < 0;
        /* Hard walls keep every ball wholly on the table (or past an open
         * side), so it must start there. */
        if (sc->p.walls == SIM_WALLS_HARD &&
            !on_table_open(&sc->p, b->x, b->y, b->r)) {
            ps->line = made ? -ps->ball_line[i] : ps->ball_line[i];
            return TEXT_FAIL(ps, "ball %zu at (%.17g, %.17g) of radius %.17g crosses "
                                 "a wall (with walls hard every ball must lie wholly "
                                 "on the table)", i + 1, b->x, b->y, b->r);
        }
        if (made && !scene_gen_on_table(&sc->p, b->x, b->y, 0)) {
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
    /* The first NUL byte, looked for once: the line that holds it fails
     * when its turn comes (an earlier line's fault is named first). */
    const char *nul = memchr(text, 0, len);
    const size_t nul_at = nul ? (size_t)(nul - text) : len;
    while (i < len && rc == 0) {
        ps.line++;
        const char *nl = memchr(text + i, '\n', len - i);
        size_t j = nl ? (size_t)(nl - text) : len;
        size_t l = j - i;
        if (l && text[i + l - 1] == '\r')
            l--;
        if (nul_at < i + l)
            rc = TEXT_FAIL(&ps, "NUL byte in the scene");
        else
            rc = parse_line(&ps, text + i, l);
        i = j + 1;
    }
    /* A table and no balls is an empty table to fill (the front end's
     * live edits); nothing at all is a mistake. */
    if (rc == 0 && sc->n == 0 && !ps.seen[D_TABLE]) {
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
    return scene_to_sim_as(sc, s, 0);
}

int scene_to_sim_as(const struct scene *sc, struct sim *s, unsigned how)
{
    if (sim_init_as(s, sc->n, &sc->p, how))
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
