/*
 * traj_impl.h - the trajectory reader's insides, shared by its files and by
 * no other module. The reader by concept:
 *
 *     traj.c         opening: the index of frames, the first frame's ids,
 *                    what a run's parameters are; frames out as scenes
 *     traj_scan.c    the file in blocks, lines and tokens, the frame index
 *     traj_xyz.c     (extended) XYZ: a frame's count and comment line
 *     traj_lammps.c  LAMMPS dumps: ITEM lines, and PREFIX.in beside them
 *     traj_frame.c   reading a frame's rows into a slot (of TRAJ_KEEP)
 */
#ifndef TRAJ_IMPL_H
#define TRAJ_IMPL_H

#include "traj.h"

#include <stddef.h>

#include <stdint.h>

/// Bytes read at a time, and the longest line.
#define TRAJ_BLOCK (4 << 20)

/* === Reading blocks === */

/* The file read forward in blocks: buf[pos, len) is unread, buf[0] is at
 * file offset base. */
struct scan {
    int fd;
    char *buf;
    size_t cap, len, pos;
    long long base;
    long long line;      /* lines consumed */
    int eof;
    char last;           /* the last byte consumed */
    int unended;         /* skip_lines counted the file's last line, unended */
    long long size;
    void (*progress)(void *, double);
    void *arg;
    long long reported;
};

/* traj_scan.c */
/* err's message and line; @return -1. */
int tj_fail(struct traj_error *err, long long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "out of memory", err->nomem set; @return -1. */
int tj_nomem(struct traj_error *err);
int tj_blank(char c);
/* The next token of [*p, end): its start and length; 0 at the end. */
size_t tj_token(const char **p, const char *end, const char **tok);
/* The line as a string for a message, cut and made printable. */
const char *tj_shown(const char *s, size_t len, char *buf, size_t size);
/* A whole number in decimal digits alone. */
int tj_is_count(const char *s, size_t len, unsigned long long *out);
/* [a, a + alen) equals b, letters in either case. */
int tj_ieq(const char *a, size_t alen, const char *b);
/* Reads more after what is unread. @return 0, or -1 on a read error. */
int tj_fill(struct scan *sc);
/* The next line, without its end: 1, 0 at the end of the file, -1 with
 * *why set (a read error, a line too long). *off is its offset. */
int tj_next_line(struct scan *sc, const char **s, size_t *len, long long *off,
                 const char **why);
/* 1 when the line just read was the file's last and lacked its end: a
 * frame's header line so is a cut frame, whatever it says. */
int tj_at_cut(const struct scan *sc);
/* A frame's N rows start here: skip them and index the frame. 1: indexed,
 * 0: the file ends inside them (tr->cut), -1: an error in err. */
int tj_frame_rows(struct traj *tr, struct scan *sc, struct traj_frame *f, long long n,
                  struct traj_error *err);

/* traj_xyz.c */
/* Numbers of a value ("W 0 0 0 H 0 0 0 Z"): how many, at most @p max. */
int tj_numbers(const char *s, size_t len, double *out, int max);
/* Sets a column from a name (extended XYZ Properties, LAMMPS ATOMS). */
void tj_column(struct traj_cols *c, const char *name, size_t len, int col, int count);
void tj_cols_none(struct traj_cols *c);
/* Indexes an XYZ file. */
int tj_index_xyz(struct traj *tr, struct scan *sc, struct traj_error *err);

/* traj_lammps.c */
/* Indexes a LAMMPS dump. */
int tj_index_lammps(struct traj *tr, struct scan *sc, struct traj_error *err);
/* PREFIX.in beside a LAMMPS dump PREFIX.*: dt, k, walls, field, and the
 * table of springball's export. @return 1 when found and read. */
/* (*why: why a PREFIX.in there was skipped, else NULL) */
int tj_lammps_in(struct traj *tr, char *name, size_t size, const char **why);
/// The colour named @p s (@p len bytes): red ... white, rgbRRGGBB; 0: none.
uint32_t tj_color_named(const char *s, size_t len);

/* traj_frame.c */
void tj_slot_free(struct traj_slot *sl);
/* Reads and parses frame k's rows into @p sl. */
int tj_decode(struct traj *tr, size_t k, struct traj_slot *sl, struct traj_error *err);
/* The slot holding frame k, decoded if need be, sparing the slots of
 * frames in [keep0, keep1]. NULL with @p err on failure. */
struct traj_slot *tj_get(struct traj *tr, size_t k, size_t keep0, size_t keep1,
                         struct traj_error *err);
/* Frame k with its velocities (differences when the file has none). */
struct traj_slot *tj_frame(struct traj *tr, size_t k, struct traj_error *err);

#endif
