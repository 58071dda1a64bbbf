/* test_loop_split.c — unit tests of the learnt starting split of repeated adaptive loops (sched/loop_split.c) on hand-computed blocks. */
#include "sched/loop_split.h"
#include "unit.h"

/* Two blocks of 500: block 1 costs 3 ns an iteration, block 0 1 ns; the
 * total 2,000 ns halves at 1,000 ns, 500 + 500 / 3 = 666.7 iterations in;
 * the bound moves half way there from 500. */
static void test_two_blocks(void)
{
    iter_ull start[] = {0, 500, 1000}, ran[] = {500, 250};
    uint64_t ns[] = {500, 750};
    struct loop_split_obs o = {1000, 2, start, ran, ns};
    iter_ull b[3] = {7, 7, 7};
    CHECK(loop_split_next(&o, false, b));
    CHECK(b[0] == 0 && b[1] == 583 && b[2] == 1000, "%llu %llu %llu", b[0], b[1], b[2]);
}

/* Equal cost: the static split stays unless the loop already learnt, and
 * then the learnt split is the same blocks. */
static void test_balanced(void)
{
    iter_ull start[] = {0, 300, 600, 900}, ran[] = {300, 200, 100};
    uint64_t ns[] = {600, 400, 200};
    struct loop_split_obs o = {900, 3, start, ran, ns};
    iter_ull b[4] = {1, 2, 3, 4};
    CHECK(!loop_split_next(&o, false, b));
    /* learnt before: the equal-cost split is the static one, so back to it */
    CHECK(!loop_split_next(&o, true, b));
    /* Within 5 % of a block (15 iterations) of static it snaps back:
     * block 0 at 2.1 ns puts equal costs at 290 and 595, half way 295 and
     * 597; at 2.6 ns the first is at 660 / 2.6 = 253.8, half way 276 */
    uint64_t near[] = {630, 400, 200};
    o.ns = near;
    CHECK(!loop_split_next(&o, true, b), "%llu", b[1]);
    uint64_t far[] = {780, 400, 200};
    o.ns = far;
    CHECK(loop_split_next(&o, true, b) && b[1] == 276, "%llu", b[1]);
    /* Just under LOOP_SPLIT_IMBALANCE: still static; over it: learnt. */
    uint64_t under[] = {600, 400, 221}; /* block 2: 663 ns against a mean of 621 (1.07) */
    o.ns = under;
    CHECK(!loop_split_next(&o, false, b));
    uint64_t over[] = {600, 400, 260}; /* 780 against 660 (1.18) */
    o.ns = over;
    /* thirds of 1,980 ns: 660 = 600 + 30 x 2 and 1,320 = 1,200 + 46.2 x
     * 2.6, so half way from 300 and 600: 315 and 623 */
    CHECK(loop_split_next(&o, false, b) && b[1] == 315 && b[2] == 623, "%llu %llu", b[1], b[2]);
}

/* A block of which nothing was timed takes its neighbours' mean
 * density; with nothing measured anywhere the static split stays. */
static void test_unmeasured(void)
{
    iter_ull start[] = {0, 100, 200, 300}, ran[] = {100, 0, 50};
    uint64_t ns[] = {100, 0, 150}; /* 1 and 3 ns: block 1 taken as 2 */
    struct loop_split_obs o = {300, 3, start, ran, ns};
    iter_ull b[4];
    CHECK(loop_split_next(&o, false, b));
    /* costs 100, 200, 300: total 600, thirds at 200 and 400 at 150 and
     * 233.3; half way from 100 and 200: 125 and 216 */
    CHECK(b[1] == 125 && b[2] == 216, "%llu %llu", b[1], b[2]);
    iter_ull none[] = {0, 0, 0};
    uint64_t zero[] = {0, 0, 0};
    o.ran = none;
    o.ns = zero;
    CHECK(!loop_split_next(&o, true, b));
}

/* Empty blocks, a block holding most of the cost, bounds that never go
 * back and always cover [0, n). */
static void test_shapes(void)
{
    iter_ull start[] = {0, 0, 500, 1000}, ran[] = {0, 5, 10};
    uint64_t ns[] = {0, 5000, 10}; /* block 1: 1,000 ns an iteration, block 2: 1 */
    struct loop_split_obs o = {1000, 3, start, ran, ns};
    iter_ull b[4];
    CHECK(loop_split_next(&o, false, b));
    CHECK(b[0] == 0 && b[3] == 1000);
    for (unsigned k = 0; k < 3; k++)
        CHECK(b[k] <= b[k + 1], "bound %u: %llu > %llu", k, b[k], b[k + 1]);
    /* thirds of 500,500 ns fall inside block 1, at 166.8 and 333.7; half
     * way from 0 and 500: 83 and 416 */
    CHECK(b[1] == 83 && b[2] == 416, "%llu %llu", b[1], b[2]);
    iter_ull s1[] = {0, 5}, o1[] = {5};
    uint64_t n1[] = {50};
    struct loop_split_obs single = {5, 1, s1, o1, n1};
    iter_ull b1[2];
    CHECK(!loop_split_next(&single, true, b1), "one thread: always its whole range");
}

int main(void)
{
    test_two_blocks();
    test_balanced();
    test_unmeasured();
    test_shapes();
    return unit_report();
}
