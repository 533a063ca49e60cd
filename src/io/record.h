/*
 * record.h - a run over time: trajectories as extended XYZ frames and the
 * diagnostics as CSV rows.
 *
 * Both formats are text that other tools read: extended XYZ is what OVITO
 * and ASE load (ase.io.read(FILE, index=':')), the CSV opens in any
 * spreadsheet. Every number is the shortest decimal that reads back as
 * the same double (numfmt.h), so a reader gets the state bit for bit.
 *
 * Extended XYZ, one frame:
 *     N
 *     Lattice="W 0 0 0 H 0 0 0 Z" Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1:momenta:R:3:masses:R:1 Time=T Step=S springball="k K; dt DT" pbc="F F F"
 *     X x y 0 vx vy 0 r m px py 0 m     (N rows, the balls in scene order)
 * The names are the ones each tool looks for: OVITO maps pos, velo, radius
 * and mass to its Position, Velocity, Radius and Mass; ASE's read() takes
 * momenta and masses into the Atoms (get_momenta, get_velocities =
 * momenta / masses, get_masses, get_kinetic_energy) and keeps velo and
 * mass as plain arrays. velo holds the velocities exactly; momenta are
 * m v rounded once.
 * springball= holds the run's parameters as scene directives
 * (scene_params_text: k, dt, and the walls, restitution, field ... that
 * are not at their default), so that a frame replayed (traj.h) runs on.
 * The lattice is the table's box (the round table's bounding square; for
 * open space, a universe, the square -R..R, with Origin="-R -R -Z/2");
 * Z, the box's height, is the largest diameter (1 for point masses): the
 * balls are discs in the plane z = 0. The species is X (ASE's "no
 * element", which OVITO shows as one particle type).
 *
 * CSV: a header line, then one row per sample:
 *     t,step,ke,pe,pg,e,px,py,contacts,dissipated
 * then pf (the uniform field's potential, part of e) when the run has a
 * field, out (balls gone past an open side) when it has open sides, as
 * --stats adds them; and in the event engine collisions,walls,crossings,mft
 * (step then counts events; hard balls store no energy, so pe = pg = 0,
 * e = ke and dissipated = ke0 - ke).
 *
 * The writer buffers its output in large blocks and remembers the first
 * write error; record_close reports it. A frame and a row are the units a
 * file ends at: after a write error (a full disk, a file size limit:
 * EFBIG), record_close cuts a regular file back to the end of its last
 * whole frame or row, so that a reader takes every frame it holds.
 */
#ifndef RECORD_H
#define RECORD_H

#include "event.h"
#include "sim.h"

#include <signal.h>
#include <stdio.h>

/// The Properties of an extended-XYZ frame (see above).
#define RECORD_XYZ_PROPERTIES \
    "species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1:momenta:R:3:masses:R:1"

/// One output stream.
struct record {
    FILE *f;
    int own;      ///< 1 when record_close must fclose f (not for stdout)
    char *buf;    ///< pending bytes
    size_t len, cap;
    int err;      ///< errno of the first failure, 0 while all is well
    unsigned long long bytes; ///< bytes handed to the stream so far
    int threads;  ///< threads that format a large frame (the CPUs online,
                  ///< at most 16; set it to 1 for one thread)
    char *par;    ///< the other threads' buffers, NULL until needed
    /* Where the units (frames, rows) end, in bytes from the first: those
     * past the bytes known written, in order, and the last one written. */
    unsigned long long *ends;
    size_t nends, ends_cap;
    unsigned long long whole; ///< bytes of the whole units written
    long long start;          ///< the file's offset at the first byte, -1
                              ///< when it is no regular file (not cut)
    /// NULL, or a flag a signal handler sets to stop the run: a write that
    /// a signal cut short (a pipe that reads no more) then ends with
    /// EINTR instead of waiting again. The caller's to set after opening.
    const volatile sig_atomic_t *stop;
};

/// Opens @p path for writing ("-" is standard output).
/// @return 0, or -1 with errno set (nothing to close).
int record_open(struct record *w, const char *path);

/// Writes to the open stream @p f, on which nothing was done yet (it is
/// made unbuffered: the writer buffers), and which record_close flushes
/// but leaves open. @return 0, or -1 with errno set when memory is short.
int record_attach(struct record *w, FILE *f);

/// Flushes and closes. After a write error, a regular file is cut back to
/// its last whole frame or row. @return 0, or the errno of the first write
/// error (of this call or an earlier one; EIO when the stream gave none).
int record_close(struct record *w);

/// Writes one extended XYZ frame of @p s at step count @p step.
void record_xyz(struct record *w, const struct sim *s, long long step);

/// Writes the CSV header for a run with parameters @p p; @p events adds
/// the event engine's columns.
void record_series_header(struct record *w, const struct sim_params *p, int events);

/// Writes one CSV row of the state @p s with the step count @p step (the
/// sim's steps, or a front end's count of steps or events).
void record_series_row(struct record *w, const struct sim *s, long long step);

/// Writes one CSV row of the event engine @p ev, whose state has been
/// written back into @p s (event_to_sim).
void record_series_event_row(struct record *w, const struct sim *s,
                             const struct event *ev);

#endif
