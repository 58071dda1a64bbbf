/* regions.c — per thread, what happens inside each parallel region and taskloop: wall time, counter increments, and (ILAN_COUNTERS=os/all) OS counters read at entry and exit, with the descheduled time they imply. */
#include "instr/regions.h"

#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/env.h"
#include "instr/ext.h"
#include "instr/trace.h"
#include "os/linux/ticks.h"
#include "os/linux/time.h"

/* Whether perf_event_open was refused (then no thread tries again), and why. */
static _Atomic int perf_refused;          /* errno of the first refusal, 0 none */
static _Atomic bool perf_hw_missing;      /* `all` asked for hardware counters some thread lacks */

struct instr_ext *instr_ext_of(struct instr_thread *me)
{
    if (__builtin_expect(me->ext != NULL, 1))
        return me->ext;
    struct instr_ext *x = calloc(1, sizeof *x);
    if (!x)
        ilan_fatal("out of memory for a thread's counters");
    me->ext = x;
    return x;
}

/* Opens the calling thread's perf counters on its first region (at most
 * once; after one refusal no thread tries). True when they are open. */
static bool perf_ready(struct instr_ext *x)
{
    if (x->perf_open)
        return true;
    if (!instr_flags.os || atomic_load_explicit(&perf_refused, memory_order_relaxed))
        return false;
    int err = os_perf_open(&x->perf, instr_flags.level >= INSTR_ALL);
    if (err) {
        int none = 0;
        if (atomic_compare_exchange_strong(&perf_refused, &none, err))
            ilan_warn("ILAN_COUNTERS: perf_event_open: %s; OS counters unavailable, "
                      "runtime counters kept",
                      os_perf_refusal(err));
        return false;
    }
    if (instr_flags.level >= INSTR_ALL && x->perf.hw_fd < 0)
        atomic_store_explicit(&perf_hw_missing, true, memory_order_relaxed);
    x->perf_open = true;
    return true;
}

int instr_os_refusal(void)
{
    return atomic_load_explicit(&perf_refused, memory_order_relaxed);
}

bool instr_os_hw_missing(void)
{
    return atomic_load_explicit(&perf_hw_missing, memory_order_relaxed);
}

/* The accumulator of (kind, fn) in x, claimed if new; NULL when the table
 * is full. */
static struct instr_region_acc *acc_of(struct instr_ext *x, unsigned kind, void *fn)
{
    uintptr_t h = ((uintptr_t)fn >> 4) * 0x9E3779B97F4A7C15ull + kind;
    for (unsigned i = 0; i < INSTR_REGION_SLOTS; i++) {
        struct instr_region_acc *a = &x->acc[(h + i) % INSTR_REGION_SLOTS];
        void *have = atomic_load_explicit(&a->fn, memory_order_relaxed);
        if (have == fn && atomic_load_explicit(&a->kind, memory_order_relaxed) == kind)
            return a;
        if (!have) {
            atomic_store_explicit(&a->kind, kind, memory_order_relaxed);
            atomic_store_explicit(&a->fn, fn, memory_order_release);
            return a;
        }
    }
    return NULL;
}

/* Opens a region or taskloop record on the calling thread (`resumed`: a
 * worker's return to a region it left, counted as the same call). */
static void open_record(struct instr_thread *me, unsigned kind, void *fn, struct instr_mark m,
                        bool resumed)
{
    struct instr_ext *x = instr_ext_of(me);
    unsigned d = x->depth++;
    if (d >= INSTR_REGION_DEPTH)
        return;
    struct instr_open *o = &x->open[d];
    instr_sync(me);
    o->fn = fn;
    o->kind = kind;
    o->mark = m;
    o->resumed = resumed;
    for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
        o->count0[c] = atomic_load_explicit(&me->count[c], memory_order_relaxed);
    o->os_ok = perf_ready(x) && os_perf_read(&x->perf, o->os0) && os_thread_switches(&o->sw0);
    o->wall0_ns = o->os_ok ? os_now_ns() : 0;
    o->sleep0 = atomic_load_explicit(&me->state_ticks[INSTR_S_sleep], memory_order_relaxed);
}

double instr_descheduled_ns(uint64_t offcpu_ns, uint64_t sleep_ticks)
{
    double d = (double)offcpu_ns - (double)sleep_ticks / os_ticks_per_ns();
    return d > 0 ? d : 0;
}

/* Closes the innermost record: adds what happened inside to its
 * accumulator; returns it (NULL when it was not measured), with the time
 * off the CPU in *offcpu_ns, of which *sleep_ticks asleep, and the OS
 * deltas in os[]. */
static struct instr_open *close_record(struct instr_thread *me, uint64_t now, uint64_t ntasks,
                                       uint64_t os[OS_PERF_NCOUNTERS], uint64_t *offcpu_ns,
                                       uint64_t *sleep_ticks)
{
    struct instr_ext *x = instr_ext_of(me);
    if (x->depth == 0)
        return NULL;
    unsigned d = --x->depth;
    if (d >= INSTR_REGION_DEPTH)
        return NULL;
    struct instr_open *o = &x->open[d];
    instr_sync(me);
    *offcpu_ns = 0;
    /* The sleep state is charged when a sleep ends, so sleeps inside have
     * all been charged by now (a region ends awake). */
    *sleep_ticks = atomic_load_explicit(&me->state_ticks[INSTR_S_sleep], memory_order_relaxed) -
                   o->sleep0;
    memset(os, 0, OS_PERF_NCOUNTERS * sizeof *os);
    bool os_ok = false;
    struct os_switches sw;
    if (o->os_ok && os_perf_read(&x->perf, os) && os_thread_switches(&sw)) {
        os_ok = true;
        sw.voluntary -= o->sw0.voluntary;
        sw.involuntary -= o->sw0.involuntary;
        uint64_t wall = os_now_ns() - o->wall0_ns;
        for (unsigned i = 0; i < OS_PERF_NCOUNTERS; i++)
            os[i] -= o->os0[i];
        /* Inside the region but off its CPU: asleep on purpose (timed as
         * `sleep`), or descheduled by the OS. */
        uint64_t oncpu = os[OS_PERF_TASK_CLOCK_NS];
        *offcpu_ns = wall > oncpu ? wall - oncpu : 0;
    }
    struct instr_region_acc *a = acc_of(x, o->kind, o->fn);
    if (!a)
        return o;
    instr_acc_add(&a->calls, !o->resumed);
    instr_acc_add(&a->ticks, now - o->mark.start);
    instr_acc_add(&a->tasks, ntasks);
    for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
        instr_acc_add(&a->count[c],
                      atomic_load_explicit(&me->count[c], memory_order_relaxed) - o->count0[c]);
    if (os_ok) {
        for (unsigned i = 0; i < OS_PERF_NCOUNTERS; i++)
            instr_acc_add(&a->os[i], os[i]);
        instr_acc_add(&a->offcpu_ns, *offcpu_ns);
        instr_acc_add(&a->sleep_ticks, *sleep_ticks);
        instr_acc_add(&a->voluntary, sw.voluntary);
        instr_acc_add(&a->involuntary, sw.involuntary);
        if (o->kind == INSTR_PARALLEL) {
            instr_acc_add(&x->offcpu_ns, *offcpu_ns);
            instr_acc_add(&x->sleep_ticks, *sleep_ticks);
            instr_acc_add(&x->voluntary, sw.voluntary);
            instr_acc_add(&x->involuntary, sw.involuntary);
        }
    }
    return o;
}

void instr_region_begin(void *fn)
{
    struct instr_thread *me = instr_me();
    instr_add(INSTR_C_regions, 1);
    struct instr_mark m = instr_enter(INSTR_S_task);
    m.base = INSTR_NSTATES; /* traced as the region, not as a task */
    open_record(me, INSTR_PARALLEL, fn, m, false);
    if (instr_ext_of(me)->depth > INSTR_REGION_DEPTH)
        instr_leave(m); /* not measured: only the state */
}

void instr_region_resume(void *fn)
{
    struct instr_thread *me = instr_me();
    instr_add(INSTR_C_region_helps, 1);
    /* It stays idle: its waits for the region's tasks are a barrier's, as
     * they would have been had it stayed in the region's end barrier. */
    struct instr_mark m = instr_enter(INSTR_S_idle);
    m.base = INSTR_NSTATES;
    open_record(me, INSTR_PARALLEL, fn, m, true);
    if (instr_ext_of(me)->depth > INSTR_REGION_DEPTH)
        instr_leave(m);
}

void instr_region_end(void)
{
    struct instr_thread *me = instr_me();
    struct instr_ext *x = instr_ext_of(me);
    if (x->depth == 0)
        return;
    uint64_t now = os_ticks(), os[OS_PERF_NCOUNTERS], offcpu, slept;
    struct instr_open *o = close_record(me, now, 0, os, &offcpu, &slept);
    if (!o)
        return;
    instr_leave(o->mark);
    if (instr_flags.trace) {
        trace_event(me, TRACE_REGION, o->mark.start, now, (uintptr_t)o->fn, o->resumed, 0);
        if (o->os_ok)
            trace_event(me, TRACE_OS, now, now,
                        (os[OS_PERF_CONTEXT_SWITCHES] & 0xffffffffu) << 32 |
                            (os[OS_PERF_CPU_MIGRATIONS] & 0xffffffffu),
                        offcpu, slept);
    }
}

struct instr_mark instr_taskloop_begin(void *fn)
{
    struct instr_thread *me = instr_me();
    struct instr_mark m = instr_enter(INSTR_S_create);
    instr_ext_of(me)->tl_config = 0;
    open_record(me, INSTR_TASKLOOP, fn, m, false);
    return m;
}

struct instr_mark instr_taskloop_join(void *fn)
{
    struct instr_thread *me = instr_me();
    struct instr_ext *x = instr_ext_of(me);
    unsigned d = x->depth;
    if (d > 0 && d <= INSTR_REGION_DEPTH && x->open[d - 1].kind == INSTR_TASKLOOP &&
        x->open[d - 1].fn == fn)
        return INSTR_MARK_NONE; /* its creator, or a thread already taking part */
    struct instr_mark m = instr_enter(INSTR_S_task);
    m.base = INSTR_NSTATES; /* its tasks are traced, not the share */
    open_record(me, INSTR_TASKLOOP, fn, m, false);
    return m;
}

void instr_taskloop_leave(struct instr_mark m)
{
    struct instr_thread *me = instr_me();
    uint64_t now = os_ticks(), os[OS_PERF_NCOUNTERS], offcpu, slept;
    (void)close_record(me, now, 0, os, &offcpu, &slept);
    instr_leave(m);
}

void instr_taskloop_config(unsigned groups, unsigned workers, bool full)
{
    instr_ext_of(instr_me())->tl_config = trace_pack_config(groups, workers, full);
}

void instr_taskloop_end(struct instr_mark m, void *fn, bool deferred, bool moded, uint64_t ntasks)
{
    struct instr_thread *me = instr_me();
    enum instr_counter c = !deferred                                 ? INSTR_C_taskloops_undeferred
                           : !moded                                  ? INSTR_C_taskloops_ws
                           : config.taskloop_mode == TASKLOOP_NUMA ? INSTR_C_taskloops_numa
                                                                     : INSTR_C_taskloops_ilan;
    instr_add(c, 1);
    instr_add(INSTR_C_taskloop_tasks, ntasks);
    instr_add(INSTR_C_tasks_created, ntasks);
    uint64_t now = os_ticks(), os[OS_PERF_NCOUNTERS], offcpu, slept;
    (void)close_record(me, now, ntasks, os, &offcpu, &slept);
    /* The whole taskloop was `create` on this thread, except the waits and
     * tasks inside it, which have states of their own; it is traced as a
     * taskloop slice rather than as a state. */
    m.base = INSTR_NSTATES;
    instr_leave(m);
    if (instr_flags.trace)
        trace_event(me, TRACE_TASKLOOP, m.start, now, (uintptr_t)fn, ntasks,
                    instr_ext_of(me)->tl_config);
}
