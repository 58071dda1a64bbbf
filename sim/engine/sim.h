/* sim.h — one simulated run: a program on a machine under a policy, and its result written as JSON. */
#ifndef ILAN_SIM_SIM_H
#define ILAN_SIM_SIM_H

#include <stdio.h>

#include "input.h"
#include "policy.h"

/* Executions of each construct whose configuration and time the output
 * lists one by one (an exploration's path). */
#define SIM_FIRST_RUNS 48

/* What a run measured of one construct. */
struct sim_construct_result {
    unsigned long executions; /* times it ran */
    double time_ns;           /* sum of its executions' times */
    unsigned long chunks;     /* loop: chunks handed out in all */
    char config[64];          /* its last configuration */
    char (*configs)[64];      /* distinct configurations it ran, in first-use order */
    unsigned long *config_runs; /* [nconfigs] how often each ran */
    unsigned nconfigs;        /* entries of configs */
    char state[256];          /* the exploration's explanation, "" when none */
    unsigned short first[SIM_FIRST_RUNS]; /* the first executions' configurations (configs index) */
    double first_ns[SIM_FIRST_RUNS];      /* ...and times */
};

/* Simulates `in` under the policy functions `fns` and writes the result
 * (sim/README.md, "The engine's output") to out. False on an error (a
 * message on stderr). */
bool sim_run(const struct sim_input *in, const struct sim_policy *fns, FILE *out);

#endif
