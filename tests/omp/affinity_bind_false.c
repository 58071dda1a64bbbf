// affinity_bind_false.c - OMP_PROC_BIND=false: no thread is bound. Every
// thread's affinity is the whole set the process was started with, no thread
// has a place (omp_get_place_num() == -1), and proc_bind clauses are ignored.
// ilan-test: env=OMP_PROC_BIND=false
#include "affinity_common.h"

static void check_unbound(const char *what, int T)
{
    char a[256], b[256];
    for (int i = 0; i < T; i++) {
        CHECK(CPU_EQUAL(&aff_recs[i].mask, &aff_process_set), "%s: thread %d has the affinity "
              "{%s}, want the process's {%s}", what, i,
              aff_set_str(&aff_recs[i].mask, a, sizeof a),
              aff_set_str(&aff_process_set, b, sizeof b));
        CHECK(aff_recs[i].place == -1, "%s: thread %d has place %d, want -1", what, i,
              aff_recs[i].place);
    }
}

int main(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d, want false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_place_num() == -1, "initial thread on place %d", omp_get_place_num());
    int T = aff_region(-1, 0);
    check_unbound("default team", T);
    T = aff_region(AFF_CLOSE, 3);
    check_unbound("proc_bind(close) team of 3", T);
    T = aff_region(AFF_SPREAD, 2);
    check_unbound("proc_bind(spread) team of 2", T);
    CHECK(omp_get_place_num() == -1, "initial thread on place %d after regions",
          omp_get_place_num());
    return 0;
}
