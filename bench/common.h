/* common.h - helpers shared by every benchmark (bench/overhead, bench/kernels):
 * timing, a calibrated delay body, medians, the JSON row format of the
 * overhead programs, and the runtime identity that the `ilan bench` runner
 * checks (ilan if ilan_version resolves, libomp if __kmpc_fork_call does,
 * else libgomp). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile long bench_sink; /* defeats dead-code elimination */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Starts the team and waits, untimed, until the kernel has spread its
 * threads over min(threads, CPUs) distinct CPUs in 3 regions in a row (or
 * 200 regions have passed): regions in which every thread keeps its CPU
 * busy for 1 ms.  Linux often starts a new thread on its creator's CPU and
 * moves one of the two only after 10-40 ms on the 2-CPU VM; a timed run
 * that began so ran its first loops serially: CG at 2 threads began so in
 * 16 of 16 runs on libomp, 10 of 20 on ilan and 1 of 20 on libgomp,
 * at random, costing 2-10 % of the run.  The benchmarks measure the
 * runtimes, not that lottery. */
__attribute__((unused)) static void bench_spread_team(void)
{
    cpu_set_t mask;
    int cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
    int want = omp_get_max_threads() < cpus ? omp_get_max_threads() : cpus;
    for (int round = 0, spread = 0; round < 200 && spread < 3; round++) {
        cpu_set_t used;
        CPU_ZERO(&used);
#pragma omp parallel shared(used)
        {
            double until = now() + 1e-3;
            while (now() < until)
                bench_sink += 0;
            int c = sched_getcpu();
#pragma omp critical
            if (c >= 0 && c < CPU_SETSIZE)
                CPU_SET(c, &used);
        }
        spread = CPU_COUNT(&used) >= want ? spread + 1 : 0;
    }
}

/* Iterations run, counted per thread on a line of its own: one shared
 * counter bounced between the CPUs at every iteration, and what that cost
 * depended on how the threads' iterations happened to interleave (tens of
 * microseconds per taskloop either way, in the test and the reference
 * alike: it was most of the rows' noise). */
#define BENCH_COUNTERS 1024
__attribute__((unused)) static struct {
    long n;           /* iterations this thread ran */
    char pad[64 - sizeof(long)];
} bench_done[BENCH_COUNTERS];

/* The counters handed out, one per thread at its first iteration. */
__attribute__((unused)) static int bench_counters_given;
/* This thread's counter (NULL until its first iteration). */
__attribute__((unused)) static __thread long *bench_my_count;

/* Counts an iteration of the calling thread. Its counter is found through
 * a thread-local pointer, not omp_get_thread_num(): a runtime call per
 * iteration (2,000 per taskloop in taskloop_overhead.c) cost the runtimes
 * differently, which a row would have charged to the taskloop. */
__attribute__((unused)) static void bench_count_iteration(void)
{
    long *n = bench_my_count;
    if (!n)
        n = bench_my_count =
            &bench_done[__atomic_fetch_add(&bench_counters_given, 1, __ATOMIC_RELAXED) %
                        BENCH_COUNTERS].n;
    __atomic_store_n(n, __atomic_load_n(n, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* Sum of the counters, which it resets (called outside any region). */
__attribute__((unused)) static long bench_take_count(void)
{
    long sum = 0;
    for (int i = 0; i < BENCH_COUNTERS; i++) {
        sum += bench_done[i].n;
        bench_done[i].n = 0;
    }
    return sum;
}

/* The delay body: the asm barrier makes the compiler keep every iteration. */
__attribute__((unused)) static void __attribute__((noinline)) delay(long n)
{
    long a = 0;
    for (long i = 0; i < n; i++) {
        a += i;
        __asm__ volatile("" : "+r"(a));
    }
    if (a < 0)
        bench_sink = a;
}

/* delay() units for about `us` microseconds (best of a few timings). */
__attribute__((unused)) static long calibrate_delay(double us)
{
    long n = 1000;
    double t;
    for (;;) {
        double t0 = now();
        delay(n);
        t = now() - t0;
        if (t > 0.01)
            break;
        n *= 2;
    }
    for (int k = 0; k < 5; k++) {
        double t0 = now();
        delay(n);
        double t1 = now() - t0;
        if (t1 < t)
            t = t1;
    }
    long len = (long)(us * 1e-6 * (double)n / t + 0.5);
    return len < 1 ? 1 : len;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double *c = malloc(sizeof(double) * (size_t)n);
    memcpy(c, v, sizeof(double) * (size_t)n);
    qsort(c, (size_t)n, sizeof(double), cmp_double);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

/* One result row.  better: "lower" (times, overheads) or "higher" (rates). */
__attribute__((unused)) static void print_row(const char *row, const char *unit, const char *better, const double *v,
                      int n, const char *extra)
{
    double mn = v[0], mx = v[0];
    for (int k = 1; k < n; k++) {
        if (v[k] < mn) mn = v[k];
        if (v[k] > mx) mx = v[k];
    }
    printf("{\"row\": \"%s\", \"unit\": \"%s\", \"better\": \"%s\", \"median\": %.6g, "
           "\"min\": %.6g, \"max\": %.6g, \"samples\": [",
           row, unit, better, median(v, n), mn, mx);
    for (int k = 0; k < n; k++) printf("%s%.6g", k ? ", " : "", v[k]);
    printf("]%s%s}\n", extra ? ", " : "", extra ? extra : "");
    fflush(stdout);
}

/* Which OpenMP runtime this process really uses: "ilan" if ilan_version
 * resolves, "libomp" if __kmpc_fork_call does, else "libgomp".  *version gets
 * ilan's version string (NULL for the others), *path the library's file. */
__attribute__((unused)) static const char *runtime_self(const char **version, const char **path)
{
    Dl_info info = {0};
    const ElfW(Sym) *esym = NULL;
    void *sym = dlsym(RTLD_DEFAULT, "ilan_version");
    const char *name = "libgomp";
    *version = NULL;
    if (sym) {
        name = "ilan";
        dladdr1(sym, &info, (void **)&esym, RTLD_DL_SYMENT);
        if (esym && ELF64_ST_TYPE(esym->st_info) == STT_OBJECT)
            *version = (const char *)sym; /* const char ilan_version[] */
        else
            *version = ((const char *(*)(void))sym)(); /* const char *ilan_version(void) */
    } else if ((sym = dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))) {
        name = "libomp";
        dladdr(sym, &info);
    } else if ((sym = dlsym(RTLD_DEFAULT, "GOMP_parallel"))) {
        dladdr(sym, &info);
    }
    *path = info.dli_fname ? info.dli_fname : "?";
    return name;
}

/* Print the runtime identity as the JSON line the runner checks. */
__attribute__((unused)) static void print_runtime_self(void)
{
    const char *version, *path;
    const char *name = runtime_self(&version, &path);
    if (version)
        printf("{\"runtime_self\": \"%s %s\", \"path\": \"%s\"}\n", name, version, path);
    else
        printf("{\"runtime_self\": \"%s\", \"path\": \"%s\"}\n", name, path);
    fflush(stdout);
}

/* --quick and --reps N, the options every tasking benchmark takes. */
__attribute__((unused)) static int parse_reps(int argc, char **argv, int full, int quick)
{
    int reps = full;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            reps = quick;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
    }
    if (reps < 1)
        reps = 1;
    if (reps > 1000)
        reps = 1000;
    return reps;
}

#endif
