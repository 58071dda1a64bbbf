/* env.h — reading the environment once at start-up: the ICVs (config/icv.h) and ilan's own settings (struct config). */
#ifndef ILAN_CONFIG_ENV_H
#define ILAN_CONFIG_ENV_H

#include <stdbool.h>
#include "config/parse.h"
#include "sched/bubble.h"
#include "sched/dlb.h"
#include "sched/steal.h"

/* ILAN_TASKLOOP: how taskloops are scheduled. */
enum taskloop_mode {
    TASKLOOP_ILAN, /* NUMA-aware distribution + moldability (default) */
    TASKLOOP_NUMA, /* the distribution alone, on every thread of the team */
    TASKLOOP_WS,   /* random work stealing from the creator's deque (baseline) */
};

/* ILAN_BARRIER: the team barrier (core/barrier.h). */
enum barrier_kind {
    BARRIER_CENTRAL, /* one counter all threads decrement */
    BARRIER_TREE,    /* a tree of counters grouped by locality, woken down the tree */
};

/* What the environment says besides the ICVs, as read (config_read_env);
 * what depends on the machine (places, reserved cores) is resolved by the
 * start-up code that builds the machine model (construct/runtime.c). */
struct config {
    int verbose;                       /* ILAN_VERBOSE: 0 quiet; 1 a start-up line and a line
                                          per ILAN decision; 2 also the OMP_DISPLAY_ENV block */
    int display_env;                   /* OMP_DISPLAY_ENV: 0 false, 1 true, 2 verbose */
    bool nthreads_set;                 /* OMP_NUM_THREADS gave the first level's team size */
    struct place_list cpu_affinity;    /* GOMP_CPU_AFFINITY's places (n = 0: unset or invalid) */
    const char *cpu_affinity_text;     /* its value, for messages (NULL: unset) */
    unsigned reserve_cores;            /* ILAN_RESERVE_CORES, not yet checked against the machine */
    const char *reserve_text;          /* its value, for messages (NULL: unset) */
    enum taskloop_mode taskloop_mode;  /* ILAN_TASKLOOP */
    int forced_steal;                  /* ILAN_STEAL_POLICY: -1 explore, 0 strict, 1 full */
    enum bubble_sched bubbles;         /* ILAN_BUBBLES: nested teams placed as bubbles (off) */
    enum steal_policy steal_policy;    /* ILAN_TASK_STEAL */
    enum barrier_kind barrier;         /* ILAN_BARRIER */
    unsigned barrier_fanin;            /* ILAN_BARRIER_FANIN: a tree node's children per level */
    struct dlb_params dlb;             /* ILAN_DLB, ILAN_DLB_VICTIMS, _STEAL, _INTERVAL, _PLOCAL */
    unsigned explore_min_us;           /* ILAN_EXPLORE_MIN_US: taskloops whose all-groups runs
                                          take less (median, us) are not explored */
    unsigned history_max;              /* ILAN_HISTORY_MAX: taskloop identities remembered
                                          before the least recently used are forgotten */
    bool env_allocator;                /* OMP_ALLOCATOR named a memory space with traits */
    uintptr_t env_memspace;            /* that memory space (omp_memspace_handle_t) */
    uintptr_t env_partition;           /* its partition trait (omp_atv_*) */
    char report[4096];                 /* ILAN_REPORT with %p and %r expanded; "" none */
    unsigned counters;                 /* ILAN_COUNTERS: 0 off, 1 runtime, 2 os, 3 all (enum
                                          instr_level); ILAN_REPORT and ILAN_TRACE imply 1 */
    char trace[4096];                  /* ILAN_TRACE with %p and %r expanded; "" none */
    unsigned trace_task_every;         /* ILAN_TRACE_TASKS: trace one task in this many (0: no
                                          task slices; default 1, every task) */
    const char *whatif_name;           /* HWLOC_SYNTHETIC or HWLOC_XMLFILE when set, else NULL */
    const char *whatif_value;          /* its value */
    bool whatif_thissystem;            /* HWLOC_THISSYSTEM=1: the XML file is this machine */
    unsigned debug_wait_delay_us;      /* ILAN_DEBUG_WAIT_DELAY_US (debug builds only): a delay
                                          between deciding to sleep and sleeping, which widens
                                          the window a lost wake-up needs (tests) */
};

extern struct config config;

/* Reads every OMP_* / GOMP_* / ILAN_* variable into icv_global and config,
 * warning in one line about each bad value (the default is then used).
 * Once, at start-up, before any other thread exists. */
void config_read_env(void);

/* Warns, on one line, that variable `name` holds an unusable value;
 * `why` (" (reason)" or "") says why. Control characters are shown as '?'
 * and long values are cut so that the warning stays one line. */
void config_complain(const char *name, const char *value, const char *why);

/* Places were given (or cores reserved): binding is on unless
 * OMP_PROC_BIND said otherwise, as libgomp does for OMP_PLACES and
 * GOMP_CPU_AFFINITY. */
void config_bind_by_default(void);

/* The first level's default team size once the places are known (n
 * threads), unless OMP_NUM_THREADS gave one. */
void config_set_default_threads(unsigned n);

/* The ILAN_VERBOSE start-up line, on stderr. */
void config_say_hello(void);

#endif
