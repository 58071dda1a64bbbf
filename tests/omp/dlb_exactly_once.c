// dlb_exactly_once.c - a million tasks made by one thread, then a million
// made by all threads, each run exactly once under every load-balancing
// strategy (ILAN_DLB): the messages of na-ws and na-rp lose no task when a
// thief's request is dropped, overwritten by another thief's or answered
// late, and send no task twice. A creator's tasks also wait in a taskwait
// while thieves ask for more. Under na-ws and na-rp with more than one
// thread, the run must really have moved tasks by message (dlb_tasks_sent).
// ilan-test: threads=1,2,3,8,16,64 tsan vary=ILAN_DLB=ws,na-ws,na-rp env=ILAN_COUNTERS=runtime
#include "check.h"

#ifdef __SANITIZE_THREAD__
#define TASKS 100000
#else
#define TASKS 1000000
#endif

static unsigned char seen[TASKS];

static void run(long id)
{
    volatile double x = (double)id; /* a little work: thieves find tasks queued */
    for (int k = 0; k < 20; k++)
        x = x * 1.0000001 + 1.0;
    __atomic_fetch_add(&seen[id], 1, __ATOMIC_RELAXED);
}

static void check_once(const char *what)
{
    long missing = 0, twice = 0;
    for (long i = 0; i < TASKS; i++) {
        missing += seen[i] == 0;
        twice += seen[i] > 1;
    }
    CHECK(missing == 0 && twice == 0, "%s: %ld tasks never ran, %ld more than once", what,
          missing, twice);
    memset(seen, 0, sizeof seen);
}

int main(void)
{
    /* One creator; every 1,000th task waits for the tasks it made itself. */
#pragma omp parallel
#pragma omp single
    for (long i = 0; i < TASKS; i += 10) {
#pragma omp task firstprivate(i)
        {
            for (long j = i; j < i + 10; j++) {
                if (j % 1000 == 0) {
#pragma omp task firstprivate(j)
                    run(j);
#pragma omp taskwait
                } else {
                    run(j);
                }
            }
        }
    }
    check_once("one creator");

    /* Every thread creates its share; every 100th of those tasks runs its
     * successor as a task of its own. */
#pragma omp parallel
    {
        int n = omp_get_num_threads(), me = omp_get_thread_num();
        for (long i = me; i < TASKS; i += n) {
            if (i % 100 == 99)
                continue; /* made by task i - 1 */
#pragma omp task firstprivate(i)
            {
                run(i);
                if (i % 100 == 98) {
#pragma omp task firstprivate(i)
                    run(i + 1);
                }
            }
        }
    }
    check_once("every thread");

    const char *dlb = getenv("ILAN_DLB");
    if (dlb && strcmp(dlb, "ws") != 0 && omp_get_max_threads() > 1) {
        long long (*counter)(const char *, int) =
            (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
        CHECK(counter != NULL, "ilan_counter not found");
        long long sent = 0;
        int n = omp_get_max_threads();
        for (int t = 0; t < n; t++)
            sent += counter("dlb_tasks_sent", t);
        CHECK(sent > 0, "ILAN_DLB=%s: no task was sent by message", dlb);
    }
    return 0;
}
