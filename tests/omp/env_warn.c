// env_warn.c - an invalid OMP_* value gets one line on stderr that names the
// variable and the value; the program runs on with the default.
// ilan-test: threads=2
// ilan-test: env=OMP_SCHEDULE=sideways,4;OMP_DYNAMIC=maybe
// ilan-test: expect-output: ^ilan: Invalid value for environment variable OMP_SCHEDULE: 'sideways,4'
#include "check.h"

int main(void)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == omp_sched_dynamic && chunk == 1, "schedule %d,%d is not the default", (int)kind,
          chunk);
    CHECK(!omp_get_dynamic(), "OMP_DYNAMIC=maybe was taken as true");
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    CHECK(n == 2, "a team of %d, want 2", n);
    return 0;
}
