/* bind.h — which place each thread of a team gets (OpenMP 5.1 2.6.2), and pinning threads to their places. */
#ifndef ILAN_TOPO_BIND_H
#define ILAN_TOPO_BIND_H

#include <stdbool.h>


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

/* A thread's binding: part of its thread state (core/thread.h). */
struct bind_thread {
    int place;       /* place number of the current implicit task; -1: none (not bound) */
    int part_off;    /* first place of its place partition */
    int part_len;    /* places in its partition; 0: never placed (the whole list) */
    int bound_place; /* place whose CPUs the OS thread is pinned to now; -1: none. Survives
                        regions: a thread is re-pinned only when this differs */
};

/* A team's placement: part of the team (core/team.h), kept between its
 * regions so that an unchanged team is not placed again. */
struct bind_team {
    unsigned kind;           /* policy used to place the threads (enum icv_bind); 0: none */
    int key[5];              /* kind, size, master place, partition the slots were made for */
    struct bind_slot *slots; /* slots[i]: place and partition of thread i */
    unsigned cap;            /* entries allocated in slots[] */
};

/* A new thread's binding: no place, not bound. */
void bind_thread_init(struct bind_thread *b);

/* Decides the places of a team of n threads that the thread whose binding
 * is `master` is about to master, from its bind-var (enum icv_bind), the
 * proc_bind clause (0: absent) and its own place and partition; records
 * them in *tb (recomputed only when something changed since the team's
 * last region). No binding (tb->kind = 0) when bind-var is false or there
 * are no places. Only the master. */
void bind_team_begin(struct bind_team *tb, struct bind_thread *master, unsigned bind_var, unsigned n,
                     unsigned proc_bind);

/* Takes the calling thread's assignment as thread team_id of the team and
 * pins it to the place's CPUs if its place changed. Returns true when its
 * binding changed. Only the thread whose binding is b. */
bool bind_enter(struct bind_thread *b, const struct bind_team *tb, unsigned team_id);

/* The NUMA node (model id) of the calling thread's place as its last
 * bind_enter set it; -1 when it never had one. Async-signal-safe. */
int bind_self_node(void);

/* Replaces tb's assignment of a team of n threads: thread i on place[i],
 * its partition that place alone (a bubble's placement, core/bubble.c).
 * The next bind_team_begin recomputes from scratch. Only the master. */
void bind_team_set(struct bind_team *tb, unsigned n, const int *place);

/* Frees what a team's placement holds. */
void bind_team_free(struct bind_team *tb);

#endif
