/* move.c — migrate, attach and follow: placement plans for memory that already exists. */
#include "mem/move.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "mem/place.h"
#include "mem/record.h"
#include "topo/topo.h"

/* Ranges attached so far (follow does nothing while it is 0). */
static _Atomic unsigned long mem_attached;

/* The plan putting [p, p + size) on node; EINVAL on bad input. */
static int mem_plan_for(struct mem_plan *plan, void *p, size_t size, int node)
{
    if (!p || size == 0 || node < 0 || node >= topo_num_nodes())
        return EINVAL;
    return mem_plan_node(plan, (uintptr_t)p, size, mem_page(), node) ? 0 : EINVAL;
}

/* Moves [p, p + size) to node and, when `record`, records it as `kind`. */
static int mem_move_to(void *p, size_t size, int node, bool record, enum mem_rec_kind kind,
                       struct mem_owner owner)
{
    struct mem_plan plan;
    int rc = mem_plan_for(&plan, p, size, node);
    if (rc)
        return rc;
    rc = mem_place_move(&plan);
    if (rc)
        return rc;
    mem_count_placed(plan.npages);
    if (record && !mem_rec_add(kind, (uintptr_t)p, size, &plan, owner))
        return ENOMEM;
    return 0;
}

int mem_migrate(void *p, size_t size, int node)
{
    /* The record answers simulated queries; the kernel answers real ones. */
    return mem_move_to(p, size, node, mem_simulated(), MEM_REC_PLACED, (struct mem_owner){NULL, 0});
}

int mem_attach(void *p, size_t size, struct mem_owner owner, int node)
{
    int rc = mem_move_to(p, size, node, true, MEM_REC_ATTACH, owner);
    if (rc == 0)
        atomic_fetch_add_explicit(&mem_attached, 1, memory_order_relaxed);
    return rc;
}

size_t mem_follow_domains(struct mem_owner owner, const struct mem_domains *d)
{
    if (!atomic_load_explicit(&mem_attached, memory_order_relaxed) || d->n == 0)
        return 0;
    struct mem_plan plans[8];
    unsigned n;
    size_t moved = 0;
    do {
        n = mem_rec_follow_domains(owner, d, plans, 8);
        for (unsigned i = 0; i < n; i++) {
            mem_place_move(&plans[i]); /* best effort: pages that cannot move stay */
            mem_count_placed(plans[i].npages);
            moved += plans[i].npages;
        }
    } while (n == 8);
    return moved;
}

void mem_follow(struct mem_owner owner, int node)
{
    if (node >= 0)
        (void)mem_follow_domains(owner, &(struct mem_domains){.n = 1, .node = {node}, .weight = {1}});
}
