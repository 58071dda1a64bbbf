// task_engine.c - the tasking engine on the three shapes that broke it: an
// unbalanced tree with a taskwait per node (a UTS-like binomial tree of
// about 5.5 million nodes, counted exactly, and with two threads each
// thread must execute at least a quarter of the nodes), deep recursion
// (fib with a task per call) and a wide fan-out (100,000 children of one
// task). Results are exact; nothing here is timed.
// ilan-test: threads=1,2,4,16 tsan serial modes=ilan,numa,ws
#include "check.h"
#include <stdint.h>

#ifdef __SANITIZE_THREAD__
#define TREE_SEED 1u /* a tree of 41,681 nodes */
#define TREE_P 0.1235
#define FIB_N 18
#define FAN_OUT 10000
#else
#define TREE_SEED 7u /* a tree of 5,506,361 nodes, 2,256 deep */
#define TREE_P 0.124997
#define FIB_N 30
#define FAN_OUT 100000
#endif
#define ROOT_CHILDREN 2000
#define CHILDREN 8
#define MAX_THREADS 64

/* Nodes each thread executed (the tree's balance), padded per thread. */
static struct {
    _Alignas(64) long nodes;
} executed[MAX_THREADS];

static uint64_t threshold; /* a non-root node has children when its draw is below it */

/* splitmix64's finaliser: a node's state from its parent's, its draw from its own. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int children_of(uint64_t state)
{
    return mix(state) < threshold ? CHILDREN : 0;
}

/* Nodes below and including a node: a task per child, then a taskwait. */
static long tree(uint64_t state, int children)
{
    executed[omp_get_thread_num()].nodes++;
    long counts[children > 0 ? children : 1];
    for (int i = 0; i < children; i++) {
        uint64_t child = mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull);
#pragma omp task firstprivate(i, child) shared(counts)
        counts[i] = tree(child, children_of(child));
    }
#pragma omp taskwait
    long n = 1;
    for (int i = 0; i < children; i++)
        n += counts[i];
    return n;
}

static long tree_serial(uint64_t state, int children)
{
    long n = 1;
    for (int i = 0; i < children; i++) {
        uint64_t child = mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull);
        n += tree_serial(child, children_of(child));
    }
    return n;
}

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

static long fib_serial(int n)
{
    return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

int main(void)
{
    threshold = (uint64_t)(TREE_P * 18446744073709551616.0);
    uint64_t root = mix(TREE_SEED);
    long want = tree_serial(root, ROOT_CHILDREN);
    int nthreads = 0;
    long got = 0;
#pragma omp parallel
#pragma omp single
    {
        nthreads = omp_get_num_threads();
        got = tree(root, ROOT_CHILDREN);
    }
    CHECK(nthreads <= MAX_THREADS, "%d threads", nthreads);
    CHECK(got == want, "the tree has %ld nodes, the tasks counted %ld", want, got);
    long sum = 0;
    for (int t = 0; t < nthreads; t++)
        sum += executed[t].nodes;
    CHECK_EQ_LL(sum, want);
#ifndef __SANITIZE_THREAD__
    /* Parallelism kept: running tasks at once must not serialize the tree. */
    if (nthreads == 2)
        for (int t = 0; t < 2; t++)
            CHECK(executed[t].nodes >= want / 4,
                  "thread %d executed %ld of %ld nodes (the other %ld)", t, executed[t].nodes,
                  want, executed[1 - t].nodes);
#endif

    long f = 0;
#pragma omp parallel
#pragma omp single
    f = fib(FIB_N);
    CHECK_EQ_LL(f, fib_serial(FIB_N));

    /* Wide fan-out: one task creates every child; each child records itself. */
    static unsigned char seen[FAN_OUT];
    long dup = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(dup)
    {
        for (int i = 0; i < FAN_OUT; i++) {
#pragma omp task firstprivate(i) shared(dup)
            {
                if (__atomic_fetch_add(&seen[i], 1, __ATOMIC_RELAXED) != 0)
                    __atomic_fetch_add(&dup, 1, __ATOMIC_RELAXED);
            }
        }
#pragma omp taskwait
        for (int i = 0; i < FAN_OUT; i++)
            CHECK(seen[i] == 1, "child %d ran %d times", i, seen[i]);
    }
    CHECK_EQ_LL(dup, 0);
    printf("thread 0 ran %.0f%% of the tree; ", nthreads == 2 ? 100.0 * executed[0].nodes / want : 100.0);
    printf("tree %ld nodes, fib(%d) = %ld, fan-out %d, threads %d\n", got, FIB_N, f, FAN_OUT,
           nthreads);
    return 0;
}
