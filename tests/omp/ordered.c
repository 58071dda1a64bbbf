// ordered.c - `ordered` regions run in iteration order for every schedule and
// chunk, increasing and decreasing, int, long and unsigned long long loops.
// ilan-test: tsan threads=1,2,3,8,16,64
#include "check.h"

#define PRAGMA(x) _Pragma(#x)
#define MAXN 2000

static long seq[MAXN];
static int pos;

#define ORD(fname, T, SCHED)                                                                 \
    __attribute__((noinline)) static void fname(T lb, T ub, T st, int down)                  \
    {                                                                                        \
        pos = 0;                                                                             \
        long expect_n = 0;                                                                   \
        long cnt = 0;                                                                        \
        if (!down) {                                                                         \
            for (T i = lb; i < ub; i += st) expect_n++;                                      \
            PRAGMA(omp parallel for ordered SCHED reduction(+ : cnt))                        \
            for (T i = lb; i < ub; i += st) {                                                \
                cnt++; /* unordered part */                                                  \
                _Pragma("omp ordered")                                                       \
                { seq[pos++] = (long)((i - lb) / st); }                                      \
            }                                                                                \
        } else {                                                                             \
            for (T i = ub; i > lb; i -= st) expect_n++;                                      \
            PRAGMA(omp parallel for ordered SCHED reduction(+ : cnt))                        \
            for (T i = ub; i > lb; i -= st) {                                                \
                cnt++;                                                                       \
                _Pragma("omp ordered")                                                       \
                { seq[pos++] = (long)((ub - i) / st); }                                      \
            }                                                                                \
        }                                                                                    \
        CHECK(cnt == expect_n && pos == expect_n, "%s %s: %ld iterations, %d ordered, want %ld", \
              #T, #SCHED, cnt, pos, expect_n);                                               \
        for (long k = 0; k < expect_n; k++)                                                  \
            CHECK(seq[k] == k, "%s %s down=%d: ordered position %ld holds iteration %ld", #T,   \
                  #SCHED, down, k, seq[k]);                                                  \
    }

#define SCHEDS(X, T, P)                                                                      \
    X(P##_static, T, schedule(static))                                                       \
    X(P##_static1, T, schedule(static, 1))                                                   \
    X(P##_static3, T, schedule(static, 3))                                                   \
    X(P##_static64, T, schedule(static, 64))                                                 \
    X(P##_dynamic, T, schedule(dynamic))                                                     \
    X(P##_dynamic3, T, schedule(dynamic, 3))                                                 \
    X(P##_dynamic64, T, schedule(dynamic, 64))                                               \
    X(P##_guided, T, schedule(guided))                                                       \
    X(P##_guided3, T, schedule(guided, 3))                                                   \
    X(P##_runtime, T, schedule(runtime))                                                     \
    X(P##_auto, T, schedule(auto))                                                           \
    X(P##_mdynamic, T, schedule(monotonic : dynamic, 2))                                     \
    X(P##_default, T, )

typedef unsigned long long ull;
SCHEDS(ORD, int, oi)
SCHEDS(ORD, long, ol)
SCHEDS(ORD, ull, ou)
#define ENTRY(fname, T, SCHED) fname,
static void (*int_fns[])(int, int, int, int) = {SCHEDS(ENTRY, int, oi)};
static void (*long_fns[])(long, long, long, int) = {SCHEDS(ENTRY, long, ol)};
static void (*ull_fns[])(ull, ull, ull, int) = {SCHEDS(ENTRY, ull, ou)};

int main(void)
{
    for (unsigned f = 0; f < sizeof int_fns / sizeof int_fns[0]; f++) {
        for (int down = 0; down < 2; down++) {
            int_fns[f](0, 300, 1, down);
            int_fns[f](-100, 200, 7, down);
            int_fns[f](3, 3, 1, down);
            int_fns[f](3, 4, 1, down);
            long_fns[f](-(1L << 35), -(1L << 35) + 250, 3, down);
            ull_fns[f]((1ULL << 63) - 100, (1ULL << 63) + 150, 1, down);
            ull_fns[f](1ULL << 40, (1ULL << 40) + 999, 11, down);
        }
    }
    /* runtime schedule set to each kind */
    static const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided,
                                        omp_sched_auto};
    for (int k = 0; k < 4; k++)
        for (int c = 0; c <= 4; c += 2) {
            omp_set_schedule(kinds[k], c);
            oi_runtime(0, 200, 1, 0);
            ou_runtime(5, 300, 2, 1);
        }

    /* ordered in an orphaned loop with nowait, and per-thread monotonic id */
    {
        int nthr = 0;
        pos = 0;
#pragma omp parallel
        {
#pragma omp single
            nthr = omp_get_num_threads();
#pragma omp for ordered schedule(dynamic, 2) nowait
            for (int i = 0; i < 400; i++) {
#pragma omp ordered
                seq[pos++] = i;
            }
        }
        CHECK(pos == 400, "nowait ordered count %d", pos);
        for (int i = 0; i < 400; i++) CHECK(seq[i] == i, "nowait ordered seq[%d]=%ld", i, seq[i]);
        (void)nthr;
    }
    /* ordered with only some iterations entering the ordered region */
    {
        pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 3)
        for (int i = 0; i < 500; i++) {
            if (i % 7 == 0) {
#pragma omp ordered
                seq[pos++] = i;
            }
        }
        CHECK(pos == (500 + 6) / 7, "sparse ordered count %d", pos);
        for (int k = 0; k < pos; k++) CHECK(seq[k] == 7L * k, "sparse ordered seq[%d]=%ld", k, seq[k]);
    }
    return 0;
}
