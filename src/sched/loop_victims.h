/* loop_victims.h — the order in which an adaptive loop's thief visits the other threads' ranges: its own locality group first, then the other groups nearest first (pure). */
#ifndef ILAN_SCHED_LOOP_VICTIMS_H
#define ILAN_SCHED_LOOP_VICTIMS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A thief's victims, as segments of one array: segment 0 holds the other
 * threads of its own group, each later segment one other group, nearest
 * first (by the group distance matrix; ties by group number). Within a
 * segment the thief starts each pass at a random member (loop_victim_at),
 * so thieves of one group do not all fall on the same victim.
 */
struct loop_victims {
    unsigned *order;     /* [nthreads - 1] every other thread once, grouped as above */
    unsigned *seg_end;   /* [nseg] end index in order of each segment */
    unsigned nseg;       /* segments (0 when the thief is alone) */
    unsigned n;          /* entries in order (nthreads - 1) */
    unsigned *group_of;  /* [nthreads] each thread's group (all 0 without groups) */
};

/*
 * Fills *out for thread `self` of a team of nthreads whose threads are in
 * groups slot_group[0..nthreads-1] (values < ngroups; NULL: every thread
 * in one group, no locality), dist[a * ngroups + b] the distance between
 * groups (NULL: all equal). out->order must hold nthreads - 1 entries,
 * out->seg_end ngroups (or 1 with slot_group NULL), out->group_of nthreads.
 * `flat`: one segment of every other thread, whatever the groups
 * (static_steal); group_of still tells the groups apart.
 */
void loop_victims_build(unsigned self, unsigned nthreads, const unsigned *slot_group,
                        unsigned ngroups, const int *dist, bool flat, struct loop_victims *out);

/* The i-th victim (0 <= i < v->n) of a pass whose segments start at the
 * offsets drawn from `rnd` (one 64-bit random value per pass). Same-group
 * victims come first. */
unsigned loop_victim_at(const struct loop_victims *v, unsigned i, uint64_t rnd);

/* Which segment entry i of the order belongs to (0: the thief's own group). */
unsigned loop_victim_segment(const struct loop_victims *v, unsigned i);

#endif
