// ilan_progress.c - ILAN's group rules never stop a program that runs on
// libgomp. Each thread in turn creates a taskloop inside a critical section
// while the others wait to enter it (not a task scheduling point), so the
// threads of the groups holding its strict tasks cannot run them: the
// creator must take them itself once it sees no progress (ILAN_STALL_NS).
// Also a nogroup taskloop completed by taskwait (its last task records the
// execution) and a taskloop inside a task waiting for it (nested waits).
// Every iteration runs exactly once.
// ilan-test: threads=2,3,8 modes=ilan,numa,ws
#include "check.h"

#define N 4000

static int hits[N];

static void check_once(const char *what, int times)
{
    for (int i = 0; i < N; i++) {
        CHECK(hits[i] == times, "%s: iteration %d ran %d times, expected %d", what, i, hits[i],
              times);
    }
}

int main(void)
{
    int nthreads = 0;
#pragma omp parallel
    {
#pragma omp single
        nthreads = omp_get_num_threads();
#pragma omp critical
        {
#pragma omp taskloop num_tasks(16)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
    }
    check_once("taskloop in critical", nthreads);

    memset(hits, 0, sizeof hits);
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 8; rep++) {
#pragma omp taskloop nogroup
        for (int i = 0; i < N; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
    }
    check_once("nogroup taskloops", 8);

    memset(hits, 0, sizeof hits);
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 4; rep++) {
#pragma omp task
        {
#pragma omp taskloop grainsize(100)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
#pragma omp taskwait
    }
    check_once("taskloops in tasks", 4);
    return 0;
}
