/*
 * fuzz_particles.c - libFuzzer harness: particles_parse, particles_write and
 * the round trip (%.17g numbers and 0-255 channels survive exactly).
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"
#include "particles.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_round_trip(particles_parse, particles_write, (const char *)data, size);
    return 0;
}
