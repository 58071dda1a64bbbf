/* steal_pace.h — how many pauses an idle thread lets pass between looks at other threads' deques, learnt from what its last steals brought: a pure policy (no threads, clocks or atomics). */
#ifndef ILAN_SCHED_STEAL_PACE_H
#define ILAN_SCHED_STEAL_PACE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Why pace: every look at a victim's deque pulls the victim's lines into the
 * thief's cache, and the victim then pays a cache miss (and, at its next
 * fence, the wait for it) on its next push or pop. When the tasks a thief
 * wins are tiny, those misses cost the victim more than the thief gains:
 * on a UTS-like tree of 20.6 million nodes (a task per node, 7 of 8 nodes
 * leaves) two threads polling every round took 0.5-1.3 s against 0.33 s on
 * one thread. So a thief whose steals bring little looks less often, and
 * one whose steal brought real work goes back to looking at once.
 */
struct steal_pace {
    unsigned level; /* looks are 2^level pauses apart; 0..STEAL_PACE_MAX_LEVEL */
};

/* The longest gap between looks: 2^8 pauses, about 6 us here. Longer gaps
 * were faster still on the tree (2^10: 0.36-0.40 s against 0.37-0.38 s)
 * but let one thread run up to 97 % of an unbalanced tree in some runs. */
#define STEAL_PACE_MAX_LEVEL 8u

/* Up to this level a thread that finds nothing counts as hungry (creators
 * then defer more tasks for it); above it, it looks too seldom for that. */
#define STEAL_PACE_HUNGRY_LEVEL 3u

/* Pauses an idle thread lets pass between two looks at other threads'
 * deques (its rounds in between look only where tasks are placed for it). */
static inline unsigned steal_pace_gap(const struct steal_pace *p)
{
    return 1u << p->level;
}

/* Whether a thread at this pace should count as hungry when idle. */
static inline bool steal_pace_hungry(const struct steal_pace *p)
{
    return p->level <= STEAL_PACE_HUNGRY_LEVEL;
}

/* Records a task stolen from another thread's deque that ran for ran_ns,
 * including the tasks it ran inline: one that ran at least worth_ns was
 * worth its steal and resets the pace to looking every round; a shorter
 * one doubles the gap, up to 2^STEAL_PACE_MAX_LEVEL. */
void steal_pace_after_steal(struct steal_pace *p, uint64_t ran_ns, uint64_t worth_ns);

#endif
