/* task_reduction.c — the task-reduction entry points: taskgroup registration, in_reduction remapping, worksharing and parallel task reductions, scope. */
#include <stdint.h>

#include "abi/export.h"
#include "construct/task_reduction.h"

ILAN_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t *data)
{
    treduce_taskgroup_register(data);
}

ILAN_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t *data)
{
    treduce_taskgroup_unregister(data);
}

ILAN_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    treduce_remap(cnt, cntorig, ptrs);
}

ILAN_EXPORT void GOMP_workshare_task_reduction_unregister(_Bool cancelled)
{
    treduce_ws_end(cancelled);
}

ILAN_EXPORT void GOMP_scope_start(uintptr_t *reductions)
{
    treduce_scope_start(reductions);
}

ILAN_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data,
                                              unsigned num_threads, unsigned flags)
{
    return treduce_parallel(fn, data, num_threads, flags & 7u /* proc_bind */);
}
