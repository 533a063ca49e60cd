/*
 * connect.h - `--connect=HOST:PORT`: a running simulation watched through
 * the IMD protocol (imd.h), such as LAMMPS's fix imd. Headless (-H), the
 * N-th frame received is printed as a scene (the first frame is 1) and
 * the link closed with DISCONNECT, the run going on; --stats, --traj and
 * --series record what arrives.
 *
 * IMD v2 sends positions alone: velocities are differences of frames
 * (central, one-sided at the ends) over the frames' time, trate steps of
 * dt each. The table, radii, masses, colours, k and dt come from the
 * scene given beside --connect (the one the run was exported from);
 * without one, the table is the frames' extent, masses 1 and radii half
 * the nearest neighbours' distance, as a replay makes them up. The run's
 * trate is not in the protocol: --trate=N sends it to the run, and steps
 * are counted N a frame; without it, one step a frame (said on standard
 * error). A 3-D run is drawn at (x, y): z is dropped, and said.
 */
#ifndef CONNECT_H
#define CONNECT_H

#include "headless.h"
#include "scene.h"

/// Seconds a connection and its handshake may take before it is an error.
#define CONNECT_TIMEOUT 5.0

/// -H --connect: @p sc is the scene given, or NULL. @return the exit status
/// (0; 1 a failure of the link or at run time; 2 bad input), the message
/// printed.
int connect_headless(const struct options *o, const struct scene *sc);

/// The radius a frame without one gives every ball: half the smallest
/// distance between two of its @p n points (x y z floats; z ignored), or 1.
double connect_radius(const float *xyz, size_t n);

#endif
