/* history.h — ILAN's memory of each taskloop identity: the moldability state, its runs and the calibrated work. */
#ifndef ILAN_ILAN_HISTORY_H
#define ILAN_ILAN_HISTORY_H

#include <stdbool.h>
#include "base/lru.h"
#include "core/mutex.h"
#include "sched/iter.h"
#include "sched/mold.h"
#include "sched/numa_dist.h"

/* One taskloop identity: the outlined function, the iteration count and
 * the team size (the groups a configuration names depend on it). An entry
 * lives until it is the least recently used of more than ILAN_HISTORY_MAX
 * and no execution uses it (history.c), or until exit. */
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
    unsigned data_runs;     /* executions with a registered array (ilan_taskloop_data),
                               pinned to the groups on its nodes */
    unsigned long data_tasks;   /* their tasks */
    unsigned long data_on_node; /* of which ran on the node holding their share of it */
    const void *data_array; /* the array the latest of them registered */
    size_t data_size;       /* its bytes */
    bool symbol_done;       /* symbol, module and module_offset are resolved */
    char symbol[128];       /* fn's name, "" when unknown */
    char module[256];       /* file of the module holding fn */
    unsigned long module_offset; /* fn's address in the module's symbol table */
    /* Guarded by the history's own lock (history.c), not by `lock`. */
    struct taskloop_hist *hash_next; /* next entry of its hash bucket */
    struct lru_link lru;             /* its place in the history's LRU order (base/lru.h) */
    unsigned users;                  /* executions holding it (ilan_history_get minus release):
                                        never evicted while non-zero */
};

/* The entry of an identity, made on first use for a team of `ngroups`
 * groups, and marked most recently used; the caller holds it until
 * ilan_history_release. When config.history_max entries exist, the least
 * recently used one that no execution holds is forgotten first. NULL when
 * out of memory or when every entry is held (the loop then runs the
 * distribution over all groups, unrecorded). Any thread. */
struct taskloop_hist *ilan_history_get(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                       unsigned ngroups);

/* Ends the caller's hold on h (from ilan_history_get); h may be forgotten
 * from then on, so the caller touches it no more. */
void ilan_history_release(struct taskloop_hist *h);

/* fn's name ("" when unknown), resolved on first use. Caller holds h->lock. */
const char *ilan_history_symbol(struct taskloop_hist *h);

/* Calls visit(h, arg) for every entry, most recently used first, with the
 * history locked (no entry is made or forgotten meanwhile); visit may
 * take h->lock. */
void ilan_history_each(void (*visit)(struct taskloop_hist *h, void *arg), void *arg);

/* Entries held now, and identities forgotten so far (the report). */
unsigned ilan_history_count(void);
unsigned long ilan_history_forgotten(void);

#endif
