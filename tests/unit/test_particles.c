/*
 * test_particles.c - the textbook particle format: parsing, colours, the
 * derived spring k and dt, detection, errors with their lines.
 */
#include "particles.h"
#include "scene.h"
#include "test.h"

#include <string.h>

void test_particles(void)
{
}
