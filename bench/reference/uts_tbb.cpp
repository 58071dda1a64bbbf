// uts_tbb.cpp - the uts kernel's tree on oneTBB (a tbb::task_group per node), the reference line ilan bench shows beside the OpenMP runtimes.
//
// The tree and its generator are bench/kernels/uts.c's (same --n, same
// tree, same node count): each node runs one task per child in a
// task_group of its own and waits for them, as the kernel's taskwait per
// node does. TBB's waits are not tied: a waiting thread may run any task,
// which OpenMP's tied tasks forbid. The options and the RESULT line are the
// kernels' (kernel.h), with runtime=tbb, so `ilan bench` reads it like any
// kernel's run.
//
// Threads: OMP_NUM_THREADS (what ilan bench sets for every runtime), else
// the CPUs TBB sees; a task_arena of that many slots, and a global_control
// that lets TBB start that many threads even beyond the CPU count.
//
// Build:  g++ -O2 -std=c++17 bench/reference/uts_tbb.cpp -o uts_tbb -ltbb
// Usage:  OMP_NUM_THREADS=2 ./uts_tbb [--variant task] [--n N] [--reps R]
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int root_children = 2000; // uts.c's ROOT_CHILDREN
constexpr int children = 8;         // uts.c's CHILDREN

uint64_t threshold; // a non-root node has children when its draw is below this

// uts.c's mixing function: the tree must be the kernel's, bit for bit.
uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t child_state(uint64_t state, int i) { return mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull); }

int children_of(uint64_t state) { return mix(state) < threshold ? children : 0; }

// Nodes of the subtree below a node: a task per child, then a wait.
long count(uint64_t state, int n)
{
    long small[children];
    std::vector<long> big;
    long *counts = small;
    if (n > children) {
        big.resize((size_t)n);
        counts = big.data();
    }
    tbb::task_group g;
    for (int i = 0; i < n; i++) {
        uint64_t child = child_state(state, i);
        g.run([counts, i, child] { counts[i] = count(child, children_of(child)); });
    }
    g.wait();
    long total = 1;
    for (int i = 0; i < n; i++)
        total += counts[i];
    return total;
}

long count_serial(uint64_t state, int n)
{
    long total = 1;
    for (int i = 0; i < n; i++) {
        uint64_t child = child_state(state, i);
        total += count_serial(child, children_of(child));
    }
    return total;
}

void usage(FILE *f) { std::fprintf(f, "usage: uts_tbb [--variant task] [--n N (default 1000000)] [--reps R (default 1)]\n"); }

} // namespace

int main(int argc, char **argv)
{
    long n = 1000000;
    int reps = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (val && !std::strcmp(a, "--variant")) {
            if (std::strcmp(val, "task") != 0) {
                std::fprintf(stderr, "uts_tbb: variant '%s' not available (choose from task)\n", val);
                return 2;
            }
        } else if (val && !std::strcmp(a, "--n")) {
            n = std::atol(val);
        } else if (val && !std::strcmp(a, "--reps")) {
            reps = std::atoi(val);
        } else {
            std::fprintf(stderr, "uts_tbb: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (n < 1 || reps < 1) {
        std::fprintf(stderr, "uts_tbb: --n and --reps must be >= 1\n");
        return 2;
    }
    // uts.c's tree parameters: n is the expected node count and the seed.
    double q = (1.0 - (double)root_children / (double)n) / children;
    threshold = q <= 0 ? 0 : (uint64_t)(q * 18446744073709551616.0);
    uint64_t root = mix((uint64_t)n);

    int threads = tbb::info::default_concurrency();
    if (const char *env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0)
        threads = std::atoi(env);
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, (size_t)threads);
    tbb::task_arena arena(threads);

    long result = 0;
    double seconds = 0;
    arena.execute([&] {
        count(mix(1), 64); // starts the workers, so that their start-up is not timed (as kernel_time does)
        auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; r++)
            result = count(root, root_children);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    long expected = count_serial(root, root_children);
    int ok = result == expected;
    std::printf("RESULT kernel=uts variant=task runtime=tbb threads=%d n=%ld reps=%d num_tasks=0 "
                "time_s=%.6f checksum=%ld expected=%ld verified=%d tbb_version=%s\n",
                arena.max_concurrency(), n, reps, seconds, result, expected, ok, TBB_runtime_version());
    std::fflush(stdout);
    if (!ok) {
        std::fprintf(stderr, "uts_tbb: wrong result: %ld, serial %ld\n", result, expected);
        return 1;
    }
    return 0;
}
