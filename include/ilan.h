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
