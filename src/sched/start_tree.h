/* start_tree.h — the tree that starts a team's threads: which threads each thread dispatches when a region begins (pure arithmetic). */
#ifndef ILAN_SCHED_START_TREE_H
#define ILAN_SCHED_START_TREE_H

/*
 * A team of n threads whose threads first..n-1 must be dispatched (those
 * below `first`, except the master, are already running: a hot team's
 * workers that stayed). Instead of the master dispatching them one by one,
 * each dispatched thread dispatches its children before it starts its
 * own work: a heap of fan-out `fanout` (at least 1) over positions
 * q = 1..n-first, where thread id has position id - first + 1 and the
 * master (id 0) is position 0; the children of position q are positions
 * fanout*q + 1 .. fanout*q + fanout. Every thread first..n-1 is thus
 * dispatched exactly once, by the master or by a thread it (indirectly)
 * dispatched, and a thread is at depth about log_fanout(n - first).
 *
 * Returns how many children thread `id` has (0 for threads 1..first-1
 * and for leaves); they are *lo, *lo + 1, ... Pure: no threads.
 */
unsigned start_tree_children(unsigned id, unsigned first, unsigned n, unsigned fanout,
                             unsigned *lo);

#endif
