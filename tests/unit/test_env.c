/* test_env.c — runtime_init() against chosen environments: ICV values, defaults, one warning line per bad value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/env.h"
#include "construct/runtime.h"
#include "config/icv.h"
#include "topo/places.h"
#include "os/linux/thread.h"
#include "base/tunables.h"
#include "unit.h"



static struct icv_global pristine; /* icv_global before any runtime_init */

/* Every variable runtime_init reads, cleared before each case. */
static const char *const all_vars[] = {
    "OMP_NUM_THREADS", "OMP_SCHEDULE", "OMP_DYNAMIC", "OMP_NESTED", "OMP_MAX_ACTIVE_LEVELS",
    "OMP_THREAD_LIMIT", "OMP_STACKSIZE", "GOMP_STACKSIZE", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT",
    "ILAN_SPIN_COUNT", "OMP_PROC_BIND", "OMP_PLACES", "OMP_CANCELLATION", "OMP_DEFAULT_DEVICE",
    "OMP_MAX_TASK_PRIORITY", "OMP_DISPLAY_ENV", "OMP_DISPLAY_AFFINITY", "OMP_AFFINITY_FORMAT",
    "OMP_ALLOCATOR", "OMP_TARGET_OFFLOAD", "OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT",
    "GOMP_DEBUG", "ILAN_VERBOSE",
};

/* Runs runtime_init under `settings` ("NAME=VALUE" strings, NULL-terminated)
 * and returns the number of lines it wrote on stderr. */
static int run_env(const char *const *settings)
{
    for (size_t i = 0; i < sizeof all_vars / sizeof all_vars[0]; i++)
        unsetenv(all_vars[i]);
    for (; *settings; settings++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", *settings);
        char *eq = strchr(buf, '=');
        *eq = '\0';
        setenv(buf, eq + 1, 1);
    }
    icv_global = pristine;
    place_list_free(&config.cpu_affinity);
    config = (struct config){.forced_steal = -1};

    char path[] = "/tmp/ilan_test_env_XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    runtime_init();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);

    int lines = 0;
    FILE *f = fopen(path, "r");
    for (int c; (c = fgetc(f)) != EOF;)
        lines += c == '\n';
    fclose(f);
    close(fd);
    unlink(path);
    return lines;
}

#define RUN(...) run_env((const char *const[]){__VA_ARGS__, NULL})

static void test_defaults(void)
{
    CHECK(run_env((const char *const[]){NULL}) == 0);
    const struct icv *i = &icv_global.initial;
    CHECK(icv_global.num_procs == os_cpus_allowed());
    CHECK(i->nthreads == icv_global.num_procs);
    CHECK(i->run_sched == ICV_SCHED_DYNAMIC && i->run_sched_chunk == 1);
    CHECK(!i->dyn);
    CHECK(i->max_active_levels == 1);
    CHECK(i->thread_limit == 0xffffffffu);
    CHECK(i->bind == ICV_BIND_FALSE && !icv_global.bind_set); /* as libgomp: nothing bound */
    CHECK(places.os.n == 0); /* no places unless binding is asked for */
    CHECK(i->default_device == 0 && i->def_allocator == 1);
    CHECK(icv_global.wait_policy == -1 && !icv_global.spin_count_set);
    CHECK(icv_global.spin_count == ILAN_SPIN_DEFAULT);
    CHECK(icv_global.stacksize == 0 && icv_global.places == NULL);
    CHECK(!icv_global.cancellation && icv_global.max_task_priority == 0);
    CHECK(icv_global.nteams == 0 && icv_global.teams_thread_limit == 0);
    CHECK(icv_global.target_offload == 0);
}

static void test_good(void)
{
    CHECK(RUN("OMP_NUM_THREADS=3,2", "OMP_SCHEDULE=guided,4", "OMP_DYNAMIC=true",
              "OMP_THREAD_LIMIT=64", "OMP_STACKSIZE=64M", "OMP_WAIT_POLICY=passive",
              "OMP_CANCELLATION=TRUE", "OMP_MAX_TASK_PRIORITY=7", "OMP_DEFAULT_DEVICE=2",
              "OMP_ALLOCATOR=omp_low_lat_mem_alloc", "OMP_TARGET_OFFLOAD=mandatory",
              "OMP_NUM_TEAMS=4", "OMP_TEAMS_THREAD_LIMIT=5", "OMP_DISPLAY_AFFINITY=true",
              "OMP_AFFINITY_FORMAT=%n") == 0);
    const struct icv *i = &icv_global.initial;
    CHECK(i->nthreads == 3 && icv_global.nthreads_list_len == 2 && icv_global.nthreads_list[1] == 2);
    CHECK(i->max_active_levels == ILAN_SUPPORTED_ACTIVE_LEVELS); /* a list enables nesting */
    CHECK(i->run_sched == ICV_SCHED_GUIDED && i->run_sched_chunk == 4);
    CHECK(i->dyn && i->thread_limit == 64);
    CHECK(icv_global.stacksize == 64ul << 20);
    CHECK(icv_global.wait_policy == 0 && icv_global.spin_count == 0);
    CHECK(icv_global.cancellation && icv_global.max_task_priority == 7);
    CHECK(i->default_device == 2 && icv_global.default_device == 2);
    CHECK(i->def_allocator == 5 && icv_global.target_offload == 2);
    CHECK(icv_global.nteams == 4 && icv_global.teams_thread_limit == 5);
    CHECK(icv_global.display_affinity && strcmp(icv_global.affinity_format, "%n") == 0);

    /* OMP_NESTED and OMP_MAX_ACTIVE_LEVELS */
    CHECK(RUN("OMP_NESTED=true") == 0);
    CHECK(icv_global.initial.max_active_levels == ILAN_SUPPORTED_ACTIVE_LEVELS);
    CHECK(RUN("OMP_NESTED=false", "OMP_NUM_THREADS=2,2") == 0);
    CHECK(icv_global.initial.max_active_levels == 1);
    CHECK(RUN("OMP_NESTED=true", "OMP_MAX_ACTIVE_LEVELS=3") == 0);
    CHECK(icv_global.initial.max_active_levels == 3);
    CHECK(RUN("OMP_MAX_ACTIVE_LEVELS=0") == 0);
    CHECK(icv_global.initial.max_active_levels == 0);
    CHECK(RUN("OMP_MAX_ACTIVE_LEVELS=100000") == 0);
    CHECK(icv_global.initial.max_active_levels == ILAN_SUPPORTED_ACTIVE_LEVELS);
    CHECK(RUN("OMP_PROC_BIND=spread,close") == 0);
    CHECK(icv_global.initial.max_active_levels == ILAN_SUPPORTED_ACTIVE_LEVELS);
    CHECK(icv_global.initial.bind == ICV_BIND_SPREAD && icv_global.bind_list[1] == ICV_BIND_CLOSE);

    /* OMP_PLACES turns binding on unless OMP_PROC_BIND is given */
    CHECK(RUN("OMP_PLACES=cores(2)") == 0);
    CHECK(icv_global.places && strcmp(icv_global.places, "cores(2)") == 0);
    CHECK(icv_global.initial.bind == ICV_BIND_TRUE);
    CHECK(RUN("OMP_PLACES={0:2}", "OMP_PROC_BIND=false") == 0);
    CHECK(icv_global.initial.bind == ICV_BIND_FALSE);

    /* thread limit above INT_MAX is unlimited; stack size fallbacks */
    CHECK(RUN("OMP_THREAD_LIMIT=3000000000", "GOMP_STACKSIZE=2M") == 0);
    CHECK(icv_global.initial.thread_limit == 0xffffffffu && icv_global.stacksize == 2ul << 20);
    CHECK(RUN("OMP_STACKSIZE=1M", "GOMP_STACKSIZE=2M") == 0);
    CHECK(icv_global.stacksize == 1ul << 20);

    /* spin counts: ILAN_SPIN_COUNT wins; policy sets only the default */
    CHECK(RUN("GOMP_SPINCOUNT=10k", "ILAN_SPIN_COUNT=5") == 0);
    CHECK(icv_global.spin_count_set && icv_global.spin_count == 5);
    CHECK(RUN("GOMP_SPINCOUNT=infinite", "OMP_WAIT_POLICY=passive") == 0);
    CHECK(icv_global.spin_count == 0xffffffffu && icv_global.wait_policy == 0);
    CHECK(RUN("OMP_WAIT_POLICY=active") == 0);
    CHECK(icv_global.spin_count == ILAN_SPIN_ACTIVE && !icv_global.spin_count_set);
    CHECK(RUN("GOMP_DEBUG=1", "ILAN_VERBOSE=0") == 0);
}

static void test_bad(void)
{
    /* each bad value: one line, default kept */
    CHECK(RUN("OMP_NUM_THREADS=abc", "OMP_SCHEDULE=bogus", "OMP_DYNAMIC=maybe",
              "OMP_MAX_ACTIVE_LEVELS=-5", "OMP_THREAD_LIMIT=zero", "OMP_CANCELLATION=perhaps",
              "OMP_MAX_TASK_PRIORITY=-1", "OMP_WAIT_POLICY=sometimes", "OMP_PROC_BIND=sideways",
              "OMP_STACKSIZE=lots", "OMP_NESTED=xyz", "OMP_PLACES=garbage",
              "OMP_DEFAULT_DEVICE=nope") == 13);
    const struct icv *i = &icv_global.initial;
    CHECK(i->nthreads == icv_global.num_procs && i->run_sched == ICV_SCHED_DYNAMIC);
    CHECK(!i->dyn && i->max_active_levels == 1 && i->thread_limit == 0xffffffffu);
    CHECK(!icv_global.cancellation && icv_global.max_task_priority == 0);
    CHECK(icv_global.wait_policy == -1 && i->bind == ICV_BIND_FALSE);
    CHECK(icv_global.stacksize == 0 && icv_global.places == NULL && i->default_device == 0);

    CHECK(RUN("OMP_NUM_THREADS=4x", "OMP_SCHEDULE=", "OMP_DYNAMIC=", "OMP_THREAD_LIMIT=-3",
              "OMP_CANCELLATION=1", "OMP_STACKSIZE=-1", "OMP_DISPLAY_ENV=loud") == 7);
    CHECK(RUN("OMP_NUM_THREADS=0", "OMP_SCHEDULE=dynamic,,3", "OMP_PROC_BIND=",
              "OMP_STACKSIZE=12Q", "GOMP_SPINCOUNT=lots", "ILAN_SPIN_COUNT=-1",
              "OMP_ALLOCATOR=foo", "OMP_TARGET_OFFLOAD=on", "OMP_NUM_TEAMS=0",
              "OMP_TEAMS_THREAD_LIMIT=x", "GOMP_DEBUG=x", "ILAN_VERBOSE=loud",
              "OMP_DISPLAY_AFFINITY=2") == 13);
    CHECK(icv_global.spin_count == ILAN_SPIN_DEFAULT && !icv_global.spin_count_set);
    CHECK(icv_global.initial.def_allocator == 1 && icv_global.nteams == 0);
    /* a value with a newline still gives one line; a stack below the minimum is refused */
    CHECK(RUN("OMP_NUM_THREADS=4\n5", "OMP_STACKSIZE=1B") == 2);
    CHECK(icv_global.stacksize == 0);
}

static void test_display(void)
{
    /* a blank line, BEGIN, _OPENMP, 19 ICV lines, ILAN_VERSION, END; verbose adds 6 */
    CHECK(RUN("OMP_DISPLAY_ENV=true") == 24);
    CHECK(RUN("OMP_DISPLAY_ENV=verbose") == 30);
    CHECK(RUN("OMP_DISPLAY_ENV=false") == 0);
    CHECK(RUN("ILAN_VERBOSE=1") == 1);
}

int main(int argc, char **argv)
{
    /* The constructor already ran runtime_init on the caller's environment: run
     * again on a clean one so that `pristine` holds the defaults. */
    (void)argc;
    if (!getenv("ILAN_TEST_ENV_CLEAN")) {
        for (size_t i = 0; i < sizeof all_vars / sizeof all_vars[0]; i++)
            unsetenv(all_vars[i]);
        setenv("ILAN_TEST_ENV_CLEAN", "1", 1);
        execv("/proc/self/exe", argv);
        perror("execv");
        return 1;
    }
    pristine = icv_global;
    test_defaults();
    test_good();
    test_bad();
    test_display();
    return unit_report();
}
