/* mandelbrot.c - Mandelbrot set, one iteration per image row: rows cost very different amounts (imbalanced). */
#include "kernel.h"

#define MAXIT 512
static long n;     /* image is n x n */
static long *its;  /* iterations per row */

#define ROW(i)                                                           \
    {                                                                    \
        long sum = 0;                                                    \
        double ci = -1.25 + 2.5 * (double)i / (double)n;                 \
        for (long j = 0; j < n; j++) {                                   \
            double cr = -2.0 + 2.5 * (double)j / (double)n, zr = 0, zi = 0; \
            int k = 0;                                                   \
            while (k < MAXIT && zr * zr + zi * zi < 4.0) {               \
                double t = zr * zr - zi * zi + cr;                       \
                zi = 2.0 * zr * zi + ci;                                 \
                zr = t;                                                  \
                k++;                                                     \
            }                                                            \
            sum += k;                                                    \
        }                                                                \
        its[i] = sum;                                                    \
    }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        KLOOP(i, 0, n, ROW(i));
}

static double total(void)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += (double)its[i] * (double)(1 + i % 7);
    return s;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "mandelbrot", "taskloop,static,dynamic", 512, 4);
    n = kopt.n;
    its = calloc((size_t)n, sizeof(long));
    if (!its)
        return 2;
    double t = kernel_time(body);
    double got = total();
    for (long i = 0; i < n; i++)
        ROW(i);
    return kernel_result(t, got, total(), 0.0);
}
