// uts_tbb.cpp - the uts kernel's tree on oneTBB (a tbb::task_group per node), the reference line ilan bench shows beside the OpenMP runtimes.
//
// The tree and its generator are bench/kernels/uts.c's (same --n, same
// tree, same node count): each node runs one task per child in a
// task_group of its own and waits for them, as the kernel's taskwait per
// node does. TBB's waits are not tied: a waiting thread may run any task,
// which OpenMP's tied tasks forbid. Its options, threads and RESULT line
// (runtime=tbb) are tbb_reference.h's.
//
// Build:  g++ -O2 -std=c++17 bench/reference/uts_tbb.cpp -o uts_tbb -ltbb
// Usage:  OMP_NUM_THREADS=2 ./uts_tbb [--variant task] [--n N] [--reps R]
#include <oneapi/tbb/task_group.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "tbb_reference.h"

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

} // namespace

int main(int argc, char **argv)
{
    reference_run r = {"uts", 1000000, 1};
    if (int status = reference_parse(argc, argv, &r); status >= 0)
        return status;
    // uts.c's tree parameters: n is the expected node count and the seed.
    double q = (1.0 - (double)root_children / (double)r.n) / children;
    threshold = q <= 0 ? 0 : (uint64_t)(q * 18446744073709551616.0);
    uint64_t root = mix((uint64_t)r.n);
    // A small star starts the workers; the serial count checks the result.
    return reference_time(r, [] { count(mix(1), 64); }, [&] { return count(root, root_children); },
                          count_serial(root, root_children));
}
