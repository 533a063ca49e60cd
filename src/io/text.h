/*
 * text.h - what the input parsers (scene, universe, particles, lesson)
 * share: tokens, their printable form for messages, and numbers with the
 * one wording of their errors.
 *
 * Pure C11: no I/O, no globals.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

/// A token: a run of non-blank bytes inside the input (not NUL-terminated).
struct text_token {
    const char *s;
    size_t len;
};

/// 1 for the blanks that part a line's tokens in the scene and lesson
/// formats: space and tab.
/// (Inline: the readers call it for every byte of a line.)
static inline int text_blank(char c)
{
    return c == ' ' || c == '\t';
}

/// The one tokenizer of those formats: the next run of non-blank bytes of
/// [*p, end) into *t, *p moved past it. @return 1, or 0 when only blanks
/// are left (*t and *p unchanged).
int text_next(const char **p, const char *end, struct text_token *t);

/// Narrows [*s, *e) to leave out blanks at either end.
void text_trim(const char **s, const char **e);

/// The token as a NUL-terminated string for a message: cut to fit @p size,
/// control bytes shown as '?' so that a message never writes them to the
/// terminal. @return buf.
const char *text_str(struct text_token t, char *buf, size_t size);

/// The token for a message, as text_str, with invisible characters made
/// visible: a no-break space, a byte-order mark, a zero-width or other odd
/// space (UTF-8) appears as <U+00A0>, <U+FEFF>, ... so that "unknown
/// directive 'table'" never hides why 'table' was not known. @return buf.
const char *text_shown(struct text_token t, char *buf, size_t size);

/// Where and why parsing failed, in any of the formats (scene.h, universe.h,
/// particles.h). msg is lowercase, without a final period.
struct scene_error {
    int line;      ///< 1-based line of the fault
    char msg[256];
    int nomem;     ///< 1 when memory ran short ("out of memory"), not the input
};

/// Fills @p err with @p line and the message @p fmt (as printf), the one
/// way the parsers fail: an "out of memory" message marks err->nomem (the
/// memory failed, not the input: exit 1, not 2). @return -1.
int text_fail(struct scene_error *err, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// text_fail for a parser state @p ps with the fields err and line.
#define TEXT_FAIL(ps, ...) text_fail((ps)->err, (ps)->line, __VA_ARGS__)

/// Makes the NUL-terminated @p s safe to write to a terminal, in place:
/// each C0 control byte and DEL becomes '?', and so does each C1 control
/// in UTF-8 (U+0080 to U+009F, such as U+009B, the one-character CSI),
/// so that an argument echoed in a message cannot move the cursor or
/// change colours. Other bytes are kept. @return s.
char *text_visible(char *s);

/// 1 when the token is one or more decimal digits and nothing else.
int text_digits(struct text_token t);

/// The longest number a reader takes: a token of this many bytes or more
/// is "number too long".
#define TEXT_NUMBER_MAX 512

/// Parses the token as a finite number into *out.
/// @param what  names the field in the message ("radius", "body 3: vx")
/// @param msg   on failure receives "WHAT: 'TOKEN' is not a number",
///              "... is not a finite number" or "WHAT: number too long"
/// @return 0, or -1 with msg filled in and *out unchanged.
int text_number(struct text_token t, const char *what, double *out, char *msg,
                size_t msgsize);

/// Parses the @p len bytes at @p s, the whole of them, as a decimal
/// number ([+-]digits[.digits][e[+-]digits], or what strtod reads) into
/// *out, exactly as strtod would round it: the frames of a trajectory hold
/// millions of numbers. Up to 19 significant digits whose value is an
/// exact double times an exact power of ten up to 10^22 (Clinger's fast
/// path: one correctly rounded product or quotient) take no strtod.
/// @return 0, or -1 when it is not a finite number (*out unchanged).
int text_double(const char *s, size_t len, double *out);

/// The fast part of text_double for a number that starts at @p s and ends
/// where its form ends (a reader that splits no tokens first): reads the
/// longest [+-]digits[.digits][e[+-]digits] in the @p len bytes at s and,
/// when it can round it exactly without strtod (as text_double does), its
/// value into *out. @return the bytes read, or 0 when it did not (no
/// digits, more than 19 significant ones, an exponent beyond 22: *out
/// unchanged). A caller checks the byte after them: the number's token is
/// the bytes read only when a blank or the end follows.
size_t text_double_prefix(const char *s, size_t len, double *out);

#endif
