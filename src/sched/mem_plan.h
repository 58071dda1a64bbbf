/* mem_plan.h — memory placement plans: for a byte range, which NUMA node each of its pages goes to (pure policy). */
#ifndef ILAN_SCHED_MEM_PLAN_H
#define ILAN_SCHED_MEM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most nodes a plan spreads over (a larger machine's plan fails with EINVAL). */
#define MEM_PLAN_MAX_NODES 64

/* The locality domains a distribution spreads over: NUMA nodes and the
 * threads of the team on each (what bloc runs are proportional to). */
struct mem_domains {
    unsigned n;                          /* domains (>= 1) */
    int node[MEM_PLAN_MAX_NODES];        /* model node of each, increasing */
    unsigned weight[MEM_PLAN_MAX_NODES]; /* threads (or cores) of the team on each */
};

/* How a plan maps pages to nodes. */
enum mem_plan_kind {
    MEM_PLAN_NODE,   /* every page on nodes[0] */
    MEM_PLAN_BLOC,   /* contiguous runs, run j on nodes[j], lengths proportional to weight[j] */
    MEM_PLAN_CYCLIC, /* blocks of `bloc` pages dealt to nodes[0], nodes[1], ... in turn */
};

/*
 * A plan for the pages [first_page, first_page + npages) of size `page`.
 * Pages are indexed 0..npages-1 from first_page. Interleaving is CYCLIC
 * with bloc = 1.
 */
struct mem_plan {
    enum mem_plan_kind kind; /* the rule */
    uintptr_t first_page;    /* address of page 0 (a multiple of `page`) */
    size_t page;             /* page size in bytes (a power of two) */
    size_t npages;           /* pages covered (0: an empty plan) */
    unsigned nnodes;         /* entries used in nodes[] (>= 1) */
    int nodes[MEM_PLAN_MAX_NODES];             /* the nodes, in the order they receive pages */
    size_t first[MEM_PLAN_MAX_NODES + 1];      /* BLOC: run j is pages [first[j], first[j+1]) */
    size_t bloc;             /* CYCLIC: pages per block (>= 1) */
};

/*
 * The pages a byte range [addr, addr + size) touches, rounded outward to
 * whole pages: *first_page is addr rounded down, *npages counts every page
 * holding at least one byte of the range (0 when size is 0). A partial
 * first or last page is placed whole, so bytes of it outside the range
 * (a neighbour's data) move with it. False when page is not a power of two
 * or the range wraps around the address space.
 */
bool mem_plan_pages(uintptr_t addr, size_t size, size_t page, uintptr_t *first_page,
                    size_t *npages);

/* Every page of the range on `node`. False on bad input (see mem_plan_pages). */
bool mem_plan_node(struct mem_plan *p, uintptr_t addr, size_t size, size_t page, int node);

/*
 * The bloc distribution of seed 001 (section 3.2): the pages are cut into k
 * contiguous runs, run j going to nodes[j], its length proportional to
 * weight[j] (the team's threads on that node) with the same arithmetic as
 * ILAN's task split (numa_dist_runs), so that a taskloop of the same team
 * over the same array gives each node the iterations whose pages it holds.
 * More nodes than pages: some runs are empty. False on bad input, k == 0,
 * k > MEM_PLAN_MAX_NODES or all weights zero.
 */
bool mem_plan_bloc(struct mem_plan *p, uintptr_t addr, size_t size, size_t page, unsigned k,
                   const int *nodes, const unsigned *weight);

/*
 * The bloc-cyclic distribution: blocks of `bloc_bytes` (rounded up to whole
 * pages; a block smaller than a page cannot be placed apart from its
 * neighbours) dealt round-robin to nodes[0..k-1], starting at the range's
 * first page. bloc_bytes == page size is page interleaving. False on bad
 * input, bloc_bytes == 0, k == 0 or k > MEM_PLAN_MAX_NODES.
 */
bool mem_plan_cyclic(struct mem_plan *p, uintptr_t addr, size_t size, size_t page,
                     size_t bloc_bytes, unsigned k, const int *nodes);

/* The node plan p gives page i (0 <= i < npages); -1 when i is out of range. */
int mem_plan_node_of(const struct mem_plan *p, size_t i);

/*
 * The run of pages starting at page i that go to one node: returns its
 * length (0 when i >= npages) and that node in *node. Walking a plan run by
 * run: for (i = 0; (n = mem_plan_run(p, i, &node)) > 0; i += n).
 */
size_t mem_plan_run(const struct mem_plan *p, size_t i, int *node);

/*
 * The nearest node to `from` among the k candidate nodes (distance matrix
 * dist of nnodes x nnodes, 10 local): the smallest distance, the lowest
 * index on ties; -1 when k == 0 or from is out of range.
 */
int mem_plan_nearest(const int *dist, int nnodes, int from, unsigned k, const int *nodes);

#endif
