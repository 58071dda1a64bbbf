/* bind.h — which place each thread of a team gets (OpenMP 5.1 2.6.2), and pinning threads to their places. */
#ifndef ILAN_TOPO_BIND_H
#define ILAN_TOPO_BIND_H

#include <stdbool.h>

struct ilan_thread;
struct team;

/* One thread's assignment: its place and its place partition, a range of
 * consecutive place numbers [part_off, part_off + part_len). */
struct bind_slot {
    int place;    /* place number the thread is bound to */
    int part_off; /* first place of its partition */
    int part_len; /* places in its partition (>= 1) */
};

/* The assignment of a team of n threads (slot 0 = the master) under policy
 * `kind` (enum icv_bind: PRIMARY, CLOSE or SPREAD; TRUE means CLOSE),
 * inside the parent's partition [part_off, part_off + part_len) with the
 * master on master_place (which lies in it). Pure.
 * - primary: everybody on the master's place, the parent's partition.
 * - close: thread i on the i-th place after the master's, wrapping inside
 *   the partition; when n > P (P = part_len) runs of n/P or n/P + 1
 *   consecutive threads per place, the longer runs first, counting from
 *   the master's place; the parent's partition.
 * - spread, n <= P: the partition is cut into n sub-partitions of P/n or
 *   P/n + 1 consecutive places (the longer ones first, from the partition's
 *   start); the master keeps its place and the sub-partition holding it;
 *   thread i gets the i-th sub-partition after the master's (wrapping) and
 *   its first place. n > P: each place is its own sub-partition, threads
 *   placed in runs as for close. */
void bind_assign(unsigned kind, int part_off, int part_len, int master_place, unsigned n,
                 struct bind_slot *out);

/* A new thread's affinity state: no place, not bound, nothing shown. */
void bind_thread_init(struct ilan_thread *ts);

/* Decides the places of team t (n threads) that the calling thread ts is
 * about to master, from ts's bind-var, the proc_bind clause (0: absent)
 * and ts's own place and partition; records them in t (recomputed only
 * when something changed since t's last region). No binding (t->bind_kind
 * = 0) when bind-var is false or there are no places. */
void bind_team_begin(struct ilan_thread *ts, struct team *t, unsigned n, unsigned proc_bind);

/* Takes the calling thread's assignment as thread team_id of t and pins
 * it to the place's CPUs if its place changed. Returns true when its
 * binding changed. Call after ts->team is set. */
bool bind_enter(struct ilan_thread *ts, const struct team *t, unsigned team_id);

#endif
