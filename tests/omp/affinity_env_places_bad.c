// affinity_env_places_bad.c - an invalid OMP_PLACES gets the one-line warning
// and the program runs with the default: on ilan the cores, bound compactly.
// ilan-test: threads=2
// ilan-test: env=OMP_PLACES=garbage
// ilan-test: expect-output: ^(ilan: Invalid value for environment variable OMP_PLACES: 'garbage'.*|libgomp: Invalid value for environment variable OMP_PLACES)$
#include "affinity_common.h"

int main(void)
{
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    if (!ilan_test_on_ilan())
        return 0;
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc-bind %d, want the default (true)",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == aff_process_ncpus, "%d places, want the %d cores",
          omp_get_num_places(), aff_process_ncpus); /* 1 PU per core on these machines */
    aff_check_bound_to_places("default team", T, aff_recs);
    for (int i = 0; i < T; i++)
        CHECK(aff_recs[i].place == i, "thread %d on place %d", i, aff_recs[i].place);
    return 0;
}
