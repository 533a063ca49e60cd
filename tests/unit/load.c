/*
 * load.c - a simulation or a session from scene text, shared by the
 * suites that build their cases from a few lines of a scene.
 */
#include "scene.h"
#include "session.h"
#include "sim.h"
#include "test.h"

#include <string.h>

int test_load(struct sim *s, const char *text)
{
    struct scene sc;
    struct scene_error err;
    memset(s, 0, sizeof *s); /* sim_free is safe after a failure */
    if (scene_parse(&sc, text, strlen(text), &err)) {
        printf("scene error %d: %s\n", err.line, err.msg);
        return -1;
    }
    int rc = scene_to_sim(&sc, s);
    scene_free(&sc);
    return rc;
}

int test_start(struct session *ss, const char *text)
{
    struct sim s;
    if (test_load(&s, text))
        return -1;
    int rc = session_init(ss, &s);
    sim_free(&s);
    return rc;
}

struct sim test_clone(const struct sim *s)
{
    struct sim c = {0};
    sim_assign(&c, s);
    return c;
}

void test_forward(struct session *ss, int n)
{
    for (int i = 0; i < n; i++)
        session_forward(ss);
}

int test_backward(struct session *ss, int n)
{
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= session_back(ss) == 0;
    return ok;
}
