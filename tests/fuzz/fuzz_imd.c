/*
 * fuzz_imd.c - libFuzzer harness: the IMD frame reader (imd.h) fed the
 * input as a server's stream, in pieces whose sizes the first byte picks:
 * a bad stream is a message, never a crash; every frame holds finite
 * coordinates of as many atoms as the first; the buffer never grows past
 * twice the bytes fed (and 64 KiB) nor past the largest frame begun (a
 * skipped message, ENERGIES, is never kept). A call may begin and end
 * several messages: only a frame's size is what r.need holds after it
 * (a call ends at a frame's end), so only frames are counted.
 */
#include "imd.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t piece = 1 + data[0] % 64;
    data++, size--;
    struct imd_reader r;
    imd_reader_init(&r, 0);
    r.max_atoms = 1 << 16; /* small frames: a run stays fast */
    size_t at = 0, n0 = 0, most = 0; /* the largest frame begun */
    while (at < size) {
        size_t k = size - at < piece ? size - at : piece, used;
        int ev = imd_reader_feed(&r, data + at, k, &used);
        if (used > k)
            abort();
        at += used;
        if (r.type == IMD_FCOORDS && r.need > most)
            most = r.need;
        if (r.cap > 2 * at + (1u << 16) || r.cap > most)
            abort();
        if (ev == IMD_ERR) {
            if (!r.msg[0])
                abort();
            break;
        }
        if (ev == IMD_FRAME) {
            if (!n0)
                n0 = r.natoms;
            if (r.natoms != n0 || !r.xyz)
                abort();
            for (size_t i = 0; i < 3 * r.natoms; i++)
                if (!isfinite(r.xyz[i]))
                    abort();
        } else if (used != k) {
            abort(); /* IMD_MORE takes all */
        }
    }
    char where[160];
    imd_reader_where(&r, where, sizeof where);
    imd_reader_free(&r);
    return 0;
}
