/* ilan.h — ilan's public extension API (the only header users include). */
#ifndef ILAN_H
#define ILAN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The ilan release this program runs on, e.g. "0.1.0". A program can prove it
 * runs on ilan rather than GNU libgomp with dlsym(RTLD_DEFAULT, "ilan_version"). */
const char *ilan_version(void);

/* ---- NUMA topology, as the scheduler sees it --------------------------------
 * The machine model is the real machine restricted to the process's CPUs, or
 * the what-if machine of HWLOC_SYNTHETIC / HWLOC_XMLFILE (whose PUs run
 * round-robin on the real CPUs). Nodes are numbered 0..n-1 densely. */

/* NUMA nodes in the model (>= 1). */
int ilan_get_num_numa_nodes(void);

/* The node of the calling thread's place (the node of the place's first
 * CPU); -1 when the thread has no place (not bound: OMP_PROC_BIND=false, or
 * the initial thread before its first parallel region). */
int ilan_get_numa_node_num(void);

/* The node of place `place` (an omp_get_place_num() number); -1 if out of range. */
int ilan_get_place_node(int place);

/* The NUMA distance between nodes a and b (10 for a == b, larger is
 * farther; a 10/20/30 same-node/same-package/other guess when the OS gives
 * no table); -1 if out of range. */
int ilan_get_numa_distance(int a, int b);

/* ---- memory placement (README "Memory placement") ---------------------------
 * Locality domains are the NUMA nodes holding threads of the current
 * parallel region (seed 001): with bound threads, the nodes of their places,
 * each weighted by its threads; outside a region or with unbound threads,
 * every node of the machine model, weighted by its cores. Ranges are rounded
 * out to whole pages (a partial page at either end moves with the range).
 * The int functions return 0 (ilan_mem_nodes: the nodes reported) or -1
 * with errno set: EINVAL for a null pointer, a size of 0, a node or thread
 * that does not exist, or a range not from ilan_alloc_bloc* where one is
 * required. On a what-if machine (HWLOC_SYNTHETIC / HWLOC_XMLFILE) nothing
 * is applied: placements are recorded and ilan_mem_nodes answers from the
 * record (ilan_mem_simulated() says so). */
#include <stddef.h>

int ilan_get_num_locality_domains(void);   /* domains holding threads of the current parallel region */
int ilan_get_locality_domain_num(void);    /* the calling thread's domain, 0-based (-1: none) */
void *ilan_alloc_bloc(size_t size);        /* bloc distribution over the region's domains */
void *ilan_alloc_bloc_cyclic(size_t size, size_t bloc); /* blocks of bloc bytes round-robin */
void ilan_mem_free(void *p, size_t size);  /* for the two allocators above (errno EINVAL otherwise) */
/* Places the range on the node of team thread thread_num of the calling
 * thread's team; it follows that thread when its place changes. A
 * thread_num of -1 attaches it to the calling thread's whole team (EINVAL
 * outside a parallel region): with ILAN_BUBBLES it moves with the team's
 * bubble (cache: to its home node; memory: spread over its threads' nodes),
 * else it stays on the caller's node. */
int ilan_mem_attach(void *p, size_t size, int thread_num);
int ilan_mem_migrate(void *p, size_t size, int node); /* pages in memory move to node now */
/* Protects the range; the first thread touching a page moves it to its own
 * node, then the page is accessible again. A SIGSEGV handler the program
 * installed before still gets every fault that is not ilan's. */
int ilan_mem_migrate_on_next_touch(void *p, size_t size);
/* Pages of the range per node into pages_per_node[0..max_nodes-1];
 * returns the nodes reported (min(nodes, max_nodes)). */
int ilan_mem_nodes(const void *p, size_t size, size_t *pages_per_node, int max_nodes);
/* 1 when placements are recorded instead of applied (a what-if machine). */
int ilan_mem_simulated(void);
/* Registers [p, p + size) as the array the calling thread's next taskloop
 * (whichever it is, then forgotten) iterates over bloc-wise: iteration k
 * of n works on the bytes near k * size / n. In the ILAN taskloop modes
 * (ilan, numa) that taskloop then runs only on the groups of threads whose
 * NUMA nodes hold pages of the array, each group the run of tasks the bloc
 * layout put on its node (ilan_alloc_bloc of the same team), with strict
 * stealing unless ILAN_STEAL_POLICY=full, and without exploring; the
 * report's "data" member of that taskloop counts how many of its tasks ran
 * on the node holding their share. The ws mode and undeferred taskloops
 * ignore it. 0, or -1 with errno EINVAL (null p, size 0). */
int ilan_taskloop_data(const void *p, size_t size);
/* A count of the placement engine: "next_touch_faults" (pages moved by the
 * first toucher), "next_touch_waits", "next_touch_pages", "next_touch_ranges",
 * "foreign_faults" (SIGSEGVs passed to the program's handler),
 * "taskloop_data_runs", "taskloop_data_tasks", "taskloop_data_on_node"
 * (taskloops with a registered array, their tasks, and those that ran on
 * the node holding their share, totals of finished taskloops); -1 if unknown. */
long long ilan_mem_count(const char *name);

/* ---- counters (ILAN_COUNTERS, ILAN_REPORT) -----------------------------------
 * Each thread counts events (tasks created and executed, steals, waits, ...;
 * the names are the keys of "counters" in an ILAN_REPORT file) from its
 * first OpenMP event on. Measurement is off unless ILAN_COUNTERS (or
 * ILAN_REPORT, or ILAN_TRACE) turns it on. */

/* Counter `name` of the thread registered `thread`-th (0: the thread that
 * started the runtime, then in the order threads first counted), or the
 * sum over every thread when thread < 0; -1 when counting is off, the name
 * unknown or the thread out of range. Any thread, any time (a sum taken
 * while other threads run is a snapshot). */
long long ilan_counter(const char *name, int thread);

/* Threads that have counted so far (0 when counting is off). */
int ilan_counter_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* ILAN_H */
