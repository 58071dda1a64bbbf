/* stream.c - STREAM triad a = b + s*c over large arrays, repeated (memory-bound). */
#include "kernel.h"

static double *a, *b, *c;
static const double s = 3.0;

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, kopt.n, a[i] = b[i] + s * c[i];);
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "stream", "taskloop,static,dynamic", 4L << 20, 20);
    long n = kopt.n;
    a = kernel_alloc(n), b = kernel_alloc(n), c = kernel_alloc(n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = 0.0;
        b[i] = (double)(i % 100) * 0.5;
        c[i] = (double)(i % 37);
    }
    double t = kernel_time(body);
    double got = kernel_checksum(a, n);
    for (long i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
    return kernel_result(t, got, kernel_checksum(a, n), 1e-12);
}
