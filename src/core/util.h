/*
 * util.h - two small helpers every layer may use: qsort's order of doubles
 * and a growable array. Pure C11 (stdlib), no stdio.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>

/// qsort's comparison of two doubles, ascending (NaN compares equal to
/// everything: callers sort finite values).
static inline int util_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// Makes room for @p need elements of @p size bytes in the array whose
/// address is @p arrayp (a T ** passed as void *), of capacity *@p cap:
/// the capacity doubles (from 16) until it holds them; the elements stay.
/// @return 0, or -1 when the size would overflow or memory is short
/// (the array and *cap unchanged).
int util_grow(void *arrayp, size_t *cap, size_t need, size_t size);

#endif
