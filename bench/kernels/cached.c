/* cached.c - a light update of an array that fits in the cores' caches (512 KiB), repeated thousands of times (locality across taskloops). */
#include "kernel.h"

static double *a;

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, kopt.n, a[i] = a[i] * 0.999 + 0.001 * (double)(i & 15););
}

int main(int argc, char **argv)
{
    /* 64 Ki doubles = 2 x 256 KiB: each of 2 cores' share fits in its L2 */
    kernel_args(argc, argv, "cached", "taskloop,static,dynamic", 64L << 10, 4000);
    long n = kopt.n;
    a = kernel_alloc(n);
    double *ref = kernel_alloc(n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        a[i] = (double)(i % 1000);
    for (long i = 0; i < n; i++)
        ref[i] = (double)(i % 1000);
    double t = kernel_time(body);
    for (int r = 0; r < kopt.reps; r++)
        for (long i = 0; i < n; i++)
            ref[i] = ref[i] * 0.999 + 0.001 * (double)(i & 15);
    return kernel_result(t, kernel_checksum(a, n), kernel_checksum(ref, n), 1e-12);
}
