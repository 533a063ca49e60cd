/*
 * headless_impl.h - what the headless files share and no other module:
 * the recorder of a run, and which file a path names.
 */
#ifndef HEADLESS_IMPL_H
#define HEADLESS_IMPL_H

#include "event.h"
#include "headless.h"
#include "record.h"
#include "sim.h"

#include <sys/types.h>

/* Which file a path names: its device and inode, or, for a file not there
 * yet, its directory's with its last name (d/a and d/./a are one file
 * before either exists); "-" is standard input (@p fd 0) or output (1). A
 * symbolic link is followed, also one to a file not there yet. */
struct file_id {
    dev_t dev;
    ino_t ino;
    int reg;          /* a regular file, there now */
    char name[256];   /* the last name of a file not there yet, else "" */
};

/* Fills @p id for @p path (@p fd: which standard stream "-" is); links
 * followed up to a depth of 8. @return 0, or -1 when it cannot be known. */
int file_id(const char *path, int fd, struct file_id *id, int depth);
int same_file(const struct file_id *a, const struct file_id *b);
/* 1 when @p path ("-" too) is the file standard output writes to. */
int is_stdout(const char *path);

/* The most frames a recording writes: beyond, a cadence like
 * --every-t=1e-300 would write for ever. */
#define REC_FRAMES_MAX 1e9

/* The files of a recorded run and where its cadence stands. The files
 * are opened at the first frame, so that a run refused before it (bad
 * input to the event engine) leaves existing files as they were. */
struct recorder {
    struct record traj, series;
    const char *want_traj, *want_series; /* the paths asked for */
    const char *traj_path, *series_path; /* the files open */
    int opened;               /* the files were opened (or failed to) */
    int events;               /* the event engine's rows */
    unsigned long long every; /* steps or events between frames, 0 with every_t */
    double every_t;           /* simulated time between frames, 0 with every */
    double next_t;            /* every_t: the time of the next frame */
    const char *failed;       /* the path of a failed write, NULL while fine */
    int err;
    struct sim obs;           /* the spring engine's observed state (sim.h) */
    int stopped;              /* the signal that stopped the run, 0 */
};

int rec_active(const struct recorder *rec);
void rec_init(struct recorder *rec, const struct rec_options *r, int events);
/* A frame and a row of the state (and ev in the event engine); opens the
 * files at the first. @return nonzero after a write error (the run stops). */
int rec_frame(struct recorder *rec, const struct sim *s, const struct event *ev);
/* @return 1 with the reason printed when a write failed. */
int rec_close(struct recorder *rec);
/* After rec_close: a run that SIGHUP, SIGINT or SIGTERM stopped (its files
 * ended at their last whole frame and row) says so and dies of the signal. */
void rec_signal_exit(const struct recorder *rec, const struct sim *s);
/* The spring engine's hook after @p done steps: a frame when due. */
int rec_after_step(struct recorder *rec, const struct sim *s, unsigned long long done);
/* The event engine's run with frames. @return EVENT_OK, or 1 (write error). */
int rec_event_run(const struct options *o, struct event *ev, struct sim *s,
                  struct recorder *rec);
/* Refuses (2) more than REC_FRAMES_MAX frames or more bytes than the disk
 * has free; says how large a recording over a gigabyte will be. */
int rec_check_size(const struct options *o, const struct sim *s);

#endif
