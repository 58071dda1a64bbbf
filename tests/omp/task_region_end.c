// task_region_end.c - threads that reached the end of a parallel region keep
// running the team's tasks: tasks created after they arrived are shared.
// Thread 0 waits until every other thread has finished its part of the
// region, then creates task B and, last, task A, which spins until B has
// started. Thread 0 runs its newest task (A) first, so B can only run on a
// thread that is already at the region's end barrier; if those threads had
// left, A would spin forever (the ctest timeout then fails the test).
// ilan-test: threads=2,3,8 modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp vary=ILAN_BARRIER=tree,central
// ilan-test: tsan modes=ilan,numa,ws
#include <sched.h>
#include "check.h"

int main(void)
{
    for (int round = 0; round < 20; round++) {
        int finished = 0, b_started = 0;
        int n = 0;
#pragma omp parallel shared(finished, b_started, n)
        {
            if (omp_get_thread_num() == 0) {
                n = omp_get_num_threads();
                while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) != n - 1)
                    sched_yield();
#pragma omp task shared(b_started)
                __atomic_store_n(&b_started, 1, __ATOMIC_RELEASE);
#pragma omp task shared(b_started)
                while (!__atomic_load_n(&b_started, __ATOMIC_ACQUIRE))
                    sched_yield();
            } else {
                __atomic_add_fetch(&finished, 1, __ATOMIC_ACQ_REL);
            }
        }
        CHECK(b_started && n == omp_get_max_threads(), "round %d: B %d, team %d", round, b_started,
              n);
    }
    return 0;
}
