/* iter.h — loop-chunk arithmetic (pure): iteration counts, static blocks and chunks, dynamic and guided claim sizes, doacross records. */
#ifndef ILAN_SCHED_ITER_H
#define ILAN_SCHED_ITER_H

#include <stdbool.h>

/*
 * Every loop is handled in its *logical* iteration space [0, n): logical
 * iteration k is the value start + k * incr. Chunks are logical ranges
 * [lb, le); the loop construct (construct/loop.c, abi/loop.c, abi/loop_ull.c) turns them back into
 * the (istart, iend) pair gcc's code expects, using the original `end` for
 * the last chunk so that no value ever overflows. Because n fits in 64 bits
 * for both long and unsigned long long loops, one engine serves both, and
 * sections (logical [0, count)) and doacross loops too.
 *
 * Schedules (values of enum icv_sched without the monotonic bit):
 *   static, chunk 0  one contiguous block per thread; the first n % nthreads
 *                    threads get one iteration more (iter_static_block)
 *   static, chunk c  chunk k goes to thread k % nthreads (iter_static_chunk)
 *   dynamic, c       threads claim c iterations at a time from `next`
 *   guided, c        threads claim max(ceil(remaining / nthreads), c)
 */

typedef unsigned long long iter_ull;

/* ---- pure arithmetic (unit-tested in tests/unit/test_iter.c) ---- */

/* Logical iteration count of `for (v = start; v < end (incr > 0) or
 * v > end (incr < 0); v += incr)` over longs. 0 for an empty loop or incr 0. */
iter_ull iter_count_long(long start, long end, long incr);

/* The same over unsigned long long; `up` says the direction, and incr is
 * then the two's complement of the (positive) step when counting down. */
iter_ull iter_count_ull(bool up, iter_ull start, iter_ull end, iter_ull incr);

/* Unchunked static: thread tid's block [lb, le) of n iterations among
 * nthreads. False when the block is empty. */
bool iter_static_block(iter_ull n, unsigned nthreads, unsigned tid, iter_ull *lb, iter_ull *le);

/* The thread that iter_static_block gives logical iteration i to. */
unsigned iter_static_owner(iter_ull n, unsigned nthreads, iter_ull i);

/* Chunked static: the trip-th chunk (0-based) of thread tid, chunk k =
 * trip * nthreads + tid being [k * chunk, min(n, (k + 1) * chunk)). False when
 * that chunk lies past the end. */
bool iter_static_chunk(iter_ull n, iter_ull chunk, unsigned nthreads, unsigned tid, iter_ull trip,
                       iter_ull *lb, iter_ull *le);

/* Whether dynamic claims may use a plain fetch-add: with every thread adding
 * `chunk` once more after the end, `next` must not wrap around. */
bool iter_dynamic_fast_ok(iter_ull n, iter_ull chunk, unsigned nthreads);

/* Dynamic: given the value `got` a claim of `chunk` iterations returned,
 * the claimed chunk [lb, le) clipped to n. False when got >= n. */
static inline bool iter_dynamic_take(iter_ull got, iter_ull n, iter_ull chunk, iter_ull *lb,
                                     iter_ull *le)
{
    if (got >= n)
        return false;
    *lb = got;
    *le = n - got <= chunk ? n : got + chunk;
    return true;
}

/* How dimension-0 iterations of a doacross loop map to records. */
#define DOACROSS_MAP_BLOCK 0 /* unchunked static: one record per thread */
#define DOACROSS_MAP_CYCLIC 1 /* chunked static: one record per thread (chunk / chunk % nthreads) */
#define DOACROSS_MAP_CHUNK 2 /* dynamic: one record per chunk */
#define DOACROSS_MAP_ITER 3  /* guided: one record per dimension-0 iteration */

/* The record of dimension-0 iteration i under mapping `map` (a DOACROSS_MAP_*)
 * for a loop of n0 dimension-0 iterations cut in chunks of `chunk`. */
iter_ull iter_doacross_ent(int map, iter_ull n0, iter_ull chunk, unsigned nthreads, iter_ull i);

/* Guided: how many iterations a claim takes when `remaining` are left:
 * ceil(remaining / nthreads), at least chunk, at most remaining. */
iter_ull iter_guided_size(iter_ull remaining, iter_ull chunk, unsigned nthreads);

#endif
