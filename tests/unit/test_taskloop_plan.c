/* test_taskloop_plan.c — unit tests of one ILAN taskloop execution's plan and its recording (sched/taskloop_plan.c). */
#include <stdio.h>
#include "sched/taskloop_plan.h"
#include "base/tunables.h"
#include "unit.h"

int main(void)
{
    unsigned ids[4];
    struct mold m;
    CHECK(mold_init(&m, 4, false, -1));

    /* No history for this team: every group, unrecorded, no cut-off. */
    struct taskloop_plan p = taskloop_plan_next(NULL, 4, true, 0, true, -1, ids);
    CHECK(p.k == 4 && p.cfg.ngroups == 4 && p.cfg.full && !p.recorded && !p.calibration);
    CHECK(ids[0] == 0 && ids[3] == 3);

    /* A loop without clauses in the ilan mode measures its work first. */
    p = taskloop_plan_next(&m, 4, true, 0, false, -1, ids);
    CHECK(p.calibration && p.recorded && p.k == 4 && p.cutoff == 0);
    CHECK(!taskloop_plan_wants_group_times(&m, &p), "a calibration measures work only");
    double work = 0, gt[4] = {0.001, 0.001, 0.001, 0.001};
    CHECK(taskloop_plan_record(&m, &work, &p, 0.002, gt, 8));
    CHECK(work == 0.002 * 1e9 * 8 + 1, "work %g", work);
    CHECK(m.executions == 0, "a calibration is not a sample");
    /* A second calibration (two threads raced to it) keeps the first. */
    CHECK(taskloop_plan_record(&m, &work, &p, 0.5, gt, 8));
    CHECK(work == 0.002 * 1e9 * 8 + 1);

    /* Then the mold decides, and its samples are recorded. */
    p = taskloop_plan_next(&m, 4, true, work, false, -1, ids);
    CHECK(!p.calibration && p.recorded && p.k == mold_next(&m).ngroups);
    CHECK(taskloop_plan_wants_group_times(&m, &p), "exploring: the groups are ranked");
    CHECK(taskloop_plan_record(&m, &work, &p, 0.002, gt, 8));
    CHECK(m.executions == 1);

    /* An unrecorded plan (pinned to its data's groups) leaves the mold alone. */
    struct taskloop_plan pinned = {.cfg = {2, false}, .k = 2};
    CHECK(!taskloop_plan_wants_group_times(&m, &pinned));
    CHECK(taskloop_plan_record(&m, &work, &pinned, 0.002, gt, 4));
    CHECK(m.executions == 1);

    /* Task counts: a clause is kept; without one, the grain of the launch. */
    CHECK(taskloop_plan_num_tasks(true, 7, 0, 8, true) == 7);
    CHECK(taskloop_plan_num_tasks(false, 9, 1e9, 8, true) == 9);
    CHECK(taskloop_plan_num_tasks(false, 0, 0, 8, true) == ILAN_TASKS_PER_WORKER * 8,
          "unknown work: the thesis's count");
    CHECK(taskloop_plan_num_tasks(false, 0, 1e9, 8, true) == ILAN_RANGE_TASKS_PER_WORKER * 8);
    CHECK(taskloop_plan_num_tasks(false, 0, 1e9, 8, false) == ILAN_TASKS_PER_WORKER * 8);
    /* 8 threads and 64 us of work: 2 tasks of 4 us each per thread in a range launch. */
    CHECK(taskloop_plan_num_tasks(false, 0, 8 * 2 * ILAN_RANGE_MIN_TASK_NS, 8, true) == 16);

    /* Times: a group's is its slowest thread's; threads that ran nothing are left out. */
    double end[6] = {0.003, 0.004, 0, 0.002, 0.009, 0};
    unsigned group[6] = {0, 0, 1, 1, 2, 3};
    bool part[4] = {true, true, false, true};
    double g[4];
    double t = taskloop_plan_times(end, 6, group, part, 4, g);
    CHECK(t == 0.009, "the slowest thread's, even of a group not taking part");
    CHECK(g[0] == 0.004 && g[1] == 0.002 && g[2] == -1 && g[3] == 0);

    /* A calibration counts the threads that ran tasks (4 of these 6), not
     * those the launch counted on; none at all still counts as one. */
    CHECK(taskloop_plan_threads_ran(end, 6) == 4);
    double none[3] = {0, 0, -0.001};
    CHECK(taskloop_plan_threads_ran(none, 3) == 1);
    /* So a 2-thread calibration whose second thread ran nothing (it shared
     * the creator's CPU) measures one thread's work, not twice it. */
    double alone[2] = {0.0001, 0};
    double cwork = 0;
    struct mold m2;
    CHECK(mold_init(&m2, 2, false, -1));
    struct taskloop_plan cal = taskloop_plan_next(&m2, 2, true, 0, false, -1, ids);
    CHECK(cal.calibration);
    CHECK(taskloop_plan_record(&m2, &cwork, &cal, 0.0001, NULL, taskloop_plan_threads_ran(alone, 2)));
    CHECK(cwork == 0.0001 * 1e9 + 1, "work %g", cwork);
    mold_free(&m2);

    mold_free(&m);

    /* Placeless groups: a configuration of fewer groups includes the
     * creator's, in place of the chosen group ranked slowest. */
    CHECK(mold_init(&m, 4, false, -1));
    double fast[4] = {0.004, 0.001, 0.002, 0.003}; /* ranks groups 1, 2, 3, 0 */
    for (unsigned r = 0; r < MOLD_WARMUP; r++) {
        p = taskloop_plan_next(&m, 4, false, 0, false, -1, ids);
        CHECK(p.k == 4);
        CHECK(taskloop_plan_record(&m, &work, &p, 0.004, fast, 8));
    }
    p = taskloop_plan_next(&m, 4, false, 0, false, -1, ids);
    CHECK(p.k == 2 && ids[0] == 1 && ids[1] == 2, "the mold's two fastest: %u %u", ids[0], ids[1]);
    p = taskloop_plan_next(&m, 4, false, 0, false, 3, ids);
    CHECK(p.k == 2 && ids[0] == 1 && ids[1] == 3, "2 (ranked slower) gives way: %u %u", ids[0],
          ids[1]);
    p = taskloop_plan_next(&m, 4, false, 0, false, 0, ids);
    CHECK(p.k == 2 && ids[0] == 0 && ids[1] == 1, "%u %u", ids[0], ids[1]);
    p = taskloop_plan_next(&m, 4, false, 0, false, 2, ids);
    CHECK(p.k == 2 && ids[0] == 1 && ids[1] == 2, "home chosen already");
    mold_free(&m);
    return unit_report();
}
