// nested_env_nested.c - OMP_NESTED=true (deprecated) enables nesting when
// OMP_MAX_ACTIVE_LEVELS is unset; OMP_NUM_THREADS list gives per-level sizes.
// ilan-test: threads=1
// ilan-test: env=OMP_NESTED=true;OMP_NUM_THREADS=2,3
#include "check.h"

int main(void)
{
    CHECK(omp_get_nested() == 1, "OMP_NESTED=true: get_nested %d", omp_get_nested());
    CHECK(omp_get_max_active_levels() > 1, "OMP_NESTED=true: mal %d",
          omp_get_max_active_levels());
    int count = 0;
#pragma omp parallel
    {
        CHECK(omp_get_num_threads() == 2, "outer %d", omp_get_num_threads());
#pragma omp parallel
        {
            CHECK(omp_get_num_threads() == 3, "inner %d", omp_get_num_threads());
#pragma omp atomic
            count++;
        }
    }
    CHECK(count == 6, "count %d", count);
    return 0;
}
