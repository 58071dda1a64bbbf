/* machine.h — the machine model as plain data (packages, NUMA nodes, last-level caches, cores, PUs): what every NUMA policy reads, built by topo/. */
#ifndef ILAN_SCHED_MACHINE_H
#define ILAN_SCHED_MACHINE_H

#include <stdbool.h>

/*
 * The machine as plain data, built once at start-up (topo_init) from hwloc,
 * restricted to the CPUs the process may use; or a what-if machine
 * (HWLOC_SYNTHETIC / HWLOC_XMLFILE) whose PUs run round-robin on the real
 * allowed CPUs. Everything is numbered densely in model order (package by
 * package, node by node, cache by cache, core by core), so nodes can be
 * unequal after restriction but ids never have holes.
 */
struct topo_model {
    int npus;           /* hardware threads (PUs) */
    int ncores;         /* cores: PUs that share a core */
    int nllcs;          /* last-level-cache groups of cores */
    int nnodes;         /* NUMA nodes */
    int npackages;      /* packages (sockets) */
    int *pu_os;         /* [npus] OS index of each PU (the model's, under a what-if) */
    int *pu_core;       /* [npus] core of each PU */
    int *pu_real;       /* [npus] real CPU a thread placed on this PU is bound to */
    int *core_first_pu; /* [ncores + 1] the PUs of core c are core_first_pu[c] .. [c+1]-1 */
    int *core_node;     /* [ncores] NUMA node of each core */
    int *core_llc;      /* [ncores] last-level-cache group of each core */
    int *core_package;  /* [ncores] package of each core */
    int *node_os;       /* [nnodes] OS index of each node (for messages) */
    int *dist;          /* [nnodes * nnodes] NUMA distances, 10 = local */
    bool dist_fallback; /* dist is ilan's 10/20/30 guess, not the OS's table */
    bool whatif;        /* the model is not the running machine */
    int nreal;          /* real CPUs the PUs are mapped onto */
    const char *source; /* "hwloc", "fallback", or the what-if variable and value */
};

#endif
