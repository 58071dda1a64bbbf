// affinity_env_bind_bad.c - an invalid OMP_PROC_BIND gets the one-line warning
// and the program runs with the default: on ilan bound (true), compactly.
// ilan-test: threads=2
// ilan-test: env=OMP_PROC_BIND=sideways
// ilan-test: expect-output: ^(ilan|libgomp): Invalid value for environment variable OMP_PROC_BIND
#include "affinity_common.h"

int main(void)
{
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    if (!ilan_test_on_ilan()) {
        CHECK(omp_get_proc_bind() == omp_proc_bind_false, "libgomp's default is false");
        return 0;
    }
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc-bind %d, want the default (true)",
          (int)omp_get_proc_bind());
    aff_check_bound_to_places("default team", T, aff_recs);
    for (int i = 0; i < T; i++)
        CHECK(aff_recs[i].place == i, "thread %d on place %d", i, aff_recs[i].place);
    return 0;
}
