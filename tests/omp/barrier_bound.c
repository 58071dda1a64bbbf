// barrier_bound.c - the tree barrier grouped by locality: threads bound on a
// what-if machine (2 NUMA nodes x 4 cores x 2 hardware threads), placed close
// or spread, so that the tree's groups follow cores, caches and nodes rather
// than team numbers; barriers, a worksharing loop's and tasks at a barrier
// must behave as anywhere else (arrival counters checked every round).
// ilan-test: threads=3,16,64 tsan env=HWLOC_SYNTHETIC=numa:2%20core:4%20pu:2;OMP_PROC_BIND=close;OMP_PLACES=threads
// ilan-test: vary=OMP_PROC_BIND=close,spread vary=ILAN_BARRIER=tree,central
#include "check.h"

#define ROUNDS 3000

int main(void)
{
    long arrived = 0, bad = 0, tasks = 0;
    int team = 0;
#pragma omp parallel reduction(+ : bad)
    {
        long n = omp_get_num_threads();
#pragma omp single
        team = (int)n;
        for (long r = 0; r < ROUNDS; r++) {
            __atomic_add_fetch(&arrived, 1, __ATOMIC_RELAXED);
            if (r % 100 == 7) {
#pragma omp task
                __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
            }
            if (r % 3) {
#pragma omp barrier
            } else {
#pragma omp for schedule(static) nowait
                for (long i = 0; i < n; i++)
                    __asm__ volatile("" ::: "memory");
#pragma omp barrier
            }
            long seen = __atomic_load_n(&arrived, __ATOMIC_RELAXED);
            bad += seen < (r + 1) * n || seen > (r + 2) * n;
            /* the tasks made before this barrier are complete (those of the
             * next round may have begun) */
            long done = __atomic_load_n(&tasks, __ATOMIC_RELAXED);
            bad += done < n * ((r + 93) / 100) || done > n * ((r + 94) / 100);
        }
    }
    CHECK(team == omp_get_max_threads(), "team of %d", team);
    CHECK(bad == 0, "%ld bad passages (%d threads)", bad, team);
    return 0;
}
