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

/* Model PU i runs on real[i % nreal]: out[0..npus-1]. */
void machine_map_round_robin(int npus, const int *real, int nreal, int *out);

/* ilan's distance guess: 10 same node, 20 same package, 30 otherwise.
 * node_package[i] is node i's package; out is nnodes * nnodes. */
void machine_fallback_distances(int nnodes, const int *node_package, int *out);

/* Chooses n cores to reserve (ILAN_RESERVE_CORES): one from each package
 * in turn (package 0, 1, ...), each package giving its last unreserved
 * core first; reserved[c] is set for the chosen cores (others cleared).
 * Returns false (reserving nothing) unless 0 <= n < ncores. */
bool machine_pick_reserved(int ncores, const int *core_package, int npackages, int n,
                        bool *reserved);

/* A uniform made-up machine for tests: packages x nodes_per_package x
 * cores_per_node x pus_per_core, one LLC per node, PU os index = model
 * index, distances by the fallback rule, PUs mapped round-robin onto
 * real[0..nreal-1]. Frees what *m held. False when out of memory. */
bool machine_build_uniform(struct topo_model *m, int packages, int nodes_per_package,
                        int cores_per_node, int pus_per_core, const int *real, int nreal);

/* Frees a model's arrays and zeroes it. */
void machine_free(struct topo_model *m);

/* Allocates every array of a model of the given sizes (freeing what *m
 * held); false when out of memory. */
bool machine_alloc(struct topo_model *m, int npus, int ncores, int nnodes);

/* Fills m->dist with the fallback rule from the cores' packages (node i's
 * package = that of its first core) and marks it a guess; false when out
 * of memory. */
bool machine_guess_distances(struct topo_model *m);

#endif
