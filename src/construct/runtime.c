/* runtime.c — the start-up sequence: read the environment, build the machine model and the places, settle binding and the default team, arm the report. */
#include "construct/runtime.h"

#include <stdlib.h>
#include "config/env.h"
#include "config/icv.h"
#include "construct/display_env.h"
#include "core/alloc.h"
#include "core/loop_hist.h"
#include "core/task_mode.h"
#include "ilan/mode.h"
#include "core/wait.h"
#include "ilan/report.h"
#include "instr/counters.h"
#include "instr/results.h"
#include "instr/trace.h"
#include "os/linux/clock.h"
#include "topo/places.h"
#include "topo/topo.h"

/* ILAN_RESERVE_CORES checked against the machine: fewer than its cores. */
static unsigned runtime_reserved_cores(void)
{
    if (config.reserve_cores == 0)
        return 0;
    if (config.reserve_cores >= (unsigned)topo.ncores) {
        config_complain("ILAN_RESERVE_CORES", config.reserve_text,
                        " (not fewer than the cores available)");
        return 0;
    }
    return config.reserve_cores;
}

/* OMP_PLACES, else GOMP_CPU_AFFINITY (libgomp's precedence), resolved on
 * the machine model. Valid places, or reserved cores, turn binding on
 * unless OMP_PROC_BIND said otherwise. Default places (when binding is
 * asked for without a list): every core, minus the reserved ones. With
 * binding off there are no places at all, as in libgomp. */
static void runtime_places(unsigned reserve)
{
    bool given = false;
    if (icv_global.places) {
        given = places_setup(icv_global.places, reserve);
        if (!given) {
            config_complain("OMP_PLACES", icv_global.places,
                            " (no place left in this process's CPUs)");
            free(icv_global.places);
            icv_global.places = NULL;
        }
    }
    if (!given && config.cpu_affinity.n) {
        given = places_setup_cpus(&config.cpu_affinity);
        if (!given)
            config_complain("GOMP_CPU_AFFINITY", config.cpu_affinity_text,
                            " (no CPU of it in this process's set)");
    }
    if (!given)
        places_setup(NULL, reserve);
    if (given || reserve > 0)
        config_bind_by_default();
    /* ILAN_BUBBLES asks for placement: nested teams are bound to their
     * bubble's cores, so the places stay (outer teams stay unbound). */
    if (icv_global.initial.bind == ICV_BIND_FALSE && !config.bubbles)
        places_clear();
}

void runtime_init(void)
{
    os_clock_init();
    config_read_env();
    topo_init();
    if (config.env_allocator) { /* OMP_ALLOCATOR=memspace:partition=... */
        omp_alloctrait_t t = {omp_atk_partition, config.env_partition};
        omp_allocator_handle_t a = alloc_init_allocator(config.env_memspace, 1, &t);
        if (a != omp_null_allocator) /* env.c let only memory spaces there are through */
            icv_global.initial.def_allocator = (uintptr_t)a;
    }
    runtime_places(runtime_reserved_cores());
    /* Bound to ilan's default places (the cores, reserved ones left out),
     * a team has one thread per place; otherwise one per CPU we may use. */
    if (places.is_default && places.os.n)
        config_set_default_threads(places.os.n);
    wait_watch_init();
    wait_update_plan(1, 1);
    task_mode = config.taskloop_mode == TASKLOOP_WS ? NULL : &ilan_mode;
    instr_init((enum instr_level)config.counters);
    instr_flags.task_every = config.trace_task_every;
    if (config.trace[0])
        trace_setup(config.trace);
    loop_hist_on = config.report[0] != '\0';
    if (config.report[0])
        ilan_report_at_exit(config.report);
    else if (config.counters)
        instr_summary_at_exit();
    if (config.verbose >= 1)
        config_say_hello();
    if (config.display_env || config.verbose >= 1)
        topo_say_whatif();
    if (config.display_env || config.verbose >= 2)
        display_env(config.display_env == 2 || config.verbose >= 2);
}
