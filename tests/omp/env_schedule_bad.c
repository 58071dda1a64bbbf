// env_schedule_bad.c - an OMP_SCHEDULE naming no schedule ilan knows ("fac3",
// or "monotonic:adaptive", which cannot hand out iterations in order) gets one
// line naming the variable and the value, and run-sched-var keeps its
// default (dynamic,1); a schedule(runtime) loop still runs every iteration.
// ilan-test: threads=2 env=OMP_SCHEDULE=fac3
// ilan-test: expect-output: Invalid value for environment variable OMP_SCHEDULE: 'fac3'.*using the default
#include "check.h"
#include <omp.h>

int main(void)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == omp_sched_dynamic && chunk == 1, "kind %d chunk %d", (int)kind, chunk);
    int hits[1000] = {0};
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < 1000; i++)
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < 1000; i++)
        CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
    return 0;
}
