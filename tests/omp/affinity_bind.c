// affinity_bind.c - real binding with OMP_PLACES=threads OMP_PROC_BIND=close:
// every thread's sched_getaffinity is exactly its place's CPUs
// (omp_get_place_proc_ids), it runs on one of them, places follow the spec's
// close rule, and a second region of the same size puts every thread number
// on the same CPU again.
// ilan-test: env=OMP_PLACES=threads;OMP_PROC_BIND=close
#include "affinity_common.h"

int main(void)
{
    aff_bind_main(AFF_CLOSE);
    return 0;
}
