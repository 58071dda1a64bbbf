/* env.c — reads every OMP_* / GOMP_* / ILAN_* environment variable into the global ICVs at start-up. */
#include "config/env.h"

#include "base/omp_types.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "config/parse.h"
#include "sched/barrier_tree.h"
#include "sched/steal.h"
#include "os/linux/affinity.h"
#include "os/linux/file.h"
#include "os/linux/thread.h"
#include "base/tunables.h"

#ifndef PTHREAD_STACK_MIN
#define PTHREAD_STACK_MIN 16384
#endif

struct config config = {.forced_steal = -1,
                        .dlb = {.strategy = DLB_WS,
                                .victims = ILAN_DLB_VICTIMS_DEFAULT,
                                .steal = ILAN_DLB_STEAL_DEFAULT,
                                .interval = ILAN_DLB_INTERVAL_DEFAULT,
                                .plocal = ILAN_DLB_PLOCAL_DEFAULT},
                        .trace_task_every = 1,
                        .explore_min_us = ILAN_EXPLORE_MIN_US_DEFAULT,
                        .history_max = ILAN_HISTORY_MAX_DEFAULT,
                        .barrier = (enum barrier_kind)ILAN_BARRIER_DEFAULT,
                        .barrier_fanin = ILAN_BARRIER_FANIN_DEFAULT};

/* ---- reading and complaining ------------------------------------------- */

void config_complain(const char *name, const char *value, const char *why)
{
    char shown[96];
    size_t i = 0;
    for (; value[i] && i + 1 < sizeof shown; i++)
        shown[i] = (unsigned char)value[i] < 0x20 || value[i] == 0x7f ? '?' : value[i];
    shown[i] = '\0';
    ilan_warn("Invalid value for environment variable %s: '%s%s'%s; using the default", name,
              shown, value[i] ? "..." : "", why);
}

static void env_invalid(const char *name, const char *value)
{
    config_complain(name, value, "");
}

/* A boolean variable: true when set and valid (then *out holds it). */
static bool env_bool(const char *name, bool *out)
{
    const char *v = getenv(name);
    if (!v)
        return false;
    if (parse_bool(v, out))
        return true;
    env_invalid(name, v);
    return false;
}

/* An integer variable in [min, max]: true when set and valid. */
static bool env_ulong(const char *name, unsigned long min, unsigned long max, unsigned long *out)
{
    const char *v = getenv(name);
    if (!v)
        return false;
    if (parse_ulong(v, min, max, out))
        return true;
    env_invalid(name, v);
    return false;
}

/* An int variable in [min, INT_MAX]: true when set and valid. */
static bool env_int(const char *name, int min, int *out)
{
    unsigned long v;
    if (!env_ulong(name, (unsigned long)min, INT_MAX, &v))
        return false;
    *out = (int)v;
    return true;
}

/* ---- one reader per variable (or per group of related variables) ----- */

/* OMP_SCHEDULE: run-sched-var; default dynamic,1 as libgomp. */
static void env_read_schedule(void)
{
    const char *v = getenv("OMP_SCHEDULE");
    unsigned kind;
    long chunk;
    if (!v)
        return;
    if (!parse_schedule(v, &kind, &chunk)) {
        env_invalid("OMP_SCHEDULE", v);
        return;
    }
    icv_global.initial.run_sched = kind;
    icv_global.initial.run_sched_chunk = chunk;
}

/* OMP_NUM_THREADS: nthreads-var per level. Until it is known where
 * threads go, the default is the CPUs we may run on (as libgomp);
 * config_set_default_threads may change it once the places are. */
static void env_read_num_threads(void)
{
    const char *v = getenv("OMP_NUM_THREADS");
    icv_global.nthreads_list[0] = icv_global.num_procs;
    icv_global.nthreads_list_len = 1;
    config.nthreads_set = false;
    if (v && parse_unsigned_list(v, INT_MAX, icv_global.nthreads_list, ILAN_MAX_NEST_LIST,
                                 &icv_global.nthreads_list_len))
        config.nthreads_set = true;
    else if (v)
        env_invalid("OMP_NUM_THREADS", v);
    icv_global.initial.nthreads = icv_global.nthreads_list[0];
    icv_global.initial.nthreads_pos = 0;
}

void config_set_default_threads(unsigned n)
{
    if (config.nthreads_set || n == 0)
        return;
    icv_global.nthreads_list[0] = n;
    icv_global.initial.nthreads = n;
}

/* OMP_PROC_BIND: bind-var per level. Default false, as libgomp: no thread
 * is bound and no affinity mask changes unless OMP_PROC_BIND, OMP_PLACES,
 * GOMP_CPU_AFFINITY or ILAN_RESERVE_CORES ask for binding (see
 * config_bind_by_default). */
static void env_read_proc_bind(void)
{
    const char *v = getenv("OMP_PROC_BIND");
    icv_global.bind_list[0] = ICV_BIND_FALSE;
    icv_global.bind_list_len = 1;
    if (v) {
        if (parse_proc_bind(v, icv_global.bind_list, ILAN_MAX_NEST_LIST,
                            &icv_global.bind_list_len))
            icv_global.bind_set = true;
        else
            env_invalid("OMP_PROC_BIND", v);
    }
    icv_global.initial.bind = icv_global.bind_list[0];
    icv_global.initial.bind_pos = 0;
}

void config_bind_by_default(void)
{
    if (icv_global.bind_set)
        return;
    icv_global.bind_list[0] = ICV_BIND_TRUE;
    icv_global.initial.bind = ICV_BIND_TRUE;
}

/* ILAN_RESERVE_CORES: cores left without workers; checked against the
 * machine by whoever builds the places (config.reserve_cores). */
static void env_read_reserve_cores(void)
{
    const char *v = getenv("ILAN_RESERVE_CORES");
    unsigned long n;
    config.reserve_cores = 0;
    config.reserve_text = v;
    if (v && parse_ulong(v, 0, INT_MAX, &n))
        config.reserve_cores = (unsigned)n;
    else if (v)
        env_invalid("ILAN_RESERVE_CORES", v);
}

/* GOMP_CPU_AFFINITY, libgomp's older binding list: a place per CPU, in the
 * order given (config.cpu_affinity; empty when unset or invalid). */
static void env_read_cpu_affinity(void)
{
    const char *v = getenv("GOMP_CPU_AFFINITY");
    config.cpu_affinity_text = v;
    place_list_free(&config.cpu_affinity);
    if (v && !parse_cpu_affinity(v, &config.cpu_affinity))
        env_invalid("GOMP_CPU_AFFINITY", v);
}

/* OMP_PLACES: kept (trimmed) when its syntax is valid; resolved on the
 * machine by whoever builds the places. */
static void env_read_places(void)
{
    const char *v = getenv("OMP_PLACES");
    free(icv_global.places);
    icv_global.places = NULL;
    if (v && !parse_places_syntax(v)) {
        env_invalid("OMP_PLACES", v);
        return;
    }
    if (!v)
        return;
    while (isspace((unsigned char)*v))
        v++;
    size_t len = strlen(v);
    while (len > 0 && isspace((unsigned char)v[len - 1]))
        len--;
    icv_global.places = strndup(v, len); /* trimmed; NULL if out of memory, as if unset */
}

/* HWLOC_SYNTHETIC / HWLOC_XMLFILE (what-if machines, read by hwloc itself)
 * and HWLOC_THISSYSTEM: kept for topo/'s messages. */
static void env_read_whatif(void)
{
    const char *syn = getenv("HWLOC_SYNTHETIC"), *xml = getenv("HWLOC_XMLFILE");
    const char *thissystem = getenv("HWLOC_THISSYSTEM");
    config.whatif_name = syn && syn[0] ? "HWLOC_SYNTHETIC" : xml && xml[0] ? "HWLOC_XMLFILE" : NULL;
    config.whatif_value = syn && syn[0] ? syn : xml && xml[0] ? xml : NULL;
    config.whatif_thissystem = thissystem && thissystem[0] == '1';
}

/* OMP_MAX_ACTIVE_LEVELS, else the deprecated OMP_NESTED, else libgomp 12's
 * rule: all supported levels when OMP_NUM_THREADS or OMP_PROC_BIND is a
 * list of more than one item, otherwise 1. Must follow both list readers. */
static void env_read_active_levels(void)
{
    unsigned long mal;
    bool nested;
    bool have_nested = env_bool("OMP_NESTED", &nested); /* always read: warns if invalid */
    if (env_ulong("OMP_MAX_ACTIVE_LEVELS", 0, ULONG_MAX, &mal))
        icv_global.initial.max_active_levels =
            mal > ILAN_SUPPORTED_ACTIVE_LEVELS ? ILAN_SUPPORTED_ACTIVE_LEVELS : (unsigned)mal;
    else if (have_nested)
        icv_global.initial.max_active_levels = nested ? ILAN_SUPPORTED_ACTIVE_LEVELS : 1;
    else if (icv_global.nthreads_list_len > 1 || icv_global.bind_list_len > 1)
        icv_global.initial.max_active_levels = ILAN_SUPPORTED_ACTIVE_LEVELS;
    else
        icv_global.initial.max_active_levels = 1;
}

/* OMP_THREAD_LIMIT: default unlimited; above INT_MAX means unlimited. */
static void env_read_thread_limit(void)
{
    unsigned long v;
    if (env_ulong("OMP_THREAD_LIMIT", 1, ULONG_MAX, &v))
        icv_global.initial.thread_limit = v > INT_MAX ? UINT_MAX : (unsigned)v;
}

/* One stack-size variable: true when set, valid and large enough. */
static bool env_stacksize_from(const char *name)
{
    const char *v = getenv(name);
    unsigned long bytes;
    if (!v)
        return false;
    if (!parse_stacksize(v, &bytes)) {
        env_invalid(name, v);
        return false;
    }
    if (bytes < (unsigned long)PTHREAD_STACK_MIN) {
        config_complain(name, v, " (below the minimum thread stack size)");
        return false;
    }
    icv_global.stacksize = bytes;
    return true;
}

/* OMP_STACKSIZE, else GOMP_STACKSIZE: stacksize-var of worker threads. */
static void env_read_stacksize(void)
{
    if (!env_stacksize_from("OMP_STACKSIZE"))
        env_stacksize_from("GOMP_STACKSIZE");
}

/* One spin-count variable: true when set and valid. */
static bool env_spincount_from(const char *name, unsigned long long *out)
{
    const char *v = getenv(name);
    if (!v)
        return false;
    if (parse_spincount(v, out))
        return true;
    env_invalid(name, v);
    return false;
}

/* OMP_WAIT_POLICY, then GOMP_SPINCOUNT and ILAN_SPIN_COUNT (which wins).
 * As in libgomp, the policy only chooses the spin count's default. */
static void env_read_waiting(void)
{
    const char *v = getenv("OMP_WAIT_POLICY");
    int policy;
    if (v) {
        if (parse_wait_policy(v, &policy))
            icv_global.wait_policy = policy;
        else
            env_invalid("OMP_WAIT_POLICY", v);
    }
    unsigned long long spins = 0;
    bool set = env_spincount_from("GOMP_SPINCOUNT", &spins);
    set |= env_spincount_from("ILAN_SPIN_COUNT", &spins);
    icv_global.spin_count_set = set;
    if (set)
        icv_global.spin_count = spins > UINT_MAX ? UINT_MAX : (unsigned)spins;
    else if (icv_global.wait_policy == 1)
        icv_global.spin_count = ILAN_SPIN_ACTIVE;
    else if (icv_global.wait_policy == 0)
        icv_global.spin_count = 0;
    else
        icv_global.spin_count = ILAN_SPIN_DEFAULT;
}

/* OMP_DEFAULT_DEVICE: default-device-var; default 0. */
static void env_read_default_device(void)
{
    int dev;
    if (env_int("OMP_DEFAULT_DEVICE", 0, &dev)) {
        icv_global.default_device = dev;
        icv_global.initial.default_device = dev;
    }
}

/* OMP_TARGET_OFFLOAD: stored only; the host is the only device. */
static void env_read_target_offload(void)
{
    const char *v = getenv("OMP_TARGET_OFFLOAD");
    int mode;
    if (v && parse_target_offload(v, &mode))
        icv_global.target_offload = mode;
    else if (v)
        env_invalid("OMP_TARGET_OFFLOAD", v);
}

/* OMP_ALLOCATOR: def-allocator-var, a predefined allocator name, or a
 * memory space with a partition trait (the allocator is made at start-up,
 * construct/runtime.c). */
static void env_read_allocator(void)
{
    const char *v = getenv("OMP_ALLOCATOR");
    uintptr_t a;
    if (v && parse_allocator(v, &a))
        icv_global.initial.def_allocator = a;
    else if (v && parse_allocator_space(v, &config.env_memspace, &config.env_partition) &&
             config.env_memspace != omp_high_bw_mem_space) /* none, as omp_init_allocator */
        config.env_allocator = true;
    else if (v)
        env_invalid("OMP_ALLOCATOR", v);
}

/* OMP_AFFINITY_FORMAT: kept as given if it fits. */
static void env_read_affinity_format(void)
{
    const char *v = getenv("OMP_AFFINITY_FORMAT");
    if (!v)
        return;
    if (strlen(v) >= sizeof icv_global.affinity_format) {
        config_complain("OMP_AFFINITY_FORMAT", v, " (too long)");
        return;
    }
    strcpy(icv_global.affinity_format, v);
}

/* OMP_DISPLAY_ENV: 0 false, 1 true, 2 verbose. */
static int env_read_display(void)
{
    const char *v = getenv("OMP_DISPLAY_ENV");
    int mode = 0;
    if (v && !parse_display_env(v, &mode))
        env_invalid("OMP_DISPLAY_ENV", v);
    return mode;
}

/* ILAN_VERBOSE: a level 0..9, or true (1) / false (0). */
static void env_read_verbose(void)
{
    const char *v = getenv("ILAN_VERBOSE");
    unsigned long level;
    bool on;
    if (!v)
        return;
    if (parse_ulong(v, 0, 9, &level))
        config.verbose = (int)level;
    else if (parse_bool(v, &on))
        config.verbose = on;
    else
        env_invalid("ILAN_VERBOSE", v);
}

/* ILAN_DEBUG_WAIT_DELAY_US: microseconds (0..100000) that a debug build's
 * waiters pause between deciding to sleep and sleeping (core/wait.c). A
 * release build does not read it. */
static void env_read_debug_wait_delay(void)
{
#ifndef NDEBUG
    unsigned long us;
    if (env_ulong("ILAN_DEBUG_WAIT_DELAY_US", 0, 100000, &us))
        config.debug_wait_delay_us = (unsigned)us;
#endif
}

/* ILAN_TASK_STEAL: the work-stealing victim policy (sched/steal.h). */
static void env_read_task_steal(void)
{
    const char *v = getenv("ILAN_TASK_STEAL");
    if (v && !steal_parse_policy(v, &config.steal_policy))
        env_invalid("ILAN_TASK_STEAL", v);
}

/* ILAN_DLB and its parameters (sched/dlb.h, core/dlb.c). */
static void env_read_dlb(void)
{
    const char *v = getenv("ILAN_DLB");
    int strategy;
    if (v && parse_keyword(v, dlb_strategy_names, DLB_STRATEGIES, &strategy))
        config.dlb.strategy = (enum dlb_strategy)strategy;
    else if (v)
        env_invalid("ILAN_DLB", v);
    unsigned long n;
    if (env_ulong("ILAN_DLB_VICTIMS", 1, 1024, &n))
        config.dlb.victims = (unsigned)n;
    if (env_ulong("ILAN_DLB_STEAL", 1, 1024, &n))
        config.dlb.steal = (unsigned)n;
    if (env_ulong("ILAN_DLB_INTERVAL", 1, 1000000, &n))
        config.dlb.interval = (unsigned)n;
    if ((v = getenv("ILAN_DLB_PLOCAL")) && !parse_probability(v, &config.dlb.plocal))
        env_invalid("ILAN_DLB_PLOCAL", v);
}

/* The MPI rank of this process, from the usual launchers' variables
 * (Open MPI, MPICH and Intel MPI, PMIx, MVAPICH, Slurm); 0 when none says. */
static long env_mpi_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                        "MV2_COMM_WORLD_RANK", "SLURM_PROCID"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        unsigned long rank;
        const char *v = getenv(names[i]);
        if (v && parse_ulong(v, 0, LONG_MAX, &rank))
            return (long)rank;
    }
    return 0;
}

/* Reads a variable naming a file the runtime writes (ILAN_REPORT,
 * ILAN_TRACE) into out[size], "" when unset or invalid. Such variables are
 * read with secure_getenv, so a setuid, setgid or file-capability program
 * ignores them (saying so) instead of writing where its user could not.
 * "%p" and "%r" in the name become the process id and the MPI rank.
 * 0, false, no, off mean none; 1, true, yes, on mean `when_on` ("stderr"
 * for the report), or are refused with a warning when it is NULL. */
static void env_read_output_file(const char *name, const char *what, const char *when_on,
                                 char *out, size_t size)
{
    static const char *const off[] = {"0", "false", "no", "off"}, *const on[] = {"1", "true", "yes",
                                                                                 "on"};
    const char *v = secure_getenv(name);
    int word;
    if (!v) {
        if (getenv(name) && os_process_is_privileged())
            ilan_warn("%s is ignored in a setuid, setgid or capability program; no %s written",
                      name, what);
        return;
    }
    /* Switch words are what a user who wants "on" or "off" writes; taken as
     * file names they would leave a file called "1" in the working folder. */
    if (parse_keyword(v, off, 4, &word)) {
        out[0] = '\0';
        return;
    }
    if (parse_keyword(v, on, 4, &word)) {
        if (when_on) {
            snprintf(out, size, "%s", when_on);
        } else {
            out[0] = '\0';
            ilan_warn("Invalid value for environment variable %s: '%s' (it names the %s's file, "
                      "FILE.json); no %s written", name, v, what, what);
        }
        return;
    }
    if (!v[0] || !parse_file_pattern(v, os_process_id(), env_mpi_rank(), out, size)) {
        out[0] = '\0';
        env_invalid(name, v);
    }
}

/* ILAN_REPORT: the scheduler's report at exit (instr/report.c). */
static void env_read_report(void)
{
    env_read_output_file("ILAN_REPORT", "report", "stderr", config.report, sizeof config.report);
}

/* ILAN_TRACE names a file, like ILAN_REPORT (same rules, same patterns);
 * ILAN_TRACE_TASKS samples the task slices. */
static void env_read_trace(void)
{
    const char *v = getenv("ILAN_TRACE_TASKS");
    if (v && !parse_sampling(v, &config.trace_task_every))
        config_complain("ILAN_TRACE_TASKS", v, " (1/N, all or none; every task is traced)");
    env_read_output_file("ILAN_TRACE", "trace", NULL, config.trace, sizeof config.trace);
}

/* ILAN_COUNTERS: what is measured (struct config counters). A report
 * implies the runtime counters unless ILAN_COUNTERS=off says not; a trace
 * always does (its events are the counters' state changes). */
static void env_read_counters(void)
{
    static const char *const levels[] = {"off", "runtime", "os", "all"};
    int i;
    const char *v = getenv("ILAN_COUNTERS");
    bool set = false;
    if (v && parse_keyword(v, levels, 4, &i)) {
        config.counters = (unsigned)i;
        set = true;
    } else if (v) {
        config_complain("ILAN_COUNTERS", v, " (off, runtime, os or all)");
    }
    env_read_trace();
    if ((!set && config.report[0]) || (config.trace[0] && config.counters == 0))
        config.counters = 1;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* ILAN_BUBBLES: off (unset), cache or memory (enum bubble_sched). */
static void env_read_bubbles(void)
{
    static const char *const kinds[] = {"cache", "memory"};
    int i;
    const char *v = getenv("ILAN_BUBBLES");
    if (v && parse_keyword(v, kinds, 2, &i))
        config.bubbles = i == 0 ? BUBBLE_CACHE : BUBBLE_MEMORY;
    else if (v)
        config_complain("ILAN_BUBBLES", v, " (cache or memory; default: unset, no bubbles)");
}

/* ILAN_BARRIER (enum barrier_kind) and ILAN_BARRIER_FANIN. */
static void env_read_barrier(void)
{
    static const char *const kinds[] = {"central", "tree"};
    int i;
    const char *v = getenv("ILAN_BARRIER");
    if (v && parse_keyword(v, kinds, 2, &i))
        config.barrier = (enum barrier_kind)i;
    else if (v)
        config_complain("ILAN_BARRIER", v,
                        ILAN_BARRIER_DEFAULT ? " (central or tree; default tree)"
                                             : " (central or tree; default central)");
    unsigned long n;
    v = getenv("ILAN_BARRIER_FANIN");
    if (v && parse_ulong(v, BTREE_FANIN_MIN, BTREE_FANIN_MAX, &n))
        config.barrier_fanin = (unsigned)n;
    else if (v)
        config_complain("ILAN_BARRIER_FANIN", v,
                        " (children per tree node, 2 to 64; default " STR(ILAN_BARRIER_FANIN_DEFAULT) ")");
}

/* ILAN_TASKLOOP (enum taskloop_mode), ILAN_STEAL_POLICY, ILAN_EXPLORE_MIN_US,
 * ILAN_HISTORY_MAX and ILAN_REPORT. */
static void env_read_taskloop(void)
{
    static const char *const modes[] = {"ilan", "numa", "ws"};
    static const char *const policies[] = {"strict", "full"};
    int i;
    const char *v = getenv("ILAN_TASKLOOP");
    if (v && parse_keyword(v, modes, 3, &i))
        config.taskloop_mode = (enum taskloop_mode)i;
    else if (v)
        env_invalid("ILAN_TASKLOOP", v);
    v = getenv("ILAN_STEAL_POLICY");
    if (v && parse_keyword(v, policies, 2, &i))
        config.forced_steal = i;
    else if (v)
        env_invalid("ILAN_STEAL_POLICY", v);
    unsigned long n;
    v = getenv("ILAN_EXPLORE_MIN_US");
    if (v && parse_ulong(v, 0, 10000000, &n))
        config.explore_min_us = (unsigned)n;
    else if (v)
        config_complain("ILAN_EXPLORE_MIN_US", v,
                        " (microseconds, 0 to 10000000; default " STR(ILAN_EXPLORE_MIN_US_DEFAULT) ")");
    v = getenv("ILAN_HISTORY_MAX");
    if (v && parse_ulong(v, 1, 1u << 24, &n))
        config.history_max = (unsigned)n;
    else if (v)
        config_complain("ILAN_HISTORY_MAX", v,
                        " (identities, 1 to 16777216; default " STR(ILAN_HISTORY_MAX_DEFAULT) ")");
    env_read_report();
}

/* Variables accepted for compatibility whose value ilan does not use. */
static void env_read_ignored(void)
{
    unsigned long unused;
    const char *v = secure_getenv("GOMP_DEBUG");
    if (v && !parse_ulong(v, 0, INT_MAX, &unused))
        env_invalid("GOMP_DEBUG", v);
}

/* Scalar ICVs with no interplay with other variables. */
static void env_read_scalars(void)
{
    bool b;
    int i;
    if (env_bool("OMP_DYNAMIC", &b))
        icv_global.initial.dyn = b;
    if (env_bool("OMP_CANCELLATION", &b))
        icv_global.cancellation = b;
    if (env_bool("OMP_DISPLAY_AFFINITY", &b))
        icv_global.display_affinity = b;
    if (env_int("OMP_MAX_TASK_PRIORITY", 0, &i))
        icv_global.max_task_priority = i;
    if (env_int("OMP_NUM_TEAMS", 1, &i))
        icv_global.nteams = i;
    if (env_int("OMP_TEAMS_THREAD_LIMIT", 1, &i))
        icv_global.teams_thread_limit = i;
    env_read_schedule();
    env_read_thread_limit();
    env_read_default_device();
    env_read_target_offload();
    env_read_allocator();
    env_read_affinity_format();
    env_read_ignored();
    env_read_task_steal();
    env_read_dlb();
    env_read_taskloop();
    env_read_bubbles();
    env_read_barrier();
    env_read_counters();
}

void config_say_hello(void)
{
    unsigned long stack = icv_global.stacksize ? icv_global.stacksize : ILAN_DEFAULT_STACKSIZE;
    fprintf(stderr,
            "ilan: version %s; %u CPUs in the affinity mask; nthreads %u; max-active-levels %u; "
            "wait policy %s, spin count %u; worker stack %lu KiB\n",
            ILAN_VERSION_STRING, icv_global.num_procs, icv_global.initial.nthreads,
            icv_global.initial.max_active_levels,
            icv_global.wait_policy < 0 ? "default" : icv_global.wait_policy ? "active" : "passive",
            icv_global.spin_count, stack >> 10);
}

void config_read_env(void)
{
    icv_global.num_procs = os_cpus_allowed();
    env_read_verbose();
    env_read_debug_wait_delay();
    env_read_scalars();
    env_read_proc_bind();
    env_read_places();
    env_read_cpu_affinity();
    env_read_reserve_cores();
    env_read_whatif();
    env_read_num_threads();
    env_read_active_levels();
    env_read_stacksize();
    env_read_waiting();
    config.display_env = env_read_display();
}
