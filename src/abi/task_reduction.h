/* task_reduction.h — task reductions on taskgroups, worksharing constructs and parallel regions (internal, see task_reduction.c). */
#ifndef ILAN_ABI_TASK_REDUCTION_H
#define ILAN_ABI_TASK_REDUCTION_H

#include <stdbool.h>
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

#endif
