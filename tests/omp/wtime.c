// wtime.c - omp_get_wtime is monotonic non-decreasing (per thread and across
// a barrier); omp_get_wtick is positive and finer than a millisecond.
#include "check.h"

int main(void)
{
    double tick = omp_get_wtick();
    CHECK(tick > 0 && tick < 1e-3, "omp_get_wtick %g", tick);
    double prev = omp_get_wtime();
    CHECK(prev >= 0, "wtime negative %f", prev);
    for (int i = 0; i < 100000; i++) {
        double t = omp_get_wtime();
        CHECK(t >= prev, "wtime went back: %.9f < %.9f", t, prev);
        prev = t;
    }
    /* time advances: spin until it changes (bounded) */
    double t0 = omp_get_wtime(), t1 = t0;
    for (long i = 0; i < 100000000 && t1 == t0; i++) t1 = omp_get_wtime();
    CHECK(t1 > t0, "wtime never advanced");

    /* per thread monotonic; values after a barrier are >= values before it
       (the time is a process-wide clock) */
    int bad = 0;
    double before[1024];
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        CHECK(omp_get_wtick() == tick, "wtick differs per thread");
        double p = omp_get_wtime();
        for (int i = 0; i < 2000; i++) {
            double t = omp_get_wtime();
            bad += t < p;
            p = t;
        }
        if (me < 1024) before[me] = omp_get_wtime();
#pragma omp barrier
        double after = omp_get_wtime();
        for (int t = 0; t < n && t < 1024; t++) bad += after < before[t];
    }
    CHECK(bad == 0, "%d wtime ordering violations", bad);
    return 0;
}
