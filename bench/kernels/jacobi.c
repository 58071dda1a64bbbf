/* jacobi.c - 2-D Jacobi 5-point stencil swept repeatedly over the same two grids (locality between taskloops). */
#include "kernel.h"

static double *g[2];
static long n; /* grid is n x n, boundary fixed */

/* One sweep from `in` to `out` over rows [1, n-1). */
#define SWEEP_ROW(in, out, i)                                                              \
    for (long j = 1; j < n - 1; j++)                                                       \
        out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] + \
                                 in[i * n + j + 1]);

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        const double *in = g[r % 2];
        double *out = g[1 - r % 2];
        KLOOP(i, 1, n - 1, SWEEP_ROW(in, out, i));
    }
}

static void init(double *x, double *y)
{
    for (long k = 0; k < n * n; k++)
        x[k] = y[k] = (k / n == 0 || k % n == 0) ? 1.0 : (double)(k % 13) * 0.01;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "jacobi", "taskloop,static,dynamic", 1024, 100);
    n = kopt.n < 3 ? 3 : kopt.n;
    g[0] = kernel_alloc(n * n), g[1] = kernel_alloc(n * n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            g[0][i * n + j] = g[1][i * n + j] = 0.0;
    init(g[0], g[1]);
    double t = kernel_time(body);
    double got = kernel_checksum(g[kopt.reps % 2], n * n);
    init(g[0], g[1]);
    for (int r = 0; r < kopt.reps; r++) {
        const double *in = g[r % 2];
        double *out = g[1 - r % 2];
        for (long i = 1; i < n - 1; i++)
            SWEEP_ROW(in, out, i);
    }
    return kernel_result(t, got, kernel_checksum(g[kopt.reps % 2], n * n), 1e-12);
}
