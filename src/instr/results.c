/* results.c — the counters' part of the report: per-thread counters, time per state and OS counters, the OS-noise summary and per-region sums, as JSON (inside ILAN_REPORT's file) or as a readable summary. */
#include "instr/results.h"

#include <stdlib.h>
#include <string.h>
#include "instr/ext.h"
#include "instr/regions.h"
#include "instr/report.h"
#include "os/linux/symbols.h"
#include "os/linux/ticks.h"

static const char *const level_names[] = {"off", "runtime", "os", "all"};

static const char *const os_names[OS_PERF_NCOUNTERS] = {
    "context_switches", "cpu_migrations", "minor_faults", "major_faults",
    "task_clock_s",     "cycles",         "instructions"};

/* The threads in registration order (the registry is newest first);
 * *n is set to their count. Caller frees. */
static struct instr_thread **threads_in_order(unsigned *n)
{
    unsigned count = 0;
    for (struct instr_thread *t = instr_threads(); t;
         t = atomic_load_explicit(&t->next, memory_order_relaxed))
        count++;
    struct instr_thread **v = calloc(count ? count : 1, sizeof *v);
    unsigned i = count;
    for (struct instr_thread *t = instr_threads(); v && t;
         t = atomic_load_explicit(&t->next, memory_order_relaxed))
        v[--i] = t;
    *n = v ? count : 0;
    return v;
}

static double ticks_s(uint64_t ticks)
{
    return (double)ticks / os_ticks_per_ns() * 1e-9;
}

/* A thread's OS counters now, when it opened them. */
static bool thread_os(const struct instr_thread *t, uint64_t os[OS_PERF_NCOUNTERS])
{
    return t->ext && t->ext->perf_open && os_perf_read(&t->ext->perf, os);
}

/* A thread's descheduled time inside regions (ns). */
static double thread_descheduled_ns(const struct instr_thread *t)
{
    return instr_descheduled_ns(atomic_load_explicit(&t->ext->offcpu_ns, memory_order_relaxed),
                                atomic_load_explicit(&t->ext->sleep_ticks, memory_order_relaxed));
}

/* Writes the OS counter values os[] as JSON members (task clock in s). */
static void json_os_values(FILE *f, const uint64_t *os, bool hw)
{
    for (unsigned i = 0; i < OS_PERF_NCOUNTERS; i++) {
        if (!hw && (i == OS_PERF_CYCLES || i == OS_PERF_INSTRUCTIONS))
            continue;
        if (i == OS_PERF_TASK_CLOCK_NS)
            fprintf(f, "%s\"%s\": %.9g", i ? ", " : "", os_names[i], (double)os[i] * 1e-9);
        else
            fprintf(f, "%s\"%s\": %llu", i ? ", " : "", os_names[i], (unsigned long long)os[i]);
    }
}

static void json_thread(FILE *f, const struct instr_thread *t, bool hw)
{
    fprintf(f, "    {\"id\": %u, \"tid\": %ld,\n      \"counters\": {", t->id, t->tid);
    uint64_t count[INSTR_NCOUNTERS];
    for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
        count[c] = atomic_load_explicit(&t->count[c], memory_order_relaxed);
    instr_fold(count);
    for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
        fprintf(f, "%s\"%s\": %llu", c ? ", " : "", instr_counter_name((enum instr_counter)c),
                (unsigned long long)count[c]);
    fputs("},\n      \"time_s\": {", f);
    for (unsigned s = 0; s < INSTR_NSTATES; s++)
        fprintf(f, "%s\"%s\": %.9g", s ? ", " : "", instr_state_name((enum instr_state)s),
                ticks_s(atomic_load_explicit(&t->state_ticks[s], memory_order_relaxed)));
    fputs("},\n      \"os\": ", f);
    uint64_t os[OS_PERF_NCOUNTERS];
    if (thread_os(t, os)) {
        fputc('{', f);
        json_os_values(f, os, hw);
        fprintf(f, ", \"voluntary_switches\": %llu, \"involuntary_switches\": %llu",
                (unsigned long long)atomic_load_explicit(&t->ext->voluntary, memory_order_relaxed),
                (unsigned long long)atomic_load_explicit(&t->ext->involuntary,
                                                         memory_order_relaxed));
        fprintf(f, ", \"descheduled_s\": %.9g}", thread_descheduled_ns(t) * 1e-9);
    } else {
        fputs("null", f);
    }
    fputs("}", f);
}

/* One region or taskloop identity, summed over the threads. */
struct region_sum {
    void *fn;                          /* identity */
    unsigned kind;                     /* enum instr_region_kind */
    unsigned threads;                  /* threads that took part */
    uint64_t calls;                    /* the most any thread took part (the encountering one's) */
    uint64_t tasks;                    /* taskloops: tasks, summed */
    uint64_t max_ticks;                /* the longest any thread spent inside (wall time) */
    uint64_t sum_ticks;                /* thread time inside, summed */
    uint64_t count[INSTR_NCOUNTERS];   /* counter increments inside, summed */
    uint64_t os[OS_PERF_NCOUNTERS];    /* OS counter increments inside, summed */
    uint64_t offcpu_ns;                /* time off the CPU inside, summed */
    uint64_t voluntary;                /* context switches made inside, summed */
    uint64_t involuntary;              /* preemptions inside, summed */
    uint64_t sleep_ticks;              /* of which asleep on a futex (os_ticks) */
};

/* Every identity any thread recorded, merged; *n their count. Caller frees. */
static struct region_sum *regions_merged(struct instr_thread **v, unsigned nthreads, unsigned *n)
{
    unsigned cap = 0, used = 0;
    struct region_sum *r = NULL;
    for (unsigned i = 0; i < nthreads; i++) {
        struct instr_ext *x = v[i]->ext;
        for (unsigned s = 0; x && s < INSTR_REGION_SLOTS; s++) {
            const struct instr_region_acc *a = &x->acc[s];
            void *fn = atomic_load_explicit(&a->fn, memory_order_acquire);
            if (!fn)
                continue;
            unsigned kind = atomic_load_explicit(&a->kind, memory_order_relaxed);
            unsigned j = 0;
            while (j < used && !(r[j].fn == fn && r[j].kind == kind))
                j++;
            if (j == used) {
                if (used == cap) {
                    cap = cap ? 2 * cap : 16;
                    struct region_sum *g = realloc(r, cap * sizeof *r);
                    if (!g)
                        break;
                    r = g;
                }
                memset(&r[used], 0, sizeof r[used]);
                r[used].fn = fn;
                r[used].kind = kind;
                used++;
            }
            struct region_sum *m = &r[j];
            uint64_t calls = atomic_load_explicit(&a->calls, memory_order_relaxed);
            uint64_t ticks = atomic_load_explicit(&a->ticks, memory_order_relaxed);
            m->threads++;
            m->calls = calls > m->calls ? calls : m->calls;
            m->max_ticks = ticks > m->max_ticks ? ticks : m->max_ticks;
            m->sum_ticks += ticks;
            m->tasks += atomic_load_explicit(&a->tasks, memory_order_relaxed);
            for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
                m->count[c] += atomic_load_explicit(&a->count[c], memory_order_relaxed);
            for (unsigned o = 0; o < OS_PERF_NCOUNTERS; o++)
                m->os[o] += atomic_load_explicit(&a->os[o], memory_order_relaxed);
            m->offcpu_ns += atomic_load_explicit(&a->offcpu_ns, memory_order_relaxed);
            m->sleep_ticks += atomic_load_explicit(&a->sleep_ticks, memory_order_relaxed);
            m->voluntary += atomic_load_explicit(&a->voluntary, memory_order_relaxed);
            m->involuntary += atomic_load_explicit(&a->involuntary, memory_order_relaxed);
        }
    }
    *n = used;
    return r;
}

/* The symbol of fn as a JSON string, or null. */
static void json_symbol(FILE *f, void *fn)
{
    char name[256], module[512];
    unsigned long off;
    if (!os_symbol_name(fn, name, sizeof name, module, sizeof module, &off)) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const char *s = name; *s; s++)
        fputc(*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 ? '?' : *s, f);
    fputc('"', f);
}

static void json_regions(FILE *f, struct region_sum *r, unsigned n, bool os_on, bool hw)
{
    fputs("  \"regions\": [", f);
    for (unsigned i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"kind\": \"%s\", \"fn\": \"%p\", \"symbol\": ", i ? "," : "",
                r[i].kind == INSTR_PARALLEL ? "parallel" : "taskloop", r[i].fn);
        json_symbol(f, r[i].fn);
        fprintf(f, ", \"calls\": %llu, \"threads\": %u, \"wall_s\": %.9g, \"thread_s\": %.9g",
                (unsigned long long)r[i].calls, r[i].threads, ticks_s(r[i].max_ticks),
                ticks_s(r[i].sum_ticks));
        if (r[i].kind == INSTR_TASKLOOP)
            fprintf(f, ", \"tasks\": %llu", (unsigned long long)r[i].tasks);
        fputs(",\n      \"counters\": {", f);
        instr_fold(r[i].count);
        for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
            fprintf(f, "%s\"%s\": %llu", c ? ", " : "", instr_counter_name((enum instr_counter)c),
                    (unsigned long long)r[i].count[c]);
        fputs("},\n      \"os\": ", f);
        if (os_on) {
            fputc('{', f);
            json_os_values(f, r[i].os, hw);
            fprintf(f, ", \"voluntary_switches\": %llu, \"involuntary_switches\": %llu",
                    (unsigned long long)r[i].voluntary, (unsigned long long)r[i].involuntary);
            fprintf(f, ", \"descheduled_s\": %.9g}",
                    instr_descheduled_ns(r[i].offcpu_ns, r[i].sleep_ticks) * 1e-9);
        } else {
            fputs("null", f);
        }
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

/* The top-level "os" object: asked for, available (or why not), and the
 * OS-noise summary over the threads that had counters. */
static void json_os(FILE *f, struct instr_thread **v, unsigned n, struct region_sum *r,
                    unsigned nr)
{
    int refusal = instr_os_refusal();
    bool asked = instr_flags.os;
    bool available = asked && !refusal;
    fprintf(f, "  \"os\": {\"requested\": %s, \"available\": %s, \"reason\": ",
            asked ? "true" : "false", available ? "true" : "false");
    if (!asked)
        fputs("\"not requested (ILAN_COUNTERS=os or all)\"", f);
    else if (refusal)
        fprintf(f, "\"perf_event_open: %s\"", os_perf_refusal(refusal));
    else
        fputs("null", f);
    fprintf(f, ", \"hardware\": %s",
            instr_flags.level >= INSTR_ALL && available && !instr_os_hw_missing() ? "true"
                                                                                  : "false");
    uint64_t cs = 0, mig = 0, region_ticks = 0, vol = 0, invol = 0;
    double desched = 0;
    unsigned with = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t os[OS_PERF_NCOUNTERS];
        if (!thread_os(v[i], os))
            continue;
        with++;
        cs += os[OS_PERF_CONTEXT_SWITCHES];
        mig += os[OS_PERF_CPU_MIGRATIONS];
        desched += thread_descheduled_ns(v[i]);
        vol += atomic_load_explicit(&v[i]->ext->voluntary, memory_order_relaxed);
        invol += atomic_load_explicit(&v[i]->ext->involuntary, memory_order_relaxed);
    }
    for (unsigned i = 0; i < nr; i++)
        if (r[i].kind == INSTR_PARALLEL)
            region_ticks += r[i].sum_ticks;
    if (with) {
        double in_regions = ticks_s(region_ticks);
        fprintf(f, ",\n    \"noise\": {\"threads\": %u, \"context_switches\": %llu, "
                   "\"cpu_migrations\": %llu, \"voluntary_switches\": %llu, "
                   "\"involuntary_switches\": %llu, \"descheduled_s\": %.9g, "
                   "\"region_thread_s\": %.9g, \"descheduled_fraction\": %.6f}",
                with, (unsigned long long)cs, (unsigned long long)mig, (unsigned long long)vol,
                (unsigned long long)invol, (double)desched * 1e-9,
                in_regions, in_regions > 0 ? (double)desched * 1e-9 / in_regions : 0.0);
    } else {
        fputs(", \"noise\": null", f);
    }
    fputs("},\n", f);
}

void instr_report_json(FILE *f)
{
    fprintf(f, "  \"counters\": {\"level\": \"%s\", \"clock\": \"%s\"",
            level_names[instr_flags.level], instr_flags.on ? os_ticks_source() : "none");
    fputs(", \"names\": {", f);
    static const char *const what[] = {
#define INSTR_X(name, text) text,
        INSTR_COUNTERS(INSTR_X)
#undef INSTR_X
    };
    for (unsigned c = 0; c < INSTR_NCOUNTERS; c++)
        fprintf(f, "%s\"%s\": \"%s\"", c ? ", " : "", instr_counter_name((enum instr_counter)c),
                what[c]);
    fputs("}},\n", f);
    unsigned n = 0, nr = 0;
    if (instr_flags.on)
        instr_sync(instr_self);
    struct instr_thread **v = instr_flags.on ? threads_in_order(&n) : NULL;
    bool hw = instr_flags.level >= INSTR_ALL;
    fputs("  \"threads\": [", f);
    for (unsigned i = 0; i < n; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_thread(f, v[i], hw);
    }
    fputs(n ? "\n  ],\n" : "],\n", f);
    struct region_sum *r = v ? regions_merged(v, n, &nr) : NULL;
    json_os(f, v, n, r, nr);
    json_regions(f, r, nr, instr_flags.os && !instr_os_refusal(), hw);
    free(r);
    free(v);
}

void instr_report_summary(FILE *f)
{
    if (!instr_flags.on)
        return;
    unsigned n = 0;
    instr_sync(instr_self);
    struct instr_thread **v = threads_in_order(&n);
    if (!v)
        return;
    fprintf(f, "ilan counters (%s, clock %s): %u threads\n", level_names[instr_flags.level],
            os_ticks_source(), n);
    fprintf(f, "  %6s %9s %9s %9s %8s %8s %8s %6s %6s %6s %6s %6s %6s %6s\n", "thread", "created",
            "executed", "foreign", "steals", "remote", "sleeps", "task%", "creat%", "twait%",
            "barr%", "stall%", "sleep%", "idle%");
    for (unsigned i = 0; i < n; i++) {
        const struct instr_thread *t = v[i];
        uint64_t c[INSTR_NCOUNTERS], total = 0, st[INSTR_NSTATES];
        for (unsigned k = 0; k < INSTR_NCOUNTERS; k++)
            c[k] = atomic_load_explicit(&t->count[k], memory_order_relaxed);
        instr_fold(c);
        for (unsigned s = 0; s < INSTR_NSTATES; s++)
            total += st[s] = atomic_load_explicit(&t->state_ticks[s], memory_order_relaxed);
        fprintf(f, "  %6u %9llu %9llu %9llu %8llu %8llu %8llu", t->id,
                (unsigned long long)c[INSTR_C_tasks_created],
                (unsigned long long)c[INSTR_C_tasks_executed],
                (unsigned long long)c[INSTR_C_tasks_executed_foreign],
                (unsigned long long)(c[INSTR_C_steals_local] + c[INSTR_C_steals_remote]),
                (unsigned long long)c[INSTR_C_steals_remote], (unsigned long long)c[INSTR_C_sleeps]);
        for (unsigned s = 0; s < INSTR_NSTATES; s++)
            fprintf(f, " %6.1f", total ? 100.0 * (double)st[s] / (double)total : 0.0);
        fputc('\n', f);
    }
    int refusal = instr_os_refusal();
    if (instr_flags.os && refusal) {
        fprintf(f, "  OS counters unavailable: perf_event_open: %s\n", os_perf_refusal(refusal));
    } else if (instr_flags.os) {
        fprintf(f, "  %6s %9s %9s %12s %12s\n", "thread", "ctxsw", "migr", "oncpu_s", "desched_s");
        for (unsigned i = 0; i < n; i++) {
            uint64_t os[OS_PERF_NCOUNTERS];
            if (!thread_os(v[i], os))
                continue;
            fprintf(f, "  %6u %9llu %9llu %12.6f %12.6f\n", v[i]->id,
                    (unsigned long long)os[OS_PERF_CONTEXT_SWITCHES],
                    (unsigned long long)os[OS_PERF_CPU_MIGRATIONS],
                    (double)os[OS_PERF_TASK_CLOCK_NS] * 1e-9,
                    thread_descheduled_ns(v[i]) * 1e-9);
        }
    }
    free(v);
}

/* The whole report when only ILAN_COUNTERS asked: a JSON object of the
 * counters' sections alone (unused: the summary goes to stderr). */
static void counters_json(FILE *f)
{
    fputs("{\n", f);
    instr_report_json(f);
    fputs("  \"ilan_version\": \"" ILAN_VERSION_STRING "\"\n}\n", f);
}

void instr_summary_at_exit(void)
{
    report_at_exit("stderr", counters_json, instr_report_summary);
}
