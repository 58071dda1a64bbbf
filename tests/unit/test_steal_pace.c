/* test_steal_pace.c — unit tests of the gap between idle threads' looks at other threads' deques (sched/steal_pace.c). */
#include "sched/steal_pace.h"
#include "unit.h"

int main(void)
{
    struct steal_pace p = {0};
    /* A fresh thread looks every round and counts as hungry when idle. */
    CHECK(steal_pace_gap(&p) == 1 && steal_pace_hungry(&p));

    /* Each steal that brought little doubles the gap, up to the cap. */
    for (unsigned k = 1; k <= STEAL_PACE_MAX_LEVEL + 5; k++) {
        steal_pace_after_steal(&p, 3999, 4000);
        unsigned level = k < STEAL_PACE_MAX_LEVEL ? k : STEAL_PACE_MAX_LEVEL;
        CHECK(p.level == level, "after %u small steals: level %u", k, p.level);
        CHECK(steal_pace_gap(&p) == 1u << level);
        CHECK(steal_pace_hungry(&p) == (level <= STEAL_PACE_HUNGRY_LEVEL));
    }
    CHECK(steal_pace_gap(&p) == 1u << STEAL_PACE_MAX_LEVEL);

    /* One steal worth its cost brings the thread back to looking every round. */
    steal_pace_after_steal(&p, 4000, 4000);
    CHECK(p.level == 0 && steal_pace_gap(&p) == 1 && steal_pace_hungry(&p));
    steal_pace_after_steal(&p, 10, 4000);
    steal_pace_after_steal(&p, 1000000, 4000);
    CHECK(p.level == 0);
    return unit_report();
}
