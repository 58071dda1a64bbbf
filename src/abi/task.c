/* task.c — the task construct and its synchronization: GOMP_task, taskwait, taskyield, taskgroup, detach events, omp_in_final. */
#include <stddef.h>
#include <stdint.h>
#include "abi/export.h"
#include "core/fatal.h"
#include "core/task.h"

ILAN_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, _Bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    task_spawn(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
}

ILAN_EXPORT void GOMP_taskwait(void)
{
    task_wait_children();
}

ILAN_EXPORT void GOMP_taskwait_depend(void **depend)
{
    task_wait_depend(depend);
}

ILAN_EXPORT void GOMP_taskyield(void)
{
    task_yield();
}

ILAN_EXPORT void GOMP_taskgroup_start(void)
{
    task_taskgroup_new();
}

ILAN_EXPORT void GOMP_taskgroup_end(void)
{
    struct taskgroup *g = task_taskgroup_end();
    if (g)
        task_taskgroup_free(g);
}

ILAN_EXPORT int omp_in_final(void)
{
    return task_in_final();
}

ILAN_EXPORT int32_t omp_in_final_(void)
{
    return task_in_final();
}

/* The event handle is the detachable task itself (GOMP_task stores it). */
ILAN_EXPORT void omp_fulfill_event(uintptr_t event)
{
    if (!event)
        ilan_fatal("omp_fulfill_event: invalid event handle");
    task_fulfill((struct task *)event);
}

ILAN_EXPORT void omp_fulfill_event_(uintptr_t *event)
{
    omp_fulfill_event(*event);
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
