/* groups.c — a team's ILAN locality groups and their task queues: built at region start from where the threads are, filled by taskloop executions. */
#include "ilan/groups.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "core/wait.h"
#include "topo/places.h"
#include "topo/topo.h"

/* Where the threads of team t are, for groups_build: 0 with cores[i] the
 * model core thread i is grouped by (-1: a group of its own), or the
 * number of groups without places to make (groups_build_placeless).
 * Bound: the core of its place. Unbound, cores mean nothing (the OS moves
 * threads between them at will), so each thread is its own group
 * (moldability by thread count) unless the CPUs the threads last ran on
 * span several NUMA nodes: then each counts as on the first core of its
 * node, so the groups are the nodes; or the process has more busy threads
 * than CPUs: then the groups are as many as the CPUs. That is a best
 * effort, since unbound threads may change node; the report says so. */
static unsigned team_slot_cores(const struct team *t, int *cores)
{
    unsigned n = t->nthreads;
    if (t->bind.kind) {
        for (unsigned i = 0; i < n; i++) {
            int place = t->bind.slots[i].place;
            cores[i] = topo_core_of_cpu(places.os.cpus[places.os.first[place]]);
        }
        return 0;
    }
    int seen_node = -1;
    bool several = false;
    struct cpu_share *cpus = atomic_load_explicit(&t->cpus, memory_order_relaxed);
    for (unsigned i = 0; i < n; i++) {
        int cpu = topo_num_nodes() > 1
                      ? atomic_load_explicit(&cpus->slot[i].cpu, memory_order_relaxed) : -1;
        int core = cpu < 0 ? -1 : topo_core_of_real_cpu(cpu);
        int node = core < 0 ? -1 : topo.core_node[core];
        cores[i] = node < 0 ? -1 : topo_first_core_of_node(node);
        several |= node >= 0 && seen_node >= 0 && node != seen_node;
        if (node >= 0)
            seen_node = node;
    }
    if (several)
        return 0;
    for (unsigned i = 0; i < n; i++)
        cores[i] = -1;
    /* More busy threads than CPUs: a thread is mostly waiting for a CPU,
     * so a group of its own would hold work promised to it alone until the
     * OS runs it, and more groups than CPUs cannot be faster. The groups
     * are then as many as the CPUs, and a group's work goes to whichever of
     * its threads runs first; the mold still chooses between fewer groups
     * (fewer CPUs) and all. */
    unsigned ncpus = icv_global.num_procs;
    return wait_oversubscribed() && ncpus && ncpus < n ? ncpus : 0;
}

static void team_ilan_free(struct team_ilan *ti)
{
    if (!ti)
        return;
    groups_free(&ti->groups);
    free(atomic_load_explicit(&ti->spare_exec, memory_order_acquire));
    free(ti->cores);
    free(ti->queues);
    free(ti);
}

/* Empties a group's queues (a new team_ilan). */
static void group_queues_init(struct group_queues *q)
{
    task_queue_init(&q->strict);
    task_queue_init(&q->shared);
}

void ilan_groups_team_begin(struct team *t)
{
    int local[64], *cores = t->nthreads <= 64 ? local : malloc(t->nthreads * sizeof *cores);
    if (!cores)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    unsigned placeless = team_slot_cores(t, cores);
    int key[8] = {(int)t->nthreads, (int)t->bind.kind};
    memcpy(key + 2, t->bind.key, sizeof t->bind.key);
    key[7] = (int)placeless;
    /* The usual case: the same team on the same cores as last time. */
    bool same = t->ilan && memcmp(t->ilan->key, key, sizeof key) == 0 &&
                memcmp(t->ilan->cores, cores, t->nthreads * sizeof *cores) == 0;
    if (same) {
        if (cores != local)
            free(cores);
        return;
    }
    team_ilan_free(t->ilan);
    t->ilan = NULL;
    struct team_ilan *ti = aligned_alloc(ILAN_CACHE_LINE, sizeof *ti);
    int *kept = malloc(t->nthreads * sizeof *kept);
    if (!ti || !kept)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    memset(ti, 0, sizeof *ti);
    memcpy(kept, cores, t->nthreads * sizeof *kept);
    ti->cores = kept;
    if (!(placeless ? groups_build_placeless(t->nthreads, placeless, &ti->groups)
                    : groups_build(&topo, t->nthreads, cores, &ti->groups)))
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    if (cores != local)
        free(cores);
    ti->queues = aligned_alloc(ILAN_CACHE_LINE, ti->groups.ngroups * sizeof *ti->queues);
    if (!ti->queues)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    for (unsigned g = 0; g < ti->groups.ngroups; g++)
        group_queues_init(&ti->queues[g]);
    memcpy(ti->key, key, sizeof key);
    static _Atomic uint64_t builds;
    ti->stamp = atomic_fetch_add_explicit(&builds, 1, memory_order_relaxed) + 1;
    t->ilan = ti;
}

void ilan_groups_team_free(struct team *t)
{
    team_ilan_free(t->ilan);
    t->ilan = NULL;
}

void ilan_groups_push(struct ilan_thread *ts, unsigned g, bool strict, struct task *head,
                      struct task *tail, unsigned count)
{
    struct group_queues *q = &ts->team->ilan->queues[g];
    struct task_queue *into = strict ? &q->strict : &q->shared;
    task_queue_append(into, head, tail, count);
}

