/* loop_hist.h — what the runtime remembers per worksharing-loop identity: schedule(auto)'s selection state and the counts ILAN_REPORT's "loops" section shows. */
#ifndef ILAN_CORE_LOOP_HIST_H
#define ILAN_CORE_LOOP_HIST_H

#include <stdbool.h>
#include <stdio.h>
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
    unsigned long long chunks;    /* chunks taken */
    unsigned long long steals_local;  /* adaptive: steals within a thief's locality group */
    unsigned long long steals_remote; /* adaptive: steals from other groups */
    double last_ns;               /* time of the latest timed execution (set-up to last thread done) */
    unsigned long kind_calls[LOOP_NCAND]; /* schedule(auto): executions of each candidate */
    struct loop_auto sel;         /* schedule(auto): the selection (sched/loop_auto.h) */
    struct loop_rec *next;        /* next record in its hash bucket */
};

/* Records are kept only while ILAN_REPORT asks for them or a loop uses
 * schedule(auto); set once at start-up. */
extern bool loop_hist_on;

/* The record of (site, n, nthreads), made when new; NULL when the table is
 * full (ILAN_HISTORY_MAX identities): such a loop runs unrecorded. */
struct loop_rec *loop_hist_get(const void *site, iter_ull n, unsigned nthreads);

/* The "loops" array of ILAN_REPORT (every record) and "loops_dropped",
 * the last members of its object (no comma after); and the summary lines
 * (ILAN_REPORT=stderr). */
void loop_hist_json(FILE *f);
void loop_hist_summary(FILE *f);

/* Identities not recorded because the table was full. */
unsigned long loop_hist_dropped(void);

#endif
