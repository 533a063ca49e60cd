/**
 * @file mem.h
 * @brief The engines' large arrays, through an allocator the program may
 * choose (the core cannot ask the system for huge pages; the front end
 * can, see bigmem.h). malloc's by default.
 */
#ifndef SPRINGBALL_MEM_H
#define SPRINGBALL_MEM_H

#include <stddef.h>

/// What a block is for (mem_alloc_as), or-ed: MEM_ZERO, all zero bytes;
/// MEM_FLAT, memory read and written in order, or rarely, where huge
/// pages buy nothing (an allocator may then give it small pages: fresh
/// huge pages can cost more to hand out, see bigmem.h); MEM_LATE, memory
/// written all over at once, then read at random for long: an allocator
/// may give it small pages, quick to hand out, and move it to huge pages
/// later (mem_settle).
enum { MEM_ZERO = 1, MEM_FLAT = 2, MEM_LATE = 4 };

/// An allocator of large blocks: alloc returns @p size bytes (a multiple
/// of 64) aligned to 64, or NULL, given @p how the block is used (MEM_FLAT
/// or not; an allocator may ignore it); release gives back a block of
/// alloc's with its size. Blocks of zeroed_from bytes and more come from
/// alloc already zeroed (fresh mappings: a MEM_ZERO block is then not
/// written, so that pages never written are never handed out); 0: none do.
/// settle and settle_poll (both or neither may be NULL): mem_settle's and
/// mem_settle_poll's, given the block of alloc's that holds @p p.
struct mem_hooks {
    void *(*alloc)(size_t size, unsigned how);
    void (*release)(void *p, size_t size);
    size_t zeroed_from;
    void (*settle)(void *p, size_t size);
    int (*settle_poll)(void *p);
};

/// The allocator of every later mem_alloc; NULL: malloc's again. Blocks
/// taken before must still be given back through the allocator that gave
/// them: set it once, before any engine is built.
void mem_set_hooks(const struct mem_hooks *h);

/// @p size bytes aligned to 64 for a cache line's record, or NULL (also
/// for size 0 or a size that overflows). Free with mem_free.
void *mem_alloc(size_t size);

/// As mem_alloc, for a use @p how (MEM_ZERO, MEM_FLAT or-ed): a MEM_ZERO
/// block all zero bytes, written only where the allocator does not give
/// it zeroed (see struct mem_hooks).
void *mem_alloc_as(size_t size, unsigned how);

/// A block of @p size bytes holding what @p p held (up to the smaller
/// size), as realloc: NULL when memory is short, @p p then left as it is;
/// p NULL: mem_alloc(size).
void *mem_realloc(void *p, size_t size);

/// The MEM_LATE block @p p (its first @p size bytes) will be read at
/// random for long: the allocator may make ready huge pages for it in the
/// background (another thread hands them out meanwhile), for
/// mem_settle_poll to move it onto. Nothing with malloc's allocator.
void mem_settle(void *p, size_t size);

/// Moves the block @p p of mem_settle onto its huge pages if they are
/// ready, its bytes unchanged (a copy, then the pages swapped under the
/// same addresses): call it where no other thread uses the block. Returns
/// 1 when it moved, 0 when the pages are not ready yet (call again
/// later), -1 when nothing is pending for the block (moved, given up,
/// never asked).
int mem_settle_poll(void *p);

/// Gives back a block of mem_alloc's (NULL: nothing).
void mem_free(void *p);

#endif
