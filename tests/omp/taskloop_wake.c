// taskloop_wake.c - a taskloop launched while the other workers sleep wakes
// every one of them: the range launch wakes two sleepers and each woken
// thread wakes two more (a tree of wake-ups), so a lost relay would leave a
// worker asleep. Each taskloop has one task per thread and every task waits
// until all the team's threads are inside a task at once, which only
// happens when every worker was woken (a thread blocked in its task cannot
// take another). Passive waiting makes idle workers sleep at once, and the
// debug delay widens the window between a waiter's last look and its sleep.
// Exploration is off (ILAN_EXPLORE_MIN_US): a configuration of fewer
// groups than threads could never gather them all.
// ilan-test: threads=2,3,8,33 tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
// ilan-test: env=OMP_WAIT_POLICY=passive;ILAN_DEBUG_WAIT_DELAY_US=20;ILAN_EXPLORE_MIN_US=10000000
#include "check.h"
#include <sched.h>
#include <unistd.h>

#define ROUNDS 12

static int arrived; /* tasks of the current round that have started */

int main(void)
{
    int nthreads = omp_get_max_threads();
    for (int round = 0; round < ROUNDS; round++) {
        int done = 0;
        arrived = 0;
#pragma omp parallel
#pragma omp single
        {
            usleep(2000); /* the other workers go to sleep */
#pragma omp taskloop num_tasks(nthreads)
            for (int i = 0; i < nthreads; i++) {
                __atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
                while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < nthreads)
                    sched_yield();
                __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
            }
        }
        CHECK(done == nthreads, "round %d: %d of %d tasks ran", round, done, nthreads);
    }
    return 0;
}
