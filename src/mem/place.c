/* place.c — the placement engine: plans applied through the OS layer on the real machine, recorded on what-if machines, and page-location queries. */
#include "mem/place.h"

#include <errno.h>
#include <stdatomic.h>
#include "mem/record.h"
#include "os/linux/affinity.h"
#include "os/linux/numa.h"
#include "topo/bind.h"
#include "topo/topo.h"

static _Atomic unsigned long mem_pages_placed; /* pages of every plan carried out or recorded */

bool mem_simulated(void)
{
    topo_init();
    return topo_is_whatif();
}

size_t mem_page(void)
{
    return os_page_size();
}

int mem_self_node(void)
{
    int node = bind_self_node();
    if (node >= 0)
        return node;
    int core = topo_core_of_real_cpu(os_current_cpu());
    return core >= 0 ? topo.core_node[core] : 0;
}

void mem_count_placed(size_t pages)
{
    atomic_fetch_add_explicit(&mem_pages_placed, pages, memory_order_relaxed);
}

/* The kernel's number of model node `node`. */
static int mem_kernel_node(int node)
{
    return node >= 0 && node < topo.nnodes && topo.node_os ? topo.node_os[node] : node;
}

int mem_model_node(int k)
{
    for (int i = 0; i < topo.nnodes; i++)
        if ((topo.node_os ? topo.node_os[i] : i) == k)
            return i;
    return -1;
}

int mem_place_fresh(const struct mem_plan *p)
{
    mem_count_placed(p->npages);
    if (mem_simulated())
        return 0;
    int node;
    for (size_t i = 0, n; (n = mem_plan_run(p, i, &node)) > 0; i += n) {
        int rc = os_mem_bind((void *)(p->first_page + i * p->page), n * p->page,
                             mem_kernel_node(node));
        if (rc)
            return rc;
    }
    return 0;
}

int mem_place_move(const struct mem_plan *p)
{
    if (mem_simulated())
        return 0;
    void *pages[OS_NUMA_BATCH];
    int nodes[OS_NUMA_BATCH];
    size_t k = 0;
    for (size_t i = 0; i < p->npages; i++) {
        pages[k] = (void *)(p->first_page + i * p->page);
        nodes[k] = mem_kernel_node(mem_plan_node_of(p, i));
        if (++k == OS_NUMA_BATCH || i + 1 == p->npages) {
            int rc = os_mem_move_list(pages, nodes, k);
            if (rc)
                return rc;
            k = 0;
        }
    }
    return 0;
}


unsigned long mem_pages_placed_count(void)
{
    return atomic_load_explicit(&mem_pages_placed, memory_order_relaxed);
}
