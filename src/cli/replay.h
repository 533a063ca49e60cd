/*
 * replay.h - a recorded run given as SCENE (traj.h): a frame printed
 * headless, or the run played back in the terminal front end.
 */
#ifndef REPLAY_H
#define REPLAY_H

#include "front.h"

/// What the command line asked of a replay.
struct replay_options {
    int headless;           ///< -H: print a frame as a scene
    int stats;              ///< --stats: its diagnostics on standard error
    int snapshot;           ///< --snapshot
    int have_frame;         ///< -n N: frame N (from 0)
    unsigned long long frame;
    int have_time;          ///< -T T: the last frame at or before time T
    double time;
    int follow;             ///< --follow: the file is still being written
    int slice;              ///< --slice: -H prints only the balls with z0 <= z <= z1
    double z0, z1;
};

/// 1 when @p path names a recorded run: @p format (from --format) is
/// FORMATS_XYZ or FORMATS_LAMMPSTRJ, or it is FORMATS_AUTO and the
/// file is a regular file whose first bytes are one (formats_trajectory).
/// A file that cannot be read is left to the scene loader to report, and
/// so is any other file (a FIFO, a pipe, a device), which is opened once,
/// by the loader, and sniffed from the bytes it read.
int replay_is_run(const char *path, int format);

/// Seconds between two looks at a followed file that has not grown.
#define REPLAY_FOLLOW_POLL 0.25

/// Opens the run at @p path and prints a frame (headless) or plays it
/// (terminal, --snapshot with @p ui). Messages go to standard error as
/// "FILE:LINE: what is wrong". @return the exit status: 0, 1 (memory, a
/// write error), 2 (a bad file or a frame that is not there).
int replay_main(const char *path, int format, const struct replay_options *ro,
                const struct ui_options *ui);

#endif
