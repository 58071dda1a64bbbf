/* numa_dist.c — locality groups of a team and the task-to-group arithmetic of the ILAN scheduler (pure policy, see numa_dist.h). */
#include "sched/numa_dist.h"

#include <stdlib.h>
#include "base/tunables.h"

const char *group_kind_name(enum group_kind k)
{
    return k == GROUP_NODE ? "node" : k == GROUP_LLC ? "llc" : "core";
}

void groups_free(struct team_groups *g)
{
    free(g->slot_group);
    free(g->workers);
    free(g->model_id);
    g->slot_group = g->workers = NULL;
    g->model_id = NULL;
    g->ngroups = g->nthreads = 0;
}

int group_key(const struct topo_model *m, enum group_kind k, int core)
{
    return k == GROUP_NODE ? m->core_node[core] : k == GROUP_LLC ? m->core_llc[core] : core;
}

/* True when the threads' cores differ in `per_core` (node or llc of a core). */
static bool spans_several(unsigned n, const int *slot_core, const int *per_core)
{
    for (unsigned i = 1; i < n; i++)
        if (per_core[slot_core[i]] != per_core[slot_core[0]])
            return true;
    return false;
}

/* Allocates out's arrays for a team of n threads (zeroed workers), after
 * freeing what it held. False when out of memory. */
static bool groups_alloc(unsigned n, struct team_groups *out)
{
    groups_free(out);
    unsigned cap = n ? n : 1;
    out->slot_group = malloc(cap * sizeof *out->slot_group);
    out->workers = calloc(cap, sizeof *out->workers);
    out->model_id = malloc(cap * sizeof *out->model_id);
    if (!out->slot_group || !out->workers || !out->model_id) {
        groups_free(out);
        return false;
    }
    out->nthreads = n;
    return true;
}

bool groups_build_placeless(unsigned n, unsigned ngroups, struct team_groups *out)
{
    if (!groups_alloc(n, out))
        return false;
    unsigned g = ngroups == 0 || ngroups > n ? n : ngroups;
    out->kind = GROUP_CORE;
    out->ngroups = g;
    for (unsigned j = 0; j < g; j++)
        out->model_id[j] = -1;
    for (unsigned i = 0; i < n; i++) {
        out->slot_group[i] = i % g;
        out->workers[i % g]++;
    }
    return true;
}

bool groups_build(const struct topo_model *m, unsigned n, const int *slot_core,
                  struct team_groups *out)
{
    bool placed = n > 0;
    for (unsigned i = 0; i < n; i++)
        placed = placed && slot_core[i] >= 0 && slot_core[i] < m->ncores;
    /* Binding is all or nothing: without places every thread is a group. */
    if (!placed)
        return groups_build_placeless(n, n, out);
    if (!groups_alloc(n, out))
        return false;
    enum group_kind kind = spans_several(n, slot_core, m->core_node)  ? GROUP_NODE
                           : spans_several(n, slot_core, m->core_llc) ? GROUP_LLC
                                                                      : GROUP_CORE;
    /* The distinct model ids in increasing order are the groups. */
    unsigned g = 0;
    for (unsigned i = 0; i < n; i++) {
        int key = group_key(m, kind, slot_core[i]);
        unsigned pos = 0;
        while (pos < g && out->model_id[pos] < key)
            pos++;
        if (pos < g && out->model_id[pos] == key)
            continue;
        for (unsigned j = g; j > pos; j--)
            out->model_id[j] = out->model_id[j - 1];
        out->model_id[pos] = key;
        g++;
    }
    for (unsigned i = 0; i < n; i++) {
        int key = group_key(m, kind, slot_core[i]);
        unsigned id = 0;
        while (out->model_id[id] != key)
            id++;
        out->slot_group[i] = id;
        out->workers[id]++;
    }
    out->kind = kind;
    out->ngroups = g;
    return true;
}

void numa_dist_runs(iter_ull ntasks, unsigned k, const unsigned *workers, iter_ull *first)
{
    iter_ull total = 0;
    for (unsigned j = 0; j < k; j++)
        total += workers[j];
    iter_ull below = 0;
    first[0] = 0;
    for (unsigned j = 0; j < k; j++) {
        below += workers[j];
        /* floor(ntasks * below / total) without overflowing: ntasks and
         * below fit in 64 bits, their product may not. */
        unsigned __int128 p = (unsigned __int128)ntasks * below;
        first[j + 1] = total ? (iter_ull)(p / total) : ntasks;
    }
    first[k] = ntasks;
}

iter_ull numa_dist_strict(iter_ull count, bool full)
{
    if (!full)
        return count;
    return (count * ILAN_STRICT_NUM + ILAN_STRICT_DEN - 1) / ILAN_STRICT_DEN;
}

iter_ull numa_dist_steal_share(iter_ull avail, unsigned workers)
{
    return (avail + workers) / ((iter_ull)workers + 1);
}

iter_ull numa_dist_own_claim(iter_ull left, unsigned workers)
{
    iter_ull share = left / (2 * (iter_ull)(workers ? workers : 1));
    if (workers <= 1 && share > ILAN_RANGE_CLAIM_MOST)
        return ILAN_RANGE_CLAIM_MOST;
    return share ? share : left != 0;
}

unsigned numa_dist_tasks_per_worker(double work_ns, unsigned workers, struct numa_dist_grain grain)
{
    if (work_ns <= 0 || workers == 0)
        return grain.most;
    double per = work_ns / ((double)workers * grain.min_ns);
    if (per >= grain.most)
        return grain.most;
    return per < 1 ? 1 : (unsigned)per;
}
