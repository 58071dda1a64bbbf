// counters_help.c - a hot team's worker that left a region before its
// tasks were made (none was pending at the end barrier) comes back to help
// with them (team_help): with ILAN_COUNTERS=runtime, every
// task is counted once, created == executed, the regions are counted once
// per thread and region however often a worker came back, and no race
// (TSan) between the helper's reopened region record and the master.
// ilan-test: threads=2,4 tsan env=ILAN_COUNTERS=runtime
#include "check.h"

#define TASKS 100
#define ROUNDS 3

static long long (*counter)(const char *name, int thread);

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    static int ran[ROUNDS][TASKS];
    int threads = 0;
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp parallel
        if (omp_get_thread_num() == 0) {
            threads = omp_get_num_threads();
            test_spin_us(20000); /* the others leave the region meanwhile */
            for (int i = 0; i < TASKS; i++) {
#pragma omp task firstprivate(i, r)
                {
                    test_spin_us(200);
                    ran[r][i]++;
                }
            }
        }
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < TASKS; i++)
            CHECK(ran[r][i] == 1, "task %d of round %d ran %d times", i, r, ran[r][i]);
    CHECK_EQ_LL(counter("tasks_created", -1), ROUNDS * TASKS);
    CHECK_EQ_LL(counter("tasks_executed", -1), ROUNDS * TASKS);
    CHECK_EQ_LL(counter("regions", -1), (long long)ROUNDS * threads);
    CHECK(counter("region_helps", -1) >= 0, "region_helps unreadable");
    return 0;
}
