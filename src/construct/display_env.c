/* display_env.c — the OMP_DISPLAY_ENV block, as libgomp prints it, plus ilan's own settings. */
#include "construct/display_env.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "config/env.h"
#include "config/icv.h"
#include "config/parse.h"
#include "topo/places.h"
#include "base/tunables.h"

/* _OPENMP of gcc 12 (OpenMP 4.5), which libgomp 12 displays. */
#define ENV_OPENMP_VERSION "201511"

static const char *env_bool_name(bool b)
{
    return b ? "TRUE" : "FALSE";
}

/* OMP_SCHEDULE as libgomp writes it: the modifier only where it differs from
 * the kind's default, the chunk only where it differs from the default. */
static void env_put_schedule(FILE *f)
{
    static const char *const kinds[] = {"?", "STATIC", "DYNAMIC", "GUIDED", "AUTO"};
    unsigned sched = icv_global.initial.run_sched;
    unsigned kind = sched & ~(unsigned)ICV_SCHED_MONOTONIC;
    bool monotonic = sched & ICV_SCHED_MONOTONIC;
    long chunk = icv_global.initial.run_sched_chunk;
    fputs("  [host] OMP_SCHEDULE = '", f);
    if (monotonic && kind != ICV_SCHED_STATIC)
        fputs("MONOTONIC:", f);
    else if (!monotonic && kind == ICV_SCHED_STATIC)
        fputs("NONMONOTONIC:", f);
    if (kind <= ICV_SCHED_AUTO) {
        fputs(kinds[kind], f);
    } else { /* ilan's kinds, upper case as libgomp writes its own */
        for (const char *p = parse_schedule_name((int)kind); *p; p++)
            fputc(toupper((unsigned char)*p), f);
    }
    if (kind != ICV_SCHED_AUTO && chunk != (kind == ICV_SCHED_STATIC ? 0 : 1))
        fprintf(f, ",%ld", chunk);
    fputs("'\n", f);
}

/* OMP_NUM_THREADS, OMP_SCHEDULE, OMP_PROC_BIND and OMP_PLACES, in libgomp's order. */
static void env_put_lists(FILE *f)
{
    static const char *const binds[] = {"FALSE", "TRUE", "PRIMARY", "CLOSE", "SPREAD"};
    fprintf(f, "  [host] OMP_NUM_THREADS = '%u", icv_global.initial.nthreads);
    for (unsigned i = 1; i < icv_global.nthreads_list_len; i++)
        fprintf(f, ",%u", icv_global.nthreads_list[i]);
    fputs("'\n", f);
    env_put_schedule(f);
    fprintf(f, "  [host] OMP_PROC_BIND = '%s", binds[icv_global.initial.bind % 5]);
    for (unsigned i = 1; i < icv_global.bind_list_len; i++)
        fprintf(f, ",%s", binds[icv_global.bind_list[i] % 5]);
    fputs("'\n", f);
    /* The resolved list, as libgomp shows it: {0:2},{2:2}. */
    char *list = malloc(1 << 16);
    if (list)
        places_format(list, 1 << 16);
    fprintf(f, "  [host] OMP_PLACES = '%s'\n", list ? list : "");
    free(list);
}

/* One line per ICV, in the order libgomp 12 prints them. */
static void env_put_icvs(FILE *f)
{
    static const char *const offload[] = {"DEFAULT", "DISABLED", "MANDATORY"};
    const struct icv *icv = &icv_global.initial;
    const char *alloc = parse_allocator_name(icv->def_allocator);
    unsigned long stack = icv_global.stacksize ? icv_global.stacksize : ILAN_DEFAULT_STACKSIZE;
    fprintf(f, "  [host] OMP_DYNAMIC = '%s'\n", env_bool_name(icv->dyn));
    fprintf(f, "  [host] OMP_NESTED = '%s'\n", env_bool_name(icv->max_active_levels > 1));
    env_put_lists(f);
    fprintf(f, "  [host] OMP_STACKSIZE = '%lu'\n", stack);
    /* As libgomp: the default (spin, then sleep) is reported as passive. */
    fprintf(f, "  [host] OMP_WAIT_POLICY = '%s'\n",
            icv_global.wait_policy > 0 ? "ACTIVE" : "PASSIVE");
    fprintf(f, "  [host] OMP_THREAD_LIMIT = '%u'\n", icv->thread_limit);
    fprintf(f, "  [host] OMP_MAX_ACTIVE_LEVELS = '%u'\n", icv->max_active_levels);
    fprintf(f, "  [host] OMP_NUM_TEAMS = '%d'\n", icv_global.nteams);
    fprintf(f, "  [host] OMP_TEAMS_THREAD_LIMIT = '%d'\n", icv_global.teams_thread_limit);
    fprintf(f, "  [host] OMP_CANCELLATION = '%s'\n", env_bool_name(icv_global.cancellation));
    fprintf(f, "  [host] OMP_DEFAULT_DEVICE = '%d'\n", icv->default_device);
    fprintf(f, "  [host] OMP_MAX_TASK_PRIORITY = '%d'\n", icv_global.max_task_priority);
    fprintf(f, "  [host] OMP_DISPLAY_AFFINITY = '%s'\n",
            env_bool_name(icv_global.display_affinity));
    fprintf(f, "  [host] OMP_AFFINITY_FORMAT = '%s'\n", icv_global.affinity_format);
    fprintf(f, "  [host] OMP_ALLOCATOR = '%s'\n", alloc ? alloc : "");
    fprintf(f, "  [host] OMP_TARGET_OFFLOAD = '%s'\n",
            offload[(unsigned)icv_global.target_offload % 3]);
}

/* The implementation's own settings, shown when verbose. */
static void env_put_extras(FILE *f)
{
    unsigned long stack = icv_global.stacksize ? icv_global.stacksize : ILAN_DEFAULT_STACKSIZE;
    fprintf(f, "  [host] GOMP_STACKSIZE = '%lu'\n", stack);
    fprintf(f, "  [host] GOMP_SPINCOUNT = '%u'\n", icv_global.spin_count);
    fprintf(f, "  [host] ILAN_SPIN_COUNT = '%u'\n", icv_global.spin_count);
    fprintf(f, "  [host] ILAN_VERBOSE = '%d'\n", config.verbose);
    static const char *const modes[] = {"ilan", "numa", "ws"};
    fprintf(f, "  [host] ILAN_TASKLOOP = '%s'\n", modes[config.taskloop_mode]);
    fprintf(f, "  [host] ILAN_STEAL_POLICY = '%s'\n",
            config.forced_steal < 0 ? "" : config.forced_steal ? "full" : "strict");
}

/* Writes the whole block into `f`. */
static void env_put_block(FILE *f, bool verbose)
{
    fputs("\nOPENMP DISPLAY ENVIRONMENT BEGIN\n", f);
    fputs("  _OPENMP = '" ENV_OPENMP_VERSION "'\n", f);
    env_put_icvs(f);
    fputs("  ILAN_VERSION = '" ILAN_VERSION_STRING "'\n", f);
    if (verbose)
        env_put_extras(f);
    fputs("OPENMP DISPLAY ENVIRONMENT END\n", f);
}

void display_env(bool verbose)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) { /* out of memory: write piecewise */
        env_put_block(stderr, verbose);
        return;
    }
    env_put_block(f, verbose);
    fclose(f);
    fwrite(text, 1, len, stderr); /* one write: threads printing meanwhile cannot cut it */
    fflush(stderr);
    free(text);
}

