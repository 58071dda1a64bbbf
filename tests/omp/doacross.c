// doacross.c - ordered(1)/ordered(2) loops with depend(sink:)/depend(source):
// wavefront recurrences must equal the serial result (static, dynamic,
// guided, runtime schedules; long and unsigned long long iteration spaces).
// ilan-test: tsan threads=1,2,3,8,16,64
#include "check.h"

#define PRAGMA(x) _Pragma(#x)
#define MOD 1000003L
#define N1 300
#define R 24
#define C 30

static long v1[N1 + 8];
static long ser1[N1 + 8];
static long g[R][C], gs[R][C];

/* Team size.  GNU libgomp's GOMP_doacross_wait busy-spins without ever
   sleeping, so oversubscribed doacross loops take minutes there; when the test
   runs on another runtime (ILAN_TEST_ANY_RUNTIME=1) the team is capped at the
   number of processors.  On ilan the full OMP_NUM_THREADS team is used:
   waiting must not starve the thread that posts. */
static int team = 1;

static long f1(long a, long b, long i) { return (a * 7 + b * 3 + i) % MOD; }

#define D1(fname, SCHED)                                                                     \
    __attribute__((noinline)) static void fname(void)                                        \
    {                                                                                        \
        for (int i = 0; i < N1 + 8; i++) v1[i] = i < 3 ? i + 1 : -1;                         \
        PRAGMA(omp parallel for ordered(1) SCHED num_threads(team))                                            \
        for (int i = 3; i < N1; i++) {                                                       \
            _Pragma("omp ordered depend(sink: i - 1) depend(sink: i - 3)")                   \
            v1[i] = f1(v1[i - 1], v1[i - 3], i);                                             \
            _Pragma("omp ordered depend(source)")                                            \
        }                                                                                    \
        for (int i = 0; i < N1; i++)                                                         \
            CHECK(v1[i] == ser1[i], "%s ordered(1): v[%d]=%ld, serial %ld", #SCHED, i, v1[i], \
                  ser1[i]);                                                                  \
    }

#define D2(fname, SCHED)                                                                     \
    __attribute__((noinline)) static void fname(void)                                        \
    {                                                                                        \
        for (int i = 0; i < R; i++)                                                          \
            for (int j = 0; j < C; j++) g[i][j] = (i == 0 || j == 0) ? i * 3 + j + 1 : -1;   \
        PRAGMA(omp parallel for ordered(2) SCHED num_threads(team))                                            \
        for (int i = 1; i < R; i++)                                                          \
            for (int j = 1; j < C; j++) {                                                    \
                _Pragma("omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1) depend(sink: i - 1, j + 1)") \
                g[i][j] = f1(g[i - 1][j] + (j + 1 < C ? g[i - 1][j + 1] : 0), g[i][j - 1], i * C + j); \
                _Pragma("omp ordered depend(source)")                                        \
            }                                                                                \
        for (int i = 0; i < R; i++)                                                          \
            for (int j = 0; j < C; j++)                                                      \
                CHECK(g[i][j] == gs[i][j], "%s ordered(2): g[%d][%d]=%ld, serial %ld", #SCHED, \
                      i, j, g[i][j], gs[i][j]);                                              \
    }

/* collapse(2) ordered(2): the doacross space is the collapsed space */
#define D2C(fname, SCHED)                                                                    \
    __attribute__((noinline)) static void fname(void)                                        \
    {                                                                                        \
        for (int i = 0; i < R; i++)                                                          \
            for (int j = 0; j < C; j++) g[i][j] = (i == 0 || j == 0) ? i * 3 + j + 1 : -1;   \
        PRAGMA(omp parallel for collapse(2) ordered(2) SCHED num_threads(team))                                \
        for (int i = 1; i < R; i++)                                                          \
            for (int j = 1; j < C; j++) {                                                    \
                _Pragma("omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1) depend(sink: i - 1, j + 1)") \
                g[i][j] = f1(g[i - 1][j] + (j + 1 < C ? g[i - 1][j + 1] : 0), g[i][j - 1], i * C + j); \
                _Pragma("omp ordered depend(source)")                                        \
            }                                                                                \
        for (int i = 0; i < R; i++)                                                          \
            for (int j = 0; j < C; j++)                                                      \
                CHECK(g[i][j] == gs[i][j], "%s collapse ordered(2): g[%d][%d]=%ld vs %ld",   \
                      #SCHED, i, j, g[i][j], gs[i][j]);                                      \
    }

/* unsigned long long iteration space above 2^32 (GOMP_doacross_ull_*) */
#define DU(fname, SCHED)                                                                     \
    __attribute__((noinline)) static void fname(unsigned long long base)                     \
    {                                                                                        \
        for (int i = 0; i < N1 + 8; i++) v1[i] = i < 3 ? i + 1 : -1;                         \
        PRAGMA(omp parallel for ordered(1) SCHED num_threads(team))                                            \
        for (unsigned long long i = base + 3; i < base + N1; i++) {                          \
            _Pragma("omp ordered depend(sink: i - 1) depend(sink: i - 3)")                   \
            v1[i - base] = f1(v1[i - base - 1], v1[i - base - 3], (long)(i - base));         \
            _Pragma("omp ordered depend(source)")                                            \
        }                                                                                    \
        for (int i = 0; i < N1; i++)                                                         \
            CHECK(v1[i] == ser1[i], "%s ull ordered(1): v[%d]=%ld, serial %ld", #SCHED, i,   \
                  v1[i], ser1[i]);                                                           \
    }

#define SCHEDS(X, P)                                                                         \
    X(P##_static, schedule(static))                                                          \
    X(P##_static1, schedule(static, 1))                                                      \
    X(P##_static4, schedule(static, 4))                                                      \
    X(P##_dynamic, schedule(dynamic))                                                        \
    X(P##_dynamic3, schedule(dynamic, 3))                                                    \
    X(P##_guided, schedule(guided))                                                          \
    X(P##_guided2, schedule(guided, 2))                                                      \
    X(P##_runtime, schedule(runtime))                                                        \
    X(P##_default, )

SCHEDS(D1, d1)
SCHEDS(D2, d2)
SCHEDS(D2C, d2c)
SCHEDS(DU, du)
#define ENTRY(fname, SCHED) fname,
static void (*d1_fns[])(void) = {SCHEDS(ENTRY, d1)};
static void (*d2_fns[])(void) = {SCHEDS(ENTRY, d2)};
static void (*d2c_fns[])(void) = {SCHEDS(ENTRY, d2c)};
static void (*du_fns[])(unsigned long long) = {SCHEDS(ENTRY, du)};

int main(void)
{
    team = omp_get_max_threads();
    if (!ilan_test_on_ilan() && team > omp_get_num_procs()) team = omp_get_num_procs();
    for (int i = 0; i < 3; i++) ser1[i] = i + 1;
    for (int i = 3; i < N1; i++) ser1[i] = f1(ser1[i - 1], ser1[i - 3], i);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) gs[i][j] = (i == 0 || j == 0) ? i * 3 + j + 1 : -1;
    for (int i = 1; i < R; i++)
        for (int j = 1; j < C; j++)
            gs[i][j] = f1(gs[i - 1][j] + (j + 1 < C ? gs[i - 1][j + 1] : 0), gs[i][j - 1], i * C + j);

    for (unsigned f = 0; f < sizeof d1_fns / sizeof d1_fns[0]; f++) {
        d1_fns[f]();
        d2_fns[f]();
        d2c_fns[f]();
        du_fns[f](0);
        du_fns[f](1ULL << 36);
    }
    static const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided,
                                        omp_sched_auto};
    for (int k = 0; k < 4; k++) {
        omp_set_schedule(kinds[k], k == 3 ? 0 : 2);
        d1_runtime();
        d2_runtime();
        du_runtime(1ULL << 40);
    }
    return 0;
}
