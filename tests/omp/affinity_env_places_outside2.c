// affinity_env_places_outside2.c - OMP_PLACES={0},{1000}: the place {1000}
// names a CPU no machine here has; ilan drops it with a warning and binds
// every thread to CPU 0. (GNU libgomp rejects the whole list as invalid, so
// on libgomp only its warning is checked.)
// ilan-test: threads=1,3
// ilan-test: env=OMP_PLACES={0},{1000}
// ilan-test: expect-output: ^(ilan: OMP_PLACES: .*outside this process's set.*dropped.*|libgomp: Invalid value for environment variable OMP_PLACES)$
#include "affinity_common.h"

int main(void)
{
    if (!ilan_test_on_ilan())
        return 0;
    CHECK(omp_get_num_places() == 1, "%d places, want 1", omp_get_num_places());
    int id = -1;
    CHECK(omp_get_place_num_procs(0) == 1, "place 0 has %d procs", omp_get_place_num_procs(0));
    omp_get_place_proc_ids(0, &id);
    CHECK(id == 0, "place 0 is {%d}, want {0}", id);
    int T = aff_region(-1, 0);
    aff_check_bound_to_places("default team", T, aff_recs);
    for (int i = 0; i < T; i++)
        CHECK(aff_recs[i].cpu == 0, "thread %d runs on CPU %d", i, aff_recs[i].cpu);
    return 0;
}
