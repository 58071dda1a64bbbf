// taskloop_rules.c - how taskloop splits its iterations into tasks, observed
// from user code, for many (iterations, grainsize/num_tasks, strict, step
// sign, int/long/unsigned long long) combinations:
//   grainsize(g)          every task has >= g and < 2g iterations (one task
//                         with all of them when there are fewer than 2g)
//   grainsize(strict: g)  every task exactly g, except the last (<= g)
//   num_tasks(n)          exactly min(n, iterations) tasks (also strict)
//   no clause             every iteration once, tasks contiguous
// every iteration runs exactly once and each task's iterations are one
// contiguous range.  How a task is seen: `int id = -1` is firstprivate on
// the taskloop, so every task has its own copy starting at -1; the first
// iteration a task runs takes a task number from an atomic counter.
// Also: nogroup + taskwait, if(0), final, taskloop inside taskloop,
// collapse(2), lastprivate, and a taskloop run by every thread at once.
// ilan-test: tsan modes=ilan,numa,ws
#include "check.h"

#define PRAGMA(x) _Pragma(#x)
#define MAXN 5000

static int owner[MAXN];  /* task number of each logical iteration */
static int runs[MAXN];   /* times each logical iteration ran */
static int ntask;        /* tasks seen */
static long combos;

static inline void rec(long k, int *id)
{
    if (*id < 0)
        *id = __atomic_fetch_add(&ntask, 1, __ATOMIC_RELAXED);
    owner[k] = *id;
    __atomic_add_fetch(&runs[k], 1, __ATOMIC_RELAXED);
}

enum mode { M_NONE, M_GRAIN, M_GRAIN_STRICT, M_NTASKS, M_NTASKS_STRICT };
static const char *mname[] = {"default", "grainsize", "grainsize(strict)", "num_tasks",
                              "num_tasks(strict)"};

/* One function per (type, clause): runs the loop up or down from `start`
 * by `step` (a positive magnitude) and records logical iteration numbers. */
#define TL(fname, T, CLAUSE)                                                          \
    static void fname(T start, T end, T step, int up, int p)                          \
    {                                                                                 \
        int id = -1;                                                                  \
        (void)p;                                                                      \
        if (up) {                                                                     \
            PRAGMA(omp taskloop firstprivate(id) CLAUSE)                              \
            for (T i = start; i < end; i += step) rec((long)((i - start) / step), &id); \
        } else {                                                                      \
            PRAGMA(omp taskloop firstprivate(id) CLAUSE)                              \
            for (T i = start; i > end; i -= step) rec((long)((start - i) / step), &id); \
        }                                                                             \
    }
#define TYPE_FUNCS(S, T)                                                              \
    TL(S##_none, T, )                                                                 \
    TL(S##_grain, T, grainsize(p))                                                    \
    TL(S##_grain_strict, T, grainsize(strict : p))                                    \
    TL(S##_ntasks, T, num_tasks(p))                                                   \
    TL(S##_ntasks_strict, T, num_tasks(strict : p))

typedef unsigned long long ull;
TYPE_FUNCS(i32, int)
TYPE_FUNCS(i64, long)
TYPE_FUNCS(u64, ull)

static void check_split(const char *type, long n, int mode, int p, long step, int up)
{
    int nt = ntask;
    static long lo[MAXN], hi[MAXN], cnt[MAXN];
    char ctx[160];
    snprintf(ctx, sizeof ctx, "%s %s(%d) n=%ld step=%s%ld: ", type, mname[mode], p, n,
             up ? "+" : "-", step);
    for (int t = 0; t < nt; t++) lo[t] = MAXN, hi[t] = -1, cnt[t] = 0;
    for (long k = 0; k < n; k++) {
        CHECK(runs[k] == 1, "%s" "iteration %ld ran %d times", ctx, k, runs[k]);
        int t = owner[k];
        CHECK(t >= 0 && t < nt, "%s" "iteration %ld: bad task number %d", ctx, k, t);
        if (k < lo[t]) lo[t] = k;
        if (k > hi[t]) hi[t] = k;
        cnt[t]++;
    }
    CHECK(n > 0 || nt == 0, "%s" "%d tasks ran an iteration of an empty loop", ctx, nt);
    long smallest = MAXN, largest = 0, last_lo = -1, last_cnt = 0;
    for (int t = 0; t < nt; t++) {
        CHECK(cnt[t] > 0, "%s" "task %d ran no iteration", ctx, t);
        CHECK(hi[t] - lo[t] + 1 == cnt[t], "%s" "task %d ran %ld iterations in [%ld, %ld]: not contiguous", ctx,
              t, cnt[t], lo[t], hi[t]);
        if (cnt[t] < smallest) smallest = cnt[t];
        if (cnt[t] > largest) largest = cnt[t];
        if (lo[t] > last_lo) last_lo = lo[t], last_cnt = cnt[t];
    }
    if (n == 0)
        return;
    switch (mode) {
    case M_GRAIN:
        if (n < 2L * p)
            CHECK(nt == 1, "%s" "%d tasks, want 1 (fewer than 2g iterations)", ctx, nt);
        else
            CHECK(smallest >= p && largest < 2L * p, "%s" "%d tasks of %ld..%ld iterations, want [g, 2g)", ctx,
                  nt, smallest, largest);
        break;
    case M_GRAIN_STRICT:
        CHECK(nt == (n + p - 1) / p, "%s" "%d tasks, want ceil(n/g) = %ld", ctx, nt, (n + p - 1) / p);
        for (int t = 0; t < nt; t++)
            if (lo[t] != last_lo)
                CHECK(cnt[t] == p, "%s" "task at %ld has %ld iterations, want exactly g", ctx, lo[t], cnt[t]);
        CHECK(last_cnt == n - (long)(nt - 1) * p, "%s" "last task has %ld iterations, want %ld", ctx,
              last_cnt, n - (long)(nt - 1) * p);
        break;
    case M_NTASKS:
    case M_NTASKS_STRICT:
        CHECK(nt == (n < p ? n : p), "%s" "%d tasks, want min(n, num_tasks) = %ld", ctx, nt, n < p ? n : (long)p);
        break;
    default:
        break;
    }
}

typedef void (*fn_i32)(int, int, int, int, int);
typedef void (*fn_i64)(long, long, long, int, int);
typedef void (*fn_u64)(ull, ull, ull, int, int);

static const fn_i32 f32[] = {i32_none, i32_grain, i32_grain_strict, i32_ntasks, i32_ntasks_strict};
static const fn_i64 f64[] = {i64_none, i64_grain, i64_grain_strict, i64_ntasks, i64_ntasks_strict};
static const fn_u64 fu64[] = {u64_none, u64_grain, u64_grain_strict, u64_ntasks, u64_ntasks_strict};

static void reset(long n)
{
    memset(owner, -1, sizeof(int) * (size_t)(n > 0 ? n : 1));
    memset(runs, 0, sizeof(int) * (size_t)(n > 0 ? n : 1));
    ntask = 0;
}

static void one(int type, long n, int mode, int p, long step, int up)
{
    reset(n);
    switch (type) {
    case 0: { /* int around 0, may go negative */
        int s = up ? -1000 : 1000 + (int)(n * step);
        int e = up ? s + (int)(n * step) : 1000;
        if (up) e -= (int)(step - 1); /* end inside the last stride: same count */
        f32[mode](s, e, (int)step, up, p);
        break;
    }
    case 1: { /* long beyond 32 bits */
        long b = 1L << 40;
        long s = up ? b : b + n * step, e = up ? b + n * step : b;
        f64[mode](s, e, step, up, p);
        break;
    }
    default: { /* unsigned long long near the top of the range */
        ull b = ~0ULL - 100000;
        ull s = up ? b : b + (ull)(n * step), e = up ? b + (ull)(n * step) : b;
        fu64[mode](s, e, (ull)step, up, p);
        break;
    }
    }
    static const char *tn[] = {"int", "long", "unsigned long long"};
    check_split(tn[type], n, mode, p, step, up);
    combos++;
}

static void rules(void)
{
    static const long ns[] = {0, 1, 2, 3, 7, 16, 64, 65, 100, 257, 1000, 4099};
    static const int ps[] = {1, 2, 3, 7, 16, 64, 1000};
    for (int type = 0; type < 3; type++)
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (int mode = 0; mode < 5; mode++)
                for (size_t b = 0; b < sizeof ps / sizeof ps[0]; b++) {
                    long n = ns[a];
                    int p = ps[b];
                    if (mode == M_NONE && b > 0)
                        continue;
                    /* keep the task count moderate: grainsize 1 over 4099 once per type */
                    if (n > 1000 && p < 16 && !(p == 1 && mode == M_GRAIN))
                        continue;
                    int up = (int)((a + b + (size_t)mode) % 2);
                    long step = (a + (size_t)type) % 3 == 0 ? 3 : 1;
                    one(type, n, mode, p, step, up);
                    if (n == 100)
                        one(type, n, mode, p, 7, !up); /* the other direction */
                }
}

/* ---- other forms ---- */

static int hit[4096];

static void others(void)
{
    memset(hit, 0, sizeof hit);
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
        /* nogroup: complete at the explicit taskwait */
#pragma omp taskloop nogroup grainsize(5)
        for (int i = 0; i < 1000; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
        for (int i = 0; i < 1000; i++)
            if (hit[i] != 1)
                bad++;
        /* if(0) + nogroup: undeferred tasks, complete when the construct returns */
        int zero = bad < 0;
#pragma omp taskloop if (zero) nogroup num_tasks(10)
        for (int i = 0; i < 1000; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        for (int i = 0; i < 1000; i++)
            if (hit[i] != 2)
                bad++;
        /* final: the tasks and their descendants are final */
#pragma omp taskloop final(1) grainsize(100)
        for (int i = 0; i < 1000; i++) {
            if (!omp_in_final())
                __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        }
        /* untied, mergeable */
#pragma omp taskloop untied mergeable num_tasks(3)
        for (int i = 0; i < 1000; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < 1000; i++) CHECK(hit[i] == 4, "taskloop forms: iteration %d ran %d times of 4", i, hit[i]);
    CHECK(bad == 0, "nogroup/if(0)/final taskloops: %d bad", bad);

    /* taskloop inside taskloop */
    memset(hit, 0, sizeof hit);
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(4)
    for (int i = 0; i < 64; i++) {
#pragma omp taskloop num_tasks(5) firstprivate(i)
        for (int j = 0; j < 64; j++) __atomic_add_fetch(&hit[i * 64 + j], 1, __ATOMIC_RELAXED);
        /* the inner taskloop's implicit taskgroup ended: row i is complete */
        for (int j = 0; j < 64; j++)
            if (__atomic_load_n(&hit[i * 64 + j], __ATOMIC_RELAXED) != 1)
                __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < 4096; i++) CHECK(hit[i] == 1, "nested taskloops: %d ran %d times", i, hit[i]);
    CHECK(bad == 0, "inner taskloop rows incomplete: %d", bad);

    /* collapse(2) with grainsize, lastprivate */
    memset(hit, 0, sizeof hit);
    int last = -1;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop collapse(2) grainsize(33) lastprivate(last)
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < 70; j++) {
            __atomic_add_fetch(&hit[i * 70 + j], 1, __ATOMIC_RELAXED);
            last = i * 70 + j;
        }
    for (int i = 0; i < 3500; i++) CHECK(hit[i] == 1, "collapse(2) taskloop: %d ran %d times", i, hit[i]);
    CHECK(last == 3499, "taskloop lastprivate = %d, want 3499", last);

    /* every thread runs its own taskloop at the same time */
    memset(hit, 0, sizeof hit);
#pragma omp parallel
    {
#pragma omp taskloop grainsize(16)
        for (int i = 0; i < 4096; i++) __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
    }
    int nt = omp_get_max_threads();
    for (int i = 0; i < 4096; i++) CHECK(hit[i] == nt, "per-thread taskloops: %d ran %d times of %d", i, hit[i], nt);
}

int main(void)
{
#pragma omp parallel
#pragma omp single
    rules();
    /* outside any parallel region too (a team of one) */
    one(0, 257, M_GRAIN, 16, 1, 1);
    one(2, 100, M_NTASKS, 7, 3, 0);
    others();
    return 0;
}
