/* test_iter.c — unit tests of the loop-chunk arithmetic (sched/iter.c), no OpenMP. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/icv.h"
#include "sched/iter.h"
#include "unit.h"



/* Reference trip count by brute force (small loops only). */
static iter_ull brute_count_long(long start, long end, long incr)
{
    iter_ull n = 0;
    if (incr > 0)
        for (long v = start; v < end; v += incr) {
            n++;
            if (v > LONG_MAX - incr)
                break;
        }
    else if (incr < 0)
        for (long v = start; v > end; v += incr) {
            n++;
            if (v < LONG_MIN - incr)
                break;
        }
    return n;
}

static void test_counts(void)
{
    long vals[] = {-7, -3, -1, 0, 1, 2, 5, 10, 17, 100};
    long incrs[] = {-5, -3, -2, -1, 1, 2, 3, 7};
    for (unsigned a = 0; a < sizeof vals / sizeof *vals; a++)
        for (unsigned b = 0; b < sizeof vals / sizeof *vals; b++)
            for (unsigned c = 0; c < sizeof incrs / sizeof *incrs; c++) {
                long s = vals[a], e = vals[b], i = incrs[c];
                CHECK(iter_count_long(s, e, i) == brute_count_long(s, e, i),
                      "count(%ld,%ld,%ld)=%llu want %llu", s, e, i, iter_count_long(s, e, i),
                      brute_count_long(s, e, i));
            }
    /* extremes */
    CHECK(iter_count_long(LONG_MIN, LONG_MAX, 1) == ULLONG_MAX, "full long range");
    CHECK(iter_count_long(LONG_MAX, LONG_MIN, -1) == ULLONG_MAX, "full long range down");
    CHECK(iter_count_long(LONG_MAX - 5, LONG_MAX, 4) == 2, "near LONG_MAX");
    CHECK(iter_count_long(LONG_MIN + 5, LONG_MIN, LONG_MIN) == 1, "incr LONG_MIN");
    CHECK(iter_count_long(0, 10, 0) == 0, "incr 0");
    CHECK(iter_count_ull(true, 0, ULLONG_MAX, 1) == ULLONG_MAX, "ull full");
    CHECK(iter_count_ull(true, ULLONG_MAX - 10, ULLONG_MAX, 3) == 4, "ull near max");
    CHECK(iter_count_ull(false, ULLONG_MAX, 0, -1ull) == ULLONG_MAX, "ull down full");
    CHECK(iter_count_ull(false, 10, 0, -3ull) == 4, "ull down");
    CHECK(iter_count_ull(false, 0, 10, -3ull) == 0, "ull down empty");
    CHECK(iter_count_ull(true, 10, 10, 1) == 0, "ull empty");
}

/* Static block rule: thread i gets q or q+1, the first n % T get q+1,
 * blocks are contiguous and in thread order. */
static void test_static_block(void)
{
    iter_ull ns[] = {0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 1000, ULLONG_MAX, ULLONG_MAX - 1};
    unsigned ts[] = {1, 2, 3, 4, 7, 8, 64, 1000};
    for (unsigned a = 0; a < sizeof ns / sizeof *ns; a++)
        for (unsigned b = 0; b < sizeof ts / sizeof *ts; b++) {
            iter_ull n = ns[a];
            unsigned T = ts[b];
            iter_ull q = n / T, r = n % T, expect_lb = 0;
            for (unsigned t = 0; t < T; t++) {
                iter_ull lb = 0, le = 0;
                bool got = iter_static_block(n, T, t, &lb, &le);
                iter_ull size = q + (t < r);
                CHECK(got == (size != 0), "n=%llu T=%u t=%u got", n, T, t);
                if (size) {
                    CHECK(lb == expect_lb && le - lb == size, "n=%llu T=%u t=%u [%llu,%llu)", n,
                          T, t, lb, le);
                    CHECK(iter_static_owner(n, T, lb) == t && iter_static_owner(n, T, le - 1) == t,
                          "owner n=%llu T=%u t=%u", n, T, t);
                }
                expect_lb += size;
            }
            CHECK(expect_lb == n, "blocks cover n=%llu T=%u", n, T);
        }
}

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
    iter_init(&l, sched, n, chunk, T);
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
        if (!iter_next(&l, &lt[t], t)) {
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
            iter_init(&l, scheds[s], n, withchunk ? chunk : 0, 4);
            memset(lt, 0, sizeof lt);
            iter_ull total = 0, prev_le = 0;
            unsigned chunks = 0;
            for (unsigned round = 0; round < 200; round++) {
                unsigned t = round % 4;
                if (!iter_next(&l, &lt[t], t))
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

static void test_guided_size(void)
{
    CHECK(iter_guided_size(100, 1, 4) == 25, "guided 100/4");
    CHECK(iter_guided_size(101, 1, 4) == 26, "guided ceil");
    CHECK(iter_guided_size(3, 1, 4) == 1, "guided small");
    CHECK(iter_guided_size(3, 10, 4) == 3, "guided clipped to remaining");
    CHECK(iter_guided_size(100, 30, 4) == 30, "guided minimum chunk");
    CHECK(iter_guided_size(ULLONG_MAX, 1, 3) == ULLONG_MAX / 3, "guided huge");
    CHECK(iter_guided_size(ULLONG_MAX, 1, 2) == ULLONG_MAX / 2 + 1, "guided huge ceil");
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
                    iter_init(&l, ICV_SCHED_DYNAMIC, n, 2, T);
                    l.start = (unsigned long)s;
                    l.end = (unsigned long)e;
                    l.incr = (unsigned long)inc;
                    long expect = s;
                    k = 0;
                    while (iter_next(&l, &lt, 0)) {
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
    iter_init(&l, ICV_SCHED_STATIC, iter_count_long(s, e, inc), 0, 1);
    l.start = (unsigned long)s;
    l.end = (unsigned long)e;
    l.incr = (unsigned long)inc;
    CHECK(iter_next(&l, &lt, 0) && lt.le == l.n, "near LONG_MAX chunk");
    long ie = lt.le == l.n ? (long)l.end : (long)(l.start + lt.le * l.incr);
    CHECK(ie == LONG_MAX, "iend is the loop's end");
}

static void test_doacross_map(void)
{
    struct doacross d = {0};
    iter_ull counts[1] = {10};
    d.counts = counts;
    d.nthreads = 3;
    d.map = DOACROSS_MAP_BLOCK;
    /* blocks of 10 over 3: [0,4) [4,7) [7,10) */
    CHECK(iter_doacross_ent(&d, 0) == 0 && iter_doacross_ent(&d, 3) == 0 &&
              iter_doacross_ent(&d, 4) == 1 && iter_doacross_ent(&d, 6) == 1 &&
              iter_doacross_ent(&d, 7) == 2 && iter_doacross_ent(&d, 9) == 2,
          "doacross block map");
    d.map = DOACROSS_MAP_CYCLIC;
    d.chunk = 2;
    CHECK(iter_doacross_ent(&d, 0) == 0 && iter_doacross_ent(&d, 2) == 1 &&
              iter_doacross_ent(&d, 5) == 2 && iter_doacross_ent(&d, 6) == 0,
          "doacross cyclic map");
    d.map = DOACROSS_MAP_CHUNK;
    CHECK(iter_doacross_ent(&d, 5) == 2, "doacross chunk map");
    d.map = DOACROSS_MAP_ITER;
    CHECK(iter_doacross_ent(&d, 5) == 5, "doacross iter map");
    /* owner agrees with the block rule when n < nthreads */
    CHECK(iter_static_owner(2, 8, 0) == 0 && iter_static_owner(2, 8, 1) == 1, "owner n<T");
}

int main(void)
{
    test_counts();
    test_static_block();
    test_engine();
    test_huge();
    test_guided_size();
    test_values_long();
    test_doacross_map();
    return unit_report();
}
