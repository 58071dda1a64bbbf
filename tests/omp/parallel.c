// parallel.c - basic parallel regions: team sizes, thread ids, data sharing.
// ilan-test: tsan threads=1,2,3,8,16,64
#include "check.h"

#define MAXT 1024

static int seen[MAXT];

static void check_team(int want, const char *what)
{
    int got_n = -1;
    memset(seen, 0, sizeof seen);
#pragma omp parallel num_threads(want)
    {
        int n = omp_get_num_threads();
        int id = omp_get_thread_num();
        CHECK(id >= 0 && id < n && n <= MAXT, "%s: id %d of %d", what, id, n);
#pragma omp atomic
        seen[id]++;
#pragma omp single
        got_n = n;
        CHECK(omp_in_parallel() == (n > 1), "%s: omp_in_parallel with n=%d", what, n);
    }
    /* With dynamic adjustment off (default) and no thread limit, the team must
       have exactly the requested size. */
    CHECK(got_n == want, "%s: team size %d, wanted %d", what, got_n, want);
    for (int i = 0; i < got_n; i++)
        CHECK(seen[i] == 1, "%s: thread %d ran %d times", what, i, seen[i]);
}

int main(void)
{
    int maxt = omp_get_max_threads();
    CHECK(maxt >= 1, "max threads %d", maxt);
    CHECK(omp_get_num_threads() == 1, "outside parallel num_threads != 1");
    CHECK(omp_get_thread_num() == 0, "outside parallel thread_num != 0");
    CHECK(omp_in_parallel() == 0, "in_parallel outside");
    CHECK(omp_get_level() == 0, "level outside");

    /* default team = OMP_NUM_THREADS (max threads ICV) */
    {
        int n = -1;
        memset(seen, 0, sizeof seen);
#pragma omp parallel
        {
#pragma omp atomic
            seen[omp_get_thread_num()]++;
#pragma omp master
            n = omp_get_num_threads();
        }
        CHECK(n == maxt, "default team %d != max threads %d", n, maxt);
        for (int i = 0; i < n; i++)
            CHECK(seen[i] == 1, "thread %d ran %d times", i, seen[i]);
    }

    /* explicit num_threads values */
    int sizes[] = {1, 2, 3, 4, 5, 7, 8, 16, 33, 64};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        check_team(sizes[k], "num_threads");
    check_team(1000, "num_threads(1000)");
    /* repeat small teams after a large one (pool shrink/regrow) */
    for (int r = 0; r < 50; r++)
        check_team(1 + r % 6, "repeat");

    /* if(0): serialized, team of 1, but still a parallel region (level 1) */
    {
        int n = -1, lvl = -1, alvl = -1, cnt = 0;
        int zero = 0;
#pragma omp parallel if (zero) num_threads(4)
        {
            n = omp_get_num_threads();
            lvl = omp_get_level();
            alvl = omp_get_active_level();
            cnt++;
            CHECK(omp_get_thread_num() == 0, "if(0) id");
            CHECK(omp_in_parallel() == 0, "if(0) region is inactive");
        }
        CHECK(n == 1 && cnt == 1, "if(0): n=%d cnt=%d", n, cnt);
        CHECK(lvl == 1, "if(0) level %d", lvl);
        CHECK(alvl == 0, "if(0) active level %d", alvl);
    }
    /* if(1) behaves like no clause */
    {
        int n = -1, one = 1;
#pragma omp parallel if (one) num_threads(3)
#pragma omp single
        n = omp_get_num_threads();
        CHECK(n == 3, "if(1) num_threads(3) gave %d", n);
    }

    /* shared / private / firstprivate */
    {
        int shared_sum = 0;
        int fp = 42;
        int priv = -7;
        int nthr = 0;
#pragma omp parallel firstprivate(fp) private(priv) shared(shared_sum, nthr)
        {
            CHECK(fp == 42, "firstprivate initial value %d", fp);
            int id = omp_get_thread_num();
            priv = id * 10;
            fp += id;
#pragma omp barrier
            CHECK(priv == id * 10, "private clobbered: %d vs %d", priv, id * 10);
            CHECK(fp == 42 + id, "firstprivate clobbered: %d", fp);
#pragma omp atomic
            shared_sum += id + 1;
#pragma omp single
            nthr = omp_get_num_threads();
        }
        CHECK(fp == 42, "firstprivate leaked back: %d", fp);
        CHECK(shared_sum == nthr * (nthr + 1) / 2, "shared sum %d, n=%d", shared_sum, nthr);
    }

    /* firstprivate array copied per thread */
    {
        int arr[16];
        for (int i = 0; i < 16; i++) arr[i] = i * i;
        int bad = 0;
#pragma omp parallel firstprivate(arr) reduction(+ : bad)
        {
            for (int i = 0; i < 16; i++) {
                if (arr[i] != i * i) bad++;
                arr[i] = -omp_get_thread_num();
            }
        }
        CHECK(bad == 0, "firstprivate array wrong in %d slots", bad);
        for (int i = 0; i < 16; i++) CHECK(arr[i] == i * i, "array modified");
    }

    /* variable num_threads expression and sequence of many regions */
    {
        long total = 0, expect = 0;
        for (int r = 0; r < 200; r++) {
            int want = 1 + r % (maxt < 8 ? maxt : 8);
            expect += (long)want * (want - 1) / 2;
#pragma omp parallel num_threads(want) reduction(+ : total)
            total += omp_get_thread_num();
        }
        CHECK(total == expect, "sum of ids over regions %ld != %ld", total, expect);
    }

    /* region from a function that is called inside a serial loop with
       changing omp_set_num_threads */
    for (int want = 1; want <= 9; want += 2) {
        omp_set_num_threads(want);
        CHECK(omp_get_max_threads() == want, "set_num_threads(%d)", want);
        int n = 0;
#pragma omp parallel
#pragma omp master
        n = omp_get_num_threads();
        CHECK(n == want, "after omp_set_num_threads(%d): %d", want, n);
    }
    omp_set_num_threads(maxt);
    return 0;
}
