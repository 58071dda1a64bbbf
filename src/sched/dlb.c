/* dlb.c — the load-balancing strategies' names and the NUMA-aware victim choice (pure functions). */
#include "sched/dlb.h"

#include "sched/steal.h"

const char *const dlb_strategy_names[DLB_STRATEGIES] = {"ws", "na-ws", "na-rp"};

/* A uniformly random thread other than self. */
static unsigned any_other(uint64_t *rng, unsigned self, unsigned n)
{
    unsigned v = (unsigned)((steal_rand(rng) >> 32) % (n - 1));
    return v >= self ? v + 1 : v;
}

unsigned dlb_pick_victim(uint64_t *rng, unsigned self, unsigned n, double plocal,
                         bool (*same_group)(const void *arg, unsigned a, unsigned b),
                         const void *arg, unsigned draws)
{
    if (!same_group)
        return any_other(rng, self, n);
    /* The top 53 bits as a uniform double in [0, 1). */
    double u = (double)(steal_rand(rng) >> 11) * (1.0 / 9007199254740992.0);
    bool local = u < plocal;
    for (unsigned i = 0; i < draws; i++) {
        unsigned v = any_other(rng, self, n);
        if (same_group(arg, self, v) == local)
            return v;
    }
    /* Unlucky draws, or no such thread: the first of the wanted kind from
     * a random place on, so a thread of that kind is found if there is one. */
    unsigned start = any_other(rng, self, n);
    for (unsigned k = 0; k < n; k++) {
        unsigned v = (start + k) % n;
        if (v != self && same_group(arg, self, v) == local)
            return v;
    }
    return any_other(rng, self, n);
}
