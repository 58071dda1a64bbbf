// sections.c - sections constructs with 1..10 sections, nowait, lastprivate,
// firstprivate, reduction, `parallel sections`, more sections than threads.
#include "check.h"

static int hit[16];
static int who[16];

#define SEC(k)                                                                               \
    _Pragma("omp section")                                                                   \
    {                                                                                        \
        __atomic_add_fetch(&hit[k], 1, __ATOMIC_RELAXED);                                    \
        who[k] = omp_get_thread_num();                                                       \
    }

static void check_hits(int n, const char *what)
{
    for (int k = 0; k < n; k++) CHECK(hit[k] == 1, "%s: section %d ran %d times", what, k, hit[k]);
    for (int k = n; k < 16; k++) CHECK(hit[k] == 0, "%s: section %d ran", what, k);
    memset(hit, 0, sizeof hit);
}

int main(void)
{
    int nthr = 0;
#pragma omp parallel
#pragma omp single
    nthr = omp_get_num_threads();

    for (int r = 0; r < 30; r++) {
#pragma omp parallel
        {
#pragma omp sections
            {
                SEC(0)
            }
#pragma omp single
            check_hits(1, "1 section");
#pragma omp sections
            {
                SEC(0) SEC(1)
            }
#pragma omp single
            check_hits(2, "2 sections");
#pragma omp sections
            {
                SEC(0) SEC(1) SEC(2)
            }
#pragma omp single
            check_hits(3, "3 sections");
#pragma omp sections
            {
                SEC(0) SEC(1) SEC(2) SEC(3) SEC(4)
            }
#pragma omp single
            check_hits(5, "5 sections");
#pragma omp sections
            {
                SEC(0) SEC(1) SEC(2) SEC(3) SEC(4) SEC(5) SEC(6)
            }
#pragma omp single
            check_hits(7, "7 sections");
#pragma omp sections
            {
                SEC(0) SEC(1) SEC(2) SEC(3) SEC(4) SEC(5) SEC(6) SEC(7) SEC(8) SEC(9)
            }
#pragma omp single
            check_hits(10, "10 sections");
        }
        for (int k = 0; k < 10; k++) CHECK(who[k] >= 0 && who[k] < nthr, "section thread id");
    }

    /* nowait sections chained, checked after a barrier */
    {
        static int h[3][10];
        memset(h, 0, sizeof h);
#pragma omp parallel
        {
            for (int l = 0; l < 3; l++) {
#pragma omp sections nowait
                {
#pragma omp section
                    __atomic_add_fetch(&h[l][0], 1, __ATOMIC_RELAXED);
#pragma omp section
                    __atomic_add_fetch(&h[l][1], 1, __ATOMIC_RELAXED);
#pragma omp section
                    __atomic_add_fetch(&h[l][2], 1, __ATOMIC_RELAXED);
#pragma omp section
                    __atomic_add_fetch(&h[l][3], 1, __ATOMIC_RELAXED);
                }
            }
        }
        for (int l = 0; l < 3; l++)
            for (int k = 0; k < 4; k++) CHECK(h[l][k] == 1, "nowait sections [%d][%d]=%d", l, k, h[l][k]);
    }

    /* lastprivate: value from the lexically last section */
    {
        int x = -1, y = -1;
#pragma omp parallel
#pragma omp sections lastprivate(x) firstprivate(y)
        {
#pragma omp section
            {
                CHECK(y == -1, "firstprivate in section 0");
                x = 10;
            }
#pragma omp section
            {
                CHECK(y == -1, "firstprivate in section 1");
                x = 20;
            }
#pragma omp section
            x = 30;
        }
        CHECK(x == 30, "sections lastprivate %d", x);
    }

    /* reduction over sections */
    {
        long s = 0;
#pragma omp parallel sections reduction(+ : s)
        {
#pragma omp section
            s += 1;
#pragma omp section
            s += 20;
#pragma omp section
            s += 300;
#pragma omp section
            s += 4000;
        }
        CHECK(s == 4321, "sections reduction %ld", s);
    }

    /* parallel sections: many sections, more than threads, with num_threads */
    for (int r = 0; r < 20; r++) {
        int nt = 1 + r % 4;
#pragma omp parallel sections num_threads(nt)
        {
            SEC(0) SEC(1) SEC(2) SEC(3) SEC(4) SEC(5) SEC(6) SEC(7) SEC(8) SEC(9) SEC(10) SEC(11)
        }
        check_hits(12, "parallel sections");
    }

    /* sections with uneven work: every section still exactly once */
    {
        long acc[6] = {0};
#pragma omp parallel sections
        {
#pragma omp section
            for (int i = 0; i < 100000; i++) acc[0] += i & 1;
#pragma omp section
            acc[1] = 1;
#pragma omp section
            for (int i = 0; i < 50000; i++) acc[2] += 1;
#pragma omp section
            acc[3] = 3;
#pragma omp section
            acc[4] = 4;
#pragma omp section
            acc[5] = 5;
        }
        CHECK(acc[0] == 50000 && acc[1] == 1 && acc[2] == 50000 && acc[3] == 3 && acc[4] == 4 &&
                  acc[5] == 5,
              "uneven sections");
    }

    /* orphaned sections outside parallel */
#pragma omp sections
    {
        SEC(0) SEC(1) SEC(2)
    }
    check_hits(3, "orphan sections");
    return 0;
}
