/* test_loop_victims.c — unit tests of a thief's victim order (sched/loop_victims.c): own group first, then the other groups nearest first (one by one, or equally far ones together), every other thread exactly once. */
#include <stdint.h>
#include <string.h>

#include "sched/loop_victims.h"
#include "unit.h"

static unsigned order[64], seg_end[64], group_of[64];

static struct loop_victims build(unsigned self, unsigned n, const unsigned *grp, unsigned G,
                                 const int *dist, enum victim_shape shape)
{
    struct loop_victims v = {order, seg_end, 0, 0, group_of};
    loop_victims_build(self, n, grp, G, dist, shape, &v);
    return v;
}

/* Every thread but self appears once among the first v.n entries of any pass. */
static void check_permutation(const struct loop_victims *v, unsigned self, unsigned n,
                              uint64_t rnd)
{
    unsigned seen[64] = {0};
    for (unsigned i = 0; i < v->n; i++)
        seen[loop_victim_at(v, i, rnd)]++;
    for (unsigned t = 0; t < n; t++)
        CHECK(seen[t] == (t == self ? 0u : 1u), "thread %u seen %u times", t, seen[t]);
}

/* 8 threads on 4 nodes of 2 (numa:4 core:2); node distances: 0-1 and 2-3
 * near (12), others far (20), as on a two-socket machine. */
static const unsigned node_of[8] = {0, 0, 1, 1, 2, 2, 3, 3};
static const int node_distance[16] = {10, 12, 20, 20, 12, 10, 20, 20, 20, 20, 10, 12, 20, 20, 12, 10};

static void test_numa(void)
{
    struct loop_victims v = build(5, 8, node_of, 4, node_distance, VICTIMS_BY_GROUP);
    CHECK(v.n == 7 && v.nseg == 4, "n %u nseg %u", v.n, v.nseg);
    CHECK(v.group_of[5] == 2 && v.group_of[0] == 0 && v.group_of[7] == 3);
    /* Thread 5 (node 2): thread 4, then node 3 (near), then nodes 0, 1. */
    CHECK(loop_victim_at(&v, 0, 0) == 4);
    for (uint64_t rnd = 0; rnd < 50; rnd++) {
        unsigned a = loop_victim_at(&v, 1, rnd * 0x9E3779B97F4A7C15ULL);
        unsigned b = loop_victim_at(&v, 2, rnd * 0x9E3779B97F4A7C15ULL);
        CHECK((a == 6 || a == 7) && (b == 6 || b == 7) && a != b, "near node: %u %u", a, b);
        for (unsigned i = 3; i < 7; i++)
            CHECK(loop_victim_at(&v, i, rnd) < 4, "far nodes last");
        CHECK(loop_victim_segment(&v, 0) == 0 && loop_victim_segment(&v, 1) == 1 &&
              loop_victim_segment(&v, 6) == 3);
        check_permutation(&v, 5, 8, rnd * 0x9E3779B97F4A7C15ULL);
    }
    /* Random start within a group: both members of node 3 come first sometimes. */
    unsigned first6 = 0;
    for (uint64_t rnd = 0; rnd < 64; rnd++)
        first6 += loop_victim_at(&v, 1, rnd * 0x9E3779B97F4A7C15ULL) == 6;
    CHECK(first6 > 0 && first6 < 64, "rotation within a group: %u of 64", first6);
}

static void test_by_distance(void)
{
    /* For thread 5 (node 2), node 3 is near and nodes 0 and 1 are equally
     * far. By group, every pass reaches node 0 before node 1; by distance,
     * the far nodes are one segment, so a pass may start at either. */
    struct loop_victims v = build(5, 8, node_of, 4, node_distance, VICTIMS_BY_DISTANCE);
    CHECK(v.n == 7 && v.nseg == 3, "n %u nseg %u", v.n, v.nseg);
    CHECK(v.seg_end[0] == 1 && v.seg_end[1] == 3 && v.seg_end[2] == 7);
    unsigned first_far[4] = {0};
    for (uint64_t rnd = 0; rnd < 256; rnd++) {
        uint64_t r = rnd * 0x9E3779B97F4A7C15ULL;
        CHECK(loop_victim_at(&v, 0, r) == 4, "own node first");
        for (unsigned i = 1; i < 3; i++)
            CHECK(node_of[loop_victim_at(&v, i, r)] == 3, "near node second");
        unsigned f = loop_victim_at(&v, 3, r);
        CHECK(f < 4, "far nodes last: %u", f);
        first_far[f]++;
        check_permutation(&v, 5, 8, r);
    }
    for (unsigned t = 0; t < 4; t++)
        CHECK(first_far[t] > 0, "far pass starts at thread %u in none of 256 passes", t);
    /* By group, node 0's threads always come before node 1's. */
    v = build(5, 8, node_of, 4, node_distance, VICTIMS_BY_GROUP);
    for (uint64_t rnd = 0; rnd < 64; rnd++)
        CHECK(loop_victim_at(&v, 3, rnd * 0x9E3779B97F4A7C15ULL) < 2, "node 0 first");
    /* Without distances every other group is equally far: one segment. */
    v = build(5, 8, node_of, 4, NULL, VICTIMS_BY_DISTANCE);
    CHECK(v.nseg == 2 && v.seg_end[0] == 1 && v.seg_end[1] == 7, "nseg %u", v.nseg);
}

static void test_flat(void)
{
    /* No groups (static_steal, or a team without locality): one segment. */
    struct loop_victims v = build(2, 5, NULL, 1, NULL, VICTIMS_BY_DISTANCE);
    CHECK(v.n == 4 && v.nseg == 1);
    check_permutation(&v, 2, 5, 12345);
    CHECK(loop_victim_segment(&v, 3) == 0);
    /* A thread alone in its group: its own segment is empty, remote first. */
    unsigned grp[3] = {0, 1, 1};
    v = build(0, 3, grp, 2, NULL, VICTIMS_BY_DISTANCE);
    CHECK(v.n == 2 && v.nseg == 2 && v.seg_end[0] == 0, "nseg %u", v.nseg);
    CHECK(loop_victim_segment(&v, 0) == 1);
    check_permutation(&v, 0, 3, 99);
    /* flat (static_steal): one segment, the groups still known. */
    struct loop_victims f = {order, seg_end, 0, 0, group_of};
    loop_victims_build(0, 3, grp, 2, NULL, VICTIMS_FLAT, &f);
    CHECK(f.nseg == 1 && f.n == 2 && f.group_of[1] == 1 && f.group_of[0] == 0);
    /* A team of one has no victims. */
    v = build(0, 1, NULL, 1, NULL, VICTIMS_BY_DISTANCE);
    CHECK(v.n == 0 && v.nseg == 0);
}

int main(void)
{
    test_numa();
    test_by_distance();
    test_flat();
    return unit_report();
}
