// fib_tbb.cpp - the fib kernel's recursion on oneTBB (a tbb::task_group per call), the reference line ilan bench shows beside the OpenMP runtimes.
//
// The recursion is the one of bench/kernels/fib.c: every call with n >= 2
// runs both sub-calls as tasks of its own task_group and waits for them, no
// cut-off; so both programs create the same tasks and wait as often.  The
// options and the RESULT line are those of the kernels (kernel.h), with
// runtime=tbb, so that `ilan bench` reads it like any kernel's run:
//   RESULT kernel=fib variant=task runtime=tbb threads=T n=N reps=R num_tasks=0
//          time_s=S checksum=C expected=E verified=0|1 tbb_version=V
//
// Threads: OMP_NUM_THREADS (what ilan bench sets for every runtime), else
// the CPUs TBB sees.  The work runs in a task_arena of that many slots and a
// global_control lets TBB start that many threads even beyond the CPU count,
// as the OpenMP runtimes do with OMP_NUM_THREADS.
//
// Build:  g++ -O2 -std=c++17 bench/reference/fib_tbb.cpp -o fib_tbb -ltbb
// Usage:  OMP_NUM_THREADS=2 ./fib_tbb [--variant task] [--n N] [--reps R]
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

static void usage(FILE *f) { std::fprintf(f, "usage: fib_tbb [--variant task] [--n N (default 27)] [--reps R (default 3)]\n"); }

int main(int argc, char **argv)
{
    long n = 27;
    int reps = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (val && !std::strcmp(a, "--variant")) {
            if (std::strcmp(val, "task") != 0) {
                std::fprintf(stderr, "fib_tbb: variant '%s' not available (choose from task)\n", val);
                return 2;
            }
        } else if (val && !std::strcmp(a, "--n")) {
            n = std::atol(val);
        } else if (val && !std::strcmp(a, "--reps")) {
            reps = std::atoi(val);
        } else {
            std::fprintf(stderr, "fib_tbb: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (n < 1 || reps < 1) {
        std::fprintf(stderr, "fib_tbb: --n and --reps must be >= 1\n");
        return 2;
    }
    int threads = tbb::info::default_concurrency();
    if (const char *env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0)
        threads = std::atoi(env);
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, (size_t)threads);
    tbb::task_arena arena(threads);

    long result = 0;
    double seconds = 0;
    arena.execute([&] {
        fib(12); // starts the workers, so that their start-up is not timed (as kernel_time does)
        auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; r++)
            result = fib(n);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    long expected = fib_serial(n);
    int ok = result == expected;
    std::printf("RESULT kernel=fib variant=task runtime=tbb threads=%d n=%ld reps=%d num_tasks=0 "
                "time_s=%.6f checksum=%ld expected=%ld verified=%d tbb_version=%s\n",
                arena.max_concurrency(), n, reps, seconds, result, expected, ok, TBB_runtime_version());
    std::fflush(stdout);
    if (!ok) {
        std::fprintf(stderr, "fib_tbb: wrong result: %ld, serial %ld\n", result, expected);
        return 1;
    }
    return 0;
}
