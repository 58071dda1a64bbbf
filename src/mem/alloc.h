/* alloc.h — memory mapped and placed by a plan: ilan_alloc_bloc, ilan_alloc_bloc_cyclic and the OpenMP allocators' partition trait. */
#ifndef ILAN_MEM_ALLOC_H
#define ILAN_MEM_ALLOC_H

#include <stddef.h>
#include "sched/mem_plan.h"

/* The layouts an allocation can have. */
enum mem_layout {
    MEM_LAYOUT_BLOC,    /* bloc over the domains */
    MEM_LAYOUT_CYCLIC,  /* blocks of `bloc` bytes round-robin over the domains (a page: interleaved) */
    MEM_LAYOUT_NEAREST, /* every page on the calling thread's node */
};

/*
 * size bytes (rounded up to whole pages) of fresh zeroed memory, page
 * aligned, laid out as `layout` says over d (bloc: block size for CYCLIC):
 * applied through the OS (simulated: recorded) and recorded, so that
 * mem_free and page queries know it. NULL with *err set on failure
 * (EINVAL: size or bloc 0, or a bad domain list; ENOMEM; mbind's error,
 * the mapping then released).
 */
void *mem_alloc(size_t size, enum mem_layout layout, size_t bloc, const struct mem_domains *d,
                int *err);

/* Releases what mem_alloc returned, given the same size. Returns 0, or
 * EINVAL when [p, p + size) is not such an allocation (nothing freed). */
int mem_free(void *p, size_t size);

#endif
