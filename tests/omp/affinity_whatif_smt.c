// affinity_whatif_smt.c - a what-if machine with 2 hardware threads per core (pack:2 numa:2 core:2 pu:2) and OMP_PLACES=cores: 8 places of 2 CPUs, not 16.
// Expected places, partitions and NUMA nodes are computed from the machine
// description and the OpenMP 5.1 rules (affinity_common.h), not from ilan.
// On another runtime (ILAN_TEST_ANY_RUNTIME=1) HWLOC_SYNTHETIC means nothing:
// only the spec's rules are checked, on the real places.
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:2%20core:2%20pu:2;OMP_PLACES=cores;OMP_PROC_BIND=close
#include "affinity_common.h"

int main(void)
{
    aff_whatif_main("cores");
    return 0;
}
