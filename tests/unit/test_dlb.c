/* test_dlb.c — unit tests of the load-balancing messages (sched/dlb.h); their victim choice is test_steal.c's. */
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

/* The first asks of a wait draw with P_local; later ones go to other
 * groups, one farther each time. */
static void test_ask_draw(void)
{
    double plocal;
    unsigned far;
    for (unsigned a = 0; a < DLB_LOCAL_ASKS; a++) {
        dlb_ask_draw(1.0, a, &plocal, &far);
        CHECK(plocal == 1.0 && far == 0, "ask %u", a);
    }
    dlb_ask_draw(0.7, DLB_LOCAL_ASKS, &plocal, &far);
    CHECK(plocal == 0.0 && far == 0);
    dlb_ask_draw(1.0, DLB_LOCAL_ASKS + 3, &plocal, &far);
    CHECK(plocal == 0.0 && far == 3);
}

int main(void)
{
    test_ask_draw();
    test_names();
    test_cell();
    test_rounds();
    return unit_report();
}
