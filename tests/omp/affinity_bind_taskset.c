// affinity_bind_taskset.c - under `taskset -c 1` with OMP_PROC_BIND=true,
// every thread of every team (any size) is allowed CPU 1 only and runs there;
// ilan's default places are then the one core holding CPU 1.
// ilan-test: threads=default,1,2,8
// ilan-test: env=OMP_PROC_BIND=true
// ilan-test: prefix: taskset -c 1
#include "affinity_common.h"

int main(void)
{
    char a[256];
    CHECK(aff_process_ncpus == 1 && aff_process_cpus[0] == 1, "not started under taskset -c 1");
    int sizes[] = {0, 1, 2, 5, 16};
    for (int s = 0; s < 5; s++) {
        int T = aff_region(-1, sizes[s]);
        for (int i = 0; i < T; i++) {
            CHECK(CPU_COUNT(&aff_recs[i].mask) == 1 && CPU_ISSET(1, &aff_recs[i].mask),
                  "team of %d: thread %d may run on {%s}, want {1}", T, i,
                  aff_set_str(&aff_recs[i].mask, a, sizeof a));
            CHECK(aff_recs[i].cpu == 1, "team of %d: thread %d runs on CPU %d", T, i,
                  aff_recs[i].cpu);
        }
        if (ilan_test_on_ilan()) {
            CHECK(omp_get_num_places() == 1, "%d places under taskset -c 1, want 1",
                  omp_get_num_places());
            cpu_set_t p0;
            aff_place_set(0, &p0);
            CHECK(CPU_COUNT(&p0) == 1 && CPU_ISSET(1, &p0), "place 0 is {%s}, want {1}",
                  aff_set_str(&p0, a, sizeof a));
            for (int i = 0; i < T; i++)
                CHECK(aff_recs[i].place == 0, "thread %d on place %d", i, aff_recs[i].place);
        }
    }
    return 0;
}
