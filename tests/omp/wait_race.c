// wait_race.c - forces the race between a waiter deciding to sleep and the
// wake-up it waits for: in a debug build ILAN_DEBUG_WAIT_DELAY_US makes every
// waiter pause between its last look and its sleep, so starts of regions,
// barrier releases, ordered hand-offs and task pushes land in that window. A
// lost wake-up hangs (the hang catcher saves the stacks); a release build
// ignores the variable and runs the same protocol unperturbed.
// ilan-test: threads=3,16 modes=ilan,ws env=ILAN_DEBUG_WAIT_DELAY_US=30;OMP_WAIT_POLICY=passive vary=ILAN_DLB=ws,na-ws,na-rp vary=ILAN_BARRIER=tree,central
// ilan-test: prefix: sh <SRC>/tools/hang-catch.sh 1 55 hang-wait_race.txt --
#include "check.h"

#define ROUNDS 2000

int main(void)
{
    long total = 0, tasks = 0, next = 0, bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp parallel reduction(+ : total)
        {
            total += 1;
#pragma omp barrier
            if (omp_get_thread_num() == r % omp_get_num_threads()) {
#pragma omp task
                {
#pragma omp atomic
                    tasks++;
                }
            }
#pragma omp for ordered schedule(static, 1)
            for (int i = 0; i < 4; i++) {
#pragma omp ordered
                {
                    bad += next != (long)r * 4 + i;
                    next++;
                }
            }
        }
    }
    int n = omp_get_max_threads();
    CHECK(total == (long)ROUNDS * n, "reductions gave %ld, want %ld", total, (long)ROUNDS * n);
    CHECK(tasks == ROUNDS, "%ld tasks ran, want %d", tasks, ROUNDS);
    CHECK(bad == 0 && next == ROUNDS * 4L, "%ld ordered regions out of order", bad);
    return 0;
}
