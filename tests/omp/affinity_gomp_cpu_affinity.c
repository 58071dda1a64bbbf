// affinity_gomp_cpu_affinity.c - GOMP_CPU_AFFINITY="1 0" (libgomp's binding
// list) binds as libgomp does: proc-bind true, one place per CPU in the
// order given, thread i bound to the i-th CPU of the list.
// ilan-test: threads=2
// ilan-test: env=GOMP_CPU_AFFINITY=1%200
#include "affinity_common.h"

int main(void)
{
    char a[256];
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc-bind %d, want true",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == 2, "%d places, want 2", omp_get_num_places());
    const int want_cpu[2] = {1, 0};
    for (int p = 0; p < 2; p++) {
        cpu_set_t s;
        aff_place_set(p, &s);
        CHECK(CPU_COUNT(&s) == 1 && CPU_ISSET(want_cpu[p], &s), "place %d is {%s}, want {%d}", p,
              aff_set_str(&s, a, sizeof a), want_cpu[p]);
    }
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    for (int i = 0; i < T; i++) {
        CHECK(aff_recs[i].place == i, "thread %d on place %d", i, aff_recs[i].place);
        CHECK(CPU_COUNT(&aff_recs[i].mask) == 1 && CPU_ISSET(want_cpu[i], &aff_recs[i].mask),
              "thread %d may run on {%s}, want {%d}", i, aff_set_str(&aff_recs[i].mask, a, sizeof a),
              want_cpu[i]);
    }
    return 0;
}
