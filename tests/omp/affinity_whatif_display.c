// affinity_whatif_display.c - under a what-if topology ilan says so, once, on
// stderr when OMP_DISPLAY_ENV is set (ilan only: other runtimes ignore
// HWLOC_SYNTHETIC, so this test is meaningful on ilan alone).
// ilan-test: threads=2
// ilan-test: env=HWLOC_SYNTHETIC=pack:2%20numa:4%20core:8%20pu:1;OMP_DISPLAY_ENV=true
// ilan-test: expect-output: ^ilan: what-if topology \(HWLOC_SYNTHETIC=pack:2 numa:4 core:8 pu:1\): 64 PUs in 8 NUMA nodes mapped round-robin onto [0-9]+ real CPUs?$
#include "affinity_common.h"

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    CHECK(n == 2, "team of %d", n);
    return 0;
}
