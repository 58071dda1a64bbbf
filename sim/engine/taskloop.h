/* taskloop.h — one execution of a taskloop in the simulated machine, under the ws, llvm, numa or ilan policy. */
#ifndef ILAN_SIM_TASKLOOP_H
#define ILAN_SIM_TASKLOOP_H

#include "policy.h"
#include "world.h"

/* What ILAN remembers of one taskloop identity (construct, iteration count). */
struct tl_identity {
    unsigned construct;  /* the construct */
    unsigned long n;     /* its iteration count */
    struct mold mold;    /* its exploration */
    double work_ns;      /* its measured work, 0 until the calibration run */
};

/* The taskloop state of a run: every identity met so far. */
struct tl_history {
    struct tl_identity *ids; /* identities, in first-use order */
    unsigned long n, cap;    /* used, allocated */
};

/* What one execution ran, for the output. */
struct tl_outcome {
    char config[64]; /* e.g. "4 groups strict", "ws" */
    double time_ns;  /* creator's start to the join */
};

/*
 * Runs one execution of taskloop op with n iterations, created by thread
 * 0 at time t0 (the other threads asleep); returns when thread 0 leaves
 * the join. fns: the policy functions (sim/engine/policy.h).
 */
double taskloop_run(struct world *w, const struct sim_policy *fns, struct tl_history *h,
                    const struct sim_op *op, unsigned long n, double t0, struct tl_outcome *out);

/* The identity's mold for the report (NULL when none). */
const struct tl_identity *taskloop_identity_last(const struct tl_history *h, unsigned construct);

void taskloop_history_free(struct tl_history *h);

#endif
