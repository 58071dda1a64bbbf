/* stream_numa.c - seed 003's STREAM variants (plain, Nested, Twisted, Imbalanced; sections 5.2-5.5) under four memory placements, and the placement engine's own costs. */
/*
 * Rows (JSON, bench/common.h), each the median of --reps timings in ms:
 *   VARIANT/PLACEMENT   one triad sweep a = b + s*c over every team's vectors
 *     plain       one team, one set of vectors
 *     nested      two nested teams, each on its own vectors (Nested-STREAM)
 *     twisted     the same, then each team sweeps the *other* team's vectors:
 *                 the row times that second phase (Twisted-STREAM)
 *     imbalanced  two nested teams of T and T/2 threads, equal work
 *   placements: first-touch (malloc, each team initializes its vectors),
 *   bloc (ilan_alloc_bloc), interleaved (ilan_alloc_bloc_cyclic, one page),
 *   next-touch (initialized by the initial thread, then
 *   ilan_mem_migrate_on_next_touch: the first timed sweep pulls the pages).
 *   Only first-touch runs on libgomp and libomp: the others need ilan's API.
 *   next-touch/page     us per page: arm a touched range, then touch it
 *   alloc/malloc, alloc/bloc, alloc/interleaved
 *                       ms to allocate 64 MiB and write it once in parallel
 * Usage: OMP_NUM_THREADS=T ./stream_numa [--n N (doubles per team vector)] [--reps R]
 */
#include "../common.h" /* first: it defines _GNU_SOURCE */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPS 64
enum placement { P_FIRST_TOUCH, P_BLOC, P_INTERLEAVED, P_NEXT_TOUCH, P_COUNT };
static const char *const placement_names[] = {"first-touch", "bloc", "interleaved", "next-touch"};

/* ilan's API, looked up at run time (NULL on the other runtimes). */
static void *(*p_alloc_bloc)(size_t);
static void *(*p_alloc_cyclic)(size_t, size_t);
static void (*p_mem_free)(void *, size_t);
static int (*p_next_touch)(void *, size_t);

static long n_per = 1L << 20; /* doubles per vector of one team */
static int reps = 5;
static size_t page;

/* One team's vectors. */
struct vecs {
    double *a, *b, *c; /* the triad's vectors */
    long n;            /* doubles each */
};

/* A vector of n doubles placed as p; called inside the team that uses it
 * (ilan's bloc layouts follow the calling region's domains). */
static double *vec_alloc(long n, enum placement p)
{
    size_t bytes = (size_t)n * sizeof(double);
    if (p == P_BLOC)
        return p_alloc_bloc(bytes);
    if (p == P_INTERLEAVED)
        return p_alloc_cyclic(bytes, page);
    void *v = NULL;
    return posix_memalign(&v, page, bytes) ? NULL : v;
}

static void vec_free(double *v, long n, enum placement p)
{
    if (p == P_BLOC || p == P_INTERLEAVED)
        p_mem_free(v, (size_t)n * sizeof(double));
    else
        free(v);
}

/* Inside a team: allocates and initializes v (next-touch: by thread 0
 * alone, then armed). */
static void team_setup(struct vecs *v, long n, enum placement p)
{
#pragma omp single
    {
        v->n = n;
        v->a = vec_alloc(n, p), v->b = vec_alloc(n, p), v->c = vec_alloc(n, p);
        if (!v->a || !v->b || !v->c) {
            fprintf(stderr, "stream_numa: cannot allocate 3 x %ld doubles (%s)\n", n,
                    placement_names[p]);
            exit(1);
        }
        if (p == P_NEXT_TOUCH)
            for (long i = 0; i < n; i++)
                v->a[i] = 0.0, v->b[i] = (double)(i % 100) * 0.5, v->c[i] = (double)(i % 37);
    }
    if (p != P_NEXT_TOUCH) {
#pragma omp for schedule(static)
        for (long i = 0; i < n; i++)
            v->a[i] = 0.0, v->b[i] = (double)(i % 100) * 0.5, v->c[i] = (double)(i % 37);
    }
#pragma omp single
    if (p == P_NEXT_TOUCH) {
        size_t bytes = (size_t)n * sizeof(double);
        if (p_next_touch(v->a, bytes) || p_next_touch(v->b, bytes) || p_next_touch(v->c, bytes)) {
            fprintf(stderr, "stream_numa: ilan_mem_migrate_on_next_touch failed\n");
            exit(1);
        }
    }
}

/* Inside a team: one triad sweep over v. */
static void team_triad(struct vecs *v)
{
#pragma omp for schedule(static)
    for (long i = 0; i < v->n; i++)
        v->a[i] = v->b[i] + 3.0 * v->c[i];
}

static void vecs_free(struct vecs *v, enum placement p)
{
    vec_free(v->a, v->n, p), vec_free(v->b, v->n, p), vec_free(v->c, v->n, p);
}

/* plain: one team sweeps its vectors reps times; times[] in ms. */
static void run_plain(enum placement p, double *times)
{
    struct vecs v;
#pragma omp parallel
    team_setup(&v, 2 * n_per, p);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
#pragma omp parallel
        team_triad(&v);
        times[r] = (now() - t0) * 1e3;
    }
    bench_sink += (long)v.a[v.n / 2];
    vecs_free(&v, p);
}

/* nested (sizes of the two teams), twisted (phase 2 on the other team's
 * vectors): times[] in ms of one sweep of both teams. */
static void run_nested(enum placement p, const int size[2], int twisted, double *times)
{
    struct vecs v[2];
#pragma omp parallel num_threads(2)
    {
        int g = omp_get_thread_num();
#pragma omp parallel num_threads(size[g])
        team_setup(&v[g], n_per, p);
    }
    if (twisted) { /* phase 1, untimed: each team on its own vectors (next touch lands here) */
#pragma omp parallel num_threads(2)
        {
            int g = omp_get_thread_num();
#pragma omp parallel num_threads(size[g])
            team_triad(&v[g]);
        }
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now();
#pragma omp parallel num_threads(2)
        {
            int g = omp_get_thread_num();
#pragma omp parallel num_threads(size[g])
            team_triad(&v[twisted ? 1 - g : g]);
        }
        times[r] = (now() - t0) * 1e3;
    }
    bench_sink += (long)v[0].a[1] + (long)v[1].a[1];
    vecs_free(&v[0], p), vecs_free(&v[1], p);
}

/* us per page of migrate-on-next-touch: a touched range armed, then
 * touched by the team. */
static void run_next_touch_page(double *times)
{
    long n = 2 * n_per;
    size_t bytes = (size_t)n * sizeof(double), pages = (bytes + page - 1) / page;
    double *a = vec_alloc(n, P_FIRST_TOUCH);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        a[i] = 1.0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (p_next_touch(a, bytes)) {
            fprintf(stderr, "stream_numa: ilan_mem_migrate_on_next_touch failed\n");
            exit(1);
        }
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i += (long)(page / sizeof(double)))
            a[i] += 1.0;
        times[r] = (now() - t0) * 1e6 / (double)pages;
    }
    bench_sink += (long)a[0];
    free(a);
}

/* ms to allocate 64 MiB placed as p and write it once in parallel. */
static void run_alloc(enum placement p, double *times)
{
    long n = (64L << 20) / (long)sizeof(double);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        double *a = NULL;
#pragma omp parallel
        {
#pragma omp single
            a = vec_alloc(n, p);
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++)
                a[i] = (double)i;
        }
        times[r] = (now() - t0) * 1e3;
        bench_sink += (long)a[n - 1];
        vec_free(a, n, p);
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (val && !strcmp(argv[i], "--n"))
            n_per = atol(argv[++i]);
        else if (val && !strcmp(argv[i], "--reps"))
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: stream_numa [--n N (doubles per team vector)] [--reps R (1..%d)]\n",
                    MAX_REPS);
            return 2;
        }
    }
    if (n_per < 1024 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "stream_numa: --n must be >= 1024, --reps in 1..%d\n", MAX_REPS);
        return 2;
    }
    page = (size_t)sysconf(_SC_PAGESIZE);
    *(void **)&p_alloc_bloc = dlsym(RTLD_DEFAULT, "ilan_alloc_bloc");
    *(void **)&p_alloc_cyclic = dlsym(RTLD_DEFAULT, "ilan_alloc_bloc_cyclic");
    *(void **)&p_mem_free = dlsym(RTLD_DEFAULT, "ilan_mem_free");
    *(void **)&p_next_touch = dlsym(RTLD_DEFAULT, "ilan_mem_migrate_on_next_touch");
    int have_ilan = p_alloc_bloc && p_alloc_cyclic && p_mem_free && p_next_touch;
    omp_set_max_active_levels(2);
    int T = omp_get_max_threads();
    print_runtime_self();
    printf("{\"config\": {\"threads\": %d, \"n_per_team\": %ld, \"reps\": %d, \"page\": %zu}}\n", T,
           n_per, reps, page);
    const int half = T / 2 > 0 ? T / 2 : 1;
    const int even[2] = {half, half}, uneven[2] = {T, half};
    static const char *const variants[] = {"plain", "nested", "twisted", "imbalanced"};
    double times[MAX_REPS];
    char row[64];
    for (int p = 0; p < P_COUNT; p++) {
        if (p != P_FIRST_TOUCH && !have_ilan)
            continue; /* ilan's placements: the peers show first touch only */
        for (int v = 0; v < 4; v++) {
            if (v == 0)
                run_plain((enum placement)p, times);
            else
                run_nested((enum placement)p, v == 3 ? uneven : even, v == 2, times);
            snprintf(row, sizeof row, "%s/%s", variants[v], placement_names[p]);
            print_row(row, "ms", "lower", times, reps, NULL);
        }
    }
    if (have_ilan) {
        run_next_touch_page(times);
        print_row("next-touch/page", "us", "lower", times, reps, NULL);
    }
    for (int p = 0; p < P_NEXT_TOUCH; p++) {
        if (p != P_FIRST_TOUCH && !have_ilan)
            continue;
        run_alloc((enum placement)p, times);
        snprintf(row, sizeof row, "alloc/%s", p == P_FIRST_TOUCH ? "malloc" : placement_names[p]);
        print_row(row, "ms", "lower", times, reps, NULL);
    }
    return 0;
}
