/*
 * util.c - the growable array (see util.h).
 */
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int util_grow(void *arrayp, size_t *cap, size_t need, size_t size)
{
    void *a;
    memcpy(&a, arrayp, sizeof a);
    if (need <= *cap && a)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (size == 0 || c > SIZE_MAX / size)
        return -1;
    void *b = realloc(a, c * size);
    if (!b)
        return -1;
    memcpy(arrayp, &b, sizeof b);
    *cap = c;
    return 0;
}
