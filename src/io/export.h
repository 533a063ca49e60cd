/*
 * export.h - the scene as a LAMMPS run: an input script and a data file
 * that make LAMMPS (pair gran/hooke, MPI) simulate the same balls with the
 * same forces.
 *
 * The mapping (checked against LAMMPS by tests/lammps.sh):
 *  - atom_style sphere in 2-d (dimension 2, fix enforce2d); LAMMPS reads
 *    a ball as a DIAMETER and a DENSITY, and takes the mass as density
 *    times 4/3 pi r^3 even in 2-d (so the density written is m / (4/3 pi
 *    r^3)); the script stops if the total mass LAMMPS computed is not the
 *    scene's (another LAMMPS version with another convention).
 *  - pair gran/hooke Kn Kt=0 gamma_n gamma_t=0 xmu=0 dampflag=0: the normal
 *    force Kn delta - m_eff gamma_n v_n on the overlap delta = r_i + r_j -
 *    d, with Kn in force/distance, is the scene's k s; no tangential force.
 *  - restitution e < 1: springball's dashpot c = 2 zeta sqrt(k mu) with
 *    zeta = -ln e / sqrt(pi^2 + ln^2 e) is LAMMPS's m_eff gamma_n with
 *    gamma_n = 2 zeta sqrt(k / mu). gran/hooke has one gamma_n for all
 *    pairs, so this needs one reduced mass: all balls of one mass m (mu =
 *    m/2; a wall has mu = m, and its own gamma_n).
 *  - spring walls: fix addforce of atom-style variables on the balls near a
 *    wall (a dynamic group), springball's own terms: k times the
 *    penetration toward the table at any depth, the centre past the wall
 *    line included (fix wall/gran pushes such a ball outward, and LAMMPS
 *    lost it), less the dashpot 2 zeta sqrt(k m) v_n with restitution < 1
 *    (any masses); the round table's rim along the radius. boundary m m p:
 *    the box grows to hold every ball, so none is lost. Hard walls
 *    (restitution 1, one radius, a rectangle) are fix wall/reflect at r
 *    from the edges.
 *  - a uniform field (gx, gy): fix gravity |g| vector gx/|g| gy/|g| 0, the
 *    force m g on every ball. Friction, open sides and the round table's
 *    hard wall are refused.
 *  - fix nve/sphere (velocity Verlet: springball integrates by
 *    semi-implicit Euler; see README "Beyond one machine" for what that
 *    changes), the same dt, run N steps, the thermo output every 100
 *    steps, and a dump of PREFIX.xyz (LAMMPS's xyz: positions) every
 *    EVERY steps plus PREFIX.lammpstrj (ids, positions, velocities).
 * What has no equivalent here is refused (export_unsupported).
 */
#ifndef EXPORT_H
#define EXPORT_H

#include "scene.h"
#include "sim.h"

#include <stdio.h>

/// Why the parameters and balls of @p s cannot be exported faithfully
/// ("the round table", "exponential contacts", "gravity", "open space",
/// "hard walls with restitution < 1", ...), or NULL when they can.
const char *export_lammps_unsupported(const struct sim *s);

/// The longest run and dump interval LAMMPS takes, in steps (it reads
/// them as ints).
#define EXPORT_LAMMPS_MAX 2147483647ull

/// What the input script needs besides the state.
struct export_run {
    const char *data_name; ///< the data file's name as the script reads it
    const char *dump_prefix; ///< dumps go to DUMP_PREFIX.xyz and .lammpstrj
    unsigned long long steps; ///< run length
    unsigned long long every; ///< dump interval in steps (0: no dump)
    const char *title;    ///< for the comments; may be NULL
    int imd_port;         ///< fix imd on this port (nowait on); 0: none
    unsigned long long imd_trate; ///< its frames every imd_trate steps
    /// --engine=lammps: fix imd on the port in the LAMMPS variable of this
    /// name (lmp -var NAME PORT), waiting for its client (nowait off), so
    /// that no frame is missed; NULL: imd_port as above.
    const char *imd_port_var;
    /// After the run, the final state at full precision (write_dump of
    /// id x y vx vy, %.17g, sorted by id) to this file; NULL: none.
    const char *final_dump;
    /// Dump DUMP_PREFIX.lammpstrj alone, not DUMP_PREFIX.xyz.
    int trj_only;
    const uint32_t *color; ///< each ball's scene colour (scene order), or NULL
};

/// The most atom types the export gives colours (a type a colour, in the
/// order the balls first show them); balls of further colours are type 1.
#define EXPORT_TYPES_MAX 32

/// Writes the data file (balls in scene order, ids from 1), each ball's
/// atom type its colour's (@p color in scene order, or NULL: all type 1),
/// so that a dump of the run replays in the scene's colours (the script's
/// dump_modify element names the types by colour).
void export_lammps_data(FILE *f, const struct sim *s, const char *title,
                        const uint32_t *color);

/// Writes the input script.
void export_lammps_in(FILE *f, const struct sim *s, const struct export_run *run);

/// The damping gamma_n of restitution @p e for reduced mass @p mu and
/// stiffness @p k (0 when e = 1).
double export_gamma_n(double e, double k, double mu);

#endif
