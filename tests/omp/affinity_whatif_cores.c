// affinity_whatif_cores.c - the 64-core, 8-node what-if machine with OMP_PLACES=cores and OMP_PROC_BIND=close: 64 places of one CPU, each thread's place, partition and node under primary, close and spread, flat and nested.
// Expected places, partitions and NUMA nodes are computed from the machine
// description and the OpenMP 5.1 rules (affinity_common.h), not from ilan.
// On another runtime (ILAN_TEST_ANY_RUNTIME=1) HWLOC_SYNTHETIC means nothing:
// only the spec's rules are checked, on the real places.
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PLACES=cores;OMP_PROC_BIND=close
#include "affinity_common.h"

int main(void)
{
    aff_whatif_main("cores");
    return 0;
}
