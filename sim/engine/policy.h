/* policy.h — the runtime's policy functions the simulator calls, gathered in one table so that a test can swap one for a stub and see the decision change. */
#ifndef ILAN_SIM_POLICY_H
#define ILAN_SIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "sched/iter.h"
#include "sched/loop_chunks.h"
#include "sched/loop_split.h"
#include "sched/loop_victims.h"
#include "sched/mold.h"
#include "sched/numa_dist.h"
#include "sched/steal.h"
#include "sched/taskloop_plan.h"
#include "sched/taskloop_split.h"

/* Every decision the engine takes from src/sched/, by its function there. */
struct sim_policy {
    enum steal_policy ws_steal;  /* the ws policy's victim rule */
    struct taskloop_plan (*plan_next)(const struct mold *m, unsigned G, bool chooses_tasks,
                                      double work_ns, bool forced_full, int home, unsigned *ids);
    unsigned long (*plan_num_tasks)(bool grainsize, unsigned long num_tasks, double work_ns,
                                    unsigned workers, bool by_range);
    bool (*plan_record)(struct mold *m, double *work_ns, const struct taskloop_plan *p,
                        double time, const double *group_times, unsigned workers);
    double (*plan_times)(const double *end_s, unsigned nthreads, const unsigned *slot_group,
                         const bool *participates, unsigned G, double *group_times);
    bool (*projects_past)(double elapsed_s, unsigned long done, unsigned long total,
                          unsigned workers, double cutoff_s, double *projected_s);
    struct taskloop_split (*split)(iter_ull n, bool grainsize, bool strict,
                                   unsigned long num_tasks, unsigned team_size);
    void (*dist_runs)(iter_ull ntasks, unsigned k, const unsigned *workers, iter_ull *first);
    iter_ull (*dist_strict)(iter_ull count, bool full);
    iter_ull (*steal_share)(iter_ull avail, unsigned workers);
    iter_ull (*own_claim)(iter_ull left, unsigned workers); /* a runner's claim of its own range */
    unsigned (*next_victim)(enum steal_policy policy, unsigned self, unsigned nthreads,
                            unsigned last_victim, uint64_t *rng);
    iter_ull (*loop_steal_size)(iter_ull rem, iter_ull c);
    iter_ull (*loop_pop_size)(iter_ull rem, iter_ull c, iter_ull mult);
    iter_ull (*loop_pop_mult)(iter_ull mult, uint64_t ns, uint64_t target_ns);
    bool (*loop_split_next)(const struct loop_split_obs *o, bool learnt, iter_ull *bounds);
};

/* The table of the functions the runtime ships. */
extern const struct sim_policy sim_policy_shipped;

#endif
