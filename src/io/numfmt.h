/*
 * numfmt.h - the shortest decimal that reads back as the same double.
 *
 * Pure C11: no I/O, no globals, no allocation. The writers of trajectories
 * and series print millions of numbers a frame; printf's "%.17g" rounds
 * exactly (a big-number division for many values) and is several times
 * slower, and prints 0.1 as 0.10000000000000001. numfmt_double prints the
 * shortest digit string d (the fewest significant digits; among those, the
 * one closest to the value, ties to even) such that strtod gives back the
 * very same bits: 0.1 is "0.1", 1/3 is "0.33333333333333331".
 *
 * The digits are found by the Schubfach method (R. Giulietti, "The
 * Schubfach way to render doubles", 2020): the rounding interval of the
 * double is scaled by a power of ten chosen so that it holds at most one
 * multiple of ten and at least one integer, using a 128-bit approximation
 * of that power (table in numfmt_pow10.h, each entry checked by the unit
 * tests against an exact big-integer computation) and rounding to odd, so
 * that every comparison with the interval's ends is exact.
 *
 * Layout, like printf's %g with 17 digits of precision: with X the decimal
 * exponent of the first digit, fixed notation when -5 <= X < 17 ("123",
 * "0.001", "12.5", "0.00001234"), else d.ddde+XX with at least two exponent
 * digits ("1e+17", "2.5e-07", "4.9406564584124654e-324"). Zero prints "0"
 * and "-0", and the non-finite values "inf", "-inf" and "nan".
 */
#ifndef NUMFMT_H
#define NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/// Room numfmt_double needs, the terminating NUL included (the longest
/// output is 24 characters, e.g. "-2.2250738585072014e-308").
#define NUMFMT_MAX 32

/// Writes the shortest round-trip form of @p v into @p buf (at least
/// NUMFMT_MAX bytes) and a terminating NUL. @return its length.
size_t numfmt_double(char *buf, double v);

/// The shortest round-trip digits of a finite, nonzero |v|: v = *digits *
/// 10^*exp10 with 1 <= *digits < 10^17 and no trailing zero in *digits.
/// (The sign is not part of it.) Zero and non-finite values give *digits 0.
void numfmt_decimal(double v, uint64_t *digits, int *exp10);

/// Writes the unsigned integer @p u in decimal (no NUL) into @p buf, which
/// has room for 20 bytes (what follows the digits there is overwritten).
/// @return its length.
size_t numfmt_u64(char *buf, uint64_t u);

#endif
