/*
 * numfmt.c - shortest round-trip printing of doubles (see numfmt.h).
 *
 * A finite positive double is v = c 2^q with c < 2^53. Every real number
 * in its rounding interval [v - 2^(q-1)·a, v + 2^(q-1)] reads back as v
 * (a = 1, or 1/2 at the bottom of a binade where the gap below is half
 * as wide; the ends belong to the interval when c is even, since ties
 * round to even). With everything scaled by 4 to stay integral:
 *     cb = 4c,  cbl = 4c - 2 (or 4c - 1),  cbr = 4c + 2,
 * and the values are u 2^(q-2) for u among these.
 *
 * Pick k = floor(log10 2^q) (floor(log10(3/4 2^q)) for the narrow
 * interval): then 2^q 10^-k lies in [1, 10), so the interval scaled by
 * 10^-k is at least one unit wide (holds an integer) and less than ten
 * (holds at most one multiple of ten). With
 *     vb = 4 v 10^-k,  vbl, vbr the same for the ends,
 * s = floor(vb / 4) and t = s + 1 are the candidates of full length, and
 * s rounded down to a multiple of ten (and that plus ten) those one digit
 * shorter, which win when inside. Which candidates lie inside is decided
 * by comparing with vbl and vbr. (Schubfach as published looks for the
 * shorter ones only from s >= 100, since Java prints at least two digits;
 * here from s >= 10, so that 5e-324 is "5e-324".)
 *
 * Those products are computed as (u 2^h) g >> 128, with g = g(-k) of
 * numfmt_pow10.h (10^-k to 128 bits, over-estimated by less than one unit)
 * and h = q + floor(log2 10^-k) + 1 in 1..4, so that u 2^h < 2^60. The
 * result is rounded to odd: its lowest bit is set when any bit below the
 * top 64 is. Schubfach's analysis shows that an exact product stays
 * exactly an integer then, and an inexact one is never mistaken for an
 * integer nor rounded across one, so each comparison above is exact.
 *
 * The two smallest subnormals have c < 3 and an interval too wide for this
 * scaling: they are taken as 10c 2^q with one more power of ten (dk = -1),
 * and then both multiples of ten may lie inside (5e-324 is in [2.5e-324,
 * 7.4e-324], as are 4e-324 and 6e-324).
 */
#include "numfmt.h"

#include <string.h>

#include "numfmt_pow10.h"

/* floor(q log10 2), exact for |q| <= 2^12 (the unit tests check the range
 * used): 661971961083 / 2^41 is log10 2 to 12 digits. */
static int floor_log10_pow2(int q)
{
    return (int)((int64_t)q * 661971961083 >> 41);
}

/* floor(log10(3/4 2^q)) = floor(q log10 2 + log10 3/4). */
static int floor_log10_3q_pow2(int q)
{
    return (int)(((int64_t)q * 661971961083 - 274743187321) >> 41);
}

/* floor(e log2 10), exact for |e| <= 1600. */
static int floor_log2_pow10(int e)
{
    return (int)((int64_t)e * 913124641741 >> 38);
}

/* The top 64 bits of the 192-bit product g cp, rounded to odd (bits 64..127
 * as the sticky bit; the lowest 64 are below the error of g anyway). */
static uint64_t mul_round_odd(const uint64_t g[2], uint64_t cp)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 lo = (u128)g[1] * cp;
    u128 hi = (u128)g[0] * cp + (uint64_t)(lo >> 64);
    uint64_t top = (uint64_t)(hi >> 64), mid = (uint64_t)hi;
#else
    /* 32-bit limbs: cp = c1:c0, g[k] = a1:a0. */
    uint64_t c0 = cp & 0xffffffffu, c1 = cp >> 32;
    uint64_t p[2][2];
    for (int k = 0; k < 2; k++) {
        uint64_t a0 = g[k] & 0xffffffffu, a1 = g[k] >> 32;
        uint64_t ll = a0 * c0, lh = a0 * c1, hl = a1 * c0, hh = a1 * c1;
        uint64_t midsum = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
        p[k][1] = (midsum << 32) | (ll & 0xffffffffu);
        p[k][0] = hh + (lh >> 32) + (hl >> 32) + (midsum >> 32);
    }
    /* hi:mid = p[0] + p[1] >> 64 */
    uint64_t mid = p[0][1] + p[1][0];
    uint64_t top = p[0][0] + (mid < p[0][1]);
#endif
    return top | (mid != 0);
}

/* The digits of c 2^q (c > 0) by the method above; dk is added to the
 * exponent (-1 for the subnormals taken as 10c). */
static void to_decimal(int q, uint64_t c, int narrow, int dk, uint64_t *digits,
                       int *exp10)
{
    const uint64_t out = c & 1; /* odd: the interval's ends are excluded */
    const uint64_t cb = c << 2, cbr = cb + 2, cbl = narrow ? cb - 1 : cb - 2;
    const int k = narrow ? floor_log10_3q_pow2(q) : floor_log10_pow2(q);
    const int h = q + floor_log2_pow10(-k) + 1;
    const uint64_t *g = numfmt_pow10[-k - NUMFMT_E_MIN];
    const uint64_t vb = mul_round_odd(g, cb << h);
    const uint64_t vbl = mul_round_odd(g, cbl << h);
    const uint64_t vbr = mul_round_odd(g, cbr << h);
    const uint64_t s = vb >> 2;
    if (s >= 10) {
        /* One digit shorter: the multiples of ten around s. Both can be
         * inside only for the tiny subnormals scaled by ten (an interval
         * up to 100 units wide): then the nearer. */
        uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
        int upin = vbl + out <= sp10 << 2;
        int wpin = (tp10 << 2) + out <= vbr;
        if (upin || wpin) {
            *digits = upin && (!wpin || vb < (sp10 + tp10) << 1) ? sp10 : tp10;
            *exp10 = k + dk;
            return;
        }
    }
    uint64_t t = s + 1;
    int uin = vbl + out <= s << 2;
    int win = (t << 2) + out <= vbr;
    if (uin != win) {
        *digits = uin ? s : t;
    } else {
        /* Both inside: the nearer to vb = 4v; a tie goes to the even one. */
        uint64_t mid = (s + t) << 1; /* 4 (s + 1/2) */
        *digits = vb < mid || (vb == mid && (s & 1) == 0) ? s : t;
    }
    *exp10 = k + dk;
}

void numfmt_decimal(double v, uint64_t *digits, int *exp10)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    const uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    const int be = (int)(bits >> 52 & 0x7ff);
    uint64_t d;
    int e;
    *digits = 0;
    *exp10 = 0;
    if (be == 0x7ff || (be == 0 && frac == 0))
        return;
    if (be != 0) {
        const uint64_t c = frac | UINT64_C(1) << 52;
        const int q = be - 1075;
        /* Integers below 2^53 are their own shortest form. */
        if (q <= 0 && q > -53 && (c & ((UINT64_C(1) << -q) - 1)) == 0) {
            d = c >> -q;
            e = 0;
        } else {
            to_decimal(q, c, frac == 0 && be > 1, 0, &d, &e);
        }
    } else if (frac < 3) {
        to_decimal(-1074, 10 * frac, 0, -1, &d, &e);
    } else {
        to_decimal(-1074, frac, 0, 0, &d, &e);
    }
    /* Drop trailing zeros (at most 16 of them: an integer fast-path value
     * below 2^53, or one of the shorter candidates). */
    while (d % 10 == 0) {
        d /= 10;
        e++;
    }
    *digits = d;
    *exp10 = e;
}

/* "00" .. "99" */
static const char two_digits[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
    100000000000000u, 1000000000000000u, 10000000000000000u,
    100000000000000000u, 1000000000000000000u, 10000000000000000000u,
};

/* The number of decimal digits of u: from its bit length, floor(bits *
 * log10 2) = bits * 1233 >> 12 (exact for bits <= 64), plus one when u
 * reaches the next power of ten (and 1 for 0). */
static int count_digits(uint64_t u)
{
#if defined(__GNUC__)
    int bits = 64 - __builtin_clzll(u | 1);
#else
    int bits = 1;
    while (bits < 64 && u >> bits)
        bits++;
#endif
    int n = bits * 1233 >> 12;
    return n + (u >= pow10_u64[n]) + !u;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The eight digits of v < 10^8, leading zeros included, as the bytes of a
 * word in the order they print (the first in the lowest byte), computed
 * in lanes of the word: v = 10^4 a + b with a in the low 32 bits and b in
 * the high; each lane's quotient by 100 (x 5243 >> 19, exact below 43699)
 * and remainder into 16-bit lanes; each of those by 10 (x 103 >> 10,
 * exact below 179) into bytes. No lane's product reaches the next lane,
 * and the shifts bring down only bits the masks drop. */
static uint64_t eight_ascii(uint32_t v)
{
    const uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    const uint64_t q = (x * 5243 >> 19) & UINT64_C(0x0000007f0000007f);
    const uint64_t y = q | (x - q * 100) << 16;
    const uint64_t t = (y * 103 >> 10) & UINT64_C(0x000f000f000f000f);
    const uint64_t z = t | (y - t * 10) << 8;
    return z | UINT64_C(0x3030303030303030);
}

/* The n decimal digits of u < 10^20 into buf[0..n) as whole words, eight
 * digits a word, the leading zeros of the first shifted out; the bytes
 * after the digits, up to buf + 8, get leftovers that the caller writes
 * over or leaves past the end: buf has room for 20 bytes. */
static void put_digits(char *buf, uint64_t u, int n)
{
    uint64_t w;
    if (n <= 8) {
        w = eight_ascii((uint32_t)u) >> 8 * (8 - n);
        memcpy(buf, &w, 8);
        return;
    }
    const uint64_t hi = u / 100000000u;
    const uint32_t lo = (uint32_t)(u - hi * 100000000u);
    if (n <= 16) {
        w = eight_ascii((uint32_t)hi) >> 8 * (16 - n);
        memcpy(buf, &w, 8);
    } else {
        const uint64_t top = hi / 100000000u;
        w = eight_ascii((uint32_t)top) >> 8 * (24 - n);
        memcpy(buf, &w, 8);
        w = eight_ascii((uint32_t)(hi - top * 100000000u));
        memcpy(buf + n - 16, &w, 8);
    }
    w = eight_ascii(lo);
    memcpy(buf + n - 8, &w, 8);
}
#else
/* Exactly 4 digits of v < 10000, and exactly 8 of v < 10^8, with 32-bit
 * arithmetic only. */
static void put4(char *p, uint32_t v)
{
    memcpy(p, two_digits + 2 * (v / 100), 2);
    memcpy(p + 2, two_digits + 2 * (v % 100), 2);
}

static void put8(char *p, uint32_t v)
{
    put4(p, v / 10000);
    put4(p + 4, v % 10000);
}

/* The n decimal digits of u < 10^20 into buf[0..n): all twenty into a
 * scratch row (two 64-bit divisions by constants, the rest in 32 bits),
 * then the last n of them. The copy is always 20 bytes (a fixed-size copy
 * is two moves, a variable one a call), so buf[n..20) gets zeros that the
 * caller writes over or leaves past the end: buf has room for 20 bytes. */
static void put_digits(char *buf, uint64_t u, int n)
{
    char row[40];
    uint64_t hi = u / 100000000u;
    put8(row + 12, (uint32_t)(u - hi * 100000000u));
    uint64_t top = hi / 100000000u;
    put8(row + 4, (uint32_t)(hi - top * 100000000u));
    put4(row, (uint32_t)top);
    memset(row + 20, 0, 20);
    memcpy(buf, row + 20 - n, 20);
}
#endif

size_t numfmt_u64(char *buf, uint64_t u)
{
    int n = count_digits(u);
    put_digits(buf, u, n);
    return (size_t)n;
}

size_t numfmt_double(char *buf, double v)
{
    char *p = buf;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    const int neg = (int)(bits >> 63);
    if ((bits >> 52 & 0x7ff) == 0x7ff) {
        const char *w = (bits & ((UINT64_C(1) << 52) - 1)) ? "nan" : neg ? "-inf" : "inf";
        size_t n = strlen(w);
        memcpy(buf, w, n + 1);
        return n;
    }
    if (neg)
        *p++ = '-';
    uint64_t d;
    int e;
    numfmt_decimal(v, &d, &e);
    if (d == 0) {
        *p++ = '0';
        *p = 0;
        return (size_t)(p - buf);
    }
    const int n = count_digits(d);
    const int x = n - 1 + e; /* the exponent of the first digit */
    if (x >= -5 && x < 17) {
        if (e >= 0) {
            /* ddd000 */
            put_digits(p, d, n);
            p += n;
            memset(p, '0', (size_t)e);
            p += e;
        } else if (x >= 0) {
            /* dd.ddd: the digits one place right, then the x + 1 before
             * the point moved back (usually one to three of them) */
            put_digits(p + 1, d, n);
            for (int k = 0; k <= x; k++)
                p[k] = p[k + 1];
            p[x + 1] = '.';
            p += n + 1;
        } else {
            /* 0.000ddd */
            memcpy(p, "0.00000", (size_t)(1 - x));
            p += 1 - x;
            put_digits(p, d, n);
            p += n;
        }
    } else {
        /* d.ddde+XX */
        put_digits(p + 1, d, n);
        p[0] = p[1];
        if (n > 1) {
            p[1] = '.';
            p += n + 1;
        } else {
            p += 1;
        }
        *p++ = 'e';
        int ax = x;
        if (ax < 0) {
            *p++ = '-';
            ax = -ax;
        } else {
            *p++ = '+';
        }
        if (ax >= 100) {
            *p++ = (char)('0' + ax / 100);
            ax %= 100;
        }
        memcpy(p, two_digits + 2 * ax, 2);
        p += 2;
    }
    *p = 0;
    return (size_t)(p - buf);
}
