/* barrier.c — the GOMP barrier entry points (explicit and implicit barriers). */
#include "abi/export.h"
#include "core/barrier_wait.h"
#include "core/team.h"

ILAN_EXPORT void GOMP_barrier(void)
{
    barrier_wait_team(thread_self());
}

/* Returns true when the enclosing parallel region has been cancelled. */
ILAN_EXPORT _Bool GOMP_barrier_cancel(void)
{
    struct team *t = thread_self()->team;
    if (!t)
        return false;
    if (t->nthreads == 1 && !atomic_load_explicit(&t->barrier.task_pending, memory_order_relaxed))
        return atomic_load_explicit(&t->barrier.cancelled, memory_order_relaxed);
    return barrier_wait_cancellable(&t->barrier);
}
