/* tree.h — one task tree (fib, sort, uts) in the simulated machine: work-first deques and stealing by the policy's victim rule, or (slb) XQueue's round-robin dispatch. */
#ifndef ILAN_SIM_TREE_H
#define ILAN_SIM_TREE_H

#include "policy.h"
#include "world.h"

/*
 * Runs tree op, its root started by thread 0 at t0 (the others asleep);
 * returns when the root's task completes. Every task waits for its
 * children; a task's continuation (sort's merge tree) is made by the thread
 * that completes its last child (an untied, Cilk-like model: a waiting thread
 * holds no task, so the tied constraint is not modelled).
 */
double tree_run(struct world *w, const struct sim_policy *fns, const struct sim_op *op, double t0);

#endif
