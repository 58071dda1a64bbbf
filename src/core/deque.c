/* deque.c — the Chase-Lev work-stealing deque (growable, C11 atomics).
 *
 * The memory orderings are those of N. M. Lê, A. Pop, A. Cohen and F. Zappa
 * Nardelli, "Correct and efficient work-stealing for weak memory models"
 * (PPoPP 2013), figure 1, with two deliberate strengthenings that cost
 * nothing on x86 and make the publication explicit to ThreadSanitizer
 * (which does not model stand-alone fences):
 *   - every store to `bottom` is a release store (the paper: release fence
 *     before the relaxed store in push, relaxed stores in take);
 *   - the thief loads `bottom` with acquire (as in the paper) and the item
 *     and buffer pointer with acquire (the paper: consume).
 * The two seq_cst fences (take: between the store to bottom and the load of
 * top; steal: between the load of top and the load of bottom) and the
 * seq_cst CAS on top are exactly the paper's: they are what makes the
 * owner and a thief agree on who gets the last item.
 */
#include "core/deque.h"

#include <stdlib.h>
#include "base/fatal.h"

static struct deque_buf *buf_new(long slots)
{
    struct deque_buf *b = malloc(sizeof *b + (size_t)slots * sizeof b->slot[0]);
    if (!b)
        ilan_fatal("out of memory growing a task deque to %ld entries", slots);
    b->mask = slots - 1;
    b->retired = NULL;
    return b;
}

void deque_init(struct deque *d, unsigned log2_cap)
{
    atomic_store_explicit(&d->top, 0, memory_order_relaxed);
    atomic_store_explicit(&d->bottom, 0, memory_order_relaxed);
    atomic_store_explicit(&d->buf, buf_new(1L << log2_cap), memory_order_relaxed);
}

void deque_destroy(struct deque *d)
{
    struct deque_buf *b = atomic_load_explicit(&d->buf, memory_order_relaxed);
    while (b) {
        struct deque_buf *r = b->retired;
        free(b);
        b = r;
    }
    atomic_store_explicit(&d->buf, NULL, memory_order_relaxed);
}

/* Owner: doubles the buffer, copying items t..b-1; or, for a deque that
 * has none yet (a zeroed one, which is empty), allocates its first. */
static __attribute__((noinline, cold)) struct deque_buf *deque_grow(struct deque *d,
                                                                   struct deque_buf *a, long t,
                                                                   long b)
{
    if (!a) {
        struct deque_buf *n = buf_new(1L << ILAN_TASK_DEQUE_LOG2);
        atomic_store_explicit(&d->buf, n, memory_order_release);
        return n;
    }
    struct deque_buf *n = buf_new(2 * (a->mask + 1));
    for (long i = t; i < b; i++)
        atomic_store_explicit(&n->slot[i & n->mask],
                              atomic_load_explicit(&a->slot[i & a->mask], memory_order_relaxed),
                              memory_order_relaxed);
    n->retired = a;
    atomic_store_explicit(&d->buf, n, memory_order_release);
    return n;
}

void deque_push(struct deque *d, void *x)
{
    long b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    long t = atomic_load_explicit(&d->top, memory_order_acquire);
    struct deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    if (__builtin_expect(!a || b - t > a->mask, 0))
        a = deque_grow(d, a, t, b);
    atomic_store_explicit(&a->slot[b & a->mask], x, memory_order_relaxed);
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
}

/* The owner's take (Lê et al. "take"), after the caller decided to take. */
static inline void *deque_take(struct deque *d)
{
    long b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
    struct deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    atomic_store_explicit(&d->bottom, b, memory_order_release);
    ilan_fence_seq_cst();
    long t = atomic_load_explicit(&d->top, memory_order_relaxed);
    if (t > b) { /* empty */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
        return NULL;
    }
    void *x = atomic_load_explicit(&a->slot[b & a->mask], memory_order_relaxed);
    if (t == b) { /* the last item: race the thieves for it */
        if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                     memory_order_relaxed))
            x = NULL;
        atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
    }
    return x;
}

void *deque_pop(struct deque *d)
{
    /* Cheap emptiness check first: only the owner moves bottom, and top
     * only grows, so an empty deque stays empty until our next push. */
    if (atomic_load_explicit(&d->bottom, memory_order_relaxed) <=
        atomic_load_explicit(&d->top, memory_order_relaxed))
        return NULL;
    return deque_take(d);
}

/* The thief's half (Lê et al. "steal"), with an optional look at the item
 * between reading it and racing for it. */
static inline void *steal_top(struct deque *d, bool (*accept)(const void *, const void *),
                              const void *arg, bool *refused)
{
    long t = atomic_load_explicit(&d->top, memory_order_acquire);
    ilan_fence_seq_cst();
    long b = atomic_load_explicit(&d->bottom, memory_order_acquire);
    if (t >= b)
        return NULL;
    struct deque_buf *a = atomic_load_explicit(&d->buf, memory_order_acquire);
    void *x = atomic_load_explicit(&a->slot[t & a->mask], memory_order_acquire);
    if (accept && !accept(x, arg)) {
        *refused = true;
        return NULL;
    }
    if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return NULL; /* lost the race */
    return x;
}

void *deque_steal(struct deque *d)
{
    return steal_top(d, NULL, NULL, NULL);
}

void *deque_steal_if(struct deque *d, bool (*accept)(const void *item, const void *arg),
                     const void *arg, bool *refused)
{
    *refused = false;
    return steal_top(d, accept, arg, refused);
}
