/* groups.h — a team's ILAN locality groups and the queues of their taskloop tasks. */
#ifndef ILAN_ILAN_GROUPS_H
#define ILAN_ILAN_GROUPS_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/tunables.h"
#include "core/task_desc.h"
#include "sched/numa_dist.h"

struct ilan_thread;
struct team;

/* What a team keeps for ILAN taskloops: built by the master at region
 * start when the team's size or places changed, read-only during regions. */
struct taskloop_exec;

struct team_ilan {
    struct team_groups groups;    /* the team's locality groups */
    uint64_t stamp;               /* this build's number, unique in the process (> 0): what the
                                     threads' victim caches key on (ilan/victims.c) */
    int key[8];                   /* nthreads, bind.kind, bind.key[5], placeless groups it
                                     was built for */
    int *cores;                   /* [nthreads] the model core of each thread it was built for
                                     (-1: not known; see team_slot_cores in ilan/groups.c) */
    struct group_queues *queues;  /* [groups.ngroups] ILAN tasks waiting per group */
    _Atomic uint64_t open_at_ns;  /* when the latest exploratory run with a cut-off opens
                                     to every thread (ns); 0: none pending */
    _Atomic unsigned drained_execs; /* range launches whose tasks were all claimed while some
                                       of their runners may still be queued (any thread may
                                       end those); 0: look in no other group's strict queue */
    /* On a line of its own: the creator of every taskloop swaps it twice,
     * while idle threads keep reading the two fields above. */
    alignas(ILAN_CACHE_LINE) struct taskloop_exec *_Atomic spare_exec; /* the last finished
                                execution record, kept for the next taskloop (ilan/exec.c): one
                                malloc block, freed with free() */
};

/* (Re)builds team t's groups and queues when its size or places (or, for
 * an unbound team, its threads' nodes) changed since its last region. The
 * master, at region start (task_mode_ops.team_begin). */
void ilan_groups_team_begin(struct team *t);

/* Frees t's groups and queues (task_mode_ops.team_free). */
void ilan_groups_team_free(struct team *t);

/* Appends the list head..tail (linked by next_queued, `count` tasks of the
 * caller's team, made by the caller) to group g's strict or shared queue,
 * in order. No task here has a priority: a prioritized taskloop never
 * reaches a mode (construct/taskloop.c). The caller then wakes idle
 * threads, once for all its pushes (task_queue_wake). */
void ilan_groups_push(struct ilan_thread *ts, unsigned g, bool strict, struct task *head,
                      struct task *tail, unsigned count);

#endif
