/* task.h — explicit and implicit tasks, taskgroups, and the tasking API the constructs build on. */
#ifndef ILAN_CORE_TASK_H
#define ILAN_CORE_TASK_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/task_desc.h"

#include "core/task_exec.h" /* task_current, task_in_final, task_fulfill */

/* ---- creating and queueing (for GOMP_task, taskloop, reductions) ----- */

/*
 * Allocates a task for the current task's team, as a child of the current
 * task, without queueing or running it: fn, an argument block of arg_size
 * bytes aligned to arg_align (filled with cpyfn(block, data) when cpyfn is
 * given, else memcpy from data; data may be NULL to leave it unfilled),
 * priority (clamped to max-task-priority) and the TASK_FLAG_* flags UNTIED,
 * FINAL, MERGEABLE (the others are ignored). The child is counted (parent's
 * children, every enclosing taskgroup, the team's pending tasks) from here
 * on, so the caller MUST then pass it to exactly one of task_enqueue_on
 * or task_run_now.
 * The caller may write the argument block (task_args) until then.
 */
struct task *task_create(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, int priority);

/* task_create (no copy constructor, flags or priority) for a task that
 * the calling task joins in its current taskgroup before it may wait for
 * its children or end: a range launch's runner, whose creator waits for
 * the taskloop's taskgroup (ilan/exec.c). It is counted in that taskgroup
 * and the team only, and holds no reference on its parent, which outlives
 * its use: two counters fewer bounce between the creator's CPU and the
 * runner's at every launch. */
struct task *task_create_joined(void (*fn)(void *), void *data, long arg_size, long arg_align);

/* A priority clause's value as tasks carry it: clamped to 0..max-task-priority. */
int task_priority_clamp(int priority);

/* Queues a created task on the deque of team thread `team_id` of the
 * current team (the placement hook: taskloop/ILAN distribute with it).
 * team_id must be < the team's size. Never throttles. */
void task_enqueue_on(struct task *t, unsigned team_id);

/* Runs a created task at once on the calling thread as an included /
 * undeferred task, and returns when it is complete (for a detached task:
 * when its event is also fulfilled). */
void task_run_now(struct task *t);

/* Runs fn(data) at once as an included task of the current task (its
 * descriptor on the caller's stack): the caller keeps data alive until it
 * returns. `copied`: data was made by a copy constructor, so the task runs
 * (and destroys it) even after a cancellation. */
void task_run_inline(void (*fn)(void *), void *data, unsigned flags, bool copied);

/* GOMP_task: creates a task and queues it, or runs it at once when it is
 * undeferred (if(0), a final creator, throttled, no team), honouring its
 * dependences (gcc's depend array) and its detach event (*detach receives
 * the event handle). */
void task_spawn(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                void *detach);

/* taskwait depend(...): waits for the tasks the listed dependences would
 * make a new sibling wait for. */
void task_wait_depend(void **depend);

/* The current task, moved off its creator's stack first if it is an
 * included task: an identity that stays the same for its whole run (the
 * owner of a nestable lock). */
struct task *task_current_stable(void);

/* ---- waiting ------------------------------------------------------------ */

/* taskwait: runs tasks until every child of the current task is complete. */
void task_wait_children(void);

/* taskyield: may run one other task. */
void task_yield(void);

/* taskgroup: begins a group on the current task; g is caller storage (the
 * stack frame of GOMP_taskgroup_start's caller does not survive, so the ABI
 * entry points allocate it; the reductions code may embed it). */
void task_taskgroup_start(struct taskgroup *g);

/* Ends the current task's innermost taskgroup: runs tasks until every task
 * of the group and its descendants is complete, then pops it. Returns it
 * (for the reductions code to finish with). */
struct taskgroup *task_taskgroup_end(void);

/* Allocates and begins a taskgroup (GOMP_taskgroup_start); task_taskgroup_end
 * followed by task_taskgroup_free releases it. */
struct taskgroup *task_taskgroup_new(void);
void task_taskgroup_free(struct taskgroup *g);

/* ---- cancellation ----------------------------------------------------- */

/* cancel taskgroup: marks the current task's innermost taskgroup region
 * cancelled, passing over the groups the runtime made for task reductions
 * (returns false when there is none). */
bool task_cancel_taskgroup(void);

/* True when the taskgroup the current task belongs to (or its innermost
 * own one) was cancelled: for GOMP_cancellation_point(TASKGROUP). */
bool task_taskgroup_cancelled(void);

#endif
