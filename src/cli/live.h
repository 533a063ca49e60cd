/*
 * live.h - a run going on elsewhere, watched in the terminal (or by
 * --snapshot): frames from a link (link.h) drawn as they come, through
 * the session's live engine (session_live). `--connect=HOST:PORT` without
 * -H; `--engine=lammps` hands it the link to its own child.
 */
#ifndef LIVE_H
#define LIVE_H

#include "front.h"
#include "link.h"

struct scene;

/// Shows the run behind @p link, which this takes (closed on every path,
/// with DISCONNECT unless the run ended or was killed). @p base: the scene
/// the run was made from (table, radii, masses, colours; as many balls as
/// the run has atoms), or NULL: then the first frame is waited for here
/// (SIGINT, SIGTERM, SIGHUP stop the wait) and the table, radii and masses
/// are made up from it as a replay makes them. @p trate: the steps a frame
/// the run was asked for (1 when unknown). @p name: the title's, when the
/// scene has none. @return the exit status (0; 1 a failure of the link or
/// memory; 2 bad input; 128 + N after signal N).
int live_main(struct link *link, const struct scene *base, long long trate, const char *name,
              const struct ui_options *ui);

struct options;

/// --connect=HOST:PORT in the terminal (or --snapshot): the IMD link made
/// (an error within LINK_IMD_TIMEOUT s) and shown by live_main; @p sc the
/// scene given, or NULL. @return the exit status.
int live_connect(const struct options *o, const struct scene *sc);

#endif
