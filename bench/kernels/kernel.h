/* kernel.h - what every bench/kernels program shares: options, the timed
 * parallel region per variant, the loop of each variant, and the RESULT line.
 *
 * A kernel declares its defaults and variants, fills its data, then calls
 * kernel_time(body) where body() runs the repetitions and uses KLOOP for
 * its loops; finally kernel_result() compares the checksum with the serial
 * one and prints
 *   RESULT kernel=K variant=V runtime=R threads=T n=N reps=R time_s=S
 *          checksum=C expected=E verified=0|1
 * (one line).  A wrong result also goes to stderr and exits 1.
 *
 * Options: --variant taskloop|static|dynamic|task, --n N (problem size),
 * --reps R (repetitions timed), --num-tasks T (taskloop num_tasks clause;
 * 0 = none, the runtime chooses). */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include "../common.h"
#include <math.h>

enum variant { V_TASKLOOP, V_STATIC, V_DYNAMIC, V_TASK };
static const char *const variant_names[] = {"taskloop", "static", "dynamic", "task"};

struct kopt {
    const char *kernel;   /* kernel name, for messages and the RESULT line */
    enum variant variant; /* which version of the loops runs */
    long n;               /* problem size (meaning is per kernel) */
    int reps;             /* timed repetitions */
    long num_tasks;       /* taskloop num_tasks clause, 0 = none */
};

static struct kopt kopt;

static void kernel_usage(const char *variants, long n, int reps)
{
    fprintf(stderr,
            "usage: %s [--variant %s] [--n N (default %ld)] [--reps R (default %d)] "
            "[--num-tasks T]\n",
            kopt.kernel, variants, n, reps);
}

/* Parse the options.  variants: comma list of the variants this kernel has
 * (the first is the default); n, reps: defaults. */
static void kernel_args(int argc, char **argv, const char *name, const char *variants, long n,
                        int reps)
{
    kopt.kernel = name;
    kopt.n = n;
    kopt.reps = reps;
    const char *v = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            kernel_usage(variants, n, reps);
            exit(0);
        } else if (val && !strcmp(a, "--variant")) {
            v = val;
        } else if (val && !strcmp(a, "--n")) {
            kopt.n = atol(val);
        } else if (val && !strcmp(a, "--reps")) {
            kopt.reps = atoi(val);
        } else if (val && !strcmp(a, "--num-tasks")) {
            kopt.num_tasks = atol(val);
        } else {
            fprintf(stderr, "%s: unknown or incomplete option '%s'\n", name, a);
            kernel_usage(variants, n, reps);
            exit(2);
        }
        i++;
    }
    size_t len = strcspn(variants, ",");
    char want[16];
    snprintf(want, sizeof want, "%.*s", (int)len, variants);
    if (!v)
        v = want;
    int found = -1;
    for (int k = 0; k < 4; k++)
        if (!strcmp(v, variant_names[k]))
            found = k;
    char padded[64];
    snprintf(padded, sizeof padded, ",%s,", variants);
    char key[24];
    snprintf(key, sizeof key, ",%s,", v);
    if (found < 0 || !strstr(padded, key)) {
        fprintf(stderr, "%s: variant '%s' not available (choose from %s)\n", name, v, variants);
        exit(2);
    }
    kopt.variant = (enum variant)found;
    if (kopt.n < 1 || kopt.reps < 1 || kopt.num_tasks < 0) {
        fprintf(stderr, "%s: --n and --reps must be >= 1, --num-tasks >= 0\n", name);
        exit(2);
    }
}

/* Run body() in the variant's parallel region and return its wall time:
 * taskloop and task variants run it in `parallel` + `single` (the thesis's
 * shape: one thread creates the taskloops), the others on every thread
 * (body's orphaned `omp for` loops bind to the region).  The team is
 * started and spread first (bench_spread_team), so that start-up is not
 * timed. */
static double kernel_time(void (*body)(void))
{
    bench_spread_team();
    double t0 = now();
    if (kopt.variant == V_TASKLOOP || kopt.variant == V_TASK) {
#pragma omp parallel
#pragma omp single
        body();
    } else {
#pragma omp parallel
        body();
    }
    return now() - t0;
}

/* for (long I = LO; I < HI; I++) { ... } as the variant says: a taskloop
 * (created by the single thread) or a worksharing loop (all threads).  Both
 * end with all iterations done (taskloop's implicit taskgroup, omp for's
 * barrier), so the next repetition may read what this one wrote. */
#define KLOOP(I, LO, HI, ...)                                                     \
    do {                                                                          \
        long kl_lo_ = (LO), kl_hi_ = (HI);                                        \
        if (kopt.variant == V_TASKLOOP && kopt.num_tasks > 0) {                   \
            _Pragma("omp taskloop num_tasks(kopt.num_tasks)")                     \
            for (long I = kl_lo_; I < kl_hi_; I++) { __VA_ARGS__ }                \
        } else if (kopt.variant == V_TASKLOOP) {                                  \
            _Pragma("omp taskloop")                                               \
            for (long I = kl_lo_; I < kl_hi_; I++) { __VA_ARGS__ }                \
        } else if (kopt.variant == V_DYNAMIC) {                                   \
            _Pragma("omp for schedule(dynamic)")                                  \
            for (long I = kl_lo_; I < kl_hi_; I++) { __VA_ARGS__ }                \
        } else {                                                                  \
            _Pragma("omp for schedule(static)")                                   \
            for (long I = kl_lo_; I < kl_hi_; I++) { __VA_ARGS__ }                \
        }                                                                         \
    } while (0)

/* Allocate n doubles or exit with a message. */
__attribute__((unused)) static double *kernel_alloc(long n)
{
    double *p = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!p) {
        fprintf(stderr, "%s: out of memory (%ld doubles); lower --n\n", kopt.kernel, n);
        exit(2);
    }
    return p;
}

/* Sum of a[i] * (1 + i % 7): order-fixed, so serial and parallel agree. */
__attribute__((unused)) static double kernel_checksum(const double *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += a[i] * (double)(1 + i % 7);
    return s;
}

/* Print the RESULT line; a checksum more than tol (relative) away from the
 * serial one is a wrong result: say so on stderr and exit 1. */
static int kernel_result(double time_s, double checksum, double expected, double tol)
{
    const char *version, *path;
    const char *rt = runtime_self(&version, &path);
    int ok = fabs(checksum - expected) <= tol * fmax(1.0, fabs(expected));
    printf("RESULT kernel=%s variant=%s runtime=%s threads=%d n=%ld reps=%d num_tasks=%ld "
           "time_s=%.6f checksum=%.17g expected=%.17g verified=%d\n",
           kopt.kernel, variant_names[kopt.variant], rt, omp_get_max_threads(), kopt.n, kopt.reps,
           kopt.num_tasks, time_s, checksum, expected, ok);
    fflush(stdout);
    if (!ok) {
        fprintf(stderr, "%s: wrong result (%s variant on %s): checksum %.17g, serial %.17g\n",
                kopt.kernel, variant_names[kopt.variant], rt, checksum, expected);
        return 1;
    }
    return 0;
}

#endif
