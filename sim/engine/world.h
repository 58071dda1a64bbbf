/* world.h — the simulated machine at run time: threads and their clocks, pieces of work sharing memory bandwidth (the fluid model), and the phase loop that advances them. */
#ifndef ILAN_SIM_WORLD_H
#define ILAN_SIM_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "sched/machine.h"
#include "sched/numa_dist.h"

/* A piece of work: a task or a chunk of loop iterations [lo, hi); or a
 * node of a task tree, whose data is [lo, hi) of the tree's n elements. */
struct piece {
    const struct sim_op *op; /* the construct it belongs to */
    unsigned long n;         /* the construct's iteration (element) count in this execution */
    unsigned long lo, hi;    /* its iterations */
    double compute_ns;       /* a tree node's compute before compute_scale; < 0: op's profile */
    double bytes;            /* a tree node's bytes; < 0: op->bytes per iteration */
    unsigned long node;      /* a tree node's index */
};

/* What a thread is doing within a phase. */
enum thread_state {
    TH_READY,    /* decides what to do next at `at` */
    TH_STARTING, /* starts `piece` at `at` (overheads paid) */
    TH_RUNNING,  /* runs `piece`: its end follows the memory model */
    TH_ASLEEP,   /* out of work: sleeps until the phase wakes it */
};

/* One simulated thread. */
struct sim_thread {
    unsigned core;             /* its core */
    unsigned node;             /* its core's node */
    unsigned llc;              /* its core's last-level cache */
    enum thread_state state;   /* within the current phase */
    double at;                 /* TH_READY / TH_STARTING: when; TH_ASLEEP: since when */
    struct piece piece;        /* TH_STARTING / TH_RUNNING: the piece */
    double compute_ns;         /* TH_RUNNING: the piece's compute time */
    double cache_bytes;        /* TH_RUNNING: bytes read from its cache */
    double *mem_bytes;         /* TH_RUNNING: [nnodes] bytes read from each node */
    double progress;           /* TH_RUNNING: fraction done at `since` */
    double since;              /* TH_RUNNING: when progress was last brought up to date */
    double duration;           /* TH_RUNNING: the whole piece's time at the current rates */
    double started;            /* TH_RUNNING: when it began */
    double last_end;           /* end of its last piece in this phase (0: none) */
    uint64_t rng;              /* its random stream */
    unsigned last_victim;      /* for steal_next_victim */
    /* Totals over the run. */
    double busy_ns;            /* time running pieces */
    unsigned long pieces;      /* pieces run */
    unsigned long steals;      /* successful steals */
    unsigned long steals_remote; /* ...from another node */
    unsigned long queued_in;   /* slb: tasks dispatched into its queues (master and auxiliary) */
    unsigned long run_at_once; /* slb: tasks it made and ran itself because the chosen queue
                                  was full */
};

struct world;

/* A phase's rules: what a thread does when it is ready, and what follows
 * the end of a piece. */
struct phase_rules {
    /* Thread t decides at w->threads[t].at: either sets it TH_STARTING with
     * a piece (at = when it starts, overheads paid), or TH_READY later (a
     * failed look), or TH_ASLEEP (nothing to do until woken). */
    void (*decide)(struct world *w, unsigned t, void *ctx);
    /* Thread t finished its piece at time `now` (it is TH_READY at now
     * afterwards unless the callback says otherwise). NULL: nothing. */
    void (*finished)(struct world *w, unsigned t, double now, void *ctx);
    void *ctx; /* the rules' state */
};

/* A recorded interval of the timeline. */
struct span {
    unsigned thread;    /* who */
    unsigned construct; /* which construct */
    double start, end;  /* ns */
};

/* The per-construct state of cache reuse (sim/README.md). */
struct reuse_map {
    unsigned long n;   /* iteration count it describes (0: none yet) */
    int *llc;          /* [REUSE_BLOCKS] the cache that last ran each block, -1 none */
    unsigned used;     /* distinct caches the last execution used */
};
#define REUSE_BLOCKS 1024

/* Iteration counts of one construct whose splits are remembered: past
 * them the oldest is forgotten (the runtime's history is larger). */
#define SPLIT_SIZES 8

/* The learnt starting splits of an adaptive loop construct, one per
 * iteration count, as the runtime keeps one per loop identity (site, n,
 * team size; construct/loop_pick.c). */
struct split_memo {
    unsigned long n[SPLIT_SIZES];  /* iteration counts remembered (0: unused) */
    iter_ull *split[SPLIT_SIZES];  /* [nthreads + 1] each one's split */
    bool learnt[SPLIT_SIZES];      /* split holds a learnt split (else static) */
    unsigned skip[SPLIT_SIZES];    /* executions left to run static, unlearnt: the last
                                      one was short (LOOP_SPLIT_MIN_NS) */
};

/* The machine, its threads and the clock. */
struct world {
    const struct sim_input *in;   /* the input */
    const struct sim_params *p;   /* its parameters */
    struct topo_model model;      /* the machine as the runtime's policies see it */
    struct team_groups groups;    /* ILAN's groups of the team */
    unsigned *group_node;         /* [groups.ngroups] the node of each group's first thread */
    struct sim_thread *threads;   /* [nthreads] */
    unsigned nthreads;            /* team size */
    unsigned nnodes;              /* NUMA nodes */
    double *readers;              /* [nnodes] weight of running pieces reading each node */
    unsigned *sharers;            /* [nconstructs * nnodes] running pieces of each construct
                                     on each node (its atomics' shared line) */
    struct reuse_map *reuse;      /* [nconstructs] */
    struct split_memo *splits;    /* [nconstructs] adaptive loops' learnt splits */
    bool *llc_used;               /* [ncores] scratch: caches used by the current execution */
    struct span *spans;           /* timeline (in->timeline) */
    unsigned long nspans, spans_cap; /* used, allocated */
    bool spans_truncated;         /* more intervals than kept */
    unsigned current_construct;   /* construct of the pieces being started */
    /* The phase's event queue: a binary min-heap of the threads by the time
     * of their next event (event_time), positions kept for updates. */
    unsigned *heap;               /* [nthreads] thread ids in heap order */
    unsigned *heap_pos;           /* [nthreads] each thread's index in heap */
    double *heap_key;             /* [nthreads] each thread's key when last placed */
    bool in_phase;                /* the heap is in use (world_run_phase) */
};

/* Builds the world of `in`; false (message on stderr) on a model the
 * runtime's policies reject. */
bool world_init(struct world *w, const struct sim_input *in);
void world_free(struct world *w);

/* The distances between the team's groups (each at group_node) into
 * out[G * G], for loop_victims_build. */
void world_group_distances(const struct world *w, int *out);

/* Distance factor dist(a, b) / 10 between two nodes. */
double world_far(const struct world *w, unsigned node_a, unsigned node_b);

/* Compute time (ns) of iterations [lo, hi) of an execution of op with n iterations. */
double world_compute_ns(const struct world *w, const struct sim_op *op, unsigned long n,
                        unsigned long lo, unsigned long hi);

/* Runs a phase from the threads' current states until none is ready,
 * starting or running; returns the end of its last piece (or `from` when
 * none ran). */
double world_run_phase(struct world *w, const struct phase_rules *rules, double from);

/* Wakes sleeping thread t at time `at` (no effect on a thread that is
 * not asleep). */
void world_wake(struct world *w, unsigned t, double at);

/* Makes thread t ready at `at` if it is asleep or ready only later (a
 * thread that waits with a timeout, woken early by what it waited for). */
void world_wake_by(struct world *w, unsigned t, double at);

/* Marks the caches the current execution of construct c used, for its
 * next one (call after the execution's phase). */
void world_reuse_done(struct world *w, unsigned construct);

#endif
