// loops_adaptive_last.c - the thread that owns the loop's last block still
// steals when it runs out: every block but the last is slow, so the last
// block's owner must end up running iterations of the others (before the
// fix it stopped at its block's end, and a 2-thread loop did not balance at
// all). And lastprivate still comes from the last iteration, whoever ran it.
// ilan-test: threads=2,3 tsan
#include "check.h"

#define N 200

int main(void)
{
    int nthr = omp_get_max_threads();
    static int ran_by[N];
    int last = -1;
    /* the static block of the last thread: [N - N / nthr, N) when nthr divides N
       about evenly; computed as schedule(static) computes it */
    int q = N / nthr, r = N % nthr;
    int last_lo = (nthr - 1) * q + (nthr - 1 < r ? nthr - 1 : r);
#pragma omp parallel for schedule(dynamic) lastprivate(last)
    for (int i = 0; i < N; i++) {
        if (i < last_lo)
            test_spin_us(200);
        ran_by[i] = omp_get_thread_num();
        last = i;
    }
    CHECK(last == N - 1, "lastprivate: %d, want %d", last, N - 1);
    int helped = 0;
    for (int i = 0; i < last_lo; i++)
        helped += ran_by[i] == nthr - 1;
    CHECK(helped > 0, "the last block's owner ran none of the %d slow iterations", last_lo);
    return 0;
}
