/* spmv.c - repeated sparse matrix-vector products with irregular rows, in short taskloops (the thesis's CG case). */
#include "kernel.h"

static long n, *rowptr, *col;
static double *val, *v[2];

#define SPMV_ROW(x, y, i)                                                  \
    {                                                                      \
        double s = 0.0;                                                    \
        for (long k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]]; \
        y[i] = s;                                                          \
    }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++) {
        const double *x = v[r % 2];
        double *y = v[1 - r % 2];
        KLOOP(i, 0, n, SPMV_ROW(x, y, i));
    }
}

static void init_vector(void)
{
    for (long i = 0; i < n; i++)
        v[0][i] = v[1][i] = 1.0 + (double)(i % 10) * 0.1;
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "spmv", "taskloop,static,dynamic", 20000, 200);
    n = kopt.n;
    /* row lengths 4..35, and every 16th row 8x longer: irregular work */
    rowptr = malloc(sizeof(long) * (size_t)(n + 1));
    rowptr[0] = 0;
    for (long i = 0; i < n; i++)
        rowptr[i + 1] = rowptr[i] + (4 + (i * 2654435761L >> 7) % 32) * (i % 16 ? 1 : 8);
    long nnz = rowptr[n];
    col = malloc(sizeof(long) * (size_t)nnz);
    val = kernel_alloc(nnz);
    if (!rowptr || !col) {
        fprintf(stderr, "spmv: out of memory; lower --n\n");
        return 2;
    }
    for (long i = 0; i < n; i++) {
        long len = rowptr[i + 1] - rowptr[i];
        for (long k = rowptr[i]; k < rowptr[i + 1]; k++) {
            col[k] = (i * 7 + (k - rowptr[i]) * 131) % n;
            val[k] = 0.99 / (double)len; /* row sums < 1: values stay bounded */
        }
    }
    v[0] = kernel_alloc(n), v[1] = kernel_alloc(n);
    init_vector();
    double t = kernel_time(body);
    double got = kernel_checksum(v[kopt.reps % 2], n);
    init_vector();
    for (int r = 0; r < kopt.reps; r++) {
        const double *x = v[r % 2];
        double *y = v[1 - r % 2];
        for (long i = 0; i < n; i++)
            SPMV_ROW(x, y, i);
    }
    return kernel_result(t, got, kernel_checksum(v[kopt.reps % 2], n), 1e-12);
}
