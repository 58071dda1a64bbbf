// tbb_reference.h - what the oneTBB reference programs share: the kernels' options, a TBB team of OMP_NUM_THREADS threads, and the kernels' RESULT line.
#ifndef ILAN_BENCH_TBB_REFERENCE_H
#define ILAN_BENCH_TBB_REFERENCE_H

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/version.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// A reference program's run: its kernel's options (kernel.h's subset).
struct reference_run {
    const char *kernel; // the kernel it stands beside: its name in usage and RESULT
    long n;             // --n
    int reps;           // --reps
};

// Reads --variant task, --n and --reps into *r (its n and reps hold the
// defaults). Returns -1 to go on, else the exit status (--help: 0; a bad
// option: 2, with a message).
inline int reference_parse(int argc, char **argv, reference_run *r)
{
    auto usage = [r](FILE *f) {
        std::fprintf(f, "usage: %s_tbb [--variant task] [--n N (default %ld)] [--reps R (default %d)]\n",
                     r->kernel, r->n, r->reps);
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (val && !std::strcmp(a, "--variant")) {
            if (std::strcmp(val, "task") != 0) {
                std::fprintf(stderr, "%s_tbb: variant '%s' not available (choose from task)\n", r->kernel, val);
                return 2;
            }
        } else if (val && !std::strcmp(a, "--n")) {
            r->n = std::atol(val);
        } else if (val && !std::strcmp(a, "--reps")) {
            r->reps = std::atoi(val);
        } else {
            std::fprintf(stderr, "%s_tbb: unknown or incomplete option '%s'\n", r->kernel, a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (r->n < 1 || r->reps < 1) {
        std::fprintf(stderr, "%s_tbb: --n and --reps must be >= 1\n", r->kernel);
        return 2;
    }
    return -1;
}

// Runs warm() once, then body() r.reps times, timed, in a TBB team of
// OMP_NUM_THREADS threads (what ilan bench sets for every runtime; else the
// CPUs TBB sees): a task_arena of that many slots, and a global_control
// that lets TBB start that many threads even beyond the CPU count, as the
// OpenMP runtimes do. warm() starts the workers, so that their start-up is
// not timed (as kernel_time does). Prints the kernels' RESULT line with
// runtime=tbb and returns the exit status: 1 when body's last result is
// not `expected`.
template <class Warm, class Body>
int reference_time(const reference_run &r, Warm warm, Body body, long expected)
{
    int threads = tbb::info::default_concurrency();
    if (const char *env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0)
        threads = std::atoi(env);
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, (size_t)threads);
    tbb::task_arena arena(threads);
    long result = 0;
    double seconds = 0;
    arena.execute([&] {
        warm();
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < r.reps; i++)
            result = body();
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    int ok = result == expected;
    std::printf("RESULT kernel=%s variant=task runtime=tbb threads=%d n=%ld reps=%d num_tasks=0 "
                "time_s=%.6f checksum=%ld expected=%ld verified=%d tbb_version=%s\n",
                r.kernel, arena.max_concurrency(), r.n, r.reps, seconds, result, expected, ok,
                TBB_runtime_version());
    std::fflush(stdout);
    if (!ok) {
        std::fprintf(stderr, "%s_tbb: wrong result: %ld, serial %ld\n", r.kernel, result, expected);
        return 1;
    }
    return 0;
}

#endif
