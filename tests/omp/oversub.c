// oversub.c - 10,000 barriers with 16 threads on a 2-core machine.  Waiting
// threads must yield/sleep; the 60 s test timeout is the only time guard.
// ilan-test: threads=16 vary=ILAN_BARRIER=tree,central
#include "check.h"

#define ROUNDS 10000

int main(void)
{
    int nthr = omp_get_max_threads();
    int slot[256];
    int errors = 0, n = 0;
    if (nthr > 256) nthr = 256;
#pragma omp parallel num_threads(nthr) reduction(+ : errors)
    {
        int me = omp_get_thread_num();
        int nt = omp_get_num_threads();
#pragma omp single
        n = nt;
        for (int r = 0; r < ROUNDS; r++) {
            __atomic_store_n(&slot[me], r, __ATOMIC_RELAXED);
#pragma omp barrier
            /* check a neighbour only: reading all slots would need a second barrier */
            if (r % 2 == 0) {
                int other = (me + 1 + r / 2) % nt;
                int v = __atomic_load_n(&slot[other], __ATOMIC_RELAXED);
                errors += v != r && v != r + 1;
            }
        }
    }
    CHECK(n == nthr, "team %d, wanted %d", n, nthr);
    CHECK(errors == 0, "%d barrier phase errors", errors);
    return 0;
}
