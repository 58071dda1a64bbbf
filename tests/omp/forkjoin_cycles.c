// forkjoin_cycles.c - 100,000 fork/join cycles with 16 threads on 2 cores. Every
// cycle checks its reduction; every 100th has the master create tasks after the
// other threads have left the region (they must still see them run, and the join
// must wait for them); every 1,000th changes the team size (the hot team dismisses
// workers and takes new ones). A lost wake-up hangs: the hang catcher then saves
// every thread's stack to hang-forkjoin_cycles.txt before the test fails.
// ilan-test: threads=16 modes=ilan,numa,ws vary=ILAN_BARRIER=tree,central
// ilan-test: prefix: sh <SRC>/tools/hang-catch.sh 1 55 hang-forkjoin_cycles.txt --
#include "check.h"

#ifdef __SANITIZE_THREAD__
#define CYCLES 5000
#else
#define CYCLES 100000
#endif

static const int sizes[] = {3, 1, 9, 16, 2, 15};

int main(void)
{
    int full = omp_get_max_threads();
    long late_tasks_run = 0, late_tasks_made = 0;
    for (int c = 0; c < CYCLES; c++) {
        int want = c % 1000 == 999 ? sizes[(c / 1000) % 6] : full;
        long sum = 0;
        int n = 0;
#pragma omp parallel num_threads(want) reduction(+ : sum)
        {
            int me = omp_get_thread_num();
            if (me == 0)
                n = omp_get_num_threads();
            sum += me + 1;
            if (c % 100 == 0 && me == 0) {
                /* the others are at (or past) the end barrier by now, mostly */
                for (int k = 0; k < 32; k++) {
#pragma omp task
                    {
#pragma omp atomic
                        late_tasks_run++;
                    }
                }
                late_tasks_made += 32;
            }
        }
        CHECK(n == want, "cycle %d: team of %d, asked %d", c, n, want);
        CHECK(sum == (long)n * (n + 1) / 2, "cycle %d: reduction %ld with %d threads", c, sum, n);
        CHECK(late_tasks_run == late_tasks_made,
              "cycle %d: %ld of %ld tasks created at the region's end ran before the join", c,
              late_tasks_run, late_tasks_made);
    }
    printf("%d fork/join cycles, %ld late tasks\n", CYCLES, late_tasks_made);
    return 0;
}
