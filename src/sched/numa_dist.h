/* numa_dist.h — ILAN's locality groups of a team and the NUMA-aware task distribution arithmetic (pure policy). */
#ifndef ILAN_SCHED_NUMA_DIST_H
#define ILAN_SCHED_NUMA_DIST_H

#include <stdbool.h>
#include "base/tunables.h"
#include "sched/iter.h"
#include "sched/machine.h"

/* What a locality group of a team is: the unit of every ILAN decision. */
enum group_kind {
    GROUP_NODE, /* a NUMA node: the team spans several */
    GROUP_LLC,  /* a last-level cache: one node, several caches */
    GROUP_CORE, /* a core: one node, one cache (or threads without places) */
};

/* The locality groups of one team. Groups are numbered 0..ngroups-1 in
 * increasing model order of what they stand for, so "lowest node first"
 * is "lowest group first". */
struct team_groups {
    enum group_kind kind;  /* what a group is */
    unsigned ngroups;      /* G: groups holding at least one team thread */
    unsigned nthreads;     /* team size the groups were built for */
    unsigned *slot_group;  /* [nthreads] group of each team thread */
    unsigned *workers;     /* [ngroups] team threads in each group */
    int *model_id;         /* [ngroups] the node, cache or core id in the model (-1: no place) */
};

/*
 * Builds the groups of a team of n threads on model m, thread i running on
 * core slot_core[i] of the model, or -1 when it has no place (no binding):
 * kind NODE when the team's cores span several nodes, else LLC when they
 * span several caches, else CORE. Threads without a place each form a
 * group of their own (moldability by threads, without locality). Frees
 * what *out held. False when out of memory.
 */
bool groups_build(const struct topo_model *m, unsigned n, const int *slot_core,
                  struct team_groups *out);

/*
 * Builds `ngroups` groups without places for a team of n threads (0 or
 * more than n: n groups): thread i in group i mod ngroups, so the groups'
 * sizes differ by one at most. Frees what *out held. False when out of
 * memory.
 */
bool groups_build_placeless(unsigned n, unsigned ngroups, struct team_groups *out);

/* The model id a core is grouped by under kind k: its node, its cache, or
 * the core itself (a group's model_id). */
int group_key(const struct topo_model *m, enum group_kind k, int core);

/* Frees a team_groups' arrays. */
void groups_free(struct team_groups *g);

/* "node", "llc" or "core". */
const char *group_kind_name(enum group_kind k);

/*
 * The distribution of ntasks tasks (numbered in iteration order) over k
 * chosen groups (in increasing id order) that have workers[0..k-1] team
 * threads: chosen group j receives the contiguous run
 * [first[j], first[j+1]) with first[0] = 0 and first[k] = ntasks, its
 * length proportional to workers[j] (rounded so that the runs tile
 * exactly and the same inputs always give the same runs).
 */
void numa_dist_runs(iter_ull ntasks, unsigned k, const unsigned *workers, iter_ull *first);

/* Of a group's `count` tasks, how many are NUMA-strict (taken only by the
 * group's own threads): all under the strict policy; under `full` the first
 * ILAN_STRICT_NUM / ILAN_STRICT_DEN of them, rounded up. */
iter_ull numa_dist_strict(iter_ull count, bool full);

/* How many of the `avail` shareable tasks at the back of a range whose
 * group has `workers` threads a thief of another group takes in one
 * claim: the share it would have as one more of them, ceil(avail /
 * (workers + 1)), at least 1 when avail > 0. Half for a group of one
 * thread (the 2-core machine); a ninth of a group of eight, whose own
 * threads, claiming one task at a time, would otherwise finish long
 * before a thief that took half of their tasks to run alone (in the
 * simulator, 8 nodes of 8 threads: an imbalanced loop's `full` run took
 * 131 ms against 47 strict with halves). */
iter_ull numa_dist_steal_share(iter_ull avail, unsigned workers);

/* How many of the `left` unclaimed tasks at the front of a range that
 * `workers` runners share one of them claims at once: a guided share,
 * left / (2 x workers), at least 1. A lone runner takes at most
 * ILAN_RANGE_CLAIM_MOST, so that thieves from other groups still find
 * most of its range's back; runners that share a range take the whole
 * share, since each of their claims moves the range's line between their
 * CPUs (capped at 16, two runners of a grainsize(1) taskloop of 2,000
 * 10 ns tasks on 2 CPUs cost 22 us per taskloop instead of 15). One task
 * per claim made a group's threads bounce that line at every task (the
 * same taskloop on one group of 16 threads cost 105 us instead of 12
 * spread over 16 groups), and cost even a lone runner an atomic per task
 * (13 % of the taskloop's time). */
iter_ull numa_dist_own_claim(iter_ull left, unsigned workers);

/* How finely a taskloop without grainsize or num_tasks is cut: at most
 * `most` tasks per thread, each holding at least `min_ns` of work. */
struct numa_dist_grain {
    unsigned most; /* tasks per thread when the work is unknown or large */
    double min_ns; /* least work per task (ns) */
};

/* One descriptor per task: ILAN_TASKS_PER_WORKER (the thesis's choice) of
 * at least ILAN_MIN_TASK_NS. */
#define NUMA_DIST_GRAIN_TASKS ((struct numa_dist_grain){ILAN_TASKS_PER_WORKER, ILAN_MIN_TASK_NS})
/* A range launch, where a task costs a claim and a block copy: finer, so
 * that threads finish closer together. */
#define NUMA_DIST_GRAIN_RANGE \
    ((struct numa_dist_grain){ILAN_RANGE_TASKS_PER_WORKER, ILAN_RANGE_MIN_TASK_NS})

/* Tasks per thread for a taskloop with neither grainsize nor num_tasks
 * whose work was measured as work_ns (its time times the threads that ran
 * it; 0: not measured yet): grain.most when unknown or when each task
 * would still hold grain.min_ns of work; fewer for small loops, where
 * per-task costs would dominate; at least 1. */
unsigned numa_dist_tasks_per_worker(double work_ns, unsigned workers, struct numa_dist_grain grain);

#endif
