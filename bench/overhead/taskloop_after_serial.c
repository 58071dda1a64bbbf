/* taskloop_after_serial.c - how long a taskloop takes when the team's other threads fell asleep during a serial phase before it.
 *
 * Each of --reps regions runs, in `single`, --serial-us of serial work
 * (a sleep: the other threads wait at the region's end and go to sleep),
 * then one taskloop of 64 tasks adding 1 to 1 Mi doubles (8 MB, about
 * 1 ms on one CPU). Only the taskloop is timed; printed are the mean and
 * the worst over the reps, in ms, and the array is checked.
 *
 * What it shows: a runtime that wakes only some sleepers for a taskloop
 * (ilan while threads outnumber CPUs) must still reach the threads its
 * tasks are meant for. ilan's ilan and numa modes queue each locality
 * group's tasks for that group's threads; run it on a what-if machine with
 * bound threads:
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskloop_after_serial.c -o taskloop_after_serial
 * Usage:  HWLOC_SYNTHETIC='numa:4 core:2 pu:1' OMP_PROC_BIND=close OMP_NUM_THREADS=8 \
 *         LD_LIBRARY_PATH=build/lib ILAN_TASKLOOP=numa ./taskloop_after_serial [--reps R] [--serial-us U]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N (1 << 20)

static double a[N];

int main(int argc, char **argv)
{
    int reps = 20, serial_us = 20000;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--serial-us") == 0)
            serial_us = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: %s [--reps R] [--serial-us U]\n", argv[0]);
            return 2;
        }
    }
    double total = 0, worst = 0;
    for (int r = 0; r < reps; r++) {
#pragma omp parallel
#pragma omp single
        {
            usleep((useconds_t)serial_us);
            double start = omp_get_wtime();
#pragma omp taskloop num_tasks(64)
            for (int i = 0; i < N; i++)
                a[i] += 1.0;
            double took = omp_get_wtime() - start;
            total += took;
            worst = took > worst ? took : worst;
        }
    }
    for (int i = 0; i < N; i++)
        if (a[i] != (double)reps) {
            fprintf(stderr, "element %d is %g, not %d\n", i, a[i], reps);
            return 1;
        }
    printf("threads %d  taskloop after %d us serial: mean %.3f ms  worst %.3f ms  (%d reps)\n",
           omp_get_max_threads(), serial_us, total / reps * 1e3, worst * 1e3, reps);
    return 0;
}
