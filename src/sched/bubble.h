/* bubble.h — where the bubbles of nested parallelism go (seed 003 section 4): each nested team on one topology domain, re-spread when teams are imbalanced, and where each bubble's memory follows. Pure. */
#ifndef ILAN_SCHED_BUBBLE_H
#define ILAN_SCHED_BUBBLE_H

#include <stdbool.h>
#include "sched/mem_plan.h"

/* ILAN_BUBBLES: which bubble scheduler places nested teams. */
enum bubble_sched {
    BUBBLE_OFF,    /* unset: nested teams are placed as OMP_PROC_BIND says (libgomp) */
    BUBBLE_CACHE,  /* each bubble on the least loaded domain, re-spread when one overflows;
                      its team memory stays on its home domain */
    BUBBLE_MEMORY, /* each bubble on the domain holding most of its attached memory; its
                      team memory is spread over its threads' domains, as they are */
};

#define BUBBLE_MAX_DOMAINS 64
#define BUBBLE_MAX 64

/* The level bubbles are placed on: NUMA nodes, else last-level caches. */
struct bubble_machine {
    unsigned ndomains;                   /* domains (>= 1) */
    unsigned ncores[BUBBLE_MAX_DOMAINS]; /* cores of each (>= 1) */
    int node[BUBBLE_MAX_DOMAINS];        /* model NUMA node of each */
};

/* One bubble (a nested team) as the scheduler sees it. */
struct bubble_in {
    unsigned threads; /* its team size (>= 1) */
    int pref;         /* domain holding most of its attached memory; -1: none */
    unsigned key;     /* order among bubbles of the same size (the parent thread number) */
};

/* Where a bubble went. */
struct bubble_out {
    int home;         /* the domain it is placed on */
    unsigned spilled; /* its threads placed on other domains (re-spread: home was full) */
    unsigned first;   /* its threads' entries in the thread arrays: [first, first + threads) */
};

/*
 * Places nb bubbles (nb <= BUBBLE_MAX) on machine m under scheduler s.
 * Bubbles are taken largest first (then by key). A bubble's home is, for
 * BUBBLE_MEMORY, its pref when it has one, else the domain with the most
 * free cores (the lowest on a tie). Its threads fill the free cores of its
 * home, then those of the nearest domains with free cores (by domain
 * number distance, the lower on a tie): a bubble is split only when its
 * home is full, and as little as it must. When no core is free anywhere a
 * thread shares its home's cores. Writes out[0..nb-1] and, for thread t of
 * bubble b (entry out[b].first + t), its domain thread_domain[] and its
 * core index in that domain thread_core[] (taken in order, wrapping when
 * oversubscribed); both arrays have room for the sum of the threads.
 * False on bad input (nb > BUBBLE_MAX, no domain, a bubble of 0 threads).
 */
bool bubble_place(enum bubble_sched s, const struct bubble_machine *m, unsigned nb,
                  const struct bubble_in *in, struct bubble_out *out, int *thread_domain,
                  unsigned *thread_core);

/*
 * The domains bubble b's team memory goes to, as a bloc distribution:
 * BUBBLE_CACHE, its home's node alone; BUBBLE_MEMORY, the nodes of its
 * threads' domains weighted by its threads on each (so that memory moves
 * with the threads that spilled). From bubble_place's output.
 */
void bubble_mem_domains(enum bubble_sched s, const struct bubble_machine *m,
                        const struct bubble_out *b, unsigned threads, const int *thread_domain,
                        struct mem_domains *out);

#endif
