// affinity_whatif_explicit.c - an explicit place list on the 64-core, 8-node
// what-if machine: OMP_PLACES={0:8}:8:8 is 8 places, place k = CPUs 8k..8k+7,
// which is NUMA node k; then each thread's place, partition and node under
// primary, close and spread (the list's CPU numbers are the model's).
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PLACES={0:8}:8:8;OMP_PROC_BIND=spread
#include "affinity_common.h"

int main(void)
{
    if (ilan_test_on_ilan()) {
        CHECK(omp_get_num_places() == 8, "{0:8}:8:8 gives %d places, want 8",
              omp_get_num_places());
        for (int p = 0; p < 8; p++) {
            int ids[8];
            CHECK(omp_get_place_num_procs(p) == 8, "place %d has %d procs, want 8", p,
                  omp_get_place_num_procs(p));
            omp_get_place_proc_ids(p, ids);
            for (int i = 0; i < 8; i++)
                CHECK(ids[i] == 8 * p + i, "place %d proc %d is %d, want %d", p, i, ids[i],
                      8 * p + i);
        }
    }
    aff_whatif_main(NULL);
    return 0;
}
