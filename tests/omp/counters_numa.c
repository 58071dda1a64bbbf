// counters_numa.c - the group counters on a what-if machine of 4 nodes x 2
// cores, ILAN_TASKLOOP=numa with the strict steal policy: every taskloop
// task is taken from its own group's queue, none from another group's
// (strict or shared), and the count is the tasks made.
// ilan-test: threads=8 tsan env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close;ILAN_TASKLOOP=numa;ILAN_STEAL_POLICY=strict;ILAN_COUNTERS=runtime
#include "check.h"

#define N 64000
#define TASKS 64
#define REPS 10

static long long (*counter)(const char *name, int thread);

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    static double out[N];
    for (int rep = 0; rep < REPS; rep++) {
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(TASKS)
        for (long i = 0; i < N; i++)
            out[i] = i * 0.5;
    }
    CHECK(out[N - 1] == (N - 1) * 0.5, "the loop did not run");
    CHECK_EQ_LL(counter("taskloop_tasks", -1), TASKS * REPS);
    CHECK_EQ_LL(counter("taskloops_numa", -1), REPS);
    CHECK_EQ_LL(counter("group_own", -1), TASKS * REPS);
    CHECK_EQ_LL(counter("group_other", -1), 0);
    CHECK_EQ_LL(counter("group_strict_other", -1), 0);
    return 0;
}
