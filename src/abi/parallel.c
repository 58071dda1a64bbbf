/* parallel.c — GOMP entry points that start and end parallel regions. */
#include "abi/export.h"
#include "base/fatal.h"
#include "core/team.h"

/* gcc passes the proc_bind clause in the low bits of `flags` (0: absent). */
#define PARALLEL_FLAGS_PROC_BIND 7u

ILAN_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags)
{
    team_begin(fn, data, num_threads, true, flags & PARALLEL_FLAGS_PROC_BIND);
    fn(data);
    team_end();
}

ILAN_EXPORT void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    team_begin(fn, data, num_threads, true, 0);
}

ILAN_EXPORT void GOMP_parallel_end(void)
{
    team_end();
}
