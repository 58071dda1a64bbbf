// taskloop_spread_runners.c - while threads outnumber CPUs, an unbound
// team's ILAN groups have no places and a taskloop gets one runner per
// CPU: two runners may share a CPU while another CPU has none. A runner
// that starts on a CPU another runner of its taskloop already works on
// queues one runner more (counter "runners_spread"). Here the program
// itself pins every thread of a 4-thread team to CPU 0 (the runtime binds
// nothing: OMP_PROC_BIND is unset), and the first iteration of each half
// (the front of each group's range) waits until an iteration of the other
// half has begun, so the two ranges' runners overlap on CPU 0 (the OS
// time-slices them): in the ilan and numa modes
// the second runner finds CPU 0 taken and the count must grow, and no
// taskloop may lose or repeat an iteration. The ws mode has no runners
// and must count none. A second run with the threads left where the OS
// puts them checks the results only.
// ilan-test: threads=4 modes=ilan,numa,ws tsan env=ILAN_COUNTERS=runtime
#include "check.h"
#include <pthread.h>
#include <sched.h>

#define LOOPS 8
#define ITERS 4096
/* How long the front of a half waits for the other half at most (a
 * configuration of one group runs both halves on one thread). */
#define WAIT_NS 200000000LL

static long long (*counter)(const char *name, int thread);

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* LOOPS taskloops of ITERS iterations from one thread; checks each one's
 * count and sum. */
static void run(int pin)
{
    static int hits[ITERS];
    memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(4)
    {
        if (pin) {
            cpu_set_t zero;
            CPU_ZERO(&zero);
            CPU_SET(0, &zero);
            CHECK(pthread_setaffinity_np(pthread_self(), sizeof zero, &zero) == 0,
                  "cannot pin thread %d", omp_get_thread_num());
        }
#pragma omp barrier
#pragma omp single
        for (int l = 0; l < LOOPS; l++) {
            long sum = 0;
            int began[2] = {0, 0}; /* an iteration of each half began */
#pragma omp taskloop num_tasks(64) reduction(+ : sum) shared(began)
            for (int i = 0; i < ITERS; i++) {
                int half = i >= ITERS / 2;
                __atomic_store_n(&began[half], 1, __ATOMIC_RELAXED);
                if (pin && i % (ITERS / 2) == 0)
                    for (long long t0 = now_ns(); !__atomic_load_n(&began[!half], __ATOMIC_RELAXED) &&
                                                  now_ns() - t0 < WAIT_NS;)
                        ;
                __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
                sum += i;
            }
            CHECK(sum == (long)ITERS * (ITERS - 1) / 2, "loop %d: sum %ld", l, sum);
        }
    }
    for (int i = 0; i < ITERS; i++)
        CHECK(hits[i] == LOOPS, "iteration %d ran %d times, want %d", i, hits[i], LOOPS);
}

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    if (omp_get_num_procs() < 2)
        return 0; /* four threads on one CPU: not the case tested */
    const char *mode = getenv("ILAN_TASKLOOP");
    int ws = mode && !strcmp(mode, "ws");
    run(1);
    long long spread = counter("runners_spread", -1);
    if (ws)
        CHECK(spread == 0, "the ws mode queued %lld runners", spread);
    else
        CHECK(spread > 0, "no runner was added in %d taskloops on one CPU", LOOPS);
    /* Unpin, then the same loops wherever the OS runs the threads. */
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < omp_get_num_procs() && c < CPU_SETSIZE; c++)
        CPU_SET(c, &all);
#pragma omp parallel num_threads(4)
    CHECK(pthread_setaffinity_np(pthread_self(), sizeof all, &all) == 0, "cannot unpin");
    run(0);
    return 0;
}
