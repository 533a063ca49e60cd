/*
 * test.h - a tiny test harness: CHECK and CHECK_NEAR record a failure with
 * its place and go on; main.c runs the suites and prints "N passed, N failed".
 */
#ifndef TEST_H
#define TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int test_passed, test_failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (cond) {                                                          \
            test_passed++;                                                   \
        } else {                                                             \
            test_failed++;                                                   \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
        }                                                                    \
    } while (0)

/* |a - b| <= tol, printing both values when not. */
#define CHECK_NEAR(a, b, tol)                                                \
    do {                                                                     \
        double a_ = (a), b_ = (b), t_ = (tol);                               \
        if (fabs(a_ - b_) <= t_) {                                           \
            test_passed++;                                                   \
        } else {                                                             \
            test_failed++;                                                   \
            printf("FAIL %s:%d: %s = %.17g, %s = %.17g, tolerance %g\n",     \
                   __FILE__, __LINE__, #a, a_, #b, b_, t_);                  \
        }                                                                    \
    } while (0)

struct scene;
struct scene_error;

/* Checks that a parse of malformed case @p i of suite @p what failed
 * (rc == -1) on @p line with @p msg as the whole message (@p exact) or a
 * part of it; frees *sc when the parse wrongly succeeded. Returns whether
 * all held (check_parse.c). */
int check_parse_error(const char *what, size_t i, int rc, struct scene *sc,
                      const struct scene_error *err, int line, const char *msg,
                      int exact);

struct sim;
struct session;

/* The simulation of scene text @p text into *s (zeroed first, so that
 * sim_free is safe whatever happens); 0 on success, the parser's message
 * printed on a failure (load.c). */
int test_load(struct sim *s, const char *text);

/* A session started on scene text @p text; 0 on success (load.c). */
int test_start(struct session *ss, const char *text);

/* A copy of @p s made with sim_assign (free it with sim_free) (load.c). */
struct sim test_clone(const struct sim *s);

/* @p n moves forward; @p n moves back, 1 when each went (load.c). */
void test_forward(struct session *ss, int n);
int test_backward(struct session *ss, int n);

struct view;

/* Cells of the view's ball layer that show a ball this frame (test_view.c). */
int test_ball_cells(const struct view *v);

/* Every suite is a function run by main.c. */
void test_sim(void);
void test_scene(void);
void test_systems(void);
void test_universe(void);
void test_event(void);
void test_event_field(void);
void test_particles(void);
void test_view(void);
void test_palette(void);
void test_history(void);
void test_fuzz(void);
void test_grid(void);
void test_lab(void);
void test_plot(void);
void test_labpanel(void);
void test_twin(void);
void test_classroom(void);
void test_friction(void);
void test_session(void);
void test_screen(void);
void test_script(void);
void test_edit(void);
void test_numfmt(void);
void test_record(void);
void test_mem(void);
void test_observe(void);
void test_limits(void);
void test_traj(void);
void test_phet(void);
void test_lesson(void);
void test_split(void);
void test_cast(void);
void test_imd(void);

/* splitmix64, for reproducible scenes: test_seed, then test_urand for
 * doubles uniform in [0, 1) (each test file has its own state). */
static inline uint64_t *test_rng(void)
{
    static uint64_t state;
    return &state;
}

static inline void test_seed(uint64_t seed)
{
    *test_rng() = seed;
}

static inline double test_urand(void)
{
    uint64_t z = (*test_rng() += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

#endif
