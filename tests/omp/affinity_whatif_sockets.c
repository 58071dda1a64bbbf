// affinity_whatif_sockets.c - the 64-core, 8-node what-if machine with OMP_PLACES=sockets and OMP_PROC_BIND=primary: 2 places of 32 CPUs (a place spans 4 nodes: a thread reports the node of its place's first CPU).
// Expected places, partitions and NUMA nodes are computed from the machine
// description and the OpenMP 5.1 rules (affinity_common.h), not from ilan.
// On another runtime (ILAN_TEST_ANY_RUNTIME=1) HWLOC_SYNTHETIC means nothing:
// only the spec's rules are checked, on the real places.
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_PLACES=sockets;OMP_PROC_BIND=primary
#include "affinity_common.h"

int main(void)
{
    aff_whatif_main("sockets");
    return 0;
}
