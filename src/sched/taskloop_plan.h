/* taskloop_plan.h — one execution of an ILAN taskloop decided from its identity's history: configuration, groups, task count, cut-off; and its measured times recorded back (pure). */
#ifndef ILAN_SCHED_TASKLOOP_PLAN_H
#define ILAN_SCHED_TASKLOOP_PLAN_H

#include <stdbool.h>

#include "sched/mold.h"

/*
 * The runtime (ilan/exec.c) and the simulator (sim/engine) both decide an
 * execution here and record it here, so that what is simulated is what
 * ships. The caller keeps, per taskloop identity, a struct mold and the
 * loop's measured work (work_ns, 0 until measured), and serializes calls
 * on them.
 */

/* What one execution runs. */
struct taskloop_plan {
    struct mold_config cfg; /* the configuration */
    unsigned k;             /* groups taking part, whose ids the caller's ids[0..k-1] hold */
    bool calibration;       /* measures the loop's work on every group: not a sample of cfg */
    bool recorded;          /* its time goes to the history (a mold fits the team) */
    double cutoff;          /* seconds it may run before every group may help; 0: none */
};

/*
 * The plan of the next execution of a taskloop over a team of G groups.
 * m: the identity's mold, NULL when the history has none that fits this
 * team (then every group, unrecorded). chooses_tasks: the ilan mode and
 * neither grainsize nor num_tasks (the task count follows the measured
 * work, so the first execution measures it: a calibration on every
 * group). forced_full: ILAN_STEAL_POLICY=full, the steal policy of runs
 * that do not explore. home: the creator's group when the team's groups
 * have no place (unbound threads, each a group of its own), else -1; a
 * configuration of fewer groups than all then includes it, in place of
 * the chosen group the mold ranks slowest: placeless groups differ only
 * in whether the creator works or waits for a hand-off (on the 2-core VM
 * a one-group run on the other thread took 0.091-0.099 ms against
 * 0.051-0.063 on both). Writes the ids of the groups taking part, in
 * increasing order, to ids[0..k-1] (ids holds G).
 */
struct taskloop_plan taskloop_plan_next(const struct mold *m, unsigned G, bool chooses_tasks,
                                        double work_ns, bool forced_full, int home, unsigned *ids);

/*
 * The task count asked of gcc's split (taskloop_split_compute): num_tasks
 * as given when the loop has a clause; else numa_dist_tasks_per_worker of
 * the measured work (work_ns, 0: unknown) per participating thread, times
 * those `workers`, cut finer for a range launch once the work is known
 * (by_range: NUMA_DIST_GRAIN_RANGE, else NUMA_DIST_GRAIN_TASKS).
 */
unsigned long taskloop_plan_num_tasks(bool grainsize, unsigned long num_tasks, double work_ns,
                                      unsigned workers, bool by_range);

/*
 * The times of one execution, from each team thread's end: end_s[i] is
 * when thread i finished its last task of the run, in seconds after the
 * run began (<= 0: it ran none). A group's time is its slowest thread's,
 * written to group_times[g] for the groups taking part (participates[g];
 * 0 when none of its threads ran a task) and -1 for the others; returns
 * the run's time, the slowest group's (0 when no thread ran a task).
 */
double taskloop_plan_times(const double *end_s, unsigned nthreads, const unsigned *slot_group,
                           const bool *participates, unsigned G, double *group_times);

/* How many of nthreads threads ran tasks of an execution, from their ends
 * as taskloop_plan_times takes them (end_s[i] > 0); at least 1. What a
 * calibration's work is counted over: a thread the launch counted on may
 * have run none (one that shared its CPU with the creator, the creator
 * having taken its share back), and counting it would double the work
 * measured and cut every later execution into twice the tasks. */
unsigned taskloop_plan_threads_ran(const double *end_s, unsigned nthreads);

/* Whether taskloop_plan_record makes any use of the group times of an
 * execution planned by p (mold_wants_group_times; none for a calibration
 * or an unrecorded run). */
bool taskloop_plan_wants_group_times(const struct mold *m, const struct taskloop_plan *p);

/*
 * Records an execution planned by p that took `time` seconds (group_times
 * as taskloop_plan_times gives them, or NULL when
 * taskloop_plan_wants_group_times said no; `workers` threads took part, for a
 * calibration taskloop_plan_threads_ran's count): a
 * calibration sets *work_ns (time x workers, in ns, at least 1 so that a
 * measured 0 counts as measured) unless it is set already; a recorded run
 * goes to mold_record. False when mold_record ran out of memory.
 */
bool taskloop_plan_record(struct mold *m, double *work_ns, const struct taskloop_plan *p,
                          double time, const double *group_times, unsigned workers);

#endif
