// affinity_whatif_count.c - an abstract name with a count: OMP_PLACES=numa_domains(2)
// on the 64-core, 8-node what-if machine is the first 2 nodes, 2 places of 8
// CPUs; each thread's place, partition and node under the three policies.
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PLACES=numa_domains(2);OMP_PROC_BIND=close
#include "affinity_common.h"

int main(void)
{
    aff_whatif_main("numa_domains(2)");
    return 0;
}
