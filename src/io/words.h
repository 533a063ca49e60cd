/*
 * words.h - the front end's words for what the event engine returns as
 * codes (event.h): why it refused a state (enum event_status) and why it
 * stopped (enum event_stop_cause). One wording for -H and the terminal;
 * the core names no balls in text.
 *
 * Pure C11 with snprintf: no globals.
 */
#ifndef WORDS_H
#define WORDS_H

#include <stddef.h>

/// Why event_init refused (@p rc, an enum event_status < 0), naming balls
/// @p i and @p j counted from 1 in scene order where the fault has them:
/// "event engine: balls 3 and 7 overlap", "event engine: ball 3 reaches
/// through the wall", "event engine: the field is too strong: ...",
/// "event engine: out of memory". Writes at most @p len bytes, NUL
/// included, into @p buf; returns buf.
const char *words_event_fault(char *buf, size_t len, int rc, size_t i, size_t j);

/// Why the engine stopped (@p cause, an enum event_stop_cause), at time
/// @p t, the event of balls @p i <= @p j counted from 1 in scene order
/// (i == j: one ball): "the collision of balls 1 and 2 at t = 95: their
/// reduced mass m1 m2 / (m1 + m2) overflows (masses too large)". Writes
/// into @p buf as words_event_fault does; returns buf.
const char *words_event_stop(char *buf, size_t len, int cause, size_t i, size_t j, double t);

#endif
