/*
 * recording.h - the terminal's R key: the states a session shows, written
 * as they are shown.
 *
 * Started, it opens PREFIX-N.xyz and PREFIX-N.csv (N the first number for
 * which neither exists: nothing is overwritten) and from then on writes a
 * frame and a row each time the session's state has changed since the
 * last one (recording_frame is called once a drawn frame): running, that
 * is one frame per drawn frame at the steps or events it took; paused,
 * one per '.', ',' or kick. Stepping back is recorded as shown, with its
 * earlier time. The formats are record.h's: extended XYZ with the
 * session's step count (events in event mode) as Step=, and the CSV's ten
 * columns in both engines (step counting events in event mode).
 */
#ifndef RECORDING_H
#define RECORDING_H

#include "record.h"
#include "session.h"

#include <stddef.h>

/// The recording. Zero it before the first use.
struct recording {
    int on;                    ///< recording now
    struct record traj, series;
    char traj_name[64], series_name[64];
    unsigned long version;     ///< the session's version last written
    long long frames;          ///< frames written since the start
    int err;                   ///< errno of the write error that stopped it
    const char *failed;        ///< the file of that error
    int next;                  ///< the number the next start tries first
};

/// Opens the two files of the first free N after @p prefix, from the
/// number after the last recording's ("springball"
/// gives springball-1.xyz and springball-1.csv in the working directory)
/// and writes the first frame of @p ss. @p msg receives what the status
/// line says ("recording to A and B", or why it could not start).
/// @return 0, or -1 with nothing open.
int recording_start(struct recording *r, const char *prefix, struct session *ss,
                    char *msg, size_t msgsize);

/// Writes a frame and a row when the state changed since the last one.
/// @return 0, or -1 after a write error: then the recording has stopped
/// and recording_stop's message says why.
int recording_frame(struct recording *r, struct session *ss);

/// Closes the files; @p msg (may be NULL) receives "recorded N frames to A
/// and B" or the write error. @return 0, or -1 after a write error.
int recording_stop(struct recording *r, char *msg, size_t msgsize);

#endif
