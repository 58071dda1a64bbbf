// mem_bubbles.c - nested teams as bubbles (ILAN_BUBBLES=cache here,
// mem_bubbles_memory.c includes this file with =memory) on a what-if
// machine of 2 nodes x 2 cores. Two nested teams of 2: each team's threads
// on one node, the two on different nodes, and the memory attached to each
// whole team (ilan_mem_attach(p, size, -1)) on its team's node. Then teams
// of 3 and 1: the big team's home node gets two of its threads, its third
// is re-spread to the other node, next to the small team; under cache its
// memory stays on its home node, under memory two of its six pages follow
// the spilled thread (the report, checked by expect-output, lists it).
// ilan-test: threads=2 tsan env=HWLOC_SYNTHETIC=numa:2%20core:2%20pu:1;OMP_MAX_ACTIVE_LEVELS=2;ILAN_BUBBLES=cache;ILAN_REPORT=stderr
// ilan-test: expect-output: ^  bubble of parent thread 0 \(cache\): 3 threads, home node 0, 1 re-spread, .* nodes 0 0 1. memory 0:1$
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "_mem.h"

#define PAGE 4096
#define PAGES 6

static int node_of[2][3]; /* node of each nested thread, per outer thread */
static char *mem[2];      /* memory attached to each nested team */

/* Rounds of nested regions of size[o] threads per outer thread o: the
 * first attaches each team's memory when `attach`; later ones see every
 * bubble known (the first round's placements race). */
static void rounds(const int size[2], int attach)
{
    for (int r = 0; r < 3; r++) {
        memset(node_of, -1, sizeof node_of);
#pragma omp parallel num_threads(2)
        {
            int o = omp_get_thread_num();
#pragma omp parallel num_threads(size[o])
            {
                CHECK(omp_get_num_threads() == size[o], "nested team of %d", omp_get_num_threads());
                node_of[o][omp_get_thread_num()] = numa_node_num();
                if (attach && r == 0 && omp_get_thread_num() == 0)
                    CHECK(mem_attach(mem[o], PAGES * PAGE, -1) == 0, "attach -1: errno %d", errno);
            }
        }
    }
}

int main(void)
{
    mem_api();
    const char *kind = getenv("ILAN_BUBBLES");
    int memory = kind && strcmp(kind, "memory") == 0;
    CHECK(num_numa_nodes() == 2, "%d nodes", num_numa_nodes());
    for (int o = 0; o < 2; o++) {
        mem[o] = aligned_alloc(PAGE, PAGES * PAGE);
        CHECK(mem[o] != NULL, "aligned_alloc");
        memset(mem[o], o, PAGES * PAGE);
    }
    errno = 0;
    CHECK(mem_attach(mem[0], PAGE, -1) == -1 && errno == EINVAL, "attach -1 outside a team: errno %d",
          errno);

    /* Teams of 2 and 2: one node each, memory with them. */
    const int even[2] = {2, 2};
    rounds(even, 1);
    size_t per[8];
    for (int o = 0; o < 2; o++) {
        CHECK(node_of[o][0] >= 0 && node_of[o][0] == node_of[o][1], "team %d on nodes %d and %d", o,
              node_of[o][0], node_of[o][1]);
        CHECK(pages_on(mem[o], PAGES * PAGE, per) == 2 && per[node_of[o][0]] == PAGES,
              "team %d's memory: %zu %zu, its threads on node %d", o, per[0], per[1], node_of[o][0]);
    }
    CHECK(node_of[0][0] != node_of[1][0], "both teams on node %d", node_of[0][0]);

    /* Teams of 3 and 1: the big one keeps two threads at home (node 0) and
     * re-spreads its third to node 1, where the small one runs. */
    const int uneven[2] = {3, 1};
    rounds(uneven, 0);
    CHECK(node_of[0][0] == 0 && node_of[0][1] == 0 && node_of[0][2] == 1,
          "team of 3 on nodes %d %d %d", node_of[0][0], node_of[0][1], node_of[0][2]);
    CHECK(node_of[1][0] == 1, "team of 1 on node %d", node_of[1][0]);
    CHECK(pages_on(mem[1], PAGES * PAGE, per) == 2 && per[1] == PAGES, "team of 1's memory: %zu %zu",
          per[0], per[1]);
    CHECK(pages_on(mem[0], PAGES * PAGE, per) == 2, "query");
    if (memory) /* the memory follows the threads: 2 of 3 at home, 1 of 3 with the spilled one */
        CHECK(per[0] == 4 && per[1] == 2, "memory: team of 3's pages %zu on node 0, %zu on node 1",
              per[0], per[1]);
    else /* cache: the bubble's memory stays at its home */
        CHECK(per[0] == PAGES && per[1] == 0, "cache: team of 3's pages %zu on node 0, %zu on node 1",
              per[0], per[1]);
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < PAGES * PAGE; i++)
            CHECK(mem[o][i] == (char)o, "team %d's byte %d", o, i);
    free(mem[0]);
    free(mem[1]);
    return 0;
}
