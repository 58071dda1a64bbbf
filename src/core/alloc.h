/* alloc.h — OpenMP allocators: creating them, allocating and freeing blocks. */
#ifndef ILAN_CORE_ALLOC_H
#define ILAN_CORE_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include "base/omp_types.h"

/* omp_init_allocator: a user allocator over `memspace` with the given
 * traits; omp_null_allocator when a trait is invalid or the memory space
 * cannot be had (high-bandwidth memory: none, as libgomp 12). */
omp_allocator_handle_t alloc_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                            const omp_alloctrait_t traits[]);

/* omp_destroy_allocator (predefined allocators are ignored). */
void alloc_destroy_allocator(omp_allocator_handle_t allocator);

/* A block of `size` bytes aligned to `alignment` (a power of two) from
 * `allocator` (omp_null_allocator: the calling task's default), following
 * its fallback trait on failure; NULL when none is left or size is 0. */
void *alloc_aligned(size_t alignment, size_t size, uintptr_t allocator);

/* Gives a block back to the allocator that made it (NULL: nothing). */
void alloc_free(void *ptr);

/* omp_realloc: a block of `size` bytes from `allocator` (omp_null_allocator:
 * the old block's) holding the old contents; within one pool the old
 * block's bytes count as free for the new one. NULL on failure, the old
 * block then intact; size 0 frees it. */
void *alloc_realloc(void *ptr, size_t size, uintptr_t allocator);

#endif
