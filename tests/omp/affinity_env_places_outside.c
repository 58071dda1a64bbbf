// affinity_env_places_outside.c - a place naming a CPU outside the process's
// set is dropped with a warning: under `taskset -c 0`, OMP_PLACES={0},{1} is
// one place, {0}, and every thread is bound to CPU 0.
// ilan-test: threads=1,3
// ilan-test: env=OMP_PLACES={0},{1}
// ilan-test: prefix: taskset -c 0
// ilan-test: expect-output: ^(ilan: OMP_PLACES: .*outside this process's set.*dropped.*|libgomp: Number of places reduced from 2 to 1 because some places didn't contain any usable logical CPUs)$
#include "affinity_common.h"

int main(void)
{
    CHECK(omp_get_num_places() == 1, "%d places, want 1", omp_get_num_places());
    int id = -1;
    CHECK(omp_get_place_num_procs(0) == 1, "place 0 has %d procs", omp_get_place_num_procs(0));
    omp_get_place_proc_ids(0, &id);
    CHECK(id == 0, "place 0 is {%d}, want {0}", id);
    CHECK(omp_get_proc_bind() != omp_proc_bind_false, "OMP_PLACES set: binding is on");
    int T = aff_region(-1, 0);
    aff_check_bound_to_places("default team", T, aff_recs);
    for (int i = 0; i < T; i++)
        CHECK(aff_recs[i].cpu == 0, "thread %d runs on CPU %d", i, aff_recs[i].cpu);
    return 0;
}
