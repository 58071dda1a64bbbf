/* next_touch.h — migrate on next touch in user space: protected ranges whose first toucher (page or block) pulls them to its node through a SIGSEGV handler. */
#ifndef ILAN_MEM_NEXT_TOUCH_H
#define ILAN_MEM_NEXT_TOUCH_H

#include <stddef.h>
#include <stdint.h>
#include "mem/record.h"

/* Ranges armed at once at most (ENOSPC past it). */
#define NT_MAX_RANGES 256

/* What next-touch did so far (for the report and ilan_mem_count). */
struct nt_stats {
    unsigned long ranges;      /* ranges armed */
    unsigned long faults;      /* blocks moved: one protection fault each, taken by the first toucher */
    unsigned long waits;       /* faults of threads that found the block being moved and waited */
    unsigned long pages_moved; /* pages those blocks held */
    unsigned long foreign;     /* SIGSEGVs that were not ours, passed on to the program's handler */
};

/*
 * Arms [addr, addr + size), rounded out to pages: the pages are protected
 * (no access); the first thread that touches a block of `block_pages`
 * pages (the last block may be shorter) moves it to that thread's node
 * (simulated: records the move), lifts the protection and goes on; other
 * threads touching the same block meanwhile wait for it. The handler is
 * installed at the first call; SIGSEGVs outside armed ranges go to the
 * handler the program had before (or kill the process as without ilan).
 * Returns 0 or an errno value: EINVAL (bad range), EBUSY (overlaps a range
 * still armed), ENOSPC (NT_MAX_RANGES armed), ENOMEM, or mprotect's.
 */
int nt_arm(void *addr, size_t size, size_t block_pages);

/* Forgets the armed ranges overlapping page-aligned [first, first + len)
 * (memory about to be unmapped): their untouched blocks stay protected
 * until the unmapping. */
void nt_forget(uintptr_t first, size_t len);

/* Where next-touch moved the page at `addr` on a simulated machine (the
 * newest move covering it), node -1 when it did not. */
struct mem_rec_hit nt_lookup(uintptr_t addr);

/* A copy of the counts so far. */
void nt_stats(struct nt_stats *out);

#endif
