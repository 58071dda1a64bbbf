/* loop_hist.h — what the runtime remembers per worksharing-loop identity: schedule(auto)'s selection state and the counts ILAN_REPORT's "loops" section shows. */
#ifndef ILAN_CORE_LOOP_HIST_H
#define ILAN_CORE_LOOP_HIST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include "base/lru.h"
#include "core/mutex.h"
#include "sched/iter.h"
#include "sched/loop_auto.h"

/* One loop identity: the code that starts it (the return address of its
 * GOMP_loop_*_start call, or the outlined function of a combined parallel
 * loop), its iteration count and its team size, as ILAN's taskloop history
 * keys taskloops. */
struct loop_rec {
    const void *site;             /* identity: where the loop starts */
    iter_ull n;                   /* identity: logical iterations */
    unsigned nthreads;            /* identity: team size */
    mutex_t lock;                 /* guards every field below */
    int kind;                     /* schedule kind of the latest execution (enum icv_sched) */
    bool is_auto;                 /* schedule(auto) chose its schedule */
    unsigned long calls;          /* executions */
    unsigned long long iterations; /* iterations run, over every execution */
    /* Added by every thread as it finishes an execution, without the lock. */
    _Atomic unsigned long long chunks;        /* chunks taken */
    _Atomic unsigned long long steals_local;  /* adaptive: steals within a thief's locality group */
    _Atomic unsigned long long steals_remote; /* adaptive: steals from other groups */
    double last_ns;               /* time of the latest timed execution (set-up to last thread done) */
    unsigned long kind_calls[LOOP_NCAND]; /* schedule(auto): executions of each candidate */
    iter_ull *split;              /* adaptive: [nthreads + 1] where the next execution's ranges
                                     start (sched/loop_split.h), or NULL */
    bool split_learnt;            /* adaptive: split holds a learnt split (else static) */
    unsigned long split_calls;    /* adaptive: executions that started from a learnt split */
    struct loop_auto sel;         /* schedule(auto): the selection (sched/loop_auto.h) */
    /* Guarded by the table's lock (loop_hist.c), not by `lock`. */
    struct loop_rec *next;        /* next record in its hash bucket */
    struct lru_link lru;          /* its place in the table's LRU order (base/lru.h) */
    unsigned users;               /* executions holding it (loop_hist_get minus
                                     loop_hist_release): never forgotten while non-zero */
};

/* Records of every loop are kept while ILAN_REPORT asks for them; without
 * it, only those of adaptive loops (their learnt split) and of
 * schedule(auto) loops are. Set once at start-up. */
extern bool loop_hist_on;

/* The record of (site, n, nthreads), made when new, marked most recently
 * used and held by the caller until loop_hist_release. When the table holds
 * ILAN_HISTORY_MAX records, the least recently used one that no execution
 * holds is forgotten first. NULL when out of memory or when every record is
 * held: such a loop runs unrecorded. Any thread. */
struct loop_rec *loop_hist_get(const void *site, iter_ull n, unsigned nthreads);

/* Ends the caller's hold on r (from loop_hist_get); r may be forgotten from
 * then on, so the caller touches it no more. */
void loop_hist_release(struct loop_rec *r);

/* The "loops" array of ILAN_REPORT (every record), "loops_dropped" and
 * "loops_forgotten", the last members of its object (no comma after); and the summary lines
 * (ILAN_REPORT=stderr). */
void loop_hist_json(FILE *f);
void loop_hist_summary(FILE *f);

/* Identities not recorded because every record was held, and records
 * forgotten to make room (least recently used first). */
unsigned long loop_hist_dropped(void);
unsigned long loop_hist_forgotten(void);

#endif
