/* machine.c — building and freeing machine models as plain data: made-up uniform machines for tests and the simulator, guessed distances, the choice of reserved cores. */
#include "sched/machine.h"

#include <stdlib.h>
#include <string.h>

void machine_map_round_robin(int npus, const int *real, int nreal, int *out)
{
    for (int i = 0; i < npus; i++)
        out[i] = nreal > 0 ? real[i % nreal] : 0;
}

void machine_fallback_distances(int nnodes, const int *node_package, int *out)
{
    for (int a = 0; a < nnodes; a++)
        for (int b = 0; b < nnodes; b++)
            out[a * nnodes + b] = a == b ? 10 : node_package[a] == node_package[b] ? 20 : 30;
}

bool machine_pick_reserved(int ncores, const int *core_package, int npackages, int n,
                        bool *reserved)
{
    for (int c = 0; c < ncores; c++)
        reserved[c] = false;
    if (n < 0 || n >= ncores)
        return false;
    /* Round robin over packages; each gives its last free core. A package
     * with nothing left is skipped (n < ncores, so some package has one). */
    int taken = 0;
    for (int pkg = 0; taken < n; pkg = (pkg + 1) % npackages) {
        for (int c = ncores - 1; c >= 0; c--)
            if (core_package[c] == pkg && !reserved[c]) {
                reserved[c] = true;
                taken++;
                break;
            }
    }
    return true;
}

void machine_free(struct topo_model *m)
{
    free(m->pu_os);
    free(m->pu_core);
    free(m->pu_real);
    free(m->core_first_pu);
    free(m->core_node);
    free(m->core_llc);
    free(m->core_package);
    free(m->node_os);
    free(m->dist);
    memset(m, 0, sizeof *m);
}

bool machine_alloc(struct topo_model *m, int npus, int ncores, int nnodes)
{
    machine_free(m);
    m->npus = npus;
    m->ncores = ncores;
    m->nnodes = nnodes;
    m->pu_os = calloc((size_t)npus, sizeof(int));
    m->pu_core = calloc((size_t)npus, sizeof(int));
    m->pu_real = calloc((size_t)npus, sizeof(int));
    m->core_first_pu = calloc((size_t)ncores + 1, sizeof(int));
    m->core_node = calloc((size_t)ncores, sizeof(int));
    m->core_llc = calloc((size_t)ncores, sizeof(int));
    m->core_package = calloc((size_t)ncores, sizeof(int));
    m->node_os = calloc((size_t)nnodes, sizeof(int));
    m->dist = calloc((size_t)nnodes * (size_t)nnodes, sizeof(int));
    if (!m->pu_os || !m->pu_core || !m->pu_real || !m->core_first_pu || !m->core_node ||
        !m->core_llc || !m->core_package || !m->node_os || !m->dist) {
        machine_free(m);
        return false;
    }
    return true;
}

bool machine_guess_distances(struct topo_model *m)
{
    int *node_package = calloc((size_t)m->nnodes, sizeof(int));
    if (!node_package)
        return false;
    for (int c = m->ncores - 1; c >= 0; c--)
        node_package[m->core_node[c]] = m->core_package[c];
    machine_fallback_distances(m->nnodes, node_package, m->dist);
    free(node_package);
    m->dist_fallback = true;
    return true;
}

bool machine_build_uniform(struct topo_model *m, int packages, int nodes_per_package,
                        int cores_per_node, int pus_per_core, const int *real, int nreal)
{
    int nnodes = packages * nodes_per_package;
    int ncores = nnodes * cores_per_node;
    int npus = ncores * pus_per_core;
    if (!machine_alloc(m, npus, ncores, nnodes))
        return false;
    m->nllcs = nnodes;
    m->npackages = packages;
    for (int c = 0; c < ncores; c++) {
        m->core_node[c] = c / cores_per_node;
        m->core_llc[c] = c / cores_per_node;
        m->core_package[c] = c / (cores_per_node * nodes_per_package);
        m->core_first_pu[c] = c * pus_per_core;
    }
    m->core_first_pu[ncores] = npus;
    for (int p = 0; p < npus; p++) {
        m->pu_os[p] = p;
        m->pu_core[p] = p / pus_per_core;
    }
    for (int n = 0; n < nnodes; n++)
        m->node_os[n] = n;
    machine_map_round_robin(npus, real, nreal, m->pu_real);
    m->nreal = nreal;
    m->source = "uniform";
    return machine_guess_distances(m);
}

