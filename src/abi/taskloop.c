/* taskloop.c — GOMP_taskloop and GOMP_taskloop_ull: the iteration count in either type, then the construct. */
#include "abi/export.h"
#include "construct/taskloop.h"
#include "core/task.h"

ILAN_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step)
{
    struct taskloop tl = {fn,    data,     cpyfn,           arg_size,          arg_align,
                          flags, priority, (iter_ull)start, (iter_ull)step, {0, 0, 0, 0}};
    taskloop_run(&tl, iter_count_long(start, end, step), num_tasks);
}

/* For unsigned loops gcc passes the direction in TASK_FLAG_UP and, when
 * counting down, the step as the two's complement of the stride. */
ILAN_EXPORT void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                   long arg_size, long arg_align, unsigned flags,
                                   unsigned long num_tasks, int priority, unsigned long long start,
                                   unsigned long long end, unsigned long long step)
{
    struct taskloop tl = {fn, data, cpyfn, arg_size, arg_align, flags, priority, start, step,
                          {0, 0, 0, 0}};
    taskloop_run(&tl, iter_count_ull(flags & TASK_FLAG_UP, start, end, step), num_tasks);
}
