/* loops.c - worksharing-loop kernels (balanced triad, imbalanced triangular/Mandelbrot/random-cost loops, K-Means, a 100-step time loop) under one schedule chosen by --variant. */
/*
 * Usage: loops --kernel triad|triangular|mandel|random|kmeans|timestep
 *              --variant V [--n N] [--reps R] [--skip S]
 *
 * Variants (the schedule clause of every timed loop):
 *   static, static1, guided            schedule(static), (static,1), (guided)
 *   dynamic1, dynamic16                schedule(dynamic,1), (dynamic,16)
 *   dynamic                            plain schedule(dynamic): gcc emits
 *                                      nonmonotonic:dynamic, ilan's adaptive
 *   runtime:NAME                       schedule(runtime); the run must have
 *                                      OMP_SCHEDULE=NAME (checked), e.g.
 *                                      runtime:fac2, runtime:static_steal
 *
 * Only the parallel region is timed (timestep: only its steps from --skip
 * on, so that auto's trial can be left out).  Every kernel recomputes its
 * result serially and prints one line
 *   RESULT kernel=K variant=V runtime=R threads=T n=N reps=R time_s=S
 *          checksum=C expected=E verified=0|1
 * and exits 1 when the checksums differ (all results here are exact: the
 * parallel and serial codes do the same operations per iteration, and the
 * K-Means sums are integers).
 */
#include "../common.h"
#include <math.h>
#include <stdint.h>

enum sched { S_STATIC, S_STATIC1, S_GUIDED, S_DYNAMIC1, S_DYNAMIC16, S_DYNAMIC, S_RUNTIME };
static const char *const sched_names[] = {"static",    "static1", "guided", "dynamic1",
                                          "dynamic16", "dynamic", NULL};

static struct {
    const char *kernel;
    const char *variant;
    enum sched sched;
    long n;
    int reps;
    int skip;
} lopt;

/* for (long I = LO; I < HI; I++) { ... } as an orphaned `omp for` with the
 * variant's schedule (all threads of the region take the same branch). */
#define SLOOP(I, LO, HI, ...)                                                   \
    do {                                                                        \
        long sl_lo_ = (LO), sl_hi_ = (HI);                                      \
        switch (lopt.sched) {                                                   \
        case S_STATIC:                                                          \
            _Pragma("omp for schedule(static)")                                 \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_STATIC1:                                                         \
            _Pragma("omp for schedule(static, 1)")                              \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_GUIDED:                                                          \
            _Pragma("omp for schedule(guided)")                                 \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_DYNAMIC1:                                                        \
            _Pragma("omp for schedule(dynamic, 1)")                             \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_DYNAMIC16:                                                       \
            _Pragma("omp for schedule(dynamic, 16)")                            \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_DYNAMIC:                                                         \
            _Pragma("omp for schedule(dynamic)")                                \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        case S_RUNTIME:                                                         \
            _Pragma("omp for schedule(runtime)")                                \
            for (long I = sl_lo_; I < sl_hi_; I++) { __VA_ARGS__ }              \
            break;                                                              \
        }                                                                       \
    } while (0)

static void *xalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "loops %s: out of memory (%zu bytes); lower --n\n", lopt.kernel, bytes);
        exit(2);
    }
    return p;
}

/* Deterministic pseudo-random numbers (64-bit LCG, top 53 bits): [0, 1). */
static double lcg_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* A compute body of w steps the compiler must keep (x stays bounded). */
static double __attribute__((noinline)) spin(double x, long w)
{
    for (long k = 0; k < w; k++)
        x = x * 0.999999 + 1e-6 * (double)(k & 7);
    return x;
}

/* ---------------------------------------------------------------- triad */
static double *ta, *tb, *tc;

static void triad_body(void)
{
    for (int r = 0; r < lopt.reps; r++)
        SLOOP(i, 0, lopt.n, ta[i] = tb[i] + 3.0 * tc[i];);
}

static double weighted(const double *a, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += a[i] * (double)(1 + i % 7);
    return s;
}

/* --------------------------------------------- triangular, random, mandel */
static double *out, *xv;
static long *cost;

/* out[i] = sum_{j<=i} x[j] * x[i-j]: iteration i costs i+1. */
static double tri_row(long i)
{
    double s = 0;
    for (long j = 0; j <= i; j++)
        s += xv[j] * xv[i - j];
    return s;
}

static void triangular_body(void)
{
    for (int r = 0; r < lopt.reps; r++)
        SLOOP(i, 0, lopt.n, out[i] = tri_row(i););
}

static void random_body(void)
{
    for (int r = 0; r < lopt.reps; r++)
        SLOOP(i, 0, lopt.n, out[i] = spin((double)(i % 101), cost[i]););
}

#define MANDEL_MAXIT 1000
/* Escape iterations summed over row i of an n x n image of [-2,0.5]x[-0.5,1.25]
 * (not symmetric: a static split is not balanced by accident). */
static double mandel_row(long i)
{
    long n = lopt.n, total = 0;
    double ci = -0.5 + 1.75 * (double)i / (double)n;
    for (long j = 0; j < n; j++) {
        double cr = -2.0 + 2.5 * (double)j / (double)n, zr = 0, zi = 0;
        int k = 0;
        while (k < MANDEL_MAXIT && zr * zr + zi * zi <= 4.0) {
            double t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            k++;
        }
        total += k;
    }
    return (double)total;
}

static void mandel_body(void)
{
    for (int r = 0; r < lopt.reps; r++)
        SLOOP(i, 0, lopt.n, out[i] = mandel_row(i););
}

/* --------------------------------------------------------------- kmeans */
/* Integer coordinates, so that every sum is exact in any order.  Points are
 * stored cluster by cluster, cluster c holding a share proportional to c+1;
 * the assignment uses partial-distance search (stop summing a center's
 * distance once it exceeds the best so far), centers tried in index order:
 * points of the late clusters prune less, so the cost of an iteration grows
 * along the array and the cluster sizes differ. */
#define KM_D 8
#define KM_K 16
static int32_t *kpts;            /* n x KM_D */
static int *kassign;
static int64_t kcent[KM_K * KM_D];
static int64_t ksum[KM_K * KM_D];
static int64_t kcnt[KM_K];

static int km_nearest(const int32_t *p, const int64_t *cent)
{
    int64_t best = INT64_MAX;
    int bi = 0;
    for (int c = 0; c < KM_K; c++) {
        int64_t d = 0;
        for (int k = 0; k < KM_D && d < best; k++) {
            int64_t t = (int64_t)p[k] - cent[c * KM_D + k];
            d += t * t;
        }
        if (d < best) {
            best = d;
            bi = c;
        }
    }
    return bi;
}

static void km_init(int64_t *cent)
{
    /* the first point of each generated cluster */
    long start = 0, n = lopt.n;
    for (int c = 0; c < KM_K; c++) {
        for (int k = 0; k < KM_D; k++)
            cent[c * KM_D + k] = kpts[start * KM_D + k];
        start += n * (c + 1) / (KM_K * (KM_K + 1) / 2);
        if (start >= n)
            start = n - 1;
    }
}

static void km_update(int64_t *cent, const int64_t *sum, const int64_t *cnt)
{
    for (int c = 0; c < KM_K; c++)
        if (cnt[c])
            for (int k = 0; k < KM_D; k++)
                cent[c * KM_D + k] = sum[c * KM_D + k] / cnt[c];
}

static void kmeans_body(void)
{
    for (int r = 0; r < lopt.reps; r++) {
#pragma omp single
        {
            memset(ksum, 0, sizeof ksum);
            memset(kcnt, 0, sizeof kcnt);
        }
        SLOOP(i, 0, lopt.n, kassign[i] = km_nearest(kpts + i * KM_D, kcent););
#pragma omp for schedule(static) reduction(+ : ksum[:KM_K * KM_D], kcnt[:KM_K])
        for (long i = 0; i < lopt.n; i++) {
            int c = kassign[i];
            kcnt[c]++;
            for (int k = 0; k < KM_D; k++)
                ksum[c * KM_D + k] += kpts[i * KM_D + k];
        }
#pragma omp single
        km_update(kcent, ksum, kcnt);
    }
}

static double km_checksum(const int *assign, const int64_t *cent)
{
    double s = 0;
    for (long i = 0; i < lopt.n; i++)
        s += (double)assign[i] * (double)(1 + i % 7);
    for (int j = 0; j < KM_K * KM_D; j++)
        s += (double)cent[j];
    return s;
}

/* ------------------------------------------------------------- timestep */
/* reps steps of a 3-point stencil whose cells cost weight[i] (a band of
 * cells 30x dearer than the rest): the same loop every step, as
 * OMP_SCHEDULE=auto needs to learn it.  Steps before --skip are not timed. */
static double *u0, *u1;
static double t_start, t_end;

static double cell(const double *u, long i, long n, long w)
{
    double l = u[i > 0 ? i - 1 : i], r = u[i + 1 < n ? i + 1 : i];
    return spin(0.5 * u[i] + 0.25 * (l + r), w);
}

static void timestep_body(void)
{
    long n = lopt.n;
    for (int s = 0; s < lopt.reps; s++) {
        if (s == lopt.skip) {
#pragma omp barrier
#pragma omp masked
            t_start = now();
        }
        const double *src = s % 2 ? u1 : u0;
        double *dst = s % 2 ? u0 : u1;
        SLOOP(i, 0, n, dst[i] = cell(src, i, n, cost[i]););
    }
#pragma omp masked
    t_end = now();
}

/* ----------------------------------------------------------------- main */
static double run_region(void (*body)(void))
{
    bench_spread_team(); /* untimed: the team started and spread (common.h) */
    double t0 = now();
#pragma omp parallel
    body();
    return now() - t0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: loops --kernel triad|triangular|mandel|random|kmeans|timestep "
               "--variant static|static1|guided|dynamic1|dynamic16|dynamic|runtime:NAME "
               "[--n N] [--reps R] [--skip S]\n");
}

int main(int argc, char **argv)
{
    lopt.variant = "static";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (val && !strcmp(a, "--kernel")) {
            lopt.kernel = val;
        } else if (val && !strcmp(a, "--variant")) {
            lopt.variant = val;
        } else if (val && !strcmp(a, "--n")) {
            lopt.n = atol(val);
        } else if (val && !strcmp(a, "--reps")) {
            lopt.reps = atoi(val);
        } else if (val && !strcmp(a, "--skip")) {
            lopt.skip = atoi(val);
        } else {
            fprintf(stderr, "loops: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!lopt.kernel) {
        usage(stderr);
        return 2;
    }
    int found = -1;
    for (int k = 0; sched_names[k]; k++)
        if (!strcmp(lopt.variant, sched_names[k]))
            found = k;
    if (found >= 0) {
        lopt.sched = (enum sched)found;
    } else if (!strncmp(lopt.variant, "runtime:", 8)) {
        const char *env = getenv("OMP_SCHEDULE");
        if (!env || strcmp(env, lopt.variant + 8)) {
            fprintf(stderr, "loops: variant %s needs OMP_SCHEDULE=%s (it is %s)\n", lopt.variant,
                    lopt.variant + 8, env ? env : "unset");
            return 2;
        }
        lopt.sched = S_RUNTIME;
    } else {
        fprintf(stderr, "loops: unknown variant '%s'\n", lopt.variant);
        usage(stderr);
        return 2;
    }
    long n = lopt.n;
    if (n < 1 || lopt.reps < 1 || lopt.skip < 0 || lopt.skip >= lopt.reps) {
        fprintf(stderr, "loops: need --n >= 1, --reps >= 1 and 0 <= --skip < --reps\n");
        return 2;
    }

    double t = 0, sum = 0, expect = 0;
    const char *k = lopt.kernel;
    if (!strcmp(k, "triad")) {
        ta = xalloc(sizeof(double) * (size_t)n);
        tb = xalloc(sizeof(double) * (size_t)n);
        tc = xalloc(sizeof(double) * (size_t)n);
#pragma omp parallel for schedule(static) /* first touch as a static loop */
        for (long i = 0; i < n; i++) {
            ta[i] = 0;
            tb[i] = (double)(i % 1000);
            tc[i] = (double)(i % 17);
        }
        t = run_region(triad_body);
        sum = weighted(ta, n);
        for (long i = 0; i < n; i++)
            expect += ((double)(i % 1000) + 3.0 * (double)(i % 17)) * (double)(1 + i % 7);
    } else if (!strcmp(k, "triangular") || !strcmp(k, "random") || !strcmp(k, "mandel")) {
        out = xalloc(sizeof(double) * (size_t)n);
        xv = xalloc(sizeof(double) * (size_t)n);
        cost = xalloc(sizeof(long) * (size_t)n);
        uint64_t seed = 12345;
        for (long i = 0; i < n; i++) {
            xv[i] = 1.0 / (double)(1 + i % 13);
            /* Pareto-distributed cost (alpha 1.5, mean 60 steps, capped): a
             * few iterations cost thousands of times the typical one */
            double c = 20.0 * pow(1.0 - lcg_next(&seed), -1.0 / 1.5);
            cost[i] = c > 200000 ? 200000 : (long)c;
            out[i] = 0;
        }
        void (*body)(void) = k[0] == 't' ? triangular_body : k[0] == 'r' ? random_body : mandel_body;
        t = run_region(body);
        sum = weighted(out, n);
        for (long i = 0; i < n; i++)
            out[i] = k[0] == 't'   ? tri_row(i)
                     : k[0] == 'r' ? spin((double)(i % 101), cost[i])
                                   : mandel_row(i);
        expect = weighted(out, n);
    } else if (!strcmp(k, "kmeans")) {
        kpts = xalloc(sizeof(int32_t) * (size_t)n * KM_D);
        kassign = xalloc(sizeof(int) * (size_t)n);
        uint64_t seed = 777;
        int32_t centre[KM_K][KM_D];
        for (int c = 0; c < KM_K; c++)
            for (int d = 0; d < KM_D; d++)
                centre[c][d] = (int32_t)(lcg_next(&seed) * 100000.0);
        long i = 0;
        for (int c = 0; c < KM_K; c++) {
            long end = c == KM_K - 1 ? n : i + n * (c + 1) / (KM_K * (KM_K + 1) / 2);
            for (; i < end && i < n; i++)
                for (int d = 0; d < KM_D; d++) /* cluster c spreads (c+1) times wider */
                    kpts[i * KM_D + d] =
                        centre[c][d] + (int32_t)((lcg_next(&seed) - 0.5) * 4000.0 * (c + 1));
        }
        km_init(kcent);
        t = run_region(kmeans_body);
        int64_t par_cent[KM_K * KM_D];
        memcpy(par_cent, kcent, sizeof par_cent);
        sum = km_checksum(kassign, par_cent);
        km_init(kcent);
        for (int r = 0; r < lopt.reps; r++) {
            memset(ksum, 0, sizeof ksum);
            memset(kcnt, 0, sizeof kcnt);
            for (long j = 0; j < n; j++) {
                int c = kassign[j] = km_nearest(kpts + j * KM_D, kcent);
                kcnt[c]++;
                for (int d = 0; d < KM_D; d++)
                    ksum[c * KM_D + d] += kpts[j * KM_D + d];
            }
            km_update(kcent, ksum, kcnt);
        }
        expect = km_checksum(kassign, kcent);
    } else if (!strcmp(k, "timestep")) {
        u0 = xalloc(sizeof(double) * (size_t)n);
        u1 = xalloc(sizeof(double) * (size_t)n);
        cost = xalloc(sizeof(long) * (size_t)n);
        for (long i = 0; i < n; i++) {
            u0[i] = (double)(i % 97);
            u1[i] = 0;
            cost[i] = (i >= n / 2 && i < n / 2 + n / 5) ? 300 : 10;
        }
        run_region(timestep_body);
        t = t_end - t_start;
        sum = weighted(lopt.reps % 2 ? u1 : u0, n);
        for (long i = 0; i < n; i++) {
            u0[i] = (double)(i % 97);
            u1[i] = 0;
        }
        for (int s = 0; s < lopt.reps; s++) {
            const double *src = s % 2 ? u1 : u0;
            double *dst = s % 2 ? u0 : u1;
            for (long i = 0; i < n; i++)
                dst[i] = cell(src, i, n, cost[i]);
        }
        expect = weighted(lopt.reps % 2 ? u1 : u0, n);
    } else {
        fprintf(stderr, "loops: unknown kernel '%s'\n", k);
        usage(stderr);
        return 2;
    }

    const char *version, *path;
    const char *rt = runtime_self(&version, &path);
    int ok = sum == expect;
    printf("RESULT kernel=%s variant=%s runtime=%s threads=%d n=%ld reps=%d skip=%d time_s=%.6f "
           "checksum=%.17g expected=%.17g verified=%d\n",
           k, lopt.variant, rt, omp_get_max_threads(), n, lopt.reps, lopt.skip, t, sum, expect,
           ok);
    fflush(stdout);
    if (!ok) {
        fprintf(stderr, "loops %s: wrong result (variant %s on %s): checksum %.17g, serial %.17g\n",
                k, lopt.variant, rt, sum, expect);
        return 1;
    }
    return 0;
}
