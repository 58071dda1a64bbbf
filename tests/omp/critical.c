// critical.c - unnamed/named critical sections and atomics that gcc lowers to
// GOMP_atomic_start/GOMP_atomic_end (long double, __int128).
// ilan-test: tsan
#include "check.h"

#define ITERS 2000

static volatile long plain_counter;
static volatile long named_a, named_b;

static void slow_increment(volatile long *p)
{
    long v = *p; /* read-modify-write with a window: needs mutual exclusion */
    for (volatile int k = 0; k < 3; k++) {
    }
    *p = v + 1;
}

int main(void)
{
    int nthr = 0;
#pragma omp parallel
    {
#pragma omp single
        nthr = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
#pragma omp critical
            slow_increment(&plain_counter);
#pragma omp critical(alpha)
            slow_increment(&named_a);
#pragma omp critical(beta)
            slow_increment(&named_b);
        }
    }
    CHECK(plain_counter == (long)ITERS * nthr, "unnamed critical %ld != %ld", plain_counter,
          (long)ITERS * nthr);
    CHECK(named_a == (long)ITERS * nthr, "critical(alpha) %ld", named_a);
    CHECK(named_b == (long)ITERS * nthr, "critical(beta) %ld", named_b);

    /* mutual exclusion: at most one thread inside each named section */
    {
        int inside_a = 0, inside_b = 0, max_a = 0, max_b = 0;
#pragma omp parallel
        for (int i = 0; i < 500; i++) {
#pragma omp critical(gamma)
            {
                int v = __atomic_add_fetch(&inside_a, 1, __ATOMIC_RELAXED);
                if (v > max_a) max_a = v;
                for (volatile int k = 0; k < 5; k++) {
                }
                __atomic_sub_fetch(&inside_a, 1, __ATOMIC_RELAXED);
            }
#pragma omp critical(delta)
            {
                int v = __atomic_add_fetch(&inside_b, 1, __ATOMIC_RELAXED);
                if (v > max_b) max_b = v;
                __atomic_sub_fetch(&inside_b, 1, __ATOMIC_RELAXED);
            }
        }
        CHECK(max_a == 1 && max_b == 1, "overlap in critical: %d %d", max_a, max_b);
    }

    /* nested named criticals with different names do not deadlock */
    {
        long x = 0;
#pragma omp parallel
        for (int i = 0; i < 200; i++) {
#pragma omp critical(outer_name)
            {
#pragma omp critical(inner_name)
                x++;
            }
        }
        CHECK(x == 200L * nthr, "nested critical %ld", x);
    }

    /* critical with hint (OpenMP 5.0) */
    {
        long y = 0;
#pragma omp parallel
        for (int i = 0; i < 300; i++) {
#pragma omp critical(hinted) hint(omp_sync_hint_contended)
            y++;
        }
        CHECK(y == 300L * nthr, "critical hint %ld", y);
    }

    /* atomics lowered to the global atomic lock */
    {
        long double ld = 0.0L;
        __int128 i128 = 0;
        long double ld_max = 0;
#pragma omp parallel
        for (int i = 0; i < ITERS; i++) {
#pragma omp atomic
            ld += 1.0L;
#pragma omp atomic
            i128 += ((__int128)1 << 70) + 1;
            long double mine = (long double)(omp_get_thread_num() * ITERS + i);
#pragma omp critical(ldmax)
            if (mine > ld_max) ld_max = mine;
        }
        CHECK(ld == (long double)ITERS * nthr, "long double atomic %Lf", ld);
        __int128 want = ((__int128)ITERS * nthr) * (((__int128)1 << 70) + 1);
        CHECK(i128 == want, "__int128 atomic wrong (low %llx)", (unsigned long long)i128);
        CHECK(ld_max == (long double)((nthr - 1) * ITERS + ITERS - 1), "ld max %Lf", ld_max);

        /* capture forms: every captured old value is distinct */
        static unsigned char seen[64 * 200 + 1];
        __int128 ctr = 0;
        long double lctr = 0;
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        for (int i = 0; i < 200; i++) {
            __int128 old;
            long double lold;
#pragma omp atomic capture
            {
                old = ctr;
                ctr += 1;
            }
#pragma omp atomic capture
            lold = lctr++;
            if (old < 0 || old >= (__int128)nthr * 200) bad++;
            else __atomic_fetch_add(&seen[(int)old], 1, __ATOMIC_RELAXED);
            if (lold < 0 || lold >= nthr * 200.0L) bad++;
        }
        CHECK(bad == 0, "capture out of range %d", bad);
        CHECK(ctr == (__int128)nthr * 200, "__int128 capture counter");
        CHECK(lctr == nthr * 200.0L, "long double capture counter %Lf", lctr);
        if (nthr <= 64)
            for (int i = 0; i < nthr * 200; i++)
                CHECK(seen[i] == 1, "captured old value %d seen %d times", i, seen[i]);

        /* atomic read/write of long double */
        long double shared_ld = 1.5L;
#pragma omp parallel
        for (int i = 0; i < 200; i++) {
            long double v;
#pragma omp atomic read
            v = shared_ld;
            CHECK(v == 1.5L || v == 2.5L, "torn long double read %Lf", v);
#pragma omp atomic write
            shared_ld = (i & 1) ? 1.5L : 2.5L;
        }
    }

    /* ordinary atomics on long/double (hardware path) */
    {
        long l = 0;
        double d = 0;
        unsigned u = 0;
#pragma omp parallel
        for (int i = 0; i < ITERS; i++) {
#pragma omp atomic
            l += 3;
#pragma omp atomic update
            d += 0.5;
#pragma omp atomic
            u ^= 1u << (i % 32);
        }
        CHECK(l == 3L * ITERS * nthr, "long atomic %ld", l);
        CHECK(d == 0.5 * ITERS * nthr, "double atomic %f", d);
        unsigned want = 0;
        for (int t = 0; t < nthr; t++)
            for (int i = 0; i < ITERS; i++) want ^= 1u << (i % 32);
        CHECK(u == want, "xor atomic %x vs %x", u, want);
    }
    return 0;
}
