/**
 * @file bigmem.h
 * @brief Large arrays on huge pages where the system has them: the front
 * end's allocator for mem.h (POSIX mmap, and Linux's madvise hint).
 */
#ifndef SPRINGBALL_BIGMEM_H
#define SPRINGBALL_BIGMEM_H

/// Makes mem_alloc map blocks of 4 MiB and more on their own, aligned to 2
/// MiB and marked for transparent huge pages (Linux's MADV_HUGEPAGE) but
/// for MEM_FLAT blocks, and smaller ones from malloc. On a system whose
/// huge pages are only for memory that asks (the "madvise" setting), a
/// first touch then costs one fault per 2 MiB instead of one per 4 KiB,
/// and memory read at random misses the address cache (TLB) far less. But
/// on a virtual machine whose host takes back the guest's free huge blocks
/// a fresh huge page costs the host's faults over all of it, where a small
/// page often comes from the guest's own leftovers: so memory read in
/// order keeps small pages (see tests/bench/README.md), and a MEM_LATE
/// block starts on small pages and moves to huge ones when its owner says
/// (mem_settle): a helper thread maps and hands out the huge pages beside
/// the owner's work, and the owner's poll copies the block there and swaps
/// the pages under the same addresses (Linux's MADV_POPULATE_WRITE and
/// mremap; elsewhere the block stays on small pages). Nothing under
/// AddressSanitizer, which would not see inside mapped blocks.
/// @return 1 when installed, 0 when not (AddressSanitizer).
int bigmem_install(void);

#endif
