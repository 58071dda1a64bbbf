/* test_barrier_tree.c — unit tests of the tree barrier's shape (sched/barrier_tree.c): parents, children, fan-in, depth and locality grouping on made-up teams. */
#include <stdlib.h>
#include "sched/barrier_tree.h"
#include "unit.h"

#define MAXN 5000

static unsigned parent[MAXN], scratch[2 * MAXN], first[MAXN + 1], child[MAXN];

/* Every thread but 0 has one parent, the parents form one tree rooted at
 * 0 (no cycle: depth bounded), and the children lists are parent[]
 * inverted, in id order. */
static void check_tree(unsigned n, const char *what)
{
    CHECK(parent[0] == BTREE_NO_PARENT, "%s: root has a parent", what);
    for (unsigned i = 1; i < n; i++) {
        CHECK(parent[i] < n && parent[i] != i, "%s: parent of %u is %u", what, i, parent[i]);
        unsigned d = 0, j = i;
        while (parent[j] != BTREE_NO_PARENT && d <= n) {
            j = parent[j];
            d++;
        }
        CHECK(j == 0 && d <= n, "%s: %u does not reach the root", what, i);
    }
    btree_children(n, parent, first, child);
    CHECK(first[0] == 0 && first[n] == n - 1, "%s: %u children in all", what, first[n]);
    for (unsigned p = 0; p < n; p++)
        for (unsigned k = first[p]; k < first[p + 1]; k++) {
            CHECK(parent[child[k]] == p, "%s: child %u of %u", what, child[k], p);
            CHECK(k == first[p] || child[k - 1] < child[k], "%s: children of %u out of order", what, p);
        }
}

static unsigned max_children(unsigned n)
{
    unsigned m = 0;
    for (unsigned p = 0; p < n; p++)
        if (first[p + 1] - first[p] > m)
            m = first[p + 1] - first[p];
    return m;
}

static unsigned max_depth(unsigned n)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++)
        if (btree_depth(parent, i) > m)
            m = btree_depth(parent, i);
    return m;
}

int main(void)
{
    const int *none[BTREE_LEVELS] = {NULL, NULL, NULL};

    /* Unbound teams: a plain k-ary heap over team ids. */
    btree_build(1, 4, none, parent, scratch);
    check_tree(1, "n=1");
    btree_build(2, 4, none, parent, scratch);
    check_tree(2, "n=2");
    CHECK(parent[1] == 0);
    btree_build(10, 3, none, parent, scratch);
    check_tree(10, "heap 10/3");
    for (unsigned i = 1; i < 10; i++)
        CHECK(parent[i] == (i - 1) / 3, "heap: parent of %u is %u", i, parent[i]);
    CHECK(max_children(10) == 3 && max_depth(10) == 2);
    unsigned sizes[] = {3, 16, 64, 255, 1000, 5000};
    unsigned fanins[] = {2, 4, 8, 64};
    for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (unsigned f = 0; f < sizeof fanins / sizeof *fanins; f++) {
            unsigned n = sizes[s], k = fanins[f];
            btree_build(n, k, none, parent, scratch);
            check_tree(n, "unbound");
            CHECK(max_children(n) <= k, "n=%u k=%u: %u children", n, k, max_children(n));
            /* a heap's depth: ceil(log_k((k - 1) n + 1)) - 1 */
            unsigned depth = 0;
            for (unsigned long long cap = 1, level = 1; cap < n; depth++)
                level *= k, cap += level;
            CHECK(max_depth(n) == depth, "n=%u k=%u: depth %u, want %u", n, k, max_depth(n), depth);
        }
    /* Fan-in out of range is clamped. */
    btree_build(64, 0, none, parent, scratch);
    check_tree(64, "fan-in 0");
    CHECK(max_children(64) == BTREE_FANIN_MIN);
    btree_build(200, 1000, none, parent, scratch);
    check_tree(200, "fan-in 1000");
    CHECK(max_children(200) == BTREE_FANIN_MAX);

    /* Bound teams: 2 nodes x 2 LLCs x 2 cores x 2 PUs, 16 threads placed
     * close (thread i on PU i). Every core's pair gathers under its first
     * thread, every LLC's cores under the first core's leader, and so on:
     * a thread's parent shares its core, else its LLC, else its node. */
    static int core[MAXN], llc[MAXN], node[MAXN];
    for (unsigned i = 0; i < 16; i++) {
        core[i] = (int)i / 2;
        llc[i] = (int)i / 4;
        node[i] = (int)i / 8;
    }
    const int *keys[BTREE_LEVELS] = {core, llc, node};
    btree_build(16, 2, keys, parent, scratch);
    check_tree(16, "close 16");
    for (unsigned i = 1; i < 16; i++) {
        unsigned p = parent[i];
        if (i % 2)
            CHECK(p == i - 1, "core mate: parent of %u is %u", i, p);
        else if (i % 4)
            CHECK(p == i - 2, "LLC: parent of %u is %u", i, p);
        else if (i % 8)
            CHECK(p == i - 4, "node: parent of %u is %u", i, p);
        else
            CHECK(p == 0, "machine: parent of %u is %u", i, p);
    }
    /* Spread the other way: thread i on core i % 8 (round-robin over the
     * cores), so core mates are i and i + 8; the ids do not follow the
     * machine, the groups still do. */
    for (unsigned i = 0; i < 16; i++) {
        core[i] = (int)i % 8;
        llc[i] = core[i] / 2;
        node[i] = core[i] / 4;
    }
    btree_build(16, 2, keys, parent, scratch);
    check_tree(16, "round-robin 16");
    for (unsigned i = 1; i < 16; i++) {
        unsigned p = parent[i];
        CHECK(core[p] == core[i] || (i < 8 && llc[p] == llc[i]) ||
                  (i < 8 && node[p] == node[i]) || p == 0,
              "round-robin: %u (core %d) under %u (core %d)", i, core[i], p, core[p]);
        if (i >= 8)
            CHECK(p == i - 8, "round-robin: core mate of %u is %u", i, p);
    }
    /* Many threads per core (oversubscribed what-if): the fan-in bounds the
     * children per level, each group a heap under its first thread. */
    for (unsigned i = 0; i < 255; i++) {
        core[i] = (int)i % 2;
        llc[i] = 0;
        node[i] = 0;
    }
    btree_build(255, 4, keys, parent, scratch);
    check_tree(255, "255 on 2 cores");
    CHECK(max_children(255) <= 4 * 2, "%u children", max_children(255));
    for (unsigned i = 2; i < 255; i++)
        CHECK(core[parent[i]] == core[i], "255: %u under %u, another core", i, parent[i]);
    CHECK(parent[1] == 0, "255: the second core's leader under the root");
    /* Unknown places (-1): a group of their own at that level. */
    for (unsigned i = 0; i < 8; i++) {
        core[i] = i == 3 ? -1 : (int)i / 2;
        llc[i] = i == 3 ? -1 : 0;
        node[i] = i == 3 ? -1 : 0;
    }
    btree_build(8, 4, keys, parent, scratch);
    check_tree(8, "unknown");
    CHECK(parent[3] == 0, "unknown thread 3 under %u", parent[3]);
    CHECK(parent[1] == 0 && parent[5] == 4 && parent[7] == 6);
    /* A large bound team: 5,000 threads on 2 nodes of 32 cores. */
    for (unsigned i = 0; i < MAXN; i++) {
        core[i] = (int)(i % 64);
        llc[i] = core[i] / 8;
        node[i] = core[i] / 32;
    }
    btree_build(MAXN, 4, keys, parent, scratch);
    check_tree(MAXN, "5000");
    CHECK(max_depth(MAXN) < 16, "5000: depth %u", max_depth(MAXN));
    return unit_report();
}
