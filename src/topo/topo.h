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

/* The real CPUs of the process's affinity mask at start-up, before
 * anything was bound, ascending; *n of them (0 and NULL before topo_init). */
const int *topo_startup_cpus(int *n);

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

#endif
