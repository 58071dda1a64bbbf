// taskloop_handoff.c - a range taskloop whose creator waits offers its runners to single threads
// (core/handoff.h) instead of queuing them: what such a runner's tasks see must be what a queued
// runner's see: the creator's data-environment ICVs, the taskloop's taskgroup waiting for the
// tasks they create, every iteration once. (The scheduling constraint on such runners is
// task_tsc.c's: its tree has taskloops.)
// ilan-test: tsan modes=ilan,numa,ws vary=OMP_PROC_BIND=false,close
#include "check.h"

#define N 999
#define REPS 300

/* The tasks of many taskloops: each iteration once, the creator's
 * nthreads-var in every task, and the tasks made inside the loop's tasks
 * complete when the taskloop ends (its taskgroup covers them). */
static void icv_and_taskgroup(void)
{
    static int ran[N], nested[N];
    int wrong_icv = 0, wrong_count = 0, nested_missing = 0;
#pragma omp parallel
#pragma omp single
    {
        omp_set_num_threads(5); /* this task's nthreads-var: inherited by the loop's tasks */
        for (int r = 0; r < REPS; r++) {
            memset(ran, 0, sizeof ran);
            memset(nested, 0, sizeof nested);
#pragma omp taskloop num_tasks(2 * omp_get_num_threads()) shared(ran, nested, wrong_icv)
            for (int i = 0; i < N; i++) {
                if (omp_get_max_threads() != 5)
                    __atomic_add_fetch(&wrong_icv, 1, __ATOMIC_RELAXED);
                __atomic_add_fetch(&ran[i], 1, __ATOMIC_RELAXED);
                if (i % 7 == 0) {
#pragma omp task shared(nested) firstprivate(i)
                    __atomic_store_n(&nested[i], 1, __ATOMIC_RELEASE);
                }
            }
            for (int i = 0; i < N; i++) {
                wrong_count += ran[i] != 1;
                nested_missing += i % 7 == 0 && !__atomic_load_n(&nested[i], __ATOMIC_ACQUIRE);
            }
        }
    }
    CHECK_EQ_LL(wrong_icv, 0);
    CHECK_EQ_LL(wrong_count, 0);
    CHECK_EQ_LL(nested_missing, 0);
}

int main(void)
{
    icv_and_taskgroup();
    return 0;
}
