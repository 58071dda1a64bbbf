/* task_reduction.h — task reductions on taskgroups, worksharing constructs and parallel regions. */
#ifndef ILAN_CONSTRUCT_TASK_REDUCTION_H
#define ILAN_CONSTRUCT_TASK_REDUCTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A worksharing construct with task reductions (`for reduction(task, ...)`,
 * sections, scope) is one taskgroup per thread, begun before the construct's
 * slot is entered. The thread that initializes the slot registers its
 * reduction data first (allocating the private copies of the whole team)
 * and leaves it in the slot; every other thread registers its own data
 * against that first one (sharing the copies). The end is
 * GOMP_workshare_task_reduction_unregister, called by gcc's code.
 */

/* Begins the calling thread's taskgroup of a worksharing construct with
 * task reductions. Call before entering the construct's slot. */
void treduce_ws_begin(void);

/* Registers the calling thread's reduction data `data` of the construct:
 * `first` is NULL for the thread that initializes the slot (then the
 * returned pointer is what to leave in the slot), else the pointer the
 * initializer left there. nthreads: the team size (1 outside a region). */
uintptr_t *treduce_ws_register(uintptr_t *data, uintptr_t *first, unsigned nthreads);

/* GOMP_taskgroup_reduction_register: registers gcc's reduction data on the
 * current taskgroup (private copies for the whole team). */
void treduce_taskgroup_register(uintptr_t *data);

/* GOMP_taskgroup_reduction_unregister: frees what registering `data` made. */
void treduce_taskgroup_unregister(uintptr_t *data);

/* GOMP_task_reduction_remap: for i < cnt, ptrs[i] (an original list item or
 * some thread's copy) becomes the calling thread's copy; for i < cntorig
 * the original's address goes to ptrs[cnt + i]. */
void treduce_remap(size_t cnt, size_t cntorig, void **ptrs);

/* GOMP_workshare_task_reduction_unregister: ends the calling thread's
 * taskgroup of a worksharing construct with task reductions, frees what
 * it owns, then the construct's closing barrier unless cancelled. */
void treduce_ws_end(bool cancelled);

/* GOMP_scope_start with task reductions. */
void treduce_scope_start(uintptr_t *reductions);

/* GOMP_parallel_reductions: a parallel region whose implicit tasks share
 * task reductions; returns the team size. */
unsigned treduce_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                          unsigned proc_bind);

#endif
