// mem_attach_follow.c - memory attached to a team thread follows it when
// its place changes, on a what-if machine of 4 nodes x 2 cores (the record
// answers): attached to thread 1 of a close-bound team of 8 (node 0), the
// range moves to node 1 when a proc_bind(spread) region of 4 puts thread 1
// on place 2, back to node 0 with the close team again, and stays when a
// later region leaves thread 1 where it is.
// ilan-test: threads=8 env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdlib.h>
#include "_mem.h"

#define PAGE 4096
#define PAGES 6

/* Runs a region bound spread (4 threads) or close (8); returns the node
 * thread 1 of that region ran on. */
static int node_of_thread1(int spread)
{
    int node = -1;
    if (spread) {
#pragma omp parallel num_threads(4) proc_bind(spread)
        if (omp_get_thread_num() == 1)
            node = numa_node_num();
    } else {
#pragma omp parallel num_threads(8) proc_bind(close)
        if (omp_get_thread_num() == 1)
            node = numa_node_num();
    }
    return node;
}

int main(void)
{
    mem_api();
    CHECK(mem_simulated(), "a what-if machine must be simulated");
    char *b = aligned_alloc(PAGE, PAGES * PAGE);
    CHECK(b != NULL, "aligned_alloc");
    size_t per[8];

    /* Attached to thread 1 of the close team: node 0. */
#pragma omp parallel
    {
        if (omp_get_thread_num() == 1)
            CHECK(numa_node_num() == 0, "close: thread 1 on node %d", numa_node_num());
#pragma omp single
        CHECK(mem_attach(b, PAGES * PAGE, 1) == 0, "attach: errno %d", errno);
    }
    CHECK(pages_on(b, PAGES * PAGE, per) == 4 && per[0] == PAGES, "attached: %zu on node 0", per[0]);

    /* Spread over 4 threads: thread 1 moves to place 2 (node 1), its pages too. */
    CHECK(node_of_thread1(1) == 1, "spread: thread 1 not on node 1");
    CHECK(pages_on(b, PAGES * PAGE, per) == 4 && per[1] == PAGES && per[0] == 0,
          "after spread: %zu on node 0, %zu on node 1", per[0], per[1]);

    /* Back to close: thread 1 on place 1 (node 0) again, its pages follow. */
    CHECK(node_of_thread1(0) == 0, "close: thread 1 not on node 0");
    CHECK(pages_on(b, PAGES * PAGE, per) == 4 && per[0] == PAGES && per[1] == 0,
          "after close: %zu on node 0, %zu on node 1", per[0], per[1]);

    /* The same binding again: thread 1 does not move, nor do its pages. */
    CHECK(node_of_thread1(0) == 0, "close again: thread 1 not on node 0");
    CHECK(pages_on(b, PAGES * PAGE, per) == 4 && per[0] == PAGES, "still %zu on node 0", per[0]);
    free(b);
    return 0;
}
