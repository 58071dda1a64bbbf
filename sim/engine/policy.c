/* policy.c — the table of the runtime's own policy functions (src/sched) that the simulator calls. */
#include "policy.h"

const struct sim_policy sim_policy_shipped = {
    .ws_steal = STEAL_RANDOM,
    .plan_next = taskloop_plan_next,
    .plan_num_tasks = taskloop_plan_num_tasks,
    .plan_record = taskloop_plan_record,
    .plan_times = taskloop_plan_times,
    .projects_past = mold_projects_past,
    .split = taskloop_split_compute,
    .dist_runs = numa_dist_runs,
    .dist_strict = numa_dist_strict,
    .steal_share = numa_dist_steal_share,
    .own_claim = numa_dist_own_claim,
    .next_victim = steal_next_victim,
    .loop_steal_size = loop_steal_size,
    .loop_pop_size = loop_pop_size,
    .loop_pop_mult = loop_pop_mult,
    .loop_split_next = loop_split_next,
};
