/* team.h — a team of threads executing one parallel region, and how regions start and end. */
#ifndef ILAN_CORE_TEAM_H
#define ILAN_CORE_TEAM_H

#include <stdalign.h>
#include <stdbool.h>
#include "core/barrier.h"
#include "config/icv.h"
#include "core/thread.h"
#include "core/ws.h"
#include "core/task_sched.h"
#include "base/tunables.h"

struct affinity_info;
struct worker;
struct team_ilan;

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
    unsigned capacity;                 /* entries allocated in workers[] and slot_cpu[] */
    _Atomic int *slot_cpu;             /* slot_cpu[i]: the CPU thread i ran on when it last entered
                                          this team unbound (-1: not known); read when the
                                          team's ILAN groups are built (taskloop_ilan.c) */
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

    alignas(ILAN_CACHE_LINE) _Atomic unsigned unfinished; /* workers still in the region */
    seqword finished;                  /* advanced by the last worker to finish */

    struct ws ws_ring[ILAN_WS_RING];   /* worksharing construct slots (ws.h) */

    /* Tasking (task_sched.c): slots are allocated once and kept. */
    struct task_slot **task_slots;     /* per team_id: deque, inbox, implicit task */
    unsigned task_slots_cap;           /* entries allocated in task_slots[] */
    alignas(ILAN_CACHE_LINE) struct task_queue task_prio; /* priority tasks, and tasks made
                                                             ready by threads outside the team */
    struct team_ilan *ilan;            /* ILAN taskloop groups and queues (taskloop_ilan.h);
                                          NULL in ws mode */
};

/* Starts a region: resolves the team size from the request and the ICVs
 * (OpenMP 5.1 "determining the number of threads"), dispatches workers that
 * run fn(data), and makes the caller the team's master. The caller then runs
 * fn(data) itself and calls team_end. num_threads 0 means "not specified";
 * if_clause false serializes; proc_bind is 0 when absent. */
void team_begin(void (*fn)(void *), void *data, unsigned num_threads, bool if_clause,
                unsigned proc_bind);

/* Like team_begin, for combined constructs (parallel loop, parallel
 * sections) whose outlined body starts inside the worksharing construct: the
 * master calls init_ws(slot, arg, nthreads) on the slot of the team's first
 * construct before any thread starts, and every thread begins the region
 * already inside that construct (ts->ws set, ts->ws_seq == 1). */
void team_begin_with_ws(void (*fn)(void *), void *data, unsigned num_threads, bool if_clause,
                        unsigned proc_bind,
                        void (*init_ws)(struct ws *w, void *arg, unsigned nthreads), void *arg);

/* Ends the region begun by the calling master: waits for every worker to
 * finish, releases them, and restores the master's previous state. */
void team_end(void);

/* Runs fn(arg) on the calling thread as a new initial task, outside every
 * team (the host fallback of a target region): its parallel regions are
 * top-level ones. The thread's state, including its hot team, is restored
 * afterwards; teams made inside are kept as spares, their workers pooled. */
void team_run_as_initial_task(void (*fn)(void *), void *arg, unsigned thread_limit);

/* Releases what the calling thread's finished regions keep (its hot team's
 * workers, its spare teams) and ends every idle pool thread
 * (omp_pause_resource). Only outside every parallel region. */
void team_pause(void);

/* The calling thread's place in its teams, for an affinity-format line
 * (level, thread and team numbers); the OS fields are left alone. */
void team_affinity_fields(struct affinity_info *in);

/* Frees a team nobody can touch any more (see pool_retire_idle). */
void team_free(struct team *t);

/* The number of threads a region would get: a pure function of the request
 * and the encountering thread's situation. busy_threads counts threads
 * already working in the contention group (including the caller). */
unsigned team_resolve_size(unsigned num_threads, bool if_clause, const struct icv *icv,
                           unsigned active_level, unsigned busy_threads, unsigned num_procs);

/* Threads currently running OpenMP work in the initial thread's contention
 * group, for OMP_THREAD_LIMIT (a target region's host fallback counts in a
 * contention group of its own). */
extern _Atomic unsigned team_busy_threads;

#endif
