/* main.c — ilan-sim-engine: reads one program and machine (sim/README.md) on stdin, simulates it under the policy it names with the runtime's own policy functions, writes the result as JSON on stdout. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

int main(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "usage: %s < INPUT (the format of sim/README.md; ilan sim writes it)\n",
                argv[0]);
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    struct sim_input in;
    if (!sim_input_read(stdin, &in))
        return 2;
    bool ok = sim_run(&in, &sim_policy_shipped, stdout);
    sim_input_free(&in);
    return ok ? 0 : 1;
}
