/* topo.c — building the machine model from hwloc (the only file that calls hwloc), or the one-node fallback. */
#include "topo/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/env.h"
#include "os/linux/affinity.h"

#if ILAN_HAVE_HWLOC
#include <hwloc.h>
#endif

struct topo_model topo;

/* The CPUs of the process's start-up affinity mask, ascending
 * (topo_allowed_cpus), kept for topo_startup_cpus. */
static int *startup_cpus;
static int nstartup_cpus;

/* The fallback distances, or a fatal error when out of memory. */
static void topo_guess_distances_or_die(struct topo_model *m)
{
    if (!machine_guess_distances(m))
        ilan_fatal("out of memory building the machine model");
}

/* ---- the real machine ----------------------------------------------------- */

/* The CPUs of the process's affinity mask (the initial thread's, read
 * before anything binds it), malloc'ed; *n >= 1. */
static int *topo_allowed_cpus(int *n)
{
    int max = 1024;
    for (;;) {
        int *cpus = malloc((size_t)max * sizeof *cpus);
        if (!cpus)
            ilan_fatal("out of memory building the machine model");
        int got = os_thread_cpus(cpus, max);
        if (got < 0) { /* the OS does not say: CPU 0 */
            cpus[0] = 0;
            *n = 1;
            return cpus;
        }
        if (got <= max) {
            *n = got > 0 ? got : 1;
            if (got == 0)
                cpus[0] = 0;
            return cpus;
        }
        free(cpus);
        max = got;
    }
}

/* One package, one node, one cache, one core per allowed CPU. */
static void topo_build_fallback(struct topo_model *m, const int *cpus, int n)
{
    if (!machine_alloc(m, n, n, 1))
        ilan_fatal("out of memory building the machine model");
    m->nllcs = 1;
    m->npackages = 1;
    for (int i = 0; i < n; i++) {
        m->pu_os[i] = cpus[i];
        m->pu_core[i] = i;
        m->pu_real[i] = cpus[i];
        m->core_first_pu[i] = i;
    }
    m->core_first_pu[n] = n;
    m->nreal = n;
    topo_guess_distances_or_die(m);
    m->source = "fallback";
}

#if ILAN_HAVE_HWLOC

/* Dense renumbering of sparse ids in order of first appearance. */
struct renumber {
    int *seen;   /* original ids met so far, index = new id */
    int n;       /* ids met */
};

static int renumber_id(struct renumber *r, int id)
{
    for (int i = 0; i < r->n; i++)
        if (r->seen[i] == id)
            return i;
    r->seen[r->n] = id;
    return r->n++;
}

/* The topmost cache above obj (the last-level cache); NULL if none. */
static hwloc_obj_t topo_llc_of(hwloc_obj_t obj)
{
    hwloc_obj_t llc = NULL;
    for (hwloc_obj_t a = obj->parent; a; a = a->parent)
        if (hwloc_obj_type_is_cache(a->type) && !hwloc_obj_type_is_icache(a->type))
            llc = a;
    return llc;
}

/* The NUMA node whose CPUs contain the PU; NULL if none. */
static hwloc_obj_t topo_numa_of(hwloc_topology_t t, hwloc_obj_t pu)
{
    hwloc_obj_t node = NULL;
    while ((node = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, node)) != NULL)
        if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index))
            return node;
    return NULL;
}

/* Fills dist from hwloc's OS latency matrix; false if it has none that
 * covers every node of the model. */
static bool topo_hwloc_distances(hwloc_topology_t t, struct topo_model *m)
{
    unsigned nr = 1;
    struct hwloc_distances_s *d = NULL;
    unsigned long kind = HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY;
    if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &nr, &d, kind, 0) != 0 || nr == 0)
        return false;
    bool ok = true;
    for (int a = 0; a < m->nnodes && ok; a++)
        for (int b = 0; b < m->nnodes && ok; b++) {
            int ia = -1, ib = -1;
            for (unsigned i = 0; i < d->nbobjs; i++) {
                if ((int)d->objs[i]->os_index == m->node_os[a])
                    ia = (int)i;
                if ((int)d->objs[i]->os_index == m->node_os[b])
                    ib = (int)i;
            }
            if (ia < 0 || ib < 0)
                ok = false;
            else
                m->dist[a * m->nnodes + b] = (int)d->values[ia * (int)d->nbobjs + ib];
        }
    hwloc_distances_release(t, d);
    return ok;
}

/* The model from hwloc; false (nothing built) when hwloc fails or leaves
 * no PU. Real machine: only PUs in allowed[]; what-if: all PUs. */
static bool topo_build_hwloc(struct topo_model *m, const int *allowed, int nallowed)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0)
        return false;
    /* hwloc's x86 backend binds the calling thread to each PU in turn to
     * read its cpuid (three sched_setaffinity calls at start-up), leaving
     * it to the scheduler on the last PU it visited: an affinity change
     * nobody asked for. Linux's own files say enough for the model. */
    (void)hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_DONT_CHANGE_BINDING);
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return false;
    }
    bool whatif = !hwloc_topology_is_thissystem(t);
    hwloc_bitmap_t use = hwloc_bitmap_alloc();
    for (int i = 0; i < nallowed; i++)
        hwloc_bitmap_set(use, (unsigned)allowed[i]);

    int total = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    int nnodes_max = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    int npkg_max = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    int nobj = total + nnodes_max + npkg_max + 4;
    hwloc_obj_t *pus = calloc((size_t)(total > 0 ? total : 1), sizeof *pus);
    int *ids = calloc((size_t)nobj * 4, sizeof(int));
    bool built = false;
    if (!pus || !ids || total <= 0)
        goto out;

    /* PUs in model order (hwloc's logical order), kept when usable. */
    int npus = 0;
    for (hwloc_obj_t pu = NULL; (pu = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PU, pu));)
        if (whatif || hwloc_bitmap_isset(use, pu->os_index))
            pus[npus++] = pu;
    if (npus == 0)
        goto out;

    /* Cores: runs of PUs with the same core ancestor (or the PU itself). */
    struct renumber rnode = {ids, 0}, rllc = {ids + nobj, 0}, rpkg = {ids + 2 * nobj, 0};
    int ncores = 0;
    hwloc_obj_t last_core = NULL;
    int *pu_core = ids + 3 * nobj;
    for (int i = 0; i < npus; i++) {
        hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, pus[i]);
        if (!core)
            core = pus[i];
        if (core != last_core)
            ncores++;
        last_core = core;
        pu_core[i] = ncores - 1;
    }
    /* Count nodes first (renumbering into the scratch arrays). */
    for (int i = 0; i < npus; i++) {
        hwloc_obj_t node = topo_numa_of(t, pus[i]);
        renumber_id(&rnode, node ? (int)node->logical_index : -1);
    }
    int nnodes = rnode.n;
    rnode.n = 0;
    if (!machine_alloc(m, npus, ncores, nnodes))
        goto out;
    for (int i = 0; i < npus; i++) {
        int c = pu_core[i];
        m->pu_os[i] = (int)pus[i]->os_index;
        m->pu_core[i] = c;
        if (i == 0 || pu_core[i - 1] != c) {
            m->core_first_pu[c] = i;
            hwloc_obj_t node = topo_numa_of(t, pus[i]);
            hwloc_obj_t llc = topo_llc_of(pus[i]);
            hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, pus[i]);
            m->core_node[c] = renumber_id(&rnode, node ? (int)node->logical_index : -1);
            m->node_os[m->core_node[c]] = node ? (int)node->os_index : 0;
            m->core_package[c] = renumber_id(&rpkg, pkg ? (int)pkg->logical_index : -1);
            /* No cache: the package stands for it. */
            m->core_llc[c] = renumber_id(&rllc, llc ? (int)llc->gp_index
                                                    : -2 - m->core_package[c]);
        }
    }
    m->core_first_pu[ncores] = npus;
    m->nllcs = rllc.n;
    m->npackages = rpkg.n;
    if (whatif)
        machine_map_round_robin(npus, allowed, nallowed, m->pu_real);
    else
        for (int i = 0; i < npus; i++)
            m->pu_real[i] = m->pu_os[i];
    m->nreal = nallowed;
    m->whatif = whatif;
    if (!topo_hwloc_distances(t, m))
        topo_guess_distances_or_die(m);
    m->source = "hwloc";
    built = true;
out:
    free(pus);
    free(ids);
    hwloc_bitmap_free(use);
    hwloc_topology_destroy(t);
    return built;
}

#endif /* ILAN_HAVE_HWLOC */

/* The what-if description: "HWLOC_SYNTHETIC=..." or "HWLOC_XMLFILE=...". */
static char topo_whatif_text[256];

/* hwloc falls back to the real machine, silently, when a what-if variable
 * names something it cannot load (HWLOC_SYNTHETIC=garbage, a missing or
 * malformed HWLOC_XMLFILE): say so once, since every NUMA decision then
 * describes another machine than the user meant. */
static void topo_check_whatif_loaded(void)
{
    if (!topo.whatif && !config.whatif_thissystem && config.whatif_name)
        ilan_warn("%s='%s' could not be loaded as a what-if topology; using the real machine",
                  config.whatif_name, config.whatif_value);
}

void topo_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    int nallowed;
    int *allowed = topo_allowed_cpus(&nallowed);
    bool built = false;
#if ILAN_HAVE_HWLOC
    built = topo_build_hwloc(&topo, allowed, nallowed);
#endif
    if (!built)
        topo_build_fallback(&topo, allowed, nallowed);
    topo_check_whatif_loaded();
    if (topo.whatif) {
        snprintf(topo_whatif_text, sizeof topo_whatif_text, "%s=%s",
                 config.whatif_name ? config.whatif_name : "what-if",
                 config.whatif_value ? config.whatif_value : "?");
        topo.source = topo_whatif_text;
    }
    startup_cpus = allowed;
    nstartup_cpus = nallowed;
}

const int *topo_startup_cpus(int *n)
{
    *n = nstartup_cpus;
    return startup_cpus;
}

void topo_say_whatif(void)
{
    static bool said;
    if (!topo.whatif || said)
        return;
    said = true;
    fprintf(stderr,
            "ilan: what-if topology (%s): %d PUs in %d NUMA nodes mapped round-robin onto "
            "%d real CPU%s\n",
            topo.source, topo.npus, topo.nnodes, topo.nreal, topo.nreal == 1 ? "" : "s");
}

/* ---- queries ------------------------------------------------------------ */

int topo_num_nodes(void)
{
    return topo.nnodes > 0 ? topo.nnodes : 1;
}

int topo_core_of_cpu(int os_cpu)
{
    for (int p = 0; p < topo.npus; p++)
        if (topo.pu_os[p] == os_cpu)
            return topo.pu_core[p];
    return -1;
}

int topo_core_of_real_cpu(int cpu)
{
    if (!topo.whatif)
        return topo_core_of_cpu(cpu);
    for (int p = 0; p < topo.npus; p++)
        if (topo.pu_real[p] == cpu)
            return topo.pu_core[p];
    return -1;
}

int topo_first_core_of_node(int node)
{
    for (int c = 0; c < topo.ncores; c++)
        if (topo.core_node[c] == node)
            return c;
    return -1;
}

int topo_node_of_cpu(int os_cpu)
{
    int core = topo_core_of_cpu(os_cpu);
    return core < 0 ? -1 : topo.core_node[core];
}

int topo_distance(int a, int b)
{
    if (a < 0 || b < 0 || a >= topo.nnodes || b >= topo.nnodes)
        return -1;
    return topo.dist[a * topo.nnodes + b];
}

bool topo_is_whatif(void)
{
    return topo.whatif;
}

int topo_real_cpu_of(int pu)
{
    return pu >= 0 && pu < topo.npus ? topo.pu_real[pu] : -1;
}
