/*
 * floor.c - the floor of tests/bench/load.sh: what loading and printing a
 * scene costs in plain C, with nothing of springball's but its printer of
 * numbers. Reads FILE whole (one fread of its size), reads every token
 * that is a number with strtod and prints it back with numfmt_double (the
 * shortest digits that read back the same, as springball prints), copies
 * every other token, and writes the lines to standard output in blocks:
 * the same bytes springball -H -n 0 FILE prints for a scene it printed.
 *
 * With -r the numbers are read by springball's own reader (text_double of
 * text.h, exact as strtod and faster) instead of strtod: the floor of the
 * same job done with springball's two number routines, so that what
 * springball spends beyond them shows.
 *
 *   floor [-r] FILE
 */
#include "numfmt.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int own = argc == 3 && strcmp(argv[1], "-r") == 0;
    if (argc != 2 + own) {
        fputs("usage: floor [-r] FILE\n", stderr);
        return 2;
    }
    const char *path = argv[1 + own];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fclose(f);
    text[len] = 0;
    enum { BLOCK = 1 << 16 };
    char *out = malloc(BLOCK + 4096), *o = out;
    if (!out)
        return 1;
    /* The numbers are parsed into doubles first, then printed, as a
     * program that keeps them would. */
    for (char *p = text; *p;) {
        while (*p == ' ')
            p++;
        if (*p == '\n') {
            *o++ = *p++;
            if (o - out > BLOCK) {
                fwrite(out, 1, (size_t)(o - out), stdout);
                o = out;
            }
            continue;
        }
        char *end;
        double v;
        int sep = o > out && o[-1] != '\n';
        if (own) {
            /* the token's end first: text_double reads a whole token */
            end = p;
            while (*end && *end != ' ' && *end != '\n')
                end++;
            if (text_double(p, (size_t)(end - p), &v))
                end = p;
        } else {
            v = strtod(p, &end);
        }
        if (end > p && (*end == ' ' || *end == '\n' || *end == 0)) {
            if (sep)
                *o++ = ' ';
            o += numfmt_double(o, v);
            p = end;
        } else {
            if (sep)
                *o++ = ' ';
            while (*p && *p != ' ' && *p != '\n')
                *o++ = *p++;
        }
    }
    fwrite(out, 1, (size_t)(o - out), stdout);
    free(out);
    free(text);
    return fflush(stdout) != 0;
}
