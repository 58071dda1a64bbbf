// icv.c - ICV setter/getter routines and their defaults.
#include "check.h"
#include <sched.h>

static void check_sched(omp_sched_t kind, int chunk, int expect_chunk)
{
    omp_sched_t k;
    int c;
    omp_set_schedule(kind, chunk);
    omp_get_schedule(&k, &c);
    CHECK(k == kind, "schedule kind %#x, set %#x", (unsigned)k, (unsigned)kind);
    if (expect_chunk < 0) expect_chunk = c; /* implementation defined */
    CHECK(c == expect_chunk, "kind %#x chunk %d set %d expect %d", (unsigned)kind, c, chunk,
          expect_chunk);
    /* the schedule ICV must be visible inside a region and inherited */
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
        omp_sched_t k2;
        int c2;
        omp_get_schedule(&k2, &c2);
        bad += (k2 != kind) || (c2 != expect_chunk);
    }
    CHECK(bad == 0, "schedule not inherited by %d threads", bad);
}

int main(void)
{
    /* num_threads */
    int env_nt = getenv("OMP_NUM_THREADS") ? atoi(getenv("OMP_NUM_THREADS")) : -1;
    int maxt = omp_get_max_threads();
    if (env_nt > 0) {
        /* an implementation may report min(nthreads-var, thread-limit-var) */
        int tl = omp_get_thread_limit();
        CHECK(maxt == env_nt || (tl < env_nt && maxt == tl), "max threads %d vs env %d", maxt,
              env_nt);
    }
    omp_set_num_threads(5);
    CHECK(omp_get_max_threads() == 5, "set_num_threads(5)");
    omp_set_num_threads(1);
    CHECK(omp_get_max_threads() == 1, "set_num_threads(1)");
    omp_set_num_threads(maxt);

    /* num_procs == CPUs in the affinity mask */
    {
        cpu_set_t set;
        CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
        int cpus = CPU_COUNT(&set);
        CHECK(omp_get_num_procs() == cpus, "num_procs %d vs affinity %d", omp_get_num_procs(),
              cpus);
        int bad = 0;
#pragma omp parallel reduction(+ : bad)
        bad += omp_get_num_procs() != cpus;
        CHECK(bad == 0, "num_procs inside region differs");
    }

    /* dynamic */
    CHECK(omp_get_dynamic() == 0, "dynamic default must be false, got %d", omp_get_dynamic());
    omp_set_dynamic(1);
    CHECK(omp_get_dynamic() != 0, "set_dynamic(1)");
    {
        /* with dynamic adjustment, the team may be smaller but at least 1 */
        int n = 0;
#pragma omp parallel num_threads(4)
        {
            int id = omp_get_thread_num();
            CHECK(id < omp_get_num_threads(), "dyn id");
#pragma omp master
            n = omp_get_num_threads();
        }
        CHECK(n >= 1 && n <= 4, "dynamic team %d", n);
    }
    omp_set_dynamic(0);
    CHECK(omp_get_dynamic() == 0, "set_dynamic(0)");

    /* schedule: default kind is implementation defined; check it is valid */
    {
        omp_sched_t k;
        int c;
        omp_get_schedule(&k, &c);
        int base = (int)k & ~(int)omp_sched_monotonic;
        CHECK(base >= 1 && base <= 4, "default schedule kind %d", (int)k);
    }
    check_sched(omp_sched_static, 0, 0);
    check_sched(omp_sched_static, 5, 5);
    check_sched(omp_sched_dynamic, 1, 1);
    check_sched(omp_sched_dynamic, 7, 7);
    check_sched(omp_sched_dynamic, 0, 1);   /* chunk < 1 => default chunk 1 */
    check_sched(omp_sched_dynamic, -4, 1);
    check_sched(omp_sched_guided, 3, 3);
    check_sched(omp_sched_guided, 0, 1);
    check_sched(omp_sched_auto, 0, -1);     /* chunk impl-defined for auto */
    check_sched((omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 4, 4);
    check_sched((omp_sched_t)(omp_sched_static | omp_sched_monotonic), 2, 2);
    check_sched((omp_sched_t)(omp_sched_guided | omp_sched_monotonic), 9, 9);
    check_sched(omp_sched_static, 0, 0);

    /* max active levels */
    int sup = omp_get_supported_active_levels();
    CHECK(sup >= 1, "supported levels %d", sup);
    omp_set_max_active_levels(2);
    CHECK(omp_get_max_active_levels() == 2, "mal 2");
    omp_set_max_active_levels(0);
    CHECK(omp_get_max_active_levels() == 0, "mal 0");
    {
        int n = -1;
#pragma omp parallel num_threads(3)
#pragma omp master
        n = omp_get_num_threads();
        CHECK(n == 1, "mal 0 must serialize: %d", n);
    }
    omp_set_max_active_levels(sup + 1000);
    CHECK(omp_get_max_active_levels() == sup, "mal clamps to supported %d, got %d", sup,
          omp_get_max_active_levels());
    omp_set_max_active_levels(1);

    /* thread limit */
    {
        int tl = omp_get_thread_limit();
        const char *e = getenv("OMP_THREAD_LIMIT");
        if (e) {
            CHECK(tl == atoi(e), "thread_limit %d vs env %s", tl, e);
            /* teams are capped */
            int n = -1;
#pragma omp parallel num_threads(tl + 5)
#pragma omp master
            n = omp_get_num_threads();
            CHECK(n >= 1 && n <= tl, "team %d exceeds thread limit %d", n, tl);
            /* nested: total threads in contention group <= tl */
            omp_set_max_active_levels(2);
            int total = 0;
#pragma omp parallel num_threads(tl)
#pragma omp parallel num_threads(tl)
#pragma omp atomic
            total++;
            CHECK(total >= 1 && total <= tl, "nested total %d > thread limit %d", total, tl);
            omp_set_max_active_levels(1);
        } else {
            CHECK(tl >= 1000, "thread_limit default should be huge, got %d", tl);
        }
    }

    /* cancellation */
    {
        const char *e = getenv("OMP_CANCELLATION");
        int want = e && (!strcmp(e, "true") || !strcmp(e, "TRUE"));
        CHECK(omp_get_cancellation() == want, "cancellation %d", omp_get_cancellation());
    }
    /* task priority */
    {
        const char *e = getenv("OMP_MAX_TASK_PRIORITY");
        CHECK(omp_get_max_task_priority() == (e ? atoi(e) : 0), "max task priority %d",
              omp_get_max_task_priority());
    }
    /* devices: host only */
    {
        int nd = omp_get_num_devices();
        CHECK(nd >= 0, "num devices %d", nd);
        CHECK(omp_is_initial_device() == 1, "is_initial_device on host");
        int init = omp_get_initial_device();
        CHECK(init == nd || init == -1, "initial device %d, num devices %d", init, nd);
        int dd = omp_get_default_device();
        CHECK(dd >= 0, "default device %d", dd);
        omp_set_default_device(0);
        CHECK(omp_get_default_device() == 0, "set default device");
        omp_set_default_device(dd);
        CHECK(omp_get_default_device() == dd, "restore default device");
        CHECK(omp_get_device_num() == init || omp_get_device_num() == nd,
              "device num on host %d", omp_get_device_num());
    }
    /* teams getters outside teams */
    CHECK(omp_get_num_teams() == 1, "num teams outside %d", omp_get_num_teams());
    CHECK(omp_get_team_num() == 0, "team num outside %d", omp_get_team_num());
    {
        int nt = omp_get_max_teams();
        CHECK(nt >= 0, "max teams %d", nt);
        omp_set_num_teams(3);
        CHECK(omp_get_max_teams() == 3, "set_num_teams(3) -> %d", omp_get_max_teams());
        omp_set_teams_thread_limit(4);
        CHECK(omp_get_teams_thread_limit() == 4, "teams thread limit %d",
              omp_get_teams_thread_limit());
    }
    /* proc bind / places defaults are sane */
    {
        omp_proc_bind_t pb = omp_get_proc_bind();
        CHECK(pb >= omp_proc_bind_false && pb <= omp_proc_bind_spread, "proc_bind %d", pb);
        CHECK(omp_get_num_places() >= 0, "num places");
        CHECK(omp_get_place_num() >= -1, "place num");
    }
    /* in_final / level outside */
    CHECK(omp_in_final() == 0, "in_final");
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0, "levels");
    return 0;
}
