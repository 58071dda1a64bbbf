/* loop_victims.h — the order in which a thief (an adaptive loop's, or a task thief's in the ILAN modes) visits the other threads: its own locality group first, then the other groups nearest first (pure). */
#ifndef ILAN_SCHED_LOOP_VICTIMS_H
#define ILAN_SCHED_LOOP_VICTIMS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A thief's victims, as segments of one array: segment 0 holds the other
 * threads of its own group, each later segment one other group or all
 * groups at one distance (enum victim_shape), nearest first (by the group
 * distance matrix). Within a segment the thief starts each pass at a
 * random member (loop_victim_at), so thieves of one group do not all fall
 * on the same victim.
 */
struct loop_victims {
    unsigned *order;     /* [nthreads - 1] every other thread once, grouped as above */
    unsigned *seg_end;   /* [nseg] end index in order of each segment */
    unsigned nseg;       /* segments (0 when the thief is alone) */
    unsigned n;          /* entries in order (nthreads - 1) */
    unsigned *group_of;  /* [nthreads] each thread's group (all 0 without groups) */
};

/* How the victims past a thief's own group are laid out. */
enum victim_shape {
    VICTIMS_FLAT,        /* one segment of every other thread, groups ignored (static_steal) */
    VICTIMS_BY_DISTANCE, /* a segment per distance: groups equally far share one (loops) */
    VICTIMS_BY_GROUP,    /* a segment per group, nearest first, ties by number (tasks) */
};

/*
 * Fills *out for thread `self` of a team of nthreads whose threads are in
 * groups slot_group[0..nthreads-1] (values < ngroups; NULL: every thread
 * in one group, no locality), dist[a * ngroups + b] the distance between
 * groups (NULL: all equal). out->order must hold nthreads - 1 entries,
 * out->seg_end ngroups (or 1 with slot_group NULL), out->group_of nthreads
 * (which tells the groups apart whatever the shape).
 *
 * Why loops and tasks differ: in a segment per group, ties broken by
 * number send every thief of the machine to the lowest-numbered group
 * first. An adaptive loop's work starts spread over every range, so that
 * only delays the help the busiest groups get (simulated, 48-192
 * threads: loops 1-11 % slower than with one segment per distance). A task
 * tree's work spreads from the creator's group, which low numbers happen
 * to favour: merged, UTS-like trees took up to 13 % longer (fib-like ones
 * 4-14 % less), so tasks keep a segment per group until that is settled.
 */
void loop_victims_build(unsigned self, unsigned nthreads, const unsigned *slot_group,
                        unsigned ngroups, const int *dist, enum victim_shape shape,
                        struct loop_victims *out);

/* The i-th victim (0 <= i < v->n) of a pass whose segments start at the
 * offsets drawn from `rnd` (one 64-bit random value per pass). Same-group
 * victims come first. */
unsigned loop_victim_at(const struct loop_victims *v, unsigned i, uint64_t rnd);

/* Which segment entry i of the order belongs to (0: the thief's own group). */
unsigned loop_victim_segment(const struct loop_victims *v, unsigned i);

#endif
