/*
 * fuzz_scene.c - libFuzzer harness: scene_parse, scene_to_sim, scene_write
 * and the round trip (the written scene parses and writes the same bytes).
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_round_trip(scene_parse, scene_write, (const char *)data, size);
    return 0;
}
