/*
 * test_numfmt.c - the shortest round-trip printer against strtod and printf.
 *
 * Every number printed must read back to the same bits (strtod); its digit
 * count must be the least possible (no decimal of one digit fewer reads
 * back: checked with the nearest ones, printed by printf's exact %.Ne); and
 * when the correctly rounded decimal of that length reads back, it must be
 * that one. Inputs: edge values (zeros, subnormals, powers of two and ten
 * and their neighbours, integers around 2^53, DBL_MAX), uniformly random
 * bit patterns and random values in everyday ranges.
 *
 * NUMFMT_COUNT=N in the environment sets the random round-trip count
 * (default 2,000,000; the full check runs on every 8th of them).
 * NUMFMT_ALL_FLOATS=1 also checks every double that a float holds (all
 * 2^32 bit patterns of a float, widened; the full check on every 64th):
 * values with short binary significands, many of them exact decimals.
 */
#include "numfmt.h"
#include "pow10_exact.h"
#include "test.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt_pow10.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
    z = (z ^ z >> 27) * 0x94d049bb133111ebu;
    return z ^ z >> 31;
}

static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint64_t to_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static long failures_shown;

static int fail_once(const char *what, double v, const char *got)
{
    if (failures_shown++ < 10)
        printf("FAIL numfmt %s: %016" PRIx64 " (%.17g) printed '%s'\n", what,
               to_bits(v), v, got);
    return 0;
}

/* Whether text reads back as v (same bits). */
static int reads_back(const char *text, double v)
{
    char *end;
    double r = strtod(text, &end);
    return *end == 0 && to_bits(r) == to_bits(v);
}

/* Whether some decimal of p significant digits reads back as v: the
 * correctly rounded one and its two neighbours bracket v, so if any of that
 * length lies in v's rounding interval, one of those three does. */
static int some_decimal_reads_back(double v, int p)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*e", p - 1, fabs(v));
    /* buf = D.DDDe+XX: the digits as an integer and the exponent */
    uint64_t m = 0;
    char *q = buf;
    for (; *q != 'e'; q++)
        if (*q != '.')
            m = m * 10 + (uint64_t)(*q - '0');
    int x = atoi(q + 1) - (p - 1);
    for (int dm = -1; dm <= 1; dm++) {
        if (m == 0 && dm < 0)
            continue;
        char t[64];
        snprintf(t, sizeof t, "%s%" PRIu64 "e%d", v < 0 ? "-" : "",
                 m + (uint64_t)(int64_t)dm, x);
        if (reads_back(t, v))
            return 1;
    }
    return 0;
}

/* The full check of one value; @return 1 when all holds. */
static int check_value(double v, int full)
{
    char buf[NUMFMT_MAX + 8];
    memset(buf, 'Z', sizeof buf);
    size_t n = numfmt_double(buf, v);
    if (n >= NUMFMT_MAX || buf[n] != 0 || strlen(buf) != n)
        return fail_once("length", v, buf);
    for (size_t k = NUMFMT_MAX; k < sizeof buf; k++)
        if (buf[k] != 'Z')
            return fail_once("wrote past NUMFMT_MAX", v, buf);
    if (isnan(v))
        return strcmp(buf, "nan") == 0 || fail_once("nan", v, buf);
    if (!reads_back(buf, v))
        return fail_once("round trip", v, buf);
    if (!full || v == 0 || isinf(v))
        return 1;
    uint64_t d;
    int e;
    numfmt_decimal(v, &d, &e);
    if (d == 0 || d % 10 == 0 || d >= UINT64_C(100000000000000000))
        return fail_once("digits", v, buf);
    int nd = 0;
    for (uint64_t u = d; u; u /= 10)
        nd++;
    if (nd > 1 && some_decimal_reads_back(v, nd - 1))
        return fail_once("not shortest", v, buf);
    /* The correctly rounded decimal of nd digits, when it reads back, is
     * the nearest: it must be ours. */
    char r[64];
    snprintf(r, sizeof r, "%.*e", nd - 1, v);
    if (reads_back(r, v)) {
        char ours[64];
        snprintf(ours, sizeof ours, "%s%" PRIu64 "e%d", v < 0 ? "-" : "", d, e);
        if (strtod(ours, NULL) != strtod(r, NULL))
            return fail_once("not nearest", v, buf);
    }
    return 1;
}

static void check_layout(void)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        {0.0, "0"},
        {1.0, "1"},
        {-1.5, "-1.5"},
        {0.1, "0.1"},
        {0.3, "0.3"},
        {0.1 + 0.2, "0.30000000000000004"},
        {1.0 / 3, "0.3333333333333333"},
        {2.0 / 3, "0.6666666666666666"},
        {100, "100"},
        {123.456, "123.456"},
        {1e16, "10000000000000000"},
        {1e17, "1e+17"},
        {1.5e300, "1.5e+300"},
        {0.00001, "0.00001"},
        {0.000012345, "0.000012345"},
        {1e-6, "1e-06"},
        {-2.5e-7, "-2.5e-07"},
        {9007199254740993.0, "9007199254740992"},
        {12345678901234567.0, "12345678901234568"},
        {DBL_MAX, "1.7976931348623157e+308"},
        {DBL_MIN, "2.2250738585072014e-308"},
        {-DBL_MIN, "-2.2250738585072014e-308"},
        {4.9406564584124654e-324, "5e-324"},
        {9.8813129168249309e-324, "1e-323"},
        {2.2250738585072009e-308, "2.225073858507201e-308"},
        {5e-324 * 3, "1.5e-323"},
        {800, "800"},
        {0.05, "0.05"},
        {1e23, "1e+23"},
        {9.5, "9.5"},
    };
    char buf[NUMFMT_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        numfmt_double(buf, cases[i].v);
        if (strcmp(buf, cases[i].want) != 0) {
            printf("FAIL numfmt layout: %.17g printed '%s', want '%s'\n",
                   cases[i].v, buf, cases[i].want);
            test_failed++;
        } else {
            test_passed++;
        }
    }
    numfmt_double(buf, -0.0);
    CHECK(strcmp(buf, "-0") == 0);
    numfmt_double(buf, INFINITY);
    CHECK(strcmp(buf, "inf") == 0);
    numfmt_double(buf, -INFINITY);
    CHECK(strcmp(buf, "-inf") == 0);
    numfmt_double(buf, NAN);
    CHECK(strcmp(buf, "nan") == 0);
    size_t n = numfmt_u64(buf, 18446744073709551615u);
    buf[n] = 0;
    CHECK(strcmp(buf, "18446744073709551615") == 0);
    n = numfmt_u64(buf, 0);
    buf[n] = 0;
    CHECK(strcmp(buf, "0") == 0);
}

/* The table against the big-integer oracle, and the logarithm shortcuts
 * of numfmt.c (repeated here: they are static there) over their ranges. */
static void check_table(void)
{
    int bad = 0;
    for (int e = NUMFMT_E_MIN; e <= NUMFMT_E_MAX; e++) {
        uint64_t h, l;
        int E;
        pow10_exact(e, &h, &l, &E);
        const uint64_t *g = numfmt_pow10[e - NUMFMT_E_MIN];
        if (g[0] != h || g[1] != l || !(h >> 63))
            bad++;
        /* floor(log2 10^e) = E + 127 */
        if ((int)((int64_t)e * 913124641741 >> 38) != E + 127)
            bad++;
    }
    CHECK(bad == 0);
    /* floor(q log10 2) and floor(log10(3/4 2^q)) for every exponent of a
     * double, with the h of numfmt.c in 1..4. */
    bad = 0;
    for (int q = -1074; q <= 971; q++) {
        long double l2 = q * 0.301029995663981195213738894724493027L;
        int k1 = (int)floorl(l2);
        int k2 = (int)floorl(l2 + log10l(0.75L));
        if ((int)((int64_t)q * 661971961083 >> 41) != k1 ||
            (int)(((int64_t)q * 661971961083 - 274743187321) >> 41) != k2)
            bad++;
        for (int k = k2; k <= k1; k++) {
            int h = q + (int)((int64_t)-k * 913124641741 >> 38) + 1;
            if ((k == k1 || k == k2) && (h < 1 || h > 4 || -k < NUMFMT_E_MIN ||
                                         -k > NUMFMT_E_MAX))
                bad++;
        }
    }
    CHECK(bad == 0);
}

static void check_edges(long *count, long *ok)
{
    /* Both zeros read back with their sign. */
    ++*count;
    *ok += check_value(0.0, 1);
    ++*count;
    *ok += check_value(-0.0, 1);
    double vals[64];
    size_t nv = 0;
    vals[nv++] = DBL_MAX;
    vals[nv++] = DBL_MIN;
    vals[nv++] = DBL_TRUE_MIN;
    vals[nv++] = DBL_EPSILON;
    vals[nv++] = 9007199254740992.0;
    vals[nv++] = 0.1;
    vals[nv++] = 1e22;
    vals[nv++] = 1e23;
    for (size_t i = 0; i < nv; i++)
        for (int sgn = 0; sgn < 2; sgn++)
            for (int dn = -40; dn <= 40; dn++) {
                uint64_t b = to_bits(vals[i]) + (uint64_t)(int64_t)dn;
                double v = from_bits(b | (uint64_t)sgn << 63);
                if (!isfinite(v))
                    continue;
                ++*count;
                *ok += check_value(v, 1);
            }
    /* Every power of two and its neighbours; every power of ten a double
     * holds and its neighbours. */
    for (int e = -1074; e <= 1023; e++) {
        double p = ldexp(1, e);
        for (int dn = -2; dn <= 2; dn++) {
            double v = from_bits(to_bits(p) + (uint64_t)(int64_t)dn);
            if (!isfinite(v) || v <= 0)
                continue;
            ++*count;
            *ok += check_value(v, 1);
        }
    }
    for (int e = -323; e <= 308; e++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", e);
        double p = strtod(t, NULL);
        for (int dn = -2; dn <= 2; dn++) {
            double v = from_bits(to_bits(p) + (uint64_t)(int64_t)dn);
            if (!isfinite(v) || v <= 0)
                continue;
            ++*count;
            *ok += check_value(v, 1);
        }
    }
    /* The first 100000 subnormals and the last ones. */
    for (uint64_t b = 1; b <= 100000; b++) {
        ++*count;
        *ok += check_value(from_bits(b), 1);
        ++*count;
        *ok += check_value(from_bits((UINT64_C(1) << 52) - b), 1);
    }
    /* Integers around 2^53 and decimal-looking values. */
    for (int i = 0; i < 20000; i++) {
        double v = 9007199254740992.0 + (i - 10000);
        ++*count;
        *ok += check_value(v, 1);
        ++*count;
        *ok += check_value(i / 1000.0, 1);
    }
}

void test_numfmt(void)
{
    check_layout();
    check_table();
    long count = 0, ok = 0;
    check_edges(&count, &ok);
    long nrand = 2000000;
    const char *env = getenv("NUMFMT_COUNT");
    if (env && atol(env) > 0)
        nrand = atol(env);
    for (long i = 0; i < nrand; i++) {
        uint64_t b = rng();
        double v;
        switch (i & 3) {
        case 0: /* any bit pattern */
            v = from_bits(b);
            break;
        case 1: /* subnormals and tiny normals */
            v = from_bits(b & ((UINT64_C(1) << 54) - 1));
            break;
        case 2: /* everyday magnitudes: 1e-6 .. 1e6 */
            v = (b >> 11) * 0x1p-53 * pow(10, (int)(b & 7) - 3) - 0.5;
            break;
        default: /* short decimals: k / 10^j */
            v = (double)(int64_t)(b >> 40) / pow(10, (double)(b & 15));
            break;
        }
        if (isnan(v))
            v = 1.0;
        count++;
        ok += check_value(v, (i & 7) == 0);
    }
    if (getenv("NUMFMT_ALL_FLOATS")) {
        for (uint64_t fb = 0; fb <= 0xffffffffu; fb++) {
            uint32_t b32 = (uint32_t)fb;
            float fv;
            memcpy(&fv, &b32, sizeof fv);
            if (isnan(fv))
                continue;
            count++;
            ok += check_value((double)fv, (fb & 63) == 0);
        }
    }
    if (ok == count) {
        test_passed++;
    } else {
        test_failed++;
        printf("FAIL numfmt: %ld of %ld values wrong\n", count - ok, count);
    }
    if (env)
        printf("numfmt: %ld values checked, %ld wrong\n", count, count - ok);
}
