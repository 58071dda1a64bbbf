// barrier_cancel.c - cancellation at a barrier releases everyone: threads wait
// at an explicit barrier (GOMP_barrier_cancel) and at a worksharing loop's end
// while one thread, late, cancels the region; every thread must leave the
// region, and the team's next regions (same hot team) must work normally.
// Also a cancel while some threads sleep at the barrier (they wait long
// enough to sleep: the canceller waits for the others to arrive first).
// ilan-test: threads=2,3,16,64 env=OMP_CANCELLATION=true tsan vary=ILAN_BARRIER=tree,central
#include "check.h"
#include <unistd.h>

int main(void)
{
    CHECK(omp_get_cancellation(), "OMP_CANCELLATION=true not honoured");
    int nthr = omp_get_max_threads();
    for (int rep = 0; rep < 40; rep++) {
        int waiting = 0, left = 0, passed = 0, team = 0;
#pragma omp parallel num_threads(nthr)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp single nowait
            team = n;
            /* the canceller: the last thread, or on odd repetitions the master */
            if (me == (rep % 2 ? 0 : n - 1)) {
                /* wait until the others are at the barrier; on odd
                 * repetitions long enough for them to fall asleep */
                while (__atomic_load_n(&waiting, __ATOMIC_ACQUIRE) < n - 1)
                    usleep(50);
                if (rep % 4 == 1)
                    usleep(2000);
#pragma omp cancel parallel
            } else {
                __atomic_add_fetch(&waiting, 1, __ATOMIC_RELEASE);
                if (rep % 3 == 0) {
#pragma omp barrier
                } else {
#pragma omp for schedule(dynamic)
                    for (int i = 0; i < 4; i++)
                        __asm__ volatile("" ::: "memory");
                }
                __atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
            }
#pragma omp atomic
            left++;
        }
        CHECK(left <= team, "rep %d: %d threads left a team of %d", rep, left, team);
        /* the barrier could not complete without the canceller: every
         * waiter was released by the cancellation, none passed */
        CHECK(passed == 0, "rep %d: %d threads passed a barrier the canceller never reached",
              rep, passed);
        /* the next region, not cancelled, synchronizes as usual */
        long count = 0, bad = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        {
            long n = omp_get_num_threads();
            for (long r = 0; r < 20; r++) {
                __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
                bad += __atomic_load_n(&count, __ATOMIC_RELAXED) < (r + 1) * n;
            }
        }
        CHECK(bad == 0, "rep %d: the region after a cancel: %ld early passages", rep, bad);
    }
    return 0;
}
