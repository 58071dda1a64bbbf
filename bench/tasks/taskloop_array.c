/* taskloop_array.c - a memory-bound sweep over a 2 MB array (256 Ki
 * doubles), repeated: written as a taskloop (default splitting, created by
 * the thread in `single`) and as `omp for schedule(static)`, both inside one
 * parallel region.  Reports microseconds per sweep for each; the final
 * array's checksum is compared with a serial run of the same sweeps.
 *
 * Build:  gcc -fopenmp -O2 bench/tasks/taskloop_array.c -o taskloop_array -ldl
 * Usage:  OMP_NUM_THREADS=2 ./taskloop_array [--quick] [--reps N] [--mb M]
 */
#include "../common.h"

#define SWEEPS 200

static double *a;
static long n;

static void sweep_serial(void)
{
    for (long i = 0; i < n; i++) a[i] = a[i] * 0.5 + (double)(i & 7);
}

static double run_taskloop(void)
{
    double t = 0;
#pragma omp parallel
#pragma omp single
    {
        double t0 = now();
        for (int s = 0; s < SWEEPS; s++) {
#pragma omp taskloop
            for (long i = 0; i < n; i++) a[i] = a[i] * 0.5 + (double)(i & 7);
        }
        t = now() - t0;
    }
    return t;
}

static double run_for(void)
{
    double t = 0;
#pragma omp parallel
    {
        double t0 = now();
        for (int s = 0; s < SWEEPS; s++) {
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++) a[i] = a[i] * 0.5 + (double)(i & 7);
        }
#pragma omp master
        t = now() - t0;
    }
    return t;
}

static void init(void)
{
    for (long i = 0; i < n; i++) a[i] = (double)(i % 1000);
}

static double checksum(void)
{
    double s = 0;
    for (long i = 0; i < n; i++) s += a[i] * (double)(1 + i % 3);
    return s;
}

int main(int argc, char **argv)
{
    double mb = 2.0;
    int reps = parse_reps(argc, argv, 10, 5);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--mb") && i + 1 < argc)
            mb = atof(argv[++i]);
    n = (long)(mb * 1024 * 1024 / sizeof(double));
    a = malloc(sizeof(double) * (size_t)n);
    print_runtime_self();
    int threads = omp_get_max_threads();
    printf("{\"config\": {\"bytes\": %ld, \"sweeps\": %d, \"threads\": %d, \"reps\": %d}}\n",
           n * (long)sizeof(double), SWEEPS, threads, reps);
    init();
    for (int s = 0; s < SWEEPS; s++) sweep_serial();
    double want = checksum();

    struct {
        const char *name;
        double (*fn)(void);
    } rows[] = {{"array taskloop", run_taskloop}, {"array for static", run_for}};
    double *us = malloc(sizeof(double) * (size_t)reps);
    for (int r = 0; r < 2; r++) {
        for (int k = -1; k < reps; k++) { /* k = -1: warm-up */
            init();
            double t = rows[r].fn();
            double got = checksum();
            if (got != want) {
                fprintf(stderr, "taskloop_array: %s checksum %.17g, serial %.17g\n", rows[r].name,
                        got, want);
                return 1;
            }
            if (k >= 0)
                us[k] = t / SWEEPS * 1e6;
        }
        char row[64], extra[64];
        snprintf(row, sizeof row, "%s (%.0f MB)", rows[r].name, mb);
        snprintf(extra, sizeof extra, "\"threads\": %d", threads);
        print_row(row, "us/sweep", "lower", us, reps, extra);
    }
    return 0;
}
