/* wait.c — the slow path of seqword waits, carrying out the wait plan of sched/wait_policy. */
#include "core/wait.h"

#include <limits.h>
#include <stdalign.h>

#include "config/env.h"
#include "config/icv.h"
#include "os/linux/load.h"
#include "os/linux/thread.h"
#include "os/linux/time.h"
#include "base/tunables.h"
#include "instr/counters.h"
#include "sched/wait_policy.h"
#include "topo/topo.h"

/* The current plan, field by field: waits read it without a lock while a
 * forming team may rewrite it, and a wait that mixes two plans' fields is
 * still a valid wait. On a line of its own: every wait reads it. */
static struct {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned spins; /* wait_plan.spins */
    _Atomic unsigned yield_every;                    /* wait_plan.yield_every */
    _Atomic uint64_t yield_ns;                       /* wait_plan.yield_ns */
    _Atomic bool never_sleep;                        /* wait_plan.never_sleep */
    _Atomic uint64_t alone_ns;                       /* wait_plan.alone_ns */
} plan_now = {ILAN_SPIN_DEFAULT, 0, 0, false, 0};
alignas(ILAN_CACHE_LINE) _Atomic bool wait_plan_oversubscribed;

/* What the process's threads learnt of their last yields and of the
 * load on its CPUs: the load that makes a yield late (another process's
 * busy threads) is the CPUs', so one thread's late yield tells them all.
 * The words are hints, read by every late yield and written about once per
 * hold or window: a race between two notes leaves one of them, which is
 * as good. */
static struct {
    alignas(ILAN_CACHE_LINE) _Atomic uint64_t late_until; /* yield_watch.late_until */
    _Atomic uint64_t hold_ns;                             /* yield_watch.hold_ns */
    _Atomic bool outside;        /* the last window saw other processes' load */
    _Atomic uint64_t window_ns;  /* when the current window began (0: none yet) */
    _Atomic uint64_t busy_ns;    /* the CPUs' busy time then (os_cpus_busy_ns) */
    _Atomic uint64_t process_ns; /* the process's CPU time then (os_process_cpu_ns) */
    const int *cpus;             /* the CPUs the process may use (wait_watch_init; NULL:
                                    unknown, no load is seen), ascending */
    int ncpus;                   /* how many */
} yields;

void wait_watch_init(void)
{
    yields.cpus = topo_startup_cpus(&yields.ncpus);
}

void wait_update_plan(unsigned live_threads, unsigned threads)
{
    struct wait_settings s = {icv_global.wait_policy, icv_global.spin_count,
                              icv_global.spin_count_set, ILAN_WAIT_YIELD_NS,
                              ILAN_WAIT_ALONE_NS};
    unsigned cpus = icv_global.num_procs ? icv_global.num_procs : 1;
    struct wait_plan p = wait_plan_for(&s, live_threads, threads, cpus);
    /* Stores only on change: every waiter reads these lines. */
    if (atomic_load_explicit(&plan_now.spins, memory_order_relaxed) != p.spins)
        atomic_store_explicit(&plan_now.spins, p.spins, memory_order_relaxed);
    if (atomic_load_explicit(&plan_now.yield_every, memory_order_relaxed) != p.yield_every)
        atomic_store_explicit(&plan_now.yield_every, p.yield_every, memory_order_relaxed);
    if (atomic_load_explicit(&plan_now.yield_ns, memory_order_relaxed) != p.yield_ns)
        atomic_store_explicit(&plan_now.yield_ns, p.yield_ns, memory_order_relaxed);
    if (atomic_load_explicit(&plan_now.never_sleep, memory_order_relaxed) != p.never_sleep)
        atomic_store_explicit(&plan_now.never_sleep, p.never_sleep, memory_order_relaxed);
    if (atomic_load_explicit(&plan_now.alone_ns, memory_order_relaxed) != p.alone_ns)
        atomic_store_explicit(&plan_now.alone_ns, p.alone_ns, memory_order_relaxed);
    bool over = live_threads > cpus;
    if (atomic_load_explicit(&wait_plan_oversubscribed, memory_order_relaxed) != over)
        atomic_store_explicit(&wait_plan_oversubscribed, over, memory_order_relaxed);
}

static struct wait_plan plan_load(void)
{
    struct wait_plan p = {
        atomic_load_explicit(&plan_now.spins, memory_order_relaxed),
        atomic_load_explicit(&plan_now.yield_every, memory_order_relaxed),
        atomic_load_explicit(&plan_now.yield_ns, memory_order_relaxed),
        atomic_load_explicit(&plan_now.never_sleep, memory_order_relaxed),
        atomic_load_explicit(&plan_now.alone_ns, memory_order_relaxed),
    };
    return p;
}

/* Whether other processes kept the process's CPUs busy over the last window
 * (ILAN_LOAD_WINDOW_NS) that ended by `now`: the window's figures are
 * read when it ends, by the late yield that finds it over (one thread:
 * the one whose CAS moves its start); a window left far behind (no late
 * yield for a while) starts again, keeping the last answer. */
static bool outside_load(uint64_t now)
{
    uint64_t start = atomic_load_explicit(&yields.window_ns, memory_order_relaxed);
    bool outside = atomic_load_explicit(&yields.outside, memory_order_relaxed);
    if (start && now - start < ILAN_LOAD_WINDOW_NS)
        return outside;
    if (!atomic_compare_exchange_strong_explicit(&yields.window_ns, &start, now,
                                                 memory_order_relaxed, memory_order_relaxed))
        return outside;
    uint64_t busy, process = os_process_cpu_ns();
    if (!yields.cpus || !os_cpus_busy_ns(yields.cpus, yields.ncpus, &busy) || !process)
        return false;
    if (start && now - start < 4 * ILAN_LOAD_WINDOW_NS) {
        outside = load_shows_outside(
            busy - atomic_load_explicit(&yields.busy_ns, memory_order_relaxed),
            process - atomic_load_explicit(&yields.process_ns, memory_order_relaxed),
            now - start);
        atomic_store_explicit(&yields.outside, outside, memory_order_relaxed);
    }
    atomic_store_explicit(&yields.busy_ns, busy, memory_order_relaxed);
    atomic_store_explicit(&yields.process_ns, process, memory_order_relaxed);
    return outside;
}

/* Counts the calling thread's yields: one in ILAN_YIELD_TIMED_EVERY is
 * timed. */
static _Thread_local unsigned yields_made;

void wait_yield(void)
{
    if (++yields_made % ILAN_YIELD_TIMED_EVERY != 0) {
        os_yield();
        return;
    }
    uint64_t before = os_now_ns();
    os_yield();
    uint64_t after = os_now_ns();
    uint64_t took = after - before;
    bool outside = took >= ILAN_YIELD_LATE_NS && outside_load(after);
    struct yield_watch w = {atomic_load_explicit(&yields.late_until, memory_order_relaxed),
                            atomic_load_explicit(&yields.hold_ns, memory_order_relaxed)};
    uint64_t hold = w.hold_ns;
    if (yield_watch_note(&w, took, outside, after)) {
        ILAN_COUNT(yields_late);
        atomic_store_explicit(&yields.late_until, w.late_until, memory_order_relaxed);
    }
    if (w.hold_ns != hold) /* stores only on change: every yielder reads the line */
        atomic_store_explicit(&yields.hold_ns, w.hold_ns, memory_order_relaxed);
}

bool wait_yields_late(void)
{
    /* No clock read while no hold is on: the first waiter to find one over
     * clears it (a later late yield sets it again). */
    uint64_t until = atomic_load_explicit(&yields.late_until, memory_order_relaxed);
    if (!until)
        return false;
    struct yield_watch w = {until, 0};
    if (yield_watch_late(&w, os_now_ns()))
        return true;
    atomic_compare_exchange_strong_explicit(&yields.late_until, &until, 0, memory_order_relaxed,
                                            memory_order_relaxed);
    return false;
}

uint64_t wait_alone_ns(void)
{
    return atomic_load_explicit(&plan_now.alone_ns, memory_order_relaxed);
}

void seq_wait_slow(seqword *s, unsigned seen)
{
    /* Most waits with a CPU per thread end within a few hundred pauses
     * (an ordered hand-off, a barrier): watch the word alone first, without
     * reading the plan or the clock. */
    if (!atomic_load_explicit(&wait_plan_oversubscribed, memory_order_relaxed)) {
        unsigned quick = atomic_load_explicit(&plan_now.spins, memory_order_relaxed);
        if (quick > ILAN_SPIN_QUICK)
            quick = ILAN_SPIN_QUICK;
        for (unsigned i = 0; i < quick; i++) {
            if (seq_read(s) != seen) {
                ILAN_COUNT(waits_spun);
                return;
            }
            os_cpu_relax();
        }
    }
    seq_wait_slow_for(s, seen, 0);
}

/* The spin and yield phases of a wait (everything before the sleep): true
 * once pred(arg) holds, false when the plan says to sleep or the wait is
 * timeout_ns old (0: no limit). *start is the wait's start time (0 until
 * the clock was read). alone(arg) (NULL: never) says no thread sharing the
 * waiter's CPU has work; asked only where the plan would yield. */
static inline __attribute__((always_inline)) bool
wait_poll_for(bool (*pred)(void *), bool (*alone)(void *), void *arg, uint64_t timeout_ns,
              uint64_t *start)
{
    struct wait_plan plan = plan_load();
    uint64_t elapsed = 0;
    bool yielded = false, kept = false; /* kept: spun at least once while alone */
    for (unsigned round = 0;; round++) {
        if (pred(arg)) {
            ILAN_COUNT_IF(yielded, waits_yielded, waits_spun);
            if (kept)
                ILAN_COUNT(waits_alone);
            return true;
        }
        /* The clock is read only once the wait may yield or time out. */
        if (round >= plan.spins || (timeout_ns && (round + 1) % ILAN_SPIN_YIELD_EVERY == 0)) {
            uint64_t now = os_now_ns();
            if (!*start)
                *start = now;
            elapsed = now - *start;
            if (timeout_ns && elapsed >= timeout_ns)
                return false;
        }
        bool lone = alone && round >= plan.spins && elapsed < plan.alone_ns && alone(arg);
        kept |= lone;
        enum wait_phase phase = wait_phase_at(&plan, round, elapsed, lone);
        if (phase == WAIT_YIELD && wait_yields_late())
            phase = wait_phase_late(&plan, phase);
        if (phase == WAIT_SLEEP) {
            ILAN_COUNT(waits_slept);
            return false;
        }
        if (phase == WAIT_YIELD) {
            wait_yield();
            yielded = true;
        } else {
            os_cpu_relax();
        }
    }
}

bool wait_poll(bool (*pred)(void *), void *arg)
{
    uint64_t start = 0;
    return wait_poll_for(pred, NULL, arg, 0, &start);
}

bool wait_poll_alone(bool (*pred)(void *), bool (*alone)(void *), void *arg)
{
    uint64_t start = 0;
    return wait_poll_for(pred, alone, arg, 0, &start);
}

/* wait_poll's predicate for a seqword wait. */
struct seq_past {
    seqword *s;    /* the word */
    unsigned seen; /* the value it must move past */
};

static bool seq_moved(void *arg)
{
    struct seq_past *p = arg;
    return seq_read(p->s) != p->seen;
}

void wait_debug_delay(void)
{
#ifndef NDEBUG
    if (config.debug_wait_delay_us)
        os_sleep_ns((uint64_t)config.debug_wait_delay_us * 1000u);
#endif
}

/* Sleeps until the counter moves past `seen` or `deadline` (0: none). */
static bool seq_sleep_until(seqword *s, unsigned seen, uint64_t deadline)
{
    for (;;) {
        unsigned w = atomic_load_explicit(&s->word, memory_order_acquire);
        if ((w & ~SEQ_SLEEPERS) != seen)
            return true;
        wait_debug_delay(); /* the waker may move the word now: the CAS below must see it */
        if (!(w & SEQ_SLEEPERS) &&
            !atomic_compare_exchange_weak_explicit(&s->word, &w, w | SEQ_SLEEPERS,
                                                   memory_order_acq_rel, memory_order_acquire))
            continue; /* the word moved under us: re-check */
        if (!deadline) {
            ILAN_SLEEP(os_futex_wait(&s->word, seen | SEQ_SLEEPERS));
            continue;
        }
        uint64_t now = os_now_ns();
        if (now >= deadline)
            return false;
        ILAN_SLEEP(os_futex_wait_for(&s->word, seen | SEQ_SLEEPERS, (unsigned long)(deadline - now)));
    }
}

void seq_sleep(seqword *s, unsigned seen)
{
    seq_sleep_until(s, seen, 0);
}

bool seq_wait_slow_for(seqword *s, unsigned seen, uint64_t timeout_ns)
{
    uint64_t start = timeout_ns ? os_now_ns() : 0;
    struct seq_past past = {s, seen};
    if (wait_poll_for(seq_moved, NULL, &past, timeout_ns, &start))
        return true;
    return seq_sleep_until(s, seen, timeout_ns ? start + timeout_ns : 0);
}

/* A tree's relay word: tokens still to pass on in the low 16 bits, the
 * tree's generation above them (so that dropping an ended tree's stale
 * tokens never drops a newer tree's). */
#define RELAY_TOKENS 0xffffu

void seq_bump_tree(seqword *s, _Atomic unsigned *relay, unsigned sleepers)
{
    unsigned own = sleepers < ILAN_WAKE_FANOUT ? sleepers : ILAN_WAKE_FANOUT;
    /* The tokens first (a thread the bump wakes must find them), replacing
     * an older tree's: `sleepers` counts the threads that tree left asleep. */
    if (sleepers > own) {
        unsigned rest = sleepers - own < RELAY_TOKENS ? sleepers - own : RELAY_TOKENS;
        unsigned r = atomic_load_explicit(relay, memory_order_relaxed);
        while (!atomic_compare_exchange_weak_explicit(
            relay, &r, ((r & ~RELAY_TOKENS) + RELAY_TOKENS + 1) | rest, memory_order_relaxed,
            memory_order_relaxed))
            ;
    }
    unsigned old = atomic_load_explicit(&s->word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&s->word, &old, old + SEQ_STEP,
                                                  memory_order_acq_rel, memory_order_relaxed))
        ;
    if (old & SEQ_SLEEPERS) {
        ILAN_COUNT(wakes);
        (void)os_futex_wake(&s->word, own ? (int)own : INT_MAX);
    }
}

void seq_relay_slow(seqword *s, _Atomic unsigned *relay)
{
    unsigned r = atomic_load_explicit(relay, memory_order_relaxed), take;
    do {
        if ((r & RELAY_TOKENS) == 0)
            return;
        take = (r & RELAY_TOKENS) < ILAN_WAKE_FANOUT ? (r & RELAY_TOKENS) : ILAN_WAKE_FANOUT;
    } while (!atomic_compare_exchange_weak_explicit(relay, &r, r - take, memory_order_relaxed,
                                                    memory_order_relaxed));
    ILAN_COUNT(wakes);
    /* Nobody left asleep: this tree's remaining tokens are stale (its count
     * saw threads that had not gone to sleep yet, or that a wake-all
     * reached first); dropped unless a newer tree has replaced them. */
    unsigned left = r - take;
    if (os_futex_wake(&s->word, (int)take) == 0 && (left & RELAY_TOKENS))
        atomic_compare_exchange_strong_explicit(relay, &left, left & ~RELAY_TOKENS,
                                                memory_order_relaxed, memory_order_relaxed);
}

void wait_spin_until(bool (*pred)(void *), void *arg)
{
    for (unsigned i = 0; !pred(arg); i++) {
        if (wait_oversubscribed() || (i + 1) % 64 == 0)
            os_yield();
        else
            os_cpu_relax();
    }
}

bool wait_spin_acquire(_Atomic unsigned *word, unsigned value)
{
    unsigned budget = atomic_load_explicit(&plan_now.spins, memory_order_relaxed);
    if (budget > ILAN_LOCK_SPIN)
        budget = ILAN_LOCK_SPIN;
    for (unsigned i = 0; i < budget; i++) {
        unsigned expected = 0;
        if (atomic_load_explicit(word, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(word, &expected, value, memory_order_acquire,
                                                  memory_order_relaxed))
            return true;
        os_cpu_relax();
    }
    return false;
}
