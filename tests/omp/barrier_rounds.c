// barrier_rounds.c - 10^5 barriers in a row: no thread passes a barrier before
// every thread of its team arrived (each thread counts its arrival in a shared
// counter just before the barrier; after it, the counter must hold every
// arrival of the round), the explicit barrier and the implicit one of a
// worksharing loop alternating. Teams of 2, 3, 16, 64 and 255 threads, on
// both barriers (ILAN_BARRIER). 10^5 rounds up to 64 threads (about 7 s at
// 64 on 2 cores); 255 threads cost about 0.26 ms a barrier there, so they run
// 20,000 (10^5 took 26 s a run, beside the 60 s limit of a loaded make test);
// the ThreadSanitizer build runs 2,000.
// ilan-test: threads=2,3,16,64,255 tsan vary=ILAN_BARRIER=tree,central
#include "check.h"

#if defined(__SANITIZE_THREAD__)
#define ROUNDS_MAX 2000L
#else
#define ROUNDS_MAX 100000L /* no cap */
#endif

/* Rounds for a team of n. */
static long rounds_for(int n)
{
    long r = n <= 64 ? 100000L : 20000L;
    return r < ROUNDS_MAX ? r : ROUNDS_MAX;
}

int main(void)
{
    int nthr = omp_get_max_threads();
    long rounds = rounds_for(nthr);
    long arrived = 0, early = 0, late = 0;
    int team = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : early, late)
    {
        long n = omp_get_num_threads();
#pragma omp single
        team = (int)n;
        for (long r = 0; r < rounds; r++) {
            __atomic_add_fetch(&arrived, 1, __ATOMIC_RELAXED);
            if (r % 2 == 0) {
#pragma omp barrier
            } else {
#pragma omp for schedule(static)
                for (long i = 0; i < n; i++)
                    __asm__ volatile("" ::: "memory");
            }
            long seen = __atomic_load_n(&arrived, __ATOMIC_RELAXED);
            /* round r's arrivals are all in; round r + 1's may have begun,
             * but not past it: the next barrier needs ours */
            early += seen < (r + 1) * n;
            late += seen > (r + 2) * n;
        }
    }
    CHECK(team == nthr, "team of %d, asked %d", team, nthr);
    CHECK(early == 0, "%ld passages of a barrier before every thread arrived (%ld rounds, %d threads)",
          early, rounds, nthr);
    CHECK(late == 0, "%ld threads saw arrivals two rounds ahead", late);
    CHECK(arrived == rounds * nthr, "%ld arrivals, want %ld", arrived, rounds * nthr);
    return 0;
}
