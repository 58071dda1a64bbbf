/* team.h — a team of threads executing one parallel region, and how regions start and end. */
#ifndef ILAN_CORE_TEAM_H
#define ILAN_CORE_TEAM_H

#include <stdbool.h>
#include "core/team_desc.h"

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

/* Makes a thread the pool did not create (the initial thread is left out:
 * its exit is the process's) release its teams and loop and task state
 * when it ends, as a pool worker does when it retires. Called once per
 * such thread, at its first use of the runtime, by that thread. */
void team_watch_thread_exit(struct ilan_thread *ts);

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


#endif
