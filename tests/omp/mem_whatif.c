// mem_whatif.c - memory placement on a what-if machine of 4 nodes x 2
// cores: nothing is applied, every placement is recorded and the query
// answers from the record (marked simulated). A bloc allocation of 4 MB
// made in the region reports one quarter per node, and a NUMA-aware
// taskloop of the same team over it (strict stealing) runs every task on
// the node the plan gave its pages; migrate, attach and next touch are
// recorded where they say.
// ilan-test: threads=8 env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close;ILAN_TASKLOOP=numa;ILAN_STEAL_POLICY=strict
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdlib.h>
#include "_mem.h"

#define NODES 4
#define SIZE (4u << 20)
#define N (SIZE / sizeof(double))
#define PAGE 4096
#define TASKS 256

static signed char task_node[TASKS]; /* node that ran each task */

int main(void)
{
    mem_api();
    CHECK(mem_simulated(), "a what-if machine must be simulated");
    CHECK(num_numa_nodes() == NODES, "%d nodes", num_numa_nodes());
    size_t per[8];
    double *a = NULL;
#pragma omp parallel
    {
        CHECK(omp_get_num_threads() == 8, "team of %d", omp_get_num_threads());
        CHECK(num_domains() == NODES, "%d domains", num_domains());
        CHECK(domain_num() == omp_get_thread_num() / 2, "thread %d in domain %d",
              omp_get_thread_num(), domain_num());
#pragma omp single
        a = alloc_bloc(SIZE);
    }
    CHECK(a != NULL, "ilan_alloc_bloc: errno %d", errno);
    CHECK(pages_on(a, SIZE, per) == NODES, "nodes reported");
    for (int k = 0; k < NODES; k++)
        CHECK(per[k] == SIZE / PAGE / NODES, "node %d holds %zu pages", k, per[k]);
    for (int k = 0; k < NODES; k++) {
        CHECK(pages_on((char *)a + k * (SIZE / NODES), SIZE / NODES, per) == NODES, "query");
        CHECK(per[k] == SIZE / PAGE / NODES, "quarter %d: %zu pages on its node", k, per[k]);
    }

    /* The taskloop over it: task t's elements are on the node that runs it. */
    memset(task_node, -1, sizeof task_node);
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(TASKS)
    for (size_t i = 0; i < N; i++) {
        a[i] = (double)i;
        if (i % (N / TASKS) == 0)
            task_node[i / (N / TASKS)] = (signed char)numa_node_num();
    }
    for (int t = 0; t < TASKS; t++) {
        size_t pn[8];
        pages_on(&a[(size_t)t * (N / TASKS)], (N / TASKS) * sizeof(double), pn);
        CHECK(pn[task_node[t]] == (N / TASKS) * sizeof(double) / PAGE,
              "task %d ran on node %d, which holds %zu of its pages", t, task_node[t],
              pn[task_node[t]]);
    }
    for (size_t i = 0; i < N; i++)
        CHECK(a[i] == (double)i, "element %zu", i);

    /* Migrate half of it to node 3: recorded. */
    CHECK(mem_migrate(a, SIZE / 2, 3) == 0, "migrate: errno %d", errno);
    CHECK(pages_on(a, SIZE, per) == NODES && per[3] == SIZE / PAGE / 2 + SIZE / PAGE / 4 &&
              per[2] == SIZE / PAGE / 4 && per[0] == 0,
          "after migrate: %zu %zu %zu %zu", per[0], per[1], per[2], per[3]);
    /* Node 4 does not exist. */
    errno = 0;
    CHECK(mem_migrate(a, PAGE, NODES) == -1 && errno == EINVAL, "node %d: errno %d", NODES, errno);

    /* Attach to thread 5 (node 2). */
    char *b = malloc(10 * PAGE);
    CHECK(b != NULL, "malloc");
#pragma omp parallel
#pragma omp single
    CHECK(mem_attach(b, 10 * PAGE, 5) == 0, "attach: errno %d", errno);
    size_t touched = ((uintptr_t)b + 10 * PAGE - 1) / PAGE - (uintptr_t)b / PAGE + 1;
    CHECK(pages_on(b, 10 * PAGE, per) == NODES && per[2] == touched,
          "attached: %zu of %zu pages on node 2", per[2], touched);

    /* Next touch: each thread's first touch records its own node. */
    CHECK(mem_next_touch(a, SIZE) == 0, "arm: errno %d", errno);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < N; i++)
        a[i] += 1.0;
    CHECK(pages_on(a, SIZE, per) == NODES, "query");
    for (int k = 0; k < NODES; k++)
        CHECK(per[k] == SIZE / PAGE / NODES, "after next touch: node %d holds %zu pages", k, per[k]);
    for (size_t i = 0; i < N; i++)
        CHECK(a[i] == (double)i + 1.0, "element %zu after next touch", i);
    mem_free(a, SIZE);
    free(b);
    return 0;
}
