// wait_alone.c - four threads bound two per CPU (OMP_PLACES={0},{1},
// close: the master and thread 1 on CPU 0, threads 2 and 3 on CPU 1), so
// the team is oversubscribed. A thread whose CPU holds no team thread with
// work left (threads 2 and 3 once both finished a region, the master at
// the join once thread 1 finished) spins rather than yields: the counters
// show such waits ("waits_alone"). The same program re-run with
// OMP_WAIT_POLICY=passive must show none (passive waits sleep at once).
// Every region's reduction is checked, so a wait that ended early fails.
// ilan-test: threads=4 tsan env=OMP_PLACES={0},{1};OMP_PROC_BIND=close;ILAN_COUNTERS=runtime
#include "passive_child.h"

#ifdef __SANITIZE_THREAD__
#define REGIONS 300
#else
#define REGIONS 3000
#endif

static long long (*counter)(const char *name, int thread);

/* Runs REGIONS fork/joins of 4 threads; returns the waits that spun alone. */
static long long regions(void)
{
    for (int r = 0; r < REGIONS; r++) {
        long sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
        sum += omp_get_thread_num() + 1;
        CHECK(sum == 10, "region %d: sum %ld, want 10", r, sum);
    }
    return counter("waits_alone", -1);
}

int main(int argc, char **argv)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    if (omp_get_num_procs() < 2)
        return 0; /* one CPU: every thread shares the master's */
    if (argc > 1 && !strcmp(argv[1], "passive")) {
        long long alone = regions();
        CHECK(alone == 0, "passive waits spun alone %lld times", alone);
        return 0;
    }
    long long alone = regions();
    CHECK(alone > 0, "no wait kept its CPU in %d regions", REGIONS);

    test_passive_child(argv[0]);
    return 0;
}
