/* task_alloc.h — allocating and recycling task descriptors (with their argument blocks). */
#ifndef ILAN_CORE_TASK_ALLOC_H
#define ILAN_CORE_TASK_ALLOC_H

#include <stddef.h>
#include "core/task_desc.h"

/* A descriptor with room for an argument block of arg_size bytes aligned to
 * arg_align (inline when it fits its size class, else malloc'ed:
 * t->big_args); t->data points at the block. Only the descriptor's
 * allocation fields are set. Dies when out of memory. Any thread. */
struct task *task_alloc(size_t arg_size, size_t arg_align);

/* Gives t's memory back (to the calling thread's free list, a batch to
 * the shared pool when the list is long). Any thread. */
void task_release_block(struct task *t);

/* Hands every descriptor the calling thread keeps to the shared pool: for
 * its exit, so that another thread can use them. */
void task_alloc_thread_exit(void);

#endif
