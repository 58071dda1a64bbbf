// affinity_bind_taskset_places.c - under `taskset -c 1`, OMP_PLACES=threads
// describes the CPUs the process may use: one place, {1}; with
// OMP_PROC_BIND=spread every thread is bound to it and runs on CPU 1.
// ilan-test: threads=1,2,8
// ilan-test: env=OMP_PLACES=threads;OMP_PROC_BIND=spread
// ilan-test: prefix: taskset -c 1
#include "affinity_common.h"

int main(void)
{
    CHECK(omp_get_num_places() == 1, "%d places under taskset -c 1, want 1",
          omp_get_num_places());
    int ids[4];
    CHECK(omp_get_place_num_procs(0) == 1, "place 0 has %d procs", omp_get_place_num_procs(0));
    omp_get_place_proc_ids(0, ids);
    CHECK(ids[0] == 1, "place 0 is {%d}, want {1}", ids[0]);
    aff_bind_main(AFF_SPREAD);
    for (int i = 0; i < omp_get_max_threads(); i++)
        CHECK(aff_recs[i].cpu == 1, "thread %d runs on CPU %d", i, aff_recs[i].cpu);
    return 0;
}
