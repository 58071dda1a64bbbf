// ordered_handoff.c - 100,000 ordered hand-offs with schedule(static,1) (every
// iteration passes the token to the next thread), then ordered loops with
// dynamic, guided and nowait schedules, and ordered loops in parallel regions
// started from explicit tasks: each runs its ordered regions in iteration
// order. A lost wake-up hangs: the hang catcher saves every thread's stack.
// ilan-test: threads=1,2,3,8,16,64 tsan modes=ilan,ws
// ilan-test: prefix: sh <SRC>/tools/hang-catch.sh 1 55 hang-ordered_handoff.txt --
#include "check.h"

#ifdef __SANITIZE_THREAD__
#define HANDOFFS 4000
#else
#define HANDOFFS 100000
#endif

/* Checks that the ordered regions of a loop of n iterations ran 0, 1, ...;
 * `next` is what the ordered region expects next. */
#define ORDERED_BODY(next, i, bad)                                                           \
    _Pragma("omp ordered")                                                                   \
    {                                                                                        \
        if ((next) != (i))                                                                   \
            (bad)++;                                                                         \
        (next) = (i) + 1;                                                                    \
    }

static void static1(void)
{
    long next = 0, bad = 0;
#pragma omp parallel for ordered schedule(static, 1)
    for (long i = 0; i < HANDOFFS; i++)
        ORDERED_BODY(next, i, bad)
    CHECK(bad == 0 && next == HANDOFFS, "static,1: %ld out of order, ended at %ld", bad, next);
}

static void other_schedules(void)
{
    long next1 = 0, next2 = 0, next3 = 0, next4 = 0, bad = 0;
    const long n = HANDOFFS / 10;
#pragma omp parallel
    {
#pragma omp for ordered schedule(dynamic, 1)
        for (long i = 0; i < n; i++)
            ORDERED_BODY(next1, i, bad)
#pragma omp for ordered schedule(guided, 3)
        for (long i = 0; i < n; i++)
            ORDERED_BODY(next2, i, bad)
        /* nowait: a thread may start the next loop's iterations while
         * others still finish this one */
#pragma omp for ordered schedule(static, 1) nowait
        for (long i = 0; i < n; i++)
            ORDERED_BODY(next3, i, bad)
#pragma omp for ordered schedule(dynamic, 7) nowait
        for (long i = 0; i < n; i++)
            ORDERED_BODY(next4, i, bad)
    }
    CHECK(bad == 0, "%ld ordered regions out of order", bad);
    CHECK(next1 == n && next2 == n && next3 == n && next4 == n, "ended at %ld %ld %ld %ld",
          next1, next2, next3, next4);
}

static void inside_tasks(void)
{
    enum { TASKS = 8, N = 500 };
    long ends[TASKS] = {0}, bad = 0;
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < TASKS; t++) {
#pragma omp task firstprivate(t) shared(ends, bad)
        {
            long next = 0, mybad = 0;
#pragma omp parallel for ordered schedule(static, 1) num_threads(3)
            for (long i = 0; i < N; i++)
                ORDERED_BODY(next, i, mybad)
            ends[t] = next;
#pragma omp atomic
            bad += mybad;
        }
    }
    CHECK(bad == 0, "%ld ordered regions out of order in tasks", bad);
    for (int t = 0; t < TASKS; t++)
        CHECK(ends[t] == N, "task %d ended at %ld", t, ends[t]);
}

int main(void)
{
    omp_set_max_active_levels(2);
    static1();
    other_schedules();
    inside_tasks();
    return 0;
}
