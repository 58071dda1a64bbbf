/* taskloop_task.h — running one task of a taskloop without a copy function: the encounter's bytes copied into a block, the task's bounds written over its first two words, then run as an included task. */
#ifndef ILAN_CORE_TASKLOOP_TASK_H
#define ILAN_CORE_TASKLOOP_TASK_H

#include <string.h>
#include "core/task_included.h"
#include "sched/taskloop_split.h"

/* memcpy of a task's argument block, with the common small sizes as
 * inline moves: a call per task shows when tasks take 10 ns. */
static inline void taskloop_task_copy(void *dst, const void *src, size_t size)
{
    switch (size) {
    case 16: memcpy(dst, src, 16); break;
    case 24: memcpy(dst, src, 24); break;
    case 32: memcpy(dst, src, 32); break;
    case 40: memcpy(dst, src, 40); break;
    case 48: memcpy(dst, src, 48); break;
    case 56: memcpy(dst, src, 56); break;
    case 64: memcpy(dst, src, 64); break;
    default: memcpy(dst, src, size); break;
    }
}

/*
 * Runs task i of a taskloop split by `split` (loop start and step in the
 * bits taskloop_task_bounds takes) on thread ts, as an included task of
 * its current task: `block` (at least 16 bytes, aligned for the body) gets
 * `size` bytes of `data`, the encounter's argument block, then the task's
 * bounds. Only for bodies without a copy function: their block is bytes
 * that no task changes (each runs on its own copy), so copying it when the
 * task starts gives the task what a copy at the encounter would.
 * The current task is read at every call: a task that queues children
 * moves its parent's descriptor off the stack (task_promote).
 */
static inline __attribute__((always_inline)) void
taskloop_task_run(struct ilan_thread *ts, void (*fn)(void *), const void *data, size_t size,
                  unsigned flags, const struct taskloop_split *split, iter_ull start,
                  iter_ull step, iter_ull i, void *block)
{
    taskloop_task_copy(block, data, size);
    iter_ull *bounds = block;
    taskloop_task_bounds(split, start, step, i, &bounds[0], &bounds[1]);
    task_run_included(ts, task_of(ts), fn, block, flags, false, 0);
}

#endif
