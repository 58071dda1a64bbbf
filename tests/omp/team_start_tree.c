// team_start_tree.c - a forming team's threads are started down a tree
// (each dispatched thread dispatches others before its own work): every
// thread of a 1,000-thread team runs the region exactly once with its own
// thread number, when the team is new, when a hot team grows (the threads
// that stayed are not started again), when it shrinks and grows back, and
// in nested teams whose workers come from the pool.
// ilan-test: threads=default
// ilan-test: tsan
#include "check.h"

#define BIG 1000
#define OUTER 4
#define INNER 60

static int runs[BIG];

/* One region of n threads: each thread counts its number once. */
static void region(int n)
{
    memset(runs, 0, sizeof runs);
    int size = 0;
#pragma omp parallel num_threads(n)
    {
        int me = omp_get_thread_num();
        __atomic_fetch_add(&runs[me], 1, __ATOMIC_RELAXED);
        if (me == 0)
            size = omp_get_num_threads();
    }
    CHECK(size == n, "a team of %d threads asked, %d formed", n, size);
    for (int i = 0; i < BIG; i++)
        CHECK(runs[i] == (i < n), "team of %d: thread %d ran the region %d times", n, i, runs[i]);
}

int main(void)
{
    omp_set_dynamic(0);
    /* New, then the hot team grown from 3 and from 700, shrunk, grown back. */
    int sizes[] = {BIG, 1, 3, 700, BIG, 2, 500, BIG, BIG};
    for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++)
        region(sizes[k]);

    /* Nested: the inner teams borrow pooled workers, started down their
     * own trees by pool threads. */
    omp_set_max_active_levels(2);
    static int inner_runs[OUTER][INNER];
    memset(inner_runs, 0, sizeof inner_runs);
    int bad = 0;
#pragma omp parallel num_threads(OUTER) reduction(+ : bad)
    {
        int o = omp_get_thread_num();
        for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(INNER)
            {
                __atomic_fetch_add(&inner_runs[o][omp_get_thread_num()], 1, __ATOMIC_RELAXED);
                if (omp_get_num_threads() != INNER || omp_get_level() != 2 ||
                    omp_get_ancestor_thread_num(1) != o)
                    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
            }
        }
    }
    CHECK(bad == 0, "%d inner threads saw a wrong team size, level or ancestor", bad);
    for (int o = 0; o < OUTER; o++)
        for (int i = 0; i < INNER; i++)
            CHECK(inner_runs[o][i] == 3, "inner team of %d, thread %d: ran %d regions, not 3", o, i,
                  inner_runs[o][i]);
    return 0;
}
