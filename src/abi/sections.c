/* sections.c — the sections construct: a dynamic loop over sections 1..count, one at a time. */
#include <stdint.h>
#include <string.h>

#include "abi/export.h"
#include "construct/loop.h"
#include "base/fatal.h"
#include "config/icv.h"
#include "core/team.h"
#include "core/thread.h"

static void desc_sections(struct loop_desc *d, unsigned count)
{
    memset(d, 0, sizeof *d);
    d->sched = ICV_SCHED_DYNAMIC;
    d->chunk = 1;
    d->n = count;
    d->start = 1;
    d->end = (iter_ull)count + 1;
    d->incr = 1;
    d->sections = true;
}

/* The next section for the calling thread (1-based), 0 when none is left. */
static unsigned sections_next(struct ilan_thread *ts)
{
    iter_ull lb, le;
    return loop_claim(ts, &lb, &le) ? (unsigned)(lb + 1) : 0;
}

ILAN_EXPORT unsigned GOMP_sections_start(unsigned count)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    desc_sections(&d, count);
    loop_start(ts, &d, NULL);
    return sections_next(ts);
}

ILAN_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem)
{
    struct ilan_thread *ts = thread_self();
    struct loop_desc d;
    desc_sections(&d, count);
    d.reductions = reductions;
    if (mem) {
        d.want_mem = true;
        d.mem_size = (size_t)(uintptr_t)*mem;
    }
    loop_start(ts, &d, mem);
    return sections_next(ts);
}

ILAN_EXPORT unsigned GOMP_sections_next(void)
{
    return sections_next(thread_self());
}

ILAN_EXPORT void GOMP_sections_end(void)
{
    loop_end();
}

ILAN_EXPORT void GOMP_sections_end_nowait(void)
{
    loop_end_nowait();
}

ILAN_EXPORT _Bool GOMP_sections_end_cancel(void)
{
    return loop_end_cancel();
}

/* Combined parallel sections: the construct is set up before the team
 * starts; the outlined body begins with GOMP_sections_next. */
ILAN_EXPORT void GOMP_parallel_sections_start(void (*fn)(void *), void *data,
                                              unsigned num_threads, unsigned count)
{
    struct loop_desc d;
    desc_sections(&d, count);
    team_begin_with_ws(fn, data, num_threads, true, 0, loop_init_ws, &d);
}

ILAN_EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                        unsigned count, unsigned flags)
{
    struct loop_desc d;
    desc_sections(&d, count);
    team_begin_with_ws(fn, data, num_threads, true, flags & 7u, loop_init_ws, &d);
    fn(data);
    team_end();
}
