/* place.c — the placement engine: plans applied through the OS layer on the real machine, recorded on what-if machines, and page-location queries. */
#include "mem/place.h"

#include <errno.h>
#include <stdatomic.h>
#include "mem/next_touch.h"
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

/* The model's number of kernel node `k`; -1 when the model lacks it. */
static int mem_model_node(int k)
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

/* Where a simulated page is: the newer of its record and its next-touch move. */
static int mem_simulated_node(uintptr_t page)
{
    struct mem_rec_hit r = mem_rec_lookup(page);
    struct mem_rec_hit t = nt_lookup(page);
    return t.node >= 0 && t.seq > r.seq ? t.node : r.node;
}

int mem_query(const void *addr, size_t size, size_t *per_node, int max_nodes, int *err)
{
    uintptr_t first;
    size_t npages;
    size_t page = mem_page();
    if (!mem_plan_pages((uintptr_t)addr, size, page, &first, &npages)) {
        *err = EINVAL;
        return -1;
    }
    int reported = topo_num_nodes() < max_nodes ? topo_num_nodes() : max_nodes;
    for (int i = 0; i < max_nodes; i++)
        per_node[i] = 0;
    bool sim = mem_simulated();
    int where[OS_NUMA_BATCH];
    for (size_t done = 0; done < npages;) {
        size_t n = npages - done < OS_NUMA_BATCH ? npages - done : OS_NUMA_BATCH;
        if (!sim) {
            int rc = os_mem_where((const void *)(first + done * page), n, page, where);
            if (rc) {
                *err = rc;
                return -1;
            }
        }
        for (size_t i = 0; i < n; i++) {
            uintptr_t pg = first + (done + i) * page;
            int node;
            if (sim)
                node = mem_simulated_node(pg);
            else if (where[i] >= 0)
                node = mem_model_node(where[i]);
            else /* not in memory: where an ilan allocation's policy puts it */
                node = mem_rec_in_alloc(pg, page) ? mem_rec_lookup(pg).node : -1;
            if (node >= 0 && node < max_nodes)
                per_node[node]++;
        }
        done += n;
    }
    return reported;
}

void mem_report_json(FILE *f)
{
    unsigned records, attached;
    mem_rec_counts(&records, &attached);
    struct nt_stats nt;
    nt_stats(&nt);
    fprintf(f,
            "  \"memory\": {\"simulated\": %s, \"page_bytes\": %zu, \"pages_placed\": %lu, "
            "\"records\": %u, \"attached\": %u, \"next_touch\": {\"ranges\": %lu, "
            "\"faults\": %lu, \"pages_moved\": %lu, \"foreign_faults\": %lu}},\n",
            mem_simulated() ? "true" : "false", mem_page(),
            atomic_load_explicit(&mem_pages_placed, memory_order_relaxed), records, attached,
            nt.ranges, nt.faults, nt.pages_moved, nt.foreign);
}
