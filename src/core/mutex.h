/* mutex.h — a small futex mutex for the runtime's own short critical sections. */
#ifndef ILAN_CORE_MUTEX_H
#define ILAN_CORE_MUTEX_H

#include <stdatomic.h>
#include "os/linux/futex.h"
#include "os/linux/thread.h"

/* States: 0 unlocked, 1 locked, 2 locked with possible sleepers. */
typedef struct {
    _Atomic unsigned state; /* see above */
} mutex_t;

#define MUTEX_INIT {0}

void mutex_lock_slow(mutex_t *m);

static inline void mutex_lock(mutex_t *m)
{
    unsigned expected = 0;
    if (__builtin_expect(atomic_compare_exchange_strong_explicit(
                             &m->state, &expected, 1, memory_order_acquire, memory_order_relaxed),
                         1))
        return;
    mutex_lock_slow(m);
}

static inline int mutex_trylock(mutex_t *m)
{
    unsigned expected = 0;
    return atomic_compare_exchange_strong_explicit(&m->state, &expected, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

static inline void mutex_unlock(mutex_t *m)
{
    if (atomic_exchange_explicit(&m->state, 0, memory_order_release) == 2)
        os_futex_wake(&m->state, 1);
}

#endif
