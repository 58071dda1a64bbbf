// env_taskloop_warn.c - an invalid ILAN_TASKLOOP (and ILAN_STEAL_POLICY) gets
// the one-line warning, the taskloop still runs every iteration once, and
// ILAN_REPORT=stderr writes its summary at exit without harm.
// ilan-test: threads=2
// ilan-test: env=ILAN_TASKLOOP=fastest;ILAN_STEAL_POLICY=greedy;ILAN_REPORT=stderr
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_TASKLOOP: 'fastest'
#include "check.h"

int main(void)
{
    static int hits[1000];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
    for (int i = 0; i < 1000; i++)
        hits[i]++;
    for (int i = 0; i < 1000; i++)
        CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
    return 0;
}
