/*
 * text.c - tokens and numbers for the parsers (see text.h).
 */
#include "text.h"

#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int text_fail(struct scene_error *err, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->nomem = strcmp(fmt, "out of memory") == 0;
    err->line = line;
    return -1;
}

int text_next(const char **p, const char *end, struct text_token *t)
{
    const char *s = *p;
    while (s < end && text_blank(*s))
        s++;
    if (s == end)
        return 0;
    const char *e = s;
    while (e < end && !text_blank(*e))
        e++;
    t->s = s;
    t->len = (size_t)(e - s);
    *p = e;
    return 1;
}

void text_trim(const char **s, const char **e)
{
    while (*s < *e && text_blank(**s))
        (*s)++;
    while (*e > *s && text_blank((*e)[-1]))
        (*e)--;
}

const char *text_str(struct text_token t, char *buf, size_t size)
{
    size_t n = t.len < size - 1 ? t.len : size - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t.s[i];
        buf[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    buf[n] = 0;
    return buf;
}

char *text_visible(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        unsigned char c = (unsigned char)*r;
        if (c == 0xc2 && (unsigned char)r[1] >= 0x80 && (unsigned char)r[1] <= 0x9f) {
            *w++ = '?';
            r++;
        } else {
            *w++ = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
    }
    *w = 0;
    return s;
}

/* The code point of an invisible or space-like character whose UTF-8 form
 * starts at s[0] (n bytes left), with its length in *len; 0 if none. */
static unsigned invisible(const unsigned char *s, size_t n, size_t *len)
{
    if (n >= 2 && s[0] == 0xc2 && (s[1] == 0xa0 || s[1] == 0xad)) {
        *len = 2;
        return 0x80u + (s[1] - 0x80u); /* U+00A0, U+00AD */
    }
    if (n < 3)
        return 0;
    unsigned cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
    if ((s[0] & 0xf0) != 0xe0 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
        return 0;
    *len = 3;
    if (cp == 0x180e || (cp >= 0x2000 && cp <= 0x200f) ||
        (cp >= 0x2028 && cp <= 0x202f) || (cp >= 0x205f && cp <= 0x2064) ||
        cp == 0x3000 || cp == 0xfeff)
        return cp;
    return 0;
}

const char *text_shown(struct text_token t, char *buf, size_t size)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)t.s;
    for (size_t i = 0; i < t.len && o + 1 < size;) {
        size_t len;
        unsigned cp = invisible(s + i, t.len - i, &len);
        if (cp) {
            char mark[16];
            int m = snprintf(mark, sizeof mark, "<U+%04X>", cp);
            if (o + (size_t)m + 1 > size)
                break;
            for (int k = 0; k < m; k++)
                buf[o++] = mark[k];
            i += len;
            continue;
        }
        buf[o++] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
        i++;
    }
    buf[o] = 0;
    return buf;
}

int text_digits(struct text_token t)
{
    if (t.len == 0)
        return 0;
    for (size_t i = 0; i < t.len; i++)
        if (t.s[i] < '0' || t.s[i] > '9')
            return 0;
    return 1;
}

int text_number(struct text_token t, const char *what, double *out, char *msg,
                size_t msgsize)
{
    char buf[TEXT_NUMBER_MAX];
    if (t.len >= sizeof buf) {
        snprintf(msg, msgsize, "%s: number too long", what);
        return -1;
    }
    /* The usual token (a scene of 10^6 balls holds 6 x 10^6 of them) read
     * exactly as strtod would, without strtod (text_double); whatever it
     * refuses is read again below, for strtod's verdict and the message. */
    if (text_double(t.s, t.len, out) == 0)
        return 0;
    text_str(t, buf, sizeof buf);
    char *end, shown[128];
    double v = strtod(buf, &end);
    if (end == buf || *end) {
        snprintf(msg, msgsize, "%s: '%s' is not a number", what,
                 text_shown(t, shown, sizeof shown));
        return -1;
    }
    if (!isfinite(v)) { /* overflow gives HUGE_VAL; underflow is fine */
        snprintf(msg, msgsize, "%s: '%s' is not a finite number", what,
                 text_shown(t, shown, sizeof shown));
        return -1;
    }
    *out = v;
    return 0;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 text_u128;

/*
 * m / 10^k (m < 2^64, k <= 22) correctly rounded into *out, for the digits
 * Clinger's fast path leaves (m >= 2^53: a shortest round trip has up to
 * 17): a candidate from two roundings, within two units of the last place,
 * then checked exactly. With v = M 2^E (2^52 <= M < 2^53) and
 * x = m / 10^k, x - v = (m 2^-E - M 10^k) / (10^k 2^-E), so v is x
 * rounded when 2 |m 2^-E - M 10^k| < 10^k (or equal, M even): both sides
 * are integers below 2^127. Else M moves one unit toward x and is checked
 * again. @return 1, or 0 when it cannot tell (a binade's edge, a value
 * out of range): the caller asks strtod.
 */
static int exact_quotient(unsigned long long m, int k, double *out)
{
    static const unsigned long long p5[] = { /* 5^0 .. 5^22 */
        1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull,
        1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
        30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull,
        19073486328125ull, 95367431640625ull, 476837158203125ull, 2384185791015625ull};
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double v = (double)m / pow10[k];
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int be = (int)(bits >> 52 & 0x7ff); /* v = M 2^E, read off its bits */
    if (be < 1023 - 60 || be > 1023 + 80)
        return 0;
    unsigned long long M = (bits & ((1ull << 52) - 1)) | 1ull << 52;
    int E = be - 1075;
    /* 10^k = 5^k 2^k: shift m by -E - k (may be negative: shift M 10^k) */
    text_u128 p = (text_u128)p5[k];
    int sh = -E - k;
    for (int tries = 0; tries < 4; tries++) {
        if (M < (1ull << 52) || M >= (1ull << 53))
            return 0;
        /* a = m 2^-E / 2^k, b = M 5^k, half = 5^k / 2: compare 2|a - b| with 5^k */
        text_u128 a, b = (text_u128)M * p;
        if (sh >= 0) {
            if (sh > 63)
                return 0;
            a = (text_u128)m << sh;
        } else {
            /* m 2^sh is not an integer: scale b instead */
            if (-sh > 60)
                return 0;
            a = (text_u128)m;
            b <<= -sh;
            p <<= -sh;
            sh = 0;
        }
        text_u128 d = a >= b ? a - b : b - a;
        if (2 * d < p || (2 * d == p && !(M & 1))) {
            bits = (uint64_t)(E + 1075) << 52 | (M & ((1ull << 52) - 1));
            memcpy(out, &bits, sizeof bits);
            return 1;
        }
        if (a > b)
            M++;
        else
            M--;
    }
    return 0;
}
#else
static int exact_quotient(unsigned long long m, int k, double *out)
{
    (void)m, (void)k, (void)out;
    return 0;
}
#endif

/*
 * The digits at s[i..len) into *m (their count after the first nonzero one
 * into *digits: a leading zero is not significant); @return the index past
 * them. On a little-endian machine eight bytes are taken at once: each
 * byte less '0' is a digit 0..9 exactly when neither it nor it plus 118
 * (0x76: 9 + 118 = 127) sets its top bit, and the first byte that is not a
 * digit is always flagged so (no borrow or carry reaches it from the
 * digits before it). The k digits before it, moved to the top of the word
 * behind zeros, become their value in three steps of a multiply and a
 * mask each: pairs of digits into 16-bit lanes (10 a + b), pairs of those
 * into 32-bit lanes (100 a + b), the two halves into one (10^4 a + b); no
 * lane overflows into the next (99, 9999 and 99999999 fit their lanes).
 */
static size_t digit_run(const char *s, size_t i, size_t len, unsigned long long *m,
                        int *digits)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    defined(__GNUC__)
    static const uint32_t pow10[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};
    const uint64_t ones = UINT64_C(0x0101010101010101);
    while (len - i >= 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        uint64_t d = x - 0x30 * ones;
        const uint64_t bad = (x | d | (d + 0x76 * ones)) & 0x80 * ones;
        const int k = bad ? __builtin_ctzll(bad) >> 3 : 8;
        if (k == 0)
            return i;
        if (k < 8)
            d &= (UINT64_C(1) << 8 * k) - 1;
        /* the digits from the first nonzero one on are significant */
        *digits += *m ? k : d ? k - (__builtin_ctzll(d) >> 3) : 0;
        d <<= 8 * (8 - k);
        d = (d * 10 + (d >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
        d = (d * 100 + (d >> 16)) & UINT64_C(0x0000ffff0000ffff);
        d = (d * 10000 + (d >> 32)) & UINT64_C(0xffffffff);
        *m = *m * pow10[k] + d; /* wraps past 19 digits: not used then */
        i += (size_t)k;
        if (k < 8)
            return i;
    }
#endif
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        if (*m || s[i] != '0')
            (*digits)++;
        *m = *m * 10 + (unsigned)(s[i] - '0');
    }
    return i;
}

size_t text_double_prefix(const char *s, size_t len, double *out)
{
    /* 10^0 .. 10^22 are exact doubles. */
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    unsigned long long m = 0;
    int digits = 0, exp10 = 0;
    size_t start = i;
    i = digit_run(s, i, len, &m, &digits);
    int any = i > start;
    if (i < len && s[i] == '.') {
        start = ++i;
        i = digit_run(s, i, len, &m, &digits);
        if (i - start > 100000) /* (exp10 stays an int) */
            return 0;
        exp10 -= (int)(i - start);
        any |= i > start;
    }
    if (!any)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        int eneg = 0, e = 0;
        if (j < len && (s[j] == '-' || s[j] == '+'))
            eneg = s[j++] == '-';
        if (j < len && s[j] >= '0' && s[j] <= '9') {
            for (; j < len && s[j] >= '0' && s[j] <= '9'; j++)
                if (e < 10000)
                    e = e * 10 + (s[j] - '0');
            exp10 += eneg ? -e : e;
            i = j;
        }
    }
    if (digits > 19)
        return 0;
    if (m == 0) {
        *out = neg ? -0.0 : 0.0;
        return i;
    }
    if (m < (1ull << 53) && exp10 >= -22 && exp10 <= 22) {
        double v = (double)m;
        v = exp10 < 0 ? v / pow10[-exp10] : v * pow10[exp10];
        *out = neg ? -v : v;
        return i;
    }
    if (exp10 >= -22 && exp10 <= 0 && exact_quotient(m, -exp10, out)) {
        if (neg)
            *out = -*out;
        return i;
    }
    return 0;
}

int text_double(const char *s, size_t len, double *out)
{
    double v;
    if (len && text_double_prefix(s, len, &v) == len) {
        *out = v;
        return 0;
    }
    /* The rest (exponents beyond 22, more than 19 digits) as strtod
     * rounds them. */
    char buf[TEXT_NUMBER_MAX];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    v = strtod(buf, &end);
    if (end != buf + len || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}
