/* range.h — ILAN's range launch: a taskloop's tasks handed to each participating group as one range of task numbers, which the group's runner tasks split among themselves instead of one descriptor per task. */
#ifndef ILAN_ILAN_RANGE_H
#define ILAN_ILAN_RANGE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/tunables.h"
#include "core/task_mode.h"
#include "sched/iter.h"
#include "sched/taskloop_split.h"

/*
 * The tasks of one group: numbers [lo, hi) not yet claimed, in one word
 * so that a claim is one CAS. The group's own runners claim from the
 * front (the strict part comes first, as in the per-task layout), runners
 * of other participating groups only from the back and never below
 * strict_end: the same tasks either side may take as from the strict and
 * shared queues of the per-task launch.
 */
struct ilan_range {
    alignas(ILAN_CACHE_LINE) _Atomic uint64_t bounds; /* lo in the low 32 bits, hi in the high */
    uint32_t strict_end;                              /* other groups take only tasks >= this */
    uint32_t workers;                                 /* its runners: how much one claims of its
                                                         front (numa_dist_own_claim) and a
                                                         thief of its back
                                                         (numa_dist_steal_share) */
    int node;                                         /* the NUMA node of its group when runners
                                                         follow their CPU (see exec.c), else -1 */
    unsigned group;                                   /* the team's locality group it is for
                                                         (what the counters call own) */
};

/* One range launch of a taskloop: read-only after ilan_range_new except
 * the ranges' bounds and the hints. */
struct ilan_launch {
    struct taskloop_body body;   /* fn, flags, start, step; data points to `snapshot` */
    struct taskloop_split split; /* how the iterations are cut into tasks */
    unsigned nranges;            /* participating groups */
    bool shareable;              /* some range has tasks other groups may take */
    struct ilan_range *ranges;   /* [nranges], in the configuration's group order */
    size_t block_size;           /* bytes of a task's argument block (>= the two bounds) */
    size_t block_align;          /* its alignment */
    struct ilan_data *data;      /* the registered array's map: each task run is counted
                                    there (ilan/data.h); NULL: none */
    bool one_by_one;             /* runners claim a task at a time: a run with a cut-off,
                                    judged after each claim and opened to more runners
                                    (ilan/exec.c), which must find the tasks unclaimed */
    /* Hints that spare idle runners a look at every range (thousands in a
     * team with a group per thread); ranges only shrink, so both only
     * ever become more true. On a line of their own: runners write them. */
    alignas(ILAN_CACHE_LINE) _Atomic bool shareable_gone; /* no range has a task other groups
                                                             may take: a runner looked at all */
    _Atomic unsigned empty_below;                         /* ranges below this are empty */
};

/* Whether a taskloop can be launched as ranges: no copy constructor (each
 * task's block is then a byte copy of the encounter's, taken once here
 * instead of once per task; a cpyfn must run per task at the encounter,
 * so those taskloops keep one descriptor per task) and task numbers that
 * fit the 32-bit halves of a range. */
bool ilan_range_fits(const struct taskloop_body *body, iter_ull ntasks);

/* Bytes a launch of k groups for body needs, at an address aligned to
 * ILAN_CACHE_LINE; 0 when its argument block needs a larger alignment
 * (ilan_range_new must then allocate it). */
size_t ilan_range_size(const struct taskloop_body *body, unsigned k);

/* A launch for k groups: group j (0-based in the configuration), whose
 * range workers[j] runners work, gets tasks [first[j], first[j + 1]) of which
 * [first[j], strict_end[j]) only its own threads may run; `data` its
 * registered array's map (or NULL); one_by_one: claims of one task (see
 * struct ilan_launch). Copies the argument block now (the
 * encounter). Built in `mem` (ilan_range_size(body, k) bytes, cache-line
 * aligned, where the previous launch of a recycled execution record was:
 * a field that holds its value already is not written again) when not
 * NULL, else in a new allocation the caller frees with free(). */
struct ilan_launch *ilan_range_new(void *mem, const struct taskloop_body *body,
                                   const struct taskloop_split *split, unsigned k,
                                   const unsigned *workers, const iter_ull *first,
                                   const iter_ull *strict_end, struct ilan_data *data,
                                   bool one_by_one);

/* Runs tasks of launch l as a runner of range j, as included tasks of the
 * calling thread's current task, until no task it may take is left: range
 * `first`'s from the front (j, or the range of the node it runs on), then
 * its own range's from the front, then the other ranges' shareable ones
 * from the back. Returns how many it ran; *foreign: some were another
 * range's. A range's own runners empty it: the launch gives every
 * non-empty range at least one. `ran` (NULL: none) is told after each
 * claim how many tasks that claim ran, with `ctx`. `home`: the calling
 * thread is of range j's group; a runner run by another group's thread
 * (an opened run, a placeless group's runner, the stall escape) counts
 * its tasks as another group's. */
unsigned ilan_range_work(struct ilan_launch *l, unsigned first, unsigned j, bool home,
                         bool *foreign, void (*ran)(void *ctx, unsigned count), void *ctx);

/* Whether every task of l has been claimed (by runners that may still be
 * running them). */
bool ilan_range_empty(struct ilan_launch *l);

#endif
