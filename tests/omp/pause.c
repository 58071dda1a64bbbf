// pause.c - omp_pause_resource_all / omp_pause_resource between parallel
// regions: later regions still work, ICVs are kept; on ilan the pool's
// threads are gone after a pause (only the threads from before the first
// region are left).
// ilan-test: tsan
#include <dirent.h>
#include <time.h>
#include "check.h"

/* ThreadSanitizer starts a helper thread of its own at some point: the
 * thread count is only checked in uninstrumented builds. */
#ifdef __SANITIZE_THREAD__
#define CHECK_THREADS 0
#else
#define CHECK_THREADS 1
#endif

/* Threads of this process, from /proc/self/task. */
static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL, "cannot open /proc/self/task");
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The thread count once it settles at `want`: a joined thread may still be
 * listed in /proc/self/task for a moment (the kernel reaps it after waking
 * the joiner), so look again for up to 2 s before giving the count. */
static int threads_settled(int want)
{
    int n = count_threads();
    for (int i = 0; i < 2000 && n != want; i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
        n = count_threads();
    }
    return n;
}

/* A nested region, so that pausing also has inner teams to release. */
static void nested_region(void)
{
    int inner = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp atomic
            inner++;
        }
    }
    omp_set_max_active_levels(1);
    CHECK(inner == 4, "nested regions ran %d inner threads, want 4", inner);
}

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
    int threads_before = count_threads();
    int want = omp_get_max_threads();
    if (want > 256) want = 256;
    omp_set_schedule(omp_sched_guided, 4);
    region(want, 0);
    nested_region();
    CHECK(omp_pause_resource_all(omp_pause_soft) == 0, "pause soft failed");
    if (CHECK_THREADS && ilan_test_on_ilan())
        CHECK(threads_settled(threads_before) == threads_before,
              "%d threads left after a pause, want %d", count_threads(), threads_before);
    region(want, 1);
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_guided && c == 4, "ICV lost across pause: %d %d", (int)k, c);
    CHECK(omp_get_max_threads() == want || want == 256, "nthreads ICV lost");
    for (int r = 2; r < 8; r++) {
        omp_pause_resource_t kind = r % 2 ? omp_pause_hard : omp_pause_soft;
        CHECK(omp_pause_resource_all(kind) == 0, "pause failed (round %d)", r);
        if (CHECK_THREADS && ilan_test_on_ilan())
            CHECK(threads_settled(threads_before) == threads_before,
                  "round %d: %d threads left after a pause", r, count_threads());
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
