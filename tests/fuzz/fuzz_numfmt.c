/*
 * fuzz_numfmt.c - libFuzzer harness: the shortest round-trip printer
 * (numfmt.c) against the C library. For each 8 bytes taken as the bits of
 * a double: the text fits NUMFMT_MAX, strtod reads back the very same bits
 * (NaN reads back as a NaN), no string of fewer significant digits reads
 * back (printf's correctly rounded %.*e with one digit less does not), and
 * printf's correctly rounded string of as many digits is the same number
 * unless it does not read back. numfmt_u64 agrees with %llu.
 */
#include "numfmt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void one(double v)
{
    char buf[NUMFMT_MAX + 8];
    memset(buf, 'x', sizeof buf);
    size_t n = numfmt_double(buf, v);
    if (n >= NUMFMT_MAX || strlen(buf) != n || buf[NUMFMT_MAX + 7] != 'x')
        __builtin_trap();
    double back = strtod(buf, NULL);
    if (isnan(v)) {
        if (!isnan(back))
            __builtin_trap();
        return;
    }
    if (!same_bits(back, v))
        __builtin_trap();
    uint64_t digits;
    int e10;
    numfmt_decimal(v, &digits, &e10);
    if (v == 0 || !isfinite(v)) {
        if (digits != 0)
            __builtin_trap();
        return;
    }
    if (digits == 0 || digits >= 100000000000000000ull || digits % 10 == 0)
        __builtin_trap();
    int nd = 0;
    for (uint64_t d = digits; d; d /= 10)
        nd++;
    char alt[64];
    if (nd > 1) { /* one digit fewer never reads back */
        snprintf(alt, sizeof alt, "%.*e", nd - 2, v);
        if (same_bits(strtod(alt, NULL), v))
            __builtin_trap();
    }
    /* as many digits, correctly rounded: the same, or not a round trip */
    snprintf(alt, sizeof alt, "%.*e", nd - 1, v);
    if (same_bits(strtod(alt, NULL), v)) {
        char mine[64];
        snprintf(mine, sizeof mine, "%llu", (unsigned long long)digits);
        char *e = strchr(alt, 'e');
        int pe = atoi(e + 1);
        char pd[64];
        size_t k = 0;
        for (const char *c = alt; c < e; c++)
            if (*c >= '0' && *c <= '9')
                pd[k++] = *c;
        pd[k] = 0;
        while (k > 1 && pd[k - 1] == '0')
            pd[--k] = 0;
        /* printf: d.ddd x 10^pe; numfmt: digits x 10^e10 */
        if (strcmp(pd, mine) != 0 || pe != e10 + nd - 1)
            __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 8 <= size; i += 8) {
        double v;
        uint64_t u;
        memcpy(&v, data + i, 8);
        memcpy(&u, data + i, 8);
        one(v);
        one((double)u);
        if (fabs(v) <= FLT_MAX) /* floats printed as doubles: short forms */
            one((double)(float)v);
        char a[24], b[24];
        size_t n = numfmt_u64(a, u);
        int m = snprintf(b, sizeof b, "%llu", (unsigned long long)u);
        if (n != (size_t)m || memcmp(a, b, n) != 0)
            __builtin_trap();
    }
    return 0;
}
