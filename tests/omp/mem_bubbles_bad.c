// mem_bubbles_bad.c - a bad ILAN_BUBBLES value: one line naming the
// variable and the default, and the program runs on without bubbles.
// ilan-test: threads=2 env=ILAN_BUBBLES=numa
// ilan-test: expect-output: ^ilan: Invalid value for environment variable ILAN_BUBBLES: 'numa' \(cache or memory. default: unset, no bubbles\). using the default$
#include <omp.h>
#include "check.h"

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += 1;
    CHECK(n == omp_get_max_threads(), "%d threads ran", n);
    return 0;
}
