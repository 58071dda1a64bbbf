/* exec.h — one execution of an ILAN taskloop: distribution over the chosen groups and its measurement. */
#ifndef ILAN_ILAN_EXEC_H
#define ILAN_ILAN_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/task_desc.h"
#include "sched/iter.h"
#include "sched/taskloop_plan.h"

struct ilan_thread;
struct team_ilan;
struct taskloop_hist;

/* One execution of an ILAN taskloop, shared by its tasks: freed by the
 * task that finishes last, after it recorded the measurement. */
struct taskloop_exec {
    struct taskloop_hist *hist;       /* identity, or NULL (history full: not recorded) */
    struct taskloop_plan plan;        /* what this execution runs; a run pinned to its data's
                                         groups is not recorded (plan.recorded false) */
    unsigned workers;                 /* threads of the configuration that can run at once
                                         (no more than the CPUs) */
    uint64_t start_ns;                /* when the creator began creating its tasks */
    bool finished_by_creator;         /* the creator waits for the tasks (taskgroup) and
                                         records the execution; else the last task does */
    _Atomic unsigned long remaining;  /* tasks not finished (when the last task records) */
    bool *participates;               /* [G] groups of the configuration */
    _Atomic uint64_t open_ns;         /* from then on every thread may take its tasks (an
                                         exploratory run past its cut-off, or projected past
                                         it: watch_pace); 0: never */
    unsigned long ntasks;             /* its tasks */
    _Atomic unsigned long tasks_done; /* a run with a cut-off: its tasks complete so far */
    _Atomic bool opened_early;        /* ...whose pace projected it past the cut-off */
    double projected_s;               /* the time that pace projected: recorded instead of
                                         the one every thread's help shortened */
    _Atomic bool helped;              /* range launch opened: runners for the other groups'
                                         threads were queued (open_ranges) */
    struct team_ilan *team_ilan;      /* the team's groups (stable while tasks of the team are
                                         pending) and its open_at_ns, reset at the end */
    uint64_t *slot_end;               /* [nthreads, one cache line apart] when each thread
                                         finished its latest task of this execution (ns) */
    struct ilan_launch *launch;       /* range launch (ilan/range.h): runner tasks share the
                                         groups' ranges; NULL: one descriptor per task */
    struct ilan_data *data;           /* the registered array's map (ilan/data.h), NULL: none */
    _Atomic bool drained;             /* range launch: every task was claimed, so any thread
                                         may run (and end) the runners still queued */
    bool watch_cpus;                  /* range launch in groups without places while threads
                                         outnumber CPUs: runners check for a shared CPU
                                         (spread_runner) */
    _Atomic uint64_t runner_cpus;     /* ...the CPUs (below 64) a runner of it works on, the
                                         creator included */
    _Atomic unsigned runners_added;   /* ...runners queued by runners that found their CPU taken */
    struct exec_offer *offers;        /* [nthreads] room for runners offered to single threads
                                         (core/handoff.h), NULL: team too large for them */
    unsigned noffers;                 /* offers[0..noffers) made by this execution; while any
                                         is out the creator holds its team's pending count */
    size_t capacity;                  /* bytes of this record's allocation (it is recycled:
                                         team_ilan.spare_exec) */
    void *launch_room;                /* room for the launch inside the allocation (NULL: the
                                         launch, if any, is an allocation of its own) */
};



/*
 * Runs the deferred part of an ILAN taskloop on the calling thread's team
 * (mode ILAN or NUMA, the team has ILAN state): picks the configuration,
 * cuts the loop (num_tasks 0 without grainsize: no clause, the ILAN
 * default), and hands the tasks to the chosen groups: as one range per
 * group and one runner task per thread of it (ilan/range.h) when the
 * taskloop allows (ilan_range_fits) and the run has no cut-off, else as
 * one descriptor per task, make(arg, i) creating task i (of
 * split->ntasks) with its bounds. split is computed here first.
 * creator_waits: the caller waits for every task (the taskloop's
 * taskgroup) and then passes the returned record to ilan_exec_end;
 * otherwise (nogroup) NULL is returned and the last task records.
 */
struct taskloop_split;
struct taskloop_body;
struct taskloop_exec *ilan_exec_run(struct ilan_thread *ts, const struct taskloop_body *body,
                                        iter_ull n,
                                        bool grainsize, bool strict, unsigned long num_tasks,
                                        bool creator_waits, struct taskloop_split *split,
                                        struct task *(*make)(void *arg, iter_ull i), void *arg);

/* After the taskgroup of a taskloop_ilan_run(creator_waits) ended: records
 * the execution in the history and frees exec (NULL: nothing to do). */
void ilan_exec_end(struct taskloop_exec *exec);


/* The calling thread ran task t of its execution t->exec (task_mode_ops.task_done);
 * nothing for a range launch's runner, which records its own times. */
void ilan_exec_task_done(struct ilan_thread *ts, struct task *t);

#endif
