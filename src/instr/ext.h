/* ext.h — what instrumentation keeps per thread besides its counters (OS counters, open regions, per-region sums, trace buffer): shared by the instr modules only. */
#ifndef ILAN_INSTR_EXT_H
#define ILAN_INSTR_EXT_H

#include <stdatomic.h>
#include <stdint.h>
#include "instr/thread.h"
#include "os/linux/perf.h"
#include "os/linux/rusage.h"

/* Regions and taskloops remembered per thread (distinct functions). */
#define INSTR_REGION_SLOTS 64
/* Parallel regions (and taskloops) open at once on a thread that are measured. */
#define INSTR_REGION_DEPTH 8

/* What a record is about. */
enum instr_region_kind {
    INSTR_PARALLEL = 1, /* a parallel region, by its outlined function */
    INSTR_TASKLOOP = 2, /* a taskloop, by its task function */
};

/* One thread's sums for one region or taskloop identity. Written by its
 * thread (relaxed load and store), read by the report at exit. */
struct instr_region_acc {
    _Atomic(void *) fn;                          /* the identity; NULL: slot free */
    _Atomic unsigned kind;                       /* enum instr_region_kind */
    _Atomic uint64_t calls;                      /* times this thread took part */
    _Atomic uint64_t ticks;                      /* os_ticks spent inside, summed */
    _Atomic uint64_t tasks;                      /* taskloops: tasks they were cut into */
    _Atomic uint64_t count[INSTR_NCOUNTERS];     /* counter increments inside, summed */
    _Atomic uint64_t os[OS_PERF_NCOUNTERS];      /* OS counter increments inside, summed */
    _Atomic uint64_t offcpu_ns;                  /* wall time inside minus task clock, summed */
    _Atomic uint64_t sleep_ticks;                /* of which asleep on a futex (os_ticks) */
    _Atomic uint64_t voluntary;                  /* context switches it made inside, summed */
    _Atomic uint64_t involuntary;                /* times it was preempted inside, summed */
};

/* A region or taskloop the thread is inside: what it looked like at entry. */
struct instr_open {
    void *fn;                             /* its identity */
    unsigned kind;                        /* enum instr_region_kind */
    struct instr_mark mark;               /* the state change at entry */
    uint64_t count0[INSTR_NCOUNTERS];     /* the thread's counters then */
    uint64_t os0[OS_PERF_NCOUNTERS];      /* its OS counters then */
    uint64_t wall0_ns;                    /* its monotonic clock then */
    uint64_t sleep0;                      /* its ticks in state sleep then */
    struct os_switches sw0;               /* its context switches by cause then */
    bool os_ok;                           /* os0 and sw0 were read */
    bool resumed;                         /* a worker back to help with the region's tasks
                                             (team_help): the same call, not another */
};

struct trace_buf;

/* The extension of a thread's block (struct instr_thread ext). */
struct instr_ext {
    struct os_perf perf;                 /* its perf counters (perf_open true) */
    bool perf_open;                      /* opened for this thread */
    unsigned depth;                      /* regions open (may exceed INSTR_REGION_DEPTH: then
                                            the innermost are not measured) */
    struct instr_open open[INSTR_REGION_DEPTH]; /* the regions open, outermost first */
    struct instr_region_acc acc[INSTR_REGION_SLOTS]; /* sums per identity (hash on fn) */
    _Atomic uint64_t offcpu_ns;          /* its time off the CPU inside regions, summed */
    _Atomic uint64_t sleep_ticks;        /* of which asleep on a futex (os_ticks): the rest is
                                            descheduled, time the OS took (instr_descheduled_ns) */
    _Atomic uint64_t voluntary;          /* context switches it made inside regions, summed */
    _Atomic uint64_t involuntary;        /* times it was preempted inside regions, summed */
    uint64_t tl_config;                  /* the configuration of the taskloop being created
                                            (instr_taskloop_config), for its trace slice */
    struct trace_buf *trace;             /* its trace ring buffer (NULL: not tracing) */
};

/* Descheduled time: off the CPU without sleeping on purpose, in ns. */
double instr_descheduled_ns(uint64_t offcpu_ns, uint64_t sleep_ticks);

/* The calling thread's extension, made on first use. */
struct instr_ext *instr_ext_of(struct instr_thread *me);

/* Relaxed single-writer add to a shared-read word. */
static inline void instr_acc_add(_Atomic uint64_t *p, uint64_t v)
{
    atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v,
                          memory_order_relaxed);
}

#endif
