/* mutex.c — the contended path of the runtime mutex: spin a little, then sleep. */
#include "core/mutex.h"

#include "core/wait.h"

void mutex_lock_slow(mutex_t *m)
{
    if (wait_spin_acquire(&m->state, 1))
        return;
    /* Mark the lock contended; whoever unlocks it will wake one sleeper. */
    while (atomic_exchange_explicit(&m->state, 2, memory_order_acquire) != 0)
        os_futex_wait(&m->state, 2);
}
