// affinity_bind_false.c - OMP_PROC_BIND=false: no thread is bound. Every
// thread's affinity is the whole set the process was started with, no thread
// has a place (omp_get_place_num() == -1), and proc_bind clauses are ignored.
// ilan-test: env=OMP_PROC_BIND=false
#include "affinity_common.h"

int main(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d, want false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_place_num() == -1, "initial thread on place %d", omp_get_place_num());
    int T = aff_region(-1, 0);
    aff_check_unbound("default team", T, aff_recs);
    T = aff_region(AFF_CLOSE, 3);
    aff_check_unbound("proc_bind(close) team of 3", T, aff_recs);
    T = aff_region(AFF_SPREAD, 2);
    aff_check_unbound("proc_bind(spread) team of 2", T, aff_recs);
    CHECK(omp_get_place_num() == -1, "initial thread on place %d after regions",
          omp_get_place_num());
    return 0;
}
