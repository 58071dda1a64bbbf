// env_explore_warn.c - invalid ILAN_EXPLORE_MIN_US and ILAN_HISTORY_MAX values
// get the one-line warning naming the variable and the default used, and the
// taskloop still runs every iteration once (the defaults are used).
// ilan-test: threads=2
// ilan-test: env=ILAN_EXPLORE_MIN_US=soon;ILAN_HISTORY_MAX=0
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_HISTORY_MAX: '0' .identities, 1 to 16777216. default 4096.. using the default
#include "check.h"

int main(void)
{
    static int hits[1000];
    for (int run = 0; run < 10; run++) {
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
        for (int i = 0; i < 1000; i++)
            hits[i]++;
    }
    for (int i = 0; i < 1000; i++)
        CHECK(hits[i] == 10, "iteration %d ran %d times", i, hits[i]);
    return 0;
}
