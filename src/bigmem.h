/**
 * @file bigmem.h
 * @brief Large arrays on huge pages where the system has them: the front
 * end's allocator for mem.h (POSIX mmap, and Linux's madvise hint).
 */
#ifndef SPRINGBALL_BIGMEM_H
#define SPRINGBALL_BIGMEM_H

/// Makes mem_alloc map blocks of 4 MiB and more on their own, aligned to 2
/// MiB and marked for transparent huge pages (Linux's MADV_HUGEPAGE), and
/// smaller ones from malloc. On a system whose huge pages are only for
/// memory that asks (the "madvise" setting), a first touch then costs one
/// fault per 2 MiB instead of one per 4 KiB. Nothing under AddressSanitizer,
/// which would not see inside mapped blocks.
/// @return 1 when installed, 0 when not (AddressSanitizer).
int bigmem_install(void);

#endif
