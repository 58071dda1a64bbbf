// reduction.c - reduction clauses: every operator on integer and floating
// types, on parallel and worksharing loops, array sections, user-defined
// reductions, nested regions; all compared with serial results.
// ilan-test: tsan threads=1,2,3,8,16,64
#include "check.h"

#define N 1000

typedef struct {
    long lo, hi;
} range_t;
#pragma omp declare reduction(merge : range_t : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
                                                omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) \
    initializer(omp_priv = (range_t){1L << 60, -(1L << 60)})

static long val(int i) { return (long)((i * 2654435761u) % 1000) - 500; }

int main(void)
{
    /* serial reference values */
    long s_sum = 0, s_prod = 1, s_max = -(1L << 60), s_min = 1L << 60, s_and = -1, s_or = 0, s_xor = 0;
    int s_land = 1, s_lor = 0;
    double d_sum = 0;
    for (int i = 0; i < N; i++) {
        long v = val(i);
        s_sum += v;
        if (i % 50 == 0) s_prod *= (v % 3) + 2; /* 20 factors of 1..4: no overflow */
        if (v > s_max) s_max = v;
        if (v < s_min) s_min = v;
        s_and &= v | (1L << (i % 60));
        s_or |= 1L << (i % 61);
        s_xor ^= v * 31;
        s_land = s_land && (v != 1000);
        s_lor = s_lor || (v == val(N / 2));
        d_sum += 0.5 * (i % 7); /* exact in binary floating point */
    }

    /* each schedule: all operators in one loop */
#define RED_LOOP(SCHED)                                                                      \
    do {                                                                                     \
        long sum = 0, prod = 1, mx = -(1L << 60), mn = 1L << 60, band = -1, bor = 0, bxor = 0; \
        int land = 1, lor = 0;                                                               \
        double dsum = 0;                                                                     \
        _Pragma("omp parallel")                                                              \
        PRAGMA(omp for SCHED reduction(+ : sum, dsum) reduction(* : prod) reduction(max : mx) \
               reduction(min : mn) reduction(& : band) reduction(| : bor) reduction(^ : bxor) \
               reduction(&& : land) reduction(|| : lor))                                     \
        for (int i = 0; i < N; i++) {                                                        \
            long v = val(i);                                                                 \
            sum += v;                                                                        \
            if (i % 50 == 0) prod *= (v % 3) + 2;                                            \
            if (v > mx) mx = v;                                                              \
            if (v < mn) mn = v;                                                              \
            band &= v | (1L << (i % 60));                                                    \
            bor |= 1L << (i % 61);                                                           \
            bxor ^= v * 31;                                                                  \
            land = land && (v != 1000);                                                      \
            lor = lor || (v == val(N / 2));                                                  \
            dsum += 0.5 * (i % 7);                                                           \
        }                                                                                    \
        CHECK(sum == s_sum, "%s +: %ld vs %ld", #SCHED, sum, s_sum);                         \
        CHECK(prod == s_prod, "%s *: %ld vs %ld", #SCHED, prod, s_prod);                     \
        CHECK(mx == s_max && mn == s_min, "%s max/min", #SCHED);                             \
        CHECK(band == s_and, "%s &", #SCHED);                                                \
        CHECK(bor == s_or, "%s |", #SCHED);                                                  \
        CHECK(bxor == s_xor, "%s ^", #SCHED);                                                \
        CHECK(land == s_land && lor == s_lor, "%s && ||: %d %d", #SCHED, land, lor);         \
        CHECK(dsum == d_sum, "%s double +: %f vs %f", #SCHED, dsum, d_sum);                  \
    } while (0)
#define PRAGMA(x) _Pragma(#x)
    for (int rep = 0; rep < 3; rep++) {
        RED_LOOP(schedule(static));
        RED_LOOP(schedule(static, 1));
        RED_LOOP(schedule(static, 64));
        RED_LOOP(schedule(dynamic));
        RED_LOOP(schedule(dynamic, 3));
        RED_LOOP(schedule(guided));
        RED_LOOP(schedule(guided, 64));
        RED_LOOP(schedule(runtime));
        RED_LOOP(schedule(auto));
    }

    /* reduction on the parallel construct itself: per-thread contributions */
    {
        int nthr = 0;
        long sum = 0, prod = 1, mx = -1, mn = 1L << 40;
        unsigned long bor = 0;
        int land = 1, lor = 0;
#pragma omp parallel reduction(+ : sum) reduction(* : prod) reduction(max : mx) reduction(min : mn) \
    reduction(| : bor) reduction(&& : land) reduction(|| : lor)
        {
            int id = omp_get_thread_num();
#pragma omp single
            nthr = omp_get_num_threads();
            sum += id + 1;
            prod *= (id % 2) + 1;
            if (id * 3 > mx) mx = id * 3;
            if (id + 5 < mn) mn = id + 5;
            bor |= 1UL << (id % 64);
            land = land && id >= 0;
            lor = lor || id == nthr - 1;
        }
        unsigned long eor = 0;
        for (int t = 0; t < nthr; t++) eor |= 1UL << (t % 64);
        CHECK(sum == (long)nthr * (nthr + 1) / 2, "parallel + %ld", sum);
        CHECK(prod == 1L << (nthr / 2), "parallel * %ld (n=%d)", prod, nthr);
        CHECK(mx == 3L * (nthr - 1) && mn == 5, "parallel max/min %ld %ld", mx, mn);
        CHECK(bor == eor, "parallel |");
        CHECK(land == 1 && lor == 1, "parallel && || %d %d", land, lor);
    }

    /* float/double max/min and float sum with exactly representable values */
    {
        double dmx = -__builtin_inf(), dmn = __builtin_inf();
        float fs = 0;
#pragma omp parallel for reduction(max : dmx) reduction(min : dmn) reduction(+ : fs) schedule(dynamic, 8)
        for (int i = 0; i < N; i++) {
            double v = (double)val(i) * 0.37;
            if (v > dmx) dmx = v;
            if (v < dmn) dmn = v;
            fs += 0.25f;
        }
        double emx = -__builtin_inf(), emn = __builtin_inf();
        for (int i = 0; i < N; i++) {
            double v = (double)val(i) * 0.37;
            emx = v > emx ? v : emx;
            emn = v < emn ? v : emn;
        }
        CHECK(dmx == emx && dmn == emn, "double max/min");
        CHECK(fs == 0.25f * N, "float sum %f", fs);
    }

    /* array section reduction */
    {
        long hist[16] = {0}, ehist[16] = {0};
        for (int i = 0; i < N; i++) ehist[(val(i) + 500) % 16] += i;
#pragma omp parallel for reduction(+ : hist[:16]) schedule(guided, 4)
        for (int i = 0; i < N; i++) hist[(val(i) + 500) % 16] += i;
        for (int k = 0; k < 16; k++) CHECK(hist[k] == ehist[k], "array reduction bin %d", k);
        long arr[8] = {0};
#pragma omp parallel reduction(+ : arr)
        for (int k = 0; k < 8; k++) arr[k] += k;
        int nthr = 0;
#pragma omp parallel
#pragma omp single
        nthr = omp_get_num_threads();
        for (int k = 0; k < 8; k++) CHECK(arr[k] == (long)k * nthr, "whole array reduction %d", k);
    }

    /* user-defined reduction */
    {
        range_t r = {1L << 60, -(1L << 60)};
#pragma omp parallel for reduction(merge : r) schedule(dynamic, 16)
        for (int i = 0; i < N; i++) {
            long v = val(i);
            if (v < r.lo) r.lo = v;
            if (v > r.hi) r.hi = v;
        }
        CHECK(r.lo == s_min && r.hi == s_max, "declare reduction %ld %ld", r.lo, r.hi);
    }

    /* reduction combined with the original value (not the identity) */
    {
        long sum = 1000000;
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < N; i++) sum += i;
        CHECK(sum == 1000000L + (long)N * (N - 1) / 2, "reduction with initial value %ld", sum);
    }

    /* reductions in nested regions */
    omp_set_max_active_levels(2);
    {
        long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
        {
            long inner = 0;
#pragma omp parallel for num_threads(3) reduction(+ : inner) schedule(dynamic, 5)
            for (int i = 0; i < N; i++) inner += i;
            CHECK(inner == (long)N * (N - 1) / 2, "inner reduction %ld", inner);
            total += inner;
        }
        int outer = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
        outer = omp_get_num_threads();
        CHECK(total == outer * ((long)N * (N - 1) / 2), "nested reduction %ld", total);
    }

    /* many regions with a reduction (repeated reduction machinery) */
    {
        long acc = 0;
        for (int r = 0; r < 100; r++) {
            long s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
            for (int i = 0; i <= r; i++) s += i;
            acc += s;
        }
        long e = 0;
        for (int r = 0; r < 100; r++) e += (long)r * (r + 1) / 2;
        CHECK(acc == e, "repeated reductions %ld vs %ld", acc, e);
    }
    return 0;
}
