// loops_adaptive_learn.c - a plain schedule(dynamic) loop run again starts
// from a split learnt from its earlier runs: here the second half of the
// iterations costs 10 times the first, so once the first run (the static
// split) has measured that, thread 0's block grows past the static one.
// The program runs itself with ILAN_REPORT and reads the loop's record:
// with a CPU per thread the split is learnt and used by later runs; with
// one thread, or more threads than CPUs (where a block's time mostly says
// how long its owner waited for a CPU), no split is learnt.
// ilan-test: threads=1,2,3 env=OMP_PROC_BIND=true serial tsan
#include "child_report.h"
#include <omp.h>
#include <stdlib.h>

#define N 20000
#define REPS 30

static void kernel(void)
{
    for (int rep = 0; rep < REPS; rep++) {
#pragma omp parallel for schedule(dynamic)
        for (int i = 0; i < N; i++) {
            volatile double x = 0;
            for (int k = 0; k < (i < N / 2 ? 20 : 200); k++)
                x += k;
        }
    }
}

int main(void)
{
    if (getenv("LEARN_CHILD")) {
        kernel();
        return 0;
    }
    int T = omp_get_max_threads();
    const char *text = test_child_report(NULL, (const char *[]){"LEARN_CHILD=1", NULL}, "kernel");
    const char *split = strstr(text, "\"split\": [");
    if (T == 1 || T > omp_get_num_procs()) {
        CHECK(split == NULL, "%d threads on %d CPUs learnt a split", T, omp_get_num_procs());
        printf("%d threads: no split learnt\n", T);
        return 0;
    }
    CHECK(split != NULL, "no split learnt by %d threads", T);
    const char *calls = strstr(text, "\"split_calls\": ");
    CHECK(calls != NULL, "no split_calls");
    long used = atol(calls + strlen("\"split_calls\": "));
    /* Each run from the second on starts from a learnt split: a 10x step
     * is far from what snaps back to the static split. */
    CHECK(used >= REPS / 2, "only %ld of %d runs started from a learnt split", used, REPS);
    unsigned long long b[65];
    const char *p = split + strlen("\"split\": [");
    for (int t = 0; t <= T; t++) {
        char *end;
        b[t] = strtoull(p, &end, 10);
        CHECK(end != p, "split entry %d unreadable", t);
        p = end + 1;
    }
    CHECK(b[0] == 0 && b[T] == N, "split from %llu to %llu", b[0], b[T]);
    for (int t = 0; t < T; t++)
        CHECK(b[t] <= b[t + 1], "split goes back at %d", t);
    /* Equal cost puts thread 0's end at 0.725 N with 2 threads, 0.63 N
     * with 3; the static split at N / T. */
    CHECK(b[1] > (unsigned long long)(1.2 * N / T), "thread 0 ends at %llu (static: %d)", b[1],
          N / T);
    printf("%d threads: %ld of %d runs from a learnt split; thread 0's block ends at %llu\n", T,
           used, REPS, b[1]);
    return 0;
}
