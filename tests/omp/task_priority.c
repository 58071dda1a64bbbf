// task_priority.c - tasks and taskloops with priority clauses under
// OMP_MAX_TASK_PRIORITY=10 (values above the maximum included) all run
// exactly once, with dependences too.  Priority is a hint: order is not checked.
// ilan-test: env=OMP_MAX_TASK_PRIORITY=10 tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

#define N 3000

static int hits[N];

int main(void)
{
    CHECK(omp_get_max_task_priority() == 10, "omp_get_max_task_priority() = %d, want 10",
          omp_get_max_task_priority());

    memset(hits, 0, sizeof hits);
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < N; i++) {
#pragma omp task priority(i % 15) firstprivate(i)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
        /* every thread creates prioritized tasks that create more */
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int i = me; i < N; i += nt) {
#pragma omp task priority(10 - i % 11) firstprivate(i)
            {
#pragma omp task priority(i % 3) firstprivate(i)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            }
        }
    }
    for (int i = 0; i < N; i++) CHECK(hits[i] == 2, "prioritized task %d ran %d times of 2", i, hits[i]);

    /* a chain through dependences with priorities: order fixed by deps */
    int x = 0, bad = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 200; i++) {
#pragma omp task depend(inout : x) priority(i % 11) shared(x, bad) firstprivate(i)
        {
            if (x != i)
                bad++;
            x++;
        }
#pragma omp task priority(10) shared(bad) /* unrelated high-priority work */
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0 && x == 200, "priority chain: %d out of order, x = %d", bad, x);

    /* taskloop priority */
    memset(hits, 0, sizeof hits);
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop priority(5) grainsize(10)
        for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop priority(100) num_tasks(7) nogroup
        for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
    }
    for (int i = 0; i < N; i++) CHECK(hits[i] == 2, "taskloop priority: %d ran %d times of 2", i, hits[i]);
    return 0;
}
