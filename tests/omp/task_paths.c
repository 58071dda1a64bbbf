// task_paths.c - every way a task can start runs it exactly once with its
// own data environment: deferred, undeferred (if(0)), final, run at once by
// the creator because deferring would not help (a single creator making
// many tasks), with a copy-constructed block (a firstprivate VLA, which gcc
// copies with a cpyfn), untied; and a task run at once still orders its
// dependences, owns its taskgroup, keeps its ICV changes and its nest lock
// to itself, and leaves its deferred children to be waited for by whoever
// waits for them after it returned (its descriptor moved off the stack).
// ilan-test: threads=1,2,3,8,33 tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

#ifdef __SANITIZE_THREAD__
#define PER_THREAD 2000
#define SINGLE 20000
#else
#define PER_THREAD 20000
#define SINGLE 200000
#endif
#define MAX_THREADS 64

static unsigned char seen[MAX_THREADS * PER_THREAD + SINGLE];
static long bad; /* tasks that saw a wrong value */

static void mark(long id)
{
    if (__atomic_fetch_add(&seen[id], 1, __ATOMIC_RELAXED) != 0)
        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
}

static void check_seen(long n, const char *what)
{
    for (long i = 0; i < n; i++)
        CHECK(seen[i] == 1, "%s: task %ld ran %d times", what, i, seen[i]);
    memset(seen, 0, sizeof seen);
}

/* Every thread creates PER_THREAD tasks of each kind in turn; the barrier
 * at the region's end completes them. */
static void every_thread(int kind, const char *what)
{
    int nthreads = 1;
#pragma omp parallel shared(nthreads)
    {
#pragma omp single
        nthreads = omp_get_num_threads();
        long base = (long)omp_get_thread_num() * PER_THREAD;
        for (long i = 0; i < PER_THREAD; i++) {
            long id = base + i, expect = id;
            switch (kind) {
            case 0:
#pragma omp task firstprivate(id, expect)
                {
                    if (id != expect)
                        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
                    mark(id);
                    id = -1; /* our own copy */
                }
                break;
            case 1:
#pragma omp task if (0) firstprivate(id, expect)
                {
                    if (id != expect)
                        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
                    mark(id);
                    id = -1;
                }
                break;
            case 2:
#pragma omp task final(1) firstprivate(id)
                {
                    if (!omp_in_final())
                        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
                    mark(id);
                }
                break;
            default:
#pragma omp task untied firstprivate(id)
                mark(id);
                break;
            }
            CHECK(id == expect, "%s: the creator's copy changed", what);
        }
    }
    CHECK(nthreads <= MAX_THREADS, "%d threads", nthreads);
    check_seen((long)nthreads * PER_THREAD, what);
}

/* One creator, many small tasks: most run at once in the creator. */
static void single_creator(void)
{
#pragma omp parallel
#pragma omp single
    for (long i = 0; i < SINGLE; i++) {
        long id = i;
#pragma omp task firstprivate(id)
        {
            mark(id);
            id = -1;
        }
        CHECK(id == i, "single creator: the creator's copy changed");
    }
    check_seen(SINGLE, "single creator");
}

/* A copy-constructed block (a VLA) in deferred and included tasks. */
static void copied_block(void)
{
    int n = 5 + omp_get_max_threads() % 3;
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 200; rep++) {
        int v[n];
        for (int k = 0; k < n; k++)
            v[k] = rep * 10 + k;
#pragma omp task firstprivate(v) if (rep % 2)
        {
            for (int k = 0; k < n; k++)
                if (v[k] != rep * 10 + k)
                    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
            v[0] = -1;
        }
        CHECK(v[0] == rep * 10, "copied block: the creator's copy changed");
    }
}

/* Dependences: a writer, then readers that may be run at once. */
static void dependences(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < 500; rep++) {
        int x = 0, y = 0;
#pragma omp task depend(out : x) shared(x)
        x = rep + 1;
#pragma omp task depend(in : x) depend(out : y) shared(x, y) if (rep % 2)
        y = x * 2;
#pragma omp task depend(in : y) shared(y) if (0)
        {
            if (y != (rep + 1) * 2)
                __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
        }
        CHECK(y == (rep + 1) * 2, "dependences: y = %d after an if(0) reader", y);
    }
}

static int leftover_done; /* children left running by an included task */

/* A task run at once that makes deferred children and returns without
 * waiting for them: its descriptor leaves the stack, and the taskgroup
 * around it waits for them. Its ICV change and its nest lock stay its own,
 * and its own taskgroup waits for its child. */
static void included_parent(void)
{
    omp_nest_lock_t lock;
    omp_init_nest_lock(&lock);
    int before = omp_get_max_threads();
#pragma omp parallel shared(lock)
#pragma omp single
    for (int rep = 0; rep < 100; rep++) {
        leftover_done = 0;
#pragma omp taskgroup
        {
#pragma omp task if (0) shared(lock)
            {
                omp_set_nest_lock(&lock);
                omp_set_num_threads(3); /* this task's ICV only */
                for (int k = 0; k < 8; k++) {
#pragma omp task
                    __atomic_fetch_add(&leftover_done, 1, __ATOMIC_RELAXED);
                }
                /* The descriptor moved to the heap with the children: the
                 * lock's owner is still this task. */
                CHECK(omp_test_nest_lock(&lock) == 2, "the nest lock changed owner");
                omp_unset_nest_lock(&lock);
                omp_unset_nest_lock(&lock);
                if (omp_get_max_threads() != 3)
                    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
#pragma omp taskgroup
                {
#pragma omp task
                    __atomic_fetch_add(&leftover_done, 100, __ATOMIC_RELAXED);
                }
                if (__atomic_load_n(&leftover_done, __ATOMIC_RELAXED) < 100)
                    __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
            }
        }
        CHECK(leftover_done == 108, "the taskgroup ended with %d of 108 done", leftover_done);
        CHECK(omp_get_max_threads() == before, "an if(0) task's ICV change leaked");
    }
    omp_destroy_nest_lock(&lock);
}

int main(void)
{
    static const char *const kinds[] = {"deferred", "if(0)", "final", "untied"};
    for (int kind = 0; kind < 4; kind++)
        every_thread(kind, kinds[kind]);
    single_creator();
    copied_block();
    dependences();
    included_parent();
    CHECK(bad == 0, "%ld tasks saw a wrong value", bad);
    printf("all creation paths ran every task once\n");
    return 0;
}
