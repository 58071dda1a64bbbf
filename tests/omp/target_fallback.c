/* target_fallback.c — a target region's host fallback is a new initial task: it starts with the initial ICVs whatever the encountering task changed, its changes do not leak out, it is at level 0 even inside nested regions, and its parallel regions get their threads from a contention group of their own (OMP_THREAD_LIMIT counts the threads outside separately). */
// ilan-test: threads=1,2,3
// ilan-test: env=OMP_THREAD_LIMIT=4;OMP_MAX_ACTIVE_LEVELS=4
#include "check.h"

int main(void)
{
    int initial_max = omp_get_max_threads(), initial_dyn = omp_get_dynamic();
    omp_set_num_threads(3);
    omp_set_dynamic(!initial_dyn);
    omp_set_schedule(omp_sched_static, 5);
    int in_max = -1, in_dyn = -1, in_chunk = -1;
    omp_sched_t in_kind = omp_sched_auto;
    #pragma omp target if(0) map(from : in_max, in_dyn, in_kind, in_chunk)
    {
        in_max = omp_get_max_threads();
        in_dyn = omp_get_dynamic();
        omp_get_schedule(&in_kind, &in_chunk);
        omp_set_num_threads(2);
        omp_set_schedule(omp_sched_guided, 9);
    }
    CHECK(in_max == initial_max && in_dyn == initial_dyn, "inside: max %d dyn %d, want %d %d",
          in_max, in_dyn, initial_max, initial_dyn);
    CHECK(in_kind == omp_sched_dynamic && in_chunk == 1, "inside: schedule %d,%d",
          (int)in_kind, in_chunk);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK(omp_get_max_threads() == 3 && kind == omp_sched_static && chunk == 5,
          "the region's changes leaked: max %d schedule %d,%d", omp_get_max_threads(), (int)kind,
          chunk);

    /* Inside 2 x 2 nested threads (4 of the limit of 4 busy), a fallback's
     * parallel region still gets its 2 threads, at level 1. */
    omp_set_dynamic(0);
    int bad = 0;
    #pragma omp parallel num_threads(2) reduction(+ : bad)
    #pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        int team = 0, level = -1, outer_level = -1;
        #pragma omp target if(0) map(from : team, level, outer_level)
        {
            outer_level = omp_get_level();
            #pragma omp parallel num_threads(2)
            #pragma omp single
            {
                team = omp_get_num_threads();
                level = omp_get_level();
            }
        }
        bad += outer_level != 0 || level != 1 || team != 2;
    }
    CHECK(bad == 0, "%d fallback regions had the wrong level or team size", bad);
    return 0;
}
