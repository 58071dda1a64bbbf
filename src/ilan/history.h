/* history.h — ILAN's memory of each taskloop identity: the moldability state, its runs and the calibrated work. */
#ifndef ILAN_ILAN_HISTORY_H
#define ILAN_ILAN_HISTORY_H

#include <stdbool.h>
#include "core/mutex.h"
#include "sched/iter.h"
#include "sched/mold.h"
#include "sched/numa_dist.h"

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

/* The entry of an identity, made on first use for a team of `ngroups`
 * groups; NULL when the table is three quarters full (the loop then runs
 * the distribution over all groups, unrecorded). Any thread. */
struct taskloop_hist *ilan_history_get(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                       unsigned ngroups);

/* fn's name ("" when unknown), resolved on first use. Caller holds h->lock. */
const char *ilan_history_symbol(struct taskloop_hist *h);

/* Number of slots of the table (the report walks it); the entry at slot i
 * may be NULL. */
unsigned ilan_history_slots(void);

/* The entry at slot i, or NULL. */
struct taskloop_hist *ilan_history_at(unsigned i);

#endif
