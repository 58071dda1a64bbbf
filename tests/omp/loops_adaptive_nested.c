// loops_adaptive_nested.c - adaptive loops in a team, in nested teams of
// other sizes, and in the outer team again, many times: a thread's victim
// order is rebuilt for each team it steals in, and its cache is not part of
// the thread state a nested region's master saves and restores (a restore
// used to bring back arrays freed while the nested team grew them). Then
// nested teams' loops inside the outer loop's iterations: the outer loop's
// thieves must steal by the outer team's order again after each (it was
// taken once per loop, and a nested loop rebuilt it for its own team under
// the outer loop's feet). Every iteration runs exactly once at every level.
// ilan-test: threads=2,3 tsan
#include "check.h"
#include <omp.h>

#define N 997
#define ROUNDS 40

static int outer_hits[N];
static int inner_hits[8][N];
static int body_hits[N];  /* the outer loop of the second part */
static long inner_total;  /* its nested loops' iterations */

static void outer_loop(void)
{
#pragma omp for schedule(dynamic)
    for (int i = 0; i < N; i++)
        __atomic_add_fetch(&outer_hits[i], 1, __ATOMIC_RELAXED);
}

int main(void)
{
    omp_set_max_active_levels(2);
    int outer = omp_get_max_threads();
    CHECK(outer <= 8, "at most 8 threads");
    for (int round = 0; round < ROUNDS; round++) {
        int inner = 2 + round % 4; /* 2..5: the nested teams grow and shrink */
#pragma omp parallel
        {
            outer_loop();
            int me = omp_get_thread_num();
#pragma omp parallel num_threads(inner)
            {
#pragma omp for schedule(dynamic)
                for (int i = 0; i < N; i++)
                    __atomic_add_fetch(&inner_hits[me][i], 1, __ATOMIC_RELAXED);
            }
            outer_loop();
        }
        for (int i = 0; i < N; i++) {
            CHECK(outer_hits[i] == 2, "round %d: outer iteration %d ran %d times", round, i,
                  outer_hits[i]);
            outer_hits[i] = 0;
            for (int t = 0; t < outer; t++) {
                CHECK(inner_hits[t][i] == 1, "round %d: inner team of thread %d: iteration %d ran %d times",
                      round, t, i, inner_hits[t][i]);
                inner_hits[t][i] = 0;
            }
        }
    }
    /* Nested loops inside the outer loop's iterations. */
    for (int round = 0; round < ROUNDS; round++) {
        int inner = 2 + round % 4;
        inner_total = 0;
#pragma omp parallel
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; i++) {
            __atomic_add_fetch(&body_hits[i], 1, __ATOMIC_RELAXED);
            if (i % 97 == 0) {
#pragma omp parallel num_threads(inner)
#pragma omp for schedule(dynamic)
                for (int k = 0; k < 1000; k++)
                    __atomic_add_fetch(&inner_total, 1, __ATOMIC_RELAXED);
            }
        }
        for (int i = 0; i < N; i++) {
            CHECK(body_hits[i] == 1, "round %d: outer iteration %d ran %d times", round, i,
                  body_hits[i]);
            body_hits[i] = 0;
        }
        CHECK_EQ_LL(inner_total, 1000L * ((N + 96) / 97));
    }
    return 0;
}
