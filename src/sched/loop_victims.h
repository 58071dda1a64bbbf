/* loop_victims.h — the order in which an adaptive loop's thief visits the other threads' ranges: its own locality group first, then the other groups nearest first (pure). */
#ifndef ILAN_SCHED_LOOP_VICTIMS_H
#define ILAN_SCHED_LOOP_VICTIMS_H

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
};

/*
 * Fills *out for thread `self` of a team of nthreads whose threads are in
 * groups slot_group[0..nthreads-1] (values < ngroups; NULL: every thread
 * in one group, no locality), dist[a * ngroups + b] the distance between
 * groups (NULL: all equal). out->order must hold nthreads - 1 entries and
 * out->seg_end ngroups (or 1 with slot_group NULL).
 */
void loop_victims_build(unsigned self, unsigned nthreads, const unsigned *slot_group,
                        unsigned ngroups, const int *dist, struct loop_victims *out);

/* The i-th victim (0 <= i < v->n) of a pass whose segments start at the
 * offsets drawn from `rnd` (one 64-bit random value per pass). Same-group
 * victims come first. */
unsigned loop_victim_at(const struct loop_victims *v, unsigned i, uint64_t rnd);

/* Which segment entry i of the order belongs to (0: the thief's own group). */
unsigned loop_victim_segment(const struct loop_victims *v, unsigned i);

#endif
