/* task.c — tasking entry points. The tasking engine is a later piece of work;
 * until it exists every entry point that would create or depend on a task
 * stops the program, naming the construct. */
#include <stddef.h>
#include <stdint.h>
#include "abi/export.h"
#include "core/fatal.h"

ILAN_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, _Bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    (void)fn, (void)data, (void)cpyfn, (void)arg_size, (void)arg_align, (void)if_clause;
    (void)flags, (void)depend, (void)priority, (void)detach;
    ilan_unsupported("the task construct (GOMP_task)");
}

/* With no way to create a task, the following are exactly right as they
 * are: there is never a child task to wait for or to yield to. */
ILAN_EXPORT void GOMP_taskwait(void) {}
ILAN_EXPORT void GOMP_taskyield(void) {}
ILAN_EXPORT void GOMP_taskgroup_start(void) {}
ILAN_EXPORT void GOMP_taskgroup_end(void) {}

ILAN_EXPORT void GOMP_taskwait_depend(void **depend)
{
    (void)depend;
    ilan_unsupported("taskwait with depend (GOMP_taskwait_depend)");
}

ILAN_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step)
{
    (void)fn, (void)data, (void)cpyfn, (void)arg_size, (void)arg_align, (void)flags;
    (void)num_tasks, (void)priority, (void)start, (void)end, (void)step;
    ilan_unsupported("the taskloop construct (GOMP_taskloop)");
}

ILAN_EXPORT void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                   long arg_size, long arg_align, unsigned flags,
                                   unsigned long num_tasks, int priority, unsigned long long start,
                                   unsigned long long end, unsigned long long step)
{
    (void)fn, (void)data, (void)cpyfn, (void)arg_size, (void)arg_align, (void)flags;
    (void)num_tasks, (void)priority, (void)start, (void)end, (void)step;
    ilan_unsupported("the taskloop construct (GOMP_taskloop_ull)");
}

ILAN_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t *data)
{
    (void)data;
    ilan_unsupported("taskgroup task_reduction (GOMP_taskgroup_reduction_register)");
}

ILAN_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t *data)
{
    (void)data;
    ilan_unsupported("taskgroup task_reduction (GOMP_taskgroup_reduction_unregister)");
}

ILAN_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    (void)cnt, (void)cntorig, (void)ptrs;
    ilan_unsupported("in_reduction (GOMP_task_reduction_remap)");
}

ILAN_EXPORT void GOMP_workshare_task_reduction_unregister(_Bool cancelled)
{
    (void)cancelled;
    ilan_unsupported("worksharing task reductions (GOMP_workshare_task_reduction_unregister)");
}

ILAN_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                              unsigned num_threads, unsigned flags)
{
    (void)fn, (void)data, (void)num_threads, (void)flags;
    ilan_unsupported("parallel with task reductions (GOMP_parallel_reductions)");
}

ILAN_EXPORT void GOMP_scope_start(uintptr_t *reductions)
{
    (void)reductions;
    ilan_unsupported("scope with task reductions (GOMP_scope_start)");
}

ILAN_EXPORT void omp_fulfill_event(uintptr_t event)
{
    (void)event;
    ilan_unsupported("omp_fulfill_event (detachable tasks)");
}

ILAN_EXPORT void omp_fulfill_event_(uintptr_t *event)
{
    (void)event;
    ilan_unsupported("omp_fulfill_event (detachable tasks)");
}
