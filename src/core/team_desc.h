/* team_desc.h — what a team is, as data: the threads of one parallel region, their barrier, work-share slots and task queues (types only). */
#ifndef ILAN_CORE_TEAM_DESC_H
#define ILAN_CORE_TEAM_DESC_H

#include <stdalign.h>
#include <stdbool.h>
#include "base/tunables.h"
#include "config/icv.h"
#include "core/barrier.h"
#include "core/cpu_share.h"
#include "core/task_desc.h"
#include "core/thread.h"
#include "core/ws_loop.h"
#include "topo/bind.h"

struct affinity_info;
struct worker;
struct team_ilan;
struct task_slot_block;

/*
 * The team of a parallel region. The master (team_id 0) is the thread that
 * encountered the region; workers 1..nthreads-1 come from the pool. A team
 * of one (a serialized region) still exists so that levels, ancestors and
 * worksharing behave uniformly.
 */
struct team {
    /* Set up by the master before dispatch, read-only during the region. */
    unsigned nthreads;                 /* threads in the team */
    unsigned level;                    /* omp_get_level() inside the region */
    unsigned active_level;             /* omp_get_active_level() inside the region */
    struct team *parent;               /* enclosing team, NULL at level 1 */
    void (*fn)(void *);                /* outlined region body */
    void *data;                        /* its argument block */
    struct icv child_icv;              /* ICVs every implicit task starts with */
    struct worker **workers;           /* workers[i] runs team_id i; workers[0] unused (master) */
    unsigned *worker_runs;             /* worker_runs[i]: pool_dispatch's number of workers[i]'s
                                          run in this team (its last region here) */
    unsigned capacity;                 /* entries allocated in workers[] and worker_runs[] */
    unsigned start_from;               /* this region's first team_id to dispatch: the threads
                                          from there on are started down a tree
                                          (sched/start_tree.h); those below stayed in the team */
    struct cpu_share *_Atomic cpus;    /* where each thread last ran (noted when it entered the
                                          team unbound on a NUMA machine, and by oversubscribed
                                          waits) and whether it finished the region: read by
                                          the ILAN groups (ilan/groups.c) and by waits */
    struct ilan_thread master_saved;   /* the master's thread state before the region */
    bool pooled_workers;               /* workers go back to the pool at the end (not a hot team) */
    bool starts_in_ws;                 /* threads begin inside construct 1 (combined constructs) */
    struct team *next_spare;           /* link in the master's spare_teams list */
    struct bind_team bind;             /* where its threads are placed (topo/bind.h); kind 0: unbound */
    _Atomic unsigned *cgroup_busy;     /* the master's contention group count (thread.h), which
                                          this region's threads count in */

    alignas(ILAN_CACHE_LINE) struct barrier barrier; /* the team barrier */

    alignas(ILAN_CACHE_LINE) _Atomic unsigned single_claimed; /* last single construct taken */
    void *copyprivate;                 /* data broadcast by single copyprivate */

    alignas(ILAN_CACHE_LINE) _Atomic unsigned unfinished; /* workers that have not yet left the
                                                             region (team_worker_leave) */
    _Atomic unsigned helpers;          /* hot team: workers that left but run the region's
                                          tasks (team_help) */
    _Atomic unsigned leaving;          /* hot team: dismissed workers not yet out of the team */
    seqword finished;                  /* bumped when one of the three counts above reaches 0 */
    /* A hot team's workers wait between its regions (team_await_next): */
    _Atomic unsigned region_seq;       /* advanced by the master when a region starts */
    _Atomic unsigned closed_seq;       /* region_seq of the last region whose join completed:
                                          its tasks may no longer be helped with */
    _Atomic unsigned staffed;          /* hot team: workers with a team_id below this stay for
                                          the next region; the others are dismissed */

    struct ws ws_ring[ILAN_WS_RING];   /* worksharing construct slots (ws.h) */

    /* Tasking (task_sched.c): slots are allocated once and kept. */
    struct task_slot **task_slots;     /* per team_id: deque, inbox, implicit task */
    unsigned task_slots_cap;           /* entries allocated in task_slots[] */
    struct task_slot_block *task_slot_blocks; /* where the slots were allocated: one block
                                                 per growth of the team, newest first */
    alignas(ILAN_CACHE_LINE) struct task_queue task_prio; /* priority tasks, and tasks made
                                                             ready by threads outside the team */
    struct team_ilan *ilan;            /* ILAN taskloop groups and queues (ilan/groups.h);
                                          NULL in ws mode */
};

/* Threads currently running OpenMP work in the initial thread's contention
 * group, for OMP_THREAD_LIMIT (a target region's host fallback counts in a
 * contention group of its own). Defined in team.c. */
extern _Atomic unsigned team_busy_threads;

#endif
