/* critical.c — critical sections (unnamed and named) and the global lock for non-native atomics. */
#include "abi/export.h"
#include "core/mutex.h"

/*
 * Every unnamed critical construct of the program shares one mutex; each
 * named one has its own, which gcc provides as a zero-initialized,
 * pointer-sized common variable (.gomp_critical_user_<name>) and passes by
 * address. A mutex_t is one 32-bit word, so it lives in that variable
 * itself: zero is "unlocked", and nothing is ever allocated.
 */
_Static_assert(sizeof(mutex_t) <= sizeof(void *), "a mutex fits in gcc's per-name pointer");
_Static_assert(_Alignof(mutex_t) <= _Alignof(void *), "and is aligned there");

static mutex_t critical_unnamed = MUTEX_INIT; /* the unnamed critical section */
static mutex_t critical_atomic = MUTEX_INIT;  /* atomics gcc cannot do in hardware */

ILAN_EXPORT void GOMP_critical_start(void)
{
    mutex_lock(&critical_unnamed);
}

ILAN_EXPORT void GOMP_critical_end(void)
{
    mutex_unlock(&critical_unnamed);
}

ILAN_EXPORT void GOMP_critical_name_start(void **pptr)
{
    mutex_lock((mutex_t *)(void *)pptr);
}

ILAN_EXPORT void GOMP_critical_name_end(void **pptr)
{
    mutex_unlock((mutex_t *)(void *)pptr);
}

/* gcc emits these around `#pragma omp atomic` on types it has no lock-free
 * instruction for (long double, __int128 on some targets, ...). */
ILAN_EXPORT void GOMP_atomic_start(void)
{
    mutex_lock(&critical_atomic);
}

ILAN_EXPORT void GOMP_atomic_end(void)
{
    mutex_unlock(&critical_atomic);
}
