// task_engine.c - the tasking engine on the shapes that broke it (deep
// recursion, fib(30) with a task per call, is task_tree.c's): an
// unbalanced tree with a taskwait per node (a UTS-like binomial tree of
// about 5.5 million nodes, counted exactly, and with two threads each
// thread must execute at least a quarter of the nodes, in one of up to 10
// runs that had both CPUs) and a wide fan-out
// (100,000 children of one task). Results are exact; nothing here is timed.
// ilan-test: threads=1,2,4,16 tsan serial modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#ifdef __SANITIZE_THREAD__
#define TREE_SEED 1u /* a tree of 41,681 nodes */
#define TREE_P 0.1235
#define FAN_OUT 10000
#else
#define TREE_SEED 7u /* a tree of 5,506,361 nodes, 2,256 deep */
#define TREE_P 0.124997
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

static int children_of(uint64_t state)
{
    return test_mix(state) < threshold ? CHILDREN : 0;
}

/* Nodes below and including a node: a task per child, then a taskwait. */
static long tree(uint64_t state, int children)
{
    executed[omp_get_thread_num()].nodes++;
    long counts[children > 0 ? children : 1];
    for (int i = 0; i < children; i++) {
        uint64_t child = test_mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull);
#pragma omp task firstprivate(i, child) shared(counts)
        counts[i] = tree(child, children_of(child));
    }
#pragma omp taskwait
    long n = 1;
    for (int i = 0; i < children; i++)
        n += counts[i];
    return n;
}

/* Nanoseconds the calling thread has spent runnable but waiting for a CPU
 * (the kernel's schedstat); 0 where the kernel does not say. */
static double run_queue_wait_ns(void)
{
    unsigned long long run = 0, wait = 0;
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (f) {
        if (fscanf(f, "%llu %llu", &run, &wait) != 2)
            wait = 0;
        fclose(f);
    }
    return (double)wait;
}

/* Nanoseconds the hypervisor has given this machine's vCPUs to others
 * (steal time, /proc/stat); 0 where the kernel does not say. */
static double machine_steal_ns(void)
{
    unsigned long long f[8] = {0};
    FILE *p = fopen("/proc/stat", "r");
    if (p) {
        if (fscanf(p, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
                   &f[4], &f[5], &f[6], &f[7]) != 8)
            f[7] = 0;
        fclose(p);
    }
    return (double)f[7] * 1e9 / (double)sysconf(_SC_CLK_TCK);
}

static long tree_serial(uint64_t state, int children)
{
    long n = 1;
    for (int i = 0; i < children; i++) {
        uint64_t child = test_mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull);
        n += tree_serial(child, children_of(child));
    }
    return n;
}

int main(void)
{
    threshold = (uint64_t)(TREE_P * 18446744073709551616.0);
    uint64_t root = test_mix(TREE_SEED);
    long want = tree_serial(root, ROOT_CHILDREN);
    int nthreads = 0;
    long got = 0;
    /* Parallelism kept: running tasks at once must not serialize the tree.
     * A run lasts about 0.2 s, and another process (or the hypervisor)
     * that holds one of the 2 CPUs for a good part of it starves a thread
     * whatever the engine does: with a CPU hog beside it, ws balanced 5 of
     * 12 runs and na-rp 3. Such a run is seen (a thread waited for a CPU,
     * or the vCPUs were stolen, for over a tenth of it) and does not count
     * as an attempt: the balance must hold in one of up to 10 runs that
     * had both CPUs (30 runs at most; a busy run that balanced counts too).
     * With both CPUs na-rp balances about half of its runs (its thieves
     * get the newest, mostly leaf, tasks), ws nearly all; an engine that
     * serializes the tree fails every run. Every run is counted exactly. */
    bool balanced = false;
    long last[2] = {0, 0};
    int quiet_runs = 0, runs = 0;
    static double waited[MAX_THREADS];
    while (runs < 30 && quiet_runs < 10 && !balanced) {
        runs++;
        for (int t = 0; t < MAX_THREADS; t++)
            executed[t].nodes = 0;
        double steal0 = machine_steal_ns(), wall0 = omp_get_wtime();
#pragma omp parallel
        {
            int me = omp_get_thread_num();
            if (me < MAX_THREADS)
                waited[me] = -run_queue_wait_ns();
#pragma omp single
            {
                nthreads = omp_get_num_threads();
                got = tree(root, ROOT_CHILDREN);
            }
            if (me < MAX_THREADS)
                waited[me] += run_queue_wait_ns();
        }
        double wall_ns = (omp_get_wtime() - wall0) * 1e9;
        bool busy = machine_steal_ns() - steal0 > wall_ns / 10;
        for (int t = 0; t < nthreads && t < MAX_THREADS; t++)
            busy |= waited[t] > wall_ns / 10;
        quiet_runs += !busy;
        CHECK(nthreads <= MAX_THREADS, "%d threads", nthreads);
        CHECK(got == want, "the tree has %ld nodes, the tasks counted %ld", want, got);
        long sum = 0;
        for (int t = 0; t < nthreads; t++)
            sum += executed[t].nodes;
        CHECK_EQ_LL(sum, want);
        last[0] = executed[0].nodes;
        last[1] = executed[1].nodes;
        balanced = nthreads != 2 || (last[0] >= want / 4 && last[1] >= want / 4);
#ifdef __SANITIZE_THREAD__
        balanced = true; /* the small tree is for counting only */
#endif
    }
    CHECK(balanced,
          "in %d runs (%d with both CPUs) a thread never executed a quarter of the %ld nodes "
          "(last run: %ld and %ld)",
          runs, quiet_runs, want, last[0], last[1]);

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
    printf("tree %ld nodes, fan-out %d, threads %d\n", got, FAN_OUT, nthreads);
    return 0;
}
