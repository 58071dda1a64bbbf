/* mem.c — ilan's memory-placement API (include/ilan.h): locality domains, bloc allocations, attach, migrate, next touch and page queries. */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "abi/export.h"
#include "base/fatal.h"
#include "core/bubble.h"
#include "core/locality.h"
#include "core/thread.h"
#include "ilan/data.h"
#include "mem/alloc.h"
#include "mem/move.h"
#include "mem/next_touch.h"
#include "mem/place.h"
#include "mem/query.h"
#include "topo/topo.h"

/* Sets errno to rc and returns -1 when rc is an error, else returns 0. */
static int mem_result(int rc)
{
    if (rc == 0)
        return 0;
    errno = rc;
    return -1;
}

ILAN_EXPORT int ilan_get_num_locality_domains(void)
{
    struct mem_domains d;
    locality_domains(&d);
    return (int)d.n;
}

ILAN_EXPORT int ilan_get_locality_domain_num(void)
{
    return locality_domain_num();
}

/* A bloc (cyclic == false) or bloc-cyclic allocation over the region's domains. */
static void *mem_alloc_over_domains(size_t size, enum mem_layout layout, size_t bloc)
{
    struct mem_domains d;
    locality_domains(&d);
    int err = 0;
    void *p = mem_alloc(size, layout, bloc, &d, &err);
    if (!p)
        errno = err;
    return p;
}

ILAN_EXPORT void *ilan_alloc_bloc(size_t size)
{
    return mem_alloc_over_domains(size, MEM_LAYOUT_BLOC, 0);
}

ILAN_EXPORT void *ilan_alloc_bloc_cyclic(size_t size, size_t bloc)
{
    if (bloc == 0) {
        errno = EINVAL;
        return NULL;
    }
    return mem_alloc_over_domains(size, MEM_LAYOUT_CYCLIC, bloc);
}

ILAN_EXPORT void ilan_mem_free(void *p, size_t size)
{
    thread_self();
    mem_result(mem_free(p, size));
}

ILAN_EXPORT int ilan_mem_attach(void *p, size_t size, int thread_num)
{
    struct ilan_thread *ts = thread_self();
    if (!p || size == 0)
        return mem_result(EINVAL);
    if (thread_num == -1) {
        /* The whole team: where its bubble's memory goes (ILAN_BUBBLES),
         * else the calling thread's node; it moves with the bubble. */
        if (!ts->team)
            return mem_result(EINVAL); /* no team outside a parallel region */
        struct mem_domains d = {0};
        int node = bubble_team_domains(ts->team, &d) ? d.node[0]
                                                     : locality_thread_node((int)ts->team_id);
        if (node < 0)
            return mem_result(EINVAL);
        int rc = mem_attach(p, size, (struct mem_owner){ts->team, MEM_OWNER_TEAM}, node);
        if (rc == 0 && d.n > 1) /* spread over the bubble's nodes at once */
            mem_follow_domains((struct mem_owner){ts->team, MEM_OWNER_TEAM}, &d);
        return mem_result(rc);
    }
    int node = locality_thread_node(thread_num);
    if (node < 0)
        return mem_result(EINVAL); /* no such thread, or another thread without a place */
    return mem_result(mem_attach(p, size, (struct mem_owner){ts->team, (unsigned)thread_num}, node));
}

ILAN_EXPORT int ilan_mem_migrate(void *p, size_t size, int node)
{
    thread_self();
    return mem_result(mem_migrate(p, size, node));
}

ILAN_EXPORT int ilan_mem_migrate_on_next_touch(void *p, size_t size)
{
    thread_self();
    return mem_result(nt_arm(p, size, 1));
}

ILAN_EXPORT int ilan_mem_nodes(const void *p, size_t size, size_t *pages_per_node, int max_nodes)
{
    thread_self();
    if (!p || size == 0 || !pages_per_node || max_nodes <= 0)
        return mem_result(EINVAL);
    int err = 0;
    int n = mem_query(p, size, pages_per_node, max_nodes, &err);
    return n < 0 ? mem_result(err) : n;
}

ILAN_EXPORT int ilan_mem_simulated(void)
{
    thread_self();
    return mem_simulated();
}

ILAN_EXPORT long long ilan_mem_count(const char *name)
{
    if (!name)
        return -1;
    struct nt_stats s;
    nt_stats(&s);
    struct ilan_data_totals d;
    ilan_data_totals(&d);
    const struct {
        const char *name;    /* the count's name */
        unsigned long value; /* its value now */
    } counts[] = {
        {"next_touch_faults", s.faults},    {"next_touch_waits", s.waits},
        {"next_touch_pages", s.pages_moved}, {"next_touch_ranges", s.ranges},
        {"foreign_faults", s.foreign},      {"taskloop_data_runs", d.runs},
        {"taskloop_data_tasks", d.tasks},   {"taskloop_data_on_node", d.on_node},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (strcmp(name, counts[i].name) == 0)
            return (long long)counts[i].value;
    return -1;
}

ILAN_EXPORT int ilan_taskloop_data(const void *p, size_t size)
{
    if (!p || size == 0)
        return mem_result(EINVAL);
    struct ilan_thread *ts = thread_self();
    ts->taskloop_data = p;
    ts->taskloop_data_size = size;
    return 0;
}
