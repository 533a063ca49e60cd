/*
 * traj.h - a recorded run read back frame by frame: extended XYZ (as
 * springball, ASE and OVITO write it), plain XYZ, and LAMMPS dump text.
 *
 * Opening a file indexes it in one pass: the byte offset, first line,
 * time and step of every frame, nothing of the rows but their count. A
 * frame's rows are read and parsed when asked for (traj_read), so a
 * recording of 10^6 balls and 50 frames (3.7 GB) opens without being
 * loaded: at most TRAJ_KEEP frames are held decoded.
 *
 * What a file lacks is made up, and said in traj.notes:
 *   - radii: half the 1st percentile of the nearest-neighbour distances
 *     in the densest (smallest such distance) of the first, middle and
 *     last frames, so that balls of the densest frame barely touch;
 *   - velocities: central differences of positions over the frames'
 *     times (one-sided at the ends), marked by traj.v_diff;
 *   - masses: 1; the table: the box of the first frame (Lattice, BOX
 *     BOUNDS), or the balls' extent; positions are shifted by the box's
 *     lower corner when it is not at the origin;
 *   - k, dt and the walls: springball's own recordings carry them
 *     (springball= on the comment line, record.h); a LAMMPS dump takes
 *     them from PREFIX.in beside it (timestep, pair_style gran/hooke K,
 *     fix wall/reflect or wall/gran, fix gravity, the table of
 *     springball's export), else the scene defaults. A dump's time is its
 *     TIMESTEP times that dt, or the step count when there is no dt.
 *
 * Errors are "what is wrong" with the file's line in traj_error; I/O is
 * POSIX read and pread. Nothing is printed.
 */
#ifndef TRAJ_H
#define TRAJ_H

#include "scene.h"

#include <stddef.h>

/// Formats, for traj_open's @p format and traj.format.
enum traj_format {
    TRAJ_AUTO = 0,   ///< detect from the text
    TRAJ_XYZ = 1,    ///< extended or plain XYZ
    TRAJ_LAMMPS = 2, ///< LAMMPS dump text (dump custom, dump atom)
};

/// Frames held decoded at once (a frame and its two neighbours, for the
/// central differences).
#define TRAJ_KEEP 3

/// Files larger than this report their indexing progress.
#define TRAJ_PROGRESS_MIN (100ull << 20)

/// One frame in the file.
struct traj_frame {
    long long off;     ///< byte offset of the frame's first line
    long long rows;    ///< byte offset of its first ball row
    long long end;     ///< byte offset after its last row
    long long line;    ///< line number of its first ball row
    double t;          ///< its time (see above)
    long long step;    ///< its step (Step=, TIMESTEP), or its index
    double box[4];     ///< x0 y0 x1 y1 of its box, when has_box
    double zbox[2];    ///< z0 z1 of a LAMMPS box (for zs), when has_box
    int has_box;
};

/// A decoded frame.
struct traj_slot {
    size_t frame;       ///< which; valid only when used
    int used;
    double *x, *y, *vx, *vy, *m, *r;
    double *z, *vz;     ///< a 3-D run's depth and its velocity (0 in 2-D)
    uint32_t *color;
};

/// The columns of a row (-1: absent).
struct traj_cols {
    int ncols;          ///< fields in a row; 0: plain XYZ (at least 3)
    int x, y, vx, vy, px, py, r, diameter, m, species, id, cr, cg, cb;
    int z, vz, pz;      ///< a 3-D run's z, vz, pz (drawn from above, z in order)
    int scaled;         ///< LAMMPS xs ys zs: fractions of the box (bits 1 2 4)
};

/// An open trajectory. Read the fields; change them only through the
/// functions.
struct traj {
    int fd;
    char *path;
    int format;              ///< enum traj_format
    size_t n;                ///< balls in every frame
    struct traj_frame *fr;   ///< the frames in the file, in order
    size_t nframes, capframes;
    int cut;                 ///< the file ends inside frame nframes
    long long size;          ///< bytes in the file
    struct traj_cols c;
    struct sim_params p;     ///< the run's parameters (see above)
    int have_params;         ///< 1: springball=, 2: PREFIX.in
    int have_dt;             ///< the frames' times are in time units
    int v_diff;              ///< velocities are differences of positions
    int has_z;               ///< a frame read had a z other than 0 (dropped)
    double r_rule;           ///< the radius given when the file has none, or 0
    double shift_x, shift_y; ///< added to every position read
    char notes[512];         ///< what was assumed, for the user
    char props[512];         ///< the first frame's Properties= or ATOMS columns
    /* species (or type) names, each with a colour */
    char (*species)[16];
    size_t nspecies;
    uint32_t type_color[32]; ///< the colours of LAMMPS atom types 1.. (the export's
    int ntype_color;         ///< comment in PREFIX.in), 0: none
    /* LAMMPS ids: rank of each id in the first frame */
    long long *ids;          ///< the first frame's ids, sorted; NULL when they are 1..n
    unsigned char *seen;
    struct traj_slot slot[TRAJ_KEEP];
    unsigned long long use;  ///< for the least recently used slot
    unsigned long long used_at[TRAJ_KEEP];
    char *buf;               ///< read buffer
    size_t cap;
};

/// What went wrong: a message and the file's line, 0 for none.
struct traj_error {
    long long line;
    char msg[256];
    int nomem; ///< memory ran short (not the file's fault)
};

/// The format of a file whose first @p len bytes are @p head: TRAJ_LAMMPS
/// when it starts with "ITEM: TIMESTEP"; TRAJ_XYZ when line 1 is a count
/// alone and line 2 holds Properties= or Lattice=, or line 3 starts with
/// a name (a species) rather than a number; else TRAJ_AUTO (not a
/// trajectory: a scene, universe or particle file).
int traj_detect(const char *head, size_t len);

/// Opens and indexes @p path in @p format (TRAJ_AUTO: detect), reading
/// its first frame. @p progress, when not NULL and the file is larger
/// than TRAJ_PROGRESS_MIN, is told the fraction indexed now and then.
/// A file cut inside a frame keeps its whole frames (tr->cut); a file
/// without one whole frame is an error.
/// @return 0, or -1 with @p err (nothing to close).
int traj_open(struct traj *tr, const char *path, int format,
              void (*progress)(void *arg, double done), void *arg,
              struct traj_error *err);

/// Closes and frees. Safe on a zeroed struct.
void traj_close(struct traj *tr);

/// Frame @p k as a scene: sc->p the run's parameters, the balls with
/// position, velocity, mass, radius and a colour by species. @p sc is
/// initialised here (scene_free it).
/// @return 0, or -1 with @p err (then nothing to free).
int traj_scene(struct traj *tr, size_t k, struct scene *sc, struct traj_error *err);

/// Frame @p k into @p s, which holds tr->n balls (sim_init with tr->p):
/// positions, velocities, masses, radii, and t and steps as the frame's.
/// The slots are in ball order afterwards. @return 0, or -1 with @p err.
int traj_sim(struct traj *tr, size_t k, struct sim *s, struct traj_error *err);

/// Frame @p k's depth: z and vz of each ball (vz from differences when
/// the file has no velocities), into @p z and @p vz of tr->n each; all 0
/// in a 2-D run. @return 0, or -1 with @p err.
int traj_depth(struct traj *tr, size_t k, double *z, double *vz, struct traj_error *err);

/// The last frame whose time is at most @p t (0 when none is).
size_t traj_at_time(const struct traj *tr, double t);

#endif
