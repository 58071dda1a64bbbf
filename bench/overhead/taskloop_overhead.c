/* taskloop_overhead.c - taskloop overhead measured the way EPCC's schedbench
 * measures loop schedules.  One taskloop of ITERS = 2,000 iterations, each
 * a fixed delay of about 1 us (calibrated), run `innerreps` times by the
 * thread in `single` (the others execute tasks); the reference is the same
 * iterations run serially:
 *     overhead = time per taskloop - (serial time of 2,000 delays / threads)
 * in microseconds per taskloop, for num_tasks(20), num_tasks(200),
 * num_tasks(2000) and grainsize(1).  The body is not empty on purpose: an
 * empty body would reward a runtime that quietly runs the loop serially.
 * Each iteration is counted; the count is checked.
 *
 * Build:  gcc -fopenmp -O2 bench/tasks/taskloop_overhead.c -o taskloop_overhead -ldl
 * Usage:  OMP_NUM_THREADS=2 ./taskloop_overhead [--quick] [--reps N] [--delay-us D]
 */
#include "../common.h"

#define ITERS 2000

static long delay_len;
static long done_iters;

#define TEST(fname, CLAUSE)                                                   \
    static double fname(int innerreps)                                        \
    {                                                                         \
        double t = 0;                                                         \
        _Pragma("omp parallel")                                               \
        {                                                                     \
            _Pragma("omp single")                                             \
            {                                                                 \
                double t0 = now();                                            \
                for (int k = 0; k < innerreps; k++) {                         \
                    _Pragma(CLAUSE)                                           \
                    for (int i = 0; i < ITERS; i++) {                         \
                        delay(delay_len);                                     \
                        __atomic_add_fetch(&done_iters, 1, __ATOMIC_RELAXED); \
                    }                                                         \
                }                                                             \
                t = now() - t0;                                               \
            }                                                                 \
        }                                                                     \
        return t;                                                             \
    }

TEST(nt20, "omp taskloop num_tasks(20)")
TEST(nt200, "omp taskloop num_tasks(200)")
TEST(nt2000, "omp taskloop num_tasks(2000)")
TEST(gs1, "omp taskloop grainsize(1)")

static double reference(int innerreps)
{
    double t0 = now();
    for (int k = 0; k < innerreps; k++)
        for (int i = 0; i < ITERS; i++) delay(delay_len);
    return now() - t0;
}

struct row {
    const char *name;
    double (*fn)(int);
};

int main(int argc, char **argv)
{
    double delay_us = 1.0;
    int reps = parse_reps(argc, argv, 20, 10);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--delay-us") && i + 1 < argc)
            delay_us = atof(argv[++i]);
    print_runtime_self();
    delay_len = calibrate_delay(delay_us);
    int threads = omp_get_max_threads();
    /* innerreps: about 5 ms of work per measurement on one thread */
    int innerreps = (int)(5000.0 / (ITERS * delay_us)) + 1;
    printf("{\"config\": {\"iterations\": %d, \"delay_us\": %.3f, \"delay_len\": %ld, "
           "\"threads\": %d, \"reps\": %d, \"innerreps\": %d}}\n",
           ITERS, delay_us, delay_len, threads, reps, innerreps);
    struct row rows[] = {{"taskloop num_tasks(20)", nt20},
                         {"taskloop num_tasks(200)", nt200},
                         {"taskloop num_tasks(2000)", nt2000},
                         {"taskloop grainsize(1)", gs1}};
    double *ovh = malloc(sizeof(double) * (size_t)reps);
    double *ref = malloc(sizeof(double) * (size_t)reps);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        rows[r].fn(1); /* warm-up */
        double *test = malloc(sizeof(double) * (size_t)reps);
        for (int k = 0; k < reps; k++) {
            done_iters = 0;
            test[k] = rows[r].fn(innerreps);
            if (done_iters != (long)ITERS * innerreps) {
                fprintf(stderr, "taskloop_overhead: %s ran %ld iterations, want %ld\n",
                        rows[r].name, done_iters, (long)ITERS * innerreps);
                return 1;
            }
            ref[k] = reference(innerreps);
        }
        double rmed = median(ref, reps);
        for (int k = 0; k < reps; k++)
            ovh[k] = (test[k] - rmed / threads) / innerreps * 1e6;
        char extra[128];
        snprintf(extra, sizeof extra, "\"reference_us_per_loop\": %.3f, \"threads\": %d",
                 rmed / innerreps * 1e6, threads);
        print_row(rows[r].name, "us/taskloop", "lower", ovh, reps, extra);
        free(test);
    }
    return 0;
}
