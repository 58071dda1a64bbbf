/* wait.c — the slow path of seqword waits, carrying out the wait plan of sched/wait_policy. */
#include "core/wait.h"

#include "config/icv.h"
#include "os/linux/thread.h"
#include "os/linux/time.h"
#include "base/tunables.h"
#include "sched/wait_policy.h"

/* The current plan, field by field: waits read it without a lock while a
 * forming team may rewrite it, and a wait that mixes two plans' fields is
 * still a valid wait. */
static _Atomic unsigned plan_spins = ILAN_SPIN_DEFAULT;
static _Atomic unsigned plan_yield_every = ILAN_SPIN_YIELD_EVERY;
static _Atomic uint64_t plan_yield_ns;
static _Atomic bool plan_never_sleep;
_Atomic bool wait_plan_oversubscribed;

void wait_update_plan(unsigned live_threads)
{
    struct wait_settings s = {icv_global.wait_policy, icv_global.spin_count,
                              icv_global.spin_count_set, ILAN_WAIT_YIELD_NS};
    unsigned cpus = icv_global.num_procs ? icv_global.num_procs : 1;
    struct wait_plan p = wait_plan_for(&s, live_threads, cpus);
    /* Stores only on change: every waiter reads these lines. */
    if (atomic_load_explicit(&plan_spins, memory_order_relaxed) != p.spins)
        atomic_store_explicit(&plan_spins, p.spins, memory_order_relaxed);
    if (atomic_load_explicit(&plan_yield_every, memory_order_relaxed) != p.yield_every)
        atomic_store_explicit(&plan_yield_every, p.yield_every, memory_order_relaxed);
    if (atomic_load_explicit(&plan_yield_ns, memory_order_relaxed) != p.yield_ns)
        atomic_store_explicit(&plan_yield_ns, p.yield_ns, memory_order_relaxed);
    if (atomic_load_explicit(&plan_never_sleep, memory_order_relaxed) != p.never_sleep)
        atomic_store_explicit(&plan_never_sleep, p.never_sleep, memory_order_relaxed);
    bool over = live_threads > cpus;
    if (atomic_load_explicit(&wait_plan_oversubscribed, memory_order_relaxed) != over)
        atomic_store_explicit(&wait_plan_oversubscribed, over, memory_order_relaxed);
}

static struct wait_plan plan_load(void)
{
    struct wait_plan p = {
        atomic_load_explicit(&plan_spins, memory_order_relaxed),
        atomic_load_explicit(&plan_yield_every, memory_order_relaxed),
        atomic_load_explicit(&plan_yield_ns, memory_order_relaxed),
        atomic_load_explicit(&plan_never_sleep, memory_order_relaxed),
    };
    return p;
}

void seq_wait_slow(seqword *s, unsigned seen)
{
    seq_wait_slow_for(s, seen, 0);
}

bool seq_wait_slow_for(seqword *s, unsigned seen, uint64_t timeout_ns)
{
    struct wait_plan plan = plan_load();
    uint64_t start = timeout_ns ? os_now_ns() : 0, elapsed = 0;
    for (unsigned round = 0;; round++) {
        if (seq_read(s) != seen)
            return true;
        /* The clock is read only once the wait may yield or time out. */
        if (round >= plan.spins || (timeout_ns && (round + 1) % ILAN_SPIN_YIELD_EVERY == 0)) {
            uint64_t now = os_now_ns();
            if (!start)
                start = now;
            elapsed = now - start;
            if (timeout_ns && elapsed >= timeout_ns)
                return false;
        }
        enum wait_phase phase = wait_phase_at(&plan, round, elapsed);
        if (phase == WAIT_SLEEP)
            break;
        if (phase == WAIT_YIELD)
            os_yield();
        else
            os_cpu_relax();
    }
    uint64_t deadline = timeout_ns ? start + timeout_ns : 0;
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
        if (wait_oversubscribed() || (i + 1) % 64 == 0)
            os_yield();
        else
            os_cpu_relax();
    }
}

bool wait_spin_acquire(_Atomic unsigned *word, unsigned value)
{
    unsigned budget = atomic_load_explicit(&plan_spins, memory_order_relaxed);
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
