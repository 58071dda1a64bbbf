// barrier_nested.c - barriers inside nested parallel regions: each inner
// team's barrier waits for that team alone (per-team round counters), while
// the outer team's threads pass their own barriers between the inner regions;
// three levels, teams of 2 x 3 x 2 and 3 x 4, on both barriers (ILAN_BARRIER).
// ilan-test: threads=2,3,8 tsan vary=ILAN_BARRIER=tree,central
#include "check.h"

#define ROUNDS 300

/* Runs ROUNDS barriers in the current team, counting arrivals in *count;
 * returns how many passages saw a round incomplete. */
static long rounds_in_team(long *count)
{
    long n = omp_get_num_threads(), bad = 0;
    for (long r = 0; r < ROUNDS; r++) {
        __atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
        long seen = __atomic_load_n(count, __ATOMIC_RELAXED);
        bad += seen < (r + 1) * n || seen > (r + 2) * n;
    }
    return bad;
}

int main(void)
{
    omp_set_max_active_levels(3);
    long bad = 0, outer_count = 0;
    /* two levels: 3 outer threads, each with an inner team of 4 */
    long inner2[3] = {0};
#pragma omp parallel num_threads(3) reduction(+ : bad)
    {
        int o = omp_get_thread_num();
#pragma omp parallel num_threads(4) reduction(+ : bad)
        bad += rounds_in_team(&inner2[o]);
        /* the outer team's own barriers, after the inner regions */
        bad += rounds_in_team(&outer_count);
    }
    CHECK(bad == 0, "%ld bad passages with two levels", bad);
    for (int o = 0; o < 3; o++)
        CHECK(inner2[o] == 4L * ROUNDS, "inner team %d: %ld arrivals", o, inner2[o]);

    /* three levels: 2 x 3 x 2, barriers at every level in turn */
    long c1 = 0, c2[2] = {0}, c3[2][3] = {{0}};
    bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        int a = omp_get_thread_num();
        bad += rounds_in_team(&c1);
#pragma omp parallel num_threads(3) reduction(+ : bad)
        {
            int b = omp_get_thread_num();
            bad += rounds_in_team(&c2[a]);
#pragma omp parallel num_threads(2) reduction(+ : bad)
            bad += rounds_in_team(&c3[a][b]);
        }
    }
    CHECK(bad == 0, "%ld bad passages with three levels", bad);
    CHECK(c1 == 2L * ROUNDS, "level 1: %ld", c1);
    for (int a = 0; a < 2; a++) {
        CHECK(c2[a] == 3L * ROUNDS, "level 2 team %d: %ld", a, c2[a]);
        for (int b = 0; b < 3; b++)
            CHECK(c3[a][b] == 2L * ROUNDS, "level 3 team %d.%d: %ld", a, b, c3[a][b]);
    }
    return 0;
}
