/* taskloop_timeline.c - where a 2-task taskloop's time goes at 2 threads: when each task starts after the taskloop begins, and how long its creator takes to return after the last task ends.
 *
 * One thread (in `single`) runs --loops taskloops of num_tasks(2), each
 * task spinning --work-us of work, and stamps with the TSC: the taskloop's
 * entry, each task's start and end, and its return. For the taskloops
 * whose two tasks ran on different threads (the creator's own and the
 * other one), after the first tenth, it prints the medians in ns of:
 *   creator_start  the creator's task starts after the entry
 *   other_start    the other thread's task starts after the entry
 *   end_gap        the other task ends after the creator's (< 0: before)
 *   after_last     the creator returns after the last task ends
 *   total          entry to return
 * A runtime whose creator ends first and must then hear from the other
 * thread pays end_gap and a cross-CPU after_last; one whose creator starts
 * late pays creator_start. It exits 1 unless every task ran exactly once
 * and some taskloop ran on two threads.
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskloop_timeline.c -o taskloop_timeline -ldl
 * Usage:  OMP_NUM_THREADS=2 [LD_LIBRARY_PATH=build/lib] ./taskloop_timeline [--loops N] [--work-us U]
 */
#include "../common.h"
#include <x86intrin.h>

/* What one taskloop's stamps were (TSC ticks). */
struct stamps {
    unsigned long long entry, ret;    /* before the taskloop, after it */
    unsigned long long start[2];      /* each task's first instruction */
    unsigned long long end[2];        /* each task's last */
    int by_creator[2];                /* the task ran on the creating thread */
    int runs[2];                      /* times each task ran (must be 1) */
};

/* Spins until `ticks` TSC ticks have passed. */
static void spin_ticks(unsigned long long ticks)
{
    unsigned long long t = __rdtsc();
    while (__rdtsc() - t < ticks)
        ;
}

/* TSC ticks per ns, against omp_get_wtime over 50 ms. */
static double ticks_per_ns(void)
{
    unsigned long long a = __rdtsc();
    double t = omp_get_wtime();
    while (omp_get_wtime() - t < 0.05)
        ;
    return (double)(__rdtsc() - a) / ((omp_get_wtime() - t) * 1e9);
}

int main(int argc, char **argv)
{
    int loops = 20000;
    double work_us = 7.5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--loops"))
            loops = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--work-us"))
            work_us = atof(argv[i + 1]);
        else {
            fprintf(stderr, "usage: %s [--loops N] [--work-us U]\n", argv[0]);
            return 2;
        }
    }
    if (loops < 10 || work_us < 0) {
        fprintf(stderr, "%s: need --loops >= 10 and --work-us >= 0\n", argv[0]);
        return 2;
    }
    struct stamps *s = calloc((size_t)loops, sizeof *s);
    double *v[5];
    for (int k = 0; k < 5; k++)
        v[k] = malloc(sizeof(double) * (size_t)loops);
    if (!s || !v[0] || !v[1] || !v[2] || !v[3] || !v[4]) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 2;
    }
    double tpn = ticks_per_ns();
    unsigned long long work = (unsigned long long)(work_us * 1e3 * tpn);
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < loops; k++) {
        int creator = omp_get_thread_num();
        s[k].entry = __rdtsc();
#pragma omp taskloop num_tasks(2) firstprivate(k, creator)
        for (int i = 0; i < 2; i++) {
            unsigned long long start = __rdtsc();
            spin_ticks(work);
            s[k].start[i] = start;
            s[k].end[i] = __rdtsc();
            s[k].by_creator[i] = omp_get_thread_num() == creator;
            s[k].runs[i]++;
        }
        s[k].ret = __rdtsc();
    }
    int n = 0;
    for (int k = 0; k < loops; k++) {
        if (s[k].runs[0] != 1 || s[k].runs[1] != 1) {
            fprintf(stderr, "taskloop %d: its tasks ran %d and %d times\n", k, s[k].runs[0],
                    s[k].runs[1]);
            return 1;
        }
        int c = s[k].by_creator[0] ? 0 : 1, o = 1 - c;
        if (k < loops / 10 || !s[k].by_creator[c] || s[k].by_creator[o])
            continue; /* warm-up, or both tasks on one thread */
        unsigned long long last = s[k].end[0] > s[k].end[1] ? s[k].end[0] : s[k].end[1];
        v[0][n] = (double)(s[k].start[c] - s[k].entry) / tpn;
        v[1][n] = ((double)s[k].start[o] - (double)s[k].entry) / tpn;
        v[2][n] = ((double)s[k].end[o] - (double)s[k].end[c]) / tpn;
        v[3][n] = (double)(s[k].ret - last) / tpn;
        v[4][n] = (double)(s[k].ret - s[k].entry) / tpn;
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "no taskloop ran its tasks on two threads: run with OMP_NUM_THREADS=2\n");
        return 1;
    }
    printf("threads %d, %d taskloops of two %.2f us tasks, %d split over two threads: "
           "creator_start %.0f  other_start %.0f  end_gap %.0f  after_last %.0f  total %.0f ns\n",
           omp_get_max_threads(), loops - loops / 10, work_us, n, median(v[0], n),
           median(v[1], n), median(v[2], n), median(v[3], n), median(v[4], n));
    return 0;
}
