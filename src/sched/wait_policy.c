/* wait_policy.c — the spin / yield / sleep decisions of a waiting thread, as pure functions. */
#include "sched/wait_policy.h"

#include "base/tunables.h"

_Static_assert((ILAN_SPIN_YIELD_EVERY & (ILAN_SPIN_YIELD_EVERY - 1)) == 0,
               "the spin loop masks with ILAN_SPIN_YIELD_EVERY - 1");

struct wait_plan wait_plan_for(const struct wait_settings *s, unsigned live_threads,
                               unsigned threads, unsigned cpus)
{
    unsigned usable = cpus ? cpus : 1;
    bool oversubscribed = live_threads > usable;
    struct wait_plan p = {0, 0, 0, false, 0};
    /* A spinning waiter yields now and then only when threads outnumber
     * CPUs, idle ones included (wait_policy.h says why never with a CPU
     * each). */
    unsigned spin_yield = oversubscribed || threads > usable ? ILAN_SPIN_YIELD_EVERY : 0;
    if (s->wait_policy == 1 && !s->spin_count_set) {
        p.never_sleep = true;
        p.spins = oversubscribed ? 0 : ILAN_SPIN_ACTIVE;
        p.yield_every = spin_yield;
        p.alone_ns = oversubscribed ? s->alone_ns : 0;
        return p;
    }
    if (s->wait_policy == 0 && !s->spin_count_set)
        return p; /* passive: sleep at once */
    if (!oversubscribed || s->wait_policy == 1) {
        p.spins = s->spin_count;
        p.yield_every = spin_yield;
        return p;
    }
    /* Oversubscribed: yield at once (even 64 pauses cost ~3 us, more than
     * a yield that hands the CPU to the thread we wait for), unless the
     * user asked for no spinning at all. */
    p.yield_ns = s->spin_count ? s->yield_ns : 0;
    p.alone_ns = s->spin_count ? s->alone_ns : 0;
    return p;
}

bool yield_watch_note(struct yield_watch *w, uint64_t took_ns, bool outside, uint64_t now)
{
    if (took_ns < ILAN_YIELD_LATE_NS || !outside) {
        w->hold_ns = ILAN_YIELD_HOLD_NS;
        return false;
    }
    uint64_t hold = w->hold_ns ? w->hold_ns : ILAN_YIELD_HOLD_NS;
    w->late_until = now + hold;
    w->hold_ns = hold * 2 < ILAN_YIELD_HOLD_MAX_NS ? hold * 2 : ILAN_YIELD_HOLD_MAX_NS;
    return true;
}
