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

#include <signal.h>

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

/// The signal (SIGHUP, SIGINT or SIGTERM) that asked a headless run to
/// stop, or 0: set by the handler cli_catch_stops installs.
extern volatile sig_atomic_t cli_stop;

/// Makes SIGHUP, SIGINT and SIGTERM note themselves in cli_stop instead of
/// ending the process, so that a run stops between frames and closes its
/// files whole. A signal ignored when the run began (nohup) stays ignored.
/// No SA_RESTART: a write blocked on a reader that stalled returns EINTR.
void cli_catch_stops(void);

#endif
