/*
 * test_imd.c - the IMD wire format (imd.h): headers, the handshake in both
 * byte orders, frames fed in pieces of any size, and what a hostile server
 * may send: a frame claiming 2^31 atoms refused before any allocation, the
 * buffer never more than twice what has come nor more than one frame (a
 * skipped ENERGIES body is not kept), NaN, other types.
 */
#include "test.h"

#include "imd.h"

#include <stdlib.h>
#include <string.h>

/* A stream: the handshake (swapped or not) and @p frames frames of @p n
 * atoms (atom i of frame k at (k, i, -i)), in a buffer of *len bytes. */
static unsigned char *stream(int swapped, size_t n, int frames, size_t *len)
{
    size_t size = 8 + (size_t)frames * (8 + 12 * n);
    unsigned char *b = malloc(size), *p = b;
    imd_handshake_put(p, swapped);
    p += 8;
    for (int k = 1; k <= frames; k++) {
        imd_header_put(p, IMD_FCOORDS, (int32_t)n);
        p += 8;
        for (size_t i = 0; i < 3 * n; i++) {
            float v = i % 3 == 0 ? (float)k : i % 3 == 1 ? (float)(i / 3) : -(float)(i / 3);
            unsigned char q[4];
            memcpy(q, &v, 4);
            for (int j = 0; j < 4; j++)
                p[j] = swapped ? q[3 - j] : q[j];
            p += 4;
        }
    }
    *len = size;
    return b;
}

/* Feeds @p b in pieces of @p piece bytes; returns frames read, -1 on error. */
static int feed_all(struct imd_reader *r, const unsigned char *b, size_t len, size_t piece,
                    int *good)
{
    int frames = 0;
    *good = 1;
    size_t at = 0;
    while (at < len) {
        size_t k = len - at < piece ? len - at : piece, used;
        int ev = imd_reader_feed(r, b + at, k, &used);
        if (ev == IMD_ERR)
            return -1;
        at += used;
        if (ev == IMD_FRAME) {
            frames++;
            for (size_t i = 0; i < r->natoms; i++)
                if (r->xyz[3 * i] != (float)frames || r->xyz[3 * i + 1] != (float)i ||
                    r->xyz[3 * i + 2] != -(float)i)
                    *good = 0;
        }
    }
    return frames;
}

/* fuzz_imd's crash (make fuzz, pieces of 59 bytes): the handshake, a frame
 * of 2 atoms (24 bytes), ENERGIES (40), a frame, ENERGIES, part of a third
 * frame. The skipped ENERGIES body was kept: the buffer grew to 40 bytes,
 * past the one frame the reader promises at most. */
static void energies_not_kept(void)
{
    static const unsigned char in[] = {
        0x00, 0x00, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f,
        0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f,
        0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40,
        0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40,
        0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40,
        0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40,
    };
    struct imd_reader r;
    imd_reader_init(&r, 0);
    size_t at = 0, most = 0;
    int frames = 0, err = 0;
    while (at < sizeof in) {
        size_t k = sizeof in - at < 59 ? sizeof in - at : 59, used;
        int ev = imd_reader_feed(&r, in + at, k, &used);
        at += used;
        err |= ev == IMD_ERR;
        frames += ev == IMD_FRAME;
        if (r.cap > most)
            most = r.cap;
    }
    CHECK(!err && frames == 2 && r.natoms == 2);
    CHECK(most <= 24);
    char where[128];
    imd_reader_where(&r, where, sizeof where);
    CHECK(strcmp(where, "in the middle of frame 3 (23 of 24 bytes)") == 0);
    imd_reader_free(&r);
}

void test_imd(void)
{
    energies_not_kept();
    unsigned char h[8];
    int32_t t, l;
    imd_header_put(h, IMD_TRATE, 10);
    CHECK(h[0] == 0 && h[3] == 8 && h[4] == 0 && h[7] == 10); /* network order */
    imd_header_get(h, &t, &l);
    CHECK(t == IMD_TRATE && l == 10);

    /* both byte orders, in pieces of 1, 7, 8 and all bytes */
    size_t pieces[] = {1, 7, 8, 1000};
    for (int sw = 0; sw < 2; sw++)
        for (size_t p = 0; p < 4; p++) {
            size_t len;
            unsigned char *b = stream(sw, 5, 3, &len);
            struct imd_reader r;
            imd_reader_init(&r, 0);
            int good;
            CHECK(feed_all(&r, b, len, pieces[p], &good) == 3);
            CHECK(good);
            CHECK(r.swap == sw && r.natoms == 5 && r.frames == 3);
            imd_reader_free(&r);
            free(b);
        }

    /* a header claiming 2^31 atoms, and 2^31 - 1: refused, nothing allocated */
    long claims[] = {(long)0x80000000u, 2147483647L, 0};
    for (int c = 0; c < 3; c++) {
        struct imd_reader r;
        imd_reader_init(&r, 0);
        imd_handshake_put(h, 0);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_MORE);
        imd_header_put(h, IMD_FCOORDS, (int32_t)(uint32_t)claims[c]);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_ERR);
        CHECK(r.body == NULL && r.cap == 0);
        CHECK(strstr(r.msg, c < 2 ? "more than the 100000000" : "no atoms") != NULL);
        imd_reader_free(&r);
    }

    /* 10^8 atoms claimed, 1000 bytes sent: the buffer is 64 KiB, not 1.2 GB */
    {
        struct imd_reader r;
        imd_reader_init(&r, 0);
        imd_handshake_put(h, 0);
        imd_reader_feed(&r, h, 8, NULL);
        imd_header_put(h, IMD_FCOORDS, IMD_MAX_ATOMS);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_MORE);
        unsigned char junk[1000] = {0};
        CHECK(imd_reader_feed(&r, junk, sizeof junk, NULL) == IMD_MORE);
        CHECK(r.cap <= (1u << 16));
        char where[128];
        imd_reader_where(&r, where, sizeof where);
        CHECK(strcmp(where, "in the middle of frame 1 (1000 of 1200000000 bytes)") == 0);
        imd_reader_free(&r);
    }

    /* a NaN; a wrong first message; a version 3; a client's message type;
     * frames of two sizes; the scene's size */
    {
        size_t len;
        unsigned char *b = stream(0, 2, 2, &len);
        float nan = strtof("nan", NULL);
        memcpy(b + 8 + 8 + 24 + 8 + 4, &nan, 4); /* frame 2, atom 1's y */
        struct imd_reader r;
        imd_reader_init(&r, 0);
        int good;
        CHECK(feed_all(&r, b, len, 1000, &good) == -1);
        CHECK(strcmp(r.msg, "frame 2: atom 1's y is not a number") == 0);
        imd_reader_free(&r);
        imd_reader_init(&r, 3);
        CHECK(feed_all(&r, b, len, 1000, &good) == -1);
        CHECK(strcmp(r.msg, "frame 1 has 2 atoms, not 3 as the scene's balls") == 0);
        imd_reader_free(&r);
        free(b);
    }
    {
        struct imd_reader r;
        imd_reader_init(&r, 0);
        imd_header_put(h, IMD_GO, 0);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_ERR);
        imd_reader_init(&r, 0);
        imd_header_put(h, IMD_HANDSHAKE, 0);
        h[7] = 3;
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_ERR);
        CHECK(strstr(r.msg, "not 2") != NULL);
        imd_reader_init(&r, 0);
        imd_handshake_put(h, 1);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_MORE && r.swap == 1);
        imd_header_put(h, IMD_MDCOMM, 1);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_ERR);
        CHECK(strstr(r.msg, "which only a client sends") != NULL);
        imd_reader_init(&r, 0);
        imd_handshake_put(h, 0);
        imd_reader_feed(&r, h, 8, NULL);
        imd_header_put(h, 99, 1);
        CHECK(imd_reader_feed(&r, h, 8, NULL) == IMD_ERR);
        CHECK(strstr(r.msg, "not an IMD message") != NULL);
    }

    /* MDCOMM: header, indices, forces */
    {
        int32_t idx[2] = {3, 7};
        float f[6] = {1, 2, 3, 4, 5, 6};
        unsigned char m[64];
        CHECK(imd_mdcomm_size(2) == 8 + 8 + 24);
        imd_mdcomm_put(m, 2, idx, f);
        imd_header_get(m, &t, &l);
        CHECK(t == IMD_MDCOMM && l == 2);
        CHECK(memcmp(m + 8, idx, 8) == 0 && memcmp(m + 16, f, 24) == 0);
    }

    /* HOST:PORT */
    char host[64], port[16], msg[128];
    CHECK(imd_split("example.org:5678", host, sizeof host, port, sizeof port, msg, sizeof msg) == 0);
    CHECK(strcmp(host, "example.org") == 0 && strcmp(port, "5678") == 0);
    CHECK(imd_split("[::1]:80", host, sizeof host, port, sizeof port, msg, sizeof msg) == 0);
    CHECK(strcmp(host, "::1") == 0 && strcmp(port, "80") == 0);
    CHECK(imd_split("host", host, sizeof host, port, sizeof port, msg, sizeof msg) == -1);
    CHECK(imd_split("host:0", host, sizeof host, port, sizeof port, msg, sizeof msg) == -1);
    CHECK(imd_split("host:65536", host, sizeof host, port, sizeof port, msg, sizeof msg) == -1);
    CHECK(imd_split(":5", host, sizeof host, port, sizeof port, msg, sizeof msg) == -1);
    CHECK(imd_split("h:+5", host, sizeof host, port, sizeof port, msg, sizeof msg) == -1);
}
