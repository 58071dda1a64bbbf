// affinity_whatif_bad_synthetic.c - a what-if topology hwloc cannot load
// (HWLOC_SYNTHETIC=garbage) gets one line saying the real machine is used,
// and the program runs on the real machine: a team of the default size.
// ilan-test: threads=2
// ilan-test: env=HWLOC_SYNTHETIC=garbage
// ilan-test: expect-output: ^ilan: HWLOC_SYNTHETIC='garbage' could not be loaded as a what-if topology. using the real machine$
#include "affinity_common.h"

int main(void)
{
    int T = aff_region(-1, 0);
    CHECK(T == 2, "team of %d", T);
    CHECK(aff_ilan_num_numa_nodes() >= 1, "no NUMA node");
    return 0;
}
