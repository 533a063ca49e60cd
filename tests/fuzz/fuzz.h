/*
 * fuzz.h - shared by the libFuzzer harnesses: write a state to memory and
 * compare two writes.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include "scene.h"
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a writer prints for (sc, s), in a malloc'd buffer of *len bytes. */
typedef void fuzz_writer(FILE *f, const struct scene *sc, const struct sim *s);

static char *fuzz_write(fuzz_writer *w, const struct scene *sc,
                        const struct sim *s, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    w(f, sc, s);
    if (fclose(f))
        abort();
    return buf;
}

/* Fails loudly (so that libFuzzer keeps the input) with both texts. */
static void fuzz_mismatch(const char *what, const char *a, size_t alen,
                          const char *b, size_t blen)
{
    fprintf(stderr, "round trip: %s\n--- first write (%zu bytes)\n%.*s\n"
                    "--- second write (%zu bytes)\n%.*s\n",
            what, alen, (int)(alen < 4000 ? alen : 4000), a, blen,
            (int)(blen < 4000 ? blen : 4000), b);
    abort();
}

/*
 * The round trip: parse the input; if it parses, build a simulation and
 * write it; the written text must parse again and write the same bytes.
 */
typedef int fuzz_parser(struct scene *sc, const char *text, size_t len,
                        struct scene_error *err);

static void fuzz_round_trip(fuzz_parser *parse, fuzz_writer *write,
                            const char *text, size_t len)
{
    struct scene sc;
    struct scene_error err;
    if (parse(&sc, text, len, &err)) {
        /* A message always names a line and says something. */
        if (err.line < 1 || !err.msg[0])
            abort();
        return;
    }
    struct sim s;
    if (scene_to_sim(&sc, &s))
        abort();
    size_t l1, l2;
    char *t1 = fuzz_write(write, &sc, &s, &l1);
    struct scene sc2;
    if (parse(&sc2, t1, l1, &err)) {
        fprintf(stderr, "round trip: the written text does not parse: "
                        "%d: %s\n", err.line, err.msg);
        fuzz_mismatch("reparse failed", t1, l1, "", 0);
    }
    struct sim s2;
    if (scene_to_sim(&sc2, &s2))
        abort();
    char *t2 = fuzz_write(write, &sc2, &s2, &l2);
    if (l1 != l2 || memcmp(t1, t2, l1))
        fuzz_mismatch("the second write differs", t1, l1, t2, l2);
    free(t1);
    free(t2);
    sim_free(&s);
    sim_free(&s2);
    scene_free(&sc);
    scene_free(&sc2);
}

#endif
