// treduce_ws.c - task reductions on the constructs the reductions code
// wires by hand: sections / scope / ordered / doacross / unsigned loops
// with reduction(task, ...), orphaned taskgroup task_reduction and
// taskloop reduction (no enclosing parallel), a nested task_reduction of
// the same variable hiding the outer one, in_reduction tasks nested in
// in_reduction tasks, and many constructs in a row (work-share slots are
// reused). Results against closed forms.
// ilan-test: tsan modes=ilan,numa,ws
#include "check.h"

#define N 200

static long tri(long n) { return n * (n - 1) / 2; } /* 0 + 1 + ... + n-1 */

static void sections_and_scope(void)
{
    for (int rep = 0; rep < 20; rep++) {
        long s = 0, t = 0;
#pragma omp parallel
        {
#pragma omp sections reduction(task, + : s)
            {
#pragma omp section
                for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
                    s += i;
                }
#pragma omp section
                s += 1000;
#pragma omp section
                {
#pragma omp task in_reduction(+ : s)
                    s += 7;
                }
            }
#pragma omp scope reduction(task, + : t)
            {
                int me = omp_get_thread_num();
#pragma omp task in_reduction(+ : t) firstprivate(me)
                t += me + 1;
            }
        }
        CHECK(s == tri(N) + 1007, "sections reduction(task): %ld want %ld", s, tri(N) + 1007);
        /* every thread of the team adds its id + 1 once */
        long nt = 0;
#pragma omp parallel
#pragma omp single
        nt = omp_get_num_threads();
        CHECK(t == nt * (nt + 1) / 2, "scope reduction(task): %ld want %ld", t, nt * (nt + 1) / 2);
    }
}

static void loops(void)
{
    long s = 0, o = 0, d = 0;
    unsigned long long u = 0;
#pragma omp parallel
    {
#pragma omp for reduction(task, + : s) schedule(dynamic, 3)
        for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            s += i;
        }
#pragma omp for ordered reduction(task, + : o) schedule(guided)
        for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : o) firstprivate(i)
            o += 2 * i;
#pragma omp ordered
            o += 1;
        }
#pragma omp for ordered(1) reduction(task, + : d) schedule(static, 4)
        for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
#pragma omp task in_reduction(+ : d) firstprivate(i)
            d += 3 * i;
#pragma omp ordered depend(source)
        }
#pragma omp for reduction(task, + : u) schedule(runtime)
        for (unsigned long long v = ~0ULL - 3 * N; v < ~0ULL - N; v += 2) {
#pragma omp task in_reduction(+ : u)
            u += 1;
        }
    }
    CHECK(s == tri(N), "for reduction(task): %ld want %ld", s, tri(N));
    CHECK(o == 2 * tri(N) + N, "ordered for reduction(task): %ld want %ld", o, 2 * tri(N) + N);
    CHECK(d == 3 * tri(N), "doacross for reduction(task): %ld want %ld", d, 3 * tri(N));
    CHECK(u == N, "unsigned for reduction(task): %llu want %d", u, N);
}

static long orphan_w;

/* An orphaned worksharing loop (called outside any parallel region). */
static void orphaned_for(void)
{
#pragma omp for reduction(task, + : orphan_w)
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : orphan_w) firstprivate(i)
        orphan_w += i;
    }
}

static void orphaned(void)
{
    long s = 0, t = 0;
    /* no parallel region: a team of one */
#pragma omp taskgroup task_reduction(+ : s)
    {
        for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            s += i;
        }
    }
    CHECK(s == tri(N), "orphaned taskgroup task_reduction: %ld want %ld", s, tri(N));
#pragma omp taskloop reduction(+ : t) grainsize(7)
    for (int i = 0; i < N; i++)
        t += i;
    CHECK(t == tri(N), "orphaned taskloop reduction: %ld want %ld", t, tri(N));
    orphan_w = 0;
    orphaned_for();
    CHECK(orphan_w == tri(N), "orphaned for reduction(task): %ld want %ld", orphan_w, tri(N));
}

static void nested(void)
{
    long outer = 0, inner_seen = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : outer)
    {
        for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : outer) firstprivate(i)
            {
                outer += 1;
                /* a task in_reduction inside one: remaps a copy's address */
#pragma omp task in_reduction(+ : outer)
                outer += 10;
            }
        }
        long x = 0;
        /* the same kind of variable registered again, hiding nothing */
#pragma omp taskgroup task_reduction(+ : x)
        {
            for (int i = 0; i < 30; i++) {
#pragma omp task in_reduction(+ : x) firstprivate(i)
                x += i;
            }
        }
        inner_seen = x;
        /* in_reduction on the outer one still works after the inner group */
#pragma omp task in_reduction(+ : outer)
        outer += 100;
    }
    CHECK(outer == 20 * 11 + 100, "outer task_reduction: %ld want %d", outer, 20 * 11 + 100);
    CHECK(inner_seen == tri(30), "inner task_reduction: %ld want %ld", inner_seen, tri(30));
}

static void hiding(void)
{
    /* The same variable in nested task_reduction clauses: the inner group
     * reduces into the outer group's copy (the item in_reduction sees). */
    long s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : s)
    {
#pragma omp task in_reduction(+ : s)
        s += 1;
#pragma omp taskgroup task_reduction(+ : s)
        {
            for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
                s += i;
            }
        }
    }
    CHECK(s == 1 + tri(10), "nested task_reduction of one variable: %ld want %ld", s, 1 + tri(10));
}

int main(void)
{
    sections_and_scope();
    for (int rep = 0; rep < 5; rep++)
        loops();
    nested();
    for (int rep = 0; rep < 10; rep++)
        hiding();
    /* Last: libgomp leaves an orphaned task reduction's artificial team
     * behind, and later parallel regions there can hang. */
    orphaned();
    return 0;
}
