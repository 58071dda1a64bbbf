/* test_ws_loop.c — unit tests of claiming a shared worksharing loop (core/ws_loop.c): every iteration exactly once, per schedule and team size, near the top of the 64-bit range, and the values gcc's code sees. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/icv.h"
#include "core/ws_loop.h"
#include "unit.h"

/* Every logical iteration of [0, n) handed out exactly once. */
static void cover(unsigned char *seen, iter_ull n, iter_ull lb, iter_ull le, const char *what)
{
    CHECK(lb < le && le <= n, "%s: bad chunk [%llu,%llu) n=%llu", what, lb, le, n);
    if (!(lb < le && le <= n))
        return;
    for (iter_ull i = lb; i < le; i++) {
        CHECK(!seen[i], "%s: iteration %llu twice", what, i);
        seen[i] = 1;
    }
}

static void check_all_seen(unsigned char *seen, iter_ull n, const char *what)
{
    iter_ull missing = 0;
    for (iter_ull i = 0; i < n; i++)
        missing += !seen[i];
    CHECK(missing == 0, "%s: %llu iterations missing of %llu", what, missing, n);
}

/* Drives the engine single-threaded, threads taking turns round-robin
 * (and a scrambled order), as the real runtime would interleave them. */
static void run_engine(int sched, iter_ull n, iter_ull chunk, unsigned T, unsigned scramble)
{
    static struct ws_loop l; /* aligned; buf unused */
    struct loop_thread lt[64];
    char what[128];
    snprintf(what, sizeof what, "sched=%d n=%llu chunk=%llu T=%u s=%u", sched, n, chunk, T,
             scramble);
    ws_loop_init(&l, sched, n, chunk, T);
    memset(lt, 0, sizeof lt);
    unsigned char *seen = calloc(n ? n : 1, 1);
    bool done[64] = {0};
    unsigned live = T, step = 0;
    iter_ull last_lb[64];
    bool have_last[64] = {0};
    iter_ull prev_global = 0;
    bool any_global = false;
    while (live) {
        unsigned t = scramble ? (step * 7 + step / 3) % T : step % T;
        step++;
        if (done[t])
            continue;
        if (!ws_loop_next(&l, &lt[t], t)) {
            done[t] = true;
            live--;
            continue;
        }
        cover(seen, n, lt[t].lb, lt[t].le, what);
        /* each thread's chunks increase (needed by ordered and doacross) */
        CHECK(!have_last[t] || lt[t].lb > last_lb[t], "%s: thread %u not increasing", what, t);
        have_last[t] = true;
        last_lb[t] = lt[t].lb;
        if (l.sched != ICV_SCHED_STATIC) {
            /* dynamic and guided claims increase globally */
            CHECK(!any_global || lt[t].lb > prev_global, "%s: claims not increasing", what);
            any_global = true;
            prev_global = lt[t].lb;
            if (l.sched == ICV_SCHED_DYNAMIC && lt[t].le != n)
                CHECK(lt[t].le - lt[t].lb == l.chunk && lt[t].lb % l.chunk == 0,
                      "%s: dynamic chunk size", what);
            if (l.sched == ICV_SCHED_GUIDED && lt[t].le != n)
                CHECK(lt[t].le - lt[t].lb >= l.chunk, "%s: guided chunk below minimum", what);
        } else if (chunk) {
            iter_ull k = lt[t].lb / chunk;
            CHECK(lt[t].lb % chunk == 0 && k % T == t, "%s: static chunk owner", what);
        } else {
            iter_ull lb, le;
            CHECK(iter_static_block(n, T, t, &lb, &le) && lb == lt[t].lb && le == lt[t].le,
                  "%s: static block", what);
        }
        if (step > 10 * (n + T + 10)) {
            CHECK(0, "%s: no progress", what);
            break;
        }
    }
    check_all_seen(seen, n, what);
    free(seen);
}

static void test_engine(void)
{
    iter_ull ns[] = {0, 1, 2, 5, 16, 17, 100, 1001};
    iter_ull chunks[] = {0, 1, 2, 3, 7, 64, 5000};
    unsigned ts[] = {1, 2, 3, 8, 64};
    int scheds[] = {ICV_SCHED_STATIC, ICV_SCHED_DYNAMIC, ICV_SCHED_GUIDED,
                    ICV_SCHED_DYNAMIC | (int)ICV_SCHED_MONOTONIC, ICV_SCHED_AUTO};
    for (unsigned s = 0; s < sizeof scheds / sizeof *scheds; s++)
        for (unsigned a = 0; a < sizeof ns / sizeof *ns; a++)
            for (unsigned c = 0; c < sizeof chunks / sizeof *chunks; c++)
                for (unsigned b = 0; b < sizeof ts / sizeof *ts; b++)
                    for (unsigned sc = 0; sc < 2; sc++)
                        run_engine(scheds[s], ns[a], chunks[c], ts[b], sc);
}

/* Near the top of the 64-bit range: chunks must not wrap around. */
static void test_huge(void)
{
    static struct ws_loop l;
    struct loop_thread lt[8];
    iter_ull n = ULLONG_MAX; /* e.g. for (ull i = 0; i < ULLONG_MAX; i++) */
    iter_ull chunk = ULLONG_MAX / 3;
    CHECK(!iter_dynamic_fast_ok(n, chunk, 4), "fast path must be off near the top");
    CHECK(iter_dynamic_fast_ok(1000, 10, 64), "fast path on for small loops");
    int scheds[] = {ICV_SCHED_DYNAMIC, ICV_SCHED_GUIDED, ICV_SCHED_STATIC};
    for (unsigned s = 0; s < 3; s++) {
        for (int withchunk = 0; withchunk < 2; withchunk++) {
            ws_loop_init(&l, scheds[s], n, withchunk ? chunk : 0, 4);
            memset(lt, 0, sizeof lt);
            iter_ull total = 0, prev_le = 0;
            unsigned chunks = 0;
            for (unsigned round = 0; round < 200; round++) {
                unsigned t = round % 4;
                if (!ws_loop_next(&l, &lt[t], t))
                    continue;
                CHECK(lt[t].lb < lt[t].le && lt[t].le <= n, "huge sched %d: bad chunk", scheds[s]);
                if (scheds[s] != ICV_SCHED_STATIC)
                    CHECK(lt[t].lb == prev_le, "huge sched %d: gap", scheds[s]);
                prev_le = lt[t].le;
                total += lt[t].le - lt[t].lb;
                chunks++;
            }
            if (scheds[s] == ICV_SCHED_DYNAMIC && !withchunk)
                CHECK(total == 200 && prev_le == 200, "huge dynamic chunk 1: %llu", total);
            else
                CHECK(total == n, "huge sched %d chunk=%d: total %llu", scheds[s], withchunk, total);
            (void)chunks;
        }
    }
    /* static chunk far past the end (trip * nthreads overflow) */
    iter_ull lb, le;
    CHECK(!iter_static_chunk(10, 1, 64, 3, ULLONG_MAX / 2, &lb, &le), "trip overflow");
    CHECK(iter_static_chunk(ULLONG_MAX, ULLONG_MAX / 2, 2, 1, 0, &lb, &le) &&
              lb == ULLONG_MAX / 2 && le == ULLONG_MAX - 1,
          "big chunk 1");
    CHECK(iter_static_chunk(ULLONG_MAX, ULLONG_MAX / 2, 2, 0, 1, &lb, &le) &&
              lb == ULLONG_MAX - 1 && le == ULLONG_MAX,
          "big chunk 2");
    /* dynamic fast path take near the end */
    CHECK(iter_dynamic_take(95, 100, 10, &lb, &le) && lb == 95 && le == 100, "take clip");
    CHECK(!iter_dynamic_take(100, 100, 10, &lb, &le), "take past end");
}

/* The value mapping of the ABI layer: logical chunks back to (istart,
 * iend) for gcc's `for (v = istart; v < iend (or >); v += incr)`, which
 * must visit exactly the loop's values. */
static void test_values_long(void)
{
    long vals[] = {-20, -7, -1, 0, 3, 11, 40};
    long incrs[] = {-4, -1, 1, 3};
    for (unsigned a = 0; a < 7; a++)
        for (unsigned b = 0; b < 7; b++)
            for (unsigned c = 0; c < 4; c++) {
                long s = vals[a], e = vals[b], inc = incrs[c];
                iter_ull n = iter_count_long(s, e, inc);
                iter_ull k = 0;
                bool ok = true;
                for (unsigned T = 1; T <= 3; T++) {
                    static struct ws_loop l;
                    struct loop_thread lt = {0};
                    ws_loop_init(&l, ICV_SCHED_DYNAMIC, n, 2, T);
                    l.start = (unsigned long)s;
                    l.end = (unsigned long)e;
                    l.incr = (unsigned long)inc;
                    long expect = s;
                    k = 0;
                    while (ws_loop_next(&l, &lt, 0)) {
                        long is = (long)(l.start + lt.lb * l.incr);
                        long ie = lt.le == l.n ? (long)l.end : (long)(l.start + lt.le * l.incr);
                        for (long v = is; inc > 0 ? v < ie : v > ie; v += inc) {
                            ok &= v == expect;
                            expect += inc;
                            k++;
                        }
                    }
                }
                CHECK(ok && k == n, "values s=%ld e=%ld incr=%ld", s, e, inc);
            }
    /* last chunk near LONG_MAX uses the real end: no overflow */
    static struct ws_loop l;
    struct loop_thread lt = {0};
    long s = LONG_MAX - 5, e = LONG_MAX, inc = 4;
    ws_loop_init(&l, ICV_SCHED_STATIC, iter_count_long(s, e, inc), 0, 1);
    l.start = (unsigned long)s;
    l.end = (unsigned long)e;
    l.incr = (unsigned long)inc;
    CHECK(ws_loop_next(&l, &lt, 0) && lt.le == l.n, "near LONG_MAX chunk");
    long ie = lt.le == l.n ? (long)l.end : (long)(l.start + lt.le * l.incr);
    CHECK(ie == LONG_MAX, "iend is the loop's end");
}

int main(void)
{
    test_engine();
    test_huge();
    test_values_long();
    return unit_report();
}
