// loops_sched.c - every iteration runs exactly once under every loop schedule
// ilan adds (adaptive for plain schedule(dynamic[,c]); adaptive, static_steal,
// fac2, tss, af and auto through schedule(runtime)), for randomly drawn bounds,
// positive and negative steps and chunk sizes, long and unsigned long long
// loops, collapse(2), nowait, lastprivate, reductions and empty loops; the
// iterations cost different amounts so that threads steal from each other.
// ilan-test: threads=1,2,3,8,33 tsan
#include <omp.h>
#include "check.h"

#define MAXN 3000
enum { K_TSS = 101, K_STEAL = 102, K_ADAPTIVE = 110, K_FAC2 = 111, K_AF = 112 };
static const int kinds[] = {K_ADAPTIVE, K_STEAL, K_FAC2, K_TSS, K_AF, omp_sched_auto,
                            omp_sched_dynamic, omp_sched_guided, omp_sched_static};
#define NKINDS (int)(sizeof kinds / sizeof kinds[0])

static int hits[MAXN], hits2[MAXN];
static uint64_t rng = 12345;

static long draw(long lo, long hi) /* in [lo, hi] */
{
    rng = test_mix(rng);
    return lo + (long)(rng % (uint64_t)(hi - lo + 1));
}

/* Work that differs between iterations, so that some threads run out first. */
static void work(long i)
{
    volatile unsigned x = 0;
    unsigned n = (unsigned)(test_mix((uint64_t)i) % 64) * ((i & 7) == 0 ? 40 : 1);
    for (unsigned k = 0; k < n; k++)
        x += k;
}

static void check_hits(const int *h, long n, const char *what, int kind, long chunk)
{
    for (long k = 0; k < n; k++)
        CHECK(h[k] == 1, "%s kind %d chunk %ld: iteration %ld of %ld ran %d times", what, kind,
              chunk, k, n, h[k]);
    for (long k = n; k < MAXN; k++)
        CHECK(h[k] == 0, "%s kind %d chunk %ld: index %ld past %ld ran", what, kind, chunk, k, n);
}

/* One iteration of long_loop: count it, work, reduce, remember. */
#define BODY                                                                                       \
    {                                                                                              \
        long k = (i - lb) / st;                                                                    \
        __atomic_add_fetch(&hits[k], 1, __ATOMIC_RELAXED);                                         \
        work(k);                                                                                   \
        sum += k;                                                                                  \
        last = i;                                                                                  \
        count++;                                                                                   \
    }

/* A long loop lb..ub (exclusive) by st (either sign), schedule(runtime) and
 * schedule(dynamic, chunk), with a reduction and lastprivate. */
static void long_loop(int kind, long chunk, long lb, long ub, long st)
{
    long n = st > 0 ? (ub > lb ? (ub - lb + st - 1) / st : 0)
                    : (lb > ub ? (lb - ub - st - 1) / -st : 0);
    CHECK(n <= MAXN, "n %ld", n);
    long last_want = n ? lb + (n - 1) * st : -7;
    for (int form = 0; form < 2; form++) {
        memset(hits, 0, sizeof hits);
        long sum = 0, last = -7, count = 0;
        omp_set_schedule((omp_sched_t)kind, (int)chunk);
#pragma omp parallel reduction(+ : count)
        {
            if (form == 0 && st > 0) {
#pragma omp for schedule(runtime) reduction(+ : sum) lastprivate(last)
                for (long i = lb; i < ub; i += st)
                    BODY
            } else if (form == 0) {
#pragma omp for schedule(runtime) reduction(+ : sum) lastprivate(last)
                for (long i = lb; i > ub; i += st)
                    BODY
            } else if (st > 0) {
#pragma omp for schedule(dynamic, chunk) reduction(+ : sum) lastprivate(last)
                for (long i = lb; i < ub; i += st)
                    BODY
            } else {
#pragma omp for schedule(dynamic, chunk) reduction(+ : sum) lastprivate(last)
                for (long i = lb; i > ub; i += st)
                    BODY
            }
        }
        check_hits(hits, n, form ? "long dynamic" : "long runtime", kind, chunk);
        CHECK(sum == n * (n - 1) / 2 && count == n, "long kind %d: sum %ld count %ld n %ld", kind,
              sum, count, n);
        if (n)
            CHECK(last == last_want, "long kind %d lastprivate %ld want %ld", kind, last, last_want);
    }
}

/* An unsigned long long loop near the top of the range, up or down. */
static void ull_loop(int kind, long chunk, unsigned long long base, long n, int down)
{
    memset(hits, 0, sizeof hits);
    unsigned long long s = 0;
    omp_set_schedule((omp_sched_t)kind, (int)chunk);
#pragma omp parallel
    {
        if (!down) {
#pragma omp for schedule(runtime) reduction(+ : s)
            for (unsigned long long i = base; i < base + (unsigned long long)n; i++) {
                __atomic_add_fetch(&hits[i - base], 1, __ATOMIC_RELAXED);
                work((long)(i - base));
                s += i - base;
            }
        } else {
#pragma omp for schedule(dynamic, chunk) reduction(+ : s)
            for (unsigned long long i = base + (unsigned long long)n; i > base; i--) {
                __atomic_add_fetch(&hits[i - base - 1], 1, __ATOMIC_RELAXED);
                work((long)(i - base));
                s += i - base - 1;
            }
        }
    }
    check_hits(hits, n, down ? "ull down" : "ull up", kind, chunk);
    CHECK(s == (unsigned long long)n * (unsigned long long)(n ? n - 1 : 0) / 2, "ull sum");
}

/* collapse(2), then two nowait loops back to back in one region. */
static void collapse_nowait(int kind, long chunk, long a, long b)
{
    memset(hits, 0, sizeof hits);
    memset(hits2, 0, sizeof hits2);
    omp_set_schedule((omp_sched_t)kind, (int)chunk);
#pragma omp parallel
    {
#pragma omp for schedule(runtime) collapse(2) nowait
        for (long i = 0; i < a; i++)
            for (long j = b; j > 0; j--) {
                __atomic_add_fetch(&hits[i * b + (b - j)], 1, __ATOMIC_RELAXED);
                work(i + j);
            }
#pragma omp for schedule(dynamic, chunk) nowait
        for (long i = 0; i < a * b; i++) {
            __atomic_add_fetch(&hits2[i], 1, __ATOMIC_RELAXED);
            work(i * 3);
        }
    }
    check_hits(hits, a * b, "collapse(2)", kind, chunk);
    check_hits(hits2, a * b, "nowait", kind, chunk);
}

int main(void)
{
    static const long chunks[] = {0, 1, 2, 3, 7, 64, 1000};
    for (int rep = 0; rep < 60; rep++) {
        int kind = kinds[rep % NKINDS];
        long chunk = chunks[draw(0, 6)];
        /* long_loop has lastprivate: gcc's code copies it out on every
         * thread of an empty loop (a race TSan reports), so it gets >= 1. */
        long lb = draw(-2000, 2000), len = draw(1, MAXN - 1), st = draw(1, 5);
        if (draw(0, 1))
            long_loop(kind, chunk, lb, lb + len, st);
        else
            long_loop(kind, chunk, lb + len, lb, -st);
        ull_loop(kind, chunk, ~0ULL - (unsigned long long)draw(MAXN, 4 * MAXN), draw(0, MAXN),
                 (int)draw(0, 1));
        collapse_nowait(kind, chunk, draw(0, 40), draw(0, 70));
    }
    /* One identity executed often under auto: warm-up, the trial of every
     * candidate, then the choice; every execution must still be exact. */
    for (int rep = 0; rep < 40; rep++)
        long_loop(omp_sched_auto, 0, 0, 2000, 1);
    /* Empty loops and loops shorter than the team, every kind. */
    for (int k = 0; k < NKINDS; k++)
        for (long n = 0; n < 5; n++) {
            if (n)
                long_loop(kinds[k], 1, 10, 10 + n, 1);
            ull_loop(kinds[k], 1, 5, n, 0);
            collapse_nowait(kinds[k], 1, n, 3);
        }
    return 0;
}
