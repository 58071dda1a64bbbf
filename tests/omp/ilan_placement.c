// ilan_placement.c - the NUMA-aware task distribution on a what-if machine
// of 4 nodes x 2 cores: num_tasks(64) over 64,000 iterations on 8 threads,
// ILAN_TASKLOOP=numa. Under the strict steal policy every iteration of block
// k (16,000 iterations) runs on a thread of node k, in every one of many
// executions (inter-taskloop locality); under full stealing (see
// ilan_placement_full.c, which includes this file) the strict part of each
// block, its first ceil(16/3) = 6 tasks, still runs on node k, and every
// iteration runs exactly once either way.
// ilan-test: threads=8 tsan env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close;ILAN_TASKLOOP=numa;ILAN_STEAL_POLICY=strict
#include "check.h"

/* ilan's extension API, looked up at run time (the test links against the
 * system libgomp, which lacks it). */
static int (*node_num)(void);

#define N 64000
#define NODES 4
#define TASKS 64
#define REPS 20

static signed char node_of[N]; /* node that ran each iteration, this execution */
static int runs[N];            /* times each iteration ran, over all executions */

int main(void)
{
    const char *policy = getenv("ILAN_STEAL_POLICY");
    int full = policy && strcmp(policy, "full") == 0;
    /* strict tasks per node: all of them, or ceil(tasks per node / 3) */
    int strict_tasks = full ? (TASKS / NODES + 2) / 3 : TASKS / NODES;
    long block = N / NODES, task_size = N / TASKS;
    int (*num_nodes)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_get_num_numa_nodes");
    node_num = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_get_numa_node_num");
    CHECK(num_nodes && node_num, "ilan's extension API is missing");
    CHECK(num_nodes() == NODES, "what-if machine has %d nodes, expected %d", num_nodes(), NODES);
    for (int rep = 0; rep < REPS; rep++) {
        memset(node_of, -1, sizeof node_of);
#pragma omp parallel
        {
            CHECK(omp_get_num_threads() == 8, "team of %d threads", omp_get_num_threads());
#pragma omp single
#pragma omp taskloop num_tasks(TASKS)
            for (long i = 0; i < N; i++) {
                node_of[i] = (signed char)node_num();
                __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
            }
        }
        for (long i = 0; i < N; i++) {
            long k = i / block, within = i % block;
            if (within < strict_tasks * task_size)
                CHECK(node_of[i] == k, "execution %d: iteration %ld (block %ld) ran on node %d",
                      rep, i, k, node_of[i]);
            else
                CHECK(node_of[i] >= 0 && node_of[i] < NODES,
                      "execution %d: iteration %ld ran on node %d", rep, i, node_of[i]);
        }
    }
    for (long i = 0; i < N; i++)
        CHECK(runs[i] == REPS, "iteration %ld ran %d times in %d executions", i, runs[i], REPS);
    return 0;
}
