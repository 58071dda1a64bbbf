/* taskloop_empty.c - what a taskloop costs when its tasks do nothing: the whole time of an empty taskloop is overhead, so no subtraction can make it negative or hide it in a delay's noise.
 *
 * One thread (in `single`) runs --loops taskloops of num_tasks(--num-tasks)
 * over as many iterations, each counting itself (bench_count_iteration:
 * a counter of its thread's own, found without a runtime call);
 * that is one round. It runs --rounds rounds and prints the fastest and
 * the median round's time per taskloop, in ns. It exits 1 unless every
 * iteration of every taskloop ran exactly once.
 *
 * At 1 thread this resolves what the overhead program's cost rows cannot:
 * there a 2-task taskloop's cost is a difference of two 17 µs delays.
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskloop_empty.c -o taskloop_empty -ldl
 * Usage:  OMP_NUM_THREADS=1 [LD_LIBRARY_PATH=build/lib] ./taskloop_empty [--num-tasks T] [--loops N] [--rounds R]
 */
#include "../common.h"

/* One round: `loops` taskloops of `tasks` tasks, one iteration each. */
static double round_ns(long loops, long tasks)
{
    double t0 = now();
    for (long k = 0; k < loops; k++) {
#pragma omp taskloop num_tasks(tasks)
        for (long i = 0; i < tasks; i++)
            bench_count_iteration();
    }
    return (now() - t0) / (double)loops * 1e9;
}

int main(int argc, char **argv)
{
    long tasks = 2, loops = 1000000;
    int rounds = 7;
    for (int i = 1; i < argc; i += 2) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (val && !strcmp(argv[i], "--num-tasks"))
            tasks = atol(val);
        else if (val && !strcmp(argv[i], "--loops"))
            loops = atol(val);
        else if (val && !strcmp(argv[i], "--rounds"))
            rounds = atoi(val);
        else
            tasks = 0; /* unknown or incomplete: the usage below */
    }
    if (tasks < 1 || loops < 1 || rounds < 1 || rounds > 1000) {
        fprintf(stderr, "usage: %s [--num-tasks T >= 1] [--loops N >= 1] [--rounds 1..1000]\n",
                argv[0]);
        return 2;
    }
    double t[1000];
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < rounds; r++)
        t[r] = round_ns(loops, tasks);
    long total = bench_take_count();
    if (total != (long)rounds * loops * tasks) {
        fprintf(stderr, "taskloop_empty: %ld iterations ran, %ld expected\n", total,
                (long)rounds * loops * tasks);
        return 1;
    }
    double best = t[0];
    for (int r = 1; r < rounds; r++)
        best = t[r] < best ? t[r] : best;
    const char *version, *path;
    printf("runtime=%s threads=%d num_tasks=%ld loops=%ld rounds=%d best_ns=%.1f median_ns=%.1f\n",
           runtime_self(&version, &path), omp_get_max_threads(), tasks, loops, rounds, best,
           median(t, rounds));
    return 0;
}
