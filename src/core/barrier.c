/* barrier.c — the team barrier's arrival and release protocol, tasking-aware. */
#include "core/barrier.h"

#include <assert.h>
#include "base/fence.h"

void barrier_init(struct barrier *b, unsigned n)
{
    assert(n > 0);
    assert(atomic_load_explicit(&b->task_pending, memory_order_relaxed) == 0 &&
           "a region began with tasks of the previous one pending");
    assert(atomic_load_explicit(&b->task_hungry, memory_order_relaxed) == 0 &&
           "a thread of the previous region is still counted as waiting for a task");
    b->nthreads = n;
    atomic_store_explicit(&b->remaining, n, memory_order_relaxed);
    atomic_store_explicit(&b->cancelled, false, memory_order_relaxed);
    atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
}

/*
 * Release. `remaining` reaches 0 when the last thread arrives; then the
 * round may be released only once no task is pending, and several threads
 * may see both conditions at once (the last arriver, a thread running
 * tasks that completed the last one, a sleeper woken by that completion).
 * The CAS of `remaining` from 0 back to nthreads elects one releaser. A
 * thread that sees remaining == 0 while its own round is not released knows
 * that 0 belongs to its round: the next round cannot complete without it.
 * The releaser bumps `release` rather than setting it to round + 1 because
 * a concurrent barrier_cancel may have bumped it already: every bump must
 * change the word, or a thread that saw the cancel's value would sleep on.
 */
bool barrier_try_release(struct barrier *b)
{
    if (atomic_load_explicit(&b->remaining, memory_order_acquire) != 0 ||
        atomic_load_explicit(&b->task_pending, memory_order_acquire) != 0)
        return false;
    unsigned zero = 0;
    if (!atomic_compare_exchange_strong_explicit(&b->remaining, &zero, b->nthreads,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return false;
    if (atomic_load_explicit(&b->loop_cancelled, memory_order_relaxed))
        atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
    seq_bump(&b->release);
    barrier_wake_idle(b); /* waiters sleep on the work word */
    return true;
}

void barrier_cancel(struct barrier *b)
{
    bool expected = false;
    if (!atomic_compare_exchange_strong_explicit(&b->cancelled, &expected, true,
                                                 memory_order_acq_rel, memory_order_acquire))
        return;
    /* Release the waiters of the current round. The round's counter is not
     * reset: after cancellation no cancellable wait counts arrivals again,
     * and the team's next region re-initializes the barrier. Tasks still
     * pending are discarded as threads meet them (task_execute) and drained
     * at the region's end. */
    seq_bump(&b->release);
    barrier_wake_idle(b);
}

void barrier_wake_idle(struct barrier *b)
{
    /* Pairs with the fence in task_wait_until's sleep path (Dekker): either
     * we see the sleeper's count, or it sees what we published. */
    ilan_fence_seq_cst();
    if (atomic_load_explicit(&b->task_sleepers, memory_order_relaxed))
        seq_bump(&b->task_work);
}

void barrier_wake_idle_tree(struct barrier *b)
{
    ilan_fence_seq_cst(); /* as in barrier_wake_idle */
    unsigned sleepers = atomic_load_explicit(&b->task_sleepers, memory_order_relaxed);
    if (sleepers)
        seq_bump_tree(&b->task_work, &b->task_relay, sleepers);
}
