/*
 * cli.c - what the command line's files share: messages on stderr and
 * numbers from options' arguments. See cli.h.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "cli.h"

#include "text.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints "springball: " and the message on stderr with its control bytes
 * shown as '?' (an argument echoed there cannot drive the terminal), then
 * a newline. */
static void say(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "springball: %s\n", text_visible(buf));
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

_Noreturn void cli_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    fputs("Try 'springball --help' for more information.\n", stderr);
    exit(2);
}


/* A finite number from an option's argument, or a usage error. */
double cli_double(const char *opt, const char *arg, double lo, int lo_open)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || !isfinite(v))
        cli_die("%s: '%s' is not a finite number", opt, arg);
    if (lo_open ? !(v > lo) : !(v >= lo))
        cli_die("%s: '%s' must be %s %g", opt, arg, lo_open ? ">" : ">=", lo);
    return v;
}

unsigned long long cli_count(const char *opt, const char *arg)
{
    const char *p = arg;
    if (!*p)
        cli_die("%s: '' is not a whole number", opt);
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            cli_die("%s: '%s' is not a whole number", opt, arg);
    errno = 0;
    unsigned long long v = strtoull(arg, NULL, 10);
    if (errno == ERANGE)
        cli_die("%s: '%s' is too large", opt, arg);
    return v;
}

volatile sig_atomic_t cli_stop;

static void on_stop(int sig)
{
    cli_stop = sig;
}

void cli_catch_stops(void)
{
    static const int sigs[] = {SIGHUP, SIGINT, SIGTERM};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
        struct sigaction old, sa;
        if (sigaction(sigs[k], NULL, &old) || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}
