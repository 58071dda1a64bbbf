/* taskloop_overhead.c - what a taskloop costs beyond its iterations, EPCC schedbench style, against the ideal split of the same work over the same threads.
 *
 * One taskloop of ITERS = 2,000 iterations, each a fixed delay of about
 * 0.01 us (calibrated; --delay-us), run `innerreps` times by the thread in
 * `single` (the others execute tasks), for num_tasks(2), num_tasks(20),
 * num_tasks(200), num_tasks(2000) and grainsize(1).  The body is not empty
 * on purpose: an empty body would reward a runtime that quietly runs the
 * loop serially.  Each iteration is counted; the count is checked.
 *
 * The reference is the ideal schedule of the same tasks (see reference()):
 * the same loops cut into the same tasks, claimed whole by the same team
 * in guided chunks with no runtime involved, each loop joined before the
 * next, in one parallel region (fork and join included, like the test);
 * with more threads than CPUs, by as many threads as CPUs while the others
 * sleep until the loops are done.
 * Earlier references split the work finer than the test's tasks and
 * joined only once, so they balanced over differences of CPU speed that a
 * 2-task loop cannot, and the num_tasks(2) row measured the VM's CPUs.
 * Every test timing is paired with the reference timing just before it,
 * and the row's value is the median of the paired differences
 *     overhead = median_k (test_k - reference_k) / innerreps
 * in microseconds per taskloop. A pair's two timings are taken within a
 * few milliseconds of each other, so a slow phase of the VM (its vCPUs
 * sharing a core for seconds) slows both, and the median ignores the
 * pairs where a disturbance hit one timing only. The difference of the
 * two minima, used before, swung between 0.1 and 3.7 us from process to
 * process on libgomp's num_tasks(2), where the median stayed within
 * 1.5-2.6 us, and printed a negative cost once in 45 processes; it is
 * still in the row ("min_difference_us"), beside the pairs ("paired").
 * Each row is followed by its "whole" row: the median time of the test's
 * taskloops themselves, reference left out. The same tasks run on every
 * runtime, so between runtimes these differ by the overhead alone, and
 * they never reach zero: a num_tasks(2) row costs about 0.4 us at 2
 * threads on the 2-vCPU VM, while its value ranged from -0.9 to 1.8 us
 * from process to process (41 rounds, 2026-11-29), on every runtime; the
 * ratio of two runtimes' whole rows, paired by round, resolves what that
 * row cannot.
 * innerreps: about --measure-ms (default 5) ms of work per measurement on
 * one thread.
 * Before each row, 30 taskloops of it run unmeasured: a runtime that learns
 * per taskloop (ILAN explores a taskloop's configurations for at most 24
 * runs) is measured once it has learned.
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskloop_overhead.c -o taskloop_overhead -ldl
 * Usage:  OMP_NUM_THREADS=2 ./taskloop_overhead [--quick] [--reps N] [--delay-us D] [--measure-ms M]
 *                                          [--only nt2,nt20,nt200,nt2000,gs1]
 * --only runs the rows named (all by default), to repeat one row.
 */
#include "../common.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

#define ITERS 2000
/* Pairs of timings per row: at least this many... */
#define MIN_PAIRS 10
/* ...and then only while the row has taken less than this. */
#define ROW_BUDGET_S 3.0

static long delay_len;

/* One step of a spin-wait: on x86 a pause, which leaves the core's other
 * hyperthread its execution units. */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

#define TEST(fname, CLAUSE)                                                   \
    static double fname(int innerreps)                                        \
    {                                                                         \
        double t = 0;                                                         \
        double t0 = now();                                                    \
        _Pragma("omp parallel")                                               \
        {                                                                     \
            _Pragma("omp single")                                             \
            {                                                                 \
                for (int k = 0; k < innerreps; k++) {                         \
                    _Pragma(CLAUSE)                                           \
                    for (int i = 0; i < ITERS; i++) {                         \
                        delay(delay_len);                                     \
                        bench_count_iteration();                              \
                    }                                                         \
                }                                                             \
            }                                                                 \
        }                                                                     \
        t = now() - t0;                                                       \
        return t;                                                             \
    }

TEST(nt2, "omp taskloop num_tasks(2)")
TEST(nt20, "omp taskloop num_tasks(20)")
TEST(nt200, "omp taskloop num_tasks(200)")
TEST(nt2000, "omp taskloop num_tasks(2000)")
TEST(gs1, "omp taskloop grainsize(1)")

/* The ideal schedule of the test's own tasks: `innerreps` loops of
 * `ntasks` tasks (ITERS split as gcc's taskloop splits it: the first
 * ITERS % ntasks tasks one iteration longer), run with no runtime at all.
 * Threads claim whole tasks in guided chunks (a share of what is left, at
 * least one task) from a counter per loop, and each loop ends when all of
 * its tasks are done, as the test's taskloop ends at its taskgroup: every
 * thread waits there, spinning with a pause (a spin without one slowed a
 * worker on the other hyperthread of its core). A reference cut finer than
 * the test's tasks, or joined only at the end, balanced over differences
 * of CPU speed that a loop of two tasks cannot (a 2-task taskloop pays the
 * slower CPU's time at every join): that made the `num_tasks(2)` row a
 * measure of the VM's CPUs.
 * With more threads than CPUs only as many threads as CPUs take part; the
 * others sleep (a condition variable, so in no runtime's wait) until they
 * are done. When all 16 threads of a team on 2 CPUs took part, yielding at
 * every join, the reference cost more than ilan's taskloops of the same
 * tasks (rows of -0.8 to +0.8 us at 16 threads): no ideal to measure
 * against. */
struct loop_state {
    long next;           /* tasks claimed */
    long done;           /* tasks finished */
    char pad[64 - 2 * sizeof(long)];
};

/* Where a reference's threads beyond the CPUs sleep. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_wake = PTHREAD_COND_INITIALIZER;

static double reference(int innerreps, long ntasks)
{
    struct loop_state *loops = aligned_alloc(64, sizeof *loops * (size_t)innerreps);
    memset(loops, 0, sizeof *loops * (size_t)innerreps);
    long base = ITERS / ntasks, longer = ITERS % ntasks;
    int cpus = omp_get_num_procs();
    int finished = 0, active_done = 0; /* under idle_lock / atomic: the active threads' ends */
    double t0 = now();
#pragma omp parallel
    {
        int threads = omp_get_num_threads();
        int active = threads < cpus ? threads : cpus;
        if (omp_get_thread_num() >= active) {
            pthread_mutex_lock(&idle_lock);
            while (!finished)
                pthread_cond_wait(&idle_wake, &idle_lock);
            pthread_mutex_unlock(&idle_lock);
        } else {
            long twice = 2L * active;
            for (int k = 0; k < innerreps; k++) {
                struct loop_state *l = &loops[k];
                for (;;) {
                    long lo = __atomic_load_n(&l->next, __ATOMIC_RELAXED), chunk = 0;
                    do {
                        if (lo >= ntasks)
                            break;
                        chunk = (ntasks - lo) / twice;
                        if (chunk < 1)
                            chunk = 1;
                    } while (!__atomic_compare_exchange_n(&l->next, &lo, lo + chunk, 0,
                                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
                    if (lo >= ntasks)
                        break;
                    for (long t = lo; t < lo + chunk; t++) {
                        long iters = base + (t < longer);
                        for (long i = 0; i < iters; i++) {
                            delay(delay_len);
                            bench_count_iteration();
                        }
                    }
                    __atomic_add_fetch(&l->done, chunk, __ATOMIC_RELEASE);
                }
                while (__atomic_load_n(&l->done, __ATOMIC_ACQUIRE) < ntasks)
                    spin_pause();
            }
            if (__atomic_add_fetch(&active_done, 1, __ATOMIC_ACQ_REL) == active &&
                active < threads) {
                pthread_mutex_lock(&idle_lock);
                finished = 1;
                pthread_cond_broadcast(&idle_wake);
                pthread_mutex_unlock(&idle_lock);
            }
        }
    }
    double t = now() - t0;
    free(loops);
    return t;
}

struct row {
    const char *key;  /* its name for --only */
    const char *name;
    double (*fn)(int);
    long ntasks; /* the tasks gcc makes of ITERS iterations for this row */
};

int main(int argc, char **argv)
{
    /* 20 us of work per taskloop: a taskloop costs every runtime a few
     * microseconds, which the VM's noise (a few per cent of any timing)
     * hid below a 1 ms loop of 1 us delays (rows from -10 to +20 us
     * between runs) and shows plainly above a 20 us one. */
    double delay_us = 0.01, measure_ms = 5.0;
    const char *only = NULL; /* --only: the rows to run, comma-separated; NULL: all */
    int reps = parse_reps(argc, argv, 20, 10);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--delay-us") && i + 1 < argc)
            delay_us = atof(argv[++i]);
        else if (!strcmp(argv[i], "--measure-ms") && i + 1 < argc)
            measure_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
    }
    print_runtime_self();
    delay_len = calibrate_delay(delay_us);
    int threads = omp_get_max_threads();
    /* innerreps: about measure_ms of work per measurement on one thread */
    int innerreps = (int)(measure_ms * 1000.0 / (ITERS * delay_us)) + 1;
    printf("{\"config\": {\"iterations\": %d, \"delay_us\": %.3f, \"delay_len\": %ld, "
           "\"threads\": %d, \"reps\": %d, \"innerreps\": %d, "
           "\"reference\": \"the same tasks claimed whole in guided chunks, joined per loop; median of paired test - reference\"}}\n",
           ITERS, delay_us, delay_len, threads, reps, innerreps);
    struct row rows[] = {{"nt2", "taskloop num_tasks(2)", nt2, 2},
                         {"nt20", "taskloop num_tasks(20)", nt20, 20},
                         {"nt200", "taskloop num_tasks(200)", nt200, 200},
                         {"nt2000", "taskloop num_tasks(2000)", nt2000, 2000},
                         {"gs1", "taskloop grainsize(1)", gs1, ITERS}};
    size_t nrows = sizeof rows / sizeof rows[0];
    bool run[sizeof rows / sizeof rows[0]]; /* the rows --only names (all without it) */
    for (size_t r = 0; r < nrows; r++)
        run[r] = only == NULL;
    for (const char *p = only; p && *p;) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (size_t r = 0; r < nrows; r++)
            if (strlen(rows[r].key) == len && !strncmp(p, rows[r].key, len))
                known = run[r] = true;
        if (!known) {
            fprintf(stderr, "taskloop_overhead: --only: unknown row '%.*s' (rows: nt2, nt20, "
                            "nt200, nt2000, gs1)\n", (int)len, p);
            return 2;
        }
        p += len + (p[len] == ',');
    }
    double *ovh = malloc(sizeof(double) * (size_t)reps);
    double *ref = malloc(sizeof(double) * (size_t)reps);
    double *test = malloc(sizeof(double) * (size_t)reps);
    long want = (long)ITERS * innerreps;
    for (size_t r = 0; r < nrows; r++) {
        if (!run[r])
            continue;
        /* Warm-up: threads, caches, and a runtime's learning: 30 taskloops
         * cover ILAN's exploration of a taskloop (at most 24 runs, then it
         * settles), so the rows are the steady cost per taskloop. */
        rows[r].fn(30);
        reference(innerreps, rows[r].ntasks);
        bench_take_count();
        /* At most ROW_BUDGET_S seconds of pairs per row once MIN_PAIRS are
         * in: a runtime whose taskloop costs 30 times its work (per-task
         * descriptors for 10 ns tasks) would otherwise spend minutes on a
         * row whose cost is plain after a few pairs. */
        int done = 0;
        double row_start = now();
        for (int k = 0; k < reps; k++, done++) {
            if (k >= MIN_PAIRS && now() - row_start > ROW_BUDGET_S)
                break;
            ref[k] = reference(innerreps, rows[r].ntasks);
            long got_ref = bench_take_count();
            test[k] = rows[r].fn(innerreps);
            long got = bench_take_count();
            if (got != want || got_ref != want) {
                fprintf(stderr, "taskloop_overhead: %s ran %ld iterations (reference %ld), want %ld\n",
                        rows[r].name, got, got_ref, want);
                return 1;
            }
            ovh[k] = (test[k] - ref[k]) / innerreps * 1e6;
        }
        /* The row's value: the median of the paired differences (see the
         * header); the difference of the minima rides along. */
        double est = median(ovh, done);
        double mt = test[0], mr = ref[0];
        for (int k = 1; k < done; k++) {
            if (test[k] < mt) mt = test[k];
            if (ref[k] < mr) mr = ref[k];
        }
        size_t cap = 200 + 16 * (size_t)done, used;
        char *extra = malloc(cap);
        used = (size_t)snprintf(extra, cap,
                                "\"reference_us_per_loop\": %.3f, \"test_us_per_loop\": %.3f, "
                                "\"min_difference_us\": %.3f, \"threads\": %d, \"paired\": [",
                                mr / innerreps * 1e6, mt / innerreps * 1e6, (mt - mr) / innerreps * 1e6,
                                threads);
        for (int k = 0; k < done && used + 16 < cap; k++)
            used += (size_t)snprintf(extra + used, cap - used, "%s%.4g", k ? ", " : "", ovh[k]);
        snprintf(extra + used, cap - used, "]");
        print_row(rows[r].name, "us/taskloop", "lower", &est, 1, extra);
        free(extra);
        char whole_name[64];
        snprintf(whole_name, sizeof whole_name, "%s whole", rows[r].name);
        for (int k = 0; k < done; k++)
            test[k] = test[k] / innerreps * 1e6;
        double whole = median(test, done);
        print_row(whole_name, "us/taskloop", "lower", &whole, 1, NULL);
    }
    return 0;
}
