/*
 * files.c - new files under the first free number (see files.h).
 */
#include "files.h"

#include <errno.h>

int files_create(const char *prefix, const char *const ext[], int count, int bare_first,
                 int *next, FILE *f[], char *const names[], size_t size, int *failed)
{
    /* the numbers go on from the last call's: many saves or recordings do
     * not search from 1 each time */
    int from = *next > 1 ? *next : 1;
    *failed = 0;
    for (int n = from; n < from + FILES_TRIES; n++) {
        int k = 0;
        for (; k < count; k++) {
            if (n == 1 && bare_first)
                snprintf(names[k], size, "%s%s", prefix, ext[k]);
            else
                snprintf(names[k], size, "%s-%d%s", prefix, n, ext[k]);
            f[k] = fopen(names[k], "wx"); /* "x": create, never overwrite (C11) */
            if (!f[k])
                break;
        }
        if (k == count) {
            *next = n + 1;
            return 0;
        }
        int e = errno;
        for (int j = 0; j < k; j++) {
            fclose(f[j]);
            remove(names[j]);
        }
        if (e != EEXIST) {
            *failed = k;
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}
