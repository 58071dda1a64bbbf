/* _loops.h - generic "every iteration exactly once" loop checks, shared by the
 * loops_*.c tests.  Not a test itself (leading underscore).
 *
 * DEFINE_LOOP_TESTS(fname, T, SIGNED, SCHED) defines
 *     static void fname(T lb, T ub, T st)
 * which runs the worksharing loop `#pragma omp for SCHED` over the canonical
 * forms  i = lb; i < ub; i += st   /  i <= ub   /  i = ub; i > lb; i -= st  /
 * i >= lb (when it cannot wrap) / i += -st (signed types) / i != ub (st == 1),
 * and checks against a serial execution: every iteration ran exactly once,
 * lastprivate holds the sequentially last value, and reductions match.
 */
#ifndef ILAN_TEST_LOOPS_H
#define ILAN_TEST_LOOPS_H
#include "check.h"

#define PRAGMA(x) _Pragma(#x)
#define LOOP_MAXN 8192
/* gcc 12 bug: a decreasing loop over an unsigned type narrower than long with
   a runtime-scheduled (dynamic/guided/runtime/...) schedule passes the step
   zero-extended (e.g. 4294967295 instead of -1) to GOMP_loop_*_start, so the
   loop runs zero iterations on every runtime.  Such loops are not tested. */
#define LOOP_DEC_OK(T, SIGNED) ((SIGNED) || sizeof(T) >= sizeof(long))
/* b - a computed without signed overflow (a <= b) */
#define LOOP_UDIFF(b, a) ((unsigned long long)(b) - (unsigned long long)(a))

static int loop_hits[LOOP_MAXN];
static const char *loop_what = "";

static void loop_check_hits(long n, long cnt, long long sum, const char *form,
                            const char *sched, long long lb, long long ub, long long st)
{
    CHECK(n <= LOOP_MAXN, "too many iterations %ld", n);
    for (long k = 0; k < n; k++)
        CHECK(loop_hits[k] == 1,
              "%s %s %s lb=%lld ub=%lld st=%lld: iteration %ld ran %d times (n=%ld)", loop_what,
              sched, form, lb, ub, st, k, loop_hits[k], n);
    for (long k = n; k < n + 4 && k < LOOP_MAXN; k++)
        CHECK(loop_hits[k] == 0, "%s %s %s: out-of-range index %ld hit", loop_what, sched, form,
              k);
    CHECK(cnt == n, "%s %s %s lb=%lld ub=%lld st=%lld: count %ld, serial %ld", loop_what, sched,
          form, lb, ub, st, cnt, n);
    CHECK(sum == (long long)n * (n - 1) / 2, "%s %s %s: index sum %lld", loop_what, sched, form,
          sum);
}

/* Results of the form that ran last; checked by the next form's `single`
   (or at the end of the region), so each form costs two barriers. */
static struct {
    const char *form, *sched;
    long n, cnt;
    long long sum, last, slast, lb, ub, st;
} loop_pending;

static void loop_check_pending(void)
{
    if (!loop_pending.form) return;
    loop_check_hits(loop_pending.n, loop_pending.cnt, loop_pending.sum, loop_pending.form,
                    loop_pending.sched, loop_pending.lb, loop_pending.ub, loop_pending.st);
    if (loop_pending.n > 0)
        CHECK(loop_pending.last == loop_pending.slast,
              "%s %s %s lb=%lld ub=%lld st=%lld: lastprivate %lld, serial %lld", loop_what,
              loop_pending.sched, loop_pending.form, loop_pending.lb, loop_pending.ub,
              loop_pending.st, loop_pending.last, loop_pending.slast);
    loop_pending.form = NULL;
}

/* Runs inside the parallel region opened by DEFINE_LOOP_TESTS; the serial
   reference and the checks run in `single` constructs; last_s, cnt_s, sum_s
   are shared variables of the caller. */
#define LOOP_FORM(T, SCHED, FORM, INIT, COND, INCR, IDX)                                     \
    do {                                                                                    \
        _Pragma("omp single")                                                               \
        {                                                                                   \
            if (loop_pending.form) {                                                        \
                loop_pending.cnt = cnt_s;                                                   \
                loop_pending.sum = sum_s;                                                   \
                loop_pending.last = (long long)last_s;                                      \
            }                                                                               \
            loop_check_pending();                                                           \
            long n_ = 0;                                                                    \
            T slast_ = (T)0;                                                                \
            for (T i = INIT; COND; INCR) {                                                  \
                slast_ = i;                                                                 \
                n_++;                                                                       \
                if (n_ > LOOP_MAXN) break;                                                  \
            }                                                                               \
            CHECK(n_ <= LOOP_MAXN, "%s %s: serial loop too long lb=%lld ub=%lld",           \
                  loop_what, FORM, (long long)lb, (long long)ub);                           \
            memset(loop_hits, 0,                                                            \
                   sizeof(int) * (size_t)(n_ + 4 < LOOP_MAXN ? n_ + 4 : LOOP_MAXN));        \
            loop_pending.form = FORM;                                                       \
            loop_pending.sched = #SCHED;                                                    \
            loop_pending.n = n_;                                                            \
            loop_pending.slast = (long long)slast_;                                         \
            loop_pending.lb = (long long)lb;                                                \
            loop_pending.ub = (long long)ub;                                                \
            loop_pending.st = (long long)st;                                                \
            last_s = (T)0x5a;                                                               \
            cnt_s = 0;                                                                      \
            sum_s = 0;                                                                      \
        }                                                                                   \
        PRAGMA(omp for SCHED lastprivate(last_s) reduction(+ : cnt_s, sum_s))               \
        for (T i = INIT; COND; INCR) {                                                      \
            long k_ = (long)(IDX);                                                          \
            if (k_ >= 0 && k_ < LOOP_MAXN)                                                  \
                __atomic_add_fetch(&loop_hits[k_], 1, __ATOMIC_RELAXED);                    \
            else                                                                            \
                __atomic_add_fetch(&loop_hits[LOOP_MAXN - 1], 1000, __ATOMIC_RELAXED);      \
            last_s = i;                                                                     \
            cnt_s++;                                                                        \
            sum_s += k_;                                                                    \
        }                                                                                   \
    } while (0)

#define DEFINE_LOOP_TESTS(fname, T, SIGNED, SCHED)                                          \
    __attribute__((noinline)) static void fname(T lb, T ub, T st)                           \
    {                                                                                       \
        long cnt_s = 0;                                                                     \
        long long sum_s = 0;                                                                \
        T last_s = 0;                                                                       \
        T nst = (T)(0 - st);                                                                \
        _Pragma("omp parallel")                                                             \
        {                                                                                   \
            LOOP_FORM(T, SCHED, "i<ub,i+=st", lb, i < ub, i += st, LOOP_UDIFF(i, lb) / (unsigned long long)st);          \
            LOOP_FORM(T, SCHED, "i<=ub,i+=st", lb, i <= ub, i += st, LOOP_UDIFF(i, lb) / (unsigned long long)st);        \
            if (LOOP_DEC_OK(T, SIGNED) && (SIGNED || lb + 1 >= st))                         \
                LOOP_FORM(T, SCHED, "i>lb,i-=st", ub, i > lb, i -= st, LOOP_UDIFF(ub, i) / (unsigned long long)st);          \
            if (LOOP_DEC_OK(T, SIGNED) && (SIGNED || lb >= st))                             \
                LOOP_FORM(T, SCHED, "i>=lb,i-=st", ub, i >= lb, i -= st, LOOP_UDIFF(ub, i) / (unsigned long long)st);    \
            if (SIGNED)                                                                     \
                LOOP_FORM(T, SCHED, "i>lb,i+=-st", ub, i > lb, i += nst, LOOP_UDIFF(ub, i) / (unsigned long long)st);    \
            if (st == 1 && lb <= ub) {                                                      \
                LOOP_FORM(T, SCHED, "i!=ub,i++", lb, i != ub, i++, LOOP_UDIFF(i, lb));                 \
                if (LOOP_DEC_OK(T, SIGNED))                                                 \
                    LOOP_FORM(T, SCHED, "i!=lb,i--", ub, i != lb, i--, LOOP_UDIFF(ub, i));  \
            }                                                                               \
        }                                                                                   \
        loop_pending.cnt = cnt_s;                                                           \
        loop_pending.sum = sum_s;                                                           \
        loop_pending.last = (long long)last_s;                                              \
        loop_check_pending();                                                               \
        (void)nst;                                                                          \
    }

/* The schedules every type is tried with. */
#define FOR_EACH_SCHEDULE(X, T, SIGNED, P)                                                  \
    X(P##_static, T, SIGNED, schedule(static))                                              \
    X(P##_static1, T, SIGNED, schedule(static, 1))                                          \
    X(P##_static3, T, SIGNED, schedule(static, 3))                                          \
    X(P##_static64, T, SIGNED, schedule(static, 64))                                        \
    X(P##_dynamic, T, SIGNED, schedule(dynamic))                                            \
    X(P##_dynamic1, T, SIGNED, schedule(dynamic, 1))                                        \
    X(P##_dynamic3, T, SIGNED, schedule(dynamic, 3))                                        \
    X(P##_dynamic64, T, SIGNED, schedule(dynamic, 64))                                      \
    X(P##_guided, T, SIGNED, schedule(guided))                                              \
    X(P##_guided1, T, SIGNED, schedule(guided, 1))                                          \
    X(P##_guided3, T, SIGNED, schedule(guided, 3))                                          \
    X(P##_guided64, T, SIGNED, schedule(guided, 64))                                        \
    X(P##_runtime, T, SIGNED, schedule(runtime))                                            \
    X(P##_auto, T, SIGNED, schedule(auto))                                                  \
    X(P##_nmdynamic, T, SIGNED, schedule(nonmonotonic : dynamic))                           \
    X(P##_nmdynamic3, T, SIGNED, schedule(nonmonotonic : dynamic, 3))                       \
    X(P##_mdynamic, T, SIGNED, schedule(monotonic : dynamic))                               \
    X(P##_mdynamic3, T, SIGNED, schedule(monotonic : dynamic, 3))                           \
    X(P##_mguided, T, SIGNED, schedule(monotonic : guided, 2))                              \
    X(P##_nmguided, T, SIGNED, schedule(nonmonotonic : guided, 5))                          \
    X(P##_mstatic, T, SIGNED, schedule(monotonic : static, 2))                              \
    X(P##_default, T, SIGNED, )

#define LOOP_FN_ENTRY(fname, T, SIGNED, SCHED) {#SCHED, fname},

#endif
