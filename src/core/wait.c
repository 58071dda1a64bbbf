/* wait.c — the slow path of seqword waits and the spin budget policy. */
#include "core/wait.h"

#include "config/icv.h"
#include "os/linux/thread.h"
#include "os/linux/time.h"
#include "base/tunables.h"

_Atomic unsigned wait_spin_budget = ILAN_SPIN_DEFAULT;

/* Passive waits never spin and active ones never sleep, unless a spin count
 * was given explicitly (it overrides the policy, as GOMP_SPINCOUNT does in
 * libgomp). Except under an active policy, oversubscription caps the count:
 * spinning then only delays the thread being waited for. */
unsigned wait_spin_budget_for(int wait_policy, unsigned spin_count, bool spin_count_set,
                              unsigned live_threads, unsigned cpus)
{
    if (!spin_count_set && wait_policy == 0)
        return 0;
    if (!spin_count_set && wait_policy == 1)
        return ILAN_SPIN_ACTIVE;
    if (wait_policy != 1 && live_threads > cpus && spin_count > ILAN_SPIN_OVERSUBSCRIBED)
        return ILAN_SPIN_OVERSUBSCRIBED;
    return spin_count;
}

void wait_update_spin_budget(unsigned live_threads)
{
    unsigned budget = wait_spin_budget_for(icv_global.wait_policy, icv_global.spin_count,
                                       icv_global.spin_count_set, live_threads,
                                       icv_global.num_procs ? icv_global.num_procs : 1);
    if (budget != atomic_load_explicit(&wait_spin_budget, memory_order_relaxed)) /* keep the line clean */
        atomic_store_explicit(&wait_spin_budget, budget, memory_order_relaxed);
}

void seq_wait_slow(seqword *s, unsigned seen)
{
    seq_wait_slow_for(s, seen, 0);
}

bool seq_wait_slow_for(seqword *s, unsigned seen, uint64_t timeout_ns)
{
    uint64_t deadline = timeout_ns ? os_now_ns() + timeout_ns : 0;
    unsigned budget = atomic_load_explicit(&wait_spin_budget, memory_order_relaxed);
    for (unsigned i = 0; i < budget; i++) {
        if (seq_read(s) != seen)
            return true;
        if ((i + 1) % ILAN_SPIN_YIELD_EVERY == 0) {
            /* The spin alone can outlast a short time-out. */
            if (deadline && os_now_ns() >= deadline)
                return false;
            os_yield();
        } else {
            os_cpu_relax();
        }
    }
    for (;;) {
        unsigned w = atomic_load_explicit(&s->word, memory_order_acquire);
        if ((w & ~SEQ_SLEEPERS) != seen)
            return true;
        if (!(w & SEQ_SLEEPERS) &&
            !atomic_compare_exchange_weak_explicit(&s->word, &w, w | SEQ_SLEEPERS,
                                                   memory_order_acq_rel, memory_order_acquire))
            continue; /* the word moved under us: re-check */
        if (!deadline) {
            os_futex_wait(&s->word, seen | SEQ_SLEEPERS);
            continue;
        }
        uint64_t now = os_now_ns();
        if (now >= deadline)
            return false;
        os_futex_wait_for(&s->word, seen | SEQ_SLEEPERS, (unsigned long)(deadline - now));
    }
}

void wait_spin_until(bool (*pred)(void *), void *arg)
{
    for (unsigned i = 0; !pred(arg); i++) {
        if (atomic_load_explicit(&wait_spin_budget, memory_order_relaxed) <= ILAN_SPIN_OVERSUBSCRIBED || (i + 1) % 64 == 0)
            os_yield();
        else
            os_cpu_relax();
    }
}

bool wait_spin_acquire(_Atomic unsigned *word, unsigned value)
{
    unsigned budget = atomic_load_explicit(&wait_spin_budget, memory_order_relaxed);
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
