/*
 * link.h - a source of frames that arrive while a run goes on elsewhere,
 * behind one interface (a table of operations, as the session's engines
 * are): a running simulation watched over IMD (link_imd_open), or a
 * recording still being written (link_follow_open). The session's live
 * engine (session.h: session_live) polls a link and never knows which it
 * is; the operations a source lacks are NULL (a file cannot be paused).
 *
 * A link never waits in poll: it hands back the newest frame that has
 * come whole, or nothing yet. Its messages are its own, in l->msg.
 */
#ifndef LINK_H
#define LINK_H

#include <stddef.h>
#include <stdint.h>

/// One frame as a link hands it over; valid until the next poll.
struct link_frame {
    size_t n;          ///< atoms (balls)
    const double *xyz; ///< 3 n: x y z of each
    const double *v;   ///< 3 n velocities as recorded, or NULL (then the
                       ///< session takes differences of frames)
    long long step;    ///< the run's step, or -1 (then counted: trate a frame)
    double t;          ///< the run's time, or NaN (then step dt)
    unsigned long long k; ///< the frame's number, from 1
};

/// What poll found.
enum link_poll {
    LINK_ERROR = -1, ///< the link failed (l->msg); reconnect may mend it
    LINK_NONE = 0,   ///< nothing new yet
    LINK_FRAME = 1,  ///< a frame (*fr)
    LINK_ENDED = 2,  ///< the run ended (l->msg says how)
};

struct link;

/// A link's operations; any but poll and close may be NULL.
struct link_ops {
    const char *name;  ///< "imd", "follow"
    /// The next whole frame, without waiting.
    int (*poll)(struct link *l, struct link_frame *fr);
    /// poll, but the oldest frame not handed over yet, one at a time (a
    /// paused run's frames one by one); NULL: poll does.
    int (*next)(struct link *l, struct link_frame *fr);
    /// Pauses or resumes the run (a toggle). @return 0 or -1 (l->msg).
    int (*pause)(struct link *l);
    /// A frame every @p rate steps. @return 0 or -1.
    int (*trate)(struct link *l, int rate);
    /// Forces @p f (3 an atom, the run's units) on atoms @p idx (from 0),
    /// standing until the next call (n 0: none). @return 0 or -1.
    int (*force)(struct link *l, size_t n, const int32_t *idx, const float *f);
    /// Ends the run. @return 0 or -1.
    int (*kill)(struct link *l);
    /// Opens the link again after an error or an end. @return 0 or -1.
    int (*reconnect)(struct link *l);
    /// Closes and frees it; @p bye: leave the run going (DISCONNECT).
    void (*close)(struct link *l, int bye);
};

/// A link: its operations and what it says.
struct link {
    const struct link_ops *ops;
    char where[160];   ///< what it is linked to, for messages
    char msg[512];     ///< the last error or end
};

/// Seconds an IMD connection and its handshake may take.
#define LINK_IMD_TIMEOUT 5.0
/// Seconds the terminal's reconnect (r) may take at most.
#define LINK_IMD_RECONNECT 2.0

/// Connects to the IMD server at @p hostport within @p timeout seconds
/// (imd.h), expecting frames of @p natoms (0: any). @return the link, or
/// NULL with the reason in @p msg.
struct link *link_imd_open(const char *hostport, double timeout, size_t natoms, char *msg,
                           size_t msize);

struct traj;

/// Follows the recording at @p path (traj.h; @p format as traj_open's),
/// indexed as @p tr (its balls and parameters), of which the first
/// @p taken frames have been shown: each poll looks at the file and,
/// when it has grown, hands over its newest whole frame (a frame being
/// written is waited for). @return the link, or NULL with @p msg.
struct link *link_follow_open(const char *path, int format, const struct traj *tr,
                              size_t taken, char *msg, size_t msize);

struct imd_conn;

/// A link over the IMD connection @p c, already open (its handshake
/// answered), which the link takes over: @p c is not used or closed
/// afterwards. @p natoms: its frames' atoms. @return the link, or NULL
/// (memory; @p c then closed).
struct link *link_imd_adopt(struct imd_conn *c, const char *hostport, size_t natoms);

#endif
