// taskloop_many_groups.c - taskloops in an unbound team of 150 threads,
// where ILAN makes a locality group per thread: more groups than a quick
// look visits (an idle thread's look at other groups' queues goes round
// them 64 at a time; only the look before sleeping visits all), and a
// range launch whose runners skip the others' ranges once one of them
// saw nothing left to share. Over 12 executions of each (the ilan mode's
// calibration and exploration on fewer groups), every iteration runs once:
//   single      one thread creates, grainsize 1 and num_tasks(3) (fewer
//               tasks than groups: most ranges are empty)
//   everyone    every thread creates a taskloop at once
//   nested      a taskloop inside each task of a taskloop (tied tasks
//               waiting for their own children among 150 threads)
// ilan-test: threads=default modes=ilan,numa,ws
#include "check.h"

#define TEAM 150
#define N 3000
#define RUNS 12

static int hits[N];

static void each_once(const char *what, int run, int n)
{
    for (int i = 0; i < n; i++)
        CHECK(hits[i] == 1, "%s, run %d: iteration %d ran %d times", what, run, i, hits[i]);
}

int main(void)
{
    omp_set_dynamic(0);
    for (int run = 0; run < RUNS; run++) {
        memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(TEAM)
#pragma omp single
#pragma omp taskloop grainsize(1)
        for (int i = 0; i < N; i++)
            __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
        each_once("single, grainsize(1)", run, N);

        memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(TEAM)
#pragma omp single
#pragma omp taskloop num_tasks(3)
        for (int i = 0; i < N; i++)
            __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
        each_once("single, num_tasks(3)", run, N);

        /* Every thread: iterations [20 t, 20 t + 20) of its own taskloop. */
        memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(TEAM)
        {
            int base = 20 * omp_get_thread_num();
#pragma omp taskloop grainsize(2)
            for (int i = base; i < base + 20; i++)
                __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
        }
        each_once("every thread's taskloop", run, 20 * TEAM);

        memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(TEAM)
#pragma omp single
#pragma omp taskloop grainsize(1)
        for (int o = 0; o < 30; o++) {
#pragma omp taskloop grainsize(5)
            for (int i = 100 * o; i < 100 * o + 100; i++)
                __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
        }
        each_once("nested taskloops", run, N);
    }
    return 0;
}
