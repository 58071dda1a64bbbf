// affinity_whatif_threads.c - the 8-core, 4-node what-if machine with OMP_PLACES=threads and OMP_PROC_BIND=spread: 8 places, each thread's place, partition and node under primary, close and spread, flat and nested.
// Expected places, partitions and NUMA nodes are computed from the machine
// description and the OpenMP 5.1 rules (affinity_common.h), not from ilan.
// On another runtime (ILAN_TEST_ANY_RUNTIME=1) HWLOC_SYNTHETIC means nothing:
// only the spec's rules are checked, on the real places.
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:2%20core:2%20pu:1;OMP_PLACES=threads;OMP_PROC_BIND=spread
#include "affinity_common.h"

int main(void)
{
    aff_whatif_main("threads");
    return 0;
}
