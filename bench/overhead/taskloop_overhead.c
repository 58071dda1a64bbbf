/* taskloop_overhead.c - what a taskloop costs beyond its iterations, EPCC schedbench style, against the ideal split of the same work over the same threads.
 *
 * One taskloop of ITERS = 2,000 iterations, each a fixed delay of about
 * 1 us (calibrated; --delay-us), run `innerreps` times by the thread in
 * `single` (the others execute tasks), for num_tasks(2), num_tasks(20),
 * num_tasks(200), num_tasks(2000) and grainsize(1).  The body is not empty
 * on purpose: an empty body would reward a runtime that quietly runs the
 * loop serially.  Each iteration is counted; the count is checked.
 *
 * The reference is the ideal: the same innerreps * ITERS delays shared by
 * the same team in one parallel region (fork and join included, like the
 * test), each thread claiming guided chunks (a share of what is left) from
 * one counter, so the threads end within one delay of each other at the
 * speeds their CPUs have at that moment.  An earlier reference (the serial
 * time divided by the threads, on one CPU) charged every runtime with the
 * other CPU's slowness and printed negative costs for the rows where a
 * runtime balanced better than that split.  Every test timing is paired
 * with the reference timing just before it, and the row's value is
 *     overhead = (min_k test_k - min_k reference_k) / innerreps
 * in microseconds per taskloop: a shared VM only ever adds time, so each
 * minimum is the least disturbed timing of its kind.  The median of the
 * paired differences (test_k - reference_k), used before, moved with
 * whichever timing of a pair a disturbance hit and printed negative costs
 * when it hit the reference; the pairs are still in the row ("paired").
 * innerreps: about --measure-ms (default 5) ms of work per measurement on
 * one thread.
 * Before each row, 30 taskloops of it run unmeasured: a runtime that learns
 * per taskloop (ILAN explores a taskloop's configurations for at most 24
 * runs) is measured once it has learned.
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskloop_overhead.c -o taskloop_overhead -ldl
 * Usage:  OMP_NUM_THREADS=2 ./taskloop_overhead [--quick] [--reps N] [--delay-us D] [--measure-ms M]
 */
#include "../common.h"

#define ITERS 2000

static long delay_len;
static long done_iters;

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
                        __atomic_add_fetch(&done_iters, 1, __ATOMIC_RELAXED); \
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

/* The ideal: innerreps * ITERS delays (each counted, like the test's)
 * shared by the team in guided chunks of what is left / (2 * threads). */
static double reference(int innerreps)
{
    long total = (long)innerreps * ITERS, next = 0;
    double t0 = now();
#pragma omp parallel
    {
        long twice = 2L * omp_get_num_threads();
        for (;;) {
            long lo = __atomic_load_n(&next, __ATOMIC_RELAXED), chunk;
            do {
                if (lo >= total)
                    break;
                chunk = (total - lo) / twice;
                if (chunk < 1)
                    chunk = 1;
            } while (!__atomic_compare_exchange_n(&next, &lo, lo + chunk, 0, __ATOMIC_RELAXED,
                                                  __ATOMIC_RELAXED));
            if (lo >= total)
                break;
            for (long i = 0; i < chunk; i++) {
                delay(delay_len);
                __atomic_add_fetch(&done_iters, 1, __ATOMIC_RELAXED);
            }
        }
    }
    return now() - t0;
}

struct row {
    const char *name;
    double (*fn)(int);
};

int main(int argc, char **argv)
{
    double delay_us = 1.0, measure_ms = 5.0;
    int reps = parse_reps(argc, argv, 20, 10);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--delay-us") && i + 1 < argc)
            delay_us = atof(argv[++i]);
        else if (!strcmp(argv[i], "--measure-ms") && i + 1 < argc)
            measure_ms = atof(argv[++i]);
    }
    print_runtime_self();
    delay_len = calibrate_delay(delay_us);
    int threads = omp_get_max_threads();
    /* innerreps: about measure_ms of work per measurement on one thread */
    int innerreps = (int)(measure_ms * 1000.0 / (ITERS * delay_us)) + 1;
    printf("{\"config\": {\"iterations\": %d, \"delay_us\": %.3f, \"delay_len\": %ld, "
           "\"threads\": %d, \"reps\": %d, \"innerreps\": %d, "
           "\"reference\": \"guided split over the team, min of test - min of reference\"}}\n",
           ITERS, delay_us, delay_len, threads, reps, innerreps);
    struct row rows[] = {{"taskloop num_tasks(2)", nt2},
                         {"taskloop num_tasks(20)", nt20},
                         {"taskloop num_tasks(200)", nt200},
                         {"taskloop num_tasks(2000)", nt2000},
                         {"taskloop grainsize(1)", gs1}};
    double *ovh = malloc(sizeof(double) * (size_t)reps);
    double *ref = malloc(sizeof(double) * (size_t)reps);
    double *test = malloc(sizeof(double) * (size_t)reps);
    long want = (long)ITERS * innerreps;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        /* Warm-up: threads, caches, and a runtime's learning: 30 taskloops
         * cover ILAN's exploration of a taskloop (at most 24 runs, then it
         * settles), so the rows are the steady cost per taskloop. */
        rows[r].fn(30);
        reference(innerreps);
        for (int k = 0; k < reps; k++) {
            done_iters = 0;
            ref[k] = reference(innerreps);
            long got_ref = done_iters;
            done_iters = 0;
            test[k] = rows[r].fn(innerreps);
            if (done_iters != want || got_ref != want) {
                fprintf(stderr, "taskloop_overhead: %s ran %ld iterations (reference %ld), want %ld\n",
                        rows[r].name, done_iters, got_ref, want);
                return 1;
            }
            ovh[k] = (test[k] - ref[k]) / innerreps * 1e6;
        }
        /* The row's value: the fastest test timing minus the fastest
         * reference timing. The VM only ever adds time (another process,
         * a slow phase), so each minimum is the least disturbed timing of
         * its kind; a median of paired differences moved by whichever of
         * the pair a disturbance hit, and printed negative costs whenever
         * it hit the reference. The paired differences stay in the row. */
        double mt = test[0], mr = ref[0];
        for (int k = 1; k < reps; k++) {
            if (test[k] < mt) mt = test[k];
            if (ref[k] < mr) mr = ref[k];
        }
        double est = (mt - mr) / innerreps * 1e6;
        size_t cap = 160 + 16 * (size_t)reps, used;
        char *extra = malloc(cap);
        used = (size_t)snprintf(extra, cap,
                                "\"reference_us_per_loop\": %.3f, \"test_us_per_loop\": %.3f, "
                                "\"threads\": %d, \"paired\": [",
                                mr / innerreps * 1e6, mt / innerreps * 1e6, threads);
        for (int k = 0; k < reps && used + 16 < cap; k++)
            used += (size_t)snprintf(extra + used, cap - used, "%s%.4g", k ? ", " : "", ovh[k]);
        snprintf(extra + used, cap - used, "]");
        print_row(rows[r].name, "us/taskloop", "lower", &est, 1, extra);
        free(extra);
    }
    return 0;
}
