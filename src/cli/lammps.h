/*
 * lammps.h - `--engine=lammps[:RANKS]`: a scene run by LAMMPS as a child
 * of springball, watched through IMD (imd.h), as if it were an engine.
 *
 * The child (lammps_child.c): the scene is exported (export.h) into a
 * private folder made by mkdtemp under $TMPDIR (or /tmp) with fix imd on
 * a port given as `-var sbport PORT`, nowait off, so that the run waits
 * for its one client and no frame is missed. `lmp` (or `mpirun -np RANKS
 * lmp`) runs in that folder in a process group of its own, its standard
 * output and error appended to a log beside the folder (FOLDER.log). The
 * port: the kernel's choice for a socket bound to port 0, closed and
 * handed to LAMMPS; the child is ready when a connection to it is no
 * longer refused and its handshake comes (nowait off: it takes one client,
 * ours), and when LAMMPS could not bind it ("bind to socket failed" in its
 * log: another process took the port in between) it is started again on
 * another, up to LAMMPS_CHILD_TRIES times. Ending it: SIGTERM to its group, SIGKILL
 * after LAMMPS_CHILD_GRACE seconds, then the folder is removed; the log
 * is removed too unless the run failed (its name is then printed). On
 * Linux the child also gets SIGTERM should springball die without ending
 * it (PR_SET_PDEATHSIG).
 *
 * Headless (lammps.c): -n and -T count steps as the spring engine does;
 * the final state printed is the one LAMMPS writes at full precision after
 * its run (write_dump, %.17g), its velocities taken as the observed ones
 * (velocity Verlet's are synchronised with the positions) and stored as
 * the spring engine stores them (sim_unobserve), so that the output reads
 * back as the same run. --stats is that state's. --traj and --series
 * come from LAMMPS's own dump of the run (dump custom at %.17g every
 * --every steps, velocities included), written once the run is over (or
 * stopped by a signal: to its last whole frame); IMD's frames (float32,
 * positions alone) are only watched, at that interval (or one at the end).
 */
#ifndef LAMMPS_H
#define LAMMPS_H

#include "headless.h"
#include "imd.h"
#include "scene.h"

#include <limits.h>
#include <signal.h>
#include <sys/types.h>

/// Starts on another port after a failed bind, this many times in all.
#define LAMMPS_CHILD_TRIES 5
/// Seconds between SIGTERM and SIGKILL when the child is ended.
#define LAMMPS_CHILD_GRACE 3.0
/// Seconds the child may take to listen (MPI's start on a loaded machine).
#define LAMMPS_CHILD_START 60.0
/// The most ranks asked (mpirun -np).
#define LAMMPS_RANKS_MAX 4096

/// A LAMMPS run as a child process.
struct lammps_child {
    pid_t pid;              ///< the child (its process group's leader); 0: none
    int status;             ///< its wait status once reaped (reaped: pid 0, done 1)
    int done;
    int ranks;              ///< mpirun -np RANKS; 0: lmp alone
    int port;               ///< fix imd's port once started
    char dir[PATH_MAX];     ///< the private folder; "" before lammps_child_dir
    char log[PATH_MAX + 8];  ///< the child's output, FOLDER.log; "" before lammps_child_dir
};

/// Makes the private folder and the log beside it. @return 0, or -1 with
/// a message in @p msg.
int lammps_child_dir(struct lammps_child *c, int ranks, char *msg, size_t size);

/// A path in the private folder ("FOLDER/NAME"), in @p out.
/// @return 0, or -1 when it does not fit.
int lammps_child_path(const struct lammps_child *c, const char *name, char *out, size_t size);

/// Starts lmp on the input @p in (a name in the folder, which reads the
/// port as ${sbport}) and connects @p link to its fix imd (frames of
/// @p natoms atoms), at most @p timeout seconds; *@p stop (a signal's
/// flag) set ends the wait. @return 0 with c->port set and the link open;
/// -1 with a message in @p msg (the child ended).
int lammps_child_start(struct lammps_child *c, const char *in, double timeout,
                       struct imd_conn *link, size_t natoms,
                       volatile const sig_atomic_t *stop, char *msg, size_t size);

/// Ends the child and whatever is left of its process group (SIGTERM,
/// SIGKILL after LAMMPS_CHILD_GRACE s); its files stay.
void lammps_child_end_run(struct lammps_child *c);

/// Waits at most @p timeout seconds for the child to end by itself.
/// @return 1 when it has (c->status), 0 when it is still running.
int lammps_child_wait(struct lammps_child *c, double timeout);

/// Whether the child ended well (exit status 0).
int lammps_child_ok(const struct lammps_child *c);

/// Ends the child and whatever is left of its process group, removes the
/// folder, and the log unless @p keep_log. Safe to call again.
void lammps_child_end(struct lammps_child *c, int keep_log);

/// --engine=lammps[:RANKS]'s RANKS from @p arg (after the colon; NULL or
/// "": 0, lmp alone). Usage error when it is not 1 to LAMMPS_RANKS_MAX.
int lammps_ranks(const char *arg);

/// -H --engine=lammps: runs @p sc in LAMMPS, records when asked, prints
/// --stats and the final state. @return the exit status (0; 1 a failure
/// at run time, the log named; 2 what LAMMPS cannot run), or 128 + N
/// after signal N (the child ended, its files removed).
int lammps_headless(const struct options *o, const struct scene *sc);

/// The terminal's steps a frame when --trate is not given.
#define LAMMPS_LIVE_TRATE 10

/// --engine=lammps in the terminal: the child started as for -H (the run
/// as long as LAMMPS takes, a frame every --trate steps, default
/// LAMMPS_LIVE_TRATE) and shown live (live.h: space pauses it, + -
/// change the frame rate, a kick pulls a ball); on q, a signal or an
/// error the child is ended and its files removed. @return the exit
/// status (128 + N after signal N).
int lammps_live(const struct options *o, const struct scene *sc, const char *name);

#endif
