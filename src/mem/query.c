/* query.c — page-location queries (move_pages, or the record and next-touch moves when simulated) and the report's memory section. */
#include "mem/query.h"

#include <errno.h>
#include <stdint.h>
#include "mem/next_touch.h"
#include "mem/place.h"
#include "mem/record.h"
#include "os/linux/numa.h"
#include "topo/topo.h"

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
            mem_pages_placed_count(), records, attached,
            nt.ranges, nt.faults, nt.pages_moved, nt.foreign);
}
