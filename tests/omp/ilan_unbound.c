/* ilan_unbound.c — taskloops of unbound teams on a what-if machine of two one-core nodes: the program itself moves its threads between the two real CPUs from region to region, so the team's locality groups are rebuilt (nodes, or a group per thread) while every iteration still runs exactly once, in every mode. */
// ilan-test: threads=2,3,8 tsan modes=ilan,numa,ws
// ilan-test: env=HWLOC_SYNTHETIC=numa:2%20core:1%20pu:1
#include "check.h"
#include <sched.h>

#define N 3000
static int hits[N];

/* Moves the calling thread to one of the process's CPUs (the program's own
 * choice: the runtime binds nothing). */
static void move_to(const cpu_set_t *allowed, int k)
{
    int count = CPU_COUNT(allowed), seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, allowed) && seen++ == k % count) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            sched_setaffinity(0, sizeof one, &one);
            return;
        }
}

int main(void)
{
    cpu_set_t allowed;
    CHECK(sched_getaffinity(0, sizeof allowed, &allowed) == 0, "sched_getaffinity");
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d", (int)omp_get_proc_bind());
    for (int round = 0; round < 60; round++) {
        #pragma omp parallel
        {
            /* Round by round: all threads on one CPU, or spread over both. */
            move_to(&allowed, round % 3 == 0 ? 0 : omp_get_thread_num() + round);
            #pragma omp single
            {
                #pragma omp taskloop num_tasks(7)
                for (int i = 0; i < N; i++)
                    __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
                #pragma omp taskloop
                for (int i = 0; i < N; i++)
                    __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
            }
        }
    }
    for (int i = 0; i < N; i++)
        CHECK(hits[i] == 120, "iteration %d ran %d times, want 120", i, hits[i]);
    sched_setaffinity(0, sizeof allowed, &allowed);
    return 0;
}
