// loops_runtime.c - schedule(runtime) loops under every run-sched-var set by
// omp_set_schedule (and by OMP_SCHEDULE in loops_runtime_env*.c), for int,
// long and unsigned long long loops.
#include "_loops.h"

DEFINE_LOOP_TESTS(rt_int, int, 1, schedule(runtime))
DEFINE_LOOP_TESTS(rt_long, long, 1, schedule(runtime))
DEFINE_LOOP_TESTS(rt_ull, unsigned long long, 0, schedule(runtime))
DEFINE_LOOP_TESTS(rt_uns, unsigned, 0, schedule(runtime))

static void run_all(void)
{
    static const int ip[][3] = {{0, 1000, 1}, {-500, 500, 7}, {5, 5, 1}, {5, 6, 1}, {0, 130, 64}};
    static const long lp[][3] = {{-(1L << 40), -(1L << 40) + 1000, 3}, {0, 2, 1}};
    static const unsigned long long up[][3] = {{(1ULL << 63) - 300, (1ULL << 63) + 300, 1},
                                               {1ULL << 35, (1ULL << 35) + 999, 13}};
    loop_what = "runtime int";
    for (unsigned p = 0; p < sizeof ip / sizeof ip[0]; p++) rt_int(ip[p][0], ip[p][1], ip[p][2]);
    loop_what = "runtime unsigned";
    rt_uns(0, 777, 1);
    loop_what = "runtime long";
    for (unsigned p = 0; p < sizeof lp / sizeof lp[0]; p++) rt_long(lp[p][0], lp[p][1], lp[p][2]);
    loop_what = "runtime ull";
    for (unsigned p = 0; p < sizeof up / sizeof up[0]; p++) rt_ull(up[p][0], up[p][1], up[p][2]);
}

int main(void)
{
    const char *env = getenv("OMP_SCHEDULE");
    if (env) {
        /* env variant: first run under the schedule given by OMP_SCHEDULE */
        run_all();
    }
    static const struct {
        omp_sched_t k;
        int c;
    } rs[] = {
        {omp_sched_static, 0},  {omp_sched_static, 1},  {omp_sched_static, 3},
        {omp_sched_static, 64}, {omp_sched_dynamic, 0}, {omp_sched_dynamic, 1},
        {omp_sched_dynamic, 3}, {omp_sched_dynamic, 64}, {omp_sched_guided, 0},
        {omp_sched_guided, 1},  {omp_sched_guided, 3},  {omp_sched_guided, 64},
        {omp_sched_auto, 0},    {omp_sched_auto, 5},
        {(omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 2},
        {(omp_sched_t)(omp_sched_guided | omp_sched_monotonic), 4},
        {(omp_sched_t)(omp_sched_static | omp_sched_monotonic), 5},
        {(omp_sched_t)(omp_sched_static | omp_sched_monotonic), 0},
        /* ilan's kinds (config/icv.h): tss, static_steal, adaptive, fac2, af */
        {(omp_sched_t)101, 0}, {(omp_sched_t)101, 5}, {(omp_sched_t)102, 0},
        {(omp_sched_t)102, 3}, {(omp_sched_t)110, 0}, {(omp_sched_t)110, 7},
        {(omp_sched_t)111, 0}, {(omp_sched_t)111, 2}, {(omp_sched_t)112, 0},
        {(omp_sched_t)112, 4},
    };
    for (unsigned r = 0; r < sizeof rs / sizeof rs[0]; r++) {
        omp_set_schedule(rs[r].k, rs[r].c);
        run_all();
    }
    /* run-sched-var set inside the region applies to loops in that region */
    {
        int hits[500] = {0};
#pragma omp parallel
        {
            omp_set_schedule(omp_sched_dynamic, 7);
#pragma omp for schedule(runtime)
            for (int i = 0; i < 500; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
        for (int i = 0; i < 500; i++) CHECK(hits[i] == 1, "in-region runtime %d", i);
    }
    return 0;
}
