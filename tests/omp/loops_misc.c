// loops_misc.c - nowait loops followed by more loops, loops in nested parallel
// regions, combined `parallel for` forms, orphaned loops, loops in a team of
// one, and loops encountered outside any parallel region.
// ilan-test: tsan
#include "check.h"

#define N 1200
#define PRAGMA(x) _Pragma(#x)

static int a[N], b[N], c[N];

__attribute__((noinline)) static void orphan_loop(int *v, int n, int add)
{
#pragma omp for schedule(dynamic, 4)
    for (int i = 0; i < n; i++) v[i] += add;
}

#define COMBINED(fname, SCHED)                                                               \
    static void fname(void)                                                                  \
    {                                                                                        \
        static int h[N];                                                                     \
        memset(h, 0, sizeof h);                                                              \
        long s = 0;                                                                          \
        int last = -1;                                                                       \
        PRAGMA(omp parallel for SCHED reduction(+ : s) lastprivate(last))                    \
        for (int i = 0; i < N; i++) {                                                        \
            __atomic_add_fetch(&h[i], 1, __ATOMIC_RELAXED);                                  \
            s += i;                                                                          \
            last = i;                                                                        \
        }                                                                                    \
        for (int i = 0; i < N; i++) CHECK(h[i] == 1, "%s combined: %d ran %d", #SCHED, i, h[i]); \
        CHECK(s == (long)N * (N - 1) / 2 && last == N - 1, "%s combined sum/last", #SCHED);    \
        /* combined with num_threads and if */                                               \
        memset(h, 0, sizeof h);                                                              \
        int three = 3, zero = 0;                                                             \
        PRAGMA(omp parallel for SCHED num_threads(three))                                    \
        for (int i = 0; i < N; i++) __atomic_add_fetch(&h[i], 1, __ATOMIC_RELAXED);          \
        PRAGMA(omp parallel for SCHED if (zero))                                             \
        for (int i = 0; i < N; i++) __atomic_add_fetch(&h[i], 1, __ATOMIC_RELAXED);          \
        for (int i = 0; i < N; i++) CHECK(h[i] == 2, "%s combined nt/if: %d ran %d", #SCHED, i, h[i]); \
    }

COMBINED(comb_static, schedule(static))
COMBINED(comb_static7, schedule(static, 7))
COMBINED(comb_dynamic, schedule(dynamic))
COMBINED(comb_dynamic5, schedule(dynamic, 5))
COMBINED(comb_guided, schedule(guided))
COMBINED(comb_guided4, schedule(guided, 4))
COMBINED(comb_runtime, schedule(runtime))
COMBINED(comb_auto, schedule(auto))
COMBINED(comb_mdyn, schedule(monotonic : dynamic, 3))
COMBINED(comb_nmdyn, schedule(nonmonotonic : dynamic, 3))
COMBINED(comb_default, )

int main(void)
{
    /* nowait loops followed by dependent work after an explicit barrier */
    for (int r = 0; r < 20; r++) {
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        memset(c, 0, sizeof c);
#pragma omp parallel
        {
#pragma omp for schedule(dynamic, 3) nowait
            for (int i = 0; i < N; i++) a[i] = i + r;
#pragma omp for schedule(guided) nowait
            for (int i = 0; i < N; i++) b[i] = 2 * i;
#pragma omp for schedule(static) nowait
            for (int i = 0; i < N; i++) c[i] = 3;
#pragma omp for schedule(dynamic) nowait
            for (int i = 0; i < 0; i++) c[i] = -1; /* empty nowait loop */
#pragma omp barrier
#pragma omp for schedule(runtime)
            for (int i = 0; i < N; i++) c[i] += a[N - 1 - i] + b[(i * 7) % N];
        }
        for (int i = 0; i < N; i++)
            CHECK(c[i] == 3 + (N - 1 - i + r) + 2 * ((i * 7) % N), "nowait chain r=%d i=%d", r, i);
    }

    /* many consecutive nowait dynamic loops (runtime must keep work shares apart) */
    {
        enum { L = 40, M = 97 };
        static int h[L][M];
        memset(h, 0, sizeof h);
#pragma omp parallel
        for (int l = 0; l < L; l++) {
            if (l % 3 == 0) {
#pragma omp for schedule(dynamic, 2) nowait
                for (int i = 0; i < M; i++) __atomic_add_fetch(&h[l][i], 1, __ATOMIC_RELAXED);
            } else if (l % 3 == 1) {
#pragma omp for schedule(guided, 3) nowait
                for (int i = 0; i < M; i++) __atomic_add_fetch(&h[l][i], 1, __ATOMIC_RELAXED);
            } else {
#pragma omp for schedule(dynamic) nowait
                for (long i = M - 1; i >= 0; i--) __atomic_add_fetch(&h[l][i], 1, __ATOMIC_RELAXED);
            }
        }
        for (int l = 0; l < L; l++)
            for (int i = 0; i < M; i++) CHECK(h[l][i] == 1, "nowait loop %d iter %d ran %d", l, i, h[l][i]);
    }

    /* orphaned worksharing loop called from a region and from serial code */
    memset(a, 0, sizeof a);
#pragma omp parallel
    {
        orphan_loop(a, N, 1);
        orphan_loop(a, N, 10);
    }
    orphan_loop(a, N, 100); /* outside parallel: executed by the single thread */
    for (int i = 0; i < N; i++) CHECK(a[i] == 111, "orphan loop a[%d]=%d", i, a[i]);

    /* loop in a team of one */
    memset(a, 0, sizeof a);
#pragma omp parallel num_threads(1)
    {
#pragma omp for schedule(dynamic, 2)
        for (int i = 0; i < N; i++) a[i]++;
#pragma omp for schedule(guided)
        for (int i = 0; i < N; i++) a[i]++;
    }
    for (int i = 0; i < N; i++) CHECK(a[i] == 2, "team of one a[%d]=%d", i, a[i]);

    /* loops inside nested parallel regions: each inner team shares its own loop */
    omp_set_max_active_levels(2);
    {
        static int h[4][N];
        memset(h, 0, sizeof h);
#pragma omp parallel num_threads(3)
        {
            int o = omp_get_thread_num();
#pragma omp parallel num_threads(3)
            {
#pragma omp for schedule(dynamic, 7)
                for (int i = 0; i < N; i++) __atomic_add_fetch(&h[o][i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(guided) nowait
                for (int i = 0; i < N; i++) __atomic_add_fetch(&h[o][i], 10, __ATOMIC_RELAXED);
#pragma omp for schedule(runtime)
                for (long i = 0; i < N; i++) __atomic_add_fetch(&h[o][i], 100, __ATOMIC_RELAXED);
            }
            /* outer team shares a loop after the inner region */
#pragma omp for schedule(dynamic)
            for (int i = 0; i < N; i++) __atomic_add_fetch(&h[3][i], 1, __ATOMIC_RELAXED);
        }
        int outer = 0;
#pragma omp parallel num_threads(3)
#pragma omp master
        outer = omp_get_num_threads();
        for (int o = 0; o < outer; o++)
            for (int i = 0; i < N; i++) CHECK(h[o][i] == 111, "nested loop [%d][%d]=%d", o, i, h[o][i]);
        for (int i = 0; i < N; i++) CHECK(h[3][i] == 1, "outer loop after nested %d", h[3][i]);
    }
    omp_set_max_active_levels(1);

    comb_static();
    comb_static7();
    comb_dynamic();
    comb_dynamic5();
    comb_guided();
    comb_guided4();
    comb_runtime();
    comb_auto();
    comb_mdyn();
    comb_nmdyn();
    comb_default();

    /* monotonic:dynamic with chunk 1: each thread's iterations increase */
    {
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        {
            int prev = -1;
#pragma omp for schedule(monotonic : dynamic, 1)
            for (int i = 0; i < N; i++) {
                bad += i <= prev;
                prev = i;
            }
        }
        CHECK(bad == 0, "monotonic:dynamic not monotonic (%d)", bad);
#pragma omp parallel reduction(+ : bad)
        {
            int prev = -1;
#pragma omp for schedule(monotonic : guided, 2)
            for (int i = 0; i < N; i++) {
                bad += i <= prev;
                prev = i;
            }
        }
        CHECK(bad == 0, "monotonic:guided not monotonic (%d)", bad);
    }

    /* static schedule: chunk assignment is round-robin and deterministic */
    {
        int owner[N];
        int nthr = 1;
#pragma omp parallel
        {
#pragma omp single
            nthr = omp_get_num_threads();
#pragma omp for schedule(static, 5)
            for (int i = 0; i < N; i++) owner[i] = omp_get_thread_num();
        }
        for (int i = 0; i < N; i++)
            CHECK(owner[i] == (i / 5) % nthr, "static,5 iteration %d on thread %d", i, owner[i]);
        /* two static loops with the same bounds give the same mapping */
        int owner2[N];
#pragma omp parallel
        {
#pragma omp for schedule(static) nowait
            for (int i = 0; i < N; i++) owner[i] = omp_get_thread_num();
#pragma omp for schedule(static)
            for (int i = 0; i < N; i++) owner2[i] = omp_get_thread_num();
        }
        for (int i = 0; i < N; i++) CHECK(owner[i] == owner2[i], "static mapping differs at %d", i);
        for (int i = 1; i < N; i++) CHECK(owner[i] >= owner[i - 1], "static not blocked at %d", i);
    }
    return 0;
}
