// taskloop_opened.c - taskloops in a team of four threads per CPU, where
// ILAN's exploratory runs are range launches that their runners open to
// the other groups' threads once they run past their cut-off (ilan/exec.c,
// open_ranges), or with nogroup per-task launches opened to every thread:
// compute-bound loops of a few milliseconds, so that a run on one group
// (one CPU's share) is explored and opened. Every iteration runs exactly
// once per execution, a taskwait waits for all of them under nogroup, and
// lastprivate and the reduction come out as with one thread. Nothing is
// timed: which runs get opened depends on the machine, the results may not.
// ilan-test: threads=default tsan modes=ilan,numa,ws
#include "check.h"

#define N 20000
#define RUNS 16

static unsigned char seen[N]; /* executions of each iteration in the current run */
static double val[N];         /* nogroup: each iteration's work, summed after the taskwait */

/* About 100 ns of arithmetic the compiler cannot drop. */
static double work(int i)
{
    double x = i;
    for (int k = 0; k < 40; k++)
        x = x * 0.999 + 1.0;
    return x;
}

int main(void)
{
    int nthreads = 4 * omp_get_num_procs();
    double want = 0;
    for (int i = 0; i < N; i++)
        want += work(i);
    for (int nogroup = 0; nogroup < 2; nogroup++) {
        for (int run = 0; run < RUNS; run++) {
            memset(seen, 0, sizeof seen);
            double sum = 0;
            int last = -1;
#pragma omp parallel num_threads(nthreads) shared(sum, last)
#pragma omp single
            {
                if (nogroup) {
#pragma omp taskloop nogroup
                    for (int i = 0; i < N; i++) {
                        val[i] = work(i);
                        __atomic_fetch_add(&seen[i], 1, __ATOMIC_RELAXED);
                    }
#pragma omp taskwait
                    for (int i = 0; i < N; i++)
                        sum += val[i];
                } else {
#pragma omp taskloop reduction(+ : sum) lastprivate(last)
                    for (int i = 0; i < N; i++) {
                        sum += work(i);
                        __atomic_fetch_add(&seen[i], 1, __ATOMIC_RELAXED);
                        last = i;
                    }
                }
            }
            for (int i = 0; i < N; i++)
                CHECK(seen[i] == 1, "nogroup %d run %d: iteration %d ran %d times", nogroup, run, i,
                      seen[i]);
            CHECK(sum > want * (1 - 1e-9) && sum < want * (1 + 1e-9),
                  "nogroup %d run %d: sum %.17g, want %.17g", nogroup, run, sum, want);
            CHECK(nogroup || last == N - 1, "run %d: lastprivate %d", run, last);
        }
    }
    return 0;
}
