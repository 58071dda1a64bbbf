/* task_sched.h — internal interface of the tasking engine: per-slot queues, the scheduling loop, and the hooks teams and barriers call. */
#ifndef ILAN_CORE_TASK_SCHED_H
#define ILAN_CORE_TASK_SCHED_H

#include <stdalign.h>
#include <stdbool.h>
#include "core/deque.h"
#include "core/mutex.h"
#include "core/task.h"
#include "base/tunables.h"

struct barrier;
struct ilan_thread;

/* A mutex-protected list of tasks: a team's priority queue (ordered by
 * priority, FIFO among equals) or a slot's inbox (FIFO). `count` lets the
 * scheduler skip an empty queue with one relaxed load. */
struct task_queue {
    mutex_t lock;           /* guards head/tail */
    struct task *head;      /* first task (highest priority) */
    struct task *tail;      /* last task */
    _Atomic unsigned count; /* tasks queued (a hint outside the lock) */
};

/* The ILAN taskloop tasks queued for one locality group of a team
 * (core/taskloop_ilan.c distributes them). */
struct group_queues {
    alignas(ILAN_CACHE_LINE) struct task_queue strict; /* NUMA-strict: only the group's threads
                                                          take these */
    alignas(ILAN_CACHE_LINE) struct task_queue shared; /* the group's threads first; under the
                                                          full policy also participating threads
                                                          of other groups whose group ran out */
};

/* What the tasking engine keeps per team thread slot: allocated once per
 * slot and kept with the team (like the team itself), so that deques and
 * implicit tasks are reused region after region. */
struct task_slot {
    struct deque deque;      /* ready tasks created (or released) by this slot's thread */
    alignas(ILAN_CACHE_LINE) struct task_queue inbox; /* tasks placed here by other threads
                                                         (task_enqueue_on); anyone may take */
    alignas(ILAN_CACHE_LINE) struct task implicit; /* the implicit task of this slot's thread */
};

/* Makes sure team t has task slots 0..n-1 and resets its per-region task
 * state. The master, in team_begin, before dispatching workers. */
void task_team_prepare(struct team *t, unsigned n);

/* Frees what task_team_prepare allocated (team_free). */
void task_team_destroy(struct team *t);

/* Makes the calling thread's current task the implicit task of slot
 * team_id of t (thread_enter_team). */
void task_thread_enter(struct ilan_thread *ts, struct team *t, unsigned team_id);

/* The end of an implicit task: runs tasks until the team has no pending
 * task (every explicit task of the region is complete). One relaxed load
 * when there is nothing to do. */
void task_region_drain(struct ilan_thread *ts);

/* The barrier's wait when it cannot release at once: runs the team's tasks
 * until the round `round` is released (by this thread, when it finds all
 * threads arrived and no pending task, or by another). */
void task_barrier_wait(struct barrier *b, unsigned round);

/* The team barrier: waits for all team threads and, while waiting, runs
 * the team's tasks until none is pending. Any team thread may call. */
void task_barrier(struct barrier *b);

/* Like task_barrier, but returns true without waiting for the others when
 * the region has been cancelled (before or during the wait). */
bool task_barrier_cancellable(struct barrier *b);

/* Runs tasks of the caller's team until done(arg) holds; while the current
 * task is an explicit (tied) task only its descendants are started
 * (OpenMP 5.1 task scheduling constraint 2). */
void task_wait_until(struct ilan_thread *ts, bool (*done)(void *), void *arg);

/* Queues a ready task: on the calling thread's deque when it belongs to the
 * task's team, else on the team's priority queue; priority tasks always go
 * to the priority queue. No throttling. */
void task_sched_push(struct ilan_thread *ts, struct task *t);

/* Pushes t on slot team_id's queue (its deque if it is the caller's own
 * slot, else its inbox). */
void task_sched_push_on(struct ilan_thread *ts, struct task *t, unsigned team_id);

/* Empties a group's queues (a new team_ilan). */
void task_group_queues_init(struct group_queues *q);

/* Appends the list head..tail (linked by next_queued, `count` tasks, all
 * of the caller's team, created by the caller) to group g's strict or
 * shared queue of the caller's team, in order, and wakes idle threads. */
void task_sched_push_group(struct ilan_thread *ts, unsigned g, bool strict, struct task *head,
                           struct task *tail, unsigned count);

/* Queues a task made ready by a dependence release on the calling thread:
 * its own deque only when no explicit task waits on the thread (the deque
 * above a waiting task's mark must hold only that task's descendants), else
 * its inbox, or the team's priority queue for a thread outside the team. */
void task_sched_push_released(struct ilan_thread *ts, struct task *t);

/* Records in t (about to run on the calling thread) its own deque's bottom
 * index: the scheduling constraint for t's waits (struct task deque_mark). */
void task_sched_mark(struct ilan_thread *ts, struct task *t);

/* Depth of the calling thread's own deque (throttling). */
unsigned task_sched_own_depth(struct ilan_thread *ts);

/* Runs one ready task if one can be found under the scheduling constraint
 * (taskyield). */
bool task_sched_run_one(struct ilan_thread *ts);

/* ---- task.c internals used by the scheduler ---- */

/* Runs t's body on the calling thread (or discards it when cancelled) and
 * completes it unless it waits for its detach event. */
void task_execute(struct ilan_thread *ts, struct task *t);

/* Frees t's dependence hash (t's children are all complete). */
void task_deps_destroy(struct task *t);

/* True when t descends from `ancestor` (bounded walk; see ILAN_TASK_TSC_DEPTH). */
bool task_descends_from(struct task *t, struct task *ancestor);

#endif
