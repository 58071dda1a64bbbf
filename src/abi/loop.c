/* loop.c — the worksharing-loop entry points over long iteration variables (GOMP_loop_*, GOMP_parallel_loop_*). */
#include <stdint.h>
#include <string.h>

#include "abi/export.h"
#include "construct/loop.h"
#include "core/barrier.h"
#include "base/fatal.h"
#include "config/icv.h"
#include "core/task_sched.h"
#include "core/team.h"
#include "core/thread.h"
#include "core/ws.h"

/* ---- long iteration variables ---- */

static void desc_long(struct loop_desc *d, int sched, long start, long end, long incr, long chunk,
                      const void *site)
{
    memset(d, 0, sizeof *d);
    d->sched = sched;
    d->site = site;
    d->chunk = chunk > 0 ? (iter_ull)chunk : 0;
    d->n = iter_count_long(start, end, incr);
    d->start = (unsigned long)start;
    d->end = (unsigned long)end;
    d->incr = (unsigned long)incr;
}

/* Logical chunk [lb, le) as the long bounds gcc's code iterates over. */
static inline void bounds_long(const struct ws_loop *l, iter_ull lb, iter_ull le, long *istart,
                               long *iend)
{
    *istart = (long)(l->start + lb * l->incr);
    *iend = le == l->n ? (long)l->end : (long)(l->start + le * l->incr);
}

static bool next_long(struct ilan_thread *ts, long *istart, long *iend)
{
    iter_ull lb, le;
    if (!loop_claim(ts, &lb, &le))
        return false;
    bounds_long(&ts->ws->loop, lb, le, istart, iend);
    return true;
}

static bool start_long(int sched, bool ordered, long start, long end, long incr, long chunk,
                       long *istart, long *iend, const void *site)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    desc_long(&d, sched, start, end, incr, chunk, site);
    d.ordered = ordered;
    loop_start(ts, &d, NULL);
    return next_long(ts, istart, iend);
}

/* `may_reorder`: the entry allows a nonmonotonic schedule (see loop_runtime_sched). */
static bool runtime_start_long(bool ordered, bool may_reorder, long start, long end, long incr,
                               long *istart, long *iend, const void *site)
{
    struct ilan_thread *ts = thread_self();
    int sched;
    iter_ull chunk;
    loop_runtime_sched(ts, may_reorder && !ordered, &sched, &chunk);
    return start_long(sched, ordered, start, end, incr, (long)chunk, istart, iend, site);
}

ILAN_EXPORT _Bool GOMP_loop_static_start(long start, long end, long incr, long chunk_size,
                                         long *istart, long *iend)
{
    return start_long(ICV_SCHED_STATIC, false, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_dynamic_start(long start, long end, long incr, long chunk_size,
                                          long *istart, long *iend)
{
    return start_long(ICV_SCHED_DYNAMIC, false, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_guided_start(long start, long end, long incr, long chunk_size,
                                         long *istart, long *iend)
{
    return start_long(ICV_SCHED_GUIDED, false, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_nonmonotonic_dynamic_start(long start, long end, long incr,
                                                       long chunk_size, long *istart, long *iend)
{
    return start_long(ICV_SCHED_ADAPTIVE, false, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_nonmonotonic_guided_start(long start, long end, long incr,
                                                      long chunk_size, long *istart, long *iend)
{
    return start_long(ICV_SCHED_GUIDED, false, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_runtime_start(long start, long end, long incr, long *istart,
                                          long *iend)
{
    return runtime_start_long(false, false, start, end, incr, istart, iend, LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_nonmonotonic_runtime_start(long start, long end, long incr,
                                                       long *istart, long *iend)
{
    return runtime_start_long(false, true, start, end, incr, istart, iend, LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_maybe_nonmonotonic_runtime_start(long start, long end, long incr,
                                                             long *istart, long *iend)
{
    return runtime_start_long(false, true, start, end, incr, istart, iend, LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ordered_static_start(long start, long end, long incr,
                                                 long chunk_size, long *istart, long *iend)
{
    return start_long(ICV_SCHED_STATIC, true, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr,
                                                  long chunk_size, long *istart, long *iend)
{
    return start_long(ICV_SCHED_DYNAMIC, true, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ordered_guided_start(long start, long end, long incr,
                                                 long chunk_size, long *istart, long *iend)
{
    return start_long(ICV_SCHED_GUIDED, true, start, end, incr, chunk_size, istart, iend,
                      LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long *istart,
                                                  long *iend)
{
    return runtime_start_long(true, false, start, end, incr, istart, iend, LOOP_SITE);
}

/* The GOMP 5.0 generic entries: `sched` carries the kind (0 runtime, 4
 * runtime-nonmonotonic) and the monotonic bit; `mem` (when non-NULL) asks
 * for *mem bytes of zeroed scratch memory shared by the team for the
 * construct; istart == NULL means the caller only wants that set-up (the
 * iterations are computed inline, schedule(static)). */
static bool generic_start_long(bool ordered, long start, long end, long incr, long sched,
                               long chunk_size, long *istart, long *iend, uintptr_t *reductions,
                               void **mem, const void *site)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    int s;
    iter_ull chunk = chunk_size > 0 ? (iter_ull)chunk_size : 0;
    loop_adjust_sched(ts, sched, !ordered, &s, &chunk);
    desc_long(&d, s, start, end, incr, (long)chunk, site);
    d.ordered = ordered;
    d.reductions = reductions;
    if (mem) {
        d.want_mem = true;
        d.mem_size = (size_t)(uintptr_t)*mem;
    }
    loop_start(ts, &d, mem);
    if (istart == NULL)
        return true;
    return next_long(ts, istart, iend);
}

ILAN_EXPORT _Bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk_size,
                                  long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    return generic_start_long(false, start, end, incr, sched, chunk_size, istart, iend,
                              reductions, mem, LOOP_SITE);
}

ILAN_EXPORT _Bool GOMP_loop_ordered_start(long start, long end, long incr, long sched,
                                          long chunk_size, long *istart, long *iend,
                                          uintptr_t *reductions, void **mem)
{
    return generic_start_long(true, start, end, incr, sched, chunk_size, istart, iend,
                              reductions, mem, LOOP_SITE);
}

/* Doacross loops iterate over [0, counts[0]); counts[1..] size the inner
 * ordered loops (see ordered.c). */
static bool doacross_start_long(unsigned ncounts, long *counts, int sched, long chunk_size,
                                long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    struct ilan_thread *ts = thread_self();
    iter_ull cnt[ncounts ? ncounts : 1];
    for (unsigned i = 0; i < ncounts; i++)
        cnt[i] = counts[i] > 0 ? (iter_ull)counts[i] : 0;
    struct loop_desc d;
    desc_long(&d, sched, 0, ncounts ? counts[0] : 0, 1, chunk_size, NULL);
    d.ncounts = ncounts;
    d.counts = cnt;
    d.reductions = reductions;
    if (mem) {
        d.want_mem = true;
        d.mem_size = (size_t)(uintptr_t)*mem;
    }
    loop_start(ts, &d, mem);
    if (istart == NULL)
        return true;
    return next_long(ts, istart, iend);
}

ILAN_EXPORT _Bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk_size,
                                                  long *istart, long *iend)
{
    return doacross_start_long(ncounts, counts, ICV_SCHED_STATIC, chunk_size, istart, iend, NULL,
                               NULL);
}

ILAN_EXPORT _Bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long *counts,
                                                   long chunk_size, long *istart, long *iend)
{
    return doacross_start_long(ncounts, counts, ICV_SCHED_DYNAMIC, chunk_size, istart, iend,
                               NULL, NULL);
}

ILAN_EXPORT _Bool GOMP_loop_doacross_guided_start(unsigned ncounts, long *counts, long chunk_size,
                                                  long *istart, long *iend)
{
    return doacross_start_long(ncounts, counts, ICV_SCHED_GUIDED, chunk_size, istart, iend, NULL,
                               NULL);
}

ILAN_EXPORT _Bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                                   long *iend)
{
    int sched;
    iter_ull chunk;
    loop_runtime_sched(thread_self(), false, &sched, &chunk);
    return doacross_start_long(ncounts, counts, sched, (long)chunk, istart, iend, NULL, NULL);
}

ILAN_EXPORT _Bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched,
                                           long chunk_size, long *istart, long *iend,
                                           uintptr_t *reductions, void **mem)
{
    int s;
    iter_ull chunk = chunk_size > 0 ? (iter_ull)chunk_size : 0;
    loop_adjust_sched(thread_self(), sched, false, &s, &chunk);
    return doacross_start_long(ncounts, counts, s, (long)chunk, istart, iend, reductions, mem);
}

/* Every *_next is the same: the schedule lives in the slot. */
#define NEXT_LONG(name)                                                                            \
    ILAN_EXPORT _Bool name(long *istart, long *iend)                                              \
    {                                                                                              \
        return next_long(thread_self(), istart, iend);                                            \
    }
NEXT_LONG(GOMP_loop_static_next)
NEXT_LONG(GOMP_loop_dynamic_next)
NEXT_LONG(GOMP_loop_guided_next)
NEXT_LONG(GOMP_loop_runtime_next)
NEXT_LONG(GOMP_loop_nonmonotonic_dynamic_next)
NEXT_LONG(GOMP_loop_nonmonotonic_guided_next)
NEXT_LONG(GOMP_loop_nonmonotonic_runtime_next)
NEXT_LONG(GOMP_loop_maybe_nonmonotonic_runtime_next)
NEXT_LONG(GOMP_loop_ordered_static_next)
NEXT_LONG(GOMP_loop_ordered_dynamic_next)
NEXT_LONG(GOMP_loop_ordered_guided_next)
NEXT_LONG(GOMP_loop_ordered_runtime_next)
#undef NEXT_LONG

ILAN_EXPORT void GOMP_loop_end(void)
{
    loop_end();
}

ILAN_EXPORT void GOMP_loop_end_nowait(void)
{
    loop_end_nowait();
}

ILAN_EXPORT _Bool GOMP_loop_end_cancel(void)
{
    return loop_end_cancel();
}

/* ---- combined parallel loops: the master sets the loop up before the
 * team starts, so the outlined body begins with GOMP_loop_*_next ---- */

static void parallel_loop_begin(void (*fn)(void *), void *data, unsigned num_threads,
                                unsigned flags, int sched, long start, long end, long incr,
                                long chunk)
{
    struct loop_desc d;
    desc_long(&d, sched, start, end, incr, chunk, (const void *)fn);
    team_begin_with_ws(fn, data, num_threads, true, flags & 7u, loop_init_ws, &d);
}

static void parallel_loop(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                          int sched, long start, long end, long incr, long chunk)
{
    parallel_loop_begin(fn, data, num_threads, flags, sched, start, end, incr, chunk);
    fn(data);
    team_end();
}

static void parallel_loop_runtime(void (*fn)(void *), void *data, unsigned num_threads,
                                  unsigned flags, long start, long end, long incr, bool run,
                                  bool may_reorder)
{
    int sched;
    iter_ull chunk;
    loop_runtime_sched(thread_self(), may_reorder, &sched, &chunk);
    if (run)
        parallel_loop(fn, data, num_threads, flags, sched, start, end, incr, (long)chunk);
    else
        parallel_loop_begin(fn, data, num_threads, flags, sched, start, end, incr, (long)chunk);
}

ILAN_EXPORT void GOMP_parallel_loop_static(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start, long end, long incr, long chunk_size,
                                           unsigned flags)
{
    parallel_loop(fn, data, num_threads, flags, ICV_SCHED_STATIC, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_dynamic(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start, long end, long incr, long chunk_size,
                                            unsigned flags)
{
    parallel_loop(fn, data, num_threads, flags, ICV_SCHED_DYNAMIC, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_guided(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start, long end, long incr, long chunk_size,
                                           unsigned flags)
{
    parallel_loop(fn, data, num_threads, flags, ICV_SCHED_GUIDED, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_nonmonotonic_dynamic(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start,
                                                         long end, long incr, long chunk_size,
                                                         unsigned flags)
{
    parallel_loop(fn, data, num_threads, flags, ICV_SCHED_ADAPTIVE, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_nonmonotonic_guided(void (*fn)(void *), void *data,
                                                        unsigned num_threads, long start,
                                                        long end, long incr, long chunk_size,
                                                        unsigned flags)
{
    parallel_loop(fn, data, num_threads, flags, ICV_SCHED_GUIDED, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start, long end, long incr, unsigned flags)
{
    parallel_loop_runtime(fn, data, num_threads, flags, start, end, incr, true, false);
}

ILAN_EXPORT void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start,
                                                         long end, long incr, unsigned flags)
{
    parallel_loop_runtime(fn, data, num_threads, flags, start, end, incr, true, true);
}

ILAN_EXPORT void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                               unsigned num_threads, long start,
                                                               long end, long incr,
                                                               unsigned flags)
{
    parallel_loop_runtime(fn, data, num_threads, flags, start, end, incr, true, true);
}

/* GOMP 1.0 forms: start the team with the loop set up and return; the
 * caller runs fn(data) and then calls GOMP_parallel_end. */
ILAN_EXPORT void GOMP_parallel_loop_static_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start, long end,
                                                 long incr, long chunk_size)
{
    parallel_loop_begin(fn, data, num_threads, 0, ICV_SCHED_STATIC, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start, long end,
                                                  long incr, long chunk_size)
{
    parallel_loop_begin(fn, data, num_threads, 0, ICV_SCHED_DYNAMIC, start, end, incr,
                        chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_guided_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start, long end,
                                                 long incr, long chunk_size)
{
    parallel_loop_begin(fn, data, num_threads, 0, ICV_SCHED_GUIDED, start, end, incr, chunk_size);
}

ILAN_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start, long end,
                                                  long incr)
{
    parallel_loop_runtime(fn, data, num_threads, 0, start, end, incr, false, false);
}
