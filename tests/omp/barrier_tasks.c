// barrier_tasks.c - the barrier is a tasking barrier on both kinds
// (ILAN_BARRIER): every task created before a barrier, and every task those
// create, is complete before any thread leaves it. Three cases: every thread
// creates tasks then meets the barrier; one thread creates them after the
// others have waited long enough to fall asleep at the barrier (they must be
// woken for the tasks or at least for the release); tasks created at the last
// moment by the last thread to arrive.
// ilan-test: threads=2,3,16,64 tsan vary=ILAN_BARRIER=tree,central
#include "check.h"
#include <unistd.h>

static void work(int n)
{
    for (volatile int i = 0; i < n; i++) {}
}

static void task_tree(long *done, int depth)
{
    if (depth > 0) {
#pragma omp task
        task_tree(done, depth - 1);
#pragma omp task
        task_tree(done, depth - 1);
    }
    work(200);
    __atomic_add_fetch(done, 1, __ATOMIC_RELAXED);
}

int main(void)
{
    int nthr = omp_get_max_threads();
    for (int rep = 0; rep < 20; rep++) {
        long done = 0, bad = 0, created = 0;
        /* 1. everyone creates, then an explicit barrier and a loop's */
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        {
            long n = omp_get_num_threads();
            for (int i = 0; i < 8; i++) {
#pragma omp task
                task_tree(&done, 3); /* 15 tasks */
            }
#pragma omp barrier
            bad += __atomic_load_n(&done, __ATOMIC_RELAXED) != n * 8 * 15;
#pragma omp for schedule(static) nowait
            for (int i = 0; i < 64; i++) {
#pragma omp task
                __atomic_add_fetch(&created, 1, __ATOMIC_RELAXED);
            }
#pragma omp barrier
            bad += __atomic_load_n(&created, __ATOMIC_RELAXED) != 64;
        }
        CHECK(bad == 0, "rep %d: %ld threads left a barrier with tasks incomplete", rep, bad);

        /* 2. one thread creates late, the others wait at the single's
         * implicit barrier; every few repetitions long enough to sleep */
        done = 0;
        bad = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : bad)
        {
#pragma omp single
            {
                if (rep % 5 == 0)
                    usleep(3000);
                for (int i = 0; i < 40; i++) {
#pragma omp task
                    task_tree(&done, 4); /* 31 tasks */
                }
            }
            bad += __atomic_load_n(&done, __ATOMIC_RELAXED) != 40 * 31;
        }
        CHECK(bad == 0, "rep %d: late tasks incomplete after the single's barrier (%ld)", rep, bad);

        /* 3. the last thread to arrive creates tasks just before arriving;
         * the region's end barrier must run them all */
        done = 0;
        long arrived = 0;
#pragma omp parallel num_threads(nthr)
        {
            long n = omp_get_num_threads();
            if (__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL) == n) {
                for (int i = 0; i < 16; i++) {
#pragma omp task
                    task_tree(&done, 2); /* 7 tasks */
                }
            }
        }
        CHECK(done == 16 * 7, "rep %d: %ld of %d tasks done at the region's end", rep, done, 16 * 7);
    }
    return 0;
}
