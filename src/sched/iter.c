/* iter.c — loop-chunk arithmetic (pure): counts, static blocks and chunks, guided sizes, doacross records. */
#include "sched/iter.h"


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

iter_ull iter_doacross_ent(int map, iter_ull n0, iter_ull chunk, unsigned nthreads, iter_ull i)
{
    switch (map) {
    case DOACROSS_MAP_BLOCK:
        return iter_static_owner(n0, nthreads, i);
    case DOACROSS_MAP_CYCLIC:
        return (i / chunk) % nthreads;
    case DOACROSS_MAP_CHUNK:
        return i / chunk;
    default:
        return i;
    }
}
