// ilan_history.c - ILAN's history forgets: a program with 10,000 distinct
// taskloop identities (one taskloop, 10,000 iteration counts) under
// ILAN_HISTORY_MAX=64 runs every iteration once, keeps bounded memory (its
// peak RSS grows by less than 8 MiB from the 2,000th identity to the last,
// where an unbounded history would hold ~2 KiB more per identity, 16 MiB in
// all; every thread has created and run plain tasks before the first
// reading, so their stacks and malloc arenas are already counted), and still
// records new identities: its report (ILAN_REPORT, read by the parent
// process once the child has exited) holds at most 64 identities, counts
// the others as forgotten, and its most recent one is the last loop run.
// ilan-test: threads=1,2,3,8,33 modes=ilan,numa,ws
#include "child_report.h"
#include <sys/resource.h>

#define IDENTITIES 10000
#define KEEP 64

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int child(void)
{
    long done = 0, rss_at = 0, want = 0;
#pragma omp parallel
    {
        long warm = 0;
        for (int i = 0; i < 64; i++) {
#pragma omp task shared(warm)
            __atomic_add_fetch(&warm, 1, __ATOMIC_RELAXED);
        }
#pragma omp taskwait
        CHECK(warm == 64, "warm-up ran %ld of 64 tasks", warm);
    }
#pragma omp parallel
#pragma omp single
    for (int n = 1; n <= IDENTITIES; n++) {
        if (n == 2000)
            rss_at = peak_kib();
#pragma omp taskloop num_tasks(2)
        for (int i = 0; i < n; i++)
            __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
        want += n;
    }
    CHECK(done == want, "%ld iterations ran, want %ld", done, want);
    long grew = peak_kib() - rss_at;
    CHECK(grew < 8192, "peak RSS grew by %ld KiB over 8,000 new identities", grew);
    return 0;
}

/* The number after "key": in text, or -1. */
static long json_number(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--child"))
        return child();
    const char *text =
        test_child_report("--child", (const char *[]){"ILAN_HISTORY_MAX=64", NULL}, "history");
    long held = json_number(text, "\"held\": "), forgotten = json_number(text, "\"forgotten\": ");
    CHECK(held >= 0 && held <= KEEP, "%ld identities held, at most %d wanted", held, KEEP);
    const char *mode = getenv("ILAN_TASKLOOP");
    int ilan_runs = omp_get_max_threads() > 1 && !(mode && !strcmp(mode, "ws"));
    if (ilan_runs) {
        CHECK(held == KEEP && held + forgotten == IDENTITIES, "held %ld, forgotten %ld", held,
              forgotten);
        /* Most recent first: the last identity made was recorded. */
        const char *loops = strstr(text, "\"taskloops\"");
        CHECK(loops && json_number(loops, "\"iterations\": ") == IDENTITIES,
              "most recent identity: %ld iterations", loops ? json_number(loops, "\"iterations\": ") : -1);
        CHECK(json_number(loops, "\"executions\": ") == 1, "its executions");
    } else {
        CHECK(held == 0 && forgotten == 0, "held %ld, forgotten %ld", held, forgotten);
    }
    return 0;
}
