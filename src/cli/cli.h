/*
 * cli.h - what the command line's files (main.c, headless*.c) share:
 * messages on stderr, usage errors, numbers from options' arguments.
 *
 * The layer (src/cli/): the command line on top of everything: options
 * and loading (main.c), headless runs and their recordings and exports
 * (headless*), a recorded run given as the scene (replay).
 */
#ifndef CLI_H
#define CLI_H

/// Prints "springball: " and the message (printf's @p fmt) on stderr with
/// its control bytes shown as '?' (an argument echoed there cannot drive
/// the terminal), then a newline.
void cli_warn(const char *fmt, ...);

/// The same, then "Try 'springball --help' ...", and exits 2 (usage).
_Noreturn void cli_die(const char *fmt, ...);

/// A finite number from option @p opt's argument @p arg, > @p lo
/// (@p lo_open) or >= lo; else a usage error.
double cli_double(const char *opt, const char *arg, double lo, int lo_open);

/// A whole number in decimal digits alone from @p arg; else a usage error.
unsigned long long cli_count(const char *opt, const char *arg);

#endif
