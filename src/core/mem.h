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
/// huge pages can cost more to hand out, see bigmem.h).
enum { MEM_ZERO = 1, MEM_FLAT = 2 };

/// An allocator of large blocks: alloc returns @p size bytes (a multiple
/// of 64) aligned to 64, or NULL, given @p how the block is used (MEM_FLAT
/// or not; an allocator may ignore it); release gives back a block of
/// alloc's with its size. Blocks of zeroed_from bytes and more come from
/// alloc already zeroed (fresh mappings: a MEM_ZERO block is then not
/// written, so that pages never written are never handed out); 0: none do.
struct mem_hooks {
    void *(*alloc)(size_t size, unsigned how);
    void (*release)(void *p, size_t size);
    size_t zeroed_from;
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

/// Gives back a block of mem_alloc's (NULL: nothing).
void mem_free(void *p);

#endif
