/* test_policy_core.c — unit tests of the core's pure decisions: team size. */
#include <stdio.h>
#include "core/team.h"
#include "base/tunables.h"
#include "unit.h"


/* Checks an unsigned result and prints both values when they differ. */
#define CHECK_EQ(got, want)                                                                  \
    do {                                                                                     \
        unsigned long g_ = (unsigned long)(got), w_ = (unsigned long)(want);                \
        CHECK(g_ == w_, "%s = %lu, want %lu", #got, g_, w_);                                 \
    } while (0)

static struct icv base_icv(void)
{
    struct icv icv = {
        .nthreads = 8,
        .thread_limit = 0xffffffffu,
        .max_active_levels = 1,
    };
    return icv;
}

static void test_team_size(void)
{
    struct icv icv = base_icv();
    /* The nthreads-var ICV, or the clause when given. */
    CHECK_EQ(team_resolve_size(0, true, &icv, 0, 1, 2), 8);
    CHECK_EQ(team_resolve_size(5, true, &icv, 0, 1, 2), 5);
    CHECK_EQ(team_resolve_size(1000, true, &icv, 0, 1, 2), 1000);
    /* if(false) and exhausted active levels serialize. */
    CHECK_EQ(team_resolve_size(4, false, &icv, 0, 1, 2), 1);
    CHECK_EQ(team_resolve_size(4, true, &icv, 1, 4, 2), 1);
    icv.max_active_levels = 3;
    CHECK_EQ(team_resolve_size(4, true, &icv, 2, 4, 2), 4);
    CHECK_EQ(team_resolve_size(4, true, &icv, 3, 4, 2), 1);
    /* thread-limit-var counts the threads already busy; the encountering
     * thread is one of them and is reused as the master. */
    icv.thread_limit = 6;
    CHECK_EQ(team_resolve_size(0, true, &icv, 0, 1, 2), 6);
    CHECK_EQ(team_resolve_size(4, true, &icv, 1, 4, 2), 3);
    CHECK_EQ(team_resolve_size(4, true, &icv, 1, 6, 2), 1);
    CHECK_EQ(team_resolve_size(4, true, &icv, 1, 9, 2), 1);
    /* dyn-var shrinks the team to the idle CPUs. */
    icv = base_icv();
    icv.dyn = true;
    CHECK_EQ(team_resolve_size(0, true, &icv, 0, 1, 4), 4);
    CHECK_EQ(team_resolve_size(2, true, &icv, 0, 1, 4), 2);
    CHECK_EQ(team_resolve_size(0, true, &icv, 0, 3, 4), 2);
    CHECK_EQ(team_resolve_size(0, true, &icv, 0, 8, 4), 1);
}

int main(void)
{
    test_team_size();
    return unit_report();
}
