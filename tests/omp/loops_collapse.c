// loops_collapse.c - collapse(2) and collapse(3) loops with every schedule,
// mixed directions, empty inner dimensions, ull and non-rectangular nests.
#include "check.h"

#define PRAGMA(x) _Pragma(#x)
#define MAXI 40

static int hits[MAXI][MAXI][MAXI];

static void reset(void) { memset(hits, 0, sizeof hits); }

/* C2(name, SCHED): collapse(2) over i in [a0, a1) step s, j from b1 down to b0 */
#define C2(fname, SCHED)                                                                     \
    __attribute__((noinline)) static void fname(int a0, int a1, int s, int b0, int b1, int t) \
    {                                                                                        \
        reset();                                                                             \
        long cnt = 0, slastk = -1;                                                           \
        int li = -99, lj = -99, si = -99, sj = -99;                                          \
        for (int i = a0; i < a1; i += s)                                                     \
            for (int j = b1; j > b0; j -= t) si = i, sj = j;                                 \
        _Pragma("omp parallel")                                                              \
        {                                                                                    \
            PRAGMA(omp for collapse(2) SCHED reduction(+ : cnt) lastprivate(li, lj))         \
            for (int i = a0; i < a1; i += s)                                                 \
                for (int j = b1; j > b0; j -= t) {                                           \
                    __atomic_add_fetch(&hits[(i - a0) / s][(b1 - j) / t][0], 1,              \
                                       __ATOMIC_RELAXED);                                    \
                    cnt++;                                                                   \
                    li = i;                                                                  \
                    lj = j;                                                                  \
                }                                                                            \
        }                                                                                    \
        long n = 0;                                                                          \
        for (int i = a0; i < a1; i += s)                                                     \
            for (int j = b1; j > b0; j -= t) {                                               \
                n++;                                                                         \
                CHECK(hits[(i - a0) / s][(b1 - j) / t][0] == 1,                              \
                      "%s collapse(2) (%d,%d) ran %d times", #SCHED, i, j,                   \
                      hits[(i - a0) / s][(b1 - j) / t][0]);                                  \
            }                                                                                \
        CHECK(cnt == n, "%s collapse(2): %ld iterations, serial %ld", #SCHED, cnt, n);       \
        if (n) CHECK(li == si && lj == sj, "%s collapse(2) lastprivate (%d,%d) vs (%d,%d)",  \
                     #SCHED, li, lj, si, sj);                                                \
        (void)slastk;                                                                        \
    }

#define C3(fname, SCHED)                                                                     \
    __attribute__((noinline)) static void fname(int n0, int n1, int n2)                      \
    {                                                                                        \
        reset();                                                                             \
        long cnt = 0;                                                                        \
        long long wsum = 0;                                                                  \
        _Pragma("omp parallel")                                                              \
        {                                                                                    \
            PRAGMA(omp for collapse(3) SCHED reduction(+ : cnt, wsum))                       \
            for (int i = 0; i < n0; i++)                                                     \
                for (int j = -n1; j < 0; j += 1)                                             \
                    for (int k = n2 - 1; k >= 0; k--) {                                      \
                        __atomic_add_fetch(&hits[i][j + n1][k], 1, __ATOMIC_RELAXED);       \
                        cnt++;                                                               \
                        wsum += (long long)(i * 10000 + (j + n1) * 100 + k);                 \
                    }                                                                        \
        }                                                                                    \
        long long ws = 0;                                                                    \
        for (int i = 0; i < n0; i++)                                                         \
            for (int j = 0; j < n1; j++)                                                     \
                for (int k = 0; k < n2; k++) {                                               \
                    CHECK(hits[i][j][k] == 1, "%s collapse(3) (%d,%d,%d) ran %d", #SCHED, i, \
                          j, k, hits[i][j][k]);                                              \
                    ws += i * 10000 + j * 100 + k;                                           \
                }                                                                            \
        CHECK(cnt == (long)n0 * n1 * n2, "%s collapse(3) count %ld", #SCHED, cnt);          \
        CHECK(wsum == ws, "%s collapse(3) sum", #SCHED);                                     \
    }

#define SCHEDS(X, P)                                                                         \
    X(P##_static, schedule(static))                                                          \
    X(P##_static1, schedule(static, 1))                                                      \
    X(P##_static3, schedule(static, 3))                                                      \
    X(P##_static64, schedule(static, 64))                                                    \
    X(P##_dynamic, schedule(dynamic))                                                        \
    X(P##_dynamic3, schedule(dynamic, 3))                                                    \
    X(P##_dynamic64, schedule(dynamic, 64))                                                  \
    X(P##_guided, schedule(guided))                                                          \
    X(P##_guided3, schedule(guided, 3))                                                      \
    X(P##_runtime, schedule(runtime))                                                        \
    X(P##_auto, schedule(auto))                                                              \
    X(P##_mdynamic, schedule(monotonic : dynamic, 2))                                        \
    X(P##_nmdynamic, schedule(nonmonotonic : dynamic, 1))

SCHEDS(C2, c2)
SCHEDS(C3, c3)
#define ENTRY(fname, SCHED) fname,
static void (*c2_fns[])(int, int, int, int, int, int) = {SCHEDS(ENTRY, c2)};
static void (*c3_fns[])(int, int, int) = {SCHEDS(ENTRY, c3)};

/* collapse over unsigned long long with values above 2^32 */
static void c2_ull(unsigned long long base)
{
    static int h[37][29];
    memset(h, 0, sizeof h);
    long cnt = 0;
#pragma omp parallel for collapse(2) schedule(dynamic, 5) reduction(+ : cnt)
    for (unsigned long long i = base; i < base + 37; i++)
        for (unsigned long long j = base + 29 * 3; j > base; j -= 3) {
            __atomic_add_fetch(&h[i - base][(base + 29 * 3 - j) / 3], 1, __ATOMIC_RELAXED);
            cnt++;
        }
    for (int i = 0; i < 37; i++)
        for (int j = 0; j < 29; j++) CHECK(h[i][j] == 1, "ull collapse (%d,%d) %d", i, j, h[i][j]);
    CHECK(cnt == 37 * 29, "ull collapse count %ld", cnt);
}

/* non-rectangular (triangular) nest, OpenMP 5.0 */
#define TRI(fname, SCHED)                                                                    \
    static void fname(int n)                                                                 \
    {                                                                                        \
        reset();                                                                             \
        long cnt = 0;                                                                        \
        PRAGMA(omp parallel for collapse(2) SCHED reduction(+ : cnt))                        \
        for (int i = 0; i < n; i++)                                                          \
            for (int j = i; j < n; j++) {                                                    \
                __atomic_add_fetch(&hits[i][j][0], 1, __ATOMIC_RELAXED);                     \
                cnt++;                                                                       \
            }                                                                                \
        for (int i = 0; i < n; i++)                                                          \
            for (int j = 0; j < n; j++)                                                      \
                CHECK(hits[i][j][0] == (j >= i), "%s triangular (%d,%d) %d", #SCHED, i, j,   \
                      hits[i][j][0]);                                                        \
        CHECK(cnt == (long)n * (n + 1) / 2, "triangular count %ld", cnt);                    \
    }
TRI(tri_default, ) /* gcc 12 allows no schedule clause on non-rectangular loops */

int main(void)
{
    static const int p2[][6] = {
        {0, 30, 1, 0, 30, 1}, {0, 37, 3, -5, 20, 2}, {5, 6, 1, 0, 1, 1} /* 1 iteration */,
        {0, 10, 1, 4, 4, 1} /* empty inner */, {3, 3, 1, 0, 9, 1} /* empty outer */,
        {-20, 20, 7, -40, 39, 3},
    };
    static const int p3[][3] = {{5, 7, 9}, {1, 1, 1}, {0, 5, 5}, {4, 0, 3}, {13, 3, 17}, {2, 31, 2}};
    for (unsigned f = 0; f < sizeof c2_fns / sizeof c2_fns[0]; f++)
        for (unsigned p = 0; p < sizeof p2 / sizeof p2[0]; p++)
            c2_fns[f](p2[p][0], p2[p][1], p2[p][2], p2[p][3], p2[p][4], p2[p][5]);
    for (unsigned f = 0; f < sizeof c3_fns / sizeof c3_fns[0]; f++)
        for (unsigned p = 0; p < sizeof p3 / sizeof p3[0]; p++)
            c3_fns[f](p3[p][0], p3[p][1], p3[p][2]);
    c2_ull(0);
    c2_ull(1ULL << 34);
    c2_ull((1ULL << 63) - 20);
    for (int n = 0; n < 30; n += 7) {
        tri_default(n);
    }
    return 0;
}
