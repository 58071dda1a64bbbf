/* fib.c - fine-grained tasks: fib(n) with a task per call and no cutoff, repeated. */
#include "kernel.h"

static long result;

static long fib(long n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

static long fib_serial(long n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        result = fib(kopt.n);
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "fib", "task", 27, 3);
    double t = kernel_time(body);
    return kernel_result(t, (double)result, (double)fib_serial(kopt.n), 0.0);
}
