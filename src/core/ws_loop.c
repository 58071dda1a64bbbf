/* ws_loop.c — claiming chunks of a shared worksharing loop (dynamic and guided by atomics on one counter, static by arithmetic) and the slot's loop buffer. */
#include "core/ws_loop.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"

void ws_loop_init(struct ws_loop *l, int sched, iter_ull n, iter_ull chunk, unsigned nthreads)
{
    sched &= ~(int)ICV_SCHED_MONOTONIC;
    if (!ws_loop_kind_known(sched))
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
    l->ranges = NULL;
    l->has_work = NULL;
    l->af = NULL;
    l->rec = NULL;
    l->cand = -1;
    l->t0 = 0;
    atomic_store_explicit(&l->finished, 0, memory_order_relaxed);
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

bool ws_loop_kind_known(int sched)
{
    switch (sched) {
    case ICV_SCHED_STATIC:
    case ICV_SCHED_DYNAMIC:
    case ICV_SCHED_GUIDED:
    case ICV_SCHED_ADAPTIVE:
    case ICV_SCHED_STATIC_STEAL:
    case ICV_SCHED_FAC2:
    case ICV_SCHED_TSS:
    case ICV_SCHED_AF:
        return true;
    default:
        return false;
    }
}

size_t ws_loop_engine_space(int sched, unsigned nthreads)
{
    if (sched == ICV_SCHED_ADAPTIVE || sched == ICV_SCHED_STATIC_STEAL)
        return nthreads * sizeof(struct loop_range) +
               ws_steal_mask_words(nthreads) * sizeof(uint64_t);
    if (sched == ICV_SCHED_AF)
        return nthreads * sizeof(struct loop_af);
    return 0;
}

void ws_loop_engine_setup(struct ws_loop *l, void *space, const iter_ull *bounds)
{
    if (l->sched == ICV_SCHED_ADAPTIVE || l->sched == ICV_SCHED_STATIC_STEAL) {
        l->ranges = space;
        l->has_work = (_Atomic uint64_t *)(l->ranges + l->nthreads);
        ws_steal_init(l->ranges, l->has_work, l->n, l->nthreads, bounds);
        /* The last iteration is kept out of every range (see
         * ws_loop_next_slow): `next` says whether it is still to run. */
        for (unsigned i = 0; l->n && i < l->nthreads; i++)
            if (atomic_load_explicit(&l->ranges[i].end, memory_order_relaxed) == l->n &&
                atomic_load_explicit(&l->ranges[i].begin, memory_order_relaxed) < l->n)
                atomic_store_explicit(&l->ranges[i].end, l->n - 1, memory_order_relaxed);
        atomic_store_explicit(&l->next, l->n ? l->n - 1 : 0, memory_order_relaxed);
    } else if (l->sched == ICV_SCHED_AF) {
        l->af = space; /* zeroed by ws_loop_buf: no thread has timed a chunk */
    }
}

bool ws_loop_next_slow(struct ws_loop *l, struct loop_thread *lt, unsigned tid)
{
    iter_ull lb, le;
    bool ok;
    switch (l->sched) {
    case ICV_SCHED_ADAPTIVE:
    case ICV_SCHED_STATIC_STEAL:
        /* gcc's code decides lastprivate by whether the thread's final
         * iteration variable reached the loop's end: the thread that ran
         * the last iteration must take nothing after it. So that iteration
         * is in no range: it is run, alone, by the first thread that finds
         * every range empty, which then stops; the others go on until the
         * ranges are empty (work a thief is moving is the thief's to run).
         * Were it in its owner's range, the owner would stop at its own
         * block's end instead of stealing (2 threads: no balance at all). */
        if (lt->le == l->n && lt->lb < lt->le)
            ok = false;
        else if (!(ok = ws_steal_next(l->ranges, l->has_work, l->chunk, &lt->steal, tid, &lb, &le))) {
            iter_ull last = l->n - 1;
            ok = l->n && atomic_compare_exchange_strong_explicit(&l->next, &last, l->n,
                                                                 memory_order_relaxed,
                                                                 memory_order_relaxed);
            lb = l->n - 1;
            le = l->n;
        }
        break;
    case ICV_SCHED_FAC2:
    case ICV_SCHED_TSS:
        ok = ws_factor_next_indexed(&l->next, l->sched == ICV_SCHED_FAC2, l->n, l->nthreads,
                                    l->chunk, &lt->factor, &lb, &le);
        break;
    case ICV_SCHED_AF:
        ok = ws_factor_next_af(&l->next, l->af, l->n, l->nthreads, l->chunk, &lt->factor, tid,
                               &lb, &le);
        break;
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

void *ws_loop_buf(struct ws_loop *l, size_t size)
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

void ws_loop_destroy(struct ws_loop *l)
{
    free(l->buf);
    l->buf = NULL;
    l->buf_cap = 0;
    l->mem = NULL;
    l->doacross = NULL;
    l->waiters = NULL;
}
