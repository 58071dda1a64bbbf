/* alloc.c — mappings placed by a plan at allocation time (bloc, bloc-cyclic, interleaved, nearest), recorded until freed. */
#include "mem/alloc.h"

#include <errno.h>
#include <stdint.h>
#include "mem/next_touch.h"
#include "mem/place.h"
#include "mem/record.h"
#include "os/linux/numa.h"

void *mem_alloc(size_t size, enum mem_layout layout, size_t bloc, const struct mem_domains *d,
                int *err)
{
    size_t page = mem_page();
    if (size == 0 || size > SIZE_MAX - page || !d || d->n == 0 || d->n > MEM_PLAN_MAX_NODES) {
        *err = EINVAL;
        return NULL;
    }
    size_t len = (size + page - 1) / page * page;
    void *p = os_mem_map(len);
    if (!p) {
        *err = errno ? errno : ENOMEM;
        return NULL;
    }
    struct mem_plan plan;
    bool ok;
    switch (layout) {
    case MEM_LAYOUT_BLOC:
        ok = mem_plan_bloc(&plan, (uintptr_t)p, len, page, d->n, d->node, d->weight);
        break;
    case MEM_LAYOUT_CYCLIC:
        ok = mem_plan_cyclic(&plan, (uintptr_t)p, len, page, bloc, d->n, d->node);
        break;
    default:
        ok = mem_plan_node(&plan, (uintptr_t)p, len, page, mem_self_node());
        break;
    }
    int rc = ok ? mem_place_fresh(&plan) : EINVAL;
    if (rc == 0 && !mem_rec_add(MEM_REC_ALLOC, (uintptr_t)p, len, &plan, (struct mem_owner){NULL, 0}))
        rc = ENOMEM;
    if (rc) {
        os_mem_unmap(p, len);
        *err = rc;
        return NULL;
    }
    return p;
}

int mem_free(void *p, size_t size)
{
    size_t page = mem_page();
    if (!p || size == 0 || size > SIZE_MAX - page)
        return EINVAL;
    size_t len = (size + page - 1) / page * page;
    if (!mem_rec_remove_alloc((uintptr_t)p, len))
        return EINVAL;
    nt_forget((uintptr_t)p, len);
    return os_mem_unmap(p, len);
}
