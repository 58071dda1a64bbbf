/* sweep.c - line sweeps (a recurrence along each line) over several arrays at once, one taskloop over lines per repetition: memory-bound (the thesis's SP case). */
#include "kernel.h"

#define NARR 4
static double *u[NARR], *rhs;
static long n; /* n lines of n points */

/* Forward recurrence along line i, each array fed by the right-hand side and the previous array. */
#define LINE(i)                                                                      \
    for (int q = 0; q < NARR; q++) {                                                 \
        double *x = u[q] + i * n;                                                    \
        const double *f = q ? u[q - 1] + i * n : rhs + i * n;                        \
        for (long j = 1; j < n; j++) x[j] = 0.5 * x[j] + 0.25 * x[j - 1] + 0.25 * f[j]; \
    }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, n, LINE(i));
}

static void init(void)
{
    for (int q = 0; q < NARR; q++)
        for (long k = 0; k < n * n; k++)
            u[q][k] = (double)((k + q) % 9) * 0.1;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "sweep", "taskloop,static,dynamic", 1024, 20);
    n = kopt.n < 2 ? 2 : kopt.n;
    for (int q = 0; q < NARR; q++)
        u[q] = kernel_alloc(n * n);
    rhs = kernel_alloc(n * n);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            for (int q = 0; q < NARR; q++)
                u[q][i * n + j] = 0.0;
            rhs[i * n + j] = (double)((i + 3 * j) % 7);
        }
    init();
    double t = kernel_time(body);
    double got = kernel_checksum(u[NARR - 1], n * n);
    init();
    for (int r = 0; r < kopt.reps; r++)
        for (long i = 0; i < n; i++) {
            LINE(i);
        }
    return kernel_result(t, got, kernel_checksum(u[NARR - 1], n * n), 1e-12);
}
