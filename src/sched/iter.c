/* iter.c — loop-chunk arithmetic (pure) and the claims that carry it out on a shared loop. */
#include "sched/iter.h"

#include <stdlib.h>
#include <string.h>
#include "core/fatal.h"
#include "core/icv.h"

iter_ull iter_count_long(long start, long end, long incr)
{
    if (incr > 0) {
        if (start >= end)
            return 0;
        /* end - start fits in an unsigned long even when it overflows a long. */
        iter_ull d = (unsigned long)end - (unsigned long)start;
        return (d - 1) / (unsigned long)incr + 1;
    }
    if (incr < 0) {
        if (start <= end)
            return 0;
        iter_ull d = (unsigned long)start - (unsigned long)end;
        iter_ull step = -(unsigned long)incr; /* also right for LONG_MIN */
        return (d - 1) / step + 1;
    }
    return 0;
}

iter_ull iter_count_ull(bool up, iter_ull start, iter_ull end, iter_ull incr)
{
    if (up) {
        if (start >= end || incr == 0)
            return 0;
        return (end - start - 1) / incr + 1;
    }
    iter_ull step = -incr;
    if (start <= end || step == 0)
        return 0;
    return (start - end - 1) / step + 1;
}

bool iter_static_block(iter_ull n, unsigned nthreads, unsigned tid, iter_ull *lb, iter_ull *le)
{
    if (nthreads == 0)
        nthreads = 1;
    iter_ull q = n / nthreads, t = n % nthreads;
    iter_ull b;
    if (tid < t) {
        q++;
        b = q * tid;
    } else {
        b = q * tid + t;
    }
    *lb = b;
    *le = b + q;
    return q != 0;
}

unsigned iter_static_owner(iter_ull n, unsigned nthreads, iter_ull i)
{
    if (nthreads == 0)
        nthreads = 1;
    iter_ull q = n / nthreads, t = n % nthreads;
    iter_ull boundary = t * (q + 1); /* the first t threads own q + 1 each */
    if (i < boundary)
        return (unsigned)(i / (q + 1));
    return (unsigned)(t + (i - boundary) / q);
}

bool iter_static_chunk(iter_ull n, iter_ull chunk, unsigned nthreads, unsigned tid, iter_ull trip,
                       iter_ull *lb, iter_ull *le)
{
    if (n == 0 || chunk == 0)
        return false;
    iter_ull k;
    if (__builtin_mul_overflow(trip, (iter_ull)nthreads, &k) || __builtin_add_overflow(k, tid, &k))
        return false;
    if (k > (n - 1) / chunk) /* chunk k starts at k * chunk >= n */
        return false;
    iter_ull b = k * chunk;
    *lb = b;
    *le = n - b <= chunk ? n : b + chunk;
    return true;
}

bool iter_dynamic_fast_ok(iter_ull n, iter_ull chunk, unsigned nthreads)
{
    /* After next passes n, each thread adds chunk at most once more before
     * it sees the end, so next stays below n + (nthreads + 1) * chunk. */
    iter_ull extra, top;
    if (__builtin_mul_overflow((iter_ull)nthreads + 1, chunk, &extra))
        return false;
    return !__builtin_add_overflow(n, extra, &top);
}

iter_ull iter_guided_size(iter_ull remaining, iter_ull chunk, unsigned nthreads)
{
    if (nthreads == 0)
        nthreads = 1;
    iter_ull q = remaining / nthreads + (remaining % nthreads != 0);
    if (q < chunk)
        q = chunk;
    if (q > remaining)
        q = remaining;
    return q;
}

iter_ull iter_doacross_ent(const struct doacross *d, iter_ull i)
{
    switch (d->map) {
    case DOACROSS_MAP_BLOCK:
        return iter_static_owner(d->counts[0], d->nthreads, i);
    case DOACROSS_MAP_CYCLIC:
        return (i / d->chunk) % d->nthreads;
    case DOACROSS_MAP_CHUNK:
        return i / d->chunk;
    default:
        return i;
    }
}

/* ---- the engine ---- */

void iter_init(struct ws_loop *l, int sched, iter_ull n, iter_ull chunk, unsigned nthreads)
{
    sched &= ~(int)ICV_SCHED_MONOTONIC;
    if (sched != ICV_SCHED_DYNAMIC && sched != ICV_SCHED_GUIDED)
        sched = ICV_SCHED_STATIC; /* auto and anything unknown: static */
    if ((long long)chunk <= 0)
        chunk = sched == ICV_SCHED_STATIC ? 0 : 1;
    if (nthreads == 0)
        nthreads = 1;
    l->sched = sched;
    l->ordered = false;
    l->nthreads = nthreads;
    l->n = n;
    l->chunk = chunk;
    l->dyn_fast = iter_dynamic_fast_ok(n, chunk, nthreads);
    l->mem = NULL;
    l->doacross = NULL;
    l->waiters = NULL;
    atomic_store_explicit(&l->cancelled, false, memory_order_relaxed);
    atomic_store_explicit(&l->next, 0, memory_order_relaxed);
    atomic_store_explicit(&l->ordered_pos, 0, memory_order_relaxed);
}

/* Dynamic claim by compare-and-swap: for loops where a fetch-add could
 * wrap `next` around. */
static bool dynamic_cas(struct ws_loop *l, iter_ull *lb, iter_ull *le)
{
    iter_ull cur = atomic_load_explicit(&l->next, memory_order_relaxed);
    for (;;) {
        if (cur >= l->n)
            return false;
        iter_ull take = l->n - cur <= l->chunk ? l->n - cur : l->chunk;
        if (atomic_compare_exchange_weak_explicit(&l->next, &cur, cur + take,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *lb = cur;
            *le = cur + take;
            return true;
        }
    }
}

static bool guided_cas(struct ws_loop *l, iter_ull *lb, iter_ull *le)
{
    iter_ull cur = atomic_load_explicit(&l->next, memory_order_relaxed);
    for (;;) {
        if (cur >= l->n)
            return false;
        iter_ull take = iter_guided_size(l->n - cur, l->chunk, l->nthreads);
        if (atomic_compare_exchange_weak_explicit(&l->next, &cur, cur + take,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *lb = cur;
            *le = cur + take;
            return true;
        }
    }
}

bool iter_next_slow(struct ws_loop *l, struct loop_thread *lt, unsigned tid)
{
    iter_ull lb, le;
    bool ok;
    switch (l->sched) {
    case ICV_SCHED_DYNAMIC:
        ok = dynamic_cas(l, &lb, &le);
        break;
    case ICV_SCHED_GUIDED:
        ok = guided_cas(l, &lb, &le);
        break;
    default:
        if (l->chunk == 0) {
            ok = lt->static_trip == 0 && iter_static_block(l->n, l->nthreads, tid, &lb, &le);
            lt->static_trip = 1;
        } else {
            ok = iter_static_chunk(l->n, l->chunk, l->nthreads, tid, lt->static_trip, &lb, &le);
            if (ok)
                lt->static_trip++;
        }
        break;
    }
    if (ok) {
        lt->lb = lb;
        lt->le = le;
    }
    return ok;
}

void *iter_buf_get(struct ws_loop *l, size_t size)
{
    size = (size + ILAN_CACHE_LINE - 1) & ~(size_t)(ILAN_CACHE_LINE - 1);
    if (size == 0)
        size = ILAN_CACHE_LINE;
    if (size > l->buf_cap) {
        free(l->buf);
        l->buf = aligned_alloc(ILAN_CACHE_LINE, size);
        if (!l->buf)
            ilan_fatal("out of memory (%zu bytes of loop state)", size);
        l->buf_cap = size;
    }
    memset(l->buf, 0, size);
    return l->buf;
}

void iter_destroy(struct ws_loop *l)
{
    free(l->buf);
    l->buf = NULL;
    l->buf_cap = 0;
    l->mem = NULL;
    l->doacross = NULL;
    l->waiters = NULL;
}
