// locks.c - simple and nestable locks, test variants, hinted locks, contention.
// ilan-test: tsan
#include "check.h"

#define ITERS 2000

static volatile long counter;

static void bump(void)
{
    long v = counter;
    for (volatile int k = 0; k < 2; k++) {
    }
    counter = v + 1;
}

static void contend(omp_lock_t *l, int nthr, const char *what)
{
    counter = 0;
#pragma omp parallel
    for (int i = 0; i < ITERS; i++) {
        omp_set_lock(l);
        bump();
        omp_unset_lock(l);
    }
    CHECK(counter == (long)ITERS * nthr, "%s: counter %ld != %ld", what, counter,
          (long)ITERS * nthr);
    /* test_lock-spinning acquisition */
    counter = 0;
#pragma omp parallel
    for (int i = 0; i < 300; i++) {
        while (!omp_test_lock(l)) {
        }
        bump();
        omp_unset_lock(l);
    }
    CHECK(counter == 300L * nthr, "%s: test_lock counter %ld", what, counter);
}

int main(void)
{
    int nthr = 0;
#pragma omp parallel
#pragma omp master
    nthr = omp_get_num_threads();

    /* simple lock basics */
    omp_lock_t l;
    omp_init_lock(&l);
    CHECK(omp_test_lock(&l) == 1, "test_lock on free lock");
    /* held by this thread: another thread's test fails */
    {
        int other = -1;
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 1) other = omp_test_lock(&l);
        if (other != -1) CHECK(other == 0, "test_lock on held lock succeeded");
    }
    omp_unset_lock(&l);
    omp_set_lock(&l);
    omp_unset_lock(&l);
    contend(&l, nthr, "omp_lock");
    omp_destroy_lock(&l);
    /* re-init after destroy */
    omp_init_lock(&l);
    contend(&l, nthr, "omp_lock reinit");
    omp_destroy_lock(&l);

    /* nestable locks: recursion count */
    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
    for (int d = 1; d <= 10; d++)
        CHECK(omp_test_nest_lock(&nl) == d, "nest depth %d", d);
    omp_set_nest_lock(&nl); /* depth 11 */
    CHECK(omp_test_nest_lock(&nl) == 12, "nest depth after set");
    {
        int other = -1;
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&nl);
        if (other != -1) CHECK(other == 0, "other thread acquired a held nest lock: %d", other);
    }
    for (int d = 0; d < 12; d++) omp_unset_nest_lock(&nl);
    /* now free: another thread can take it */
    {
        int other = -1;
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 1) {
            other = omp_test_nest_lock(&nl);
            if (other) omp_unset_nest_lock(&nl);
        }
        if (other != -1) CHECK(other == 1, "released nest lock not acquirable: %d", other);
    }

    /* nest lock contention with recursion inside */
    counter = 0;
    {
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        for (int i = 0; i < 500; i++) {
            omp_set_nest_lock(&nl);
            int depth = omp_test_nest_lock(&nl);
            bad += depth != 2;
            omp_set_nest_lock(&nl);
            bump();
            omp_unset_nest_lock(&nl);
            omp_unset_nest_lock(&nl);
            omp_unset_nest_lock(&nl);
        }
        CHECK(bad == 0, "nest depth under contention wrong %d", bad);
        CHECK(counter == 500L * nthr, "nest lock counter %ld", counter);
    }
    omp_destroy_nest_lock(&nl);

    /* many independent locks, lock per bucket */
    {
        enum { NB = 17 };
        omp_lock_t bl[NB];
        long bucket[NB] = {0};
        for (int b = 0; b < NB; b++) omp_init_lock(&bl[b]);
#pragma omp parallel for schedule(dynamic, 5)
        for (int i = 0; i < 20000; i++) {
            int b = (i * 7) % NB;
            omp_set_lock(&bl[b]);
            bucket[b] += i;
            omp_unset_lock(&bl[b]);
        }
        long expect[NB] = {0};
        for (int i = 0; i < 20000; i++) expect[(i * 7) % NB] += i;
        for (int b = 0; b < NB; b++) {
            CHECK(bucket[b] == expect[b], "bucket %d: %ld vs %ld", b, bucket[b], expect[b]);
            omp_destroy_lock(&bl[b]);
        }
    }

    return 0;
}
