/*
 * cast.h - an asciicast (asciinema's format, version 2): a header line of
 * JSON, then one line an event, [seconds, "o", "bytes"] (output) or
 * [seconds, "r", "COLSxROWS"] (a resize). The bytes are the caller's
 * (ansi.h's for --cast); here are the file, the JSON and the limits.
 *
 * Every line is written whole or not at all: a write that fails (a full
 * disk) is cut off again to the last whole line of a regular file, and
 * the cast stops there; so does a line that would take the file past its
 * size cap. A file killed at any moment ends on a whole line.
 */
#ifndef CAST_H
#define CAST_H

#include <stddef.h>

/// The size cap by default (SPRINGBALL_CAST_MAX sets another): 256 MiB,
/// hours of a terminal at 30 frames a second.
#define CAST_MAX_DEFAULT (256ull << 20)

/// A cast being written. Zero it, then cast_open.
struct cast {
    int fd;                  ///< the file; -1 once closed
    int reg;                 ///< a regular file: a failed line is cut off again
    unsigned long long size; ///< the bytes of the whole lines written
    unsigned long long max;  ///< the size cap
    double last;             ///< the time of the last event, seconds
    int err;                 ///< errno of the write error that stopped it, else 0
    int full;                ///< 1: the size cap stopped it
    char *line;              ///< the line being made
    size_t cap;
};

/// Creates (or empties) @p path for a cast of at most @p max bytes.
/// @return 0, or -1 with errno set (nothing open).
int cast_open(struct cast *c, const char *path, unsigned long long max);

/// The header: version 2, @p cols x @p rows, @p timestamp (Unix seconds),
/// @p title (NULL: none) and env.TERM = @p term (NULL: no env).
/// @return 0, or -1 when the cast has stopped (c->err, c->full).
int cast_header(struct cast *c, int cols, int rows, long long timestamp,
                const char *title, const char *term);

/// An event at @p t seconds (never before the last: a time that would go
/// back is the last's) of kind @p kind ("o", "r") with @p n bytes of
/// @p data. @return 0, or -1 when the cast has stopped (then nothing more
/// is written).
int cast_event(struct cast *c, double t, const char *kind, const char *data, size_t n);

/// Closes the file. @return 0, or -1 when the cast stopped early or the
/// close failed (c->err, c->full say why).
int cast_close(struct cast *c);

/// @p n bytes of @p s as the inside of a JSON string into @p out (may be
/// NULL to measure): '"', '\\' and control characters escaped, DEL as
/// \u007f, valid UTF-8 kept as it is, any other byte as \ufffd.
/// @return the length of the escaped text.
size_t cast_json(char *out, const char *s, size_t n);

/// The cap from SPRINGBALL_CAST_MAX's text @p s (digits alone, at least
/// 1), else CAST_MAX_DEFAULT.
unsigned long long cast_max_from(const char *s);

#endif
