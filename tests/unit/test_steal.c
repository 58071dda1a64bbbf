/* test_steal.c — unit tests of the work-stealing victim policy (sched/steal.c). */
#include <stdio.h>
#include <string.h>
#include "sched/steal.h"
#include "unit.h"

int main(void)
{
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
