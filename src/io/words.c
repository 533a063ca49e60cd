/*
 * words.c - the event engine's codes in words. See words.h.
 */
#include "words.h"

#include "event.h"
#include "numfmt.h"

#include <stdio.h>

const char *words_event_fault(char *buf, size_t len, int rc, size_t i, size_t j)
{
    if (rc == EVENT_EOVERLAP)
        snprintf(buf, len, "event engine: balls %zu and %zu overlap", i, j);
    else if (rc == EVENT_EWALL)
        snprintf(buf, len, "event engine: ball %zu reaches through the wall", i);
    else if (rc == EVENT_EFIELD)
        snprintf(buf, len, "event engine: the field is too strong: the energy it gives "
                           "the balls across the table overflows");
    else
        snprintf(buf, len, "event engine: out of memory");
    return buf;
}

const char *words_event_stop(char *buf, size_t len, int cause, size_t i, size_t j, double t)
{
    char tb[NUMFMT_MAX];
    numfmt_double(tb, t);
    if (cause == EVENT_SMASS)
        snprintf(buf, len, "the collision of balls %zu and %zu at t = %s: their reduced "
                           "mass m1 m2 / (m1 + m2) overflows (masses too large)", i, j, tb);
    else if (cause == EVENT_SIMPULSE)
        snprintf(buf, len, "the collision of balls %zu and %zu at t = %s: the impulse "
                           "overflows (speeds or masses too large)", i, j, tb);
    else if (cause == EVENT_SBOUNCE)
        snprintf(buf, len, "ball %zu's bounce off a wall at t = %s: its speed overflows", i, tb);
    else if (cause == EVENT_SFLIGHT)
        snprintf(buf, len, "ball %zu at t = %s: its position or speed overflows in flight",
                 i, tb);
    else
        snprintf(buf, len, "the state given to it");
    return buf;
}
