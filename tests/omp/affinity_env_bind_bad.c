// affinity_env_bind_bad.c - an invalid OMP_PROC_BIND gets the one-line warning
// and the program runs with the default, as on libgomp: nothing bound, no
// places, every thread on the process's whole CPU set.
// ilan-test: threads=2
// ilan-test: env=OMP_PROC_BIND=sideways
// ilan-test: expect-output: ^(ilan|libgomp): Invalid value for environment variable OMP_PROC_BIND
#include "affinity_common.h"

int main(void)
{
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d, want the default (false)",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == 0, "%d places, want none", omp_get_num_places());
    aff_check_unbound("default team", T, aff_recs);
    return 0;
}
