// icv_taskset.c - under `taskset -c 0` the process may use one CPU: the
// default team size and omp_get_num_procs() follow the affinity mask, not
// the machine.
// ilan-test: threads=default
// ilan-test: prefix: taskset -c 0
#define _GNU_SOURCE
#include <sched.h>
#include "check.h"

int main(void)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity failed");
    CHECK(CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set), "not started under taskset -c 0");
    CHECK(omp_get_num_procs() == 1, "omp_get_num_procs() = %d under taskset -c 0",
          omp_get_num_procs());
    CHECK(omp_get_max_threads() == 1, "default team size %d under taskset -c 0",
          omp_get_max_threads());
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    CHECK(n == 1, "a default team of %d under taskset -c 0", n);
    return 0;
}
