/* task.c — the task construct and its synchronization: GOMP_task, taskwait, taskyield, taskgroup, detach events, omp_in_final. */
#include <stddef.h>
#include <stdint.h>
#include "abi/export.h"
#include "base/fatal.h"
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
