/* barrier_tree.h — the shape of a team's tree barrier: who is whose parent and children, given the team size, the fan-in and the threads' locality groups (pure arithmetic). */
#ifndef ILAN_SCHED_BARRIER_TREE_H
#define ILAN_SCHED_BARRIER_TREE_H

#include <stdbool.h>

/* Locality levels the tree groups threads by, innermost first: the core,
 * the last-level cache and the NUMA node each thread runs on. */
enum btree_level { BTREE_CORE, BTREE_LLC, BTREE_NODE, BTREE_LEVELS };

/* parent[] of the root (thread 0, the team's master). */
#define BTREE_NO_PARENT 0xffffffffu

/* Fan-in limits (ILAN_BARRIER_FANIN). */
#define BTREE_FANIN_MIN 2u
#define BTREE_FANIN_MAX 64u

/*
 * The tree of a team of n threads (n >= 1) with fan-in `fanin` (clamped
 * to BTREE_FANIN_MIN..MAX). key[l] (NULL: no information at that level)
 * gives thread i's group at level l in key[l][i]; a negative key means
 * "unknown": the thread is a group of its own at that level.
 *
 * Built bottom-up. At each level the members (all threads at the first
 * level with information, the leaders of the groups below it above) that
 * share a key form a group; its leader is its lowest-numbered member and
 * the members, in id order, form a fanin-ary heap under it (member p's
 * parent is member (p - 1) / fanin). The leaders go up to the next level;
 * the last level is one group of all remaining leaders. So thread 0 is
 * the root, every group's threads gather under one of them before anyone
 * outside the group is involved, and a leader has at most `fanin`
 * children per level.
 *
 * Writes parent[0..n-1] (parent[0] = BTREE_NO_PARENT); scratch holds 2n
 * entries. Pure: no allocation, no threads.
 */
void btree_build(unsigned n, unsigned fanin, const int *const key[BTREE_LEVELS], unsigned *parent,
                 unsigned *scratch);

/* The children of every thread from parent[]: thread i's are
 * child[first[i]] .. child[first[i + 1] - 1], in increasing id order.
 * first holds n + 1 entries, child n (n - 1 used). */
void btree_children(unsigned n, const unsigned *parent, unsigned *first, unsigned *child);

/* The depth of thread i (the root's is 0). */
unsigned btree_depth(const unsigned *parent, unsigned i);

#endif
