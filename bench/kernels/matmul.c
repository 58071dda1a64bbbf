/* matmul.c - dense C = A*B, one taskloop over C's rows per repetition (compute-bound; the thesis's Matmul). */
#include "kernel.h"

static double *A, *B, *C;
static long n;

#define ROW(i)                                                 \
    for (long j = 0; j < n; j++) C[i * n + j] = 0.0;           \
    for (long k = 0; k < n; k++) {                             \
        double aik = A[i * n + k];                             \
        for (long j = 0; j < n; j++) C[i * n + j] += aik * B[k * n + j]; \
    }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, n, ROW(i));
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "matmul", "taskloop,static,dynamic", 512, 4);
    n = kopt.n;
    A = kernel_alloc(n * n), B = kernel_alloc(n * n), C = kernel_alloc(n * n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            A[i * n + j] = (double)((i + 2 * j) % 17) * 0.125;
            B[i * n + j] = (double)((3 * i + j) % 11) * 0.25;
            C[i * n + j] = 0.0;
        }
    double t = kernel_time(body);
    double got = kernel_checksum(C, n * n);
    for (long i = 0; i < n; i++) {
        ROW(i);
    }
    return kernel_result(t, got, kernel_checksum(C, n * n), 1e-12);
}
