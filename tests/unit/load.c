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
