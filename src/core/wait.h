/* wait.h — spin-then-sleep waiting on a 32-bit sequence word (the one way ilan threads wait). */
#ifndef ILAN_CORE_WAIT_H
#define ILAN_CORE_WAIT_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "instr/counters.h"
#include "os/linux/futex.h"

/*
 * A seqword is a 32-bit counter that only moves forward in steps of 2; bit 0
 * says "a thread may be sleeping on this word". Waiters spin for a while on
 * the counter, then set bit 0 and sleep on the futex; the single thread that
 * advances the counter wakes sleepers only if bit 0 was set, so the fast path
 * (nobody asleep) makes no system call. Exactly one thread may advance a
 * given seqword at a time (the barrier's last arriver, a team's master, a
 * work-share's initializer); any number may wait.
 */
#define SEQ_SLEEPERS 1u
#define SEQ_STEP 2u

typedef struct {
    _Atomic unsigned word; /* counter << 1 | SEQ_SLEEPERS */
} seqword;

/* Current counter value (bit 0 cleared). Acquire: what the advancer wrote
 * before advancing is visible once the new value is seen. */
static inline unsigned seq_read(seqword *s)
{
    return atomic_load_explicit(&s->word, memory_order_acquire) & ~SEQ_SLEEPERS;
}

/* Slow path of seq_wait_past: spin, yield, then sleep, as the current
 * wait plan says (wait_update_plan). */
void seq_wait_slow(seqword *s, unsigned seen);

/* seq_wait_slow for at most timeout_ns (0: no limit); false on time-out. */
bool seq_wait_slow_for(seqword *s, unsigned seen, uint64_t timeout_ns);

/* The spin and yield phases of the current wait plan, watching pred(arg):
 * true once it holds, false when the plan says the waiter should now
 * sleep (it then registers where a waker will see it, re-checks, and
 * calls seq_sleep). For waits on a condition of several words. */
bool wait_poll(bool (*pred)(void *), void *arg);

/* wait_poll for a waiter that can tell, oversubscribed, whether any thread
 * sharing its CPU has work: while alone(arg) says none has, it spins where
 * wait_poll would yield (sched/wait_policy.h), up to the plan's alone_ns.
 * alone may err (it reads others' CPUs as they last noted them): wrong
 * "alone" costs at most alone_ns of the other thread's time. */
bool wait_poll_alone(bool (*pred)(void *), bool (*alone)(void *), void *arg);

/* In a debug build with ILAN_DEBUG_WAIT_DELAY_US set, pauses that long:
 * called between a waiter's last look and its sleep, where a lost wake-up
 * would hide (tests force the race with it). Nothing otherwise. */
void wait_debug_delay(void);

/* Sets s's sleepers bit for a waiter that will look at its condition once
 * more and then sleep on s (seq_sleep) unless it holds: whoever moves s
 * from now on wakes it. seq_cst, to pair with its wakers' fences. */
static inline void seq_announce(seqword *s)
{
    atomic_fetch_or_explicit(&s->word, SEQ_SLEEPERS, memory_order_seq_cst);
}

/* Takes back seq_announce when the waiter will not sleep after all and s
 * still holds `seen` (a value from seq_read): a later move then makes no
 * system call. */
static inline void seq_unannounce(seqword *s, unsigned seen)
{
    unsigned w = seen | SEQ_SLEEPERS;
    atomic_compare_exchange_strong_explicit(&s->word, &w, seen, memory_order_relaxed,
                                            memory_order_relaxed);
}

/* Sleeps until the counter differs from `seen`, without spinning first. */
void seq_sleep(seqword *s, unsigned seen);

/* Returns once the counter differs from `seen` (a value from seq_read). */
static inline void seq_wait_past(seqword *s, unsigned seen)
{
    if (__builtin_expect(seq_read(s) != seen, 1))
        return;
    seq_wait_slow(s, seen);
}

/* Moves the counter from `current` (the value the caller knows it holds) to
 * the next value with release order, waking any sleepers. */
static inline void seq_advance(seqword *s, unsigned current)
{
    assert((current & SEQ_SLEEPERS) == 0 && "seq_advance takes a value from seq_read");
    unsigned old = atomic_exchange_explicit(&s->word, current + SEQ_STEP, memory_order_acq_rel);
    if (old & SEQ_SLEEPERS) {
        ILAN_COUNT(wakes);
        os_futex_wake_all(&s->word);
    }
}

/* Moves the counter one step from whatever value it holds, waking any
 * sleepers. Unlike seq_advance, any number of threads may bump the same
 * word concurrently: every bump changes the value, so no waiter that saw an
 * older value can miss it. */
static inline void seq_bump(seqword *s)
{
    unsigned old = atomic_load_explicit(&s->word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&s->word, &old, (old & ~SEQ_SLEEPERS) + SEQ_STEP,
                                                  memory_order_acq_rel, memory_order_relaxed))
        ;
    if (old & SEQ_SLEEPERS) {
        ILAN_COUNT(wakes);
        os_futex_wake_all(&s->word);
    }
}

/*
 * A tree wake-up: moves the counter one step like seq_bump, but wakes at
 * most ILAN_WAKE_FANOUT sleepers itself and leaves the rest of the
 * `sleepers` it counted (the waker's count of threads asleep on s) to
 * them, as relay tokens in *relay: every waiter of s that returns from its
 * wait passes ILAN_WAKE_FANOUT of them on (seq_relay), so the wake-ups
 * run in parallel down a tree instead of one by one in the waker's
 * futex call. The sleepers bit stays set, so that the next seq_bump
 * wakes every thread a relay missed (a sleeper the count did not see).
 * Any number of threads may call it, like seq_bump.
 */
void seq_bump_tree(seqword *s, _Atomic unsigned *relay, unsigned sleepers);

/* Slow path of seq_relay: takes up to ILAN_WAKE_FANOUT tokens and wakes
 * that many sleepers of s. */
void seq_relay_slow(seqword *s, _Atomic unsigned *relay);

/* Called by a waiter of s once its wait returned: passes on the wake-ups
 * of a tree (seq_bump_tree) still owed, if any. One load otherwise. */
static inline void seq_relay(seqword *s, _Atomic unsigned *relay)
{
    if (__builtin_expect(atomic_load_explicit(relay, memory_order_relaxed) != 0, 0))
        seq_relay_slow(s, relay);
}

/* Sets the plan every wait follows (sched/wait_policy.h) from the wait
 * policy, the spin-count knob, and the number of busy threads and of all
 * threads (busy or idle) compared with the CPUs available. Called when a
 * team forms or ends, before its threads wait (not on the hot path). */
void wait_update_plan(unsigned live_threads, unsigned threads);

/* True while there are more busy threads than CPUs: short waits should
 * then yield the CPU rather than spin. */
static inline bool wait_oversubscribed(void)
{
    extern _Atomic bool wait_plan_oversubscribed;
    return atomic_load_explicit(&wait_plan_oversubscribed, memory_order_relaxed);
}

/* Yields the CPU, timing the yield: one that comes back late (another
 * process's thread ran meanwhile) makes every thread's waits sleep
 * instead of yielding for a while (sched/wait_policy.h, struct
 * yield_watch). For waits, not for a lock whose holder must run. */
void wait_yield(void);

/* Notes the CPUs the process may use, whose load wait_yield watches (the
 * start-up mask topology keeps): once, after topo_init. */
void wait_watch_init(void);

/* Whether waits should sleep now rather than yield: a recent yield of
 * some thread came back late. */
bool wait_yields_late(void);

/* How long an oversubscribed waiter that has its CPU to itself spins
 * instead of yielding (wait_plan.alone_ns; 0: never). */
uint64_t wait_alone_ns(void);

/* The spin phase of a lock's contended path: tries to move *word from 0
 * to `value` (acquire) while spinning a bounded time: the plan's spins, at
 * most ILAN_LOCK_SPIN (a lock's holder is usually running and leaves
 * soon). True when it took the word; the caller then sleeps on it. */
bool wait_spin_acquire(_Atomic unsigned *word, unsigned value);

/* Spins with a pause, yielding periodically, until pred(arg) holds; used for
 * short waits that are never worth a futex (a work-share slot to be freed).
 * Yields immediately when oversubscribed. */
void wait_spin_until(bool (*pred)(void *), void *arg);

#endif
