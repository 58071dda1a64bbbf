// pause.c - omp_pause_resource_all / omp_pause_resource between parallel
// regions: later regions still work, ICVs are kept.
#include "check.h"

static void region(int want, int round)
{
    int seen[256] = {0};
    int n = 0;
    long s = 0;
#pragma omp parallel num_threads(want) reduction(+ : s)
    {
#pragma omp atomic
        seen[omp_get_thread_num()]++;
#pragma omp single
        n = omp_get_num_threads();
#pragma omp for schedule(dynamic, 3)
        for (int i = 0; i < 1000; i++) s += i;
#pragma omp barrier
    }
    CHECK(n == want, "round %d: team %d, wanted %d", round, n, want);
    for (int i = 0; i < n; i++) CHECK(seen[i] == 1, "round %d: thread %d ran %d", round, i, seen[i]);
    CHECK(s == 999 * 1000 / 2, "round %d: sum %ld", round, s);
}

int main(void)
{
    int want = omp_get_max_threads();
    if (want > 256) want = 256;
    omp_set_schedule(omp_sched_guided, 4);
    region(want, 0);
    CHECK(omp_pause_resource_all(omp_pause_soft) == 0, "pause soft failed");
    region(want, 1);
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_guided && c == 4, "ICV lost across pause: %d %d", (int)k, c);
    CHECK(omp_get_max_threads() == want || want == 256, "nthreads ICV lost");
    for (int r = 2; r < 8; r++) {
        CHECK(omp_pause_resource_all(omp_pause_soft) == 0, "pause soft failed (round %d)", r);
        region(1 + r % 4, r);
        region(want, r);
    }
    /* pausing the host device by number */
    int rc = omp_pause_resource(omp_pause_soft, omp_get_initial_device());
    CHECK(rc == 0 || rc == -1, "pause_resource rc %d", rc);
    region(want, 100);
    region(want, 101);
    return 0;
}
