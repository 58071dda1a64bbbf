// task_wait_alone.c - four threads bound two per CPU (OMP_PLACES={0},{1},
// close: the master and thread 1 on CPU 0, threads 2 and 3 on CPU 1), so
// the team is oversubscribed. The master runs taskloops of two tasks and
// waits for each one's end while threads 2 and 3 run the other task.
// When thread 1 has left the region, nothing else wants CPU 0: the
// master's task waits spin rather than yield, and the counters show it
// ("task_waits_alone" of thread 0). When thread 1 stays in the region
// busy on CPU 0 until the master is done, every such wait must yield to
// it: the master's count stays 0. With OMP_WAIT_POLICY=passive (a re-run
// of the program) no task wait spins. Every iteration is counted, so a
// wait that ended early fails.
// ilan-test: threads=4 modes=ilan,numa,ws tsan env=OMP_PLACES={0},{1};OMP_PROC_BIND=close;ILAN_COUNTERS=runtime
#include "passive_child.h"

#ifdef __SANITIZE_THREAD__
#define LOOPS 100
#else
#define LOOPS 1000
#endif
/* With thread 1 busy the master gets CPU 0 only in the scheduler's
 * slices (milliseconds per taskloop): fewer loops then. */
#define BUSY_LOOPS 50
/* Regions tried before a master's wait that kept its CPU counts as missing. */
#define ATTEMPTS 20
#define ITERS 64

static long long (*counter)(const char *name, int thread);

/* Some work per iteration, so that the master's join often has to wait. */
static long work(long i)
{
    long x = i;
    for (int k = 0; k < 200; k++)
        x = x * 1103515245 + 12345;
    return x & 1;
}

/* One region: the master runs `loops` taskloops; thread 1 leaves at once
 * or, when `busy`, spins in user code until the master is done. Returns
 * the master's task waits that kept their CPU during its taskloops. */
static long long run(int busy, int loops)
{
    long long before = counter("task_waits_alone", 0), after = before;
    int stop = 0;
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        if (me == 0) {
            for (int l = 0; l < loops; l++) {
                long done = 0, odd = 0;
#pragma omp taskloop num_tasks(2) reduction(+ : done, odd)
                for (long i = 0; i < ITERS; i++) {
                    done++;
                    odd += work(i);
                }
                CHECK(done == ITERS, "loop %d: %ld iterations, want %d", l, done, ITERS);
                (void)odd;
            }
            /* Read before the region's end, whose barrier may keep the
             * CPU once thread 1 has stopped. */
            after = counter("task_waits_alone", 0);
            __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
        } else if (me == 1 && busy) {
            while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE))
                ;
        }
    }
    return after - before;
}

int main(int argc, char **argv)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    if (omp_get_num_procs() < 2)
        return 0; /* one CPU: every thread shares the master's */
    if (argc > 1 && !strcmp(argv[1], "passive")) {
        long long kept = run(0, LOOPS);
        CHECK(kept == 0, "passive task waits spun alone %lld times", kept);
        return 0;
    }
    /* Thread 1 must have run to leave the region: under load (other tests
     * beside this one) it may not get its CPU for a whole region, so a few
     * regions are tried. */
    long long kept = 0;
    for (int r = 0; r < ATTEMPTS && kept == 0; r++)
        kept = run(0, LOOPS);
    CHECK(kept > 0, "no task wait of the master kept its CPU in %d taskloops", ATTEMPTS * LOOPS);
    kept = run(1, BUSY_LOOPS);
    CHECK(kept == 0, "%lld task waits of the master spun beside a busy thread 1", kept);

    test_passive_child(argv[0]);
    return 0;
}
