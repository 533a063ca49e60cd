/*
 * palette_label.c - unique body labels from the bodies' names (see
 * palette.h).
 */
#include "palette.h"

#include <stdlib.h>
#include <string.h>

/* === Labels === */

static int is_alnum(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

enum { STEM_MAX = 48 };

/* l = the character lead (none when 0) and the number v < 1000. */
static void numbered(char *l, int lead, size_t v)
{
    char d[4];
    int k = 0;
    do
        d[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < 3);
    if (lead)
        *l++ = (char)lead;
    while (k)
        *l++ = d[--k];
    *l = 0;
}

/* The name without its directories and its extension, ASCII letters,
 * digits and separators only, at most STEM_MAX - 1 bytes. */
static void stem(const char *name, char *out)
{
    size_t n = 0;
    out[0] = 0;
    if (!name)
        return;
    const char *s = strrchr(name, '/');
    s = s ? s + 1 : name;
    const char *dot = strrchr(s, '.');
    const char *e = dot && dot != s ? dot : s + strlen(s);
    for (; s < e && n < STEM_MAX - 1; s++) {
        unsigned char c = (unsigned char)*s;
        if (is_alnum(c) || c == '-' || c == '_' || c == ' ')
            out[n++] = (char)c;
    }
    out[n] = 0;
    /* Leading separators are not a name. */
    size_t k = 0;
    while (out[k] && !is_alnum((unsigned char)out[k]))
        k++;
    memmove(out, out + k, n - k + 1);
}

/* Letters and digits of a stem compared without case. */
static size_t common(const char *a, const char *b)
{
    size_t k = 0;
    while (a[k] && lower((unsigned char)a[k]) == lower((unsigned char)b[k]))
        k++;
    return k;
}

size_t palette_labels(const char *const *names, const double *m, size_t n, int ascii,
                      char (*label)[PALETTE_LABEL_MAX])
{
    for (size_t i = 0; i < n; i++)
        label[i][0] = 0;
    /* The star: the heaviest body, if it outweighs every other ten times. */
    size_t star = n;
    if (n >= 2) {
        size_t h = 0;
        for (size_t i = 1; i < n; i++)
            if (m[i] > m[h])
                h = i;
        int dominant = m[h] > 0;
        for (size_t i = 0; i < n && dominant; i++)
            if (i != h && !(m[h] >= 10 * m[i]))
                dominant = 0;
        if (dominant) {
            star = h;
            strcpy(label[h], ascii ? "*" : "\xe2\x9c\xb6"); /* U+2736 six-pointed star */
        }
    }
    if (n > PALETTE_MAX_LABELS)
        return 0;
    char (*st)[STEM_MAX] = malloc((n ? n : 1) * sizeof *st);
    if (!st) {
        /* Numbers need no memory. */
        for (size_t i = 0; i < n; i++)
            if (i != star)
                numbered(label[i], 0, i + 1);
        return n > 9 ? n - 9 : 0;
    }
    for (size_t i = 0; i < n; i++)
        stem(i == star ? NULL : names ? names[i] : NULL, st[i]);
    /* A prefix all named bodies share up to a separator ("star-" of
     * star-a, star-b) tells nothing: drop it when every name keeps a
     * letter or digit. */
    size_t first = n, pre = 0;
    for (size_t i = 0; i < n; i++) {
        if (!st[i][0])
            continue;
        if (first == n) {
            first = i;
            pre = strlen(st[i]);
        } else {
            size_t c = common(st[first], st[i]);
            if (c < pre)
                pre = c;
        }
    }
    while (pre > 0 && is_alnum((unsigned char)st[first][pre - 1]))
        pre--;
    int strip = pre > 0;
    for (size_t i = 0; i < n && strip; i++)
        if (st[i][0] && !is_alnum((unsigned char)st[i][pre]))
            strip = 0;
    if (strip)
        for (size_t i = 0; i < n; i++)
            if (st[i][0])
                memmove(st[i], st[i] + pre, strlen(st[i] + pre) + 1);
    /* One letter when it is the only name with it; else that letter and
     * the first letter that tells the name from the others; a number when
     * nothing does (repeated names), or for a body without a name. */
    size_t longer = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == star)
            continue;
        char *l = label[i];
        if (!st[i][0]) {
            numbered(l, 0, i + 1);
            continue;
        }
        int c0 = upper((unsigned char)st[i][0]);
        size_t far = 0, same = 0, twins = 0, idx = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i || j == star || !st[j][0] || upper((unsigned char)st[j][0]) != c0)
                continue;
            same++;
            size_t c = common(st[i], st[j]);
            if (c > far)
                far = c;
            if (!st[i][c] && !st[j][c]) {
                twins++;
                if (j < i)
                    idx++;
            }
        }
        if (same == 0) {
            l[0] = (char)c0;
            l[1] = 0;
            continue;
        }
        /* The letter at the first place no other name shares, skipping
         * separators. */
        const char *p = st[i] + far;
        while (*p && !is_alnum((unsigned char)*p))
            p++;
        if (twins == 0 && *p)
            {
            l[0] = (char)c0;
            l[1] = (char)lower((unsigned char)*p);
            l[2] = 0;
        }
        else
            numbered(l, c0, idx + 1);
    }
    /* Whatever still repeats (a "Ma" beside a name "ma1" and twins of
     * "mars", say) becomes '#' and its place in the file: no other label
     * starts with '#'. */
    for (size_t i = 0; i < n; i++) {
        if (i == star || label[i][0] == '#')
            continue;
        for (size_t j = i + 1; j < n; j++)
            if (j != star && strcmp(label[i], label[j]) == 0)
                numbered(label[j], '#', j + 1);
    }
    for (size_t i = 0; i < n; i++)
        if (i != star && strlen(label[i]) > 1)
            longer++;
    free(st);
    return longer;
}
