/* loop.h — one execution of a worksharing loop in the simulated machine, under its schedule, ending in a barrier. */
#ifndef ILAN_SIM_LOOP_H
#define ILAN_SIM_LOOP_H

#include "policy.h"
#include "world.h"

/*
 * Runs loop op with n iterations, every thread starting at `t0`; returns
 * when the loop's closing barrier releases the threads. *chunks counts the
 * chunks handed out.
 */
double loop_run(struct world *w, const struct sim_policy *fns, const struct sim_op *op,
                unsigned long n, double t0, unsigned long *chunks);

/* ceil(log2(T)) barrier levels times barrier_ns. */
double loop_barrier_ns(const struct world *w);

#endif
