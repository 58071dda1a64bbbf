/* deque.h — the Chase-Lev work-stealing deque: the owner pushes and pops at the bottom, thieves steal at the top. */
#ifndef ILAN_CORE_DEQUE_H
#define ILAN_CORE_DEQUE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "base/fence.h"
#include "base/tunables.h"

/* A circular buffer of 2^k slots; replaced by a twice larger copy when full.
 * Replaced buffers stay allocated until the deque is destroyed, because a
 * thief may still be reading one (they are few: the sizes double). */
struct deque_buf {
    long mask;                      /* slots - 1 */
    struct deque_buf *retired;      /* the buffer this one replaced, kept for late thieves */
    _Atomic(void *) slot[];         /* items; slot i % (mask+1) holds index i */
};

/*
 * Indices grow without bound (64-bit, they never wrap in practice); the
 * items are those with top <= i < bottom. `top` only ever increases, so a
 * thief's CAS on it cannot suffer ABA. `top` and `bottom` live on separate
 * cache lines: thieves hammer the first, the owner the second.
 */
struct deque {
    alignas(ILAN_CACHE_LINE) _Atomic long top;       /* next item a thief takes (CAS) */
    alignas(ILAN_CACHE_LINE) _Atomic long bottom;    /* next free index; only the owner writes */
    _Atomic(struct deque_buf *) buf;                 /* current buffer; only the owner replaces;
                                                        NULL until the first push */
};

/* Prepares an empty deque with room for 2^log2_cap items. Not concurrent.
 * A zeroed struct deque is valid too: an empty deque without a buffer,
 * which its owner's first push allocates (2^ILAN_TASK_DEQUE_LOG2 items),
 * so a team's deques cost nothing until their threads push. */
void deque_init(struct deque *d, unsigned log2_cap);

/* Frees the buffers. Only when no thread can touch the deque. */
void deque_destroy(struct deque *d);

/* Owner: adds x at the bottom (grows the buffer when full). */
void deque_push(struct deque *d, void *x);

/* Owner: removes and returns the bottom item, or NULL when empty. */
void *deque_pop(struct deque *d);

/* Thief (any thread): removes and returns the top item; NULL when the deque
 * is empty or another thread won the race for the item. */
void *deque_steal(struct deque *d);

/* Thief: like deque_steal, but only takes the top item if accept(item, arg)
 * holds, asked before the race for it is run. The item may be taken, run
 * and recycled by another thread while accept looks at it, so accept must
 * read only memory that stays mapped and atomically; its answer is only
 * acted on when the thief then wins the item, which proves the item was
 * untouched all along. NULL: empty, lost, or refused (then *refused is set). */
void *deque_steal_if(struct deque *d, bool (*accept)(const void *item, const void *arg),
                     const void *arg, bool *refused);

/* The owner's bottom index: items pushed from now on get indices >= it. */
static inline long deque_bottom(struct deque *d)
{
    return atomic_load_explicit(&d->bottom, memory_order_relaxed);
}

/* Items in the deque (exact for the owner up to concurrent steals; a hint
 * for other threads). */
static inline long deque_size(struct deque *d)
{
    long b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    long t = atomic_load_explicit(&d->top, memory_order_relaxed);
    return b > t ? b - t : 0;
}

/* A hint that the deque may hold work (any thread; no ordering). */
static inline bool deque_maybe_nonempty(struct deque *d)
{
    return atomic_load_explicit(&d->bottom, memory_order_relaxed) >
           atomic_load_explicit(&d->top, memory_order_relaxed);
}

#endif
