// fib_tbb.cpp - the fib kernel's recursion on oneTBB (a tbb::task_group per call), the reference line ilan bench shows beside the OpenMP runtimes.
//
// The recursion is the one of bench/kernels/fib.c: every call with n >= 2
// runs both sub-calls as tasks of its own task_group and waits for them, no
// cut-off; so both programs create the same tasks and wait as often. Its
// options, threads and RESULT line (runtime=tbb, so that `ilan bench` reads
// it like any kernel's run) are tbb_reference.h's.
//
// Build:  g++ -O2 -std=c++17 bench/reference/fib_tbb.cpp -o fib_tbb -ltbb
// Usage:  OMP_NUM_THREADS=2 ./fib_tbb [--variant task] [--n N] [--reps R]
#include <oneapi/tbb/task_group.h>

#include "tbb_reference.h"

static long fib(long n)
{
    if (n < 2)
        return n;
    long a = 0, b = 0;
    tbb::task_group g;
    g.run([&] { a = fib(n - 1); });
    g.run([&] { b = fib(n - 2); });
    g.wait();
    return a + b;
}

static long fib_serial(long n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

int main(int argc, char **argv)
{
    reference_run r = {"fib", 27, 3};
    if (int status = reference_parse(argc, argv, &r); status >= 0)
        return status;
    // fib(12) starts the workers; the serial count checks the result.
    return reference_time(r, [] { fib(12); }, [&] { return fib(r.n); }, fib_serial(r.n));
}
