/* icv.h — the OpenMP internal control variables: per-task ones and global ones. */
#ifndef ILAN_CONFIG_ICV_H
#define ILAN_CONFIG_ICV_H

#include <stdbool.h>
#include <stdint.h>
#include "base/tunables.h"

/* Loop schedule kinds, numbered as omp_sched_t (omp.h). */
enum icv_sched {
    ICV_SCHED_STATIC = 1,
    ICV_SCHED_DYNAMIC = 2,
    ICV_SCHED_GUIDED = 3,
    ICV_SCHED_AUTO = 4,
    /* ilan's kinds, for OMP_SCHEDULE and omp_set_schedule (implementation-
     * defined omp_sched_t values; 101 and 102 are libomp's numbers for the
     * same names) */
    ICV_SCHED_TSS = 101,          /* trapezoid self-scheduling */
    ICV_SCHED_STATIC_STEAL = 102, /* adaptive without locality (libomp's name) */
    ICV_SCHED_ADAPTIVE = 110,     /* per-thread ranges, steal-half, locality first (seed 001) */
    ICV_SCHED_FAC2 = 111,         /* practical factoring */
    ICV_SCHED_AF = 112,           /* adaptive factoring */
    ICV_SCHED_MONOTONIC = 0x80000000u, /* modifier bit, as in omp_sched_monotonic */
};

/* proc-bind values, numbered as omp_proc_bind_t. */
enum icv_bind {
    ICV_BIND_FALSE = 0,
    ICV_BIND_TRUE = 1,
    ICV_BIND_PRIMARY = 2,
    ICV_BIND_CLOSE = 3,
    ICV_BIND_SPREAD = 4,
};

/* ICVs whose scope is the data environment: every implicit task has its own
 * copy, inherited from the encountering task when a parallel region starts. */
struct icv {
    unsigned nthreads;          /* nthreads-var: team size requested for the next region */
    unsigned char nthreads_pos; /* index in the OMP_NUM_THREADS list that nthreads came from */
    unsigned char bind_pos;     /* index in the OMP_PROC_BIND list that bind came from */
    bool dyn;                   /* dyn-var: may the runtime shrink teams */
    unsigned run_sched;         /* run-sched-var kind (enum icv_sched, may carry MONOTONIC) */
    long run_sched_chunk;       /* run-sched-var chunk size; <= 0 means the default */
    unsigned thread_limit;      /* thread-limit-var: threads in the contention group */
    unsigned max_active_levels; /* max-active-levels-var */
    unsigned bind;              /* bind-var for the current level (enum icv_bind) */
    int default_device;         /* default-device-var */
    uintptr_t def_allocator;    /* def-allocator-var (an omp_allocator_handle_t) */
};

/* ICVs with global scope plus the initial values of the per-task ones, as
 * read from the environment once at start-up (see config/env.c). Written only
 * before the first parallel region and by the few omp_set_* routines of
 * global ICVs; read everywhere. */
struct icv_global {
    struct icv initial;                        /* ICVs of the initial task */
    unsigned nthreads_list[ILAN_MAX_NEST_LIST]; /* OMP_NUM_THREADS, one entry per level */
    unsigned nthreads_list_len;                /* entries used (>= 1) */
    unsigned bind_list[ILAN_MAX_NEST_LIST];    /* OMP_PROC_BIND, one entry per level */
    unsigned bind_list_len;                    /* entries used (>= 1) */
    bool bind_set;                             /* OMP_PROC_BIND was given */
    bool cancellation;                         /* cancel-var (OMP_CANCELLATION) */
    int max_task_priority;                     /* max-task-priority-var */
    unsigned long stacksize;                   /* stacksize-var in bytes (0: ilan's default) */
    int wait_policy;                           /* -1 unset, 0 passive, 1 active */
    unsigned spin_count;                       /* spins before sleeping when not oversubscribed */
    bool spin_count_set;                       /* spin count given by GOMP_SPINCOUNT/ILAN_SPIN_COUNT */
    bool display_affinity;                     /* display-affinity-var */
    char affinity_format[256];                 /* affinity-format-var */
    int nteams;                                /* nteams-var (OMP_NUM_TEAMS), 0 unset */
    int teams_thread_limit;                    /* teams-thread-limit-var, 0 unset */
    int default_device;                        /* OMP_DEFAULT_DEVICE */
    int target_offload;                        /* 0 default, 1 disabled, 2 mandatory */
    char *places;                              /* OMP_PLACES as given (NULL unset); parsed by topo */
    unsigned num_procs;                        /* CPUs in the process's affinity mask */
};

/* The global ICVs; defined in config/icv.c, filled by config_read_env
 * (config/env.h) and settled by runtime_init (construct/runtime.h). */
extern struct icv_global icv_global;

#endif
