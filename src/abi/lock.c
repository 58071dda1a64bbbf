/* lock.c — the OpenMP lock API (simple and nestable locks, C and Fortran, OMP_3.0 and OMP_1.0 ABIs). */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "abi/export.h"
#include "base/omp_types.h"
#include "core/mutex.h"
#include "core/task.h"
#include "core/thread.h"
#include "core/wait.h"
#include "os/linux/affinity.h"
#include "os/linux/futex.h"
#include "os/linux/thread.h"

/*
 * Layouts. The lock lives inside the user's object (no allocation), so it
 * must fit the opaque types of gcc 12's omp.h:
 *
 *   omp_lock_t (4 bytes)       = a core/mutex.h futex mutex (one 32-bit word).
 *   omp_nest_lock_t (16 bytes) = { mutex, count, owner } below.
 *
 * gcc 12 binaries bind the lock routines at OMP_3.0. Binaries linked against
 * the OpenMP 2.5 libgomp bind them at OMP_1.0, where omp_nest_lock_t was
 * { int owner_tid; int count; } (8 bytes) and the simple lock was already the
 * same futex word; both versions are exported with .symver, as libgomp does.
 * The Fortran entry points (omp_*_lock_) take a pointer to the Fortran lock
 * variable; gfortran's omp_lock_kind (4) and omp_nest_lock_kind (16) hold
 * the C lock itself, so they are the same routines (libgomp's
 * OMP_LOCK_DIRECT / OMP_NEST_LOCK_DIRECT case).
 *
 * Internal names carry the `lock_` prefix and stay out of the version
 * script's `ilan_*` glob; only the .symver'd names are exported.
 */

/* The OpenMP 3.0 nestable lock. */
struct nest_lock {
    mutex_t mutex;         /* held while some task owns the lock */
    int count;             /* nesting depth; written only by the owner */
    _Atomic(void *) owner; /* owning task, NULL when free; see lock_owner_id */
};

/* The OpenMP 2.5 (OMP_1.0) nestable lock. */
struct nest_lock_25 {
    _Atomic unsigned owner; /* owner's OS thread id | NEST25_WAITERS, 0 when free */
    int count;              /* nesting depth; written only by the owner */
};

_Static_assert(sizeof(mutex_t) <= sizeof(omp_lock_t), "mutex must fit omp_lock_t");
_Static_assert(_Alignof(mutex_t) <= _Alignof(omp_lock_t), "mutex alignment");
_Static_assert(sizeof(struct nest_lock) <= sizeof(omp_nest_lock_t), "nest lock must fit");
_Static_assert(_Alignof(struct nest_lock) <= _Alignof(omp_nest_lock_t), "nest lock alignment");
_Static_assert(sizeof(struct nest_lock_25) == 8, "OMP_1.0 nest lock is two ints");

/* Identity of the owner of a nestable lock. OpenMP says locks are owned by
 * tasks, not threads: a nest lock set by one task is not re-entered by
 * another task that happens to run on the same thread. */
static inline void *lock_owner_id(void)
{
    return task_current_stable();
}

static inline mutex_t *lock_mutex(omp_lock_t *l)
{
    return (mutex_t *)(void *)l;
}

static inline struct nest_lock *lock_nest(omp_nest_lock_t *l)
{
    return (struct nest_lock *)(void *)l;
}

/* ---- OMP_3.0 simple locks ------------------------------------------- */

ILAN_EXPORT void lock_init_30(omp_lock_t *l)
{
    atomic_init(&lock_mutex(l)->state, 0);
}

ILAN_EXPORT void lock_init_with_hint(omp_lock_t *l, omp_sync_hint_t hint)
{
    (void)hint; /* hints are advisory; one futex mutex serves them all */
    lock_init_30(l);
}

ILAN_EXPORT void lock_destroy_30(omp_lock_t *l)
{
    (void)l; /* nothing allocated */
}

ILAN_EXPORT void lock_set_30(omp_lock_t *l)
{
    mutex_lock(lock_mutex(l));
}

ILAN_EXPORT void lock_unset_30(omp_lock_t *l)
{
    mutex_unlock(lock_mutex(l));
}

ILAN_EXPORT int lock_test_30(omp_lock_t *l)
{
    return mutex_trylock(lock_mutex(l)) ? 1 : 0;
}

/* ---- OMP_3.0 nestable locks ----------------------------------------- */

ILAN_EXPORT void lock_init_nest_30(omp_nest_lock_t *l)
{
    struct nest_lock *n = lock_nest(l);
    memset(l, 0, sizeof *l);
    atomic_init(&n->mutex.state, 0);
    atomic_init(&n->owner, NULL);
}

ILAN_EXPORT void lock_init_nest_with_hint(omp_nest_lock_t *l, omp_sync_hint_t hint)
{
    (void)hint;
    lock_init_nest_30(l);
}

ILAN_EXPORT void lock_destroy_nest_30(omp_nest_lock_t *l)
{
    (void)l;
}

ILAN_EXPORT void lock_set_nest_30(omp_nest_lock_t *l)
{
    struct nest_lock *n = lock_nest(l);
    void *me = lock_owner_id();
    /* Only the owner can find its own id here, so a relaxed read suffices:
     * any other value (NULL or another owner) means "not mine". */
    if (atomic_load_explicit(&n->owner, memory_order_relaxed) != me) {
        mutex_lock(&n->mutex);
        atomic_store_explicit(&n->owner, me, memory_order_relaxed);
        n->count = 0;
    }
    n->count++;
}

ILAN_EXPORT void lock_unset_nest_30(omp_nest_lock_t *l)
{
    struct nest_lock *n = lock_nest(l);
    if (--n->count == 0) {
        atomic_store_explicit(&n->owner, NULL, memory_order_relaxed);
        mutex_unlock(&n->mutex);
    }
}

ILAN_EXPORT int lock_test_nest_30(omp_nest_lock_t *l)
{
    struct nest_lock *n = lock_nest(l);
    void *me = lock_owner_id();
    if (atomic_load_explicit(&n->owner, memory_order_relaxed) == me)
        return ++n->count;
    if (!mutex_trylock(&n->mutex))
        return 0;
    atomic_store_explicit(&n->owner, me, memory_order_relaxed);
    n->count = 1;
    return 1;
}

/* ---- OMP_1.0 (OpenMP 2.5) nestable locks ------------------------------ */

/* Set in the owner word when a thread may sleep on it. OS thread ids are
 * below 2^30 (PID_MAX_LIMIT is 2^22), so the bit is free. */
#define NEST25_WAITERS 0x80000000u

static __thread unsigned lock_tid_cache __attribute__((tls_model("initial-exec"))); /* this thread's OS id, 0 until first asked */

static unsigned lock_tid(void)
{
    unsigned tid = lock_tid_cache;
    if (__builtin_expect(tid == 0, 0))
        lock_tid_cache = tid = (unsigned)os_thread_native_id();
    return tid;
}

static struct nest_lock_25 *lock_nest_25(void *l)
{
    return (struct nest_lock_25 *)l;
}

ILAN_EXPORT void lock_init_nest_25(void *l)
{
    struct nest_lock_25 *n = lock_nest_25(l);
    atomic_init(&n->owner, 0);
    n->count = 0;
}

ILAN_EXPORT void lock_destroy_nest_25(void *l)
{
    (void)l;
}

/* Contended path: spin on the owner word, then mark it and sleep, the way
 * core/mutex.c does for the simple lock. Returns with the lock owned by
 * `tid` (count not yet set). */
static void lock_set_nest_25_slow(struct nest_lock_25 *n, unsigned tid)
{
    if (wait_spin_acquire(&n->owner, tid))
        return;
    for (;;) {
        unsigned cur = atomic_load_explicit(&n->owner, memory_order_relaxed);
        if (cur == 0) {
            /* Take it with the waiters bit set: others may still sleep. */
            if (atomic_compare_exchange_weak_explicit(&n->owner, &cur, tid | NEST25_WAITERS,
                                                      memory_order_acquire, memory_order_relaxed))
                return;
            continue;
        }
        if (!(cur & NEST25_WAITERS) &&
            !atomic_compare_exchange_weak_explicit(&n->owner, &cur, cur | NEST25_WAITERS,
                                                   memory_order_relaxed, memory_order_relaxed))
            continue;
        os_futex_wait(&n->owner, cur | NEST25_WAITERS);
    }
}

ILAN_EXPORT void lock_set_nest_25(void *l)
{
    struct nest_lock_25 *n = lock_nest_25(l);
    unsigned tid = lock_tid(), cur = 0;
    if (atomic_compare_exchange_strong_explicit(&n->owner, &cur, tid, memory_order_acquire,
                                                memory_order_relaxed)) {
        n->count = 1;
        return;
    }
    if ((cur & ~NEST25_WAITERS) == tid) {
        n->count++;
        return;
    }
    lock_set_nest_25_slow(n, tid);
    n->count = 1;
}

ILAN_EXPORT void lock_unset_nest_25(void *l)
{
    struct nest_lock_25 *n = lock_nest_25(l);
    if (--n->count == 0 &&
        (atomic_exchange_explicit(&n->owner, 0, memory_order_release) & NEST25_WAITERS))
        os_futex_wake(&n->owner, 1);
}

ILAN_EXPORT int lock_test_nest_25(void *l)
{
    struct nest_lock_25 *n = lock_nest_25(l);
    unsigned tid = lock_tid(), cur = 0;
    if (atomic_compare_exchange_strong_explicit(&n->owner, &cur, tid, memory_order_acquire,
                                                memory_order_relaxed)) {
        n->count = 1;
        return 1;
    }
    if ((cur & ~NEST25_WAITERS) == tid)
        return ++n->count;
    return 0;
}

/* The OMP_1.0 simple lock had the same one-word layout: same routines,
 * under a second name that the OMP_1.0 version can be attached to. */
#define LOCK_ALIAS(name, target) __typeof__(target) name __attribute__((alias(#target)))
ILAN_EXPORT LOCK_ALIAS(lock_init_25, lock_init_30);
ILAN_EXPORT LOCK_ALIAS(lock_destroy_25, lock_destroy_30);
ILAN_EXPORT LOCK_ALIAS(lock_set_25, lock_set_30);
ILAN_EXPORT LOCK_ALIAS(lock_unset_25, lock_unset_30);
ILAN_EXPORT LOCK_ALIAS(lock_test_25, lock_test_30);

/* Fortran: the lock variable is the C lock (see the top of the file); the
 * Fortran names get their own aliases because one symbol can carry only one
 * version of each name. */
ILAN_EXPORT LOCK_ALIAS(lock_f_init_30, lock_init_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_destroy_30, lock_destroy_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_set_30, lock_set_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_unset_30, lock_unset_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_test_30, lock_test_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_init_nest_30, lock_init_nest_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_destroy_nest_30, lock_destroy_nest_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_set_nest_30, lock_set_nest_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_unset_nest_30, lock_unset_nest_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_test_nest_30, lock_test_nest_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_init_25, lock_init_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_destroy_25, lock_destroy_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_set_25, lock_set_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_unset_25, lock_unset_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_test_25, lock_test_30);
ILAN_EXPORT LOCK_ALIAS(lock_f_init_nest_25, lock_init_nest_25);
ILAN_EXPORT LOCK_ALIAS(lock_f_destroy_nest_25, lock_destroy_nest_25);
ILAN_EXPORT LOCK_ALIAS(lock_f_set_nest_25, lock_set_nest_25);
ILAN_EXPORT LOCK_ALIAS(lock_f_unset_nest_25, lock_unset_nest_25);
ILAN_EXPORT LOCK_ALIAS(lock_f_test_nest_25, lock_test_nest_25);

/* Version bindings: name@@OMP_3.0 is the default a new link gets;
 * name@OMP_1.0 serves binaries linked against the OpenMP 2.5 library. */
#define LOCK_SYMVER(impl, name, ver) __asm__(".symver " #impl ", " #name ver)
LOCK_SYMVER(lock_init_30, omp_init_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_destroy_30, omp_destroy_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_set_30, omp_set_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_unset_30, omp_unset_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_test_30, omp_test_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_init_nest_30, omp_init_nest_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_destroy_nest_30, omp_destroy_nest_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_set_nest_30, omp_set_nest_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_unset_nest_30, omp_unset_nest_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_test_nest_30, omp_test_nest_lock, "@@OMP_3.0");
LOCK_SYMVER(lock_init_25, omp_init_lock, "@OMP_1.0");
LOCK_SYMVER(lock_destroy_25, omp_destroy_lock, "@OMP_1.0");
LOCK_SYMVER(lock_set_25, omp_set_lock, "@OMP_1.0");
LOCK_SYMVER(lock_unset_25, omp_unset_lock, "@OMP_1.0");
LOCK_SYMVER(lock_test_25, omp_test_lock, "@OMP_1.0");
LOCK_SYMVER(lock_init_nest_25, omp_init_nest_lock, "@OMP_1.0");
LOCK_SYMVER(lock_destroy_nest_25, omp_destroy_nest_lock, "@OMP_1.0");
LOCK_SYMVER(lock_set_nest_25, omp_set_nest_lock, "@OMP_1.0");
LOCK_SYMVER(lock_unset_nest_25, omp_unset_nest_lock, "@OMP_1.0");
LOCK_SYMVER(lock_test_nest_25, omp_test_nest_lock, "@OMP_1.0");
LOCK_SYMVER(lock_f_init_30, omp_init_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_destroy_30, omp_destroy_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_set_30, omp_set_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_unset_30, omp_unset_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_test_30, omp_test_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_init_nest_30, omp_init_nest_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_destroy_nest_30, omp_destroy_nest_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_set_nest_30, omp_set_nest_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_unset_nest_30, omp_unset_nest_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_test_nest_30, omp_test_nest_lock_, "@@OMP_3.0");
LOCK_SYMVER(lock_f_init_25, omp_init_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_destroy_25, omp_destroy_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_set_25, omp_set_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_unset_25, omp_unset_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_test_25, omp_test_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_init_nest_25, omp_init_nest_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_destroy_nest_25, omp_destroy_nest_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_set_nest_25, omp_set_nest_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_unset_nest_25, omp_unset_nest_lock_, "@OMP_1.0");
LOCK_SYMVER(lock_f_test_nest_25, omp_test_nest_lock_, "@OMP_1.0");

/* OpenMP 4.5 hinted initialization: declared by gcc 12's omp.h but not
 * exported by its libgomp, so it carries no gcc version; src/libgomp.map
 * must list it in some node (see the report) or `local: *` hides it. */
ILAN_EXPORT LOCK_ALIAS(omp_init_lock_with_hint, lock_init_with_hint);
ILAN_EXPORT LOCK_ALIAS(omp_init_nest_lock_with_hint, lock_init_nest_with_hint);
