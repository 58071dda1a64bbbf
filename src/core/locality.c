/* locality.c — the locality domains of the current parallel region, from the team's places or the machine model. */
#include "core/locality.h"

#include "core/team_desc.h"
#include "core/thread.h"
#include "mem/place.h"
#include "topo/places.h"
#include "topo/topo.h"

/* Adds weight w to node `node` in d (kept in increasing node order). */
static void locality_add(struct mem_domains *d, int node, unsigned w)
{
    unsigned pos = 0;
    while (pos < d->n && d->node[pos] < node)
        pos++;
    if (pos < d->n && d->node[pos] == node) {
        d->weight[pos] += w;
        return;
    }
    if (d->n == MEM_PLAN_MAX_NODES)
        return; /* past the plans' limit: those nodes get no share */
    for (unsigned j = d->n; j > pos; j--) {
        d->node[j] = d->node[j - 1];
        d->weight[j] = d->weight[j - 1];
    }
    d->node[pos] = node;
    d->weight[pos] = w;
    d->n++;
}

void locality_domains(struct mem_domains *out)
{
    topo_init();
    out->n = 0;
    const struct team *t = thread_self()->team;
    if (t && t->bind.kind && places.node) {
        for (unsigned i = 0; i < t->nthreads; i++)
            locality_add(out, places.node[t->bind.slots[i].place], 1);
        return;
    }
    for (int c = 0; c < topo.ncores; c++)
        locality_add(out, topo.core_node[c], 1);
}

int locality_domain_num(void)
{
    struct mem_domains d;
    locality_domains(&d);
    int node = mem_self_node();
    for (unsigned j = 0; j < d.n; j++)
        if (d.node[j] == node)
            return (int)j;
    return -1;
}

int locality_thread_node(int thread_num)
{
    const struct ilan_thread *ts = thread_self();
    const struct team *t = ts->team;
    unsigned n = t ? t->nthreads : 1;
    if (thread_num < 0 || (unsigned)thread_num >= n)
        return -1;
    if (t && t->bind.kind && places.node)
        return places.node[t->bind.slots[thread_num].place];
    return (unsigned)thread_num == ts->team_id || !t ? mem_self_node() : -1;
}
