// locks_tasks.c - nestable locks are owned by tasks, not threads: a task
// that runs on the owner's thread cannot re-enter another task's nest lock,
// while the owning task can, and nesting counts stay per owner.
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

int main(void)
{
    omp_nest_lock_t lock;
    omp_init_nest_lock(&lock);
    int other_task = -1, same_task = -1;
#pragma omp parallel
#pragma omp single
    {
        omp_set_nest_lock(&lock);
        /* an undeferred task runs on this thread while we hold the lock */
#pragma omp task shared(other_task, lock) if (0)
        other_task = omp_test_nest_lock(&lock);
        same_task = omp_test_nest_lock(&lock); /* depth 2 */
        omp_unset_nest_lock(&lock);
        omp_unset_nest_lock(&lock);
    }
    CHECK(other_task == 0, "another task re-entered the nest lock (returned %d)", other_task);
    CHECK(same_task == 2, "the owning task got depth %d, want 2", same_task);
    /* once released, any task may take it */
    int later = -1;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(later, lock)
    {
        later = omp_test_nest_lock(&lock);
        if (later)
            omp_unset_nest_lock(&lock);
    }
    CHECK(later == 1, "a released nest lock could not be taken (returned %d)", later);
    omp_destroy_nest_lock(&lock);
    return 0;
}
