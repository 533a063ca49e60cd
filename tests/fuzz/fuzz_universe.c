/*
 * fuzz_universe.c - libFuzzer harness: universe_parse, universe_write.
 *
 * The format rounds numbers to %11.4e and R to %.2e, so the first write is
 * lossy; the property is that it parses, and that writing what it parses to
 * gives the same bytes again (the rounded text is a fixed point).
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "universe.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_round_trip(universe_parse, universe_write, (const char *)data, size);
    return 0;
}
