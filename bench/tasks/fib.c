/* fib.c - fine-grained task throughput: fib(30) with a task per call and no
 * cutoff (2.7 million tasks), each parent waiting with taskwait.  Prints
 * tasks per second (millions); checks fib(30) = 832040.
 *
 * Build:  gcc -fopenmp -O2 bench/tasks/fib.c -o fib -ldl
 * Usage:  OMP_NUM_THREADS=2 ./fib [--quick] [--reps N] [--n N]
 */
#include "../common.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

int main(int argc, char **argv)
{
    int n = 30;
    int reps = parse_reps(argc, argv, 7, 3);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = atoi(argv[++i]);
    print_runtime_self();
    int threads = omp_get_max_threads();
    long want = fib_serial(n);
    /* tasks created: every call with n >= 2 creates two */
    double ntasks = 2.0 * (double)(fib_serial(n + 1) - 1);
    printf("{\"config\": {\"n\": %d, \"threads\": %d, \"reps\": %d, \"tasks\": %.0f}}\n", n,
           threads, reps, ntasks);
    double *rate = malloc(sizeof(double) * (size_t)reps), *secs = malloc(sizeof(double) * (size_t)reps);
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        long got = -1;
        double t0 = now();
#pragma omp parallel
#pragma omp single
        got = fib(n);
        double t = now() - t0;
        if (got != want) {
            fprintf(stderr, "fib: fib(%d) = %ld, want %ld\n", n, got, want);
            return 1;
        }
        if (r >= 0) {
            secs[r] = t;
            rate[r] = ntasks / t / 1e6;
        }
    }
    char row[64], extra[96];
    snprintf(row, sizeof row, "fib(%d) tasks, %d thr", n, threads);
    snprintf(extra, sizeof extra, "\"threads\": %d, \"seconds_median\": %.4f", threads,
             median(secs, reps));
    print_row(row, "Mtasks/s", "higher", rate, reps, extra);
    return 0;
}
