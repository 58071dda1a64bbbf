// idle_cpu.c - workers stop using CPU between regions: after a region of 2 and
// after ones of 16 threads, the process's CPU time while the master sleeps 400 ms
// outside any region stays under 80 ms (waiters spin 300,000 pauses, a few
// ms, or yield 0.2 ms when threads outnumber CPUs, then sleep). A runtime whose
// idle workers kept spinning would use up to 800 ms here on 2 cores.
// ilan-test: threads=default
#include "check.h"
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double idle_cpu_after(int threads)
{
    long sum = 0;
    for (int k = 0; k < 100; k++) {
#pragma omp parallel num_threads(threads) reduction(+ : sum)
        sum += omp_get_thread_num();
    }
    CHECK(sum == 100L * threads * (threads - 1) / 2, "reduction %ld", sum);
    double before = cpu_seconds();
    struct timespec nap = {0, 400 * 1000 * 1000};
    nanosleep(&nap, NULL);
    return cpu_seconds() - before;
}

int main(void)
{
    /* 16 threads three times: a worker that began its idle wait late, after
     * the region's end, once read a plan that let it spin (core/team.c). */
    for (int i = 0; i < 4; i++) {
        int threads = i ? 16 : 2;
        double used = idle_cpu_after(threads);
        CHECK(used < 0.080, "%.0f ms of CPU while idle for 400 ms after a region of %d threads",
              used * 1e3, threads);
    }
    return 0;
}
