/* mem_plan.c — memory placement plans: page rounding, node, bloc and bloc-cyclic distributions (pure policy, see mem_plan.h). */
#include "sched/mem_plan.h"

#include <string.h>
#include "sched/numa_dist.h"

bool mem_plan_pages(uintptr_t addr, size_t size, size_t page, uintptr_t *first_page,
                    size_t *npages)
{
    if (page == 0 || (page & (page - 1)) != 0)
        return false;
    uintptr_t lo = addr & ~(uintptr_t)(page - 1);
    *first_page = lo;
    if (size == 0) {
        *npages = 0;
        return true;
    }
    uintptr_t last;
    if (__builtin_add_overflow(addr, size - 1, &last))
        return false;
    *npages = (size_t)((last & ~(uintptr_t)(page - 1)) - lo) / page + 1;
    return true;
}

/* Fills the fields every plan has; false on bad input. */
static bool mem_plan_start(struct mem_plan *p, enum mem_plan_kind kind, uintptr_t addr,
                           size_t size, size_t page, unsigned k, const int *nodes)
{
    memset(p, 0, sizeof *p);
    if (k == 0 || k > MEM_PLAN_MAX_NODES || nodes == NULL)
        return false;
    if (!mem_plan_pages(addr, size, page, &p->first_page, &p->npages))
        return false;
    p->kind = kind;
    p->page = page;
    p->nnodes = k;
    for (unsigned j = 0; j < k; j++) {
        if (nodes[j] < 0)
            return false;
        p->nodes[j] = nodes[j];
    }
    p->bloc = 1;
    return true;
}

bool mem_plan_node(struct mem_plan *p, uintptr_t addr, size_t size, size_t page, int node)
{
    return mem_plan_start(p, MEM_PLAN_NODE, addr, size, page, 1, &node);
}

bool mem_plan_bloc(struct mem_plan *p, uintptr_t addr, size_t size, size_t page, unsigned k,
                   const int *nodes, const unsigned *weight)
{
    if (!mem_plan_start(p, MEM_PLAN_BLOC, addr, size, page, k, nodes) || weight == NULL)
        return false;
    unsigned long long total = 0;
    for (unsigned j = 0; j < k; j++)
        total += weight[j];
    if (total == 0)
        return false;
    /* The very arithmetic of ILAN's task split: pages here, tasks there. */
    iter_ull first[MEM_PLAN_MAX_NODES + 1];
    numa_dist_runs(p->npages, k, weight, first);
    for (unsigned j = 0; j <= k; j++)
        p->first[j] = (size_t)first[j];
    return true;
}

bool mem_plan_cyclic(struct mem_plan *p, uintptr_t addr, size_t size, size_t page,
                     size_t bloc_bytes, unsigned k, const int *nodes)
{
    if (bloc_bytes == 0 || !mem_plan_start(p, MEM_PLAN_CYCLIC, addr, size, page, k, nodes))
        return false;
    p->bloc = bloc_bytes / page + (bloc_bytes % page != 0);
    return true;
}

int mem_plan_node_of(const struct mem_plan *p, size_t i)
{
    if (i >= p->npages)
        return -1;
    switch (p->kind) {
    case MEM_PLAN_BLOC: {
        unsigned j = 0;
        while (j + 1 < p->nnodes && i >= p->first[j + 1])
            j++;
        return p->nodes[j];
    }
    case MEM_PLAN_CYCLIC:
        return p->nodes[(i / p->bloc) % p->nnodes];
    default:
        return p->nodes[0];
    }
}

size_t mem_plan_run(const struct mem_plan *p, size_t i, int *node)
{
    if (i >= p->npages)
        return 0;
    *node = mem_plan_node_of(p, i);
    size_t end = p->npages;
    switch (p->kind) {
    case MEM_PLAN_BLOC: {
        unsigned j = 0;
        while (j + 1 < p->nnodes && i >= p->first[j + 1])
            j++;
        end = p->first[j + 1];
        break;
    }
    case MEM_PLAN_CYCLIC:
        if (p->nnodes > 1)
            end = (i / p->bloc + 1) * p->bloc;
        break;
    default:
        break;
    }
    if (end > p->npages)
        end = p->npages;
    return end - i;
}

int mem_plan_nearest(const int *dist, int nnodes, int from, unsigned k, const int *nodes)
{
    if (k == 0 || from < 0 || from >= nnodes)
        return -1;
    int best = -1, best_d = 0;
    for (unsigned j = 0; j < k; j++) {
        if (nodes[j] < 0 || nodes[j] >= nnodes)
            continue;
        int d = dist[from * nnodes + nodes[j]];
        if (best < 0 || d < best_d) {
            best = nodes[j];
            best_d = d;
        }
    }
    return best;
}
