// task_matrix.c - every tasking construct, counted exactly, at the thread
// counts issue 17 names (1, 2, 3, 8, 16 and 64: up to 32 threads per core)
// under each load-balancing strategy and barrier: a tree with a taskwait per
// node; a taskgroup of tasks that make tasks; a chain of dependences (the
// order checked); detached tasks fulfilled by other tasks; priorities; a
// taskloop with a reduction; a cancelled taskgroup (no task starts after
// the cancel is seen by its creator); and barriers with tasks still
// queued. Each part checks its own result; nothing is timed.
// ilan-test: threads=1,2,3,8,16,64 tsan modes=ilan,numa,ws env=OMP_CANCELLATION=true vary=ILAN_DLB=ws,na-ws,na-rp vary=ILAN_BARRIER=tree,central
#include "check.h"
#include <stdatomic.h>
#include <stdbool.h>

/* Nodes below and including a node of a complete tree (depth levels,
 * `fan` children each), a task per child and a taskwait per node. */
static long tree(int depth, int fan)
{
    if (depth == 0)
        return 1;
    long counts[8];
    for (int i = 0; i < fan; i++) {
#pragma omp task shared(counts) firstprivate(i)
        counts[i] = tree(depth - 1, fan);
    }
#pragma omp taskwait
    long n = 1;
    for (int i = 0; i < fan; i++)
        n += counts[i];
    return n;
}

static void check_tree(void)
{
    long got = 0;
#pragma omp parallel
#pragma omp single
    got = tree(7, 4); /* (4^8 - 1) / 3 nodes */
    CHECK_EQ_LL(got, 21845);
}

/* A taskgroup waits for its tasks and their descendants. */
static void check_taskgroup(void)
{
    static _Atomic long done;
    atomic_store(&done, 0);
#pragma omp parallel
    {
#pragma omp taskgroup
        {
            for (int i = 0; i < 50; i++) {
#pragma omp task
                {
                    for (int k = 0; k < 4; k++) {
#pragma omp task
                        atomic_fetch_add(&done, 1);
                    }
                    atomic_fetch_add(&done, 1);
                }
            }
        }
        /* every task of this thread's group is complete here */
        long seen = atomic_load(&done);
        CHECK(seen >= 250, "a taskgroup ended with %ld of its 250 tasks done", seen);
    }
    CHECK_EQ_LL(atomic_load(&done), 250L * omp_get_max_threads());
}

/* A chain of inout dependences runs in creation order. */
static void check_depend(void)
{
    enum { LINKS = 2000 };
    static long order[LINKS];
    long next = 0, token = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < LINKS; i++) {
#pragma omp task depend(inout : token) shared(next, order) firstprivate(i)
        order[next++] = i;
    }
    CHECK_EQ_LL(next, LINKS);
    for (int i = 0; i < LINKS; i++)
        CHECK(order[i] == i, "link %d ran as number %ld", i, order[i]);
    (void)token;
}

/* Detached tasks complete when another task fulfills their event; a
 * dependent task starts only after that. */
static void check_detach(void)
{
    enum { PAIRS = 200 };
    static _Atomic int fulfilled[PAIRS];
    static int after[PAIRS];
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < PAIRS; i++) {
        omp_event_handle_t ev;
        int slot = 0; /* the dependence object of this pair */
        (void)slot;
        atomic_store(&fulfilled[i], 0);
#pragma omp task detach(ev) depend(out : slot) firstprivate(i)
        {
            (void)i;
        }
#pragma omp task firstprivate(ev, i)
        {
            atomic_store(&fulfilled[i], 1);
            omp_fulfill_event(ev);
        }
#pragma omp task depend(in : slot) firstprivate(i)
        after[i] = atomic_load(&fulfilled[i]);
#pragma omp taskwait
    }
    for (int i = 0; i < PAIRS; i++)
        CHECK(after[i] == 1, "pair %d: the dependent task ran before the event was fulfilled", i);
}

/* Prioritized tasks all run (their order is only a hint). */
static void check_priority(void)
{
    static _Atomic long sum;
    atomic_store(&sum, 0);
#pragma omp parallel
#pragma omp single
    for (int i = 1; i <= 1000; i++) {
#pragma omp task priority(i % 8) firstprivate(i)
        atomic_fetch_add(&sum, i);
    }
    CHECK_EQ_LL(atomic_load(&sum), 500500);
}

/* A taskloop with a reduction. */
static void check_taskloop(void)
{
    long sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : sum) grainsize(7)
    for (long i = 0; i < 100000; i++)
        sum += i;
    CHECK_EQ_LL(sum, 100000L * 99999 / 2);
}

/* Cancelling a taskgroup: every task either ran whole or not at all (none
 * has a cancellation point inside), and the task that cancels runs. */
static void check_cancel(void)
{
    static _Atomic long started, finished;
    atomic_store(&started, 0);
    atomic_store(&finished, 0);
    bool cancelled_seen = false;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup
    {
        for (int i = 0; i < 2000; i++) {
#pragma omp task firstprivate(i) shared(cancelled_seen)
            {
                atomic_fetch_add(&started, 1);
                /* counted before the cancel: a cancelling task skips to
                 * its end when cancellation is on */
                atomic_fetch_add(&finished, 1);
                if (i == 100) {
                    cancelled_seen = true;
#pragma omp cancel taskgroup
                }
            }
        }
    }
    CHECK(cancelled_seen, "the cancelling task did not run");
    CHECK_EQ_LL(atomic_load(&started), atomic_load(&finished));
    CHECK(atomic_load(&started) >= 1 && atomic_load(&started) <= 2000, "%ld started",
          atomic_load(&started));
}

/* Barriers with tasks still queued: each barrier completes them. */
static void check_barriers(void)
{
    static _Atomic long done;
    atomic_store(&done, 0);
    int nthreads = 1;
#pragma omp parallel
    {
#pragma omp single
        nthreads = omp_get_num_threads();
        for (int round = 1; round <= 20; round++) {
            for (int k = 0; k < 5; k++) {
#pragma omp task
                atomic_fetch_add(&done, 1);
            }
#pragma omp barrier
            long seen = atomic_load(&done);
            CHECK(seen == 5L * round * nthreads, "after barrier %d: %ld tasks done, want %ld",
                  round, seen, 5L * round * nthreads);
#pragma omp barrier
        }
    }
}

int main(void)
{
    check_tree();
    check_taskgroup();
    check_depend();
    check_detach();
    check_priority();
    check_taskloop();
    check_cancel();
    check_barriers();
    return 0;
}
