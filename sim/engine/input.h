/* input.h — the simulator engine's input: the machine, its parameters, the threads and the program, as read from the text format of sim/README.md. */
#ifndef ILAN_SIM_INPUT_H
#define ILAN_SIM_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sched/dlb.h"

/* Speeds and costs of the simulated machine (sim/README.md's table). */
struct sim_params {
    double compute_scale;      /* multiplies every iteration's compute time */
    double node_bandwidth_gbs; /* one NUMA node's memory bandwidth, bytes per ns */
    double local_latency_ns;   /* a read from the core's own node */
    double lines_in_flight;    /* cache-line reads a core keeps in flight */
    double llc_mb;             /* one last-level cache, MiB */
    double llc_bandwidth_gbs;  /* one core's bandwidth from its last-level cache, bytes per ns */
    double task_create_ns;     /* make and queue one task */
    double task_start_ns;      /* take one task from the thread's own queue or range */
    double claim_ns;           /* one claim from a shared loop counter */
    double steal_ns;           /* a successful steal within a node (x dist/10 across) */
    double steal_fail_ns;      /* a look at a victim with nothing to take */
    double wake_ns;            /* waking a sleeping thread (x dist/10) */
    double barrier_ns;         /* one level of a barrier tree */
    double launch_ns;          /* launching one group's range (ILAN) */
    double pop_ns;             /* one pop from the owner's own loop range (adaptive) */
    /* Optional (0 when absent): uneven core speed (sim/README.md, "Uneven
     * cores"). */
    double speed_spread;       /* standard deviation of the log of a core's speed in one interval */
    double speed_interval_us;  /* how long one draw of a core's speed holds, us (0: no variation) */
};

/* Where a construct's data lives (sim/README.md, `data=`). */
enum sim_data {
    DATA_STATIC,     /* first touched by a static split: iteration i on its thread's node */
    DATA_TWISTED,    /* first touched by thread T-1-j for thread j's block */
    DATA_INTERLEAVE, /* every node, equal shares */
    DATA_NODE,       /* one node (data_node) */
    DATA_SINGLE,     /* thread 0's node */
};

/* How compute varies over a construct's iterations (mean kept at ns). */
enum sim_profile {
    PROFILE_UNIFORM, /* every iteration the same */
    PROFILE_LINEAR,  /* from 0 to twice the mean */
    PROFILE_PEAK,    /* the middle fraction peak_width costs peak_height times the rest */
};

/* A loop's schedule (sim/README.md, `schedule=`). */
enum sim_schedule {
    SCHED_STATIC,
    SCHED_DYNAMIC,
    SCHED_GUIDED,
    SCHED_ADAPTIVE,
    SCHED_STATIC_STEAL,
    SCHED_FAC2,
    SCHED_TSS,
    SCHED_AF,
};
#define SIM_SCHEDULES 8

/* The schedules' names, by enum sim_schedule (input.c). */
extern const char *const SCHEDULE_NAMES[SIM_SCHEDULES];

/* The shape of a task tree (`tree` items). */
enum sim_shape {
    SHAPE_FIB,  /* fib(n): a task per call down to `cutoff` */
    SHAPE_SORT, /* a 4-way merge sort of n elements, leaves of `cutoff` elements */
    SHAPE_UTS,  /* a binomial tree: n children at the root, m with probability q below */
};

/* What one program item is. */
enum sim_op_kind {
    OP_TASKLOOP, /* a taskloop created by thread 0 */
    OP_TREE,     /* a task tree started by thread 0, each task waiting for its children */
    OP_LOOP,     /* a worksharing loop of every thread, ending in a barrier */
    OP_BARRIER,  /* a barrier of every thread */
    OP_REPEAT,   /* the items up to its OP_END, `count` times */
    OP_END,      /* closes the innermost repeat */
};

/* One item of the program. */
struct sim_op {
    enum sim_op_kind kind;     /* what it is */
    unsigned construct;        /* taskloop / loop: index of its construct (by name) */
    unsigned long *iters;      /* taskloop / loop: iteration counts, used in turn */
    unsigned niters;           /* entries of iters */
    double ns;                 /* mean compute ns of one iteration */
    double bytes;              /* bytes one iteration reads */
    double atomic_ns;          /* per iteration, an atomic on a line every running piece of
                                  the construct shares: this many ns per sharer (0: none) */
    enum sim_data data;        /* where the bytes live */
    int data_node;             /* DATA_NODE: which node */
    enum sim_profile profile;  /* compute profile */
    double peak_width;         /* PROFILE_PEAK: fraction of iterations in the peak */
    double peak_height;        /* PROFILE_PEAK: their cost relative to the others */
    unsigned long num_tasks;   /* taskloop: num_tasks clause, 0: none */
    unsigned long grainsize;   /* taskloop: grainsize clause, 0: none */
    enum sim_schedule schedule; /* loop: its schedule */
    unsigned long chunk;       /* loop: chunk clause, 0: none */
    bool reuse;                /* the same data at every execution (cache reuse) */
    enum sim_shape shape;      /* tree: its shape */
    unsigned long cutoff;      /* tree: fib's serial depth, sort's leaf size (0: none) */
    unsigned long m;           /* tree: uts's children of an inner node */
    double q;                  /* tree: uts's probability that a node has children */
    unsigned long tree_seed;   /* tree: uts's shape seed */
    unsigned long count;       /* repeat: how many times */
    unsigned end;              /* repeat: index of its OP_END */
};

/* Which runtime a run simulates (`policy`). */
enum sim_policy_kind {
    POL_WS,     /* ILAN_TASKLOOP=ws */
    POL_LLVM,   /* LLVM libomp's random work stealing */
    POL_NUMA,   /* ILAN_TASKLOOP=numa */
    POL_ILAN,   /* ILAN_TASKLOOP=ilan, the default */
    POL_THESIS, /* seed 000's ILAN as published */
};

/* slb's capacity of one XQueue queue (one producer, one consumer), in
 * tasks. Neither seed 002 (it names the size, S_queue, but gives no value)
 * nor its Figure 2.2 gives one: 64 is our choice, small enough that
 * 192 x 192 queues stay a few MiB of task pointers. The README shows a
 * run with 1024 beside it. */
#define SIM_SLB_QUEUE_DEFAULT 64

/* Everything the engine reads. */
struct sim_input {
    uint64_t seed;              /* every random choice derives from it */
    char policy[48];            /* its name: ws, llvm, numa, ilan, thesis, ilan-na-ws, ilan-na-rp,
                                   slb, or an ablation (sim_policy_parse) */
    enum sim_policy_kind kind;  /* the runtime it simulates */
    bool slb;                   /* policy slb: trees dispatched round robin to XQueue's queues,
                                   never stolen (seed 002's SLB); its kind is POL_LLVM, so
                                   taskloops and loops run exactly as under llvm */
    unsigned long slb_queue;    /* slb: tasks one producer-to-consumer queue holds
                                   (SIM_SLB_QUEUE_DEFAULT unless an `slb` line says) */
    unsigned mold_additions;    /* ilan, thesis: enum mold_addition of src/sched/mold.h */
    bool per_size;              /* ilan, thesis: a taskloop identity per iteration count */
    struct dlb_params dlb;      /* how its idle threads get tasks (trees): ILAN_DLB and its
                                   parameters; ws with the runtime's defaults unless said */
    bool timeline;              /* record per-thread intervals */
    unsigned ncores;            /* cores of the machine */
    int *core_node;             /* [ncores] NUMA node of each core */
    int *core_llc;              /* [ncores] last-level cache of each core */
    int *core_package;          /* [ncores] package of each core */
    unsigned nnodes;            /* NUMA nodes */
    int *dist;                  /* [nnodes * nnodes] distances, 10 = local */
    struct sim_params params;   /* speeds and costs */
    unsigned nthreads;          /* threads of the team */
    int *thread_core;           /* [nthreads] core each thread runs on */
    bool unbound;               /* the team is unbound: each thread is a group of its own,
                                   with no place (src/ilan/groups.c) */
    struct sim_op *ops;         /* the program */
    unsigned nops;              /* items of the program */
    char **names;               /* [nconstructs] construct names, in first-appearance order */
    enum sim_op_kind *kinds;    /* [nconstructs] taskloop, loop or tree */
    unsigned nconstructs;       /* distinct construct names */
};

/* Sets in's policy from its name: kind, load balancing, and for ilan and
 * thesis which parts of ILAN apply. `thesis+X...` adds and `ilan-X...`
 * leaves out parts X of size (an identity per iteration count),
 * resample, drift, guards (enum mold_addition), each at most once. False
 * for an unknown name. */
bool sim_policy_parse(const char *name, struct sim_input *in);

/* Reads the engine's input from f. On an error writes one line naming the
 * input line to stderr and returns false. */
bool sim_input_read(FILE *f, struct sim_input *in);

/* Frees what sim_input_read allocated. */
void sim_input_free(struct sim_input *in);

#endif
