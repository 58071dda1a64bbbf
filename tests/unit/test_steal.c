/* test_steal.c — unit tests of the work-stealing victim policy (sched/steal.c). */
#include <stdio.h>
#include <string.h>
#include "sched/steal.h"
#include "unit.h"

/*
 * steal_victim_near_first on 16 threads in four groups of four at
 * distances |a - b| (group 1 nearest to 0, then 2, then 3): P_local 1
 * draws only the own group, P_local 0 only others, nearest group first on
 * a look's first far draw and the next on its second; 0.5 both; a kept
 * victim only while of the kind drawn; a thread alone in its group draws
 * afar whatever P_local says.
 */
static void test_near_first(void)
{
    unsigned group[16], order[15], seg_end[16], group_of[16];
    int dist[16];
    for (unsigned t = 0; t < 16; t++)
        group[t] = t / 4;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            dist[a * 4 + b] = a > b ? a - b : b - a;
    uint64_t rng = steal_seed(11);
    for (unsigned self = 0; self < 16; self++) {
        struct loop_victims v = {order, seg_end, 0, 0, group_of};
        loop_victims_build(self, 16, group, 4, dist, VICTIMS_BY_GROUP, &v);
        CHECK(v.nseg == 4);
        unsigned local = 0, remote = 0;
        for (int i = 0; i < 2000; i++) {
            unsigned far = 0;
            unsigned x = steal_victim_near_first(&v, self, 1.0, STEAL_NO_VICTIM, &far, &rng);
            CHECK(x < 16 && x != self && x / 4 == self / 4, "P_local 1: %u drew %u", self, x);
            CHECK(far == 0);
            x = steal_victim_near_first(&v, self, 0.0, STEAL_NO_VICTIM, &far, &rng);
            CHECK(x / 4 == order[v.seg_end[0]] / 4, "P_local 0: %u's first far draw %u", self, x);
            unsigned second = steal_victim_near_first(&v, self, 0.0, STEAL_NO_VICTIM, &far, &rng);
            CHECK(second / 4 == order[v.seg_end[1]] / 4 && far == 2);
            /* self 0: group 1 is nearest, then 2; self 5 (group 1): 0 ties
             * with 2 at distance 1, the lower number first */
            if (self == 0)
                CHECK(x / 4 == 1 && second / 4 == 2);
            if (self == 5)
                CHECK(x / 4 == 0 && second / 4 == 2);
            x = steal_victim_near_first(&v, self, 0.5, STEAL_NO_VICTIM, &far, &rng);
            if (x / 4 == self / 4)
                local++;
            else
                remote++;
            /* A remembered remote victim is kept under P_local 0, dropped
             * under 1; a remembered local one the other way round. */
            unsigned afar = (self + 4) % 16, near = self ^ 1;
            CHECK(steal_victim_near_first(&v, self, 0.0, afar, &far, &rng) == afar);
            CHECK(steal_victim_near_first(&v, self, 1.0, afar, &far, &rng) / 4 == self / 4);
            CHECK(steal_victim_near_first(&v, self, 1.0, near, &far, &rng) == near);
            CHECK(steal_victim_near_first(&v, self, 0.0, near, &far, &rng) / 4 != self / 4);
        }
        CHECK(local > 800 && remote > 800, "P_local 0.5: %u local, %u remote", local, remote);
    }
    /* Alone in its group: always another group's thread. */
    unsigned lone[5] = {0, 0, 0, 0, 1};
    struct loop_victims v = {order, seg_end, 0, 0, group_of};
    loop_victims_build(4, 5, lone, 2, NULL, VICTIMS_BY_GROUP, &v);
    for (int i = 0; i < 100; i++) {
        unsigned far = 0;
        CHECK(steal_victim_near_first(&v, 4, 1.0, STEAL_NO_VICTIM, &far, &rng) < 4);
    }
    /* No other group: its own, even when P_local says otherwise (a draw
     * of another group divided by zero). */
    unsigned one[4] = {0, 0, 0, 0};
    loop_victims_build(0, 4, one, 1, NULL, VICTIMS_BY_GROUP, &v);
    for (int i = 0; i < 100; i++) {
        unsigned far = 3, x = steal_victim_near_first(&v, 0, 0.0, STEAL_NO_VICTIM, &far, &rng);
        CHECK(x >= 1 && x < 4, "victim %u", x);
    }
}

int main(void)
{
    test_near_first();
    enum steal_policy p = (enum steal_policy)42;
    CHECK(steal_parse_policy("random", &p) && p == STEAL_RANDOM);
    CHECK(steal_parse_policy("  RaNdOm ", &p) && p == STEAL_RANDOM);
    p = (enum steal_policy)42;
    CHECK(!steal_parse_policy("", &p) && p == (enum steal_policy)42);
    CHECK(!steal_parse_policy("rand", &p));
    CHECK(!steal_parse_policy("random x", &p));
    CHECK(!steal_parse_policy("randomly", &p));

    /* Sticks to the last successful victim. */
    uint64_t rng = steal_seed(3);
    for (int i = 0; i < 100; i++)
        CHECK(steal_next_victim(STEAL_RANDOM, 3, 8, 5, &rng) == 5);
    /* An invalid remembered victim (self, out of range) is ignored. */
    for (int i = 0; i < 1000; i++) {
        unsigned v = steal_next_victim(STEAL_RANDOM, 3, 8, 3, &rng);
        CHECK(v != 3 && v < 8);
        v = steal_next_victim(STEAL_RANDOM, 3, 8, 9, &rng);
        CHECK(v != 3 && v < 8);
    }
    /* Two threads: the other one, always. */
    for (unsigned self = 0; self < 2; self++)
        for (int i = 0; i < 100; i++)
            CHECK(steal_next_victim(STEAL_RANDOM, self, 2, STEAL_NO_VICTIM, &rng) == 1 - self);
    /* Random victims: never self, every other thread drawn, roughly uniformly. */
    for (unsigned n = 2; n <= 64; n *= 2) {
        for (unsigned self = 0; self < n; self += n / 2 ? n / 2 - 1 ? n / 2 - 1 : 1 : 1) {
            unsigned count[64];
            memset(count, 0, sizeof count);
            rng = steal_seed(self);
            unsigned draws = 2000 * n;
            for (unsigned i = 0; i < draws; i++) {
                unsigned v = steal_next_victim(STEAL_RANDOM, self, n, STEAL_NO_VICTIM, &rng);
                CHECK(v < n && v != self);
                count[v]++;
            }
            for (unsigned v = 0; v < n; v++) {
                if (v == self)
                    continue;
                double expect = (double)draws / (n - 1);
                CHECK(count[v] > expect * 0.8 && count[v] < expect * 1.2);
            }
        }
    }
    /* Tries per look: a full look visits every other thread once; a quick
     * one draws per_thread per team thread, at most cap. */
    CHECK(steal_tries(2, true, 2, 64) == 1);
    CHECK(steal_tries(5000, true, 2, 64) == 4999);
    CHECK(steal_tries(2, false, 2, 64) == 4);
    CHECK(steal_tries(32, false, 2, 64) == 64);
    CHECK(steal_tries(33, false, 2, 64) == 64);
    CHECK(steal_tries(5000, false, 2, 64) == 64);
    CHECK(steal_tries(3000000000u, false, 2, 64) == 64); /* no wrap */
    /* Seeds differ per thread and are never zero. */
    for (unsigned i = 0; i < 1000; i++) {
        CHECK(steal_seed(i) != 0);
        CHECK(steal_seed(i) != steal_seed(i + 1));
    }
    return unit_report();
}
