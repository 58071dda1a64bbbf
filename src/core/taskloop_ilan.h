/* taskloop_ilan.h — mechanism of the ILAN taskloop scheduler: a team's locality groups and their queues, the per-taskloop history, and the measurement of each execution. */
#ifndef ILAN_CORE_TASKLOOP_ILAN_H
#define ILAN_CORE_TASKLOOP_ILAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "config/env.h"
#include "core/mutex.h"
#include "core/task_desc.h"
#include "core/task_mode.h"
#include "sched/iter.h"
#include "sched/mold.h"
#include "sched/numa_dist.h"

struct team;
struct ilan_thread;

/* What a team keeps for ILAN taskloops: built by the master at region
 * start when the team's size or places changed, read-only during regions. */
struct team_ilan {
    struct team_groups groups;    /* the team's locality groups */
    int key[7];                   /* nthreads, bind.kind, bind.key[5] it was built for */
    int *cores;                   /* [nthreads] the model core of each thread it was built for
                                     (-1: not known; see slot_core in taskloop_ilan.c) */
    struct group_queues *queues;  /* [groups.ngroups] ILAN tasks waiting per group */
    _Atomic uint64_t open_at_ns;  /* when the latest exploratory run with a cut-off opens
                                     to every thread (ns); 0: none pending */
};

/* One taskloop identity: the outlined function, the iteration count and
 * the team size (the groups a configuration names depend on it). Entries
 * live until exit (the report reads them). */
struct taskloop_hist {
    void (*fn)(void *);     /* gcc's outlined task body */
    iter_ull iterations;    /* logical iterations */
    unsigned nthreads;      /* team size */
    mutex_t lock;           /* guards what follows */
    struct mold mold;       /* the moldability policy's state (its samples too) */
    unsigned runs;          /* executions in all (the calibration run too) */
    double work_ns;         /* the loop's work (time x threads) measured by its first
                               run in the ilan mode; 0: not measured */
    enum group_kind kind;   /* what a group was in the latest execution */
    unsigned *group_workers; /* [mold.ngroups] team threads of each group (report) */
    bool symbol_done;       /* symbol, module and module_offset are resolved */
    char symbol[128];       /* fn's name, "" when unknown */
    char module[256];       /* file of the module holding fn */
    unsigned long module_offset; /* fn's address in the module's symbol table */
};

/* One execution of an ILAN taskloop, shared by its tasks: freed by the
 * task that finishes last, after it recorded the measurement. */
struct taskloop_exec {
    struct taskloop_hist *hist;       /* identity, or NULL (history full: not recorded) */
    struct mold_config cfg;           /* configuration this execution runs */
    bool calibration;                 /* measures the loop's work, not a configuration */
    unsigned workers;                 /* threads of the configuration */
    uint64_t start_ns;                /* when the creator began creating its tasks */
    bool finished_by_creator;         /* the creator waits for the tasks (taskgroup) and
                                         records the execution; else the last task does */
    _Atomic unsigned long remaining;  /* tasks not finished (when the last task records) */
    bool *participates;               /* [G] groups of the configuration */
    uint64_t open_ns;                 /* from then on every thread may take its tasks (an
                                         exploratory run past its cut-off); 0: never */
    struct team_ilan *team_ilan;      /* the team's groups (stable while tasks of the team are
                                         pending) and its open_at_ns, reset at the end */
    uint64_t *slot_end;               /* [nthreads, one cache line apart] when each thread
                                         finished its latest task of this execution (ns) */
};



/*
 * Runs the deferred part of an ILAN taskloop on the calling thread's team
 * (mode ILAN or NUMA, the team has ILAN state): picks the configuration,
 * cuts the loop (num_tasks 0 without grainsize: no clause, the ILAN
 * default), and queues every task on its group. make(arg, i) creates task
 * i (of split->ntasks) with its bounds; split is computed here first.
 * creator_waits: the caller waits for every task (the taskloop's
 * taskgroup) and then passes the returned record to taskloop_ilan_end;
 * otherwise (nogroup) NULL is returned and the last task records.
 */
struct taskloop_split;
struct taskloop_exec *taskloop_ilan_run(struct ilan_thread *ts, void (*fn)(void *), iter_ull n,
                                        bool grainsize, bool strict, unsigned long num_tasks,
                                        bool creator_waits, struct taskloop_split *split,
                                        struct task *(*make)(void *arg, iter_ull i), void *arg);

/* After the taskgroup of a taskloop_ilan_run(creator_waits) ended: records
 * the execution in the history and frees exec (NULL: nothing to do). */
void taskloop_ilan_end(struct taskloop_exec *exec);


/* fn's name ("" when unknown), resolved on first use. Caller holds h->lock. */
const char *taskloop_hist_symbol(struct taskloop_hist *h);

/* ---- the history, for the report (instr/report.c) ---- */

/* Number of slots of the history table; entries at slot i may be NULL. */
unsigned taskloop_history_slots(void);

/* The entry at slot i, or NULL. */
struct taskloop_hist *taskloop_history_at(unsigned i);

/* The ilan and numa modes' operations for the tasking engine (task_mode.h):
 * per-team groups and queues, and the ladder steps that read them. */
extern const struct task_mode_ops taskloop_ilan_mode;

#endif
