/* test_mem_plan.c — unit tests of the memory placement plans (sched/mem_plan.c): page maps of bloc, bloc-cyclic, interleaved and nearest, and their agreement with ILAN's task split. */
#include <stdint.h>
#include <string.h>
#include "sched/mem_plan.h"
#include "sched/numa_dist.h"
#include "sched/taskloop_split.h"
#include "unit.h"

#define PG 4096u

/* The page map of a plan, walked run by run, must match node_of page by page. */
static void check_runs_match(const struct mem_plan *p)
{
    size_t i = 0, n;
    int node;
    while ((n = mem_plan_run(p, i, &node)) > 0) {
        for (size_t k = i; k < i + n; k++)
            CHECK(mem_plan_node_of(p, k) == node, "page %zu: run says %d, node_of %d", k, node,
                  mem_plan_node_of(p, k));
        if (i + n < p->npages)
            CHECK(mem_plan_node_of(p, i + n) != node || p->kind == MEM_PLAN_CYCLIC,
                  "run at %zu stops early", i);
        i += n;
    }
    CHECK(i == p->npages, "runs cover %zu of %zu pages", i, p->npages);
}

static void test_pages(void)
{
    uintptr_t first;
    size_t n;
    CHECK(mem_plan_pages(0x10000, 4 * PG, PG, &first, &n) && first == 0x10000 && n == 4);
    /* Unaligned: every page holding a byte of the range. */
    CHECK(mem_plan_pages(0x10010, 4 * PG, PG, &first, &n) && first == 0x10000 && n == 5);
    CHECK(mem_plan_pages(0x10fff, 2, PG, &first, &n) && first == 0x10000 && n == 2);
    CHECK(mem_plan_pages(0x10fff, 1, PG, &first, &n) && n == 1);
    /* Zero length: no page. */
    CHECK(mem_plan_pages(0x10010, 0, PG, &first, &n) && n == 0);
    /* Bad page sizes and wrapping ranges. */
    CHECK(!mem_plan_pages(0x10000, PG, 0, &first, &n));
    CHECK(!mem_plan_pages(0x10000, PG, 3000, &first, &n));
    CHECK(!mem_plan_pages(UINTPTR_MAX - 10, 100, PG, &first, &n));
    /* Huge pages: the same rule in 2 MiB units. */
    CHECK(mem_plan_pages(0x200000 + 5, 0x200000, 0x200000, &first, &n) && first == 0x200000 &&
          n == 2);
}

static void test_bloc_equal(void)
{
    struct mem_plan p;
    int nodes[4] = {0, 1, 2, 3};
    unsigned w[4] = {2, 2, 2, 2};
    /* 4 MiB over 4 nodes: a quarter (256 pages) each, in order. */
    CHECK(mem_plan_bloc(&p, 0x40000000, 4u << 20, PG, 4, nodes, w));
    CHECK(p.npages == 1024);
    for (size_t i = 0; i < 1024; i++)
        CHECK(mem_plan_node_of(&p, i) == (int)(i / 256), "page %zu", i);
    check_runs_match(&p);
    CHECK(mem_plan_node_of(&p, 1024) == -1);
}

static void test_bloc_unequal(void)
{
    struct mem_plan p;
    int nodes[3] = {1, 4, 6};
    unsigned w[3] = {3, 1, 2};
    CHECK(mem_plan_bloc(&p, 0x40000000, 600 * PG, PG, 3, nodes, w));
    size_t count[7] = {0};
    for (size_t i = 0; i < p.npages; i++)
        count[mem_plan_node_of(&p, i)]++;
    CHECK(count[1] == 300 && count[4] == 100 && count[6] == 200, "%zu %zu %zu", count[1],
          count[4], count[6]);
    check_runs_match(&p);
    /* Not page-aligned: 601 pages touched, every one placed. */
    CHECK(mem_plan_bloc(&p, 0x40000100, 600 * PG, PG, 3, nodes, w) && p.npages == 601);
    check_runs_match(&p);
    /* More nodes than pages: 2 pages over 3 nodes, some runs empty. */
    CHECK(mem_plan_bloc(&p, 0x40000000, 2 * PG, PG, 3, nodes, w));
    CHECK(mem_plan_node_of(&p, 0) == 1 && mem_plan_node_of(&p, 1) == 6, "%d %d",
          mem_plan_node_of(&p, 0), mem_plan_node_of(&p, 1));
    check_runs_match(&p);
    /* Zero length: an empty plan. */
    CHECK(mem_plan_bloc(&p, 0x40000000, 0, PG, 3, nodes, w) && p.npages == 0);
    int node;
    CHECK(mem_plan_run(&p, 0, &node) == 0);
    /* Bad input. */
    unsigned zero[3] = {0, 0, 0};
    CHECK(!mem_plan_bloc(&p, 0x40000000, PG, PG, 3, nodes, zero));
    CHECK(!mem_plan_bloc(&p, 0x40000000, PG, PG, 0, nodes, w));
    CHECK(!mem_plan_bloc(&p, 0x40000000, PG, PG, MEM_PLAN_MAX_NODES + 1, nodes, w));
}

static void test_cyclic(void)
{
    struct mem_plan p;
    int nodes[3] = {0, 1, 2};
    /* Blocks of 2 pages over 3 nodes. */
    CHECK(mem_plan_cyclic(&p, 0x40000000, 13 * PG, PG, 2 * PG, 3, nodes));
    for (size_t i = 0; i < 13; i++)
        CHECK(mem_plan_node_of(&p, i) == (int)((i / 2) % 3), "page %zu", i);
    check_runs_match(&p);
    /* A block of 5000 bytes is rounded up to 2 pages. */
    CHECK(mem_plan_cyclic(&p, 0x40000000, 13 * PG, PG, 5000, 3, nodes) && p.bloc == 2);
    /* Interleaved: one page per node in turn. */
    CHECK(mem_plan_cyclic(&p, 0x40000000, 7 * PG, PG, PG, 3, nodes));
    for (size_t i = 0; i < 7; i++)
        CHECK(mem_plan_node_of(&p, i) == (int)(i % 3), "page %zu", i);
    check_runs_match(&p);
    /* More nodes than pages. */
    CHECK(mem_plan_cyclic(&p, 0x40000000, 2 * PG, PG, PG, 3, nodes) && p.npages == 2);
    CHECK(mem_plan_node_of(&p, 1) == 1);
    CHECK(!mem_plan_cyclic(&p, 0x40000000, 2 * PG, PG, 0, 3, nodes));
}

static void test_node_and_nearest(void)
{
    struct mem_plan p;
    CHECK(mem_plan_node(&p, 0x40000800, 3 * PG, PG, 5) && p.npages == 4);
    for (size_t i = 0; i < 4; i++)
        CHECK(mem_plan_node_of(&p, i) == 5);
    check_runs_match(&p);
    CHECK(!mem_plan_node(&p, 0x40000000, PG, PG, -1));
    /* 4 nodes, two packages: 0,1 | 2,3. */
    int dist[16] = {10, 20, 30, 30, 20, 10, 30, 30, 30, 30, 10, 20, 30, 30, 20, 10};
    int cand[2] = {3, 1};
    CHECK(mem_plan_nearest(dist, 4, 0, 2, cand) == 1);
    CHECK(mem_plan_nearest(dist, 4, 2, 2, cand) == 3);
    int own[2] = {2, 0};
    CHECK(mem_plan_nearest(dist, 4, 2, 2, own) == 2);
    CHECK(mem_plan_nearest(dist, 4, 4, 2, cand) == -1);
    CHECK(mem_plan_nearest(dist, 4, 0, 0, cand) == -1);
}

/*
 * The data-aware taskloop: an array bloc-allocated by a team and a taskloop
 * of that team over it with one task per page put every task on the node
 * holding its page, for unequal nodes too, because both cuts are
 * numa_dist_runs. Tasks are cut by gcc's rules (taskloop_split_compute).
 */
static void test_taskloop_agrees(void)
{
    static const unsigned weights[][4] = {{2, 2, 2, 2}, {3, 1, 2, 2}, {1, 5, 1, 1}, {7, 1, 1, 3}};
    int nodes[4] = {0, 1, 2, 3};
    for (unsigned c = 0; c < 4; c++)
        for (size_t npages = 1; npages <= 300; npages += 7) {
            const size_t elem = 8, per_page = PG / elem;
            struct mem_plan p;
            CHECK(mem_plan_bloc(&p, 0x40000000, npages * PG, PG, 4, nodes, weights[c]));
            iter_ull n = npages * per_page;
            struct taskloop_split s = taskloop_split_compute(n, false, false, npages, 4);
            iter_ull first[5];
            numa_dist_runs(s.ntasks, 4, weights[c], first);
            for (unsigned g = 0; g < 4; g++)
                for (iter_ull t = first[g]; t < first[g + 1]; t++) {
                    iter_ull lo = taskloop_task_offset(&s, t);
                    iter_ull hi = lo + taskloop_task_size(&s, t);
                    for (iter_ull i = lo; i < hi; i += per_page)
                        CHECK(mem_plan_node_of(&p, i / per_page) == nodes[g],
                              "weights %u pages %zu: task %llu on node %u, its page %llu on %d",
                              c, npages, t, g, i / per_page, mem_plan_node_of(&p, i / per_page));
                }
        }
}

int main(void)
{
    test_pages();
    test_bloc_equal();
    test_bloc_unequal();
    test_cyclic();
    test_node_and_nearest();
    test_taskloop_agrees();
    return unit_report();
}
