/* mode.c — the ilan and numa taskloop modes as the task scheduler sees them (core/task_mode.h): which of ILAN's group queues each thread may take from, and when. */
#include "ilan/mode.h"

#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "ilan/exec.h"
#include "ilan/groups.h"
#include "ilan/victims.h"
#include "instr/counters.h"
#include "os/linux/clock.h"

/* Whether an ILAN execution was opened to every thread: an exploratory
 * run that outlived its cut-off (mold_cutoff). Reads the clock only for
 * runs that have one. */
static bool exec_opened(const struct taskloop_exec *e)
{
    uint64_t at = atomic_load_explicit(&e->open_ns, memory_order_relaxed);
    return at && os_clock_ns() >= at;
}

/* Whether some execution of the team may have been opened: keeps threads
 * off other groups' strict queues (and the clock) in ordinary runs. */
static bool team_ilan_opened(const struct team_ilan *ti)
{
    uint64_t at = atomic_load_explicit(&ti->open_at_ns, memory_order_relaxed);
    return at && os_clock_ns() >= at;
}

/* task_accept_fn for another group's shared queue: a thread of group
 * *arg may take tasks of a taskloop its group takes part in, or of one
 * that was opened. */
static bool accept_participating(const struct task *t, const void *arg)
{
    unsigned group = *(const unsigned *)arg;
    return t->exec && (t->exec->participates[group] || exec_opened(t->exec));
}

/* task_accept_fn for another group's strict queue (*arg: whether that
 * group has no place): tasks of opened executions, runners of drained
 * range launches (they end at once), and a placeless group's runners. A
 * runner claims its range's tasks whoever runs it, and threads without
 * places have no locality to keep; what the group stands for is how many
 * runners work at once. Its own threads may be asleep while another is
 * awake: a launch wakes any sleepers, not the group's. */
static bool accept_opened(const struct task *t, const void *arg)
{
    bool placeless = *(const bool *)arg;
    return t->exec && ((placeless && (t->state_flags & TASK_RUNNER)) ||
                       atomic_load_explicit(&t->exec->drained, memory_order_relaxed) ||
                       exec_opened(t->exec));
}

/* task_mode_ops.take_own: the thread's own group's tasks, strict ones first. */
static struct task *ilan_take_own(struct ilan_thread *ts, struct team *team, struct task *waiter,
                                  enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    if (!ti)
        return NULL;
    struct group_queues *q = &ti->queues[ti->groups.slot_group[ts->team_id]];
    struct task *t = task_queue_take(&q->strict, waiter, look, NULL, NULL);
    t = t ? t : task_queue_take(&q->shared, waiter, look, NULL, NULL);
    ILAN_COUNT_GROUP_TAKE(t, true, false);
    return t;
}

/* Where the calling thread's next quick look at other groups starts
 * (ilan_take_other), as a distance from its own group, minus one. */
static __thread unsigned take_other_next;

/* task_mode_ops.take_other: other groups' shareable tasks (full policy),
 * the thread's own group having none left; any task of an exploratory
 * run past its cut-off, which every thread may help finish; and the
 * runners of a range launch whose tasks were all claimed, so that nobody
 * waits for their group's threads to wake up only to end them. */
static struct task *ilan_take_other(struct ilan_thread *ts, struct team *team,
                                    struct task *waiter, enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    if (!ti)
        return NULL;
    unsigned group = ti->groups.slot_group[ts->team_id], G = ti->groups.ngroups;
    bool opened = atomic_load_explicit(&ti->drained_execs, memory_order_relaxed) ||
                  team_ilan_opened(ti);
    /* A quick look visits at most ILAN_TASK_STEAL_TRIES_MAX other groups,
     * going on round the groups where the thread's last one stopped; the
     * full look before sleeping visits them all. An unbound team has a
     * group per thread: at 5,000 threads, reading every other group's
     * queue counts at every idle round took most of a taskloop's time. */
    unsigned visits = G - 1, from = 1;
    if (look != LOOK_FULL && visits > ILAN_TASK_STEAL_TRIES_MAX) {
        visits = ILAN_TASK_STEAL_TRIES_MAX;
        from = 1 + take_other_next % (G - 1);
        take_other_next = from - 1 + visits;
    }
    struct task *t;
    for (unsigned i = 0; i < visits; i++) {
        unsigned d = 1 + (from - 1 + i) % (G - 1); /* 1..G-1: never the own group */
        unsigned other = (group + d) % G;
        struct group_queues *q = &ti->queues[other];
        bool placeless = ti->groups.model_id[other] < 0;
        bool strict = !(t = task_queue_take(&q->shared, waiter, look, accept_participating, &group));
        if (t || ((opened || placeless) &&
                  (t = task_queue_take(&q->strict, waiter, look, accept_opened, &placeless)))) {
            ILAN_COUNT_GROUP_TAKE(t, false, strict);
            return t;
        }
    }
    return NULL;
}

/* task_mode_ops.take_any: any group's task the caller may take (the
 * scheduling constraint only): the way out when group rules would stop
 * progress (task_find and task_wait_until). */
static struct task *ilan_take_any(struct team *team, struct task *waiter, enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    struct task *t;
    for (unsigned g = 0; ti && g < ti->groups.ngroups; g++) {
        bool own = g == ti->groups.slot_group[ilan_tls.team_id];
        if ((t = task_queue_take(&ti->queues[g].strict, waiter, look, NULL, NULL))) {
            ILAN_COUNT_ESCAPE_TAKE(t, own);
            return t;
        }
        if ((t = task_queue_take(&ti->queues[g].shared, waiter, look, NULL, NULL))) {
            ILAN_COUNT_ESCAPE_TAKE(t, own);
            return t;
        }
    }
    return NULL;
}

/* task_mode_ops.queued: some group of the team has ILAN tasks queued. */
static bool ilan_queued(const struct team *team)
{
    const struct team_ilan *ti = team->ilan;
    for (unsigned g = 0; ti && g < ti->groups.ngroups; g++)
        if (atomic_load_explicit(&ti->queues[g].strict.count, memory_order_relaxed) ||
            atomic_load_explicit(&ti->queues[g].shared.count, memory_order_relaxed))
            return true;
    return false;
}

/* task_mode_ops.same_group: slots a and b are in one locality group. */
static bool ilan_same_group(const struct team *team, unsigned a, unsigned b)
{
    const struct team_ilan *ti = team->ilan;
    return !ti || ti->groups.slot_group[a] == ti->groups.slot_group[b];
}

/* task_mode_ops.victims: the locality order of ilan/victims.c when the
 * groups are nodes or caches; groups of cores share nothing worth ordering
 * by (and unbound threads' groups are single threads with no distances: an
 * order would send every thief to the same first victim). */
static const struct loop_victims *ilan_task_victims(struct ilan_thread *ts, struct team *team)
{
    const struct team_groups *g = team->ilan ? &team->ilan->groups : NULL;
    if (!g || g->kind == GROUP_CORE || g->ngroups < 2 || g->nthreads != team->nthreads)
        return NULL;
    return ilan_victims(ts, team, true, VICTIMS_FOR_TASKS);
}

/* task_mode_ops.sleep_ns: until the pending cut-off of an exploratory run,
 * if one is due, else ILAN_STALL_NS (to notice a stall). */
static uint64_t ilan_sleep_ns(const struct team *team)
{
    uint64_t at = atomic_load_explicit(&team->ilan->open_at_ns, memory_order_relaxed);
    uint64_t now = at ? os_clock_ns() : 0;
    if (at > now && at - now < ILAN_STALL_NS)
        return at - now;
    return ILAN_STALL_NS;
}

/* task_mode_ops.sleepers_of: the count of slot's group (ilan_wake_owed
 * reads them), kept in the task slot numbered as the group. */
static _Atomic unsigned *ilan_sleepers_of(struct team *team, unsigned slot)
{
    const struct team_ilan *ti = team->ilan;
    return ti ? &team->task_slots[ti->groups.slot_group[slot]]->group_sleepers : NULL;
}

/* task_mode_ops.wake_owed: a launch wakes as many sleepers as it has
 * runners, whichever they are (they share one futex word), so a group's
 * strict runners may find all their own threads asleep while the threads
 * woken belong to other groups. Such a thread passes a wake-up on while
 * this holds (pass_wake_on, core/task_sched.c); the futex wakes its
 * sleepers in the order they slept, so the group's own come within as
 * many hops as there are sleepers. Without it they slept on until their
 * 200 ms slice (ILAN_STALL_NS) ended or the creator's stall escape ran
 * their tasks on another node. */
static bool ilan_wake_owed(const struct team *team, unsigned slot)
{
    const struct team_ilan *ti = team->ilan;
    if (!ti)
        return false;
    unsigned own = ti->groups.slot_group[slot];
    for (unsigned g = 0; g < ti->groups.ngroups; g++) {
        const struct group_queues *q = &ti->queues[g];
        if (g != own &&
            (atomic_load_explicit(&q->strict.count, memory_order_relaxed) ||
             atomic_load_explicit(&q->shared.count, memory_order_relaxed)) &&
            atomic_load_explicit(&team->task_slots[g]->group_sleepers, memory_order_relaxed))
            return true;
    }
    return false;
}

const struct task_mode_ops ilan_mode = {
    .team_begin = ilan_groups_team_begin,
    .team_free = ilan_groups_team_free,
    .task_done = ilan_exec_task_done,
    .take_own = ilan_take_own,
    .take_other = ilan_take_other,
    .take_any = ilan_take_any,
    .queued = ilan_queued,
    .same_group = ilan_same_group,
    .victims = ilan_task_victims,
    .sleep_ns = ilan_sleep_ns,
    .sleepers_of = ilan_sleepers_of,
    .wake_owed = ilan_wake_owed,
    .taskloop = ilan_exec_run,
    .taskloop_end = ilan_exec_end,
};
