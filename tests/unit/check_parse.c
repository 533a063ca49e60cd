/*
 * check_parse.c - the one check of a malformed input, shared by the
 * scene, universe and particle suites.
 */
#include "scene.h"
#include "test.h"

#include <string.h>

int check_parse_error(const char *what, size_t i, int rc, struct scene *sc,
                      const struct scene_error *err, int line, const char *msg,
                      int exact)
{
    CHECK(rc == -1);
    if (rc == 0) {
        scene_free(sc);
        return 0;
    }
    int ok = err->line == line &&
             (exact ? strcmp(err->msg, msg) == 0 : strstr(err->msg, msg) != NULL);
    if (ok) {
        test_passed++;
    } else {
        test_failed++;
        printf("FAIL %s case %zu: got line %d '%s', want line %d '%s'\n", what, i,
               err->line, err->msg, line, msg);
    }
    return ok;
}
