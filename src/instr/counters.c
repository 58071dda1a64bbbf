/* counters.c — the registry of per-thread counter blocks, state changes (time per state), and reading the counters back by name. */
#include "instr/counters.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "instr/ext.h"
#include "instr/trace.h"
#include "os/linux/ticks.h"

static const char *const counter_names[] = {
#define INSTR_X(name, what) #name,
    INSTR_COUNTERS(INSTR_X)
#undef INSTR_X
};

static const char *const state_names[] = {
#define INSTR_X(name, what) #name,
    INSTR_STATES(INSTR_X)
#undef INSTR_X
};

const char *instr_counter_name(enum instr_counter c)
{
    return counter_names[c];
}

const char *instr_state_name(enum instr_state s)
{
    return state_names[s];
}

/* Task starts of the calling thread counted one by one (all but the
 * included tasks of task constructs). */
static uint64_t counted_starts(const struct instr_thread *me)
{
    return atomic_load_explicit(&me->count[INSTR_C_tasks_executed], memory_order_relaxed) +
           atomic_load_explicit(&me->count[INSTR_C_range_runners], memory_order_relaxed) +
           atomic_load_explicit(&me->count[INSTR_C_tasks_included], memory_order_relaxed);
}

void instr_thread_starts(const unsigned long *p)
{
    struct instr_thread *me = instr_me();
    me->starts = p;
    me->starts_seen = *p;
    me->others_seen = counted_starts(me);
}

void instr_sync(struct instr_thread *me)
{
    if (!me || !me->starts)
        return;
    unsigned long now = *me->starts;
    uint64_t others = counted_starts(me);
    instr_acc_add(&me->count[INSTR_C_tasks_included_spawned],
                  (uint64_t)(now - me->starts_seen) - (others - me->others_seen));
    me->starts_seen = now;
    me->others_seen = others;
}

void instr_fold(uint64_t c[INSTR_NCOUNTERS])
{
    c[INSTR_C_tasks_included] += c[INSTR_C_tasks_included_spawned];
    c[INSTR_C_tasks_created] += c[INSTR_C_tasks_included_spawned];
    c[INSTR_C_tasks_executed] += c[INSTR_C_tasks_included];
}

void instr_init(enum instr_level level)
{
    instr_flags.level = level;
    if (level == INSTR_OFF)
        return;
    os_ticks_init();
    instr_flags.os = level >= INSTR_OS;
    instr_flags.on = true;
    instr_thread_register_in(INSTR_S_task);
}


/* ---- states ----------------------------------------------------------------------------- */

/* Charges the time since the latest change to the current state and moves
 * to `to`; returns now. */
static uint64_t change_state(struct instr_thread *me, unsigned to)
{
    uint64_t now = os_ticks();
    instr_acc_add(&me->state_ticks[me->state], now - me->since);
    me->since = now;
    me->state = to;
    return now;
}

struct instr_mark instr_enter(enum instr_state s)
{
    struct instr_thread *me = instr_me();
    /* A mark even when already in s (a task run inside a task): its slice
     * is traced, and leaving it costs only a clock read. */
    struct instr_mark m = {0, me->state, s};
    m.start = change_state(me, s);
    return m;
}

/* Whether the slice of a state is traced: waits, sleeps and creation
 * always; tasks one in task_every. */
static bool traced(struct instr_thread *me, unsigned state)
{
    if (state != INSTR_S_task)
        return true;
    unsigned every = instr_flags.task_every;
    if (!every)
        return false;
    if (me->task_skip) {
        me->task_skip--;
        return false;
    }
    me->task_skip = every - 1;
    return true;
}

void instr_leave(struct instr_mark m)
{
    struct instr_thread *me = instr_me();
    uint64_t now = change_state(me, m.prev);
    if (instr_flags.trace && m.base < INSTR_NSTATES && traced(me, m.base))
        trace_event(me, TRACE_STATE + m.base, m.start, now, 0, 0, 0);
}

void instr_barrier_wait(void)
{
    struct instr_thread *me = instr_me();
    me->next_barrier = true;
    instr_add(INSTR_C_barriers, 1);
}

void instr_barrier_resume(void)
{
    instr_me()->next_barrier = true;
}

struct instr_mark instr_enter_wait(void)
{
    struct instr_thread *me = instr_me();
    bool barrier = me->next_barrier || me->state == INSTR_S_idle;
    me->next_barrier = false;
    if (!barrier)
        instr_add(INSTR_C_taskwaits, 1);
    return instr_enter(barrier ? INSTR_S_barrier : INSTR_S_taskwait);
}

void instr_wait_phase(const struct instr_mark *m, bool stalled)
{
    struct instr_thread *me = instr_me();
    unsigned want = stalled ? INSTR_S_stall : m->base;
    if (me->state != want && (me->state == m->base || me->state == INSTR_S_stall))
        change_state(me, want);
}

void instr_steal(unsigned victim, bool remote)
{
    struct instr_thread *me = instr_me();
    instr_add(remote ? INSTR_C_steals_remote : INSTR_C_steals_local, 1);
    if (instr_flags.trace) {
        uint64_t now = os_ticks();
        trace_event(me, TRACE_STEAL, now, now, victim, remote, 0);
    }
}

/* ---- reading back ---------------------------------------------------------------------- */

long long instr_counter_value(const char *name, int thread)
{
    if (!instr_flags.on || !name)
        return -1;
    unsigned c = 0;
    while (c < INSTR_NCOUNTERS && strcmp(counter_names[c], name) != 0)
        c++;
    if (c == INSTR_NCOUNTERS)
        return -1;
    uint64_t sum[INSTR_NCOUNTERS] = {0};
    bool found = thread < 0;
    instr_sync(instr_self);
    for (struct instr_thread *t = instr_threads(); t;
         t = atomic_load_explicit(&t->next, memory_order_relaxed)) {
        if (thread >= 0 && t->id != (unsigned)thread)
            continue;
        for (unsigned k = 0; k < INSTR_NCOUNTERS; k++)
            sum[k] += atomic_load_explicit(&t->count[k], memory_order_relaxed);
        found = true;
    }
    instr_fold(sum);
    return found ? (long long)sum[c] : -1;
}
