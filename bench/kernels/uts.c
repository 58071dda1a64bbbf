/* uts.c - an unbalanced tree search in the style of BOTS UTS (binomial): a task per child, a taskwait per node, counting the nodes of a random tree. */
#include "kernel.h"
#include <stdint.h>

/*
 * The tree: the root has ROOT_CHILDREN children; every other node has
 * CHILDREN children with probability q, else none.  A subtree then has
 * 1 / (1 - q * CHILDREN) nodes on average, so q = (1 - ROOT_CHILDREN / n)
 * / CHILDREN makes n the expected node count of the whole tree.
 *
 * That expectation says little about one tree: near-critical branching
 * (q * CHILDREN just below 1) is heavy-tailed, so most trees are far
 * smaller than n and a few are far larger, usually because one root child
 * grows a deep subtree that dominates the rest (the imbalance this kernel
 * is about; BOTS's binomial inputs have the same shape).  --n therefore
 * also seeds the tree (the root's state is a hash of n): every n is one
 * fixed tree, the same on every run, thread count and runtime, and its node
 * count is the RESULT line's checksum.  The sizes `ilan bench` uses are n
 * values whose trees have about 100 thousand, 1 million and 20 million
 * nodes (python/ilan/kernels.py).
 *
 * Each node's draw is a hash of its parent's state and its own position,
 * so no random-number state is shared between tasks.
 */
#define ROOT_CHILDREN 2000
#define CHILDREN 8

static uint64_t threshold; /* a non-root node has children when its draw is below this */
static long result;        /* the node count of the last repetition */

/* A 64-bit mixing function (the splitmix64 finaliser): a node's state from
 * its parent's, and the node's draw from its own state. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The state of child i of the node whose state is `state`. */
static uint64_t child_state(uint64_t state, int i)
{
    return mix(state ^ (uint64_t)(i + 1) * 0x632be59bd9b4e019ull);
}

/* How many children the (non-root) node with this state has. */
static int children_of(uint64_t state) { return mix(state) < threshold ? CHILDREN : 0; }

/* Nodes of the subtree below a node with `children` children: one task per
 * child, each writing its count into this node's array, then a taskwait. */
static long count(uint64_t state, int children)
{
    long small[CHILDREN]; /* the common case; only the root needs the heap */
    long *counts = small;
    if (children > CHILDREN && !(counts = malloc((size_t)children * sizeof *counts))) {
        fprintf(stderr, "uts: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < children; i++) {
        uint64_t child = child_state(state, i);
#pragma omp task firstprivate(counts, i, child)
        counts[i] = count(child, children_of(child));
    }
#pragma omp taskwait
    long n = 1;
    for (int i = 0; i < children; i++)
        n += counts[i];
    if (counts != small)
        free(counts);
    return n;
}

/* The same count without tasks: the reference the checksum is compared with. */
static long count_serial(uint64_t state, int children)
{
    long n = 1;
    for (int i = 0; i < children; i++) {
        uint64_t child = child_state(state, i);
        n += count_serial(child, children_of(child));
    }
    return n;
}

static uint64_t root_state;

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        result = count(root_state, ROOT_CHILDREN);
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "uts", "task", 1000000, 1);
    double q = (1.0 - (double)ROOT_CHILDREN / (double)kopt.n) / CHILDREN;
    /* q < 1/8, so q * 2^64 fits; a tree of n <= ROOT_CHILDREN is the root's star */
    threshold = q <= 0 ? 0 : (uint64_t)(q * 18446744073709551616.0);
    root_state = mix((uint64_t)kopt.n);
    double t = kernel_time(body);
    return kernel_result(t, (double)result, (double)count_serial(root_state, ROOT_CHILDREN), 0.0);
}
