// affinity_bind_reserve.c - ILAN_RESERVE_CORES=1 leaves one core of the
// process's set without any thread: the default places lose it, the default
// team has one thread fewer than there are cores, and no thread of any team
// (primary included) is bound to it. On this 2-core machine: every thread on
// the other core. (ilan only: other runtimes ignore ILAN_RESERVE_CORES.)
// ilan-test: threads=default,2,5
// ilan-test: env=ILAN_RESERVE_CORES=1
#include "affinity_common.h"

int main(void)
{
    char a[256];
    int sizes[] = {0, 1, 2, 7};
    if (!ilan_test_on_ilan()) {
        aff_region(-1, 0);
        return 0;
    }
    CHECK(aff_process_ncpus >= 2, "needs 2 CPUs");
    int P = omp_get_num_places();
    cpu_set_t used;
    CPU_ZERO(&used);
    for (int p = 0; p < P; p++) {
        cpu_set_t s;
        aff_place_set(p, &s);
        CPU_OR(&used, &used, &s);
    }
    cpu_set_t reserved;
    CPU_XOR(&reserved, &aff_process_set, &used);
    CHECK(CPU_COUNT(&reserved) >= 1, "ILAN_RESERVE_CORES=1 but the places {%s} cover every CPU",
          aff_set_str(&used, a, sizeof a));
    if (getenv("OMP_NUM_THREADS") == NULL)
        CHECK(omp_get_max_threads() == P, "default team of %d, want %d (cores minus one)",
              omp_get_max_threads(), P);
    for (int s = 0; s < 4; s++) {
        int T = aff_region(-1, sizes[s]);
        for (int i = 0; i < T; i++) {
            cpu_set_t both;
            CPU_AND(&both, &aff_recs[i].mask, &reserved);
            CHECK(CPU_COUNT(&both) == 0, "team of %d: thread %d may run on {%s}, which holds a "
                  "reserved CPU", T, i, aff_set_str(&aff_recs[i].mask, a, sizeof a));
            CHECK(!CPU_ISSET(aff_recs[i].cpu, &reserved), "team of %d: thread %d runs on "
                  "reserved CPU %d", T, i, aff_recs[i].cpu);
        }
    }
    cpu_set_t mine;
    sched_getaffinity(0, sizeof mine, &mine);
    cpu_set_t both;
    CPU_AND(&both, &mine, &reserved);
    CHECK(CPU_COUNT(&both) == 0, "the initial thread may run on reserved CPUs: {%s}",
          aff_set_str(&mine, a, sizeof a));
    return 0;
}
