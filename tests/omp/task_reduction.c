// task_reduction.c - task reductions against serial results: taskgroup
// task_reduction + task in_reduction (nested groups, tasks created by every
// thread, in_reduction tasks that create more), taskloop reduction and
// taskloop in_reduction, `for reduction(task, ...)` and `parallel
// reduction(task, ...)` with tasks in_reduction, for +, *, max, min on int
// and double (values chosen so that double results are exact).
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

#define N 600

static int ival(int i) { return (i * 37) % 101 - 50; }
static double dval(int i) { return (double)((i * 13) % 29) - 14.0; }
/* factors whose product is exact and stays in range */
static int ifac(int i) { return i % 97 == 0 ? 2 : (i % 89 == 0 ? -1 : 1); }
static double dfac(int i) { return i % 50 == 0 ? 2.0 : (i % 75 == 0 ? 0.5 : 1.0); }

struct res {
    long sum;
    int prod, mx, mn;
    double dsum, dprod, dmx, dmn;
};

static struct res serial(int n)
{
    struct res r = {0, 1, -1000000, 1000000, 0, 1, -1e300, 1e300};
    for (int i = 0; i < n; i++) {
        r.sum += ival(i);
        r.prod *= ifac(i);
        r.mx = ival(i) > r.mx ? ival(i) : r.mx;
        r.mn = ival(i) < r.mn ? ival(i) : r.mn;
        r.dsum += dval(i);
        r.dprod *= dfac(i);
        r.dmx = dval(i) > r.dmx ? dval(i) : r.dmx;
        r.dmn = dval(i) < r.dmn ? dval(i) : r.dmn;
    }
    return r;
}

static void same(const char *what, struct res a, struct res w)
{
    CHECK(a.sum == w.sum, "%s: + int %ld, serial %ld", what, a.sum, w.sum);
    CHECK(a.prod == w.prod, "%s: * int %d, serial %d", what, a.prod, w.prod);
    CHECK(a.mx == w.mx, "%s: max int %d, serial %d", what, a.mx, w.mx);
    CHECK(a.mn == w.mn, "%s: min int %d, serial %d", what, a.mn, w.mn);
    CHECK(a.dsum == w.dsum, "%s: + double %g, serial %g", what, a.dsum, w.dsum);
    CHECK(a.dprod == w.dprod, "%s: * double %g, serial %g", what, a.dprod, w.dprod);
    CHECK(a.dmx == w.dmx, "%s: max double %g, serial %g", what, a.dmx, w.dmx);
    CHECK(a.dmn == w.dmn, "%s: min double %g, serial %g", what, a.dmn, w.dmn);
}

#define INIT_RES(r) struct res r = {0, 1, -1000000, 1000000, 0, 1, -1e300, 1e300}
#define RED_CLAUSES(KW)                                                                    \
    KW(+ : sum, dsum) KW(* : prod, dprod) KW(max : mx, dmx) KW(min : mn, dmn)
#define UPDATE(i)                                                                          \
    do {                                                                                   \
        sum += ival(i);                                                                    \
        prod *= ifac(i);                                                                   \
        mx = ival(i) > mx ? ival(i) : mx;                                                  \
        mn = ival(i) < mn ? ival(i) : mn;                                                  \
        dsum += dval(i);                                                                   \
        dprod *= dfac(i);                                                                  \
        dmx = dval(i) > dmx ? dval(i) : dmx;                                               \
        dmn = dval(i) < dmn ? dval(i) : dmn;                                               \
    } while (0)
#define LOCALS(r)                                                                          \
    long sum = r.sum;                                                                      \
    int prod = r.prod, mx = r.mx, mn = r.mn;                                               \
    double dsum = r.dsum, dprod = r.dprod, dmx = r.dmx, dmn = r.dmn
#define STORE(r)                                                                           \
    (r) = (struct res){sum, prod, mx, mn, dsum, dprod, dmx, dmn}

/* taskgroup task_reduction, tasks in_reduction, created by one thread. */
static void taskgroup_single(struct res want)
{
    INIT_RES(r0);
    LOCALS(r0);
#pragma omp parallel shared(sum, prod, mx, mn, dsum, dprod, dmx, dmn)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : sum, dsum) task_reduction(* : prod, dprod) \
    task_reduction(max : mx, dmx) task_reduction(min : mn, dmn)
    for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : sum, dsum) in_reduction(* : prod, dprod) \
    in_reduction(max : mx, dmx) in_reduction(min : mn, dmn) firstprivate(i)
        UPDATE(i);
    }
    struct res got;
    STORE(got);
    same("taskgroup task_reduction (single)", got, want);
}

/* Nested taskgroups on the same variable, in_reduction tasks that create
 * further in_reduction tasks, and the creating task itself participating. */
static void nested_in_reduction(void)
{
    long s = 0;
    double d = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : s, d)
        {
            for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : s, d) firstprivate(i)
                {
                    s += i;
                    d += 0.5;
                    for (int j = 0; j < 4; j++) {
#pragma omp task in_reduction(+ : s) firstprivate(j)
                        s += 1000 * j; /* 6000 per i */
                    }
                }
            }
#pragma omp taskgroup task_reduction(+ : s)
            {
                for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : s)
                    s += 7;
                }
            }
            /* the creating task in_reduction (an undeferred task) */
#pragma omp task in_reduction(+ : s) if (0)
            s += 100000;
        }
    }
    long want = 49 * 50 / 2 + 50 * 6000 + 140 + 100000;
    CHECK(s == want, "nested task reductions: %ld, want %ld", s, want);
    CHECK(d == 25.0, "nested task reductions (double): %g, want 25", d);
}

/* Every thread opens its own taskgroup with a task reduction at once. */
static void taskgroup_every_thread(void)
{
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        long s = 0;
        int me = omp_get_thread_num();
#pragma omp taskgroup task_reduction(+ : s)
        for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i, me)
            s += i + me;
        }
        if (s != 99 * 100 / 2 + 100L * me)
            bad++;
    }
    CHECK(bad == 0, "%d threads got a wrong per-thread task reduction", bad);
}

static void taskloop_reduction(struct res want)
{
    INIT_RES(r0);
    LOCALS(r0);
#pragma omp parallel shared(sum, prod, mx, mn, dsum, dprod, dmx, dmn)
#pragma omp single
#pragma omp taskloop reduction(+ : sum, dsum) reduction(* : prod, dprod) \
    reduction(max : mx, dmx) reduction(min : mn, dmn) grainsize(7)
    for (int i = 0; i < N; i++) UPDATE(i);
    struct res got;
    STORE(got);
    same("taskloop reduction", got, want);

    /* num_tasks, and a taskloop reduction run by every thread: each into its
     * own variable (gcc combines a taskloop's copies into the original item
     * without atomics, so one shared target would be a race in the program) */
    long s = 0;
#pragma omp parallel reduction(+ : s)
    {
        long mine = 0;
#pragma omp taskloop reduction(+ : mine) num_tasks(13)
        for (int i = 0; i < N; i++) mine += ival(i);
        s += mine;
    }
    CHECK(s == want.sum * omp_get_max_threads(), "taskloop reduction in every thread: %ld, want %ld",
          s, want.sum * omp_get_max_threads());
}

static void taskloop_in_reduction(struct res want)
{
    INIT_RES(r0);
    LOCALS(r0);
#pragma omp parallel shared(sum, prod, mx, mn, dsum, dprod, dmx, dmn)
#pragma omp single
#pragma omp taskgroup task_reduction(+ : sum, dsum) task_reduction(* : prod, dprod) \
    task_reduction(max : mx, dmx) task_reduction(min : mn, dmn)
    {
#pragma omp taskloop in_reduction(+ : sum, dsum) in_reduction(* : prod, dprod) \
    in_reduction(max : mx, dmx) in_reduction(min : mn, dmn) num_tasks(9)
        for (int i = 0; i < N / 2; i++) UPDATE(i);
#pragma omp task in_reduction(+ : sum, dsum) in_reduction(* : prod, dprod) \
    in_reduction(max : mx, dmx) in_reduction(min : mn, dmn)
        for (int i = N / 2; i < N; i++) UPDATE(i);
    }
    struct res got;
    STORE(got);
    same("taskloop in_reduction", got, want);
}

/* `parallel reduction(task, ...)`: tasks of any thread take part. */
static void parallel_task_reduction(struct res want)
{
    INIT_RES(r0);
    LOCALS(r0);
#pragma omp parallel reduction(task, + : sum, dsum) reduction(task, * : prod, dprod) \
    reduction(task, max : mx, dmx) reduction(task, min : mn, dmn)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int i = me; i < N; i += nt) {
#pragma omp task in_reduction(+ : sum, dsum) in_reduction(* : prod, dprod) \
    in_reduction(max : mx, dmx) in_reduction(min : mn, dmn) firstprivate(i)
            UPDATE(i);
        }
    }
    struct res got;
    STORE(got);
    same("parallel reduction(task, ...)", got, want);
}

/* `for reduction(task, ...)`: iterations create tasks in_reduction. */
static void for_task_reduction(struct res want)
{
    INIT_RES(r0);
    LOCALS(r0);
#pragma omp parallel
    {
#pragma omp for reduction(task, + : sum, dsum) reduction(task, * : prod, dprod) \
    reduction(task, max : mx, dmx) reduction(task, min : mn, dmn) schedule(dynamic, 5)
        for (int i = 0; i < N; i++) {
            if (i % 3 == 0) {
                UPDATE(i); /* the loop body itself */
            } else {
#pragma omp task in_reduction(+ : sum, dsum) in_reduction(* : prod, dprod) \
    in_reduction(max : mx, dmx) in_reduction(min : mn, dmn) firstprivate(i)
                UPDATE(i);
            }
        }
    }
    struct res got;
    STORE(got);
    same("for reduction(task, ...)", got, want);

    /* the same with schedule(static), repeated (the runtime reuses work shares) */
    for (int r = 0; r < 10; r++) {
        long s = 0;
#pragma omp parallel for reduction(task, + : s) schedule(static)
        for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            s += ival(i);
        }
        CHECK(s == want.sum, "parallel for reduction(task, +) round %d: %ld, want %ld", r, s,
              want.sum);
    }
}

/* An array section as a task reduction. */
static void array_reduction(void)
{
    long a[8] = {0};
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : a[0 : 8])
    for (int i = 0; i < 200; i++) {
#pragma omp task in_reduction(+ : a[0 : 8]) firstprivate(i)
        a[i % 8] += i;
    }
    for (int k = 0; k < 8; k++) {
        long w = 0;
        for (int i = k; i < 200; i += 8) w += i;
        CHECK(a[k] == w, "array task reduction a[%d] = %ld, want %ld", k, a[k], w);
    }
}

int main(void)
{
    struct res want = serial(N);
    taskgroup_single(want);
    nested_in_reduction();
    taskgroup_every_thread();
    taskloop_reduction(want);
    taskloop_in_reduction(want);
    parallel_task_reduction(want);
    for_task_reduction(want);
    array_reduction();
    return 0;
}
