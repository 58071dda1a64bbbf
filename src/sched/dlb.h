/* dlb.h — the lock-less load-balancing messages of seed 002 (request and round cells): pure functions (no threads, atomics or clocks). */
#ifndef ILAN_SCHED_DLB_H
#define ILAN_SCHED_DLB_H

#include <stdbool.h>
#include <stdint.h>

/* How idle threads get tasks from busy ones (ILAN_DLB). */
enum dlb_strategy {
    DLB_WS = 0, /* thieves take tasks from the victims' deques themselves (CAS on the top) */
    DLB_NA_WS,  /* thieves ask; a victim moves up to N_steal of its queued tasks to the thief */
    DLB_NA_RP,  /* thieves ask; a victim sends the thief its next N_steal new tasks */
};

/* The load-balancing parameters (ILAN_DLB_*), seed 002 section 4.5. */
struct dlb_params {
    enum dlb_strategy strategy; /* ILAN_DLB */
    unsigned victims;           /* N_victim: requests an idle thread sends per attempt */
    unsigned steal;             /* N_steal: most tasks one request (or one ws steal) moves */
    unsigned interval;          /* T_interval: idle rounds before an unanswered thief asks again */
    double plocal;              /* P_local: probability of asking (or robbing) a victim of the
                                   thief's own locality group */
};

#define DLB_STRATEGIES 3

/* The strategies' names as ILAN_DLB spells them, by enum dlb_strategy. */
extern const char *const dlb_strategy_names[DLB_STRATEGIES];

/*
 * The request cell: a 40-bit round number (low bits) and the asking
 * thread's team id + 1 (high 24 bits; 0: no request). A victim's round
 * starts at 1 and grows by one each time it handles a request; a thief
 * asks by writing (the victim's current round, its id) into the cell.
 */
#define DLB_ROUND_BITS 40u
#define DLB_ROUND_MASK ((UINT64_C(1) << DLB_ROUND_BITS) - 1u)
#define DLB_MAX_THIEF ((1u << (64u - DLB_ROUND_BITS)) - 2u) /* largest team id that can ask */
#define DLB_NO_THIEF 0xffffffffu
#define DLB_FIRST_ROUND UINT64_C(1)

/* The cell value for thief `thief` (<= DLB_MAX_THIEF) asking in `round`. */
static inline uint64_t dlb_request_make(uint64_t round, unsigned thief)
{
    return ((uint64_t)(thief + 1u) << DLB_ROUND_BITS) | (round & DLB_ROUND_MASK);
}

/* The thief a cell names, or DLB_NO_THIEF. */
static inline unsigned dlb_request_thief(uint64_t cell)
{
    uint64_t id = cell >> DLB_ROUND_BITS;
    return id ? (unsigned)(id - 1u) : DLB_NO_THIEF;
}

/* The round a cell was written for. */
static inline uint64_t dlb_request_round(uint64_t cell)
{
    return cell & DLB_ROUND_MASK;
}

/* Thief: whether it may write a request into a victim whose cell holds
 * `cell` and whose round is `round`: only when no request of this round
 * is waiting there (it would overwrite another thief's). */
static inline bool dlb_may_ask(uint64_t cell, uint64_t round)
{
    return dlb_request_thief(cell) == DLB_NO_THIEF || dlb_request_round(cell) < (round & DLB_ROUND_MASK);
}

/* Victim in round `round`: the thief whose request `cell` is to be
 * served, or DLB_NO_THIEF for no request, or a stale one (written for an
 * earlier round: its thief may have found work since). After handling a
 * valid request, served or not, the victim moves to the next round, so
 * that no two thieves are ever served for one round. */
static inline unsigned dlb_valid_thief(uint64_t cell, uint64_t round)
{
    if (dlb_request_round(cell) != (round & DLB_ROUND_MASK))
        return DLB_NO_THIEF;
    return dlb_request_thief(cell);
}

/* Asks of one wait that may go to the thief's own group before it asks
 * farther (dlb_ask_draw). */
#define DLB_LOCAL_ASKS 2u

/*
 * How the `asks`-th ask (0-based) of one idle wait draws its victims, as
 * steal_victim_near_first's arguments: *plocal the probability of the
 * thief's own group, *far the draws of other groups to count as made (the
 * first such draw then goes to the (*far + 1)-th nearest group). The
 * first DLB_LOCAL_ASKS asks draw with the configured P_local; later ones
 * go to other groups, one group farther at each ask, cycling: a request
 * to a thread with no queued task stands unanswered, so a thief whose own
 * group has nothing asks elsewhere. Without this, P_local = 1 (the
 * default) made every thread of a node that started without tasks ask
 * only its idle neighbours, for good (in the simulator, 8 nodes of 24
 * threads: BOTS-like trees 6-8.5 times slower than with work stealing).
 */
static inline void dlb_ask_draw(double plocal, unsigned asks, double *plocal_out, unsigned *far_out)
{
    *plocal_out = asks < DLB_LOCAL_ASKS ? plocal : 0.0;
    *far_out = asks < DLB_LOCAL_ASKS ? 0u : asks - DLB_LOCAL_ASKS;
}

#endif
