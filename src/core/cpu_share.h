/* cpu_share.h — which threads of a team share a CPU and still have work in its region: an oversubscribed wait keeps its CPU when a yield would help nobody. */
#ifndef ILAN_CORE_CPU_SHARE_H
#define ILAN_CORE_CPU_SHARE_H

#include <stdatomic.h>
#include <stdbool.h>

/*
 * With more threads than CPUs, a waiting thread yields so that the thread
 * it waits for can run: but a yield only helps a thread queued on the
 * waiter's own CPU. When every thread of the team that shares that CPU
 * has finished its part of the region (and the master runs elsewhere),
 * the yield hands the CPU to another waiter and back, a context switch for
 * nothing: the waiter should spin. Each thread notes here the CPU it runs
 * on and the last region whose implicit task it finished; waiters read
 * them without locks. The notes may be stale (a thread migrated): a wrong
 * answer costs a bounded spin (wait_policy's alone_ns), never correctness.
 */

/* What one thread of a team last noted. */
struct cpu_share_slot {
    _Atomic int cpu;           /* the CPU it last ran on (-1: not known) */
    _Atomic unsigned done_seq; /* region_seq of the last region whose implicit task it finished */
};

/* The notes of a team's threads, by team_id. Replaced, never resized, when
 * the team grows: a waiter may still read the array it loaded before. */
struct cpu_share {
    unsigned capacity;         /* entries in slot[] */
    struct cpu_share *older;   /* the array this one replaced, freed with it (cpu_share_free) */
    struct cpu_share_slot slot[]; /* per team_id */
};

/* Returns an array with room for n threads, copying *cur's notes and
 * keeping *cur (may be NULL) alive behind it; *cur itself if it has room.
 * Only the team's master, between regions. Fatal when out of memory. */
struct cpu_share *cpu_share_reserve(struct cpu_share *cur, unsigned n);

/* Frees the array and every array it replaced. Only when no thread reads them. */
void cpu_share_free(struct cpu_share *s);

/* Notes that thread `id` runs on `cpu` (stores only on change: the slot's
 * line is shared with other threads' slots). */
static inline void cpu_share_note_cpu(struct cpu_share *s, unsigned id, int cpu)
{
    if (atomic_load_explicit(&s->slot[id].cpu, memory_order_relaxed) != cpu)
        atomic_store_explicit(&s->slot[id].cpu, cpu, memory_order_relaxed);
}

/* Notes that thread `id` finished its implicit task of region `seq`. */
static inline void cpu_share_note_done(struct cpu_share *s, unsigned id, unsigned seq)
{
    atomic_store_explicit(&s->slot[id].done_seq, seq, memory_order_relaxed);
}

/*
 * Whether no thread among team_ids [1, n) other than `self` that last ran
 * on `cpu` still has work in region `seq` (has not noted it done), and,
 * when `master_counts`, the master (team_id 0) did not last run on `cpu`
 * (between regions and at the join the master has work or soon will).
 * n is capped by the array's capacity.
 */
bool cpu_share_idle(const struct cpu_share *s, unsigned n, unsigned self, int cpu,
                    unsigned seq, bool master_counts);

/*
 * Whether thread `self` of a team of `staffed` threads (team_ids below it),
 * while `busy` threads are busy process-wide, may keep its CPU instead of
 * yielding it: the team is small enough that reading every note costs less
 * than a yield, no thread of another team is busy (these notes cannot see
 * it), and cpu_share_idle holds for the CPU it runs on, which it notes.
 * Any thread of the team; only while threads outnumber CPUs.
 */
bool cpu_share_alone(struct cpu_share *s, unsigned staffed, unsigned busy, unsigned self,
                     unsigned seq, bool master_counts);

#endif
