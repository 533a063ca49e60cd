/*
 * imdfake.c - IMD servers good and hostile, and a scripted IMD client, for
 * tests/imd.sh (built by the Makefile as build/imdfake; links src/imd.c).
 *
 *   imdfake port                  print a free local TCP port
 *   imdfake serve MODE PORTFILE [N [FRAMES]]
 *       listen on 127.0.0.1 (a free port, written to PORTFILE once
 *       listening), take one client and play MODE with N atoms (default
 *       3) and FRAMES frames (default 5); what the client sent is printed
 *       on standard output as type names, one a line. Atom i (from 0) of
 *       frame k (from 1) is at (10 k + i, 2 i + 1, 0.5 i).
 *   MODE: good, end (closes after its frames), swapped (the other byte order), energies (an ENERGIES
 *       block before each frame), shake (a first message not a
 *       handshake), version (handshake version 3), huge (a frame claiming
 *       2^31 atoms), big (2^31 - 1 atoms), resize (frame 2 has one atom
 *       more), nan (a NaN in frame 2), stall (half of frame 2, then
 *       silence until the client leaves), cut (half of frame 2, then
 *       close), silent (no handshake), type (a PAUSE from the server);
 *       for the terminal, runs that go on (serve_live): live (a frame
 *       every 40 ms until KILL, PAUSE and TRATE obeyed, what comes
 *       printed, MDCOMM with its first force; DISCONNECT: the next
 *       client), live3d (z = i), drop (the first link closed after 10
 *       frames), slow (no frame ever)
 *       (IMDFAKE_STAMP set: each message the client sent logged with
 *       the wall-clock time it came, "PAUSE 0 @SECONDS.MICROSECONDS")
 *   imdfake client HOST:PORT CMD...
 *       frames K (read K frames, print the last's first atom), pause,
 *       quiet MS (read the frames under way until none comes for MS ms,
 *       print the last one's number), rest (every frame until the run
 *       ends), trate N, force I FX FY
 *       FZ, kill, bye, touch FILE
 */
#define _POSIX_C_SOURCE 200809L
#include "imd.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

static int listener(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)&a, &l)) {
        perror("imdfake");
        exit(1);
    }
    *port = ntohs(a.sin_port);
    return fd;
}

static void put(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0)
            exit(0); /* the client left */
        c += w;
        n -= (size_t)w;
    }
}

static void header(int fd, int32_t type, int32_t len)
{
    unsigned char h[8];
    imd_header_put(h, type, len);
    put(fd, h, 8);
}

static uint32_t swap32(uint32_t v)
{
    return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

/* Frame k's body, in this machine's order or swapped. */
static void frame(int fd, int k, int n, int swapped, int nan_at, size_t cut_at)
{
    float *f = malloc((size_t)n * 12);
    for (int i = 0; i < n; i++) {
        f[3 * i] = (float)(10 * k + i);
        f[3 * i + 1] = (float)(2 * i + 1);
        f[3 * i + 2] = 0.5f * (float)i;
    }
    if (nan_at >= 0)
        f[nan_at] = strtof("nan", NULL);
    if (swapped)
        for (int i = 0; i < 3 * n; i++) {
            uint32_t u;
            memcpy(&u, &f[i], 4);
            u = swap32(u);
            memcpy(&f[i], &u, 4);
        }
    header(fd, IMD_FCOORDS, n);
    put(fd, f, cut_at ? cut_at : (size_t)n * 12);
    free(f);
}

/* Prints what the client sends until it closes. */
static void drain(int fd)
{
    unsigned char h[8];
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, h + got, 8 - got);
        if (r <= 0)
            return;
        got += (size_t)r;
        if (got < 8)
            continue;
        got = 0;
        int32_t t, l;
        imd_header_get(h, &t, &l);
        printf("%s %ld\n", imd_type_name(t), (long)l);
        fflush(stdout);
        if (t == IMD_MDCOMM) { /* skip its body */
            size_t skip = (size_t)l * 16;
            char b[256];
            while (skip) {
                ssize_t k = read(fd, b, skip < sizeof b ? skip : sizeof b);
                if (k <= 0)
                    return;
                skip -= (size_t)k;
            }
        }
    }
}

static int serve(const char *mode, const char *portfile, int n, int frames)
{
    int port, ls = listener(&port);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
    FILE *pf = fopen(tmp, "w");
    if (!pf)
        return 1;
    fprintf(pf, "%d\n", port);
    fclose(pf);
    rename(tmp, portfile); /* whole, once listening */
    int fd = accept(ls, NULL, NULL);
    if (fd < 0)
        return 1;
    close(ls);
    unsigned char h[8];
    if (!strcmp(mode, "silent")) {
        drain(fd);
        return 0;
    }
    if (!strcmp(mode, "shake")) {
        header(fd, IMD_FCOORDS, 3);
        drain(fd);
        return 0;
    }
    int swapped = !strcmp(mode, "swapped");
    if (strcmp(mode, "version")) {
        imd_handshake_put(h, swapped);
        put(fd, h, 8);
    } else {
        uint32_t v = 3;
        imd_header_put(h, IMD_HANDSHAKE, 0);
        memcpy(h + 4, &v, 4);
        put(fd, h, 8);
    }
    /* GO */
    size_t got = 0;
    while (got < 8) {
        ssize_t r = read(fd, h + got, 8 - got);
        if (r <= 0)
            return 0;
        got += (size_t)r;
    }
    int32_t t, l;
    imd_header_get(h, &t, &l);
    printf("%s %ld\n", imd_type_name(t), (long)l);
    fflush(stdout);
    for (int k = 1; k <= frames; k++) {
        if (!strcmp(mode, "huge") && k == 2) {
            header(fd, IMD_FCOORDS, (int32_t)0x80000000u);
            break;
        }
        if (!strcmp(mode, "big") && k == 2) {
            header(fd, IMD_FCOORDS, 2147483647);
            put(fd, "abcd", 4);
            break;
        }
        if (!strcmp(mode, "type") && k == 2) {
            header(fd, IMD_PAUSE, 0);
            break;
        }
        if (!strcmp(mode, "energies")) {
            header(fd, IMD_ENERGIES, 1);
            char e[IMD_ENERGIES_SIZE] = {0};
            put(fd, e, sizeof e);
        }
        int nk = !strcmp(mode, "resize") && k == 2 ? n + 1 : n;
        int nan_at = !strcmp(mode, "nan") && k == 2 ? 3 * n - 2 : -1;
        size_t cut = (!strcmp(mode, "stall") || !strcmp(mode, "cut")) && k == 2 ? (size_t)n * 6 : 0;
        frame(fd, k, nk, swapped, nan_at, cut);
        if (cut) {
            if (!strcmp(mode, "cut")) {
                close(fd);
                return 0;
            }
            break;
        }
    }
    if (!strcmp(mode, "end")) /* the run is over: no more to send */
        shutdown(fd, SHUT_WR);
    drain(fd);
    return 0;
}

/* === Live servers: a run that goes on, paced, for the terminal === */

/* All of @p n bytes, or -1 (the client left). */
static int put_live(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* One message from the client, printed; its effect on the run. @return
 * 0, 1 the client left (DISCONNECT or closed), 2 KILL. */
static int take_msg(int fd, int *paused, int *trate)
{
    unsigned char h[8];
    size_t got = 0;
    while (got < 8) {
        ssize_t r = read(fd, h + got, 8 - got);
        if (r <= 0)
            return 1;
        got += (size_t)r;
    }
    int32_t t, l;
    imd_header_get(h, &t, &l);
    if (t == IMD_MDCOMM && l > 0 && l < 1000) { /* indices, then forces */
        unsigned char b[16000];
        size_t need = (size_t)l * 16;
        got = 0;
        while (got < need) {
            ssize_t r = read(fd, b + got, need - got);
            if (r <= 0)
                return 1;
            got += (size_t)r;
        }
        int32_t i0;
        float f[3];
        memcpy(&i0, b, 4);
        memcpy(f, b + (size_t)l * 4, 12);
        printf("MDCOMM %ld atom %ld force %.6g %.6g %.6g\n", (long)l, (long)i0, f[0], f[1], f[2]);
    } else if (getenv("IMDFAKE_STAMP")) { /* when it came: the wall clock, to the us */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        printf("%s %ld @%lld.%06ld\n", imd_type_name(t), (long)l, (long long)ts.tv_sec,
               ts.tv_nsec / 1000);
    } else {
        printf("%s %ld\n", imd_type_name(t), (long)l);
    }
    fflush(stdout);
    if (t == IMD_PAUSE)
        *paused = !*paused;
    if (t == IMD_TRATE && l > 0)
        *trate = l;
    return t == IMD_KILL ? 2 : t == IMD_DISCONNECT ? 1 : 0;
}

/* live: a frame every 40 ms (none while paused) to each client in turn,
 * until KILL; atom i at (5 + 3 i + 0.3 sin(step / 20), 2 i + 1, z), z 0
 * (live3d: i). drop: the first client's link closed after FRAMES frames.
 * slow: the handshake, then no frame ever. */
static int serve_live(const char *mode, const char *portfile, int n)
{
    int port, ls = listener(&port);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
    FILE *pf = fopen(tmp, "w");
    if (!pf)
        return 1;
    fprintf(pf, "%d\n", port);
    fclose(pf);
    rename(tmp, portfile);
    long long step = 0;
    int trate = 1, paused = 0, clients = 0;
    float *f = malloc((size_t)n * 12);
    for (;;) {
        int fd = accept(ls, NULL, NULL);
        if (fd < 0 || !f)
            return 1;
        clients++;
        printf("client %d\n", clients);
        fflush(stdout);
        unsigned char h[8];
        imd_handshake_put(h, 0);
        if (put_live(fd, h, 8)) {
            close(fd);
            continue;
        }
        int rc = 0, sent = 0;
        paused = 0;
        for (;;) {
            struct pollfd p = {fd, POLLIN, 0};
            int r = poll(&p, 1, 40);
            if (r > 0) {
                rc = take_msg(fd, &paused, &trate);
                if (rc)
                    break;
                continue;
            }
            if (paused || !strcmp(mode, "slow") || r < 0)
                continue;
            step += trate;
            for (int i = 0; i < n; i++) {
                f[3 * i] = (float)(5 + 3 * i + 0.3 * sin(0.05 * (double)step));
                f[3 * i + 1] = (float)(2 * i + 1);
                f[3 * i + 2] = !strcmp(mode, "live3d") ? (float)i : 0;
            }
            header(fd, IMD_FCOORDS, n);
            if (put_live(fd, f, (size_t)n * 12)) {
                rc = 1;
                break;
            }
            if (!strcmp(mode, "drop") && clients == 1 && ++sent >= 10)
                break;
        }
        close(fd);
        if (rc == 2) {
            printf("killed\n");
            fflush(stdout);
            free(f);
            return 0;
        }
    }
}

static int client(const char *hostport, int argc, char **argv)
{
    struct imd_conn *c = malloc(sizeof *c);
    if (!c || imd_open(c, hostport, 10, 0)) {
        fprintf(stderr, "imdfake: %s\n", c ? c->msg : "out of memory");
        return 1;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!strcmp(a, "frames") && i + 1 < argc) {
            int k = atoi(argv[++i]);
            for (int j = 0; j < k; j++) {
                int r = imd_next(c, -1);
                if (r != IMD_NEXT_FRAME) {
                    fprintf(stderr, "imdfake: %s\n", c->msg);
                    return 1;
                }
            }
            printf("frame %llu atoms %zu first %.9g %.9g %.9g\n", c->r.frames, c->r.natoms,
                   c->r.xyz[0], c->r.xyz[1], c->r.xyz[2]);
            fflush(stdout);
        } else if (!strcmp(a, "rest")) { /* every frame until the run ends */
            int r;
            while ((r = imd_next(c, -1)) == IMD_NEXT_FRAME)
                ;
            if (r != IMD_NEXT_END) {
                fprintf(stderr, "imdfake: %s\n", c->msg);
                return 1;
            }
            printf("ended after frame %llu\n", c->r.frames);
            fflush(stdout);
        } else if (!strcmp(a, "quiet") && i + 1 < argc) {
            /* the frames already sent, until none comes for MS ms */
            int ms = atoi(argv[++i]), r;
            unsigned long long k0 = c->r.frames;
            while ((r = imd_next(c, ms)) == IMD_NEXT_FRAME)
                if (c->r.frames - k0 > 100000) {
                    fprintf(stderr, "imdfake: frames keep coming\n");
                    return 1;
                }
            if (r != IMD_NEXT_WAIT) {
                fprintf(stderr, "imdfake: %s\n", c->msg);
                return 1;
            }
            printf("quiet after frame %llu\n", c->r.frames);
            fflush(stdout);
        } else if (!strcmp(a, "pause")) {
            rc = imd_send(c, IMD_PAUSE, 0);
        } else if (!strcmp(a, "trate") && i + 1 < argc) {
            rc = imd_send(c, IMD_TRATE, atoi(argv[++i]));
        } else if (!strcmp(a, "force") && i + 4 < argc) {
            int32_t idx = atoi(argv[i + 1]);
            float f[3] = {strtof(argv[i + 2], NULL), strtof(argv[i + 3], NULL),
                          strtof(argv[i + 4], NULL)};
            i += 4;
            rc = imd_send_forces(c, 1, &idx, f);
        } else if (!strcmp(a, "kill")) {
            rc = imd_send(c, IMD_KILL, 0);
        } else if (!strcmp(a, "bye")) {
            imd_close(c, 1);
            return 0;
        } else if (!strcmp(a, "touch") && i + 1 < argc) {
            FILE *f = fopen(argv[++i], "w");
            if (f)
                fclose(f);
        } else {
            fprintf(stderr, "imdfake: unknown client command '%s'\n", a);
            return 2;
        }
        if (rc) {
            fprintf(stderr, "imdfake: %s\n", c->msg);
            return 1;
        }
    }
    imd_close(c, 0);
    free(c);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "port")) {
        int port, fd = listener(&port);
        close(fd);
        printf("%d\n", port);
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "serve") &&
        (!strcmp(argv[2], "live") || !strcmp(argv[2], "live3d") || !strcmp(argv[2], "drop") ||
         !strcmp(argv[2], "slow")))
        return serve_live(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 3);
    if (argc >= 4 && !strcmp(argv[1], "serve"))
        return serve(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 3, argc > 5 ? atoi(argv[5]) : 5);
    if (argc >= 3 && !strcmp(argv[1], "client"))
        return client(argv[2], argc - 3, argv + 3);
    fputs("usage: imdfake port | serve MODE PORTFILE [N [FRAMES]] | client HOST:PORT CMD...\n",
          stderr);
    return 2;
}
