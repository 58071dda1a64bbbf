/* loop_ull.c — the worksharing-loop entry points over unsigned long long iteration variables. */
#include <stdint.h>
#include <string.h>

#include "abi/export.h"
#include "construct/loop.h"
#include "base/fatal.h"
#include "config/icv.h"
#include "core/thread.h"

typedef unsigned long long ull;

/* `up` gives the direction; a downward loop's incr is the two's complement
 * of its step, as gcc passes it. */
static void desc_ull(struct loop_desc *d, int sched, bool up, ull start, ull end, ull incr,
                     ull chunk, const void *site)
{
    memset(d, 0, sizeof *d);
    d->sched = sched;
    d->site = site;
    d->chunk = chunk;
    d->n = iter_count_ull(up, start, end, incr);
    d->start = start;
    d->end = end;
    d->incr = incr;
    d->ull = true;
}

static inline void bounds_ull(const struct ws_loop *l, iter_ull lb, iter_ull le, ull *istart,
                              ull *iend)
{
    *istart = l->start + lb * l->incr;
    *iend = le == l->n ? l->end : l->start + le * l->incr;
}

static bool next_ull(struct ilan_thread *ts, ull *istart, ull *iend)
{
    iter_ull lb, le;
    if (!loop_claim(ts, &lb, &le))
        return false;
    bounds_ull(&ts->ws->loop, lb, le, istart, iend);
    return true;
}

static bool start_ull(int sched, bool ordered, bool up, ull start, ull end, ull incr, ull chunk,
                      ull *istart, ull *iend, const void *site)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    desc_ull(&d, sched, up, start, end, incr, chunk, site);
    d.ordered = ordered;
    loop_start(ts, &d, NULL);
    return next_ull(ts, istart, iend);
}

/* `may_reorder`: the entry allows a nonmonotonic schedule (see loop_runtime_sched). */
static bool runtime_start_ull(bool ordered, bool may_reorder, bool up, ull start, ull end,
                              ull incr, ull *istart, ull *iend, const void *site)
{
    struct ilan_thread *ts = thread_self();
    int sched;
    iter_ull chunk;
    loop_runtime_sched(ts, may_reorder && !ordered, &sched, &chunk);
    return start_ull(sched, ordered, up, start, end, incr, chunk, istart, iend, site);
}

#define START_ULL(name, sched, ordered)                                                            \
    ILAN_EXPORT _Bool name(_Bool up, ull start, ull end, ull incr, ull chunk_size, ull *istart,    \
                           ull *iend)                                                              \
    {                                                                                              \
        return start_ull(sched, ordered, up, start, end, incr, chunk_size, istart, iend,          \
                         LOOP_SITE);                                                               \
    }
START_ULL(GOMP_loop_ull_static_start, ICV_SCHED_STATIC, false)
START_ULL(GOMP_loop_ull_dynamic_start, ICV_SCHED_DYNAMIC, false)
START_ULL(GOMP_loop_ull_guided_start, ICV_SCHED_GUIDED, false)
START_ULL(GOMP_loop_ull_nonmonotonic_dynamic_start, ICV_SCHED_ADAPTIVE, false)
START_ULL(GOMP_loop_ull_nonmonotonic_guided_start, ICV_SCHED_GUIDED, false)
START_ULL(GOMP_loop_ull_ordered_static_start, ICV_SCHED_STATIC, true)
START_ULL(GOMP_loop_ull_ordered_dynamic_start, ICV_SCHED_DYNAMIC, true)
START_ULL(GOMP_loop_ull_ordered_guided_start, ICV_SCHED_GUIDED, true)
#undef START_ULL

#define RUNTIME_START_ULL(name, ordered, may_reorder)                                              \
    ILAN_EXPORT _Bool name(_Bool up, ull start, ull end, ull incr, ull *istart, ull *iend)         \
    {                                                                                              \
        return runtime_start_ull(ordered, may_reorder, up, start, end, incr, istart, iend,         \
                                 LOOP_SITE);                                                       \
    }
RUNTIME_START_ULL(GOMP_loop_ull_runtime_start, false, false)
RUNTIME_START_ULL(GOMP_loop_ull_nonmonotonic_runtime_start, false, true)
RUNTIME_START_ULL(GOMP_loop_ull_maybe_nonmonotonic_runtime_start, false, true)
RUNTIME_START_ULL(GOMP_loop_ull_ordered_runtime_start, true, false)
#undef RUNTIME_START_ULL

/* GOMP 5.0 generic entries; see generic_start_long in loop.c. */
static bool generic_start_ull(bool ordered, bool up, ull start, ull end, ull incr, long sched,
                              ull chunk_size, ull *istart, ull *iend, uintptr_t *reductions,
                              void **mem, const void *site)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    int s;
    iter_ull chunk = chunk_size;
    loop_adjust_sched(ts, sched, !ordered, &s, &chunk);
    desc_ull(&d, s, up, start, end, incr, chunk, site);
    d.ordered = ordered;
    d.reductions = reductions;
    if (mem) {
        d.want_mem = true;
        d.mem_size = (size_t)(uintptr_t)*mem;
    }
    loop_start(ts, &d, mem);
    if (istart == NULL)
        return true;
    return next_ull(ts, istart, iend);
}

ILAN_EXPORT _Bool GOMP_loop_ull_start(_Bool up, ull start, ull end, ull incr, long sched,
                                      ull chunk_size, ull *istart, ull *iend,
                                      uintptr_t *reductions, void **mem)
{
    return generic_start_ull(false, up, start, end, incr, sched, chunk_size, istart, iend,
                             reductions, mem, LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ull_ordered_start(_Bool up, ull start, ull end, ull incr, long sched,
                                              ull chunk_size, ull *istart, ull *iend,
                                              uintptr_t *reductions, void **mem)
{
    return generic_start_ull(true, up, start, end, incr, sched, chunk_size, istart, iend,
                             reductions, mem, LOOP_SITE);
}

static bool doacross_start_ull(unsigned ncounts, ull *counts, int sched, ull chunk_size,
                               ull *istart, ull *iend, uintptr_t *reductions, void **mem)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    desc_ull(&d, sched, true, 0, ncounts ? counts[0] : 0, 1, chunk_size, NULL);
    d.ncounts = ncounts;
    d.counts = counts;
    d.reductions = reductions;
    if (mem) {
        d.want_mem = true;
        d.mem_size = (size_t)(uintptr_t)*mem;
    }
    loop_start(ts, &d, mem);
    if (istart == NULL)
        return true;
    return next_ull(ts, istart, iend);
}

ILAN_EXPORT _Bool GOMP_loop_ull_doacross_static_start(unsigned ncounts, ull *counts,
                                                      ull chunk_size, ull *istart, ull *iend)
{
    return doacross_start_ull(ncounts, counts, ICV_SCHED_STATIC, chunk_size, istart, iend, NULL,
                              NULL);
}

ILAN_EXPORT _Bool GOMP_loop_ull_doacross_dynamic_start(unsigned ncounts, ull *counts,
                                                       ull chunk_size, ull *istart, ull *iend)
{
    return doacross_start_ull(ncounts, counts, ICV_SCHED_DYNAMIC, chunk_size, istart, iend, NULL,
                              NULL);
}

ILAN_EXPORT _Bool GOMP_loop_ull_doacross_guided_start(unsigned ncounts, ull *counts,
                                                      ull chunk_size, ull *istart, ull *iend)
{
    return doacross_start_ull(ncounts, counts, ICV_SCHED_GUIDED, chunk_size, istart, iend, NULL,
                              NULL);
}

ILAN_EXPORT _Bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, ull *counts,
                                                       ull *istart, ull *iend)
{
    int sched;
    iter_ull chunk;
    loop_runtime_sched(thread_self(), false, &sched, &chunk);
    return doacross_start_ull(ncounts, counts, sched, chunk, istart, iend, NULL, NULL);
}

ILAN_EXPORT _Bool GOMP_loop_ull_doacross_start(unsigned ncounts, ull *counts, long sched,
                                               ull chunk_size, ull *istart, ull *iend,
                                               uintptr_t *reductions, void **mem)
{
    int s;
    iter_ull chunk = chunk_size;
    loop_adjust_sched(thread_self(), sched, false, &s, &chunk);
    return doacross_start_ull(ncounts, counts, s, chunk, istart, iend, reductions, mem);
}

#define NEXT_ULL(name)                                                                             \
    ILAN_EXPORT _Bool name(ull *istart, ull *iend)                                                 \
    {                                                                                              \
        return next_ull(thread_self(), istart, iend);                                             \
    }
NEXT_ULL(GOMP_loop_ull_static_next)
NEXT_ULL(GOMP_loop_ull_dynamic_next)
NEXT_ULL(GOMP_loop_ull_guided_next)
NEXT_ULL(GOMP_loop_ull_runtime_next)
NEXT_ULL(GOMP_loop_ull_nonmonotonic_dynamic_next)
NEXT_ULL(GOMP_loop_ull_nonmonotonic_guided_next)
NEXT_ULL(GOMP_loop_ull_nonmonotonic_runtime_next)
NEXT_ULL(GOMP_loop_ull_maybe_nonmonotonic_runtime_next)
NEXT_ULL(GOMP_loop_ull_ordered_static_next)
NEXT_ULL(GOMP_loop_ull_ordered_dynamic_next)
NEXT_ULL(GOMP_loop_ull_ordered_guided_next)
NEXT_ULL(GOMP_loop_ull_ordered_runtime_next)
#undef NEXT_ULL
