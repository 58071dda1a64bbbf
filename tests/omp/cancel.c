// cancel.c - cancel parallel / for / sections and cancellation points with
// OMP_CANCELLATION=true; cancel_off.c runs the same program without it, where
// every cancel construct is a no-op.
// ilan-test: env=OMP_CANCELLATION=true vary=ILAN_BARRIER=tree,central
#include "check.h"
#include <sched.h>

#define N 2000
#define MAXT 1024

static int on;

static void cancel_parallel(void)
{
    int after_cancel = 0, after_barrier = 0, reached = 0, nthr = 0;
#pragma omp parallel
    {
#pragma omp atomic
        reached++;
        if (omp_get_thread_num() == 0) {
            nthr = omp_get_num_threads();
#pragma omp cancel parallel
#pragma omp atomic
            after_cancel++;
        }
        /* a barrier is a cancellation point: thread 0 never arrives when
           cancellation is on, so every thread must leave through it */
#pragma omp barrier
#pragma omp atomic
        after_barrier++;
    }
    CHECK(reached == nthr, "reached %d of %d", reached, nthr);
    if (on) {
        CHECK(after_cancel == 0, "code after cancel parallel ran");
        CHECK(after_barrier == 0, "%d threads passed the barrier after cancel parallel",
              after_barrier);
    } else {
        CHECK(after_cancel == 1 && after_barrier == nthr, "cancel not a no-op when disabled");
    }
}

static void cancellation_point_parallel(void)
{
    int flag = 0, past = 0, nthr = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            nthr = omp_get_num_threads();
            __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
#pragma omp cancel parallel
        } else {
            while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) sched_yield();
            if (on) {
                /* cancellation is (about to be) active: must leave here */
                for (;;) {
#pragma omp cancellation point parallel
                    sched_yield();
                }
            }
#pragma omp atomic
            past++;
        }
    }
    if (!on) CHECK(past == nthr - 1, "cancellation point without cancellation");
    else CHECK(past == 0, "past cancellation point %d", past);
}

static void cancel_for(int sched_kind)
{
    static int ran[N];
    static int order[MAXT][64];
    static int norder[MAXT];
    memset(ran, 0, sizeof ran);
    memset(norder, 0, sizeof norder);
    const int K = 37; /* iteration that cancels */
    int canceller = -1, total = 0, after_loop = 0, nthr = 0;
#pragma omp parallel reduction(+ : total)
    {
        int me = omp_get_thread_num();
#pragma omp single
        nthr = omp_get_num_threads();
        if (sched_kind == 0) {
#pragma omp for schedule(dynamic, 1)
            for (int i = 0; i < N; i++) {
#pragma omp cancellation point for
                ran[i]++;
                total++;
                if (canceller == me && me < MAXT && norder[me] < 64) order[me][norder[me]++] = i;
                if (i == K) {
                    canceller = me;
#pragma omp cancel for
                }
            }
        } else if (sched_kind == 1) {
#pragma omp for schedule(static, 1)
            for (int i = 0; i < N; i++) {
#pragma omp cancellation point for
                ran[i]++;
                total++;
                if (canceller == me && me < MAXT && norder[me] < 64) order[me][norder[me]++] = i;
                if (i == K) {
                    canceller = me;
#pragma omp cancel for
                }
            }
        } else {
#pragma omp for schedule(guided)
            for (int i = 0; i < N; i++) {
#pragma omp cancellation point for
                ran[i]++;
                total++;
                if (canceller == me && me < MAXT && norder[me] < 64) order[me][norder[me]++] = i;
                if (i == K) {
                    canceller = me;
#pragma omp cancel for
                }
            }
        }
        /* region continues normally after the cancelled loop */
#pragma omp atomic
        after_loop++;
#pragma omp barrier
    }
    CHECK(after_loop == nthr, "after cancelled loop: %d of %d", after_loop, nthr);
    for (int i = 0; i < N; i++) CHECK(ran[i] <= 1, "iteration %d ran %d times", i, ran[i]);
    CHECK(ran[K] == 1, "cancelling iteration did not run");
    if (on) {
        /* the cancelling thread ran no iteration after cancelling */
        CHECK(canceller >= 0, "no canceller");
        if (canceller < MAXT)
            CHECK(norder[canceller] == 0, "cancelling thread %d ran %d more iterations (first %d)",
                  canceller, norder[canceller], order[canceller][0]);
        if (nthr == 1) CHECK(total == K + 1, "one thread: %d iterations ran", total);
    } else {
        CHECK(total == N, "cancel for disabled: %d iterations", total);
    }
}

static void cancel_sections(void)
{
    int s0_after = 0, ran = 0, after = 0, nthr = 0;
#pragma omp parallel
    {
#pragma omp single
        nthr = omp_get_num_threads();
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp atomic
                ran++;
#pragma omp cancel sections
#pragma omp atomic
                s0_after++;
            }
#pragma omp section
            {
#pragma omp atomic
                ran++;
            }
#pragma omp section
            {
#pragma omp atomic
                ran++;
            }
        }
#pragma omp atomic
        after++;
    }
    CHECK(after == nthr, "after cancelled sections %d", after);
    if (on) {
        CHECK(s0_after == 0, "code after cancel sections ran");
        CHECK(ran >= 1 && ran <= 3, "sections ran %d", ran);
    } else {
        CHECK(s0_after == 1 && ran == 3, "cancel sections disabled: %d %d", s0_after, ran);
    }
}

static void cancel_if_false(void)
{
    int total = 0, zero = 0;
#pragma omp parallel
#pragma omp for reduction(+ : total) schedule(dynamic, 4)
    for (int i = 0; i < N; i++) {
        total++;
#pragma omp cancel for if (zero)
    }
    CHECK(total == N, "cancel for if(0) cancelled: %d", total);
}

int main(void)
{
    const char *e = getenv("OMP_CANCELLATION");
    on = e && (!strcmp(e, "true") || !strcmp(e, "TRUE") || !strcmp(e, "True"));
    CHECK(omp_get_cancellation() == on, "omp_get_cancellation %d, expected %d",
          omp_get_cancellation(), on);
    for (int r = 0; r < 9; r++) {
        cancel_parallel();
        cancellation_point_parallel();
        cancel_for(r % 3);
        cancel_sections();
        cancel_if_false();
    }
    /* the runtime is fully usable after cancellations */
    long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 3)
    for (int i = 0; i < N; i++) s += i;
    CHECK(s == (long)N * (N - 1) / 2, "loop after cancellations %ld", s);
    int cnt = 0;
#pragma omp parallel
    {
#pragma omp barrier
#pragma omp atomic
        cnt++;
    }
    CHECK(cnt == omp_get_max_threads(), "region after cancellations %d", cnt);
    return 0;
}
