/* mutex.c — the contended path of the runtime mutex: spin a little, then sleep. */
#include "core/mutex.h"

#include "core/wait.h"

void mutex_lock_slow(mutex_t *m)
{
    unsigned budget = atomic_load_explicit(&wait_spin_budget, memory_order_relaxed);
    if (budget > 4096)
        budget = 4096;
    for (unsigned i = 0; i < budget; i++) {
        unsigned expected = 0;
        if (atomic_load_explicit(&m->state, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_weak_explicit(&m->state, &expected, 1, memory_order_acquire,
                                                  memory_order_relaxed))
            return;
        os_cpu_relax();
    }
    /* Mark the lock contended; whoever unlocks it will wake one sleeper. */
    while (atomic_exchange_explicit(&m->state, 2, memory_order_acquire) != 0)
        os_futex_wait(&m->state, 2);
}
