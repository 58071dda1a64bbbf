// env_dlb_bad.c - an unknown ILAN_DLB strategy gets the one-line warning
// naming the variable, and tasks still run exactly once (the default, ws).
// ilan-test: threads=2
// ilan-test: env=ILAN_DLB=fastest
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_DLB: 'fastest'. using the default$
#include "check.h"

int main(void)
{
    static int hits[10000];
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 10000; i++) {
#pragma omp task firstprivate(i)
        hits[i]++;
    }
    for (int i = 0; i < 10000; i++)
        CHECK(hits[i] == 1, "task %d ran %d times", i, hits[i]);
    return 0;
}
