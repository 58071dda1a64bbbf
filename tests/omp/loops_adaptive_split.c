// loops_adaptive_split.c - an adaptive loop (plain schedule(dynamic)) starts
// with each thread owning the block a schedule(static) loop would give it,
// taken from its front: a thread that runs its block's first iteration runs
// it first (thieves take from the back, so the front goes to a thief only
// with the whole rest of the block, and a late owner whose block was all
// taken may then steal part of it back, starting inside it); with one
// thread per core (bound) the owners start their blocks in most runs. Each
// run's loop has another iteration count, hence is another loop identity:
// a loop run again may start from a split learnt from its earlier runs
// (loops_adaptive_learn.c), which this test is not about.
// ilan-test: threads=1,2,3,8 env=OMP_PROC_BIND=true serial
#include <omp.h>
#include "check.h"

#define N 4000
#define REPS 20

static int log_[64][N]; /* per thread: iterations in the order it ran them */
static int len[64];

int main(void)
{
    int nthr = omp_get_max_threads();
    CHECK(nthr <= 64, "too many threads");
    int all_owned = 0;
    for (int rep = 0; rep < REPS; rep++) {
        int n = N - rep;
        memset(len, 0, sizeof len);
#pragma omp parallel
        {
            int t = omp_get_thread_num();
#pragma omp for schedule(dynamic)
            for (int i = 0; i < n; i++) {
                volatile double x = 0;
                for (int k = 0; k < 200; k++)
                    x += k;
                log_[t][len[t]++] = i;
            }
        }
        int owned = 1;
        int total = 0;
        for (int t = 0; t < nthr; t++) {
            /* t's static block, as gcc's schedule(static) splits n */
            int q = n / nthr, r = n % nthr;
            int b = t < r ? t * (q + 1) : t * q + r, e = b + (t < r ? q + 1 : q);
            total += len[t];
            if (len[t] == 0 || b == e) {
                owned &= b == e;
                continue;
            }
            int first = log_[t][0];
            for (int k = 1; k < len[t]; k++)
                CHECK(log_[t][k] != b, "rep %d: thread %d ran its block's first iteration %d "
                      "after %d others (from %d)", rep, t, b, k, first);
            owned &= first == b;
        }
        CHECK(total == n, "rep %d: %d iterations ran, want %d", rep, total, n);
        all_owned += owned;
    }
    /* Owners begin their own blocks (a late owner may see its whole block
     * stolen; with a core per thread that cannot happen in every run). */
    if (nthr <= omp_get_num_procs())
        CHECK(all_owned > 0, "no run where every owner began its static block");
    printf("runs where every owner began its own block: %d of %d\n", all_owned, REPS);
    return 0;
}
