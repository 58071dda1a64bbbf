// mem_env_bad.c - OMP_ALLOCATOR with a partition value that does not exist:
// one line naming the variable, and the default allocator (nothing placed).
// ilan-test: threads=1 env=OMP_ALLOCATOR=omp_default_mem_space:partition=bogus
// ilan-test: expect-output: Invalid value for environment variable OMP_ALLOCATOR: 'omp_default_mem_space:partition=bogus'. using the default
#include "check.h"

int main(void)
{
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc, "default allocator %lu",
          (unsigned long)omp_get_default_allocator());
    void *p = omp_alloc(100, omp_null_allocator);
    CHECK(p != NULL, "omp_alloc");
    omp_free(p, omp_null_allocator);
    return 0;
}
