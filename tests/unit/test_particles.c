/*
 * test_particles.c - the textbook particle format: parsing, colours, the
 * derived spring k and dt, detection, errors with their lines.
 */
#include "particles.h"
#include "scene.h"
#include "test.h"

#include <string.h>

static int parse(struct scene *sc, const char *text, struct scene_error *err)
{
    return particles_parse(sc, text, strlen(text), err);
}

static void test_parse(void)
{
    struct scene sc;
    struct scene_error err;
    /* Java's number forms: leading dot, exponent E; a CRLF line; blank
     * lines at the end. */
    const char *text = "2\n"
                       " .05 .05 .01 -1.5E-4 .01 1 200 0 0\r\n"
                       "0.95\t0.05 -.01 .01 0.02 3 0 10 255\n\n\n";
    CHECK(particles_detect(text, strlen(text)));
    CHECK(parse(&sc, text, &err) == 0);
    CHECK(sc.n == 2 && sc.format == SCENE_FORMAT_PARTICLES);
    CHECK(sc.p.w == 1 && sc.p.h == 1 && sc.p.shape == SIM_RECT);
    CHECK(sc.p.restitution == 1);
    CHECK(sc.balls[0].x == 0.05 && sc.balls[0].vy == -1.5e-4);
    CHECK(sc.balls[0].r == 0.01 && sc.balls[0].m == 1);
    CHECK(sc.balls[1].r == 0.02 && sc.balls[1].m == 3);
    CHECK(sc.balls[0].color == (SCENE_COLOR_RGB | 0xc80000));
    CHECK(sc.balls[1].color == (SCENE_COLOR_RGB | 0x000aff));
    /* k = 4 KEmax / (0.01 rmin)^2 with KEmax = 3 * 0.0002 / 2 (ball 2:
     * speed^2 = 2e-4); dt = pi sqrt(mu/k) / 20 with mu = 1*3/4. */
    double ke = 0.5 * 3 * (0.01 * 0.01 + 0.01 * 0.01);
    double k = 4 * ke / (1e-4 * 1e-4);
    CHECK_NEAR(sc.p.k, k, 1e-9 * k);
    CHECK_NEAR(sc.p.dt, SIM_PI * sqrt(0.75 / k) / 20, 1e-12);
    /* the overlap bound it promises: a head-on hit of the two at their
     * speeds, relative kinetic energy mu |dv|^2 / 2 = k s^2 / 2 */
    double dv2 = 0.02 * 0.02 + (0.01 + 1.5e-4) * (0.01 + 1.5e-4);
    double s = sqrt(0.75 * dv2 / sc.p.k);
    CHECK(s <= 0.01 * 0.01);
    scene_free(&sc);

    /* at rest: KEmax taken as 1/2 */
    CHECK(parse(&sc, "1\n0.5 0.5 0 0 0.1 2 1 2 3\n", &err) == 0);
    CHECK_NEAR(sc.p.k, 4 * 0.5 / (1e-3 * 1e-3), 1e-3);
    scene_free(&sc);
}

static void test_detect(void)
{
    static const char *const no[] = {
        "table 800 400\nball 1 1 0 0 1 1\n",
        "5\n2.50e+11\n1.4960e+11 0 0 2.98e+04 5.97e+24 earth.gif\n", /* universe */
        "3\n",
        "3 4\n1 2 3 4 5 6 7 8 9\n",
        "x\n1 2 3 4 5 6 7 8 9\n",
        "",
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        CHECK(!particles_detect(no[i], strlen(no[i])));
    const char *yes = "\n 1 \n\n1 2 3 4 5 6 7 8 9\n";
    CHECK(particles_detect(yes, strlen(yes)));
}

static void test_errors(void)
{
    static const struct {
        const char *text;
        int line;
        const char *msg;
    } cases[] = {
        {"", 1, "empty file (expected the number of particles)"},
        {"2 3\n", 1, "expected the number of particles alone on the line"},
        {"-2\n", 1, "particle count: '-2' is not a whole number"},
        {"0\n", 1, "particle count must be between 1 and 268435455"},
        {"2\n.5 .5 0 0 .1 1 0 0 0\n", 2, "expected 2 particles (line 1), found 1"},
        {"1\n.5 .5 0 0 .1 1 0 0\n", 2,
         "expected 9 fields (rx ry vx vy radius mass r g b), found 8"},
        {"1\n\n.5 .5 0 0 .1 1 0 0 0 0\n", 3,
         "expected 9 fields (rx ry vx vy radius mass r g b), found 10"},
        {"1\n.5 .5 0 x .1 1 0 0 0\n", 2, "vy: 'x' is not a number"},
        {"1\n.5 .5 0 1e999 .1 1 0 0 0\n", 2, "vy: '1e999' is not a finite number"},
        {"1\n.5 .5 0 0 0 1 0 0 0\n", 2, "radius must be > 0"},
        {"1\n.5 .5 0 0 .1 -1 0 0 0\n", 2, "mass must be > 0"},
        {"1\n.5 .5 0 0 .1 1 0 256 0\n", 2, "green: '256' is not a whole number from 0 to 255"},
        {"1\n.5 .5 0 0 .1 1 0 0 1.5\n", 2, "blue: '1.5' is not a whole number from 0 to 255"},
        {"1\n.5 .5 0 0 .1 1 0 0 0\n.5 .5 0 0 .1 1 0 0 0\n", 3,
         "extra data after the 1 particles declared on line 1"},
        {"1\n.5 .5 0 0 1e-300 1 0 0 0\n", 1,
         "no finite spring stiffness and time step suit these particles"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct scene sc;
        struct scene_error err;
        int rc = parse(&sc, cases[i].text, &err);
        check_parse_error("particles", i, rc, &sc, &err, cases[i].line, cases[i].msg, 1);
    }
    struct scene sc;
    struct scene_error err;
    CHECK(particles_parse(&sc, "1\n.5 .5 0 0 .1 1 0 0 0\n\0", 24, &err) == -1);
    CHECK(strcmp(err.msg, "NUL byte in the file") == 0 && err.line == 3);
}

void test_particles(void)
{
    test_parse();
    test_detect();
    test_errors();
}
