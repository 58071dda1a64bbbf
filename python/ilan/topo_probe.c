/* topo_probe.c - the smallest OpenMP program: one parallel region, so that ilan starts, models the machine and writes its report at exit. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    return n > 0 ? 0 : 1;
}
