// env_display.c - OMP_DISPLAY_ENV=true prints the environment block at
// start-up, and the block names ilan and its version.
// ilan-test: threads=1
// ilan-test: env=OMP_DISPLAY_ENV=true
// ilan-test: expect-output: ILAN_VERSION = '[0-9]+\.[0-9]+\.[0-9]+'
#include "check.h"

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    CHECK(n == omp_get_max_threads(), "a team of %d", n);
    return 0;
}
