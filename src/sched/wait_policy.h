/* wait_policy.h — how a waiting thread spends its wait (spin, yield, sleep): pure policy. */
#ifndef ILAN_SCHED_WAIT_POLICY_H
#define ILAN_SCHED_WAIT_POLICY_H

#include <stdbool.h>
#include <stdint.h>

/* What a waiter does next. */
enum wait_phase {
    WAIT_SPIN,  /* pause and look again: the event is expected within microseconds */
    WAIT_YIELD, /* give the CPU to another runnable thread, then look again */
    WAIT_SLEEP, /* sleep on the futex until woken */
};

/* The shape of every wait, decided when a team forms (wait_plan_for). */
struct wait_plan {
    unsigned spins;       /* pause iterations before yielding or sleeping */
    unsigned yield_every; /* during the spins, yield once every this many (a power of two;
                             0: never, as with a CPU per thread) */
    uint64_t yield_ns;    /* after the spins, yield until the wait is this old (ns) */
    bool never_sleep;     /* OMP_WAIT_POLICY=active: spin (or yield) for ever */
    uint64_t alone_ns;    /* oversubscribed: while no thread sharing the waiter's CPU has
                             work, spin instead of yielding until the wait is this old */
};

/* The settings the plan depends on besides the load. wait_policy: -1 unset,
 * 0 passive, 1 active. spin_count: GOMP_SPINCOUNT (or its default), with
 * spin_count_set when the user gave it. */
struct wait_settings {
    int wait_policy;     /* OMP_WAIT_POLICY: -1 unset, 0 passive, 1 active */
    unsigned spin_count; /* spins before sleeping on a machine that is not oversubscribed */
    bool spin_count_set; /* GOMP_SPINCOUNT was given: it overrides the policy */
    uint64_t yield_ns;   /* how long an oversubscribed waiter yields before sleeping */
    uint64_t alone_ns;   /* how long an oversubscribed waiter with its CPU to itself spins */
};

/*
 * The plan for waits while `live_threads` busy threads share `cpus` CPUs
 * and `threads` threads exist in all (busy, or idle between regions and
 * spinning until they sleep; taken as at least live_threads).
 * With a CPU each, a waiter spins (the thread it waits for is running, and
 * a futex wake-up costs tens of microseconds in a VM), and never yields:
 * the kernel may start two threads of a team on one CPU, and its load
 * balancer moves a thread only once it has waited in the run queue for
 * a while (half a millisecond by default), which two threads that yield
 * to each other every few tens of microseconds never do. They stayed
 * together for 10-40 ms on the 2-CPU VM (a loop taking three times its
 * time meanwhile); without the yields they parted within 0-1 regions of
 * 0.5 ms in 13 of 14 runs (10 in the other), as libgomp's, whose spinning
 * waiters do not yield either, within 0-13. But when the threads that
 * exist outnumber the CPUs, the idle ones spin too, as long as a busy
 * waiter (GOMP_SPINCOUNT's default: milliseconds), and every spinning
 * waiter yields now and then (every ILAN_SPIN_YIELD_EVERY rounds): a test
 * of 10,000 regions of 1-4 threads, each running a nested team of 2
 * (8 threads on 2 CPUs, 2-8 busy), took 33 s without those yields, 2.0 s
 * with them (libgomp 9.5 s). With more busy
 * threads than CPUs, spinning only delays the thread waited
 * for, which may be queued behind the spinner: the waiter yields at once,
 * handing its CPU over, and sleeps once the wait outlasts s->yield_ns.
 * Passive waits sleep at once; active ones never sleep (they yield every
 * round when oversubscribed). An explicit spin count (GOMP_SPINCOUNT)
 * overrides the policy, as in libgomp: the waiter spins that long, then
 * sleeps; oversubscribed (and not active) any non-zero count means
 * "yield", and 0 still means "sleep at once".
 * A yield helps only a thread queued on the waiter's own CPU: an
 * oversubscribed waiter that knows no such thread has work (it is "alone")
 * spins instead, for up to s->alone_ns (its knowledge may be stale: a
 * thread may have moved to its CPU), and so sees its event without a
 * round trip through the scheduler; not when the user asked for no spin.
 */
struct wait_plan wait_plan_for(const struct wait_settings *s, unsigned live_threads,
                               unsigned threads, unsigned cpus);

/*
 * What the threads learnt of their last yields. A yield hands the CPU to
 * another runnable thread of its CPU's queue. When that is one of ours,
 * the yield did its job, however long that thread then ran. When it is
 * another process's busy thread (outside load), the kernel lets that run
 * a whole slice (milliseconds) before the yielder runs again: a nested
 * doacross loop that hands its turn over ten thousand times took 9.4 s
 * beside two busy processes on the 2-CPU VM, against 0.9-1.1 s when its
 * waits sleep instead (libgomp 3.5 s). So a yield that comes back late
 * (ILAN_YIELD_LATE_NS) while other processes keep the process's CPUs busy
 * (load_shows_outside, over the last ILAN_LOAD_WINDOW_NS) turns every
 * thread's yields into sleeps for a hold time, which doubles with each
 * such yield in a row (up to ILAN_YIELD_HOLD_MAX_NS: one late yield per
 * hold is what watching costs) and starts again from ILAN_YIELD_HOLD_NS
 * after one that was not. Late alone is not enough: with 16 threads on
 * 2 CPUs and no other load, yields come back late all the time (the
 * team's own threads run their slices), and sleeping instead made a task
 * tree 3.5-6 times slower.
 */
struct yield_watch {
    uint64_t late_until; /* until then (ns) waits sleep instead of yielding; 0: never */
    uint64_t hold_ns;    /* what the next late yield holds yields off for (0: the least) */
};

/* Notes a yield that took `took_ns` and returned at `now`, while other
 * processes' threads were runnable (`outside`, asked only of a late
 * yield): true when it holds yields off. */
bool yield_watch_note(struct yield_watch *w, uint64_t took_ns, bool outside, uint64_t now);

/* Whether a waiter should sleep rather than yield at `now`. */
static inline bool yield_watch_late(const struct yield_watch *w, uint64_t now)
{
    return now < w->late_until;
}

/* Whether a window of `window_ns` in which the process's CPUs were busy
 * for `cpus_busy_ns` in all, `process_cpu_ns` of it this process's, saw
 * other processes' load: they used half a CPU or more on average (the
 * CPUs' figure is in clock ticks, 10 ms, hence the margin). */
static inline bool load_shows_outside(uint64_t cpus_busy_ns, uint64_t process_cpu_ns,
                                      uint64_t window_ns)
{
    return cpus_busy_ns > process_cpu_ns && 2 * (cpus_busy_ns - process_cpu_ns) >= window_ns;
}

/* Phase ph of plan p for a waiter whose yields come back late
 * (yield_watch_late): a yield becomes a sleep, unless the plan never
 * sleeps (OMP_WAIT_POLICY=active: the user chose to keep the CPU). Not a
 * spin: beside two busy processes, 4 threads on 2 CPUs that spun 30 us
 * before sleeping took 240-340 us per fork/join, 36-55 sleeping at once. */
static inline enum wait_phase wait_phase_late(const struct wait_plan *p, enum wait_phase ph)
{
    return ph == WAIT_YIELD && !p->never_sleep ? WAIT_SLEEP : ph;
}

/* What to do on round `round` (0-based) of a wait that began `elapsed_ns`
 * ago, under plan p; `alone`: no thread sharing the waiter's CPU has work
 * (only asked past the spins: false is always safe). Inline: a spinning
 * waiter asks every round. */
static inline enum wait_phase wait_phase_at(const struct wait_plan *p, unsigned round,
                                            uint64_t elapsed_ns, bool alone)
{
    if (round < p->spins) {
        /* a mask, not %: a division would slow every spin down */
        if (p->yield_every && ((round + 1) & (p->yield_every - 1)) == 0)
            return WAIT_YIELD;
        return WAIT_SPIN;
    }
    if (alone && elapsed_ns < p->alone_ns)
        return WAIT_SPIN;
    if (p->never_sleep || elapsed_ns < p->yield_ns)
        return WAIT_YIELD;
    return WAIT_SLEEP;
}

#endif
