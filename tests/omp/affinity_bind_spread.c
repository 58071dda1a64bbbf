// affinity_bind_spread.c - real binding with OMP_PLACES=threads
// OMP_PROC_BIND=spread: as affinity_bind.c, under the spread rule (and each
// thread's partition).
// ilan-test: env=OMP_PLACES=threads;OMP_PROC_BIND=spread
#include "affinity_common.h"

int main(void)
{
    aff_bind_main(AFF_SPREAD);
    return 0;
}
