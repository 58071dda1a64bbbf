/* test_dlb.c — unit tests of the load-balancing messages and victim choice (sched/dlb.c). */
#include <string.h>
#include "sched/dlb.h"
#include "sched/steal.h"
#include "unit.h"

/* The names ILAN_DLB accepts (config/parse.c's parse_keyword reads them). */
static void test_names(void)
{
    CHECK(strcmp(dlb_strategy_names[DLB_WS], "ws") == 0);
    CHECK(strcmp(dlb_strategy_names[DLB_NA_WS], "na-ws") == 0);
    CHECK(strcmp(dlb_strategy_names[DLB_NA_RP], "na-rp") == 0);
}

/* Ids and rounds survive the 64-bit cell, at the limits of their fields. */
static void test_cell(void)
{
    CHECK(dlb_request_thief(0) == DLB_NO_THIEF);
    unsigned thieves[] = {0, 1, 2, 63, 4999, DLB_MAX_THIEF};
    uint64_t rounds[] = {DLB_FIRST_ROUND, 2, 12345, DLB_ROUND_MASK};
    for (unsigned i = 0; i < sizeof thieves / sizeof thieves[0]; i++)
        for (unsigned j = 0; j < sizeof rounds / sizeof rounds[0]; j++) {
            uint64_t c = dlb_request_make(rounds[j], thieves[i]);
            CHECK(dlb_request_thief(c) == thieves[i], "thief %u", thieves[i]);
            CHECK(dlb_request_round(c) == rounds[j]);
            CHECK(dlb_valid_thief(c, rounds[j]) == thieves[i]);
        }
    CHECK(DLB_MAX_THIEF == (1u << 24) - 2u);
}

/* The seed's protocol, played out: a victim serves one request per round,
 * a request written for an old round is dropped, and a thief does not
 * overwrite a request of the current round. */
static void test_rounds(void)
{
    uint64_t round = DLB_FIRST_ROUND, cell = 0;
    /* an empty cell: any thief may ask */
    CHECK(dlb_may_ask(cell, round));
    cell = dlb_request_make(round, 3);
    /* a second thief sees a request of this round and leaves it */
    CHECK(!dlb_may_ask(cell, round));
    /* two thieves that both saw the cell empty: the later write wins, and
     * only it is served for this round */
    cell = dlb_request_make(round, 5);
    CHECK(dlb_valid_thief(cell, round) == 5);
    round++; /* handled */
    CHECK(dlb_valid_thief(cell, round) == DLB_NO_THIEF);
    /* after the round moved on, the old request no longer blocks asking */
    CHECK(dlb_may_ask(cell, round));
    /* a thief that read the round before the victim handled another
     * request writes a stale one: rejected */
    uint64_t stale = dlb_request_make(round - 1, 7);
    CHECK(dlb_valid_thief(stale, round) == DLB_NO_THIEF);
    CHECK(dlb_may_ask(stale, round));
    /* a request from the future (cannot happen, but must not be served) */
    CHECK(dlb_valid_thief(dlb_request_make(round + 1, 2), round) == DLB_NO_THIEF);
}

/* Groups of 4 consecutive threads. */
static bool same_four(const void *arg, unsigned a, unsigned b)
{
    (void)arg;
    return a / 4 == b / 4;
}

/* Everyone in one group. */
static bool all_same(const void *arg, unsigned a, unsigned b)
{
    (void)arg, (void)a, (void)b;
    return true;
}

static void test_pick(void)
{
    uint64_t rng = steal_seed(9);
    for (unsigned self = 0; self < 16; self++) {
        unsigned local = 0, remote = 0;
        for (int i = 0; i < 2000; i++) {
            unsigned v = dlb_pick_victim(&rng, self, 16, 1.0, same_four, NULL, 32);
            CHECK(v < 16 && v != self);
            CHECK(v / 4 == self / 4, "P_local 1: %u picked %u", self, v);
            v = dlb_pick_victim(&rng, self, 16, 0.0, same_four, NULL, 32);
            CHECK(v < 16 && v != self);
            CHECK(v / 4 != self / 4, "P_local 0: %u picked %u", self, v);
            v = dlb_pick_victim(&rng, self, 16, 0.5, same_four, NULL, 32);
            if (v / 4 == self / 4)
                local++;
            else
                remote++;
        }
        /* half and half, within a generous margin */
        CHECK(local > 800 && remote > 800, "P_local 0.5: %u local, %u remote", local, remote);
    }
    /* A group of one (P_local 1) or a single group (P_local 0): any other thread. */
    for (int i = 0; i < 1000; i++) {
        unsigned v = dlb_pick_victim(&rng, 0, 2, 1.0, same_four, NULL, 4);
        CHECK(v == 1); /* threads 0 and 1 share a group: found */
        v = dlb_pick_victim(&rng, 4, 5, 1.0, same_four, NULL, 8);
        CHECK(v < 4, "alone in its group: another group's thread");
        v = dlb_pick_victim(&rng, 2, 8, 0.0, all_same, NULL, 8);
        CHECK(v < 8 && v != 2);
        v = dlb_pick_victim(&rng, 2, 8, 0.0, NULL, NULL, 8);
        CHECK(v < 8 && v != 2);
    }
}

int main(void)
{
    test_names();
    test_cell();
    test_rounds();
    test_pick();
    return unit_report();
}
