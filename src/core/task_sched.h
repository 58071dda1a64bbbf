/* task_sched.h — finding and running ready tasks while waiting: the scheduling loop, region drain, and the team's task slots (the tasking barrier's wait is core/barrier_wait.h). */
#ifndef ILAN_CORE_TASK_SCHED_H
#define ILAN_CORE_TASK_SCHED_H

#include <stdalign.h>
#include <stdbool.h>
#include "core/task_desc.h"
#include "base/tunables.h"

struct barrier;
struct ilan_thread;

/* Makes sure team t has task slots 0..n-1 and resets its per-region task
 * state. The master, in team_begin, before dispatching workers. */
void task_team_prepare(struct team *t, unsigned n);

/* Frees what task_team_prepare allocated (team_free). */
void task_team_destroy(struct team *t);

/* The end of an implicit task: runs tasks until the team has no pending
 * task (every explicit task of the region is complete). One relaxed load
 * when there is nothing to do. */
void task_region_drain(struct ilan_thread *ts);

/* Runs tasks of the caller's team until done(arg) holds; while the current
 * task is an explicit (tied) task only its descendants are started
 * (OpenMP 5.1 task scheduling constraint 2). */
void task_wait_until(struct ilan_thread *ts, bool (*done)(void *), void *arg);

/* Runs one ready task if one can be found under the scheduling constraint
 * (taskyield). */
bool task_sched_run_one(struct ilan_thread *ts);

#endif
