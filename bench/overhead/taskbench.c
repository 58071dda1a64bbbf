/* taskbench.c - the cost of a task beyond its body, with the patterns of EPCC's taskbench (our own code), plus taskloops of fine-grained iterations.
 *
 * Method (after EPCC taskbench): each row runs a pattern of tasks whose
 * bodies are a calibrated delay of about 0.1 us (--delay-us) inside one
 * parallel region, `n` times over (n, "innerreps", is calibrated per row so
 * that one measurement takes about 10 ms, 1 ms with --quick, 20 ms with more
 * threads than CPUs, where the OS's time slices of a few ms are noise that
 * only longer timings average out; --target-ms sets it).  The reference is
 * the same delays split evenly over the team's threads, each running its
 * share serially in a parallel region of its own (fork and join included,
 * like the test):
 *
 *     overhead = (t_test - t_ref) / (n * per)
 *     t_ref    = time of a region whose threads each run (bodies / threads) delays
 *
 * where `per` is the divisor of the row below, so the unit is microseconds
 * per task (per taskloop for the taskloop rows).  With more threads than
 * CPUs (the CPUs of the affinity mask), the bodies cannot be done in
 * bodies / threads delays of time, which would charge every task with the
 * body time of the threads that wait for a CPU; then the split is over the
 * P = CPUs instead (t_ref: bodies / P delays) and the per-thread divisors
 * count tasks per CPU (tasks / P), so a row stays the CPU time each task
 * costs beyond its body.  With threads <= CPUs, P = threads: EPCC's method.
 *
 * t_test is one timing of the whole parallel region (fork and join
 * included, as in the reference).  Each row takes `reps` interleaved test and
 * reference timings and reports the median, min and max of the overheads
 * against the median reference.  Overheads of a few ns are within noise
 * and can come out negative.
 *
 *   row (--only alias)                    what runs                                              divisor
 *   parallel task (parallel_task)         every thread creates n tasks in a loop, no taskwait     n (tasks per thread)
 *                                         (the region's barrier completes them)
 *   parallel if(0) task (if0)             the same with if(false): undeferred tasks               n
 *   tree, work at inner nodes             every thread creates n binary task trees of depth      511 n (tasks per thread)
 *     (tree_inner)                        TREE_DEPTH = 8 (511 tasks each), no taskwait; the
 *                                         255 inner nodes create their two children, then run
 *                                         a body; the leaves are empty tasks
 *   tree, work at leaves (tree_leaves)    the same trees, the body at the 256 leaves only         511 n
 *   nested task (nested)                  every thread creates n tasks, each runs a body and      2 n (tasks per thread)
 *                                         creates one nested task that runs a body
 *   master task (master)                  thread 0 (masked) creates n * threads tasks; the        n (tasks / threads)
 *                                         others run them (from the region's barrier)
 *   master task, others busy              thread 0 creates n tasks while every other thread       n (the tasks, all made
 *     (master_busy)                       runs n bodies of its own (EPCC's "master task with       by thread 0: EPCC's
 *                                         busy slaves")                                            divisor)
 *   master task with dependences          thread 0 creates n * threads tasks, each with           n (tasks / threads)
 *     (master_depend)                     depend(inout) on one of 4 * threads chains taken
 *                                         round-robin: each task waits for its chain's previous
 *                                         one, tasks of different chains may run at once
 *   taskloop num_tasks(iterations)        a `single` thread runs n taskloops of 2,048             n (us per taskloop)
 *     (taskloop_num_tasks)                iterations of a 0.1 us body with num_tasks(2048);
 *                                         the others run the tasks from single's barrier
 *   taskloop grainsize(1)                 n taskloops of 2,000 iterations of a 0.07 us body       n (us per taskloop)
 *     (taskloop_grainsize)                with grainsize(1)
 *
 * The divisor is the number of tasks per thread (the tasks the pattern
 * creates / threads, EPCC's innerreps), so a row's cost is what each task
 * adds to a thread's time when the team shares the work; the one exception
 * is "master task, others busy", divided like EPCC by the tasks themselves.
 * (Per CPU rather than per thread when threads > CPUs, as said above.)
 *
 * Checks: every body counts itself (a per-thread counter, also counted in
 * the reference so its cost cancels out); after each timing the count must
 * be the pattern's, and the dependence chains must have run in order; else
 * the program says so on stderr and exits 1.
 *
 * Output: one JSON object per line: {"runtime_self": ...}, {"config": ...},
 * then one row per pattern (print_row in common.h).
 *
 * Build:  gcc -fopenmp -O2 bench/overhead/taskbench.c -o taskbench -ldl
 * Usage:  OMP_NUM_THREADS=2 ./taskbench [--quick] [--reps N] [--delay-us D] [--target-ms T] [--only ALIAS[,ALIAS]]
 */
#include "../common.h"
#include <sched.h>

#define MAX_REPS 1000
#define TREE_DEPTH 8                                  /* levels below a tree's root */
#define TREE_TASKS ((1L << (TREE_DEPTH + 1)) - 1)     /* 511 */
#define TREE_INNER ((1L << TREE_DEPTH) - 1)           /* 255 nodes with children */
#define TREE_LEAVES (1L << TREE_DEPTH)                /* 256 */
#define NT_ITERS 2048                                 /* the num_tasks(iterations) taskloop */
#define GS_ITERS 2000                                 /* the grainsize(1) taskloop */
#define GS_DELAY_US 0.07                              /* its iterations' length */
#define CHAINS_PER_THREAD 4                           /* dependence chains per team thread */
#define MAX_SLOTS 4096                                /* threads that may count bodies */

static long body_len;          /* delay() units of a task body (--delay-us) */
static long gs_len;            /* delay() units of a grainsize(1) iteration */
static double delay_us = 0.1;  /* target length of a task body */
/* Target length of one test timing. 10 ms, not EPCC's shorter timings:
 * at 2 ms the if(0) row (about 0.01 us per task on every runtime) had
 * libgomp's spread crossing zero and moved ilan 2.4x between runs. */
static double target_s = 0.010;
static int nthreads;           /* team size (measured) */
static int ncpus;              /* P: the team size, or the CPUs of the affinity mask if fewer */
static volatile int task_if;   /* 0: read at run time, so the compiler cannot treat if(0) specially */

/* ------------------------------------------------------- counting bodies
 * Each thread counts the bodies it runs in its own cache line, found
 * through a thread-local pointer: no atomic and no sharing on the hot path,
 * and correct whichever threads a runtime uses. */

struct slot {
    long bodies;                   /* bodies this thread ran since the last reset */
    char pad[64 - sizeof(long)];   /* one slot per cache line: no false sharing */
};

static struct slot slots[MAX_SLOTS] __attribute__((aligned(64)));
static int nslots;                        /* slots handed out so far */
static _Thread_local struct slot *my_slot; /* this thread's slot, NULL until its first body */

static struct slot *claim_slot(void)
{
    int i = __atomic_fetch_add(&nslots, 1, __ATOMIC_RELAXED);
    if (i >= MAX_SLOTS) {
        fprintf(stderr, "taskbench: more than %d threads ran bodies\n", MAX_SLOTS);
        exit(2);
    }
    return my_slot = &slots[i];
}

/* A task body: the delay, then this thread's count. */
static inline void body(long len)
{
    delay(len);
    struct slot *s = my_slot;
    if (__builtin_expect(s == NULL, 0))
        s = claim_slot();
    s->bodies++;
}

/* Bodies run since the last call (called between parallel regions only:
 * the region's join orders every thread's counts before this read). */
static long take_bodies(void)
{
    int n = __atomic_load_n(&nslots, __ATOMIC_RELAXED);
    long sum = 0;
    for (int i = 0; i < n && i < MAX_SLOTS; i++) {
        sum += slots[i].bodies;
        slots[i].bodies = 0;
    }
    return sum;
}

/* ------------------------------------------------------------ the tests
 * Each runs its pattern with n inner repetitions and returns seconds. */

static double test_parallel_task(long n)
{
    double t0 = now();
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        body(body_len);
    }
    return now() - t0;
}

static double test_if0_task(long n)
{
    double t0 = now();
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task if (task_if)
        body(body_len);
    }
    return now() - t0;
}

/* A binary tree of tasks below this one, `level` levels deep; the body at
 * the inner nodes (after creating the children, so they can be taken while
 * this one works) or only at the leaves. */
static void tree(int level, int work_at_leaves)
{
    if (level > 0) {
#pragma omp task
        tree(level - 1, work_at_leaves);
#pragma omp task
        tree(level - 1, work_at_leaves);
        if (!work_at_leaves)
            body(body_len);
    } else if (work_at_leaves) {
        body(body_len);
    }
}

static double test_trees(long n, int work_at_leaves)
{
    double t0 = now();
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        tree(TREE_DEPTH, work_at_leaves);
    }
    return now() - t0;
}

static double test_tree_inner(long n) { return test_trees(n, 0); }
static double test_tree_leaves(long n) { return test_trees(n, 1); }

static double test_nested(long n)
{
    double t0 = now();
#pragma omp parallel
    for (long j = 0; j < n; j++) {
#pragma omp task
        {
            body(body_len);
#pragma omp task
            body(body_len);
        }
    }
    return now() - t0;
}

static double test_master(long n)
{
    long tasks = n * nthreads;
    double t0 = now();
#pragma omp parallel
#pragma omp masked
    for (long j = 0; j < tasks; j++) {
#pragma omp task
        body(body_len);
    }
    return now() - t0;
}

static double test_master_busy(long n)
{
    double t0 = now();
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
            for (long j = 0; j < n; j++) {
#pragma omp task
                body(body_len);
            }
        } else {
            for (long j = 0; j < n; j++)
                body(body_len);
        }
    }
    return now() - t0;
}

/* A dependence chain: the object its tasks name in depend(inout), and the
 * position of the next task to run, which each task checks. */
struct chain {
    long next;                     /* tasks of this chain run so far */
    char pad[64 - sizeof(long)];   /* one chain per cache line */
};

static struct chain *chains;   /* CHAINS_PER_THREAD * nthreads of them */
static long order_errors;      /* tasks that ran before their chain's previous one */

static double test_master_depend(long n)
{
    long tasks = n * nthreads, nchains = (long)CHAINS_PER_THREAD * nthreads;
    for (long c = 0; c < nchains; c++)
        chains[c].next = 0;
    double t0 = now();
#pragma omp parallel
#pragma omp masked
    for (long j = 0; j < tasks; j++) {
        long c = j % nchains;
#pragma omp task depend(inout : chains[c]) firstprivate(j, c)
        {
            if (chains[c].next != j / nchains)
                __atomic_add_fetch(&order_errors, 1, __ATOMIC_RELAXED);
            chains[c].next++;
            body(body_len);
        }
    }
    return now() - t0;
}

static double test_taskloop_num_tasks(long n)
{
    double t0 = now();
#pragma omp parallel
#pragma omp single
    for (long k = 0; k < n; k++) {
#pragma omp taskloop num_tasks(NT_ITERS)
        for (int i = 0; i < NT_ITERS; i++)
            body(body_len);
    }
    return now() - t0;
}

static double test_taskloop_grainsize(long n)
{
    double t0 = now();
#pragma omp parallel
#pragma omp single
    for (long k = 0; k < n; k++) {
#pragma omp taskloop grainsize(1)
        for (int i = 0; i < GS_ITERS; i++)
            body(gs_len);
    }
    return now() - t0;
}

/* ------------------------------------------------------------ the table */

struct row {
    const char *name;          /* as printed */
    const char *alias;         /* comma-free name for --only */
    const char *unit;          /* us/task or us/taskloop */
    double (*test)(long n);    /* the pattern, n inner repetitions */
    long bodies_per_thread;    /* bodies per repetition for every team thread ... */
    long bodies_shared;        /* ... plus these, per repetition, whatever the team size */
    long per;                  /* the divisor per repetition (see the top of the file) ... */
    int per_thread;            /* ... counted per thread (then per CPU when threads > CPUs) */
    const long *len;           /* the body's delay() units */
};

static const struct row rows[] = {
    {"parallel task", "parallel_task", "us/task", test_parallel_task, 1, 0, 1, 1, &body_len},
    {"parallel if(0) task", "if0", "us/task", test_if0_task, 1, 0, 1, 1, &body_len},
    {"tree, work at inner nodes", "tree_inner", "us/task", test_tree_inner, TREE_INNER, 0,
     TREE_TASKS, 1, &body_len},
    {"tree, work at leaves", "tree_leaves", "us/task", test_tree_leaves, TREE_LEAVES, 0,
     TREE_TASKS, 1, &body_len},
    {"nested task", "nested", "us/task", test_nested, 2, 0, 2, 1, &body_len},
    {"master task", "master", "us/task", test_master, 1, 0, 1, 1, &body_len},
    {"master task, others busy", "master_busy", "us/task", test_master_busy, 1, 0, 1, 0,
     &body_len},
    {"master task with dependences", "master_depend", "us/task", test_master_depend, 1, 0, 1, 1,
     &body_len},
    {"taskloop num_tasks(iterations)", "taskloop_num_tasks", "us/taskloop",
     test_taskloop_num_tasks, 0, NT_ITERS, 1, 0, &body_len},
    {"taskloop grainsize(1)", "taskloop_grainsize", "us/taskloop", test_taskloop_grainsize, 0,
     GS_ITERS, 1, 0, &gs_len},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static long bodies_of(const struct row *r, long n)
{
    return n * (r->bodies_per_thread * nthreads + r->bodies_shared);
}

/* The reference: the row's bodies split evenly over the team, each thread
 * running its share serially, in a parallel region like the test's. So the
 * reference pays the same fork and join, runs on the same CPUs at their
 * speeds (a single-threaded reference once made libgomp's if(0) row read
 * 0.000 or 0.016 us per task depending on the process: the other CPU ran
 * the delay 16% slower), and with more threads than CPUs it shares them as
 * the test does, taking bodies / P delays of time. */
static double reference(const struct row *r, long n)
{
    long total = bodies_of(r, n);
    double t0 = now();
#pragma omp parallel
    {
        int id = omp_get_thread_num(), nt = omp_get_num_threads();
        long m = total / nt + (id < total % nt);
        for (long j = 0; j < m; j++)
            body(*r->len);
    }
    double t = now() - t0;
    take_bodies();
    return t;
}

/* One test timing, then the checks: every body ran exactly once, the
 * dependence chains in order. */
static double timed(const struct row *r, long n)
{
    take_bodies();
    order_errors = 0;
    double t = r->test(n);
    long got = take_bodies(), want = bodies_of(r, n);
    if (got != want) {
        fprintf(stderr, "taskbench: %s: %ld task bodies ran, want %ld (n = %ld, %d threads)\n",
                r->name, got, want, n, nthreads);
        exit(1);
    }
    if (order_errors) {
        fprintf(stderr, "taskbench: %s: %ld tasks ran before the previous task of their "
                        "dependence chain\n", r->name, order_errors);
        exit(1);
    }
    return t;
}

/* The inner repetitions that make one test timing last target_s: growing
 * (at most 8x per step) from at least 256 tasks per thread, so that one slow
 * wake-up cannot pass for a full measurement, the best of three timings per
 * step so that one slow moment does not stop the search early. */
static long calibrate_reps(const struct row *r)
{
    long n = r->bodies_shared ? 1 : (256 + r->per - 1) / r->per;
    timed(r, n); /* warm-up: threads, caches, the runtime's lazy set-up */
    for (;;) {
        double t = timed(r, n);
        for (int k = 0; k < 2; k++) {
            double t2 = timed(r, n);
            if (t2 < t)
                t = t2;
        }
        if (t >= target_s || n >= (1L << 24))
            return n;
        long next = t > 0 ? (long)((double)n * 1.2 * target_s / t) : n * 8;
        if (next > n * 8)
            next = n * 8;
        n = next > n ? next : n * 2;
    }
}

static void run_row(const struct row *r, int reps)
{
    double test[MAX_REPS], ref[MAX_REPS], ovh[MAX_REPS];
    long n = calibrate_reps(r);
    for (int k = 0; k < reps; k++) { /* interleaved: drift hits both alike */
        ref[k] = reference(r, n);
        test[k] = timed(r, n);
    }
    double ref_med = median(ref, reps);
    double units = (double)n * (double)r->per * (r->per_thread ? (double)nthreads / ncpus : 1.0);
    for (int k = 0; k < reps; k++)
        ovh[k] = (test[k] - ref_med) / units * 1e6;
    char extra[256];
    snprintf(extra, sizeof extra,
             "\"threads\": %d, \"cpus\": %d, \"reps\": %d, \"innerreps\": %ld, \"divisor\": %.0f, "
             "\"bodies\": %ld, \"reference_us\": %.3f, \"test_us\": %.3f",
             nthreads, ncpus, reps, n, units, bodies_of(r, n), ref_med * 1e6,
             median(test, reps) * 1e6);
    print_row(r->name, r->unit, "lower", ovh, reps, extra);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: taskbench [--quick] [--reps N] [--delay-us D] [--target-ms T] [--only ALIAS[,ALIAS...]]\n"
               "rows (name, alias):\n");
    for (int i = 0; i < NROWS; i++)
        fprintf(f, "  %-32s %s\n", rows[i].name, rows[i].alias);
}

/* Mark the rows named in a comma list (aliases, or names without a comma). */
static int select_rows(const char *list, int *sel)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int i = 0; i < NROWS; i++)
            if (!strcmp(tok, rows[i].alias) || !strcmp(tok, rows[i].name))
                sel[i] = found = 1;
        if (!found) {
            fprintf(stderr, "taskbench: unknown row '%s'\n", tok);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 20, reps_given = 0, quick = 0, sel[NROWS] = {0}, any_sel = 0;
    double target_ms = 0; /* --target-ms, 0: the default */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            quick = 1;
        } else if (val && !strcmp(a, "--reps")) {
            reps = atoi(argv[++i]);
            reps_given = 1;
            if (reps < 1 || reps > MAX_REPS) {
                fprintf(stderr, "taskbench: --reps must be in 1..%d\n", MAX_REPS);
                return 2;
            }
        } else if (val && !strcmp(a, "--delay-us")) {
            delay_us = atof(argv[++i]);
            if (!(delay_us > 0)) {
                fprintf(stderr, "taskbench: --delay-us must be positive\n");
                return 2;
            }
        } else if (val && !strcmp(a, "--target-ms")) {
            target_ms = atof(argv[++i]);
            if (!(target_ms > 0)) {
                fprintf(stderr, "taskbench: --target-ms must be positive\n");
                return 2;
            }
        } else if (val && !strcmp(a, "--only")) {
            if (select_rows(argv[++i], sel))
                return 2;
            any_sel = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "taskbench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (quick) {
        if (!reps_given)
            reps = 10;
        target_s = 0.001;
    }

    print_runtime_self();

    /* the process's CPUs, read before the first region: a runtime that binds
     * threads (OMP_PROC_BIND) narrows the initial thread's mask to one place */
    cpu_set_t mask;
    int cpus = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
#pragma omp parallel
#pragma omp single
    nthreads = omp_get_num_threads();
    ncpus = cpus > 0 && cpus < nthreads ? cpus : nthreads;
    /* Oversubscribed, a 2 ms timing is less than one time slice: measured,
     * libgomp's if(0) row at 16 threads on 2 CPUs spread across zero at
     * 2 ms and stayed above it at 20 ms. */
    if (target_ms > 0)
        target_s = target_ms * 1e-3;
    else if (ncpus < nthreads && !quick)
        target_s = 0.020;

    /* one calibration for both lengths: delay() is linear in its argument */
    long per_us = calibrate_delay(1.0);
    body_len = (long)(per_us * delay_us + 0.5);
    gs_len = (long)(per_us * GS_DELAY_US + 0.5);
    if (body_len < 1)
        body_len = 1;
    if (gs_len < 1)
        gs_len = 1;
    chains = aligned_alloc(64, sizeof(struct chain) * (size_t)CHAINS_PER_THREAD * (size_t)nthreads);
    if (!chains) {
        fprintf(stderr, "taskbench: out of memory\n");
        return 2;
    }
    printf("{\"config\": {\"threads\": %d, \"cpus\": %d, \"reps\": %d, \"target_ms\": %.1f, \"delay_us\": %.3f, "
           "\"delay_len\": %ld, \"grainsize_delay_us\": %.3f, \"grainsize_delay_len\": %ld, "
           "\"tree_depth\": %d, \"tree_tasks\": %ld}}\n",
           nthreads, ncpus, reps, target_s * 1e3, delay_us, body_len, GS_DELAY_US, gs_len, TREE_DEPTH,
           TREE_TASKS);
    fflush(stdout);

    for (int i = 0; i < NROWS; i++)
        if (!any_sel || sel[i])
            run_row(&rows[i], reps);
    free(chains);
    return 0;
}
