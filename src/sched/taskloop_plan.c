/* taskloop_plan.c — one execution of an ILAN taskloop decided from its identity's history, and its times recorded back (pure). */
#include "sched/taskloop_plan.h"

#include <stddef.h>

#include "sched/numa_dist.h"

/* Puts group `home` among ids[0..k-1] (increasing) in place of the chosen
 * group the mold ranks slowest, unless it is there already. */
static void include_home(const struct mold *m, unsigned *ids, unsigned k, unsigned home)
{
    for (unsigned j = 0; j < k; j++)
        if (ids[j] == home)
            return;
    unsigned drop = k; /* the chosen group ranked slowest; without a ranking, the highest id */
    for (unsigned r = m->ranked ? m->ngroups : 0; r-- > 0 && drop == k;)
        for (unsigned j = 0; j < k; j++)
            if (ids[j] == m->rank[r])
                drop = j;
    if (drop == k)
        drop = k - 1;
    /* Remove ids[drop], then insert home in order. */
    for (unsigned j = drop; j + 1 < k; j++)
        ids[j] = ids[j + 1];
    unsigned pos = k - 1;
    while (pos > 0 && ids[pos - 1] > home) {
        ids[pos] = ids[pos - 1];
        pos--;
    }
    ids[pos] = home;
}

struct taskloop_plan taskloop_plan_next(const struct mold *m, unsigned G, bool chooses_tasks,
                                        double work_ns, bool forced_full, int home, unsigned *ids)
{
    struct taskloop_plan p = {.cfg = {G, forced_full}, .k = G, .recorded = m != NULL};
    for (unsigned j = 0; j < G; j++)
        ids[j] = j;
    if (!m)
        return p;
    p.calibration = chooses_tasks && work_ns == 0;
    if (!p.calibration) {
        p.cfg = mold_next(m);
        p.k = mold_groups(m, p.cfg, ids);
        if (home >= 0 && (unsigned)home < G && p.k < G)
            include_home(m, ids, p.k, (unsigned)home);
        p.cutoff = mold_cutoff(m);
    }
    return p;
}

unsigned long taskloop_plan_num_tasks(bool grainsize, unsigned long num_tasks, double work_ns,
                                      unsigned workers, bool by_range)
{
    if (grainsize || num_tasks != 0)
        return num_tasks;
    struct numa_dist_grain grain =
        by_range && work_ns > 0 ? NUMA_DIST_GRAIN_RANGE : NUMA_DIST_GRAIN_TASKS;
    return (unsigned long)numa_dist_tasks_per_worker(work_ns, workers, grain) * workers;
}

double taskloop_plan_times(const double *end_s, unsigned nthreads, const unsigned *slot_group,
                           const bool *participates, unsigned G, double *group_times)
{
    for (unsigned g = 0; g < G; g++)
        group_times[g] = participates[g] ? 0.0 : -1.0;
    double last = 0;
    for (unsigned i = 0; i < nthreads; i++) {
        double t = end_s[i];
        if (t <= 0)
            continue; /* ran none of the run's tasks */
        if (t > last)
            last = t;
        unsigned g = slot_group[i];
        if (participates[g] && t > group_times[g])
            group_times[g] = t;
    }
    return last;
}

unsigned taskloop_plan_threads_ran(const double *end_s, unsigned nthreads)
{
    unsigned ran = 0;
    for (unsigned i = 0; i < nthreads; i++)
        ran += end_s[i] > 0;
    return ran ? ran : 1;
}

bool taskloop_plan_wants_group_times(const struct mold *m, const struct taskloop_plan *p)
{
    return p->recorded && !p->calibration && mold_wants_group_times(m, p->cfg);
}

bool taskloop_plan_record(struct mold *m, double *work_ns, const struct taskloop_plan *p,
                          double time, const double *group_times, unsigned workers)
{
    if (p->calibration) {
        if (*work_ns == 0)
            *work_ns = time * 1e9 * workers + 1; /* + 1: measured, even if 0 */
        return true;
    }
    if (!p->recorded)
        return true;
    return mold_record(m, p->cfg, time, group_times);
}
