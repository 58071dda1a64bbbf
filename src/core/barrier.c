/* barrier.c — the team barrier's arrival and release protocol. */
#include "core/barrier.h"

#include <assert.h>

void barrier_init(struct barrier *b, unsigned n)
{
    assert(n > 0);
    b->nthreads = n;
    atomic_store_explicit(&b->remaining, n, memory_order_relaxed);
    atomic_store_explicit(&b->cancelled, false, memory_order_relaxed);
    atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
}

/* Arrives; the last arriver (returns true) has already released the round.
 * It bumps `release` rather than setting it to round + 1 because a
 * concurrent barrier_cancel may have bumped it already: every bump must
 * change the word, or a thread that saw the cancel's value would sleep on. */
static inline bool barrier_arrive(struct barrier *b)
{
    if (atomic_fetch_sub_explicit(&b->remaining, 1, memory_order_acq_rel) == 1) {
        atomic_store_explicit(&b->remaining, b->nthreads, memory_order_relaxed);
        if (atomic_load_explicit(&b->loop_cancelled, memory_order_relaxed))
            atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
        seq_bump(&b->release);
        return true;
    }
    return false;
}

void barrier_wait(struct barrier *b)
{
    unsigned round = seq_read(&b->release);
    if (!barrier_arrive(b))
        seq_wait_past(&b->release, round);
}

bool barrier_wait_cancellable(struct barrier *b)
{
    if (atomic_load_explicit(&b->cancelled, memory_order_acquire))
        return true;
    unsigned round = seq_read(&b->release);
    if (!barrier_arrive(b))
        seq_wait_past(&b->release, round);
    return atomic_load_explicit(&b->cancelled, memory_order_acquire);
}

void barrier_cancel(struct barrier *b)
{
    bool expected = false;
    if (!atomic_compare_exchange_strong_explicit(&b->cancelled, &expected, true,
                                                 memory_order_acq_rel, memory_order_acquire))
        return;
    /* Release the waiters of the current round. The round's counter is not
     * reset: after cancellation no cancellable wait counts arrivals again,
     * and the team's next region re-initializes the barrier. */
    seq_bump(&b->release);
}
