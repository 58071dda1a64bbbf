// affinity_gomp_cpu_affinity_off.c - OMP_PROC_BIND=false turns binding off
// even when GOMP_CPU_AFFINITY names CPUs (as in libgomp): no places, every
// thread on the process's whole set.
// ilan-test: threads=2
// ilan-test: env=OMP_PROC_BIND=false;GOMP_CPU_AFFINITY=1%200
#include "affinity_common.h"

int main(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d, want false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == 0, "%d places, want none", omp_get_num_places());
    int T = aff_region(-1, 0);
    aff_check_unbound("team", T, aff_recs);
    return 0;
}
