/* test_loop_chunks.c — unit tests of the chunk sizes of adaptive, FAC2, TSS and AF and of auto's expert chunk (sched/loop_chunks.c), against values computed by hand from the definitions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sched/loop_chunks.h"
#include "unit.h"

/* Every chunk k of a schedule, until it says none: they must tile [0, n). */
typedef bool (*chunk_fn)(iter_ull n, unsigned P, iter_ull c, iter_ull k, iter_ull *lb,
                         iter_ull *le);

static struct fac_cursor fac_cur;
static bool fac2(iter_ull n, unsigned P, iter_ull c, iter_ull k, iter_ull *lb, iter_ull *le)
{
    return loop_fac2_chunk(n, P, c, k, &fac_cur, lb, le);
}

static unsigned sizes(chunk_fn f, iter_ull n, unsigned P, iter_ull c, iter_ull *out, unsigned max)
{
    iter_ull lb, le, pos = 0;
    unsigned k = 0;
    memset(&fac_cur, 0, sizeof fac_cur);
    while (f(n, P, c, k, &lb, &le)) {
        CHECK(lb == pos, "chunk %u starts at %llu, want %llu", k, lb, pos);
        CHECK(le > lb && le <= n, "chunk %u [%llu, %llu) of %llu", k, lb, le, n);
        if (k < max)
            out[k] = le - lb;
        pos = le;
        k++;
        if (k > 100000)
            break;
    }
    CHECK(pos == n, "chunks end at %llu, want %llu", pos, n);
    return k;
}

/* FAC2 (factoring with x = 2, Flynn Hummel, Schonberg, Flynn, CACM 35(8),
 * 1992): batch j gives each of P threads ceil(R_j / (2P)) iterations,
 * R_{j+1} = R_j - P * that. n = 1000, P = 4: R = 1000 -> 125 (x4, 500 left),
 * 63 (x4, 248 left), 31 (124 left), 16 (60 left), 8 (28 left), 4 (12 left),
 * 2 (4 left), 1 (x4). */
static void test_fac2(void)
{
    iter_ull got[64];
    static const iter_ull want[] = {125, 125, 125, 125, 63, 63, 63, 63, 31, 31, 31, 31,
                                    16,  16,  16,  16,  8,  8,  8,  8,  4,  4,  4,  4,
                                    2,   2,   2,   2,   1,  1,  1,  1};
    unsigned k = sizes(fac2, 1000, 4, 1, got, 64);
    CHECK(k == sizeof want / sizeof want[0], "fac2 gave %u chunks", k);
    for (unsigned i = 0; i < k && i < sizeof want / sizeof want[0]; i++)
        CHECK(got[i] == want[i], "fac2 chunk %u: %llu, want %llu", i, got[i], want[i]);
    /* The chunk clause is the smallest chunk: n = 100, P = 2, c = 10: 25 25
     * (50 left) 13 13 (24 left) 10 10 (max(10, 6); 4 left) 4 (the last). */
    static const iter_ull want_c[] = {25, 25, 13, 13, 10, 10, 4};
    k = sizes(fac2, 100, 2, 10, got, 64);
    CHECK(k == 7, "fac2 c=10 gave %u chunks", k);
    for (unsigned i = 0; i < k && i < 7; i++)
        CHECK(got[i] == want_c[i], "fac2 c=10 chunk %u: %llu, want %llu", i, got[i], want_c[i]);
    /* Random access (no cursor order) gives the same bounds. */
    iter_ull lb, le;
    struct fac_cursor c = {0};
    /* chunk 9 is the second of the third batch (31 each, from 752) */
    CHECK(loop_fac2_chunk(1000, 4, 1, 9, &c, &lb, &le) && lb == 783 && le == 814, "%llu %llu", lb,
          le);
    CHECK(loop_fac2_chunk(1000, 4, 1, 0, &c, &lb, &le) && lb == 0 && le == 125);
    CHECK(!loop_fac2_chunk(1000, 4, 1, 32, &c, &lb, &le));
    CHECK(!loop_fac2_chunk(0, 4, 1, 0, &c, &lb, &le));
}

static bool tss(iter_ull n, unsigned P, iter_ull c, iter_ull k, iter_ull *lb, iter_ull *le)
{
    return loop_tss_chunk(n, P, c, k, lb, le);
}

/* TSS (Tzen and Ni, IEEE TPDS 4(1), 1993): F = ceil(n / 2P), L = 1,
 * C = ceil(2n / (F + L)), delta = floor((F - L) / (C - 1)).
 * n = 1000, P = 4: F = 125, C = ceil(2000 / 126) = 16, delta = 124 / 15 = 8:
 * 125 117 109 101 93 85 77 69 61 53 45 37 29 (sum 1001 > 1000: the 13th
 * chunk is cut to 28). */
static void test_tss(void)
{
    iter_ull got[64];
    static const iter_ull want[] = {125, 117, 109, 101, 93, 85, 77, 69, 61, 53, 45, 37, 28};
    unsigned k = sizes(tss, 1000, 4, 1, got, 64);
    CHECK(k == 13, "tss gave %u chunks", k);
    for (unsigned i = 0; i < k && i < 13; i++)
        CHECK(got[i] == want[i], "tss chunk %u: %llu, want %llu", i, got[i], want[i]);
    /* Small loop, L = c = 4: n = 20, P = 2: F = 5, C = ceil(40 / 9) = 5,
     * delta = 1 / 4 = 0: chunks of 5. */
    k = sizes(tss, 20, 2, 4, got, 64);
    CHECK(k == 4 && got[0] == 5 && got[3] == 5, "tss n=20: %u chunks", k);
    /* Tiling for many shapes. */
    for (iter_ull n = 0; n < 300; n += 7)
        for (unsigned P = 1; P < 9; P++)
            for (iter_ull c = 1; c < 20; c += 6)
                sizes(tss, n, P, c, got, 0);
}

static void test_fac2_tiles(void)
{
    iter_ull got[1];
    for (iter_ull n = 0; n < 300; n += 7)
        for (unsigned P = 1; P < 9; P++)
            for (iter_ull c = 1; c < 20; c += 6)
                sizes(fac2, n, P, c, got, 0);
    sizes(fac2, 1ULL << 40, 33, 1, got, 0);
    sizes(tss, 1ULL << 40, 33, 1, got, 0);
}

/* AF (Banicescu and Liu, HPC Symposium 2000): K_i = (D + 2ER -
 * sqrt(D^2 + 4DER)) / (2 mu_i), D = sum var/mu, E = 1 / sum 1/mu. */
static void test_af(void)
{
    double mu[2] = {10, 10}, var[2] = {0, 0};
    unsigned cnt[2] = {0, 0};
    /* Nobody timed yet: FAC2's first batch, ceil(1000 / 4) = 250. */
    CHECK(loop_af_size(1000, 2, 1, 0, mu, var, cnt) == 250);
    cnt[0] = cnt[1] = 3;
    /* No variance: D = 0, E = 5, K = 2 * 5 * 1000 / 20 = 500 (R / P). */
    CHECK(loop_af_size(1000, 2, 1, 0, mu, var, cnt) == 500);
    /* var = 100 each: D = 20, E = 5, R = 1000:
     * K = (20 + 10000 - sqrt(400 + 400000)) / 20 = (10020 - 632.77) / 20 = 469.36 */
    var[0] = var[1] = 100;
    CHECK(loop_af_size(1000, 2, 1, 0, mu, var, cnt) == 469, "af %llu",
          loop_af_size(1000, 2, 1, 0, mu, var, cnt));
    /* A thread twice as slow gets half the chunk: mu = {10, 20}, var 0:
     * E = 1 / (0.1 + 0.05) = 6.667, K_0 = 6.667 * 1000 / 10 = 666, K_1 = 333. */
    mu[1] = 20;
    var[0] = var[1] = 0;
    CHECK(loop_af_size(1000, 2, 1, 0, mu, var, cnt) == 666);
    CHECK(loop_af_size(1000, 2, 1, 1, mu, var, cnt) == 333);
    /* Clipped to [c, R]. */
    CHECK(loop_af_size(3, 2, 5, 0, mu, var, cnt) == 3);
    CHECK(loop_af_size(0, 2, 1, 0, mu, var, cnt) == 0);
    /* Welford: samples 2, 4, 6 ns per iteration -> mean 4, m2 8. */
    double mean = 0, m2 = 0;
    unsigned n = 0;
    loop_af_sample(&mean, &m2, &n, 10, 20);
    loop_af_sample(&mean, &m2, &n, 5, 20);
    loop_af_sample(&mean, &m2, &n, 2, 12);
    CHECK(n == 3 && fabs(mean - 4) < 1e-12 && fabs(m2 - 8) < 1e-12, "mean %g m2 %g", mean, m2);
}

/* Adaptive: thieves take half (rounded up to the chunk), owners c * mult
 * but never more than half the rest. */
static void test_adaptive(void)
{
    CHECK(loop_steal_size(0, 1) == 0);
    CHECK(loop_steal_size(1, 1) == 1);
    CHECK(loop_steal_size(2, 1) == 1);
    CHECK(loop_steal_size(3, 1) == 1);
    CHECK(loop_steal_size(100, 1) == 50);
    CHECK(loop_steal_size(100, 8) == 56);
    CHECK(loop_steal_size(5, 8) == 5);
    CHECK(loop_pop_size(100, 1, 1) == 1);
    CHECK(loop_pop_size(100, 4, 1) == 4);
    CHECK(loop_pop_size(100, 1, 16) == 16);
    CHECK(loop_pop_size(100, 1, 1000) == 50);
    CHECK(loop_pop_size(3, 4, 1) == 3);
    CHECK(loop_pop_size(1, 1, 64) == 1);
    CHECK(loop_pop_mult(1, 100, 2000) == 2);
    CHECK(loop_pop_mult(8, 3000, 2000) == 8);
    CHECK(loop_pop_mult(8, 9000, 2000) == 4);
    CHECK(loop_pop_mult(1, 9000, 2000) == 1);
    CHECK(loop_pop_mult(LOOP_POP_MULT_MAX, 1, 2000) == LOOP_POP_MULT_MAX);
    /* Expert chunk: ceil(n / (64 P)), at least 1. */
    CHECK(loop_expert_chunk(1000000, 2) == 7813);
    CHECK(loop_expert_chunk(100, 16) == 1);
    CHECK(loop_expert_chunk(0, 4) == 1);
}

/* The running-sums form of AF gives the array form's size, whatever the
 * order the threads are added in (drawn timings, some threads untimed). */
static void test_af_sums(void)
{
    uint64_t r = 12345;
    for (unsigned trial = 0; trial < 2000; trial++) {
        unsigned P = 1 + trial % 9;
        double mu[9], var[9];
        unsigned cnt[9];
        for (unsigned j = 0; j < P; j++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            mu[j] = 1 + (double)(r >> 40) / (1 << 20);
            var[j] = (double)((r >> 20) & 0xfff);
            cnt[j] = (r >> 8) % 3;
        }
        iter_ull R = 1 + (r >> 33) % 100000, c = 1 + trial % 4;
        for (unsigned i = 0; i < P; i++) {
            struct loop_af_sums s = {.P = P};
            for (unsigned j = P; j-- > 0;) /* reverse order */
                loop_af_sums_add(&s, mu[j], var[j], cnt[j]);
            iter_ull a = loop_af_size(R, P, c, i, mu, var, cnt);
            iter_ull b = loop_af_size_sums(R, c, &s, mu[i], cnt[i]);
            /* the sums differ in rounding only: at most one iteration */
            CHECK(a == b || a == b + 1 || b == a + 1, "af P=%u R=%llu i=%u: %llu vs %llu", P,
                  R, i, a, b);
        }
    }
}

/* Clock reads grow rarer while the multiplier holds, up to 16 chunks
 * apart, and are every chunk again after a change. */
static void test_pop_stride(void)
{
    CHECK(loop_pop_stride(0, true) == 1);
    CHECK(loop_pop_stride(1, true) == 2);
    CHECK(loop_pop_stride(8, true) == 16);
    CHECK(loop_pop_stride(LOOP_POP_STRIDE_MAX, true) == LOOP_POP_STRIDE_MAX);
    CHECK(loop_pop_stride(16, false) == 1);
    CHECK(loop_pop_stride(1, false) == 1);
}

int main(void)
{
    test_fac2();
    test_fac2_tiles();
    test_tss();
    test_af();
    test_adaptive();
    test_af_sums();
    test_pop_stride();
    return unit_report();
}
