/* data.c — data-aware taskloops: each task's share of the registered array and the node holding it, the groups on those nodes, and the count of tasks that ran there. */
#include "ilan/data.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "core/task_desc.h"
#include "ilan/groups.h"
#include "mem/place.h"
#include "mem/query.h"
#include "topo/topo.h"

/* Process totals (the report and ilan_mem_count). */
static _Atomic unsigned long data_runs, data_tasks, data_on_node;

/* The node holding most pages of [p, p + size), -1 when none is known. */
static short majority_node(const char *p, size_t size)
{
    size_t per[MEM_PLAN_MAX_NODES];
    int err = 0;
    int n = size ? mem_query(p, size, per, MEM_PLAN_MAX_NODES, &err) : -1;
    short best = -1;
    for (int k = 0; k < n; k++)
        if (per[k] && (best < 0 || per[k] > per[best]))
            best = (short)k;
    return best;
}

struct ilan_data *ilan_data_new(const void *p, size_t size, const struct taskloop_split *split,
                                iter_ull start, iter_ull step)
{
    if (!p || size == 0 || split->ntasks == 0)
        return NULL;
    struct ilan_data *d = malloc(sizeof *d + split->ntasks * sizeof(short));
    if (!d)
        ilan_fatal("out of memory mapping a taskloop's %llu tasks onto its data", split->ntasks);
    d->array = p;
    d->size = size;
    d->ntasks = split->ntasks;
    d->start = start;
    d->step = step;
    d->split = *split;
    atomic_init(&d->on_node, 0);
    d->task_node = (short *)(d + 1);
    iter_ull n = taskloop_task_offset(split, split->ntasks);
    for (iter_ull i = 0; i < split->ntasks; i++) {
        /* Byte k * size / n for iteration k, in 128 bits: size * n may not fit 64. */
        size_t lo = (size_t)((unsigned __int128)taskloop_task_offset(split, i) * size / n);
        size_t hi = (size_t)((unsigned __int128)taskloop_task_offset(split, i + 1) * size / n);
        d->task_node[i] = majority_node((const char *)p + lo, hi - lo);
    }
    return d;
}

void ilan_data_free(struct ilan_data *d)
{
    free(d);
}

/* The model node of group g of ti: that of the core of its first thread,
 * -1 when the group's cores are not known (unbound threads). */
static int group_node(const struct team_ilan *ti, unsigned g)
{
    const struct team_groups *gr = &ti->groups;
    if (gr->kind == GROUP_NODE)
        return gr->model_id[g];
    for (unsigned i = 0; i < gr->nthreads; i++)
        if (gr->slot_group[i] == g)
            return ti->cores && ti->cores[i] >= 0 ? topo.core_node[ti->cores[i]] : -1;
    return -1;
}

unsigned ilan_data_groups(const void *p, size_t size, const struct team_ilan *ti, unsigned *ids)
{
    size_t per[MEM_PLAN_MAX_NODES];
    int err = 0;
    int n = p && size ? mem_query(p, size, per, MEM_PLAN_MAX_NODES, &err) : -1;
    unsigned k = 0;
    for (unsigned g = 0; g < ti->groups.ngroups; g++) {
        int node = group_node(ti, g);
        if (node >= 0 && node < n && per[node])
            ids[k++] = g;
    }
    return k;
}

void ilan_data_ran(struct ilan_data *d, iter_ull i)
{
    if (i < d->ntasks && d->task_node[i] >= 0 && d->task_node[i] == mem_self_node())
        atomic_fetch_add_explicit(&d->on_node, 1, memory_order_relaxed);
}

void ilan_data_ran_task(struct ilan_data *d, const struct task *t)
{
    /* The task's first iteration value, as gcc's body reads it. */
    iter_ull lo = ((const iter_ull *)t->data)[0];
    bool down = (int64_t)d->step < 0;
    iter_ull off = down ? (d->start - lo) / (0 - d->step) : (lo - d->start) / d->step;
    ilan_data_ran(d, taskloop_task_at(&d->split, off));
}

void ilan_data_totals(struct ilan_data_totals *out)
{
    out->runs = atomic_load_explicit(&data_runs, memory_order_relaxed);
    out->tasks = atomic_load_explicit(&data_tasks, memory_order_relaxed);
    out->on_node = atomic_load_explicit(&data_on_node, memory_order_relaxed);
}

void ilan_data_account(const struct ilan_data *d)
{
    atomic_fetch_add_explicit(&data_runs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&data_tasks, d->ntasks, memory_order_relaxed);
    atomic_fetch_add_explicit(&data_on_node, atomic_load_explicit(&d->on_node, memory_order_relaxed),
                              memory_order_relaxed);
}
