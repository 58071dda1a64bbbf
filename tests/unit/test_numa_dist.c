/* test_numa_dist.c — unit tests of ILAN's locality groups and task-to-group arithmetic (sched/numa_dist.c). */
#include <stdio.h>
#include <string.h>
#include "sched/numa_dist.h"
#include "sched/machine.h"
#include "base/tunables.h"
#include "unit.h"

/* Checks that runs tile [0, ntasks) in order and that each share is within
 * one task of its exact proportional value. */
static void check_runs(iter_ull ntasks, unsigned k, const unsigned *workers)
{
    iter_ull first[17];
    unsigned total = 0;
    for (unsigned j = 0; j < k; j++)
        total += workers[j];
    numa_dist_runs(ntasks, k, workers, first);
    CHECK(first[0] == 0 && first[k] == ntasks);
    for (unsigned j = 0; j < k; j++) {
        CHECK(first[j] <= first[j + 1], "run %u goes backwards", j);
        double exact = (double)ntasks * workers[j] / total;
        double got = (double)(first[j + 1] - first[j]);
        CHECK(got > exact - 1.0 && got < exact + 1.0, "ntasks %llu group %u: %g tasks for %g",
              (unsigned long long)ntasks, j, got, exact);
    }
}

int main(void)
{
    /* Equal groups: 64 tasks on 4 nodes of 2 threads are 4 blocks of 16. */
    unsigned two[4] = {2, 2, 2, 2};
    iter_ull first[17];
    numa_dist_runs(64, 4, two, first);
    CHECK(first[1] == 16 && first[2] == 32 && first[3] == 48 && first[4] == 64);
    /* Unequal groups: shares follow the thread counts. */
    unsigned uneven[3] = {1, 3, 4};
    numa_dist_runs(80, 3, uneven, first);
    CHECK(first[1] == 10 && first[2] == 40 && first[3] == 80);
    /* Fewer tasks than groups: some groups get none, none gets two too many. */
    numa_dist_runs(3, 4, two, first);
    CHECK(first[4] == 3);
    for (iter_ull n = 1; n <= 200; n++) {
        check_runs(n, 4, two);
        check_runs(n, 3, uneven);
        unsigned one[1] = {7};
        check_runs(n, 1, one);
    }
    /* Huge counts do not overflow. */
    unsigned big[2] = {3, 1};
    numa_dist_runs(~0ull, 2, big, first);
    CHECK(first[1] == (~0ull / 4) * 3 + 2 && first[2] == ~0ull, "%llu",
          (unsigned long long)first[1]);

    /* Strict part: everything under strict, a third (rounded up) under full. */
    CHECK(numa_dist_strict(16, false) == 16);
    CHECK(numa_dist_strict(16, true) == 6);
    CHECK(numa_dist_strict(3, true) == 1 && numa_dist_strict(1, true) == 1);
    CHECK(numa_dist_strict(0, true) == 0);
    /* Task granularity: the thesis's ten per thread until the work is
     * known and large enough, fewer for small loops, never none. */
    CHECK(numa_dist_tasks_per_worker(0, 2, NUMA_DIST_GRAIN_TASKS) == ILAN_TASKS_PER_WORKER);
    CHECK(numa_dist_tasks_per_worker(1e9, 2, NUMA_DIST_GRAIN_TASKS) == ILAN_TASKS_PER_WORKER);
    CHECK(numa_dist_tasks_per_worker(2 * 10 * ILAN_MIN_TASK_NS, 2, NUMA_DIST_GRAIN_TASKS) == 10);
    CHECK(numa_dist_tasks_per_worker(2 * 4.5 * ILAN_MIN_TASK_NS, 2, NUMA_DIST_GRAIN_TASKS) == 4);
    CHECK(numa_dist_tasks_per_worker(36000, 2, NUMA_DIST_GRAIN_TASKS) == 1);
    CHECK(numa_dist_tasks_per_worker(1, 64, NUMA_DIST_GRAIN_TASKS) == 1);
    /* A range launch cuts finer: 4 us tasks, up to 32 per thread. */
    CHECK(numa_dist_tasks_per_worker(0, 2, NUMA_DIST_GRAIN_RANGE) == ILAN_RANGE_TASKS_PER_WORKER);
    CHECK(numa_dist_tasks_per_worker(145000, 2, NUMA_DIST_GRAIN_RANGE) == 18);
    CHECK(numa_dist_tasks_per_worker(145000, 2, NUMA_DIST_GRAIN_TASKS) == 3);

    /* Groups. 2 packages x 2 nodes x 2 cores: nodes when a team spans several. */
    struct topo_model m = {0};
    int real[1] = {0};
    CHECK(machine_build_uniform(&m, 2, 2, 2, 1, real, 1));
    struct team_groups g = {0};
    int spread[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    CHECK(groups_build(&m, 8, spread, &g));
    CHECK(g.kind == GROUP_NODE && g.ngroups == 4 && g.nthreads == 8);
    for (unsigned i = 0; i < 8; i++)
        CHECK(g.slot_group[i] == i / 2, "thread %u in group %u", i, g.slot_group[i]);
    for (unsigned j = 0; j < 4; j++)
        CHECK(g.workers[j] == 2 && g.model_id[j] == (int)j);
    /* Threads on nodes 3 and 1 only (the master on node 3): groups in model
     * order, so group 0 is node 1. Uneven: three threads on node 1. */
    int two_nodes[4] = {6, 2, 3, 2};
    CHECK(groups_build(&m, 4, two_nodes, &g));
    CHECK(g.kind == GROUP_NODE && g.ngroups == 2);
    CHECK(g.model_id[0] == 1 && g.model_id[1] == 3);
    CHECK(g.slot_group[0] == 1 && g.slot_group[1] == 0 && g.slot_group[2] == 0 &&
          g.slot_group[3] == 0);
    CHECK(g.workers[0] == 3 && g.workers[1] == 1);
    /* One node, one cache (uniform model: a cache per node): cores. The
     * 2-core development machine is this case. */
    int one_node[3] = {1, 0, 1};
    CHECK(groups_build(&m, 3, one_node, &g));
    CHECK(g.kind == GROUP_CORE && g.ngroups == 2 && g.workers[0] == 1 && g.workers[1] == 2);
    CHECK(g.slot_group[0] == 1 && g.slot_group[1] == 0 && g.slot_group[2] == 1);
    /* One node, several caches: caches. */
    m.core_llc[1] = 7;
    int llcs[2] = {0, 1};
    CHECK(groups_build(&m, 2, llcs, &g));
    CHECK(g.kind == GROUP_LLC && g.ngroups == 2 && g.model_id[0] == 0 && g.model_id[1] == 7);
    /* Oversubscribed: many threads per core. */
    int over[6] = {0, 0, 0, 1, 1, 1};
    m.core_llc[1] = 0;
    CHECK(groups_build(&m, 6, over, &g));
    CHECK(g.kind == GROUP_CORE && g.ngroups == 2 && g.workers[0] == 3 && g.workers[1] == 3);
    /* No places (binding off): every thread is its own group. */
    int none[3] = {-1, -1, -1};
    CHECK(groups_build(&m, 3, none, &g));
    CHECK(g.kind == GROUP_CORE && g.ngroups == 3);
    for (unsigned i = 0; i < 3; i++)
        CHECK(g.slot_group[i] == i && g.workers[i] == 1 && g.model_id[i] == -1);
    /* Placeless groups, fewer than threads (more busy threads than CPUs):
     * 5 threads in 2 groups alternate, 3 + 2; more groups than threads, or
     * 0, give each thread its own. */
    CHECK(groups_build_placeless(5, 2, &g));
    CHECK(g.kind == GROUP_CORE && g.ngroups == 2 && g.nthreads == 5);
    CHECK(g.workers[0] == 3 && g.workers[1] == 2 && g.model_id[0] == -1 && g.model_id[1] == -1);
    for (unsigned i = 0; i < 5; i++)
        CHECK(g.slot_group[i] == i % 2);
    CHECK(groups_build_placeless(3, 7, &g) && g.ngroups == 3 && g.workers[2] == 1);
    CHECK(groups_build_placeless(3, 0, &g) && g.ngroups == 3 && g.slot_group[1] == 1);
    CHECK(strcmp(group_kind_name(GROUP_NODE), "node") == 0 &&
          strcmp(group_kind_name(GROUP_LLC), "llc") == 0 &&
          strcmp(group_kind_name(GROUP_CORE), "core") == 0);
    groups_free(&g);
    machine_free(&m);
    /* A thief's share of a range's back: half of a group of one's, a
     * ninth of a group of eight's, rounded up, at least one. */
    CHECK(numa_dist_steal_share(10, 1) == 5 && numa_dist_steal_share(11, 1) == 6);
    CHECK(numa_dist_steal_share(90, 8) == 10 && numa_dist_steal_share(91, 8) == 11);
    CHECK(numa_dist_steal_share(1, 8) == 1 && numa_dist_steal_share(0, 8) == 0);
    /* A guided share of the front, at least 1; a lone runner's at most
     * ILAN_RANGE_CLAIM_MOST. */
    CHECK(numa_dist_own_claim(1000, 1) == ILAN_RANGE_CLAIM_MOST);
    CHECK(numa_dist_own_claim(20, 1) == 10 && numa_dist_own_claim(1, 1) == 1);
    CHECK(numa_dist_own_claim(0, 1) == 0 && numa_dist_own_claim(0, 16) == 0);
    CHECK(numa_dist_own_claim(2000, 16) == 62 && numa_dist_own_claim(2000, 2) == 500);
    CHECK(numa_dist_own_claim(32, 16) == 1 && numa_dist_own_claim(31, 16) == 1);
    CHECK(numa_dist_own_claim(64, 16) == 2 && numa_dist_own_claim(100, 0) == 16);
    return unit_report();
}
