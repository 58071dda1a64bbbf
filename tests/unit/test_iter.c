/* test_iter.c — unit tests of the loop-chunk arithmetic (sched/iter.c): pure, linked with the policy library only. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void test_doacross_map(void)
{
    /* blocks of 10 over 3: [0,4) [4,7) [7,10) */
    int m = DOACROSS_MAP_BLOCK;
    CHECK(iter_doacross_ent(m, 10, 0, 3, 0) == 0 && iter_doacross_ent(m, 10, 0, 3, 3) == 0 &&
              iter_doacross_ent(m, 10, 0, 3, 4) == 1 && iter_doacross_ent(m, 10, 0, 3, 6) == 1 &&
              iter_doacross_ent(m, 10, 0, 3, 7) == 2 && iter_doacross_ent(m, 10, 0, 3, 9) == 2,
          "doacross block map");
    m = DOACROSS_MAP_CYCLIC;
    CHECK(iter_doacross_ent(m, 10, 2, 3, 0) == 0 && iter_doacross_ent(m, 10, 2, 3, 2) == 1 &&
              iter_doacross_ent(m, 10, 2, 3, 5) == 2 && iter_doacross_ent(m, 10, 2, 3, 6) == 0,
          "doacross cyclic map");
    CHECK(iter_doacross_ent(DOACROSS_MAP_CHUNK, 10, 2, 3, 5) == 2, "doacross chunk map");
    CHECK(iter_doacross_ent(DOACROSS_MAP_ITER, 10, 2, 3, 5) == 5, "doacross iter map");
    /* owner agrees with the block rule when n < nthreads */
    CHECK(iter_static_owner(2, 8, 0) == 0 && iter_static_owner(2, 8, 1) == 1, "owner n<T");
}

int main(void)
{
    test_counts();
    test_static_block();
    test_guided_size();
    test_doacross_map();
    return unit_report();
}
