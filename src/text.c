/*
 * text.c - tokens and numbers for the parsers (see text.h).
 */
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    char buf[512];
    if (t.len >= sizeof buf) {
        snprintf(msg, msgsize, "%s: number too long", what);
        return -1;
    }
    text_str(t, buf, sizeof buf);
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end) {
        snprintf(msg, msgsize, "%s: '%s' is not a number", what, buf);
        return -1;
    }
    if (!isfinite(v)) { /* overflow gives HUGE_VAL; underflow is fine */
        snprintf(msg, msgsize, "%s: '%s' is not a finite number", what, buf);
        return -1;
    }
    *out = v;
    return 0;
}
