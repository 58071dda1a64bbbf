// single.c - single constructs: one executor per encounter, nowait, copyprivate.
// ilan-test: tsan vary=ILAN_BARRIER=tree,central
#include "check.h"

#define N 300

int main(void)
{
    static int exec[N];
    static int who[N];
    int nthr = 0;

    /* many singles in a row, with implicit barriers */
#pragma omp parallel
    {
#pragma omp master
        nthr = omp_get_num_threads();
        for (int i = 0; i < N; i++) {
#pragma omp single
            {
#pragma omp atomic
                exec[i]++;
                who[i] = omp_get_thread_num();
            }
            /* after the implicit barrier, the single is done */
            CHECK(__atomic_load_n(&exec[i], __ATOMIC_RELAXED) == 1, "single %d count %d", i,
                  exec[i]);
        }
    }
    for (int i = 0; i < N; i++) {
        CHECK(exec[i] == 1, "single %d executed %d times", i, exec[i]);
        CHECK(who[i] >= 0 && who[i] < nthr, "single %d by thread %d", i, who[i]);
    }

    /* nowait singles: still exactly once each */
    memset(exec, 0, sizeof exec);
#pragma omp parallel
    {
        for (int i = 0; i < N; i++) {
#pragma omp single nowait
            {
#pragma omp atomic
                exec[i]++;
            }
        }
    }
    for (int i = 0; i < N; i++) CHECK(exec[i] == 1, "nowait single %d executed %d", i, exec[i]);

    /* mix of nowait and waiting singles; threads arriving late */
    memset(exec, 0, sizeof exec);
#pragma omp parallel
    {
        for (int i = 0; i < N; i++) {
            if (i % 3 == 0) {
#pragma omp single
                {
#pragma omp atomic
                    exec[i]++;
                }
            } else {
#pragma omp single nowait
                {
#pragma omp atomic
                    exec[i]++;
                }
            }
        }
    }
    for (int i = 0; i < N; i++) CHECK(exec[i] == 1, "mixed single %d executed %d", i, exec[i]);

    /* copyprivate of scalars */
    {
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        {
            for (int r = 0; r < 100; r++) {
                int x;
                double d;
                long l;
#pragma omp single copyprivate(x, d, l)
                {
                    x = r * 3 + 1;
                    d = r * 0.5;
                    l = (long)r << 33;
                }
                bad += x != r * 3 + 1 || d != r * 0.5 || l != (long)r << 33;
            }
        }
        CHECK(bad == 0, "copyprivate scalars wrong %d", bad);
    }

    /* copyprivate of arrays and a struct; the value comes from the executor */
    {
        struct S {
            int a[7];
            char tag;
        };
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        {
            for (int r = 0; r < 50; r++) {
                int arr[64];
                struct S s;
                int from;
#pragma omp single copyprivate(arr, s, from)
                {
                    from = omp_get_thread_num();
                    for (int j = 0; j < 64; j++) arr[j] = r * 100 + j + from;
                    for (int j = 0; j < 7; j++) s.a[j] = -j - r;
                    s.tag = (char)('a' + r % 26);
                }
                for (int j = 0; j < 64; j++) bad += arr[j] != r * 100 + j + from;
                for (int j = 0; j < 7; j++) bad += s.a[j] != -j - r;
                bad += s.tag != (char)('a' + r % 26);
                bad += from < 0 || from >= omp_get_num_threads();
            }
        }
        CHECK(bad == 0, "copyprivate arrays wrong %d", bad);
    }

    /* copyprivate of a pointer to thread-private storage of the executor */
    {
        int bad = 0;
        static int target = 0;
#pragma omp parallel reduction(+ : bad)
        {
            int *p;
#pragma omp single copyprivate(p)
            p = &target;
            bad += p != &target;
        }
        CHECK(bad == 0, "copyprivate pointer");
    }

    /* single in a team of 1 and in an orphaned function */
    {
        int c = 0;
#pragma omp parallel num_threads(1)
#pragma omp single
        c++;
        CHECK(c == 1, "single in team of 1");
#pragma omp single
        c++;
        CHECK(c == 2, "single outside parallel");
    }
    return 0;
}
