// team_large.c - teams of 1,000 and 5,000 threads on this machine's few
// CPUs form, reduce, run a taskloop inside single and a barrier, and end:
// every thread takes part once, every iteration runs once, twice over (the
// second region reuses the hot team).
// ilan-test: threads=default
#include "check.h"

#define ITERS 10000

static void big_team(int n)
{
    static unsigned char hits[ITERS];
    for (int round = 0; round < 2; round++) {
        long sum = 0, ids = 0;
        int size = 0;
        memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(n) reduction(+ : sum, ids)
        {
            sum += 1;
            ids += omp_get_thread_num();
#pragma omp single
            size = omp_get_num_threads();
#pragma omp single
#pragma omp taskloop grainsize(1)
            for (int i = 0; i < ITERS; i++)
                __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp barrier
        }
        CHECK(size == n, "a team of %d threads asked, %d formed", n, size);
        CHECK(sum == n, "%d threads: %ld took part", n, sum);
        CHECK(ids == (long)n * (n - 1) / 2, "%d threads: thread numbers sum to %ld", n, ids);
        for (int i = 0; i < ITERS; i++)
            CHECK(hits[i] == 1, "%d threads: iteration %d ran %d times", n, i, hits[i]);
    }
}

int main(void)
{
    omp_set_dynamic(0);
    big_team(1000);
    big_team(5000);
    return 0;
}
