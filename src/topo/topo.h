/* topo.h — the machine model (packages, NUMA nodes, last-level caches, cores, PUs) that every NUMA decision reads. */
#ifndef ILAN_TOPO_TOPO_H
#define ILAN_TOPO_TOPO_H

#include <stdbool.h>
#include "sched/machine.h"

/* The process's model; valid after topo_init. */
extern struct topo_model topo;

/* Builds `topo` once (later calls do nothing): from hwloc when the build
 * has it and it works, else the fallback (one package, one node, one core
 * per allowed CPU). Never fails. */
void topo_init(void);

/* The what-if line, printed once on stderr by whoever asks first (with
 * OMP_DISPLAY_ENV or ILAN_VERBOSE); nothing for the real machine. */
void topo_say_whatif(void);

/* ---- queries (schedulers see only these) ----------------------------- */

/* NUMA nodes in the model (>= 1). */
int topo_num_nodes(void);

/* Node of the PU whose OS index is os_cpu (the model's index under a
 * what-if); -1 if the model has no such PU. */
int topo_node_of_cpu(int os_cpu);

/* Core (model id) of the PU whose OS index is os_cpu; -1 if none. */
int topo_core_of_cpu(int os_cpu);

/* Core (model id) of real CPU cpu, as os_current_cpu reports it: the core
 * of that CPU's PU on the real machine, the core of the first model PU
 * mapped onto it under a what-if machine; -1 if none. */
int topo_core_of_real_cpu(int cpu);

/* The lowest-numbered core of node `node`; -1 if it has none. */
int topo_first_core_of_node(int node);

/* Distance between nodes a and b (10 local); -1 out of range. */
int topo_distance(int a, int b);

/* True when the model is a what-if machine (HWLOC_SYNTHETIC/XMLFILE). */
bool topo_is_whatif(void);

/* The real CPU model PU `pu` (model order index) is bound to; -1 out of range. */
int topo_real_cpu_of(int pu);

/* ---- pure helpers (unit-tested) --------------------------------------- */

/* Model PU i runs on real[i % nreal]: out[0..npus-1]. */
void topo_map_round_robin(int npus, const int *real, int nreal, int *out);

/* ilan's distance guess: 10 same node, 20 same package, 30 otherwise.
 * node_package[i] is node i's package; out is nnodes * nnodes. */
void topo_fallback_distances(int nnodes, const int *node_package, int *out);

/* Chooses n cores to reserve (ILAN_RESERVE_CORES): one from each package
 * in turn (package 0, 1, ...), each package giving its last unreserved
 * core first; reserved[c] is set for the chosen cores (others cleared).
 * Returns false (reserving nothing) unless 0 <= n < ncores. */
bool topo_pick_reserved(int ncores, const int *core_package, int npackages, int n,
                        bool *reserved);

/* A uniform made-up machine for tests: packages x nodes_per_package x
 * cores_per_node x pus_per_core, one LLC per node, PU os index = model
 * index, distances by the fallback rule, PUs mapped round-robin onto
 * real[0..nreal-1]. Frees what *m held. False when out of memory. */
bool topo_build_uniform(struct topo_model *m, int packages, int nodes_per_package,
                        int cores_per_node, int pus_per_core, const int *real, int nreal);

/* Frees a model's arrays and zeroes it. */
void topo_free(struct topo_model *m);

#endif
