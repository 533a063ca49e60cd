/*
 * imd.h - the Interactive MD protocol, version 2 (IMD, as VMD and NAMD
 * speak it and LAMMPS's fix imd serves it): the wire format, pure, and a
 * small client over a POSIX TCP socket.
 *
 * Every message starts with an 8-byte header: two 32-bit integers in
 * network byte order, the type and a length. The server speaks first: a
 * HANDSHAKE whose length field is the version, 2, written in the
 * server's own byte order (so the client learns that order from it); the
 * client answers GO. Then the server sends FCOORDS every trate steps: the
 * header's length is the number of atoms N, and 3 N floats (x y z of
 * each atom, in the server's byte order) follow. The client may send
 * PAUSE (a toggle), TRATE (the length is the new rate), MDCOMM (N atom
 * indices from 0 then 3 N floats of force, in the client's order), KILL
 * and DISCONNECT, each a header (MDCOMM with its body).
 *
 * The reader (struct imd_reader) takes bytes as they come, in pieces of
 * any size, and hands back whole frames. Anything else is an error with
 * a message: another first message than the handshake, another version,
 * a message type a server does not send, a frame of more than
 * IMD_MAX_ATOMS atoms or of another size than the first, a coordinate
 * that is not finite. Its buffer grows with the bytes that have come
 * (at most twice them), never to what a header merely claims, and never
 * beyond one frame.
 */
#ifndef IMD_H
#define IMD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/// Message types.
enum imd_type {
    IMD_DISCONNECT = 0, ///< client: leave the run going
    IMD_ENERGIES = 1,   ///< server: a block of energies (skipped)
    IMD_FCOORDS = 2,    ///< server: a frame
    IMD_GO = 3,         ///< client: start sending
    IMD_HANDSHAKE = 4,  ///< server: the version, in its byte order
    IMD_KILL = 5,       ///< client: end the run
    IMD_MDCOMM = 6,     ///< client: forces on atoms
    IMD_PAUSE = 7,      ///< client: pause or resume
    IMD_TRATE = 8,      ///< client: frames every LENGTH steps
    IMD_IOERROR = 9,    ///< either: an I/O error
};

#define IMD_HEADER_SIZE 8
#define IMD_VERSION 2
/// The body of an ENERGIES message: a step and nine floats.
#define IMD_ENERGIES_SIZE 40
/// The most atoms a frame may hold (a frame of 1.2 GB).
#define IMD_MAX_ATOMS 100000000
/// Seconds without a byte in the middle of a frame before it is an error.
#define IMD_STALL_S 5

/// The name of message type @p type ("FCOORDS"), or "unknown".
const char *imd_type_name(int32_t type);

/// Writes a header (network byte order).
void imd_header_put(unsigned char out[IMD_HEADER_SIZE], int32_t type, int32_t length);

/// Reads a header.
void imd_header_get(const unsigned char in[IMD_HEADER_SIZE], int32_t *type, int32_t *length);

/// Writes the server's handshake: the version in this machine's byte
/// order, or in the other one when @p swapped (the fake servers of tests).
void imd_handshake_put(unsigned char out[IMD_HEADER_SIZE], int swapped);

/// The bytes of an MDCOMM message for @p n atoms.
size_t imd_mdcomm_size(size_t n);

/// Writes an MDCOMM message: indices @p idx (from 0) and forces @p f (3
/// a atom), in this machine's byte order.
void imd_mdcomm_put(unsigned char *out, size_t n, const int32_t *idx, const float *f);

/// Reader events.
enum imd_event {
    IMD_ERR = -1,  ///< an error: r->msg
    IMD_MORE = 0,  ///< all bytes taken, no frame yet
    IMD_FRAME = 1, ///< a frame: r->xyz, r->natoms; the bytes after it not taken
};

/// The reader's state; set max_atoms or natoms after imd_reader_init.
struct imd_reader {
    size_t max_atoms;          ///< frames of more atoms are refused
    size_t natoms;             ///< 0 until the first frame, then its size
    int swap;                  ///< the server's byte order is not ours
    int stage;                 ///< 0: the handshake, 1: a header, 2: a body
    unsigned char head[IMD_HEADER_SIZE];
    size_t hgot;               ///< header bytes in head
    int32_t type;              ///< the body's message type
    size_t need, got;          ///< the body's size and bytes come
    unsigned char *body;       ///< the body so far (cap bytes)
    size_t cap;
    const float *xyz;          ///< after IMD_FRAME: 3 natoms coordinates
    unsigned long long frames; ///< frames read
    char msg[256];             ///< the error
};

/// Starts a reader expecting frames of @p natoms atoms (0: any, the
/// first frame's number afterwards).
void imd_reader_init(struct imd_reader *r, size_t natoms);

/// Frees the reader's buffer.
void imd_reader_free(struct imd_reader *r);

/// Takes @p len bytes at @p buf, and sets *used to how many it took.
/// @return an enum imd_event; after IMD_FRAME, r->xyz is valid until the
/// next call.
int imd_reader_feed(struct imd_reader *r, const unsigned char *buf, size_t len, size_t *used);

/// What a partial message means when the stream ends or stalls: the
/// message in @p out ("in the middle of frame 3 (1200 of 2400 bytes)"),
/// or "" between messages.
void imd_reader_where(const struct imd_reader *r, char *out, size_t size);

/// A connection to an IMD server.
struct imd_conn {
    int fd;
    struct imd_reader r;
    unsigned char buf[1 << 16]; ///< bytes read, not yet fed
    size_t len, pos;
    double last;                ///< when the last bytes came (CLOCK_MONOTONIC s)
    char where[160];            ///< HOST:PORT, for messages
    char msg[512];              ///< the last error
    int refused;                ///< imd_open failed: nobody listens there (yet)
    volatile const sig_atomic_t *stop; ///< imd_open_until's flag, or NULL
};

/// The results of imd_next.
enum imd_next_result {
    IMD_NEXT_ERR = -1,  ///< an error: c->msg
    IMD_NEXT_WAIT = 0,  ///< no frame within the time given
    IMD_NEXT_FRAME = 1, ///< a frame: c->r.xyz, c->r.natoms
    IMD_NEXT_END = 2,   ///< the server closed the link between frames
};

/// Connects to @p hostport ("HOST:PORT", "[V6]:PORT"), waits for the
/// handshake and answers GO, all within @p timeout seconds (a refused,
/// unreachable or silent address is an error by then). @p natoms as
/// imd_reader_init's. @return 0, or -1 with c->msg (nothing to close).
int imd_open(struct imd_conn *c, const char *hostport, double timeout, size_t natoms);

/// imd_open that also gives up when *@p stop is set (by a signal's
/// handler, which interrupts its waits: no SA_RESTART), c->msg saying so.
/// After a failure, c->refused says that nobody listened at the address:
/// a server still starting may be asked again.
int imd_open_until(struct imd_conn *c, const char *hostport, double timeout, size_t natoms,
                   volatile const sig_atomic_t *stop);

/// The next frame, waiting at most @p timeout_ms (-1: for ever, but a
/// stall of IMD_STALL_S in the middle of a frame is an error).
int imd_next(struct imd_conn *c, int timeout_ms);

/// Sends a message without a body (PAUSE, GO, KILL, DISCONNECT; TRATE
/// with the rate as @p length). @return 0, or -1 with c->msg.
int imd_send(struct imd_conn *c, int32_t type, int32_t length);

/// Sends forces @p f (3 an atom) on atoms @p idx. @return 0 or -1.
int imd_send_forces(struct imd_conn *c, size_t n, const int32_t *idx, const float *f);

/// Closes the link, sending DISCONNECT first when @p bye (the run goes on).
void imd_close(struct imd_conn *c, int bye);

/// Splits "HOST:PORT" (or "[V6]:PORT") into @p host and @p port.
/// @return 0, or -1 with a message in @p msg.
int imd_split(const char *hostport, char *host, size_t hsize, char *port, size_t psize,
              char *msg, size_t msize);

#endif
